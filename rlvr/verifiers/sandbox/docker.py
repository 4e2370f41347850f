"""The Docker backend: the same `Sandbox.run` interface, one container per run (for hosts with a daemon).

Docker provides the namespaces, a read-only root, no network (`--network none`), memory/pids/CPU limits,
sized tmpfs dirs, `--cap-drop ALL` (+ only SETUID/SETGID, for the container's init to drop to the run's uids)
and `no-new-privileges`; inside, rlvr's own init (`inside.run_init`) forks the program (uid 1000) and the
judge (uid 1001) with rlimits and the program's seccomp filter, as in the local backend. The image is never
pulled: build one without a registry with `scripts/docker_sandbox.sh` (`RLVR_DOCKER_IMAGE` names another).
With `docker_runtime="runsc"` (gVisor) the container also gets its own kernel: the strongest isolation here.

The judge's expectations never exist in anything the program can read: the run's files (`/rlvr/in`, a
root-only dir) hold the program, its inputs and the judge's *code*, never its data. The host writes the
judge's data to the container's stdin only after init reported that the program's process exists (b"S");
init passes that pipe to the judge (fd 6) unread, so no process forked before it, the program included,
ever held the data, and the pipe is root's (mode 0600), which the program cannot open through /proc/1/fd.
Inputs and the output streams go through host directories mounted into the container, so the daemon must run
on this machine.
"""

from __future__ import annotations

import contextlib
import marshal
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.config import ExecResult, Judge, SandboxConfig
from rlvr.verifiers.sandbox.rootfs import inside_source

SETUP_TIMEOUT_S = 120.0
POLL_S = 0.002
CHECK_S = 0.05
UID, JUDGE_UID = 1000, 1001
BOOT = (
    "import marshal,os;a=marshal.loads(open('/rlvr/in/args.bin','rb').read());"
    "exec(compile(open('/rlvr/in/inside.py').read(),'inside','exec'),{'__name__':'__rlvr_docker__','ARGS':a})"
)
# The container's init, appended to inside.py's source (whose own entry point runs only for its own __name__).
CONTAINER_MAIN = """
def container_main(args):
    os.umask(0o022)
    fds = {}
    for name in ("stdout", "stderr", "status", "report"):
        path = os.path.join(args["out_dir"], name)
        fds[name] = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with open(args["run_path"], "rb") as f:
        run = marshal.loads(f.read())
    if run["judge"] is not None:
        # the container's stdin: the host writes the judge's data there after b"S"; only the judge reads it
        fds["spec"] = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    devnull = os.open("/dev/null", os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    run_init(run, fds, run["box"])


_join_fresh_session_keyring = join_fresh_session_keyring


def join_fresh_session_keyring():
    # in a container no process reaches a kernel keyring: Docker's seccomp profile denies the key syscalls
    # (EPERM) and gVisor has no host keyrings (EACCES); a keyring that could be joined still is
    try:
        _join_fresh_session_keyring()
    except OSError as exc:
        if exc.errno not in (1, 13):
            raise


if __name__ == "__rlvr_docker__":
    container_main(ARGS)
"""
FIX_HINT = (
    "start a Docker daemon on this machine with scripts/docker_sandbox.sh (or set DOCKER_HOST to a local "
    'one), or use SandboxConfig(backend="local") as root'
)


def _read_capped(path: Path, cap: int) -> tuple[bytes, bool]:
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except FileNotFoundError:
        return b"", False
    return data[:cap], len(data) > cap


def _raw_socket(attachment: Any) -> Any:
    return getattr(attachment, "_sock", attachment)  # the SDK wraps the socket in a SocketIO


def _send_spec(attachment: Any, data: bytes, timeout: float) -> None:
    """Write the judge's data to the container's stdin and close it (the judge reads to end of file)."""
    sock = _raw_socket(attachment)
    try:
        sock.settimeout(timeout)
        sock.sendall(data)
    except OSError:
        pass  # the container is gone (or the judge stopped reading): the judge's report says what happened
    finally:
        _close_attachment(attachment)


