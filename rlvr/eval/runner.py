"""Running an evaluation: sample K completions per problem, grade them in the verifier pool, report.

Two entry points:

- `evaluate_backend(backend, env, examples, samples, sampling, pool)` does the work with objects the caller
  already holds (the trainer's generation backend and pool; no model reload) and touches no files. Resume
  and saving are hooks: `existing` samples are reused, `on_batch` receives each newly graded batch.
- `evaluate(model_or_backend, env, ...)` is the full run behind `rlvr eval`: it builds what is missing
  (backend from a model name, verifier pool), reuses `output_dir/samples.jsonl`, appends every batch to it
  as it is graded, and writes summary.json, report.md and plot.png.
"""

from __future__ import annotations

import dataclasses
import hashlib
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import derive_seed
from rlvr.core.types import Example
from rlvr.envs.registration import EnvRecipe, get_recipe, make_env
from rlvr.envs.templates import PromptTemplate
from rlvr.envs.verified_env import VerifiedEnv
from rlvr.eval.answers import extracted_answer
from rlvr.eval.config import DEFAULT_GROUP_BY, EvalConfig
from rlvr.eval.metrics import default_ks
from rlvr.eval.records import EvalSample, append_samples, json_safe, read_samples, settings_hash
from rlvr.eval.report import EvalReport, build_report
from rlvr.policy.base import GenerationBackend, SamplingParams

#: example metadata copied into each sample record besides the report's group fields (ids, provenance)
RECORD_METADATA = ("unique_id", "task_id", "row", "split", "source")


def resolve_env(env: Any, env_options: Mapping[str, Any] | None = None) -> VerifiedEnv:
    """A single-turn `VerifiedEnv` from an env id, an `EnvRecipe` or a built (possibly wrapped) env."""
    if isinstance(env, str | EnvRecipe):
        from rlvr.envs.builtin import register_builtin_envs

        register_builtin_envs()
        built = make_env(env, **dict(env_options or {}))
    else:
        if env_options:
            raise ConfigError("env_options apply to an env id; this env is already built")
        built = getattr(env, "unwrapped", env)
    if not isinstance(built, VerifiedEnv):
        raise ConfigError(f"evaluation needs an rlvr env (an id such as 'rlvr/MATH500-v0'), got {env!r}")
    if getattr(built, "max_turns", 1) > 1:
        raise ConfigError(
            f"{env!r} is multi-turn; evaluation grades one completion per sample: use its single-turn env "
            "(e.g. rlvr/HumanEval-v0 instead of rlvr/HumanEvalFeedback-v0)"
        )
    return built


def env_label(env: Any, built: VerifiedEnv) -> str:
    """The env id to show in reports."""
    if isinstance(env, str):
        return env
    if isinstance(env, EnvRecipe):
        return env.id
    spec = getattr(built, "spec", None)
    return spec.id if spec is not None else f"{type(built).__name__}({built.task.name})"


def model_label(backend: Any) -> str:
    """A readable name of the model behind a backend (its path or hub id)."""
    for obj, attr in ((backend, "path"), (getattr(backend, "model", None), "name_or_path")):
        value = getattr(obj, attr, None) if obj is not None else None
        if value:
            return str(value)
    return type(backend).__name__


def auto_chat(backend: Any) -> bool:
    """Whether the backend's tokenizer has a chat template (then prompts are rendered as chat messages)."""
    return bool(getattr(getattr(backend, "tokenizer", None), "chat_template", None))


def run_settings(
    backend: Any,
    env_id: str,
    template: PromptTemplate,
    chat: bool,
    sampling: SamplingParams,
    *,
    model_name: str | None = None,
    verifier: Any = None,
) -> dict[str, Any]:
    """Everything that shapes a sample, plus its hash (`hash`): the key under which samples are reused."""
    chat_template = getattr(getattr(backend, "tokenizer", None), "chat_template", None) if chat else None
    settings: dict[str, Any] = {
        "model": model_name or model_label(backend),
        "backend": type(backend).__name__,
        "policy_version": int(getattr(backend, "policy_version", 0)),
        "env": env_id,
        "verifier": getattr(verifier, "name", type(verifier).__name__ if verifier is not None else None),
        "template": template.name,
        "template_text": [template.system, template.user],
        "chat": chat,
        "chat_template_sha": hashlib.sha256(str(chat_template).encode()).hexdigest()[:12]
        if chat_template
        else None,
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "top_k": sampling.top_k,
        "max_new_tokens": sampling.max_new_tokens,
        "stop": list(sampling.stop),
        "seed": sampling.seed,
    }
    settings["hash"] = settings_hash(settings)
    settings["rlvr_version"] = _rlvr_version()  # informational; not part of the hash
    return settings


