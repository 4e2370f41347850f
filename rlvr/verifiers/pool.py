"""`VerifierPool`: run any picklable `Verifier` in worker processes, with a hard, killing timeout per job.

No stdlib pool can kill one stuck task (`concurrent.futures` cannot cancel a running call; `multiprocessing.Pool`
cannot replace a single hung worker), and `signal.alarm` only works on the main thread and cannot stop C
code. So this is a small hand-written pool:

* Workers are processes from the `forkserver` context (`spawn` where that does not exist), never `fork`:
  the parent may hold threads, torch, CUDA or Ray state that must not be copied. Each worker starts its own
  process group, unpickles the verifier once, warms it up, then serves jobs over a pipe (`pool_worker.py`).
* One dispatcher thread owns all workers. It hands queued jobs to idle workers, waits on their pipes and
  process sentinels, and enforces deadlines: a job running longer than `timeout_s` gets its worker's
  process group SIGKILLed, the job yields `Verdict(0, False, "timeout")`, and a fresh worker replaces it.
  A worker that dies (segfault, `os._exit`, OOM kill) yields an `error` verdict and is replaced too.
* A job's deadline counts from when a worker takes it, so a slow but working verifier is never failed for
  waiting in the queue, and every verdict comes from a real run. Hangs do not serialize: once the verifier is
  seen hanging (a job timed out since a queued job was submitted, and none finished normally since then),
  every job that has waited `timeout_s` in the queue gets a worker of its own, up to `burst_workers`
  processes beyond `num_workers`, so they time out together. A batch on which the verifier hangs everywhere
  thus ends after about two `timeout_s` (one to see the hang, one for the rest in parallel; more rounds only
  past `num_workers + burst_workers` jobs), not one per `num_workers` jobs. The extra workers retire when
  the queue no longer needs them. Pool timeouts carry `details["verifier_timeout"] = True` (the verifier,
  not a program it runs, passed its deadline), which the training loop counts as a verifier failure.
* `submit` returns a `concurrent.futures.Future`, so the pool works from any thread; `averify` wraps it
  for asyncio; `verify_batch` preserves order. Workers start lazily, up to `num_workers`.

The pool is itself a `Verifier`, so an env or trainer can take "a verifier" and be handed a pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier
from rlvr.verifiers.pool_worker import (
    _main_module_hidden,
    _must_use_subprocess,
    _SubprocessWorker,
    _worker_main,
    in_worker,
    user_file_modules,
)

__all__ = ["VerifierPool", "in_worker"]

#: Workers in a row that may die before reporting ready before the pool gives up (a broken environment).
_MAX_FAILED_STARTS = 3


@dataclass
class _Job:
    job_id: int
    completion: str
    reference: Any
    future: Future[Verdict]
    submitted: float = field(default_factory=time.monotonic)


@dataclass
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    job: _Job | None = None
    deadline: float = 0.0
    retiring: bool = False
    started: float = field(default_factory=time.monotonic)


class VerifierPool(Verifier):
    """Runs `verifier.verify` in up to `num_workers` processes, each job under a hard `timeout_s` deadline."""

    name = "pool"
    enforces_deadline = True

    def __init__(
        self,
        verifier: Verifier,
        num_workers: int | None = None,
        timeout_s: float = 10.0,
        *,
        start_method: str | None = None,
        memory_mb: int | None = None,
        burst_workers: int = 16,
    ) -> None:
        if not isinstance(verifier, Verifier):
            raise ConfigError(
                f"VerifierPool needs a Verifier instance, got {verifier!r}; wrap functions with @verifier"
            )
        if num_workers is None:
            num_workers = (
                len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
            )
        if not isinstance(num_workers, int) or num_workers < 1:
            raise ConfigError(
                f"VerifierPool num_workers must be an int >= 1 (or None for one per CPU), got {num_workers!r}"
            )
        if not (isinstance(timeout_s, int | float) and 0 < timeout_s < float("inf")):
            raise ConfigError(
                f"VerifierPool timeout_s must be a positive number of seconds, got {timeout_s!r}"
            )
        if not isinstance(burst_workers, int) or burst_workers < 0:
            raise ConfigError(
                f"VerifierPool burst_workers must be an int >= 0 (extra workers while jobs hang), got {burst_workers!r}"
            )
        if memory_mb is not None and memory_mb < 64:
            raise ConfigError(
                f"VerifierPool memory_mb must be >= 64 (or None for no limit), got {memory_mb!r}"
            )
        try:
            self._payload = pickle.dumps(verifier)
            self._files = user_file_modules(self._payload)
        except Exception as exc:
            raise ConfigError(
                f"the verifier {verifier!r} cannot be pickled ({exc}); workers receive it by pickle, so define it "
                "at module level (not inside a function or as a lambda)"
            ) from exc
        methods = multiprocessing.get_all_start_methods()
        if start_method is None and _must_use_subprocess():
            start_method = "subprocess"
        start_method = start_method or ("forkserver" if "forkserver" in methods else "spawn")
        if start_method != "subprocess" and (start_method not in methods or start_method == "fork"):
            raise ConfigError(
                f"VerifierPool start_method must be 'forkserver', 'spawn' or 'subprocess', got {start_method!r}"
            )
        self.start_method = start_method
        self._ctx: Any = multiprocessing.get_context(
            "spawn" if start_method == "subprocess" else start_method
        )
        if start_method == "forkserver":
            preload = [
                "rlvr.verifiers.pool_worker",
                type(verifier).__module__,
                *getattr(verifier, "worker_preload", ()),
            ]
            self._ctx.set_forkserver_preload(
                preload
            )  # only takes effect if the forkserver is not running yet
        self.verifier = verifier
        self.num_workers = num_workers
        self.timeout_s = float(timeout_s)
        self.memory_mb = memory_mb
        self.burst_workers = burst_workers
        self.stats = {"jobs": 0, "timeouts": 0, "crashes": 0, "workers_started": 0, "peak_workers": 0}
        # when a job last finished normally / last timed out: extra workers start only while the verifier hangs
        self._last_ok = float("-inf")
        self._last_timeout = float("-inf")
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._pending: deque[_Job] = deque()
        self._workers: list[_Worker] = []
        self._starting = 0
        self._closed = False
        self._init_error: str | None = None
        self._failed_starts = 0
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    # -- public API -------------------------------------------------------------------------------------
    def submit(self, completion: str, reference: Any) -> Future[Verdict]:
        """Queue one verification; the future resolves to its `Verdict` (timeout/error verdicts included)."""
        future: Future[Verdict] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("this VerifierPool is closed; create a new one")
            if self._init_error is not None:
                raise RuntimeError(
                    f"the verifier could not be loaded in a worker process:\n{self._init_error}"
                )
            self._pending.append(_Job(next(self._ids), completion, reference, future))
            self.stats["jobs"] += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="VerifierPool", daemon=True)
                self._thread.start()
        self._wake()
        return future

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade one pair in a worker (blocking)."""
        return self.submit(completion, reference).result()

    def verify_batch(self, pairs: Iterable[tuple[str, Any]], *, progress: bool = False) -> list[Verdict]:
        """Grade many pairs on all workers; results in input order."""
        futures = [self.submit(c, r) for c, r in pairs]
        if progress:
            from tqdm import tqdm

            for _ in tqdm(_as_completed(futures), total=len(futures), desc="verifying", unit="pair"):
                pass
        return [f.result() for f in futures]

    async def averify(self, completion: str, reference: Any) -> Verdict:
        """Grade one pair without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(completion, reference))

    def validate_reference(self, reference: Any) -> None:
        """Delegate to the wrapped verifier (in this process: references are checked at load time)."""
        self.verifier.validate_reference(reference)

    def close(self) -> None:
        """Stop the workers; queued jobs are cancelled, running ones resolve to `error` verdicts."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending, self._pending = list(self._pending), deque()
            thread = self._thread
        for job in pending:
            job.future.cancel()
        self._wake()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
        if thread is None:
            self._shutdown_workers()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> VerifierPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a VerifierPool cannot be pickled; pickle its verifier and build a pool on the other side"
        )

    def __repr__(self) -> str:
        return f"VerifierPool({self.verifier!r}, num_workers={self.num_workers}, timeout_s={self.timeout_s})"

    # -- dispatcher thread -----------------------------------------------------------------------------
    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _start_worker(self) -> None:
        if self.start_method == "subprocess":
            handle = _SubprocessWorker(self._payload, self.memory_mb, self._files)
            with self._lock:
                self._workers.append(_Worker(handle, handle.conn))
                self._starting -= 1
                self.stats["workers_started"] += 1
            return
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_worker_main,
            args=(child, self._payload, self.memory_mb, self._files),
            daemon=True,
            name="VerifierPoolWorker",
        )
        with _main_module_hidden(b"__main__" in self._payload):
            process.start()
        child.close()
        with self._lock:
            self._workers.append(_Worker(process, parent))
            self._starting -= 1
            self.stats["workers_started"] += 1

    def _kill(self, worker: _Worker) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(worker.process.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            worker.process.kill()
        worker.process.join(timeout=5)
        worker.conn.close()

    def _finish(self, worker: _Worker, verdict: Verdict) -> None:
        job, worker.job = worker.job, None
        if job is not None and not job.future.done():
            job.future.set_result(verdict)

    def _dispatch(self) -> int:
        """Hand pending jobs to idle ready workers; return how many new workers to start (lock held)."""
        for worker in self._workers:
            if not self._pending:
                break
            if worker.ready and worker.job is None and not worker.retiring:
                while self._pending:
                    job = self._pending.popleft()
                    if job.future.set_running_or_notify_cancel():
                        break
                else:
                    break
                try:
                    worker.conn.send((job.job_id, job.completion, job.reference))
                except Exception as exc:  # unpicklable reference, or the worker just died
                    job.future.set_result(
                        Verdict.fail(Reason.ERROR, error=f"could not send job to worker: {exc}")
                    )
                    continue
                worker.job = job
                worker.deadline = time.monotonic() + self.timeout_s
        now = time.monotonic()
        overdue = sum(1 for j in self._pending if self._overdue(j, now))
        capacity = self.num_workers + min(overdue, self.burst_workers)
        active = [w for w in self._workers if not w.retiring]
        idle = [w for w in active if w.job is None]
        for worker in idle[: max(0, len(active) - capacity)]:  # a burst is over: extra idle workers leave
            if worker.ready and not self._pending:
                worker.retiring = True
                with contextlib.suppress(Exception):
                    worker.conn.send(None)
        want = max(0, min(len(self._pending) - len(idle), capacity - len(active) - self._starting))
        self._starting += want
        self.stats["peak_workers"] = max(self.stats["peak_workers"], len(active) + self._starting)
        return want

    def _overdue(self, job: _Job, now: float) -> bool:
        """A queued job waited `timeout_s` while the verifier hangs: it gets a (burst) worker of its own."""
        return now >= job.submitted + self.timeout_s and self._hanging_since(job.submitted)

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            self._shutdown_workers()

    def _loop(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                to_start = self._dispatch()
            for _ in range(to_start):
                try:
                    self._start_worker()
                except Exception as exc:
                    with self._lock:
                        self._starting -= 1
                        self._init_error = f"could not start a worker process: {exc}"
                        self._fail_pending(self._init_error)
            with self._lock:
                workers = list(self._workers)
                busy = [w.deadline for w in workers if w.job is not None]
                busy += self._queue_deadlines()
            timeout = max(0.0, min(busy) - time.monotonic()) if busy else None
            waitables: list[Any] = [self._wake_r]
            waitables += [w.conn for w in workers]
            waitables += [w.process.sentinel for w in workers if w.process.sentinel is not w.conn]
            ready = set(wait(waitables, timeout))
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError, OSError):
                    os.read(self._wake_r, 4096)
            now = time.monotonic()
            for worker in workers:
                if worker.conn in ready or worker.process.sentinel in ready:
                    self._service(worker)
                elif worker.job is not None and now >= worker.deadline:
                    self._timeout(worker)

    def _service(self, worker: _Worker) -> None:
        """Read what a worker sent; if it died, fail its job and drop it."""
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == "ready":
                    worker.ready = True
                    self._failed_starts = 0
                elif kind == "init_error":
                    with self._lock:
                        self._init_error = payload
                        self._fail_pending(payload)
                else:
                    self._last_ok = time.monotonic()
                    self._finish(worker, payload)
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        if not worker.process.is_alive():
            code = worker.process.exitcode
            with self._lock:
                self.stats["crashes"] += worker.job is not None
                if not worker.ready:  # died while starting: do not retry forever
                    self._failed_starts += 1
                    if self._failed_starts >= _MAX_FAILED_STARTS and self._init_error is None:
                        self._init_error = (
                            f"{self._failed_starts} worker processes exited (last exit code {code}) before they "
                            "were ready; run the failing import in a fresh interpreter to see why"
                        )
                        self._fail_pending(self._init_error)
            self._finish(worker, Verdict.fail(Reason.ERROR, error=f"verifier worker died (exit code {code})"))
            self._drop(worker)

    def _timeout(self, worker: _Worker) -> None:
        self._kill(worker)
        with self._lock:
            self.stats["timeouts"] += 1
            self._last_timeout = time.monotonic()
        self._finish(worker, Verdict.fail(Reason.TIMEOUT, timeout_s=self.timeout_s, verifier_timeout=True))
        self._drop(worker)

    def _hanging_since(self, submitted: float) -> bool:
        """Whether, since `submitted`, a job timed out and none finished normally (the verifier hangs)."""
        return self._last_timeout >= submitted and self._last_ok < submitted

    def _queue_deadlines(self) -> list[float]:
        """When the next queued job becomes overdue (lock held): the dispatcher wakes then to start its worker."""
        if self._last_timeout <= self._last_ok:
            return []
        now = time.monotonic()
        return [
            j.submitted + self.timeout_s
            for j in self._pending
            if self._hanging_since(j.submitted) and j.submitted + self.timeout_s > now
        ][:1]

    def _drop(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.conn.close()
        if worker.process.is_alive():  # a subprocess worker whose pipe broke: do not leave it running
            self._kill(worker)
        worker.process.join(timeout=5)
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)

    def _fail_pending(self, message: str) -> None:
        """Fail every queued job (lock held): the verifier cannot be loaded, so nothing can run."""
        while self._pending:
            job = self._pending.popleft()
            if job.future.set_running_or_notify_cancel():
                job.future.set_exception(
                    RuntimeError(f"the verifier could not be loaded in a worker:\n{message}")
                )

    def _shutdown_workers(self) -> None:
        with self._lock:
            workers, self._workers = list(self._workers), []
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.conn.send(None)
        deadline = time.monotonic() + 1.0
        for worker in workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                self._kill(worker)
            self._finish(worker, Verdict.fail(Reason.ERROR, error="the VerifierPool was closed"))
            with contextlib.suppress(Exception):
                worker.conn.close()


def _as_completed(futures: Sequence[Future[Verdict]]) -> Iterable[Future[Verdict]]:
    from concurrent.futures import as_completed

    return as_completed(futures)
