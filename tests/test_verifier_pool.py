"""VerifierPool: order, hard-killed timeouts (the whole process group), crash recovery, threads, asyncio,
closing, and bad configuration. The verifiers used here are module-level so workers can unpickle them."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from rlvr.core.errors import ConfigError
from rlvr.verifiers import FunctionVerifier, MathVerifier, Verdict, Verifier, VerifierPool
from rlvr.verifiers.pool import in_worker


class ScriptedVerifier(Verifier):
    """Does what the completion says: `sleep:S`, `exit`, `segv`, `raise`, `alloc`, `child:PATH` (spawn, hang)."""

    def verify(self, completion: str, reference: Any) -> Verdict:
        if completion.startswith("sleep:"):
            time.sleep(float(completion.split(":")[1]))
        elif completion == "exit":
            os._exit(3)
        elif completion == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif completion == "raise":
            raise ValueError("boom")
        elif completion == "alloc":
            bytearray(4 * 1024**3)
        elif completion.startswith("child:"):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            with open(completion.split(":", 1)[1], "w") as fh:
                fh.write(str(child.pid))
            time.sleep(60)
        return Verdict.correct(pid=os.getpid(), in_worker=in_worker(), reference=reference)


class UnloadableVerifier(Verifier):
    """Pickles fine, but fails to unpickle in the worker (a broken dependency, say)."""

    def verify(self, completion: str, reference: Any) -> Verdict:
        return Verdict.correct()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_fail_to_load, ())


def _fail_to_load() -> None:
    raise ImportError("this verifier cannot be loaded here")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it is dead for our purposes
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture(params=["forkserver", "subprocess"])
def pool(request: pytest.FixtureRequest) -> VerifierPool:
    """Both worker kinds: multiprocessing children, and fresh interpreters (what daemonic processes get)."""
    with VerifierPool(ScriptedVerifier(), num_workers=2, timeout_s=2.0, start_method=request.param) as p:
        yield p


def test_batch_preserves_order_and_runs_in_workers(pool: VerifierPool) -> None:
    pairs = [("ok", i) for i in range(20)]
    verdicts = pool.verify_batch(pairs)
    assert [v.details["reference"] for v in verdicts] == list(range(20))
    assert all(v.passed and v.details["in_worker"] for v in verdicts)
    assert os.getpid() not in {v.details["pid"] for v in verdicts}
    assert pool.stats["workers_started"] <= 2


def test_timeout_kills_and_replaces_the_worker(pool: VerifierPool, tmp_path: Any) -> None:
    pid_file = tmp_path / "child.pid"
    stuck = pool.submit(f"child:{pid_file}", 0)
    quick = pool.verify("ok", 1)  # the other worker keeps serving while one is stuck
    assert quick.passed
    verdict = stuck.result(timeout=30)
    assert verdict == Verdict(0.0, False, "timeout", {"timeout_s": 2.0, "verifier_timeout": True})
    assert pool.stats["timeouts"] == 1
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild), "the timeout must kill the worker's whole process group"
    after = pool.verify_batch([("ok", i) for i in range(4)])
    assert all(v.passed for v in after)


def test_crashes_become_error_verdicts_and_workers_are_replaced(pool: VerifierPool) -> None:
    exited = pool.verify("exit", 0)
    assert exited.reason == "error" and "died" in exited.details["error"] and "3" in exited.details["error"]
    segv = pool.verify("segv", 0)
    assert segv.reason == "error" and str(-signal.SIGSEGV) in segv.details["error"]
    assert pool.stats["crashes"] == 2
    assert pool.verify("ok", 7).passed


def test_exceptions_in_verify_do_not_kill_the_worker() -> None:
    with VerifierPool(ScriptedVerifier(), num_workers=1, timeout_s=5.0) as pool:
        first = pool.verify("pid", 0).details["pid"]
        raised = pool.verify("raise", 0)
        assert raised.reason == "error" and "ValueError: boom" in raised.details["error"]
        assert pool.verify("pid", 0).details["pid"] == first


def test_concurrent_callers_from_threads(pool: VerifierPool) -> None:
    results: dict[int, Verdict] = {}

    def worker(k: int) -> None:
        for j in range(5):
            results[k * 100 + j] = pool.verify("ok", k * 100 + j)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 40
    assert all(v.passed and v.details["reference"] == key for key, v in results.items())


def test_asyncio(pool: VerifierPool) -> None:
    async def main() -> list[Verdict]:
        return await asyncio.gather(*(pool.averify("ok", i) for i in range(10)))

    verdicts = asyncio.run(main())
    assert [v.details["reference"] for v in verdicts] == list(range(10))


def test_close_cancels_queued_jobs_and_rejects_new_ones() -> None:
    pool = VerifierPool(ScriptedVerifier(), num_workers=1, timeout_s=10.0)
    running = pool.submit("sleep:5", 0)
    queued = pool.submit("ok", 1)
    deadline = time.monotonic() + 60
    while (
        not running.running() and time.monotonic() < deadline
    ):  # a worker took it (start-up varies with load)
        time.sleep(0.05)
    pool.close()
    assert queued.cancelled()
    assert running.result(timeout=10).reason == "error"
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit("ok", 2)
    pool.close()  # idempotent


def test_cancelled_future_is_skipped() -> None:
    with VerifierPool(ScriptedVerifier(), num_workers=1, timeout_s=10.0) as pool:
        blocker = pool.submit("sleep:1", 0)
        skipped = pool.submit("exit", 0)  # would crash the worker if it ran
        assert skipped.cancel()
        assert blocker.result(timeout=10).passed
        assert pool.verify("ok", 1).passed
        assert pool.stats["crashes"] == 0


def test_worker_that_cannot_load_the_verifier() -> None:
    with VerifierPool(UnloadableVerifier(), num_workers=1, timeout_s=5.0) as pool:
        with pytest.raises(RuntimeError, match="cannot be loaded here"):
            pool.submit("x", 0).result(timeout=30)
        with pytest.raises(RuntimeError, match="could not be loaded"):
            pool.submit("x", 0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"num_workers": 0}, "num_workers"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"timeout_s": float("nan")}, "timeout_s"),
        ({"start_method": "fork"}, "start_method"),
        ({"memory_mb": 1}, "memory_mb"),
    ],
)
def test_bad_configuration(kwargs: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        VerifierPool(ScriptedVerifier(), **kwargs)


def test_unpicklable_verifier_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="cannot be pickled"):
        VerifierPool(FunctionVerifier(lambda c, r: True))
    with pytest.raises(ConfigError, match="Verifier instance"):
        VerifierPool(lambda c, r: True)  # type: ignore[arg-type]


def test_pool_is_a_verifier_and_not_picklable(pool: VerifierPool) -> None:
    import pickle

    assert isinstance(pool, Verifier)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(pool)


def test_memory_limit_turns_a_blowup_into_an_error_verdict() -> None:
    with VerifierPool(ScriptedVerifier(), num_workers=1, timeout_s=20.0, memory_mb=512) as pool:
        blown = pool.verify("alloc", 0)
        assert blown.reason == "error" and "MemoryError" in blown.details["error"]
        assert pool.verify("ok", 1).passed
        assert pool.stats["crashes"] == 0


def test_math_verifier_timeout_returns_and_the_pool_keeps_working() -> None:
    """A sympy proof that takes seconds runs into a 0.3 s deadline: `timeout`, then business as usual."""
    verifier = MathVerifier(timeout_s=0.3, num_workers=1)
    hard = r"\boxed{\cos(\frac{\pi}{17})\cos(\frac{2\pi}{17})\cos(\frac{4\pi}{17})\cos(\frac{8\pi}{17})}"
    verdict = verifier.verify(hard, r"\frac{1}{16}")
    assert verdict.reason == "timeout" and not verdict.passed
    assert verifier._pool().stats["timeouts"] >= 1
    assert verifier.verify(r"\boxed{\sqrt{8}}", r"2\sqrt{2}").passed  # needs the (replaced) worker
    assert verifier.verify(r"\boxed{\frac{1}{2}}", "0.5").passed  # fast path, no worker
    batch = verifier.verify_batch([(hard, r"\frac{1}{16}"), (r"\boxed{\sqrt{27}}", r"3\sqrt{3}")])
    assert [v.reason for v in batch] == ["timeout", "correct"]


def test_math_verifier_from_threads_and_asyncio() -> None:
    verifier = MathVerifier(timeout_s=10.0)
    cases = [(r"\boxed{\sqrt{8}}", r"2\sqrt{2}", True), (r"\boxed{\sqrt{8}}", r"3\sqrt{2}", False)] * 4
    out: list[bool | None] = [None] * len(cases)

    def run(i: int) -> None:
        out[i] = verifier.verify(cases[i][0], cases[i][1]).passed

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [c[2] for c in cases]

    async def main() -> list[Verdict]:
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(loop.run_in_executor(None, verifier.verify, c, g) for c, g, _ in cases))

    assert [v.passed for v in asyncio.run(main())] == [c[2] for c in cases]


@pytest.mark.slow
def test_math_verifier_inside_a_ray_actor() -> None:
    """A Ray actor (a worker process with its own threads) can grade, including killed sympy timeouts."""
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:

        @ray.remote
        class Grader:
            def __init__(self) -> None:
                self.verifier = MathVerifier(timeout_s=0.3, num_workers=1)

            def grade(self, completion: str, gold: str) -> str:
                return self.verifier.verify(completion, gold).reason

        grader = Grader.remote()
        hard = r"\boxed{\cos(\frac{\pi}{17})\cos(\frac{2\pi}{17})\cos(\frac{4\pi}{17})\cos(\frac{8\pi}{17})}"
        reasons = ray.get(
            [
                grader.grade.remote(r"\boxed{\sqrt{8}}", r"2\sqrt{2}"),
                grader.grade.remote(hard, r"\frac{1}{16}"),
            ]
        )
        assert reasons == ["correct", "timeout"]
        assert ray.get(grader.grade.remote(r"\boxed{3}", "4")) == "wrong"
    finally:
        ray.shutdown()
