"""Building a run's components from its config: model, learner, backend, env, buffer (shared by both runtimes)."""

from __future__ import annotations

import copy
import itertools
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rlvr.buffer import ReplayBuffer, ShardedReplayBuffer, make_buffer
from rlvr.core.errors import ConfigError
from rlvr.core.registry import import_user_modules
from rlvr.core.seeding import derive_seed, make_rng
from rlvr.core.types import Example
from rlvr.envs import BatchedEnv, hindsight_fns, make_env
from rlvr.policy import GenerationBackend, Learner, SamplingParams, load_model, make_backend, tiny_model
from rlvr.policy.prompts import encode_prompt, eos_token_ids
from rlvr.tasks.generated import GeneratedTask
from rlvr.train.config import ModelConfig, RunConfig

log = logging.getLogger("rlvr.train")


def resolve_device(config: ModelConfig) -> tuple[str, str]:
    """The (device, dtype) that `model.device` / `model.dtype` mean on this machine ('auto' resolved)."""
    import torch

    cuda = torch.cuda.is_available()
    device = config.device if config.device != "auto" else ("cuda" if cuda else "cpu")
    if device.startswith("cuda") and not cuda:
        raise ConfigError(
            f"model.device={config.device!r} but torch sees no CUDA device here (torch {torch.__version__}); "
            "set model.device=auto (or cpu) to train on the CPU"
        )
    dtype = config.dtype
    if dtype == "auto":
        dtype = "bfloat16" if device.startswith("cuda") and torch.cuda.is_bf16_supported() else "float32"
    return device, dtype


def build_model(config: ModelConfig, seed: int, cache_dir: str | Path | None = None) -> tuple[Any, Any]:
    """The trainable model and its tokenizer (a tiny random one for name='tiny', saved under `cache_dir`)."""
    device, dtype = resolve_device(config)
    if config.name == "tiny":
        save_dir = None if cache_dir is None else Path(cache_dir) / "tiny-model"
        model, tokenizer = tiny_model(save_dir, seed=seed, dtype=dtype, **config.tiny)
        return model.to(device), tokenizer
    if config.tiny:
        raise ConfigError("model.tiny options only apply to model.name='tiny'; remove them or set name: tiny")
    from rlvr.train.checkpoint import find_run_model

    run = find_run_model(config.name) if Path(config.name).expanduser().exists() else None
    return load_model(run.model_dir if run is not None else config.name, dtype=dtype, device=device)


def build_backend(config: RunConfig, model: Any, tokenizer: Any) -> GenerationBackend:
    """The generation backend: an HF copy of the model (synced by the trainer) or a vLLM engine on its dir."""
    kwargs = dict(config.rollout.backend_kwargs)
    if config.rollout.backend == "hf":
        # a separate copy, so generation sees the weights of the last sync (train.sync_every), not every update
        return make_backend("hf", copy.deepcopy(model), tokenizer, seed=config.train.seed, **kwargs)
    path = getattr(model, "name_or_path", None)
    if not path or not Path(path).is_dir():
        raise ConfigError(
            f"the vllm backend loads the model from a directory, but the model came from {path!r}"
        )
    return make_backend("vllm", str(path), tokenizer, seed=config.train.seed, **kwargs)


def build_env(config: RunConfig, *, pool: Any = None) -> BatchedEnv:
    """The batched training env (P prompts x G samples) with its verifier pool."""
    import_user_modules(config.env.imports)  # here, so Ray workers load the user's envs from the same setting
    return BatchedEnv(
        config.env.id,
        group_size=config.rollout.group_size,
        num_workers=config.env.verifier_workers if pool is None else 0,
        timeout_s=config.env.verifier_timeout_s,
        pool=pool,
        seed=config.train.seed,
        **config.env.kwargs,
    )


def eval_env_kwargs(config: RunConfig, task: Any) -> dict[str, Any]:
    """Options of the held-out env: explicit `env.eval_kwargs`, else the test split / another generator seed."""
    if config.env.eval_kwargs is not None:
        return dict(config.env.eval_kwargs)
    kwargs = dict(config.env.kwargs)
    if isinstance(task, GeneratedTask):
        kwargs["seed"] = int(kwargs.get("seed", 0)) + 1_000_003  # other examples of the same generator
    else:
        kwargs["split"] = "test"
    return kwargs


