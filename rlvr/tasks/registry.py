"""The task registry: names -> factories returning a `Task`, with a decorator and the `rlvr.tasks` entry points.

Task names are plain (`"math"`, `"gsm8k"`, `"countdown"`): a task is data plus a grader, and what a model
sees and is rewarded for is pinned by the versioned *environment* id (`rlvr/MATH-v0`) that wraps it.
Third-party packages add tasks with an entry point::

    [project.entry-points."rlvr.tasks"]
    my_task = "my_pkg.tasks:load_my_task"   # a callable(**kwargs) -> rlvr.tasks.Task
"""

from __future__ import annotations

import inspect
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.core.seeding import stable_hash
from rlvr.tasks.base import Task

TaskFactory = Callable[..., Task]
F = TypeVar("F", bound=TaskFactory)

TASKS: Registry[TaskFactory] = Registry("task", entry_point_group="rlvr.tasks")

# built-ins are registered lazily so that `import rlvr.tasks` imports neither `datasets` nor the sandbox
for _name, _spec in {
    "math": "rlvr.tasks.math_datasets:load_math",
    "math500": "rlvr.tasks.math_datasets:load_math500",
    "gsm8k": "rlvr.tasks.math_datasets:load_gsm8k",
    "humaneval": "rlvr.tasks.code_datasets:load_humaneval",
    "mbpp": "rlvr.tasks.code_datasets:load_mbpp",
    "arithmetic": "rlvr.tasks.generated:ArithmeticTask",
    "linear_equations": "rlvr.tasks.generated:LinearEquationTask",
    "countdown": "rlvr.tasks.countdown:CountdownTask",
}.items():
    TASKS.register(_name, _spec)


def task(name: str, *, overwrite: bool = False) -> Callable[[F], F]:
    """Register a task factory (a function or `Task` subclass taking keyword options) under `name`."""

    def decorate(factory: F) -> F:
        if not callable(factory):
            raise TypeError(f"@task({name!r}) decorates a callable returning a Task, not {factory!r}")
        TASKS.register(name, factory, overwrite=overwrite)
        return factory

    return decorate


_CACHE: OrderedDict[tuple[str, str], Task] = OrderedDict()
_CACHE_SIZE = 16
_CACHE_LOCK = threading.Lock()


def _plain(value: Any) -> bool:
    if isinstance(value, list | tuple | set | frozenset):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def load_task(name: str, *, cache: bool = True, **kwargs: Any) -> Task:
    """Build the task registered under `name` with `kwargs`; identical calls share one (immutable) task."""
    factory = TASKS.get(name)
    key = None
    if cache and all(_plain(v) for v in kwargs.values()):
        key = (
            name,
            stable_hash({k: str(v) if isinstance(v, set | frozenset) else v for k, v in kwargs.items()}),
        )
        with _CACHE_LOCK:
            if key in _CACHE:
                _CACHE.move_to_end(key)
                return _CACHE[key]
    try:
        inspect.signature(factory).bind(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"cannot build task {name!r} with options {kwargs}: {exc}") from exc
    except ValueError:  # some callables have no introspectable signature; let the call report errors
        pass
    built = factory(**kwargs)
    if not isinstance(built, Task):
        raise ConfigError(f"task factory {name!r} returned {type(built).__name__}, not an rlvr.tasks.Task")
    if key is not None:
        with _CACHE_LOCK:
            _CACHE[key] = built
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return built


def describe_task(name: str) -> str:
    """The first line of the docstring of the task's factory (what `rlvr tasks list` shows)."""
    factory = TASKS.get(name)
    doc = (getattr(factory, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""
