"""Environment registration: `register_env("myns/MyTask-v0", task=..., verifier=...)` and the `rlvr/` built-ins.

An `EnvRecipe` says how to build an environment: which task (a registered task name, a `Task`, or a factory),
which verifier (a registered name, a `Verifier`, a `Verifier` subclass, a plain grading function, or None for
the task's own), which versioned prompt template, which reward, single- or multi-turn. `register_env` stores
the recipe in `ENVS` and registers it with Gymnasium, so `gymnasium.make(env_id, **overrides)` builds it;
overrides are env options (`chat`, `reward`, `template`, `max_turns`, ...) or, for anything else, options of the
task factory (`split`, `path`, `levels`, `difficulty`, ...). This module imports only Gymnasium and rlvr.core,
so `import rlvr` (which registers the built-ins) stays light; tasks and verifiers load when an env is made.

Version policy: an env id's `-vN` pins the task, verifier (and its config), template and reward; change any of
them and register the env under `-vN+1`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry

if TYPE_CHECKING:
    from rlvr.envs.verified_env import VerifiedEnv
    from rlvr.tasks.base import Task
    from rlvr.verifiers.base import Verifier

#: keyword arguments that configure the environment itself; any other `make` keyword goes to the task factory
ENV_OPTIONS = frozenset(
    {
        "template",
        "reward",
        "chat",
        "render_mode",
        "max_prompt_chars",
        "max_completion_chars",
        "max_turns",
        "reward_mode",
        "feedback_template",
        "feedback_fn",
        "verifier",
        "verifier_kwargs",
        "verifier_timeout_s",
        "task",
    }
)


@dataclass(frozen=True, eq=False)
class EnvRecipe:
    """How to build one registered environment (see the module docstring)."""

    #: versioned id, `namespace/Name-vN`
    id: str
    #: a task registry name, a `Task`, or a callable(**task_kwargs) -> Task
    task: Any
    #: a verifier registry name, `Verifier` instance or subclass, grading function, or None (the task's own)
    verifier: Any = None
    #: prompt template name (versioned) or `PromptTemplate`
    template: Any = "plain-v0"
    #: reward function name (`score`, `binary`) or callable(verdict, example) -> float
    reward: Any = "score"
    #: 1 = single-turn `VerifiedEnv`; >1 = multi-turn `FeedbackEnv` with that many attempts
    max_turns: int = 1
    #: options of the task factory (e.g. {"split": "train"})
    task_kwargs: Mapping[str, Any] = field(default_factory=dict)
    #: options of the verifier factory
    verifier_kwargs: Mapping[str, Any] = field(default_factory=dict)
    #: other env options (chat, reward_mode, feedback_template, max_prompt_chars, ...)
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    #: one line for `rlvr envs list`
    description: str = ""
    #: Gymnasium's flag: step outputs (here: timings inside code verdicts) are not reproducible from the seed
    nondeterministic: bool = False

    def __post_init__(self) -> None:
        for name in ("task_kwargs", "verifier_kwargs", "env_kwargs"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        bad = set(self.env_kwargs) - ENV_OPTIONS
        if bad:
            raise ConfigError(
                f"unknown env options {sorted(bad)} for {self.id!r}; env options are {sorted(ENV_OPTIONS)}"
            )
        if not isinstance(self.max_turns, int) or self.max_turns < 1:
            raise ConfigError(f"max_turns must be a positive int, got {self.max_turns!r}")

    def __deepcopy__(self, memo: dict[int, Any]) -> EnvRecipe:
        # immutable; Gymnasium deep-copies spec kwargs on every make(), which must not copy a whole dataset
        return self

    def make(self, **overrides: Any) -> VerifiedEnv:
        """Build the environment, with `overrides` of env options and task options."""
        return make_env(self, **overrides)

    def summary(self) -> dict[str, str]:
        """Printable fields for `rlvr envs list`."""

        def name(obj: Any) -> str:
            if obj is None:
                return "(task's own)"
            if isinstance(obj, str):
                return obj
            return str(getattr(obj, "name", None) or getattr(obj, "__name__", None) or type(obj).__name__)

        return {
            "id": self.id,
            "task": name(self.task),
            "verifier": name(self.verifier),
            "template": name(self.template),
            "turns": str(self.max_turns),
            "description": self.description,
        }


ENVS: Registry[EnvRecipe] = Registry("environment", versioned=True)


def register_env(
    env_id: str,
    task: Any,
    verifier: Any = None,
    *,
    template: Any = "plain-v0",
    reward: Any = "score",
    max_turns: int = 1,
    task_kwargs: Mapping[str, Any] | None = None,
    verifier_kwargs: Mapping[str, Any] | None = None,
    description: str = "",
    nondeterministic: bool = False,
    overwrite: bool = False,
    **env_kwargs: Any,
) -> EnvRecipe:
    """Register an environment built from a task and a verifier; `gymnasium.make(env_id)` then builds it."""
    recipe = EnvRecipe(
        id=env_id,
        task=task,
        verifier=verifier,
        template=template,
        reward=reward,
        max_turns=max_turns,
        task_kwargs=task_kwargs or {},
        verifier_kwargs=verifier_kwargs or {},
        env_kwargs=env_kwargs,
        description=description,
        nondeterministic=nondeterministic,
    )
    ENVS.register(env_id, recipe, overwrite=overwrite)
    if env_id in gym.registry and overwrite:
        del gym.registry[env_id]
    gym.register(
        id=env_id,
        entry_point="rlvr.envs.registration:make_env",
        kwargs={"recipe": recipe},
        nondeterministic=nondeterministic,
    )
    return recipe


#: the entry-point group an installed package uses to expose its envs (a module that registers them on
#: import, an `EnvRecipe`, or a callable that registers them), e.g. in its pyproject.toml:
#: [project.entry-points."rlvr.envs"]
#: mypkg = "mypkg.envs"
ENTRY_POINT_GROUP = "rlvr.envs"
_plugins_loaded = False

#: how to tell rlvr where a user's own envs live, quoted by every "unknown environment" error
HOW_TO_IMPORT = (
    "if it is registered by your own module, load it first: `--import MODULE_OR_FILE.py` on the rlvr command "
    "line, `env.imports: [MODULE]` in a train config (also reaches Ray workers), `import MODULE` in Python, "
    f"or expose it from an installed package under the {ENTRY_POINT_GROUP!r} entry-point group"
)


def load_env_plugins() -> None:
    """Load the envs that installed packages expose under the `rlvr.envs` entry-point group (once)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = ep.load()
        except Exception as exc:
            raise ConfigError(
                f"the {ENTRY_POINT_GROUP!r} entry point {ep.name!r} = {ep.value!r} failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if isinstance(loaded, EnvRecipe) and loaded.id not in ENVS:
            ENVS.register(loaded.id, loaded)
            gym.register(
                id=loaded.id, entry_point="rlvr.envs.registration:make_env", kwargs={"recipe": loaded}
            )
        elif callable(loaded) and not isinstance(loaded, type):
            loaded()


def get_recipe(env_id: str) -> EnvRecipe:
    """The recipe of a registered env id, loading entry-point plugins first if it is unknown."""
    if env_id not in ENVS:
        load_env_plugins()
    if env_id not in ENVS:
        close = difflib.get_close_matches(env_id, ENVS.names(), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ConfigError(
            f"unknown environment {env_id!r}; {hint}`rlvr envs list` shows the registered ones; {HOW_TO_IMPORT}"
        )
    return ENVS.get(env_id)


def unregister_env(env_id: str) -> None:
    """Remove an environment from rlvr's and Gymnasium's registries (no error if absent)."""
    ENVS.unregister(env_id)
    gym.registry.pop(env_id, None)


def _is_users(verifier: Any) -> bool:
    """Whether a verifier is the user's own code (rlvr's built-ins are tested on every shipped gold)."""
    fn = getattr(verifier, "fn", None)  # a FunctionVerifier wraps the user's function
    module = getattr(fn if fn is not None else type(verifier), "__module__", "") or ""
    return not module.startswith("rlvr.")


def _check_user_verifier(
    env_id: str, task: Task, verifier: Verifier, probes: int = 4, timeout_s: float = 10.0
) -> None:
    """Refuse a user's verifier that errors (raises, wrong return type, hangs) on every gold answer it is shown."""
    if not _is_users(verifier) or len(task) == 0:
        return
    from rlvr.verifiers.grading import bounded_verifier

    examples = [task[i] for i in range(min(probes, len(task)))]
    verdicts: list[Any] = []
    # a hanging verifier must not hang `make`: a SIGALRM deadline on the main thread (cheap), else a worker
    with bounded_verifier(verifier, timeout_s, alarm_on_main=True) as checker:
        try:
            for ex in examples:
                verdicts.append(checker.verify(task.gold_completion(ex), ex.reference))
                if verdicts[-1].details.get("verifier_timeout"):  # a gold answer must pass its verifier
                    raise ConfigError(
                        f"{env_id}: the verifier {verifier!r} did not return within {timeout_s:g} s on the "
                        f"gold answer of {ex.key!r}; it would hang on model output too. Fix the verifier, "
                        "e.g. test it with `rlvr verify`"
                    )
        except ConfigError:
            raise
        except Exception as exc:  # a Verifier subclass that raises instead of returning a verdict
            raise ConfigError(
                f"{env_id}: the verifier {verifier!r} raised on the gold answer of {examples[0].key!r}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
    if verdicts and all(str(v.reason) == "error" for v in verdicts):
        first = verdicts[0].details
        raise ConfigError(
            f"{env_id}: the verifier {verifier!r} fails on every gold answer it was shown ({len(verdicts)} of "
            f"{len(task)}): {first.get('error', first)}; every reward would be 0. Fix the verifier, e.g. test it "
            "with `rlvr verify` or task.validate(verifier)"
        )


def _check_task_options(recipe: EnvRecipe, options: Mapping[str, Any]) -> None:
    """Reject an option neither the env nor its task factory takes, with the closest known name."""
    import inspect

    factory = recipe.task
    if isinstance(factory, str):
        from rlvr.tasks.registry import TASKS

        factory = TASKS.get(factory)
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a built Task or an opaque callable: it reports its own errors
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return
    known = {p.name for p in params} | set(ENV_OPTIONS)
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(
                f"{recipe.id}: unknown option {key!r}; {hint}options: {', '.join(sorted(known))}"
            )


def _build_task(spec: Any, kwargs: Mapping[str, Any]) -> Task:
    from rlvr.tasks.base import Task
    from rlvr.tasks.registry import load_task

    if isinstance(spec, Task):
        if kwargs:
            raise ConfigError(
                f"task options {sorted(kwargs)} given, but the task is an already built {spec!r}"
            )
        return spec
    if isinstance(spec, str):
        return load_task(spec, **kwargs)
    if callable(spec):
        built = spec(**kwargs)
        if not isinstance(built, Task):
            raise ConfigError(
                f"task factory {spec!r} returned {type(built).__name__}, not an rlvr.tasks.Task"
            )
        return built
    raise ConfigError(f"task must be a task name, a Task or a factory returning one, got {spec!r}")


def _build_verifier(spec: Any, kwargs: Mapping[str, Any], task: Task) -> Verifier:
    from rlvr.verifiers.base import FunctionVerifier, Verifier, make_verifier

    if spec is None:
        if kwargs:
            return make_verifier(task.verifier_name, **{**task.verifier_config, **kwargs})
        return task.make_verifier()
    if isinstance(spec, Verifier):
        return spec
    if isinstance(spec, str):
        return make_verifier(spec, **kwargs)
    if isinstance(spec, type) and issubclass(spec, Verifier):
        return spec(**kwargs)
    if callable(spec):
        return FunctionVerifier(spec, getattr(spec, "__name__", "function"))
    raise ConfigError(
        f"verifier must be a verifier name, a Verifier (instance or subclass) or a grading function, got {spec!r}"
    )


def make_env(recipe: EnvRecipe | str, **overrides: Any) -> VerifiedEnv:
    """Build an environment from its recipe (or registered id) and `overrides` (Gymnasium's entry point)."""
    from rlvr.envs.feedback_env import FeedbackEnv
    from rlvr.envs.verified_env import VerifiedEnv

    if isinstance(recipe, str):
        recipe = get_recipe(recipe)
    env_opts = {k: v for k, v in overrides.items() if k in ENV_OPTIONS}
    task_opts = {k: v for k, v in overrides.items() if k not in ENV_OPTIONS}
    if "task" not in env_opts:
        _check_task_options(recipe, task_opts)
    if "task" in env_opts:  # a replacement task: the recipe's task options do not apply to it
        task = _build_task(env_opts.pop("task"), task_opts)
    else:
        task = _build_task(recipe.task, {**recipe.task_kwargs, **task_opts})
    verifier = _build_verifier(
        env_opts.pop("verifier", recipe.verifier),
        {**recipe.verifier_kwargs, **env_opts.pop("verifier_kwargs", {})},
        task,
    )
    if "verifier" not in overrides or overrides.get("verifier") is not verifier:
        _check_user_verifier(recipe.id, task, verifier)
    options: dict[str, Any] = {
        "template": recipe.template,
        "reward": recipe.reward,
        "max_turns": recipe.max_turns,
        **recipe.env_kwargs,
        **env_opts,
    }
    max_turns = options.pop("max_turns")
    multi_turn_only = {"reward_mode", "feedback_template", "feedback_fn"} & set(options)
    if max_turns == 1 and recipe.max_turns == 1:
        if multi_turn_only:
            raise ConfigError(
                f"{sorted(multi_turn_only)} apply to multi-turn envs only; also pass max_turns > 1"
            )
        return VerifiedEnv(task, verifier, **options)
    return FeedbackEnv(task, verifier, max_turns=max_turns, **options)