def build_buffer(config: RunConfig, env: BatchedEnv, tokenizer: Any) -> ReplayBuffer | ShardedReplayBuffer:
    """The replay buffer, with hindsight callables from the env when `buffer.hindsight` is set."""
    hooks: dict[str, Any] = {}
    if config.buffer.hindsight is not None:
        probe = make_env(config.env.id, **config.env.kwargs)
        achieved, relabel = hindsight_fns(probe, lambda prompt: encode_prompt(tokenizer, prompt)[1])
        hooks = {"achieved_goal": achieved, "relabel": relabel}
    return make_buffer(config.buffer, make_rng(config.train.seed, "buffer"), **hooks)


def build_learner(config: RunConfig, model: Any, tokenizer: Any) -> Learner:
    """The learner (optimizer, loss) on the model."""
    return Learner(model, tokenizer, config.learner)


class ExampleStream:
    """The seeded, epoch-shuffled stream of training examples, resumable by count."""

    def __init__(self, task: Any, seed: int, consumed: int = 0) -> None:
        self.task = task
        self.seed = seed
        self.consumed = 0
        self._it: Iterator[Example] = task.epochs(seed)
        self.skip(consumed)

    def skip(self, n: int) -> None:
        """Advance past `n` examples (used on resume)."""
        for _ in itertools.islice(self._it, n):
            self.consumed += 1

    def take(self, n: int) -> list[Example]:
        """The next `n` examples."""
        out = list(itertools.islice(self._it, n))
        self.consumed += len(out)
        return out


#: largest training task whose keys are all generated to keep the held-out set disjoint from it
MAX_TRAIN_KEYS = 200_000


def held_out_examples(config: RunConfig, train_task: Any) -> tuple[Any, list[Example]]:
    """The env and the fixed held-out examples of periodic evaluation (see `eval.held_out`).

    'distribution' is every problem of a finite generated task (its `support()`), so the mean reward over it
    is the exact expected reward over the task distribution (a seeded uniform sample of `eval.num_examples`
    of them when the support is larger: then an unbiased estimate); 'disjoint' draws `eval.num_examples` distinct
    problems, seeded by `eval.seed` (default train.seed), none of which occurs in the training task. Nothing
    falls back silently: no disjoint problem is an error, fewer than asked is logged.
    """
    kwargs = eval_env_kwargs(config, train_task)
    try:
        env = make_env(config.env.id, **kwargs)
    except (ConfigError, TypeError, ValueError) as exc:
        if config.env.eval_kwargs is not None:
            raise
        # e.g. a dataset that is itself a test set (MATH500) has no 'test' split to hold out
        raise ConfigError(
            f"eval is on (eval.every={config.eval.every}) but no held-out set of {config.env.id} could be "
            f"built with {kwargs} ({exc}); set env.eval_kwargs to the options of a held-out env (another "
            f"split, path or dataset) or eval.every=0"
        ) from exc
    task = env.task
    support = task.support() if isinstance(task, GeneratedTask) else None
    mode = config.eval.held_out
    if mode == "auto":
        mode = "distribution" if support is not None else "disjoint"
    if mode == "distribution":
        if support is None:
            raise ConfigError(
                f"eval.held_out='distribution' needs a generated task with a finite support (task.support()); "
                f"{type(task).__name__} of {config.env.id} with {kwargs} has none: use eval.held_out=disjoint"
            )
        n = config.eval.num_examples
        if len(support) > n:  # a uniform sample of problems: unbiased for the expected reward, not exact
            seed = config.train.seed if config.eval.seed is None else config.eval.seed
            keep = np.sort(make_rng(seed, "eval-examples").choice(len(support), n, replace=False))
            log.info("held-out: %d of the %d problems of the task distribution", n, len(support))
            support = [support[int(i)] for i in keep]
        return env, support
    # another seed of a generator can repeat training problems, and a dataset given as one file (path=) has no
    # splits, so its "test split" is the training data: every held-out problem is checked against training
    if len(train_task) > MAX_TRAIN_KEYS:
        log.warning("held-out set checked against the first %d training problems only", MAX_TRAIN_KEYS)
    train_keys = {train_task[i].key for i in range(min(len(train_task), MAX_TRAIN_KEYS))}
    n = min(config.eval.num_examples, len(task))
    eval_seed = config.train.seed if config.eval.seed is None else config.eval.seed
    chosen: dict[str, Example] = {}
    for i in make_rng(eval_seed, "eval-examples").permutation(len(task)):
        ex = task[int(i)]
        if ex.key not in train_keys:
            chosen.setdefault(ex.key, ex)
            if len(chosen) == n:
                break
    if not chosen:
        raise ConfigError(
            f"every problem of the held-out env ({config.env.id}, {kwargs}) also occurs in the training task, "
            "so no disjoint held-out set exists (a small finite task); set eval.held_out=distribution to "
            "evaluate on the whole task distribution, or env.eval_kwargs to a disjoint env"
        )
    if len(chosen) < n:
        log.warning(
            "only %d distinct held-out problems of %s are disjoint from training (eval.num_examples=%d)",
            len(chosen),
            config.env.id,
            n,
        )
    return env, list(chosen.values())


