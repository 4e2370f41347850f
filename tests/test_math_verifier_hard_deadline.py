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


# ---- the fast (in-process) stage has the same hard deadline: a pass that never checks the clock is stopped.
# Round 14b's 10,000 `Check n:` lines after a box made a scan quadratic (171 s, no `check()` in that loop); the
# scan is linear now (tests/test_math_verifier_round14.py), and any such pass left is cut off here.
@pytest.mark.timeout(60)
def test_the_fast_stage_stops_a_pass_that_never_checks_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import rlvr.verifiers.math.verifier as module

    def spins(*args: object) -> None:
        while True:  # pure Python, no check(): only the injected deadline ends it
            sum(range(100))

    monkeypatch.setattr(module, "decide", spins)
    verifier = MathVerifier(in_process=True, fast_timeout_s=0.3)
    t0 = time.monotonic()
    verdict = verifier.verify(r"\boxed{1}", "1")
    assert verdict.reason == Reason.TIMEOUT, verdict
    assert "in-process stage passed its 0.3 s deadline" in verdict.details["error"]
    assert time.monotonic() - t0 < 5
    monkeypatch.undo()
    assert verifier.verify(r"\boxed{1}", "1").reason == Reason.CORRECT  # nothing pending afterwards


def test_blocks_in_many_threads_fire_only_their_own_deadline() -> None:
    results: dict[str, bool] = {}

    def run(name: str, seconds: float, spin: bool) -> None:
        try:
            with interrupting(seconds):
                end = time.monotonic() + (3 if spin else 0.3)
                while time.monotonic() < end:
                    sum(range(100))
            results[name] = False
        except HardDeadline:
            results[name] = True

    threads = [
        threading.Thread(target=run, args=("slow", 0.2, True)),
        threading.Thread(target=run, args=("fast", 5.0, False)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == {"slow": True, "fast": False}


@pytest.mark.timeout(60)
def test_the_watchdog_serves_a_forked_child() -> None:
    with interrupting(5):  # the parent's watchdog thread exists before the fork
        pass
    ctx = mp.get_context("fork")
    with ctx.Pool(1) as pool:
        assert pool.apply_async(_interrupted_after, (0.2,)).get(30) is True


def _interrupted_after(seconds: float) -> bool:
    try:
        with interrupting(seconds):
            while True:
                sum(range(100))
    except HardDeadline:
        return True
