"""MathVerifier and VerifierPool inside daemonic processes, where `multiprocessing` may not start children:
`multiprocessing.Pool` workers, torch `DataLoader` workers (num_workers > 0) and `datasets.Dataset.map`
with `num_proc=2`. Cases that need the sympy stage must still be graded (not `error`), and a stuck job must
still be hard-killed (its helper workers are fresh interpreters started with `subprocess`)."""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

import pytest

from rlvr.core.types import Verdict
from rlvr.verifiers import MathVerifier, Verifier, VerifierPool

# the first two need the sympy stage (the fast stage cannot prove them)
PAIRS = [
    (r"\boxed{\sin^2 x + \cos^2 x}", "1", "correct"),
    (r"\boxed{\sec^2(y)}", r"\tan^2(y)+1", "correct"),
    (r"\boxed{2\sin x}", r"\sin 2x", "wrong"),
    (r"\boxed{\frac{1}{2}}", "0.5", "correct"),
]


class Sleeper(Verifier):
    """Sleeps as long as the completion says (a verifier stuck in C code, as far as the pool can tell)."""

    def verify(self, completion: str, reference: Any) -> Verdict:
        time.sleep(float(completion))
        return Verdict.correct()


def _grade(_: Any = None) -> dict[str, Any]:
    """Grade PAIRS here; report the reasons and whether this process is daemonic."""
    verifier = MathVerifier(timeout_s=20, num_workers=1)
    try:
        reasons = [verifier.verify(c, g).reason for c, g, _ in PAIRS]
    finally:
        verifier.close()
    return {"reasons": reasons, "daemon": multiprocessing.current_process().daemon, "pid": os.getpid()}


def _stuck_job(_: Any = None) -> dict[str, Any]:
    """A job past its deadline inside a daemonic process: the helper worker is killed, the verdict is timeout."""
    start = time.monotonic()
    with VerifierPool(Sleeper(), num_workers=1, timeout_s=1.0) as pool:
        verdict = pool.verify("60", None)
        after = pool.verify("0", None)
        method = pool.start_method
    return {
        "reason": verdict.reason,
        "after": after.reason,
        "wall": time.monotonic() - start,
        "method": method,
    }


WANT = [r for _, _, r in PAIRS]


def test_inside_multiprocessing_pool_workers() -> None:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_grade, range(2)) + pool.map(_stuck_job, range(1))
    graded, stuck = results[:2], results[2]
    assert all(r["daemon"] for r in graded), "the test must run in daemonic processes"
    assert [r["reasons"] for r in graded] == [WANT, WANT]
    assert stuck["method"] == "subprocess"
    assert (stuck["reason"], stuck["after"]) == ("timeout", "correct")


class _Pairs:
    """A map-style dataset whose items are graded inside the DataLoader worker that loads them."""

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> dict[str, Any]:
        return _stuck_job() if i == 1 else _grade()


def test_inside_torch_dataloader_workers() -> None:
    torch = pytest.importorskip("torch")
    loader = torch.utils.data.DataLoader(
        _Pairs(), batch_size=None, num_workers=2, multiprocessing_context="spawn"
    )
    graded, stuck = list(loader)
    assert graded["daemon"] and graded["pid"] != os.getpid()
    assert graded["reasons"] == WANT
    assert (stuck["method"], stuck["reason"], stuck["after"]) == ("subprocess", "timeout", "correct")


def _map_row(row: dict[str, Any]) -> dict[str, Any]:
    verdict = MathVerifier(timeout_s=20, num_workers=1).verify(row["completion"], row["gold"])
    return {"reason": verdict.reason, "pid": os.getpid(), "error": str(verdict.details.get("error"))}


def test_inside_datasets_map_with_num_proc() -> None:
    datasets = pytest.importorskip("datasets")
    data = datasets.Dataset.from_dict(
        {"completion": [c for c, _, _ in PAIRS] * 2, "gold": [g for _, g, _ in PAIRS] * 2}
    )
    mapped = data.map(_map_row, num_proc=2, load_from_cache_file=False)
    assert mapped["reason"] == WANT * 2, mapped["error"]
    assert os.getpid() not in set(mapped["pid"])


def test_inside_datasets_map_after_the_parent_used_a_pool() -> None:
    """`datasets.map` forks this process: a forkserver started here before must not be used by the forks
    (its children are not theirs; this failed with ECHILD, an `error` verdict, before the fix)."""
    datasets = pytest.importorskip("datasets")
    with VerifierPool(MathVerifier(in_process=True), num_workers=1, timeout_s=20) as pool:
        assert pool.verify(r"\boxed{\sin^2 x + \cos^2 x}", "1").reason == "correct"
    data = datasets.Dataset.from_dict(
        {"completion": [c for c, _, _ in PAIRS] * 2, "gold": [g for _, g, _ in PAIRS] * 2}
    )
    mapped = data.map(_map_row, num_proc=2, load_from_cache_file=False)
    assert mapped["reason"] == WANT * 2, mapped["error"]