def _rlvr_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rlvr")
    except PackageNotFoundError:
        return "unknown"


def _metadata(example: Example, group_by: Sequence[str]) -> dict[str, Any]:
    # grouping fields and ids only: solutions and test code stay in the dataset
    wanted = (*group_by, *RECORD_METADATA)
    return {k: json_safe(example.metadata[k]) for k in wanted if k in example.metadata}


def _verify_fn(env: VerifiedEnv, pool: Any) -> Callable[[list[tuple[str, Any]]], list[Any]]:
    if pool is not None:
        return lambda pairs: list(pool.verify_batch(pairs)) if pairs else []
    return lambda pairs: list(env.verifier.verify_batch(pairs)) if pairs else []


def _todo(
    examples: Sequence[Example], samples: int, done: set[tuple[str, int]]
) -> list[tuple[Example, list[int]]]:
    todo = []
    for ex in examples:
        missing = [i for i in range(samples) if (ex.key, i) not in done]
        if missing:
            todo.append((ex, missing))
    # batch problems that need the same number of samples together (one generate call takes one n)
    return sorted(todo, key=lambda item: -len(item[1]))


def evaluate_backend(
    backend: GenerationBackend,
    env: Any,
    examples: Sequence[Example] | None = None,
    samples: int = 1,
    sampling: SamplingParams | None = None,
    pool: Any = None,
    *,
    ks: Sequence[int] | None = None,
    env_options: Mapping[str, Any] | None = None,
    chat: bool | None = None,
    batch_size: int = 16,
    group_by: Sequence[str] = DEFAULT_GROUP_BY,
    model_name: str | None = None,
    env_name: str | None = None,
    existing: Iterable[EvalSample] = (),
    on_batch: Callable[[list[EvalSample]], None] | None = None,
    progress: bool = False,
) -> EvalReport:
    """Generate `samples` completions per example with `backend`, grade them with the env's verifier, report.

    `env` is an env id (with `env_options`), an `EnvRecipe` or a built env; `examples` default to all of the
    env's task. Grading goes through `pool.verify_batch` (hard-killed timeouts) or, without a pool, the
    verifier in this process. No files are read or written: `existing` samples with this run's settings hash
    are reused instead of regenerated, and `on_batch` is called with each newly graded batch. `model_name` and
    `env_name` label the run (default: from the backend and env). `chat=None` renders prompts as the env says
    (its `chat` option), as training does; True/False force chat messages / plain text.
    """
    built = resolve_env(env, env_options)
    sampling = sampling or SamplingParams()
    if sampling.seed is None:  # a fixed seed keeps reruns and resumes reproducible
        sampling = dataclasses.replace(sampling, seed=0)
    ks = tuple(ks) if ks is not None else default_ks(samples)
    if not isinstance(samples, int) or samples < 1:
        raise ConfigError(f"samples must be a positive int (completions per problem), got {samples!r}")
    if max(ks) > samples:
        raise ConfigError(f"k={max(ks)} exceeds samples={samples}; raise samples or drop the k")
    chosen = distinct_examples(built.task if examples is None else examples)
    if not chosen:
        raise ConfigError("no examples to evaluate; check limit/filters or pass examples=[...]")
    # one default for training and evaluation: the env's format (plain text unless the env or -o chat=true
    # says chat), so a policy is evaluated on the prompts it was trained on
    use_chat = bool(chat) if chat is not None else built.chat
    settings = run_settings(
        backend,
        env_name or env_label(env, built),
        built.template,
        use_chat,
        sampling,
        model_name=model_name,
        verifier=built.verifier,
    )
    settings["samples"] = samples
    keys = {ex.key for ex in chosen}
    reuse: dict[tuple[str, int], EvalSample] = {}
    for s in existing:
        if s.settings == settings["hash"] and s.key in keys and s.index < samples:
            reuse.setdefault((s.key, s.index), s)
    verify = _verify_fn(built, pool)
    todo = _todo(chosen, samples, set(reuse))
    new: list[EvalSample] = []
    bar = None
    moved = [0]  # completions the backend reported during the current batch
    hook = getattr(backend, "on_completions", None)
    if progress and todo:
        from tqdm.auto import tqdm

        shown = tqdm(total=sum(len(m) for _, m in todo), desc=f"eval {settings['env']}", unit="sample")
        bar = shown

        def advance(k: int) -> None:  # the bar moves as each completion finishes, not once per batch
            moved[0] += k
            shown.update(k)

        backend.on_completions = advance
    try:
        start = 0
        while start < len(todo):
            n = len(todo[start][1])
            batch = [todo[start]]
            while start + len(batch) < len(todo) and len(batch) < batch_size:
                if len(todo[start + len(batch)][1]) != n:
                    break
                batch.append(todo[start + len(batch)])
            start += len(batch)
            moved[0] = 0
            graded = _run_batch(
                backend, built, batch, n, sampling, use_chat, settings["hash"], verify, group_by
            )
            new.extend(graded)
            if on_batch is not None:
                on_batch(graded)
            if bar is not None and len(graded) > moved[0]:  # a backend that reports nothing (or less)
                bar.update(len(graded) - moved[0])
    finally:
        if bar is not None:
            backend.on_completions = hook
            bar.close()
    all_samples = [*reuse.values(), *new]
    first = next((s.prompt for s in sorted(all_samples, key=lambda s: s.index) if s.key == chosen[0].key), "")
    template = {
        "name": built.template.name,
        "user": built.template.user,
        "system": built.template.system,
        "chat": use_chat,
        "example_prompt": first,
    }
    return build_report(
        chosen,
        all_samples,
        ks,
        group_by=group_by,
        settings=settings,
        template=template,
        verifier=built.verifier,
        verify_batch=verify,
        generated=len(new),
        reused=len(reuse),
    )