def gold_probability(
    model: Any, tokenizer: Any, env: Any, examples: list[Example], batch_size: int = 64
) -> np.ndarray:
    """Per example, the model's probability of the task's gold completion + EOS (teacher-forced, T = 1)."""
    import torch

    base = getattr(env, "unwrapped", env)  # a VerifiedEnv: its task, prompt template and chat flag
    task, template, chat = base.task, base.template, getattr(base, "chat", False)
    eos = eos_token_ids(tokenizer, getattr(model, "generation_config", None))[0]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos
    pairs = []
    for ex in examples:
        _, prompt_ids = encode_prompt(tokenizer, template.render(ex, chat=chat))
        completion = tokenizer(task.gold_completion(ex), add_special_tokens=False)["input_ids"]
        pairs.append((list(prompt_ids), [*completion, eos]))
    device = next(model.parameters()).device
    out = []
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            for lo in range(0, len(pairs), batch_size):
                chunk = pairs[lo : lo + batch_size]
                width = max(len(p) + len(c) for p, c in chunk)
                ids = torch.full((len(chunk), width), pad, dtype=torch.long)
                attn = torch.zeros_like(ids)
                target = torch.zeros(len(chunk), width, dtype=torch.bool)
                for row, (p, c) in enumerate(chunk):  # right padding: positions are those of the unpadded row
                    ids[row, : len(p) + len(c)] = torch.tensor(p + c)
                    attn[row, : len(p) + len(c)] = 1
                    target[row, len(p) : len(p) + len(c)] = True
                logits = model(input_ids=ids.to(device), attention_mask=attn.to(device)).logits.float()
                logp = torch.log_softmax(logits[:, :-1], dim=-1)
                tok = logp.gather(-1, ids[:, 1:].to(device).unsqueeze(-1)).squeeze(-1)
                seq = (tok * target[:, 1:].to(device)).sum(dim=1)
                out.append(torch.exp(seq.double()).cpu().numpy())  # float64: long completions underflow
    finally:
        model.train(was_training)
    return np.concatenate(out) if out else np.zeros(0)


