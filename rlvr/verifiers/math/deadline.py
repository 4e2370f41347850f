"""A cooperative deadline for the in-process stages (extract, parse, exact and numeric evaluation).

The fast stage runs in the caller's process, where nothing can be killed, so it checks the clock itself: the
verifier opens `within(seconds)` around one verification and the loops and recursions that could run long
(the parser, the evaluators, comparisons of collections) call `check()`. Past the deadline `check` raises
`DeadlineExceeded`, which the verifier turns into a `timeout` verdict. The deadline lives in a
`threading.local`, set and restored by the `with` block: no state outlives a call or leaks across threads.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


class DeadlineExceeded(Exception):
    """The current verification ran past its in-process deadline."""


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Run the block under a deadline of `seconds` (nested blocks keep the earlier deadline)."""
    previous = getattr(_local, "until", None)
    until = time.monotonic() + seconds
    _local.until = until if previous is None else min(previous, until)
    try:
        yield
    finally:
        _local.until = previous


def check() -> None:
    """Raise `DeadlineExceeded` if the current thread's deadline has passed (no-op without one)."""
    until = getattr(_local, "until", None)
    if until is not None and time.monotonic() > until:
        raise DeadlineExceeded("the in-process stage ran past its deadline")


class HardDeadline(BaseException):
    """Raised asynchronously into a thread that ran past `interrupting`'s deadline.

    A `BaseException`, so that library code's `except Exception` (sympy has many) cannot swallow it.
    """


@contextmanager
def interrupting(seconds: float) -> Iterator[None]:
    """Run the block under a hard deadline: past it, `HardDeadline` is raised inside the block, wherever it is.

    For code that never calls `check()` (sympy's simplify can run for minutes): a watchdog thread, alive only
    during the block, injects the exception into this thread (`PyThreadState_SetAsyncExc`), which works in any
    thread and any process, daemonic or not, unlike `signal.alarm`. It takes effect at the next bytecode, so
    one long C call (a huge integer power) still finishes first; the fast stage bounds those by size. It is
    re-sent every 50 ms until the block exits, and a pending one is cleared on exit, so it never escapes.
    """
    target = threading.get_ident()
    lock = threading.Lock()
    done = threading.Event()
    state = {"active": True, "fired": False}

    def watchdog() -> None:
        if done.wait(seconds):
            return
        while True:
            with lock:
                if not state["active"]:
                    return
                state["fired"] = True
                _set_async_exc(target, HardDeadline)
            if done.wait(0.05):
                return

    thread = threading.Thread(target=watchdog, name="rlvr-math-deadline", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with lock:
            state["active"] = False
            if state["fired"]:
                _set_async_exc(target, None)  # clear one not yet delivered: it must not fire after the block
        done.set()


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None
    )


#: Frames a verification may recurse: the parser and the evaluators recurse once per nesting level (~8 frames a
#: level), so the interpreter's default of 1000 would refuse a correct 150-deep continued fraction. Python 3.11
#: keeps pure-Python calls off the C stack, and the answer's size (`max_answer_chars`) bounds the nesting.
RECURSION_ROOM = 20_000
_room_lock = threading.Lock()
_room_users = 0
_room_saved = 0


@contextmanager
def recursion_room() -> Iterator[None]:
    """Run the block with the recursion limit at least `RECURSION_ROOM` (the limit is the interpreter's, one
    per process: the first block in raises it, the last one out restores it)."""
    global _room_users, _room_saved
    with _room_lock:
        if _room_users == 0:
            _room_saved = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_room_saved, RECURSION_ROOM))
        _room_users += 1
    try:
        yield
    finally:
        with _room_lock:
            _room_users -= 1
            if _room_users == 0:
                sys.setrecursionlimit(_room_saved)