def _run_batch(
    backend: GenerationBackend,
    env: VerifiedEnv,
    batch: list[tuple[Example, list[int]]],
    n: int,
    sampling: SamplingParams,
    chat: bool,
    settings: str,
    verify: Callable[[list[tuple[str, Any]]], list[Any]],
    group_by: Sequence[str],
) -> list[EvalSample]:
    """Generate n completions for each problem of the batch and grade them in one verifier call."""
    prompts = [env.template.render(ex, chat=chat) for ex, _ in batch]
    # the batch's seed depends on which samples it holds, not on the order batches ran in
    seed = derive_seed(int(sampling.seed or 0), "eval", [(ex.key, idx[0]) for ex, idx in batch])
    generations = backend.generate(prompts, n, dataclasses.replace(sampling, seed=seed))
    if len(generations) != len(batch) or any(len(g) != n for g in generations):
        raise RuntimeError(
            f"backend {type(backend).__name__} returned {[len(g) for g in generations]} generations for "
            f"{len(batch)} prompts x {n}"
        )
    pairs = [(g.completion, ex.reference) for (ex, _), gens in zip(batch, generations) for g in gens]
    verdicts = verify(pairs)
    out: list[EvalSample] = []
    flat = iter(verdicts)
    version = int(getattr(backend, "policy_version", 0))
    for (ex, indices), gens in zip(batch, generations):
        for index, gen in zip(indices, gens):
            verdict = next(flat)
            out.append(
                EvalSample(
                    key=ex.key,
                    index=index,
                    settings=settings,
                    task=ex.task,
                    prompt=gen.prompt,
                    completion=gen.completion,
                    extracted=extracted_answer(verdict),
                    passed=bool(verdict.passed),
                    score=float(verdict.score),
                    reason=str(verdict.reason),
                    num_tokens=len(gen.completion_ids),
                    finish_reason=str(gen.finish_reason),
                    reference=ex.reference if isinstance(ex.reference, str) else None,
                    metadata=_metadata(ex, group_by),
                    details=json_safe(dict(verdict.details)),
                    policy_version=version,
                )
            )
    return out


def select_examples(env: VerifiedEnv, config: EvalConfig) -> list[Example]:
    """Distinct problems to evaluate (one per key): the first `config.limit`, or a seeded random subset."""
    task = env.task.shuffled(config.seed) if config.shuffle else env.task
    chosen = distinct_examples(task, config.limit)
    if config.limit is not None and len(chosen) < config.limit:
        warnings.warn(
            f"limit={config.limit} but the task has only {len(chosen)} distinct problems; evaluating those",
            stacklevel=2,
        )
    return chosen


def distinct_examples(examples: Iterable[Example], limit: int | None = None) -> list[Example]:
    """The examples with their first occurrence of each key kept (a problem counts once), up to `limit`."""
    seen: set[str] = set()
    out: list[Example] = []
    for ex in examples:
        if limit is not None and len(out) >= limit:
            break
        if ex.key not in seen:
            seen.add(ex.key)
            out.append(ex)
    return out