def evaluate_held_out(
    config: RunConfig, backend: GenerationBackend, train_task: Any, pool: Any, cache: list[Any]
) -> dict[str, float]:
    """`eval/*` metrics of `backend`'s current weights on the run's fixed held-out examples.

    `cache` (a list the caller keeps, empty at first) holds the held-out env and examples between calls.
    With `eval.gold_prob`, also eval/gold_prob (mean probability of the gold completion, exact).
    """
    from rlvr.eval import evaluate_backend

    if not cache:
        cache.extend(held_out_examples(config, train_task))
    env, examples = cache
    ec = config.eval
    out: dict[str, float] = {"eval/num_problems": float(len(examples))}
    if ec.gold_prob:
        # not in the GenerationBackend protocol: the HF backend (or a user's torch one) has both
        model, tokenizer = getattr(backend, "model", None), getattr(backend, "tokenizer", None)
        if model is None or tokenizer is None or not hasattr(model, "parameters"):
            raise ConfigError(
                "eval.gold_prob scores gold completions with the generation backend's torch model; "
                "use rollout.backend=hf or set eval.gold_prob=false"
            )
        out["eval/gold_prob"] = float(np.mean(gold_probability(model, tokenizer, env, examples)))
    if ec.samples:  # 0: only the exact gold-probability evaluation
        sampling = SamplingParams(
            temperature=ec.temperature,
            top_p=ec.top_p,
            max_new_tokens=config.rollout.max_new_tokens,
            seed=derive_seed(config.train.seed, "eval"),
        )
        report = evaluate_backend(backend, env, examples, ec.samples, sampling, pool=pool)
        out.update({f"eval/{k}": float(v) for k, v in report.summary.items() if isinstance(v, int | float)})
        save_eval_samples(config, report.samples[: ec.save_samples])
    return out


def save_eval_samples(config: RunConfig, samples: Sequence[Any]) -> None:
    """Append a few graded held-out completions to output_dir/eval_samples.jsonl (what the policy writes)."""
    if not samples:
        return
    path = Path(config.train.output_dir) / "eval_samples.jsonl"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            for s in samples:
                fh.write(s.to_json() + "\n")
    except OSError as exc:  # e.g. a Ray worker on a node without output_dir: the metrics still count
        log.warning("cannot save evaluation samples to %s: %s", path, exc)


def check_model_name(name: str) -> None:
    """Fail fast (before any weights load) on a model name that cannot resolve: a typo'd alias or a missing path."""
    import difflib

    from rlvr.policy.models import MODEL_ALIASES
    from rlvr.train.checkpoint import find_run_model

    if name == "tiny" or name.lower() in MODEL_ALIASES:
        return
    path = Path(name).expanduser()
    if path.exists():
        try:
            found = find_run_model(path)
        except FileNotFoundError as exc:
            raise ConfigError(f"model.name={name!r}: {exc}") from None
        if found is None and not (path / "config.json").is_file() and not name.endswith(".gguf"):
            raise ConfigError(
                f"model.name={name!r} is a path but holds no model (no config.json, and it is not a training "
                "run or checkpoint); pass a model directory, runs/NAME or runs/NAME/checkpoints/step-N"
            )
        return
    close = difflib.get_close_matches(name.lower(), MODEL_ALIASES, n=1, cutoff=0.6)
    if close:
        raise ConfigError(f"model.name={name!r} is not a known alias; did you mean {close[0]!r}?")
    looks_local = name.startswith((".", "/", "~")) or name.count("/") != 1 or Path(name).suffix != ""
    if looks_local:
        raise ConfigError(
            f"model.name={name!r}: no such file or directory (and not a hub id 'org/name' or an alias: "
            f"{', '.join(sorted(MODEL_ALIASES))})"
        )


def preflight(config: RunConfig) -> None:
    """Everything a run needs except model weights, checked before any is loaded (`rlvr train --dry-run`).

    Imports the user's env modules, builds the env (its task loaded, which grades every dataset gold, and its
    options checked), resolves the model name, and checks optional loggers, so a mistake costs seconds and
    one clear line.
    """
    import importlib.util

    from rlvr.train.rundir import prepare_run_dir

    import_user_modules(config.env.imports)
    prepare_run_dir(config, apply=False)
    check_model_name(config.model.name)
    if config.distributed is None:  # a cluster's driver may have no GPU where its workers do
        resolve_device(config.model)
    try:
        env = make_env(config.env.id, **config.env.kwargs)
    except TypeError as exc:  # an unknown option of the task factory or env
        raise ConfigError(f"env {config.env.id!r} with kwargs {dict(config.env.kwargs)}: {exc}") from None
    if config.eval.every:  # the held-out set too: no split, or no problem disjoint from training, fails now
        held_out_env, _ = held_out_examples(config, env.task)
        held_out_env.close()
    env.close()
    if config.train.wandb_project and importlib.util.find_spec("wandb") is None:
        raise ConfigError(
            "train.wandb_project is set but wandb is not installed: `pip install wandb`, or drop the setting"
        )
