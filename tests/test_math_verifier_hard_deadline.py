"""The sympy stage has a hard deadline in process too (`in_process=True`, pool workers, threads, daemonic
workers): inputs that keep `sympy.simplify` busy for minutes (found by the round-2 red-team) answer `timeout`
within the budget, and the verifier is sound afterwards."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import threading
import time

import pytest

from rlvr.core import Reason
from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.deadline import HardDeadline, interrupting

# each ran past 200 s (binomial sum) and 10 min ((x+1)^60) in process before the hard deadline; a sum of up to
# 200 terms is now written out and decided exactly in the fast stage, so the second one uses 301 terms
SLOW = [
    (r"\boxed{2^{n}}", r"\sum_{k=0}^{n}\binom{n}{k}"),
    (r"\boxed{(x+1)^{300}}", r"\sum_{k=0}^{300}\binom{300}{k}x^k"),
]
BUDGET = 1.5


def _grade(pairs: list[tuple[str, str]]) -> list[tuple[str, str, float]]:
    verifier = MathVerifier(in_process=True, timeout_s=BUDGET)
    verifier.warmup()
    out = []
    for completion, gold in [*pairs, (r"\boxed{(x-1)(x+1)}", "x^2-1")]:
        t0 = time.monotonic()
        verdict = verifier.verify(completion, gold)
        out.append((verdict.reason, str(verdict.details.get("error", "")), time.monotonic() - t0))
    return out


def _check(results: list[tuple[str, str, float]]) -> None:
    *slow, control = results
    for reason, error, seconds in slow:
        assert reason == Reason.TIMEOUT and "sympy stage passed its 1.5 s deadline" in error
        assert seconds < BUDGET + 1.5
    assert control[0] == Reason.CORRECT  # nothing left pending from the interrupted call


@pytest.mark.timeout(60)
def test_in_process_sympy_stage_times_out() -> None:
    _check(_grade(SLOW))


@pytest.mark.timeout(60)
def test_in_a_thread() -> None:
    box: list = []
    thread = threading.Thread(target=lambda: box.append(_grade(SLOW[:1])))
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and box
    _check(box[0])


@pytest.mark.timeout(90)
def test_in_a_daemonic_pool_worker() -> None:
    with mp.get_context("spawn").Pool(1) as pool:  # pool workers are daemonic
        _check(pool.apply_async(_grade, (SLOW[:1],)).get(60))


def test_interrupting_cannot_be_swallowed_and_never_fires_after_the_block() -> None:
    t0 = time.monotonic()
    with pytest.raises(HardDeadline), interrupting(0.2):
        while True:  # library code's broad handlers (`except Exception`) must not absorb the deadline
            with contextlib.suppress(Exception):
                sum(range(1000))
    assert time.monotonic() - t0 < 2
    with interrupting(0.05):
        pass
    time.sleep(0.3)  # a fast block leaves nothing pending behind it
    for _ in range(10_000):
        sum(range(10))
