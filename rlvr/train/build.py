"""Building a run's components from its config: model, learner, backend, env, buffer (shared by both runtimes)."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from rlvr.buffer import ReplayBuffer, ShardedReplayBuffer, make_buffer
from rlvr.core.errors import ConfigError
from rlvr.core.seeding import derive_seed, make_rng
from rlvr.core.types import Example
from rlvr.envs import BatchedEnv, hindsight_fns, make_env
from rlvr.policy import GenerationBackend, Learner, SamplingParams, load_model, make_backend, tiny_model
from rlvr.policy.prompts import encode_prompt
from rlvr.tasks.generated import GeneratedTask
from rlvr.train.config import ModelConfig, RunConfig


def build_model(config: ModelConfig, seed: int, cache_dir: str | Path | None = None) -> tuple[Any, Any]:
    """The trainable model and its tokenizer (a tiny random one for name='tiny', saved under `cache_dir`)."""
    if config.name == "tiny":
        save_dir = None if cache_dir is None else Path(cache_dir) / "tiny-model"
        return tiny_model(save_dir, seed=seed, dtype=config.dtype, **config.tiny)
    if config.tiny:
        raise ConfigError("model.tiny options only apply to model.name='tiny'; remove them or set name: tiny")
    return load_model(config.name, dtype=config.dtype)


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


def held_out_examples(config: RunConfig, train_task: Any) -> tuple[Any, list[Example]]:
    """The env and the fixed, seeded list of held-out examples used by periodic evaluation."""
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
    n = min(config.eval.num_examples, len(task))
    eval_seed = config.train.seed if config.eval.seed is None else config.eval.seed
    order = make_rng(eval_seed, "eval-examples").permutation(len(task))[:n]
    train_keys: set[str] = set()
    if isinstance(task, GeneratedTask):  # generated tasks can collide by chance: drop exact repeats
        train_keys = {train_task[i].key for i in range(min(len(train_task), 4096))}
    examples = list(
        {ex.key: ex for ex in (task[int(i)] for i in np.asarray(order))}.values()
    )  # distinct only
    return env, [ex for ex in examples if ex.key not in train_keys] or examples


def evaluate_held_out(
    config: RunConfig, backend: GenerationBackend, train_task: Any, pool: Any, cache: list[Any]
) -> dict[str, float]:
    """`eval/*` metrics of `backend`'s current weights on the run's fixed held-out examples.

    `cache` (a list the caller keeps, empty at first) holds the held-out env and examples between calls.
    """
    from rlvr.eval import evaluate_backend

    if not cache:
        cache.extend(held_out_examples(config, train_task))
    env, examples = cache
    ec = config.eval
    sampling = SamplingParams(
        temperature=ec.temperature,
        top_p=ec.top_p,
        max_new_tokens=config.rollout.max_new_tokens,
        seed=derive_seed(config.train.seed, "eval"),
    )
    report = evaluate_backend(backend, env, examples, ec.samples, sampling, pool=pool)
    return {f"eval/{k}": float(v) for k, v in report.summary.items() if isinstance(v, int | float)}