def eval_env_options(env_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """An env id's options for evaluation: its test split unless a split is given (training envs load train)."""
    from rlvr.envs.builtin import register_builtin_envs

    register_builtin_envs()
    recipe = get_recipe(env_id)
    out = dict(options)
    if "split" in recipe.task_kwargs and "split" not in out and "task" not in out:
        out["split"] = "test"
    return out


def evaluate(
    model: GenerationBackend | str,
    env: Any = None,
    *,
    examples: Sequence[Example] | None = None,
    pool: Any = None,
    config: EvalConfig | None = None,
    **overrides: Any,
) -> EvalReport:
    """Evaluate a model (a backend, or a path / hub id / alias to load) on an env; see `EvalConfig` for options.

    `rlvr.eval.evaluate(backend, "rlvr/MATH500-v0", samples=4, env_options={"split": "test"})` returns an
    `EvalReport`; with `output_dir` it also writes samples.jsonl (resumable), summary.json, report.md and
    plot.png there. A caller that holds a backend and a pool (the trainer) passes them and loses nothing.
    """
    config = config or EvalConfig()
    if isinstance(env, str):
        overrides["env"] = env
    if overrides:
        config = config.replace(**overrides)
    env_obj = env if env is not None and not isinstance(env, str) else config.env
    if isinstance(env_obj, str):
        config = config.replace(env_options=eval_env_options(env_obj, config.env_options))
    built = resolve_env(env_obj, config.env_options if isinstance(env_obj, str | EnvRecipe) else None)
    chosen = list(examples) if examples is not None else select_examples(built, config)
    if examples is not None and config.limit is not None:
        chosen = chosen[: config.limit]
    existing: list[EvalSample] = []
    path = config.samples_path
    if path is not None and config.resume:
        existing = read_samples(path)
    elif path is not None and path.exists():
        path.unlink()  # resume=False: start the file afresh

    own_backend = isinstance(model, str)
    backend: Any = model
    if own_backend:
        from rlvr.policy.backends import make_backend

        options = {"dtype": config.dtype, "seed": config.seed, **config.backend_options}
        backend = make_backend(config.backend, model, **options)
    own_pool = pool is None
    if own_pool:
        from rlvr.verifiers.grading import grading_pool, picklable

        # a verifier that cannot be pickled cannot go to pool workers: with 0 it grades here, under its own
        # deadlines (the code verifier runs every program in its sandbox) or under a SIGALRM deadline
        workers = config.num_workers if picklable(built.verifier) else 0
        pool = grading_pool(built.verifier, workers, config.timeout_s)
    try:
        report = evaluate_backend(
            backend,
            built,
            chosen,
            config.samples,
            config.sampling(),
            pool,
            ks=config.k_values,
            chat=config.chat,  # None: the env's own format, as in training
            batch_size=config.batch_size,
            group_by=config.group_by,
            model_name=config.model_name or (model if isinstance(model, str) else None),
            env_name=env_label(env_obj, built),
            existing=existing,
            on_batch=(lambda batch: append_samples(path, batch)) if path is not None else None,
            progress=config.progress,
        )
    finally:
        if own_pool and pool is not None and hasattr(pool, "close"):
            pool.close()
        if own_backend:
            backend.close()
    report.settings["env_options"] = json_safe(dict(config.env_options))
    report.settings["grading"] = _grading_label(pool)
    if config.output_dir:
        write_outputs(report, Path(config.output_dir))
    return report


def _grading_label(pool: Any) -> str:
    """Where the verdicts came from, for summary.json."""
    if pool is None:
        return "in process"
    if type(pool).__name__ == "AlarmDeadline":
        return "in process (SIGALRM deadline)"
    return f"verifier pool ({type(pool).__name__}, {getattr(pool, 'num_workers', '?')} workers)"


def write_outputs(report: EvalReport, folder: Path) -> dict[str, str]:
    """Write summary.json, report.md and plot.png of a report into `folder` (samples.jsonl is written live)."""
    import json

    from rlvr.eval.plot import plot_report

    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "samples": str(folder / "samples.jsonl"),
        "summary": str(folder / "summary.json"),
        "markdown": str(folder / "report.md"),
        "plot": str(folder / "plot.png"),
    }
    report.files = files
    plot_report(report, folder / "plot.png")
    md = f"{report.markdown()}\n\nPrompt:\n\n```\n{report.prompt_text()}\n```\n"
    (folder / "report.md").write_text(md, encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return files
