"""A cooperative deadline for the in-process stages (extract, parse, exact and numeric evaluation).

The fast stage runs in the caller's process, where nothing can be killed, so it checks the clock itself: the
verifier opens `within(seconds)` around one verification and the loops and recursions that could run long
(the parser, the evaluators, comparisons of collections) call `check()`. Past the deadline `check` raises
`DeadlineExceeded`, which the verifier turns into a `timeout` verdict. The deadline lives in a
`threading.local`, set and restored by the `with` block: no state outlives a call or leaks across threads.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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

    For code that never calls `check()` (sympy's simplify can run for minutes, a quadratic scan of a huge reply):
    a watchdog thread injects the exception into this thread (`PyThreadState_SetAsyncExc`), which works in any
    thread and any process, daemonic or not, unlike `signal.alarm`. It takes effect at the next bytecode, so
    one long C call (a huge integer power) still finishes first; the fast stage bounds those by size. It is
    re-sent every 50 ms until the block exits, and a pending one is cleared on exit, so it never escapes.
    """
    entry = _watchdog.watch(threading.get_ident(), time.monotonic() + seconds)
    try:
        yield
    finally:
        _watchdog.release(entry)


class _Watchdog:
    """One thread per process that fires the hard deadlines of every thread's `interrupting` blocks.

    A thread per block cost ~0.2 ms to start, a third of a short verification; a block here costs two lock
    round-trips. The thread ticks while blocks are open (and a second after, so that back-to-back blocks need no
    wake-up), then sleeps until the next one; a forked child starts its own.
    """

    _TICK = 0.05  # how often a fired deadline is re-sent, and the precision of a deadline
    _LINGER = 1.0  # seconds the thread keeps ticking after the last block closed

    def __init__(self) -> None:
        self._reset()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._open: dict[int, list[Any]] = {}  # id -> [thread id, deadline, fired]
        self._thread: threading.Thread | None = None
        self._sleeping = False
        self._ids = itertools.count()

    def watch(self, thread_id: int, until: float) -> int:
        """Open a block of thread `thread_id` that must end by `until` (monotonic time); returns its id."""
        with self._cond:
            entry = next(self._ids)
            self._open[entry] = [thread_id, until, False]
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="rlvr-math-deadline", daemon=True)
                self._thread.start()
            elif self._sleeping:
                self._cond.notify()
        return entry

    def release(self, entry: int) -> None:
        """Close block `entry`: its deadline can no longer fire (one sent and not yet delivered is cleared)."""
        with self._cond:
            thread_id, _, fired = self._open.pop(entry)
            if fired:
                _set_async_exc(thread_id, None)

    def _run(self) -> None:
        idle_since: float | None = None
        with self._cond:
            while True:
                now = time.monotonic()
                for block in self._open.values():
                    if block[1] <= now:  # past its deadline: (re-)send until the block is closed
                        block[2] = True
                        _set_async_exc(block[0], HardDeadline)
                if self._open:
                    idle_since = None
                elif idle_since is None:
                    idle_since = now
                self._sleeping = idle_since is not None and now - idle_since > self._LINGER
                self._cond.wait(None if self._sleeping else self._TICK)


_watchdog = _Watchdog()


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
