"""Assertions the math-verifier test modules share: a verdict with its reason, a reply read as one value only, and
work that grows linearly with its input (a complexity check, not a wall-clock budget)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rlvr.verifiers import MathVerifier


def expect_verdict(verifier: MathVerifier, pred: str, gold: str, reason: str) -> dict[str, Any]:
    """Assert `pred` graded against `gold` gives `reason` (and passes only when correct); return the details."""
    verdict = verifier.verify(pred, gold)
    assert verdict.reason == reason, dict(verdict.details)
    assert verdict.passed is (reason == "correct")
    return dict(verdict.details)


def reads_only(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    """Assert `reply` is correct against `right` and not against `other`, a value it also writes."""
    assert verifier.verify(reply, right).reason == "correct", reply
    assert verifier.verify(reply, other).reason in ("wrong", "no_answer"), reply


def never_correct(verifier: MathVerifier, reply: str, value: str) -> None:
    """Assert `reply`, which withdraws, hedges or never asserts `value`, is not graded correct against it."""
    verdict = verifier.verify(reply, value)
    assert not verdict.passed, (reply, dict(verdict.details))


def read_correct(verifier: MathVerifier, reply: str, value: str) -> None:
    """Assert `reply`, which commits to `value`, is graded correct against it (a counterpart of `never_correct`)."""
    verdict = verifier.verify(reply, value)
    assert verdict.reason == "correct", (reply, dict(verdict.details))


def _best_of(work: Callable[[], object], repeats: int) -> float:
    """The fastest of `repeats` runs of `work`, in seconds (the minimum is the least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def assert_linear(run: Callable[[int], object], size: int, repeats: int = 3) -> None:
    """Assert `run(n)` grows about linearly: 4x the input costs well under the 16x a quadratic pass would.

    The input doubles from `size` until a run takes 50 ms (so timer noise cannot decide), then both sizes are timed
    in the same process, best of `repeats`, so machine load scales both alike."""
    small = _best_of(lambda: run(size), repeats)
    for _ in range(6):
        if small >= 0.05:
            break
        size *= 2
        small = _best_of(lambda n=size: run(n), repeats)
    large = _best_of(lambda: run(4 * size), repeats)
    assert large < 8 * max(small, 0.05), f"{size}: {small:.3f} s, {4 * size}: {large:.3f} s (superlinear)"
