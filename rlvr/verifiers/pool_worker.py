"""The worker side of `VerifierPool`: the process body, and how a worker process is started.

Kept apart from the pool's dispatcher so that a worker (and the forkserver that forks workers) imports only
what grading needs. Workers come from the `forkserver` or `spawn` context, or, inside daemonic processes, are
fresh interpreters started with `subprocess` (`_SubprocessWorker`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import as_verdict

_IN_WORKER = False
_START_LOCK = threading.Lock()


def in_worker() -> bool:
    """Whether this process is a `VerifierPool` worker (whose parent enforces the deadline)."""
    return _IN_WORKER


def user_file_modules(payload: bytes) -> tuple[str, ...]:
    """The .py files loaded by `import_user_modules` that a pickled verifier refers to (workers load them first).

    Such a module is named `rlvr_user_<stem>` and is not importable by name, so a worker could not unpickle
    a verifier defined in it without loading the file the same way.
    """
    return tuple(
        str(module.__file__)
        for name, module in list(sys.modules.items())
        if name.startswith("rlvr_user_") and getattr(module, "__file__", None) and name.encode() in payload
    )


def _worker_main(
    conn: Connection, payload: bytes, memory_mb: int | None, files: tuple[str, ...] = ()
) -> None:
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
        if files:
            from rlvr.core.registry import import_user_modules

            import_user_modules(files)
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
    files = tuple(conn.recv())
    payload = conn.recv_bytes()
    _worker_main(conn, payload, int(sys.argv[2]) or None, files)


class _SubprocessWorker:
    """A worker process started with `subprocess` (a fresh interpreter, talking over a socket pair).

    Daemonic processes (`multiprocessing.Pool` workers, torch `DataLoader` workers, `datasets.map` workers)
    may not start `multiprocessing` children, but they may run programs. This handle offers the part of the
    `multiprocessing.Process` interface the pool uses; `sentinel` is a pidfd, readable once the child exits.
    """

    def __init__(self, payload: bytes, memory_mb: int | None, files: tuple[str, ...] = ()) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([p for p in sys.path if p] + [env.get("PYTHONPATH", "")])
        code = "from rlvr.verifiers.pool_worker import _subprocess_entry; _subprocess_entry()"
        self._popen = subprocess.Popen(
            [sys.executable, "-c", code, str(child.fileno()), str(memory_mb or 0)],
            pass_fds=[child.fileno()],
            env=env,
            stdin=subprocess.DEVNULL,
            close_fds=True,
        )
        child.close()
        self.conn = Connection(parent.detach())
        self.conn.send(list(files))
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
