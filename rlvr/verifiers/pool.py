"""`VerifierPool`: run any picklable `Verifier` in worker processes, with a hard, killing timeout per job.

No stdlib pool can kill one stuck task (`concurrent.futures` cannot cancel a running call; `multiprocessing.Pool`
cannot replace a single hung worker), and `signal.alarm` only works on the main thread and cannot stop C
code. So this is a small hand-written pool:

* Workers are processes from the `forkserver` context (`spawn` where that does not exist), never `fork`:
  the parent may hold threads, torch, CUDA or Ray state that must not be copied. Each worker starts its own
  process group, unpickles the verifier once, warms it up, then serves jobs over a pipe.
* One dispatcher thread owns all workers. It hands queued jobs to idle workers, waits on their pipes and
  process sentinels, and enforces deadlines: a job running longer than `timeout_s` gets its worker's
  process group SIGKILLed, the job yields `Verdict(0, False, "timeout")`, and a fresh worker replaces it.
  A worker that dies (segfault, `os._exit`, OOM kill) yields an `error` verdict and is replaced too.
  The deadline counts from when a worker takes the job, not from when it was queued.
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
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, as_verdict

_IN_WORKER = False
#: Workers in a row that may die before reporting ready before the pool gives up (a broken environment).
_MAX_FAILED_STARTS = 3
_START_LOCK = threading.Lock()


def in_worker() -> bool:
    """Whether this process is a `VerifierPool` worker (whose parent enforces the deadline)."""
    return _IN_WORKER


def _worker_main(conn: Connection, payload: bytes, memory_mb: int | None) -> None:
    """Worker process: unpickle the verifier, report ready, then answer (job_id, completion, ref) messages."""
    global _IN_WORKER
    _IN_WORKER = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    with contextlib.suppress(OSError):
        os.setpgrp()  # a timeout kills the whole group, including anything the verifier started
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        verifier = pickle.loads(payload)
        warmup = getattr(verifier, "warmup", None)
        if callable(warmup):
            warmup()
    except BaseException:
        conn.send(("init_error", traceback.format_exc(limit=5)))
        return
    conn.send(("ready", None))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return  # parent is gone
        if msg is None:
            return
        job_id, completion, reference = msg
        try:
            verdict = as_verdict(verifier.verify(completion, reference))
        except BaseException as exc:  # MemoryError, RecursionError, user bugs: a verdict, never a dead loop
            verdict = Verdict.fail(Reason.ERROR, error=f"{type(exc).__name__}: {exc}")
        try:
            conn.send((job_id, verdict))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send((job_id, Verdict.fail(Reason.ERROR, error=f"unpicklable verdict: {exc}")))


def _subprocess_entry() -> None:
    """Entry of a worker started as a fresh interpreter (`start_method="subprocess"`): argv = fd, memory_mb."""
    conn = Connection(int(sys.argv[1]))
    payload = conn.recv_bytes()
    _worker_main(conn, payload, int(sys.argv[2]) or None)


class _SubprocessWorker:
    """A worker process started with `subprocess` (a fresh interpreter, talking over a socket pair).

    Daemonic processes (`multiprocessing.Pool` workers, torch `DataLoader` workers, `datasets.map` workers)
    may not start `multiprocessing` children, but they may run programs. This handle offers the part of the
    `multiprocessing.Process` interface the pool uses; `sentinel` is a pidfd, readable once the child exits.
    """

    def __init__(self, payload: bytes, memory_mb: int | None) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([p for p in sys.path if p] + [env.get("PYTHONPATH", "")])
        code = "from rlvr.verifiers.pool import _subprocess_entry; _subprocess_entry()"
        self._popen = subprocess.Popen(
            [sys.executable, "-c", code, str(child.fileno()), str(memory_mb or 0)],
            pass_fds=[child.fileno()],
            env=env,
            stdin=subprocess.DEVNULL,
            close_fds=True,
        )
        child.close()
        self.conn = Connection(parent.detach())
        self.conn.send_bytes(payload)
        self.pid = self._popen.pid
        self._pidfd = os.pidfd_open(self.pid) if hasattr(os, "pidfd_open") else None
        self.sentinel: Any = self._pidfd if self._pidfd is not None else self.conn

    @property
    def exitcode(self) -> int | None:
        """The exit status once the child has exited (negative: killed by that signal)."""
        return self._popen.poll()

    def is_alive(self) -> bool:
        """Whether the child is still running."""
        return self._popen.poll() is None

    def kill(self) -> None:
        """SIGKILL the child."""
        with contextlib.suppress(ProcessLookupError):
            self._popen.kill()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the child to exit (reaps it), at most `timeout` seconds."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout)
        if self._popen.returncode is not None and self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None


_IMPORTED_BY_PID = os.getpid()


def _must_use_subprocess() -> bool:
    """Inside a daemonic process `multiprocessing` refuses to start children; fresh interpreters still work.

    So does a process forked from the one that imported this module (`datasets.map(num_proc=...)` forks with
    the `multiprocess` library, whose workers stdlib `multiprocessing` does not see as daemonic): it inherits
    the parent's forkserver, whose children are not its own, and waiting on them fails with ECHILD.
    """
    return bool(multiprocessing.current_process().daemon) or os.getpid() != _IMPORTED_BY_PID


@contextlib.contextmanager
def _main_module_hidden(needed: bool) -> Iterator[None]:
    """Keep spawn/forkserver children from re-running the parent's `__main__` unless the verifier needs it.

    Children normally re-import the main script (as `__mp_main__`) so that objects defined there unpickle.
    A verifier from an importable module does not need that, and skipping it means a script without an
    `if __name__ == "__main__":` guard, or one fed on stdin (`python - < script.py`, path `<stdin>`),
    does not run again in every worker. `needed` is True when the pickled verifier refers to `__main__`.
    """
    main = sys.modules.get("__main__")
    saved = {k: getattr(main, k) for k in ("__file__", "__spec__") if hasattr(main, k)}
    hide = main is not None and not needed and bool(saved)
    with _START_LOCK:
        if hide:
            if "__file__" in saved:
                del main.__file__  # type: ignore[union-attr]
            main.__spec__ = None  # type: ignore[union-attr]
        try:
            yield
        finally:
            if hide:
                for k, v in saved.items():
                    setattr(main, k, v)


@dataclass
class _Job:
    job_id: int
    completion: str
    reference: Any
    future: Future[Verdict]


@dataclass
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    job: _Job | None = None
    deadline: float = 0.0
    started: float = field(default_factory=time.monotonic)


class VerifierPool(Verifier):
    """Runs `verifier.verify` in up to `num_workers` processes, each job under a hard `timeout_s` deadline."""

    name = "pool"

    def __init__(
        self,
        verifier: Verifier,
        num_workers: int | None = None,
        timeout_s: float = 10.0,
        *,
        start_method: str | None = None,
        memory_mb: int | None = None,
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
        if memory_mb is not None and memory_mb < 64:
            raise ConfigError(
                f"VerifierPool memory_mb must be >= 64 (or None for no limit), got {memory_mb!r}"
            )
        try:
            self._payload = pickle.dumps(verifier)
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
        self._ctx = multiprocessing.get_context("spawn" if start_method == "subprocess" else start_method)
        if start_method == "forkserver":
            preload = [
                "rlvr.verifiers.pool",
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
        self.stats = {"jobs": 0, "timeouts": 0, "crashes": 0, "workers_started": 0}
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
            handle = _SubprocessWorker(self._payload, self.memory_mb)
            with self._lock:
                self._workers.append(_Worker(handle, handle.conn))
                self._starting -= 1
                self.stats["workers_started"] += 1
            return
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_worker_main,
            args=(child, self._payload, self.memory_mb),
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
            if worker.ready and worker.job is None:
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
        idle = sum(1 for w in self._workers if w.job is None)
        want = min(len(self._pending) - idle, self.num_workers - len(self._workers) - self._starting)
        self._starting += max(want, 0)
        return max(want, 0)

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
        self._finish(worker, Verdict.fail(Reason.TIMEOUT, timeout_s=self.timeout_s))
        self._drop(worker)

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