def _close_attachment(attachment: Any) -> None:
    sock = _raw_socket(attachment)
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_WR)
    sock.close()
    with contextlib.suppress(Exception):
        attachment.close()


class DockerBackend:
    """Runs each program in a fresh, locked-down container."""

    python_version = None  # the image's interpreter may differ from the host's: ship sources, not bytecode

    def __init__(self, config: SandboxConfig) -> None:
        try:
            import docker  # noqa: F401 - checked here so a missing SDK fails before any work
        except ImportError as exc:
            raise SandboxError("the docker backend needs the docker SDK: pip install docker") from exc
        self.config = config
        self._client: Any = None
        self._slots = threading.BoundedSemaphore(config.pool_size)
        self._lock = threading.Lock()

    def start(self) -> None:
        """Connect to the daemon and make sure the image is present."""
        import docker

        with self._lock:
            if self._client is not None:
                return
            try:
                client = docker.from_env()
                client.ping()
            except Exception as exc:
                raise SandboxError(f"no Docker daemon answered ({exc}): {FIX_HINT}") from exc
            image, runtime = self.config.docker_image, self.config.docker_runtime
            try:  # never pulled: a sandbox must not depend on (or be fed by) a registry
                client.images.get(image)
            except docker.errors.ImageNotFound:
                raise SandboxError(
                    f"the Docker image {image!r} is not on this machine (rlvr never pulls it): build it with "
                    "scripts/docker_sandbox.sh (from this machine's Python, no registry needed), or set "
                    "SandboxConfig.docker_image / RLVR_DOCKER_IMAGE to a local image with python3"
                ) from None
            except Exception as exc:
                raise SandboxError(f"cannot inspect the Docker image {image!r}: {exc}") from exc
            if runtime is not None:
                runtimes = (client.info().get("Runtimes") or {}).keys()
                if runtime not in runtimes:
                    hint = "scripts/docker_sandbox.sh --gvisor" if runtime == "runsc" else "daemon.json"
                    raise SandboxError(
                        f"the Docker daemon has no runtime {runtime!r} (it has {sorted(runtimes)}): register it "
                        f"({hint}) and restart the daemon, or set SandboxConfig.docker_runtime=None"
                    )
            self._client = client

    def close(self) -> None:
        """Forget the client (containers are removed after each run)."""
        with self._lock:
            if self._client is not None:
                with contextlib.suppress(Exception):
                    self._client.close()
            self._client = None

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
        """Run `code` in a new container and return what it did."""
        self.start()
        cfg = self.config
        timeout = float(timeout_s if timeout_s is not None else cfg.timeout_s)
        memory = int(memory_mb if memory_mb is not None else cfg.memory_mb)
        file_bytes = {}
        for rel, content in (files or {}).items():
            parts = Path(rel).parts
            if not parts or Path(rel).is_absolute() or ".." in parts:
                raise SandboxError(f"files: {rel!r} must be a relative path inside the working directory")
            file_bytes[rel] = content.encode() if isinstance(content, str) else bytes(content)
        with self._slots:
            tmp = Path(tempfile.mkdtemp(prefix="rlvr-docker-"))
            try:
                return self._run_in(tmp, code, stdin, file_bytes, timeout, memory, judge)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)

    def _run_in(
        self, tmp: Path, code, stdin, files, timeout: float, memory: int, judge: Judge | None
    ) -> ExecResult:
        cfg = self.config
        env = self._write_inputs(tmp, code, stdin, files, timeout, judge)
        size = f"size={cfg.max_file_mb}m"
        api = self._client.api
        host_config = api.create_host_config(
            # network=True: the host's network, as in the local backend (the daemon of scripts/docker_sandbox.sh
            # has no bridge); under runsc registered with --network=none there is none either way
            network_mode="host" if cfg.network else "none",
            mem_limit=f"{memory}m",
            memswap_limit=f"{memory}m",
            pids_limit=self._pids_limit(),
            nano_cpus=int(cfg.cpus * 1e9) if cfg.cpus else None,
            read_only=True,
            tmpfs={
                cfg.workdir: f"{size},mode=0700,uid={UID},gid={UID}",
                "/tmp": f"{size},mode=1777",
                "/dev/shm": f"{size},mode=1777",
            },
            binds={
                str(tmp / "in"): {"bind": "/rlvr/in", "mode": "ro"},
                str(tmp / "out"): {"bind": "/rlvr/out", "mode": "rw"},
            },
            cap_drop=["ALL"],
            cap_add=["SETUID", "SETGID"],  # to drop to the program's and judge's uids; then they hold none
            security_opt=["no-new-privileges"],
            runtime=cfg.docker_runtime,
        )
        created = api.create_container(
            cfg.docker_image,
            command=["python3", "-S", "-s", "-B", "-c", BOOT],
            user="0",
            environment=env,
            working_dir="/",
            labels={"rlvr.sandbox": "1"},
            host_config=host_config,
            # with stdin open the SDK also sets StdinOnce: stdin ends when the host's attachment closes, which
            # is the end of file the judge reads to
            stdin_open=judge is not None,
        )
        container = self._client.containers.get(created["Id"])
        try:
            spec = None
            if judge is not None:
                spec = (container.attach_socket(params={"stdin": 1, "stream": 1}), bytes(judge.data))
            return self._wait(container, tmp / "out", timeout, spec)
        finally:
            with contextlib.suppress(Exception):
                container.remove(force=True)

    def _write_inputs(
        self, tmp: Path, code, stdin, files, timeout: float, judge: Judge | None
    ) -> dict[str, str]:
        """Write the run's files for /rlvr/in (never the judge's data), make the dir for its output streams;
        returns the run's environment."""
        cfg = self.config
        (tmp / "in").mkdir(mode=0o700)  # root's: the program (uid 1000) cannot list or read it
        (tmp / "out").mkdir(mode=0o700)
        cpu = int(timeout) + 2
        box = {"network": cfg.network, "workdir": cfg.workdir, "disk_mb": cfg.max_file_mb, "uid": UID, "gid": UID,
               "judge_uid": JUDGE_UID}  # fmt: skip
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": cfg.workdir, "TMPDIR": "/tmp", "LANG": "C.UTF-8",
               "USER": "sandbox", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        if cfg.hash_seed is not None:
            env["PYTHONHASHSEED"] = str(cfg.hash_seed)
        judge_spec = None
        if judge is not None:  # no "data": it reaches the judge over stdin, after the program exists
            judge_spec = {"kind": "source", "code": judge.source.encode(),
                          "rlimits": {"RLIMIT_NPROC": 1, "RLIMIT_CORE": 0, "RLIMIT_CPU": (cpu, cpu + 1)}}  # fmt: skip
        run = {
            "code": code, "stdin": stdin.encode() if isinstance(stdin, str) else bytes(stdin), "files": files,
            "workdir": cfg.workdir, "box": box, "env": env, "python_paths": [], "judge": judge_spec,
            "rlimits": {"RLIMIT_NPROC": self._nproc(), "RLIMIT_FSIZE": cfg.max_file_mb << 20,
                        "RLIMIT_CPU": (cpu, cpu + 1), "RLIMIT_CORE": 0, "RLIMIT_NOFILE": cfg.max_open_files},
        }  # fmt: skip
        (tmp / "in" / "run.bin").write_bytes(marshal.dumps(run, 4))  # format 4: readable by any Python 3.4+
        (tmp / "in" / "args.bin").write_bytes(
            marshal.dumps({"out_dir": "/rlvr/out", "run_path": "/rlvr/in/run.bin"}, 4)
        )
        (tmp / "in" / "inside.py").write_text(inside_source() + CONTAINER_MAIN)
        return env

    def _nproc(self) -> int:
        """RLIMIT_NPROC of the program: gVisor lets a uid have one process more than its limit (measured: with
        64 its program forked 64 children), so there the limit is one less, for the same total."""
        n = self.config.max_processes
        return n - 1 if self.config.docker_runtime == "runsc" else n

    def _pids_limit(self) -> int:
        """The container's host-side task cap. With runc it is the run's process limit (+ init, judge and
        slack). gVisor's Sentry and its ptrace-platform stubs are host tasks, several per sandboxed process,
        and the Sentry dies when it cannot make one (measured: 64 sleeping children need more than 256), so
        there the cap only bounds the host's cost; the program's own limit is RLIMIT_NPROC, which gVisor
        enforces itself."""
        n = self.config.max_processes + 4
        return n if self.config.docker_runtime != "runsc" else 16 * n + 256

    def _wait(self, container: Any, out: Path, timeout: float, spec: tuple[Any, bytes] | None) -> ExecResult:
        try:
            return self._watch(container, out, timeout, spec)
        finally:
            if spec is not None:
                with contextlib.suppress(Exception):
                    _close_attachment(spec[0])

    def _watch(self, container: Any, out: Path, timeout: float, spec: tuple[Any, bytes] | None) -> ExecResult:
        container.start()
        status_path = out / "status"
        begin = last_check = time.monotonic()
        started = killed = finished = None
        timed_out = False
        while True:
            now = time.monotonic()
            status, _ = _read_capped(status_path, 1 << 20)
            if started is None and status[:1] == b"S":
                started = now
                if (
                    spec is not None
                ):  # the program's process exists (forked before this): the judge's data now
                    _send_spec(*spec, timeout=timeout + SETUP_TIMEOUT_S)
            if status[1:2] == b"E":  # init reported the end; it exits at once, taking the container down
                finished = now
                break
            if now - last_check >= CHECK_S:  # the daemon is asked less often than the status file is read
                last_check = now
                container.reload()
                if container.status in ("exited", "dead"):
                    break
            deadline = started + timeout if started is not None else begin + SETUP_TIMEOUT_S
            if now >= deadline and killed is None:
                timed_out = started is not None
                killed = now
                with contextlib.suppress(Exception):
                    container.kill()
            time.sleep(POLL_S)
        with contextlib.suppress(Exception):
            container.wait(timeout=SETUP_TIMEOUT_S)  # its exit state (OOMKilled) is final only once it exited
        container.reload()
        end = finished or killed or time.monotonic()
        state = container.attrs.get("State", {})
        status, _ = _read_capped(status_path, 1 << 20)
        oom = bool(state.get("OOMKilled"))
        if started is not None and killed is None and status[1:2] != b"E" and state.get("ExitCode") == 137:
            # SIGKILLed as a whole, before init could report, and not by us: the memory cgroup's OOM killer.
            # Under gVisor it kills the Sentry (the whole sandbox), and Docker flags OOMKilled only sometimes
            # (measured: 2 of 8 hogs unflagged, all with exit 137)
            oom = True
        if status[:1] != b"S":
            logs = b""
            with contextlib.suppress(Exception):
                logs = container.logs()[-4000:]
            text = (status[1:] if status[:1] == b"X" else status + logs).decode(errors="replace")
            raise SandboxError(
                f"the docker sandbox could not start the run ({FIX_HINT}):\n{text or 'no status'}"
            )
        info: dict[str, Any] = {}
        if status[1:2] == b"E":
            with contextlib.suppress(ValueError, EOFError, TypeError):
                info = marshal.loads(status[2:])
        cap = self.config.max_output_bytes
        stdout, out_cut = _read_capped(out / "stdout", cap)
        stderr, err_cut = _read_capped(out / "stderr", cap)
        report, _ = _read_capped(out / "report", 4 << 20)
        exit_code = info.get("exit")
        if exit_code is None and (timed_out or oom):
            exit_code = -9
        return ExecResult(
            exit_code=exit_code,
            stdout=stdout.decode("utf-8", errors="replace"),
            stderr=stderr.decode("utf-8", errors="replace"),
            timed_out=timed_out,
            memory_exceeded=oom,
            wall_s=end - (started if started is not None else begin),
            stdout_truncated=out_cut,
            stderr_truncated=err_cut,
            max_rss_mb=info.get("maxrss_kb", 0) / 1024,
            cpu_s=info.get("cpu_s", 0.0),
            judge_output=report,
            judge_exit_code=info.get("judge_exit"),
        )
