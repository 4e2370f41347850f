"""Every verification gets a deadline: which verifier runs where when no grading pool is asked for.

`env.verifier_workers: 0` (and `rlvr eval --workers 0`) means "no pool of parallel grading processes", not
"no deadline". What runs in the caller's process then depends on the verifier:

* A verifier whose class sets `enforces_deadline = True` bounds its own time and runs in this process:
  the math verifier (per-stage deadlines, sympy proofs in its own killable helper workers), the code verifier
  (every program runs in the sandbox under hard limits), countdown and the format/length rewards (linear
  work), and a `Rubric` whose terms all do. A user's verifier may set it too when it really bounds itself.
* Any other verifier (a user's `@verifier` function or class, `format/regex` with a user's pattern) is
  arbitrary Python that may loop or block in C code, which only a process kill stops. It runs in one
  killable worker process (a `VerifierPool` of one worker; more run in parallel when it is seen hanging),
  so `timeout_s` holds exactly as with workers. That needs a picklable verifier (module-level definitions
  pickle by reference, so everything registered in a module that `--import` loads does).
* A verifier that cannot be pickled (defined inside a function, holding a lock or a client) cannot go to
  a worker. It runs in this process under `AlarmDeadline`: a SIGALRM timer that interrupts Python code
  (loops, `time.sleep`, blocking calls that Python retries) on the main thread, and keeps interrupting every
  0.05 s should the verifier swallow the first interruption. It cannot stop a single long C call (a regex
  that backtracks, say) before that call returns; off the main thread it cannot work at all, and the
  verdict is then an `error` that says to define the verifier at module level.

Timeouts from a pool or from `AlarmDeadline` carry `details["verifier_timeout"] = True`.
"""

from __future__ import annotations

import pickle
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier


class _Deadline(BaseException):
    """Raised by the alarm; a BaseException, so a verifier's `except Exception` does not turn it into a verdict."""


def enforces_deadline(verifier: Any) -> bool:
    """Whether `verifier` bounds its own running time (then it may run in the caller's process)."""
    from rlvr.verifiers.rubric import Rubric

    if isinstance(verifier, Rubric):
        return all(enforces_deadline(term.verifier) for term in verifier.terms)
    return bool(getattr(verifier, "enforces_deadline", False))


def picklable(obj: Any) -> bool:
    """Whether `obj` can be shipped to a worker process."""
    try:
        pickle.dumps(obj)
    except Exception:  # any failure means "cannot ship it to a worker process"
        return False
    return True


def grading_pool(
    verifier: Verifier, num_workers: int, timeout_s: float | None = None, **pool_options: Any
) -> Verifier | None:
    """What grades `verifier`'s batches: a `VerifierPool`, an `AlarmDeadline`, or None (this process, as is)."""
    from rlvr.verifiers.pool import VerifierPool

    limits: dict[str, Any] = {} if timeout_s is None else {"timeout_s": timeout_s}  # None: the pool's default
    if num_workers > 0:
        return VerifierPool(verifier, num_workers=num_workers, **limits, **pool_options)
    if enforces_deadline(verifier):
        return None
    if picklable(verifier):
        return VerifierPool(verifier, num_workers=1, **limits, **pool_options)
    return AlarmDeadline(verifier, **limits)


def bounded(verifier: Verifier, timeout_s: float, *, alarm_on_main: bool = False) -> Verifier:
    """`verifier` itself when it bounds its own time, else a wrapper that holds `timeout_s` (one worker).

    `alarm_on_main=True` takes the SIGALRM deadline instead of a worker process when called on the main
    thread: no process start, for one-off checks, at the cost of not stopping a single long C call.
    """
    if enforces_deadline(verifier):
        return verifier
    if alarm_on_main and threading.current_thread() is threading.main_thread():
        return AlarmDeadline(verifier, timeout_s)
    wrapper = grading_pool(verifier, 0, timeout_s)
    assert wrapper is not None  # not self-bounding: grading_pool always wraps it
    return wrapper


def release(wrapper: Verifier | None, verifier: Verifier) -> None:
    """Stop the worker behind `wrapper` (made by `bounded`); `verifier` itself is the caller's and stays open."""
    close = getattr(wrapper, "close", None)
    if wrapper is not verifier and callable(close):
        close()


@contextmanager
def bounded_verifier(
    verifier: Verifier, timeout_s: float, *, alarm_on_main: bool = False
) -> Iterator[Verifier]:
    """`bounded(...)` for the length of a block, its worker stopped on the way out."""
    wrapper = bounded(verifier, timeout_s, alarm_on_main=alarm_on_main)
    try:
        yield wrapper
    finally:
        release(wrapper, verifier)


class AlarmDeadline(Verifier):
    """Runs an unpicklable verifier in this process under a SIGALRM deadline (see the module docstring)."""

    name = "alarm_deadline"
    enforces_deadline = True

    def __init__(self, verifier: Verifier, timeout_s: float = 10.0) -> None:
        self.verifier = verifier
        self.timeout_s = float(timeout_s)

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade in this process; past `timeout_s` the call is interrupted and the verdict is `timeout`."""
        if threading.current_thread() is not threading.main_thread():
            return Verdict.fail(
                Reason.ERROR,
                error=f"{self.verifier!r} cannot be pickled, so it runs in this process, where a deadline "
                "works only on the main thread; define it at module level so that it runs in a killable worker",
            )
        armed = [True]

        def interrupt(signum: int, frame: Any) -> None:
            if armed[0]:
                raise _Deadline

        result: Verdict | None = None
        start = time.monotonic()
        previous = signal.signal(signal.SIGALRM, interrupt)
        outer = signal.setitimer(signal.ITIMER_REAL, self.timeout_s, 0.05)
        try:
            try:
                result = self.verifier.verify(completion, reference)
            finally:
                armed[0] = False
        except _Deadline:
            armed[0] = False  # the alarm may land after verify returned: then `result` stands
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer[0] > 0:  # someone else's timer was running: give it back what is left
                left = max(outer[0] - (time.monotonic() - start), 1e-3)
                signal.setitimer(signal.ITIMER_REAL, left, outer[1])
        if result is None:
            return Verdict.fail(
                Reason.TIMEOUT, timeout_s=self.timeout_s, verifier_timeout=True, in_process=True
            )
        return result

    def validate_reference(self, reference: Any) -> None:
        """Delegate to the wrapped verifier."""
        self.verifier.validate_reference(reference)

    def __repr__(self) -> str:
        return f"AlarmDeadline({self.verifier!r}, timeout_s={self.timeout_s})"
