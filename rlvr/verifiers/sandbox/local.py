"""The local backend: Linux namespaces + cgroups + rlimits + per-slot uids, cold launcher or warm zygote pool."""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.cgroups import CgroupTree
from rlvr.verifiers.sandbox.config import ExecResult, Judge, SandboxConfig
from rlvr.verifiers.sandbox.rootfs import (
    FIX_HINT,
    build_root_ops,
    compiled,
    inside_source,
    interpreter_info,
    sandbox_env,
)
from rlvr.verifiers.sandbox.slots import Slot, SlotPool
from rlvr.verifiers.sandbox.zygote import SETUP_TIMEOUT_S, Zygote

LOCK_DIR = "/tmp/rlvr-sandbox-slots"
KILL_GRACE_S = 5.0
READ_CHUNK = 1 << 16
BOOT = (
    "import marshal,os;c,a=marshal.loads(os.pread({fd},os.fstat({fd}).st_size,0));os.close({fd});"
    "exec(c,{{'__name__':'__rlvr_inside__','ARGS':a}})"
)


class _Capped:
    """Accumulates a stream up to `cap` bytes, then keeps reading (so the writer never blocks) and discards."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.truncated = False

    def feed(self, data: bytes) -> None:
        room = self.cap - len(self.buf)
        if room > 0:
            self.buf += data[:room]
        if len(data) > room:
            self.truncated = True

    def text(self) -> str:
        return self.buf.decode("utf-8", errors="replace")


class LocalBackend:
    """Runs programs in Linux namespaces on this machine (see the package docstring for the guarantees)."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        if sys.platform != "linux":
            raise SandboxError(
                f"the local sandbox needs Linux (this is {sys.platform}); use backend='docker'"
            )
        if os.geteuid() != 0:
            raise SandboxError(f"not running as root: {FIX_HINT}")
        self.version, _ = interpreter_info(config.python)
        self.python = os.path.realpath(config.python)
        self.root_spec = {"stage": "/tmp", "ops": build_root_ops(config)}
        self.inside = compiled(inside_source(), "rlvr-sandbox-inside", self.version)
        self.env = sandbox_env(config)
        cgroups, why = (None, "disabled by SandboxConfig.cgroups=False")
        if config.cgroups is not False:
            cgroups, why = CgroupTree.detect()
            if cgroups is None and config.cgroups:
                raise SandboxError(f"SandboxConfig.cgroups=True but cgroups are unusable: {why}")
        self.cgroups_reason = why
        self.pool = SlotPool(config.pool_size, config.uid_base, cgroups, LOCK_DIR)
        self._start_lock = threading.Lock()
        self._opened = False
        self._zygote: Zygote | None = None
        self._closed = False
        self._pid = os.getpid()

    @property
    def python_version(self) -> tuple[int, int]:
        """(major, minor) of the sandbox's interpreter."""
        return self.version

    # -- lifecycle -------------------------------------------------------------------------------------
    def _forked(self) -> None:
        """In a forked child: drop (without closing) the parent's pool and zygote, whose fds we share."""
        for slot in self.pool.slots:
            with contextlib.suppress(OSError):
                os.close(slot.lock_fd)  # our copy would keep the parent's slot locked after it exits
        self.pool = SlotPool(self.config.pool_size, self.config.uid_base, self.pool.cgroups, LOCK_DIR)
        self._opened = False
        self._zygote = None
        self._start_lock = threading.Lock()  # the parent's may have been held by another thread at fork
        self._pid = os.getpid()

    def start(self) -> None:
        """Claim the slots and, in warm mode, start the zygote (otherwise done by the first run)."""
        if self._pid != os.getpid():
            self._forked()
        with self._start_lock:
            if self._closed:
                raise SandboxError("this Sandbox was closed; create a new one")
            if not self._opened:
                self.pool.open()
                self._opened = True
            if self.config.warm and (self._zygote is None or not self._zygote.alive()):
                if self._zygote is not None:
                    self._zygote.close()
                self._zygote = Zygote(self)

    def close(self) -> None:
        """Stop the zygote, kill anything left, remove the cgroups and release the slot ids."""
        if self._pid != os.getpid():
            self._forked()  # never stop the parent's zygote from a forked child
        with self._start_lock:
            self._closed = True
            if self._zygote is not None:
                self._zygote.close()
                self._zygote = None
            self.pool.close()

    def launch(self, args: dict[str, Any], fds: list[int], stderr: int) -> subprocess.Popen[bytes]:
        """Start a fresh sandbox interpreter running `inside.py` with `args` (cold launcher or zygote)."""
        kind, blob = self.inside
        memfd = os.memfd_create("rlvr-boot", os.MFD_CLOEXEC)
        try:
            if kind == "marshal":
                os.write(memfd, marshal.dumps((marshal.loads(blob), args)))
                boot = BOOT.format(fd=memfd)
            else:
                os.write(memfd, marshal.dumps(args))
                boot = (
                    f"import marshal,os;a=marshal.loads(os.pread({memfd},os.fstat({memfd}).st_size,0));"
                    f"exec(compile({blob.decode()!r},'inside','exec'),{{'__name__':'__rlvr_inside__','ARGS':a}})"
                )
            return subprocess.Popen(
                [self.python, "-S", "-s", "-B", "-c", boot], env=self.env, pass_fds=[memfd, *fds],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, cwd="/",
            )  # fmt: skip
        except OSError as exc:
            raise SandboxError(f"cannot start the sandbox interpreter {self.python}: {exc}") from exc
        finally:
            os.close(memfd)

    # -- one run ---------------------------------------------------------------------------------------
    def run(
        self,
        code: str,
        *,
        stdin: str | bytes = "",
        files: dict[str, str | bytes] | None = None,
        timeout_s: float | None = None,
        memory_mb: int | None = None,
        judge: Judge | None = None,
    ) -> ExecResult:
        """Run `code` in a fresh isolated context and return what it did."""
        self.start()
        cfg = self.config
        timeout = float(timeout_s if timeout_s is not None else cfg.timeout_s)
        memory = int(memory_mb if memory_mb is not None else cfg.memory_mb)
        slot = self.pool.acquire()
        try:
            if slot.cgroup is not None:
                # + the slot zygote, the run's init and the judge
                slot.cgroup.set_limits(memory, cfg.max_processes + 3, cfg.cpus)
                ooms_before = slot.cgroup.oom_kills()
            run = self._run_spec(code, stdin, files, timeout, memory, slot, judge)
            result = self._execute(run, slot, timeout, judge)
            # every process of the run is gone here: its init exits only after the kernel killed its pid
            # namespace, and we waited for that init's exit (or its launcher's) in _collect
            memory_exceeded = False
            if slot.cgroup is not None:
                memory_exceeded = slot.cgroup.oom_kills() > ooms_before
            elif result.exit_code not in (0, None) and "MemoryError" in result.stderr[-2000:]:
                memory_exceeded = True  # rlimit mode: the interpreter's own report (advisory)
            return _replace(result, memory_exceeded=memory_exceeded)
        finally:
            self.pool.release(slot)

    def box(self, slot: Slot) -> dict[str, Any]:
        """What a slot's inits are prepared with before any run is known."""
        cfg = self.config
        return {"network": cfg.network, "workdir": cfg.workdir, "disk_mb": cfg.max_file_mb, "uid": slot.uid,
                "gid": slot.uid, "judge_uid": slot.judge_uid}  # fmt: skip

    def _run_spec(
        self, code, stdin, files, timeout, memory, slot: Slot, judge: Judge | None
    ) -> dict[str, Any]:
        cfg = self.config
        file_bytes: dict[str, bytes] = {}
        for rel, content in (files or {}).items():
            parts = Path(rel).parts
            if not parts or Path(rel).is_absolute() or ".." in parts:
                raise SandboxError(f"files: {rel!r} must be a relative path inside the working directory")
            file_bytes[rel] = content.encode() if isinstance(content, str) else bytes(content)
        cpu = int(timeout) + 2
        rlimits: dict[str, Any] = {
            "RLIMIT_NPROC": cfg.max_processes,
            "RLIMIT_FSIZE": cfg.max_file_mb << 20,
            "RLIMIT_CPU": (cpu, cpu + 1),
            "RLIMIT_CORE": 0,
            "RLIMIT_NOFILE": cfg.max_open_files,
        }
        if slot.cgroup is None:  # no memory cgroup: cap each process's address space instead
            rlimits["RLIMIT_AS"] = memory << 20
        judge_spec = None
        if judge is not None:
            kind, judge_code = compiled(judge.source, "<judge>", self.version)
            # no "data": the judge's data never enters the run spec (which the program's process is forked
            # with); the judge reads it from its own pipe, written by _collect once the program exists
            judge_spec = {"kind": kind, "code": judge_code,
                          "rlimits": {"RLIMIT_NPROC": 1, "RLIMIT_CORE": 0, "RLIMIT_CPU": (cpu, cpu + 1)}}  # fmt: skip
        return {
            "code": code, "stdin": stdin.encode() if isinstance(stdin, str) else bytes(stdin), "files": file_bytes,
            "workdir": cfg.workdir, "box": self.box(slot), "env": self.env, "python_paths": list(cfg.python_paths), "rlimits": rlimits,
            "judge": judge_spec,
        }  # fmt: skip

    def _execute(self, run: dict[str, Any], slot: Slot, timeout: float, judge: Judge | None) -> ExecResult:
        cfg = self.config
        pipes = {name: os.pipe2(os.O_CLOEXEC) for name in ("stdout", "stderr", "status")}
        if judge is not None:
            pipes["report"] = os.pipe2(os.O_CLOEXEC)
        child_fds = {name: w for name, (_, w) in pipes.items()}
        readers = {r: name for name, (r, _) in pipes.items()}
        spec_w = -1
        if judge is not None:  # the judge's data pipe: the sandbox gets the read end, we keep the write end
            child_fds["spec"], spec_w = os.pipe2(os.O_CLOEXEC)
        proc: subprocess.Popen[bytes] | None = None
        pidfd: int | None = None
        setup_error = ""
        try:
            if cfg.warm:
                assert self._zygote is not None
                memfd = os.memfd_create("rlvr-run", os.MFD_CLOEXEC)
                try:
                    os.write(memfd, marshal.dumps(run))
                    try:
                        pidfd = self._zygote.spawn(slot, {"payload": memfd, **child_fds})
                    except (OSError, SandboxError):
                        self.start()  # the zygote died (e.g. killed from outside): start a new one, retry once
                        pidfd = self._zygote.spawn(slot, {"payload": memfd, **child_fds})
                finally:
                    os.close(memfd)
            else:
                go_r, go_w = os.pipe2(os.O_CLOEXEC)
                try:
                    args = {"mode": "cold", "fds": {**child_fds, "go": go_r}, "run": marshal.dumps(run),
                            "root": self.root_spec}  # fmt: skip
                    proc = self.launch(args, [*child_fds.values(), go_r], stderr=child_fds["status"])
                    os.close(go_r)
                    go_r = -1
                    self._enter_cgroups(proc, slot)
                    os.write(go_w, b"1")
                except OSError as exc:  # the launcher died early (it says why on the status pipe), or the
                    setup_error = f"cannot start the run in its cgroups: {exc}"  # cgroups refused it
                    if proc is not None:
                        proc.kill()
                finally:
                    for fd in (go_r, go_w):
                        if fd >= 0:
                            os.close(fd)
        except BaseException:
            if spec_w >= 0:
                os.close(spec_w)
            raise
        finally:
            for w in child_fds.values():
                os.close(w)
        return self._collect(readers, proc, pidfd, timeout, judge, setup_error, slot.cgroup, spec_w)

    @staticmethod
    def _enter_cgroups(proc: subprocess.Popen[bytes], slot: Slot) -> None:
        """Move a cold launcher into the slot's cgroups (it waits for our go before starting the run)."""
        if slot.cgroup is None:
            return
        for path in slot.cgroup.procs_files:
            with open(path, "w") as f:
                f.write(str(proc.pid))

    @staticmethod
    def _feed_judge(fd: int, events: int, data: memoryview) -> memoryview:
        """Write what the pipe takes of the judge's data; returns the rest (empty when the judge is gone)."""
        if not events & select.POLLOUT:
            return data[:0]  # POLLERR: the judge closed its end
        try:
            return data[os.write(fd, data[:READ_CHUNK]) :]
        except BlockingIOError:
            return data
        except OSError:
            return data[:0]

    def _collect(
        self, readers, proc, pidfd, timeout, judge, setup_error: str = "", slot_cgroup=None, spec_w: int = -1
    ) -> ExecResult:
        """Read the run's pipes until all close, killing it at the deadline; once the run's init says that the
        program started, write the judge's data to `spec_w` (the judge's pipe)."""
        caps = {
            "stdout": _Capped(self.config.max_output_bytes),
            "stderr": _Capped(self.config.max_output_bytes),
            "status": _Capped(1 << 20),
            "report": _Capped(judge.max_report_bytes if judge else 0),
        }
        poller = select.poll()
        for fd in readers:
            poller.register(fd, select.POLLIN)
        start = time.monotonic()
        setup_deadline = start + SETUP_TIMEOUT_S
        started_at: float | None = None
        killed_at: float | None = None
        timed_out = False

        def kill() -> None:
            if pidfd is not None:
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            if proc is not None:  # the cold launcher kills the run's init, then exits (see inside.cold_main)
                with contextlib.suppress(OSError):
                    proc.terminate()

        spec = memoryview(bytes(judge.data) if judge is not None else b"")

        def close_spec() -> None:
            nonlocal spec_w
            if spec_w >= 0:
                with contextlib.suppress(KeyError):
                    poller.unregister(spec_w)
                os.close(spec_w)
                spec_w = -1

        try:
            while readers:
                now = time.monotonic()
                if started_at is None and caps["status"].buf[:1] == b"S":
                    started_at = now
                    if spec_w >= 0:  # the program's process exists now: only now may the data enter
                        os.set_blocking(spec_w, False)
                        poller.register(spec_w, select.POLLOUT)
                deadline = (started_at + timeout) if started_at is not None else setup_deadline
                if killed_at is None and now >= deadline:
                    timed_out = started_at is not None
                    killed_at = now
                    kill()
                if killed_at is not None and now > killed_at + KILL_GRACE_S:
                    break  # something still holds a pipe open (cannot be the run: its namespace is gone)
                wait = (killed_at + KILL_GRACE_S if killed_at is not None else deadline) - now
                for fd, events in poller.poll(max(0.0, wait) * 1000 + 1):
                    if fd == spec_w:
                        spec = self._feed_judge(fd, events, spec)
                        if not spec:
                            close_spec()  # end of file: the judge has all of it (or is gone)
                        continue
                    data = os.read(fd, READ_CHUNK)
                    if data:
                        caps[readers[fd]].feed(data)
                    else:
                        poller.unregister(fd)
                        os.close(fd)
                        del readers[fd]
            end = time.monotonic()
            if proc is not None:
                try:
                    proc.wait(timeout=KILL_GRACE_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    if slot_cgroup is not None:
                        slot_cgroup.wait_empty()
            elif pidfd is not None:  # the init's exit (it waits for its namespace to be torn down)
                select.select([pidfd], [], [], KILL_GRACE_S)
        except (
            BaseException
        ):  # e.g. KeyboardInterrupt in the caller: never leave the run behind, holding its slot
            kill()
            if proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=KILL_GRACE_S)
            elif pidfd is not None:
                select.select([pidfd], [], [], KILL_GRACE_S)
            raise
        finally:
            close_spec()
            for fd in readers:
                os.close(fd)
            if pidfd is not None:
                os.close(pidfd)

        status = bytes(caps["status"].buf)
        info: dict[str, Any] = {}
        if status[:1] != b"S":
            text = (status[1:] if status[:1] == b"X" else status).decode(errors="replace")
            raise SandboxError(
                f"the sandbox could not start the run ({FIX_HINT}):\n{text or 'setup timed out'}"
            )
        if status[1:2] == b"E":
            with contextlib.suppress(ValueError, EOFError, TypeError):
                info = marshal.loads(status[2:])
        exit_code = info.get("exit")
        if timed_out and exit_code is None:
            exit_code = -signal.SIGKILL
        wall = (end if killed_at is None else killed_at) - (started_at if started_at is not None else start)
        return ExecResult(
            exit_code=exit_code,
            stdout=caps["stdout"].text(),
            stderr=caps["stderr"].text(),
            timed_out=timed_out,
            memory_exceeded=False,
            wall_s=wall,
            stdout_truncated=caps["stdout"].truncated,
            stderr_truncated=caps["stderr"].truncated,
            max_rss_mb=info.get("maxrss_kb", 0) / 1024,
            cpu_s=info.get("cpu_s", 0.0),
            judge_output=bytes(caps["report"].buf),
            judge_exit_code=info.get("judge_exit"),
        )


def _replace(result: ExecResult, **changes: Any) -> ExecResult:
    import dataclasses

    return dataclasses.replace(result, **changes)
