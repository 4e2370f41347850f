"""The `Verifier` contract and the registry of verifiers, built-in and user-written.

A verifier turns (completion, reference) into a `Verdict`. It never raises on model output: malformed or
adversarial completions get a failing verdict with a reason. A reference that cannot be graded is the task's
bug and is reported at load time by `validate_reference` (raising `DataError`), not as a 0 at run time.

Custom verifiers take a few lines::

    from rlvr.verifiers import Verdict, verifier

    @verifier("myns/exact")
    def exact(completion: str, reference: str) -> Verdict | float | bool:
        return completion.strip() == reference

    make_verifier("myns/exact").verify("42", "42")  # Verdict(score=1.0, passed=True, reason='correct', ...)
"""

from __future__ import annotations

import functools
import math
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.core.types import Reason, Verdict

#: name -> a zero-argument-or-config factory returning a `Verifier` (a Verifier subclass is such a factory).
VERIFIERS: Registry[Callable[..., Verifier]] = Registry("verifier", entry_point_group="rlvr.verifiers")

F = TypeVar("F")


class Verifier(ABC):
    """Grades one completion against a reference; subclasses implement `verify` (extract -> parse -> compare)."""

    #: Registry name, set by `@verifier`; informational.
    name: ClassVar[str] = "verifier"
    #: True if `verify` bounds its own running time; then it may run in the caller's process. Otherwise it runs
    #: in a killable worker even with `verifier_workers: 0` (see `rlvr.verifiers.grading`).
    enforces_deadline: ClassVar[bool] = False

    @abstractmethod
    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade `completion` against `reference`; never raises on bad model output."""

    def verify_batch(self, pairs: Iterable[tuple[str, Any]]) -> list[Verdict]:
        """Grade many (completion, reference) pairs; subclasses may parallelise."""
        return [self.verify(completion, reference) for completion, reference in pairs]

    def validate_reference(self, reference: Any) -> None:
        """Raise `DataError` if `reference` cannot be graded (called when a task loads, not per rollout)."""
        return None  # default: any reference is accepted


def as_verdict(result: Verdict | float | bool | None) -> Verdict:
    """Turn a custom verifier's return value (Verdict, bool, number in [0, 1], or None) into a `Verdict`."""
    if isinstance(result, Verdict):
        return result
    if result is None:
        return Verdict.fail(Reason.NO_ANSWER)
    if isinstance(result, bool):
        return Verdict.correct() if result else Verdict.fail(Reason.WRONG)
    if isinstance(result, int | float) and math.isfinite(result) and 0.0 <= result <= 1.0:
        score = float(result)
        return Verdict(score, score >= 1.0, Reason.CORRECT if score >= 1.0 else Reason.WRONG)
    raise TypeError(
        f"a verifier function must return a Verdict, a bool, a number in [0, 1] or None; got {result!r}"
    )


class FunctionVerifier(Verifier):
    """Wraps a plain `(completion, reference) -> Verdict | float | bool | None` function as a `Verifier`."""

    def __init__(self, fn: Callable[[str, Any], Any], name: str = "function") -> None:
        self.fn = fn
        self.verifier_name = name

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Call the wrapped function; an exception becomes an `error` verdict instead of crashing the loop."""
        try:
            return as_verdict(self.fn(completion, reference))
        except Exception as exc:  # user code: report (with where it failed), never crash the training loop
            return Verdict.fail(
                Reason.ERROR,
                error=f"{type(exc).__name__}: {exc}",
                traceback="".join(traceback.format_exception(exc)),
            )

    def __repr__(self) -> str:
        return f"FunctionVerifier({self.verifier_name!r})"


def verifier(name: str, *, overwrite: bool = False) -> Callable[[F], F]:
    """Register a `Verifier` subclass or a plain grading function under `name`; returns it unchanged."""

    def decorate(obj: F) -> F:
        if isinstance(obj, type) and issubclass(obj, Verifier):
            obj.name = name
            VERIFIERS.register(name, obj, overwrite=overwrite)
        elif callable(obj):
            VERIFIERS.register(name, functools.partial(FunctionVerifier, obj, name), overwrite=overwrite)
        else:
            raise TypeError(f"@verifier({name!r}) decorates a Verifier subclass or a function, not {obj!r}")
        return obj

    return decorate


def make_verifier(name: str, **config: Any) -> Verifier:
    """Build the verifier registered under `name`, passing `config` to its factory."""
    factory = VERIFIERS.get(name)
    try:
        return factory(**config)
    except TypeError as exc:
        raise ConfigError(f"cannot build verifier {name!r} with config {config}: {exc}") from exc
