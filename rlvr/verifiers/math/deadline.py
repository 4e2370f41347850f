"""A cooperative deadline for the in-process stages (extract, parse, exact and numeric evaluation).

The fast stage runs in the caller's process, where nothing can be killed, so it checks the clock itself: the
verifier opens `within(seconds)` around one verification and the loops and recursions that could run long
(the parser, the evaluators, comparisons of collections) call `check()`. Past the deadline `check` raises
`DeadlineExceeded`, which the verifier turns into a `timeout` verdict. The deadline lives in a
`threading.local`, set and restored by the `with` block: no state outlives a call or leaks across threads.
"""

from __future__ import annotations

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
