"""The Docker backend: the same `Sandbox.run` interface, one container per run (for hosts with a daemon).

Docker provides the namespaces, the read-only root, no network, and memory/pids/CPU limits; inside the
container rlvr's own init (`inside.run_init`) runs the program (and judge) under unprivileged uids with
rlimits, as in the local backend. Inputs and the run's output streams go through a host directory mounted
into the container, so the daemon must run on this machine. Slower to start than the local warm pool
(a container per run); use it where root namespaces are unavailable, or with a VM runtime (e.g. gVisor's
`runsc` via `SandboxConfig(docker_runtime=...)`) for stronger isolation.
"""

from __future__ import annotations

import contextlib
import marshal
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.config import ExecResult, Judge, SandboxConfig
from rlvr.verifiers.sandbox.rootfs import inside_source

SETUP_TIMEOUT_S = 120.0
POLL_S = 0.005
UID, JUDGE_UID = 1000, 1001
BOOT = (
    "import marshal,os;a=marshal.loads(open('/rlvr/in/args.bin','rb').read());"
    "exec(compile(open('/rlvr/in/inside.py').read(),'inside','exec'),{'__name__':'__rlvr_inside__','ARGS':a})"
)
FIX_HINT = (
    "start a Docker daemon on this machine (or set DOCKER_HOST to a local one), or use "
    'SandboxConfig(backend="local") as root'
)


def _read_capped(path: Path, cap: int) -> tuple[bytes, bool]:
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except FileNotFoundError:
        return b"", False
    return data[:cap], len(data) > cap


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
            try:
                client.images.get(self.config.docker_image)
            except docker.errors.ImageNotFound:
                try:
                    client.images.pull(self.config.docker_image)
                except Exception as exc:
                    raise SandboxError(
                        f"cannot pull {self.config.docker_image!r} ({exc}); pull it yourself or set "
                        "SandboxConfig.docker_image to an image with python3"
                    ) from exc
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
        (tmp / "in").mkdir()
        (tmp / "out").mkdir(mode=0o700)
        cpu = int(timeout) + 2
        box = {"network": cfg.network, "workdir": cfg.workdir, "disk_mb": cfg.max_file_mb, "uid": UID, "gid": UID,
               "judge_uid": JUDGE_UID}  # fmt: skip
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": cfg.workdir, "TMPDIR": "/tmp", "LANG": "C.UTF-8",
               "USER": "sandbox", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        if cfg.hash_seed is not None:
            env["PYTHONHASHSEED"] = str(cfg.hash_seed)
        judge_spec = None
        if judge is not None:
            judge_spec = {"kind": "source", "code": judge.source.encode(), "data": bytes(judge.data),
                          "rlimits": {"RLIMIT_NPROC": 1, "RLIMIT_CORE": 0, "RLIMIT_CPU": (cpu, cpu + 1)}}  # fmt: skip
        run = {
            "code": code, "stdin": stdin.encode() if isinstance(stdin, str) else bytes(stdin), "files": files,
            "workdir": cfg.workdir, "box": box, "env": env, "python_paths": [], "judge": judge_spec,
            "rlimits": {"RLIMIT_NPROC": cfg.max_processes, "RLIMIT_FSIZE": cfg.max_file_mb << 20,
                        "RLIMIT_CPU": (cpu, cpu + 1), "RLIMIT_CORE": 0, "RLIMIT_NOFILE": cfg.max_open_files},
        }  # fmt: skip
        (tmp / "in" / "run.bin").write_bytes(marshal.dumps(run, 4))  # format 4: readable by any Python 3.4+
        (tmp / "in" / "args.bin").write_bytes(
            marshal.dumps({"mode": "docker", "out_dir": "/rlvr/out", "run_path": "/rlvr/in/run.bin"}, 4)
        )
        (tmp / "in" / "inside.py").write_text(inside_source())
        size = f"size={cfg.max_file_mb}m"
        container = self._client.containers.create(
            cfg.docker_image,
            command=["python", "-S", "-s", "-B", "-c", BOOT],
            user="0",
            network_mode="bridge" if cfg.network else "none",
            mem_limit=f"{memory}m",
            memswap_limit=f"{memory}m",
            pids_limit=cfg.max_processes + 4,
            nano_cpus=int(cfg.cpus * 1e9) if cfg.cpus else None,
            read_only=True,
            tmpfs={
                cfg.workdir: f"{size},mode=0700,uid={UID},gid={UID}",
                "/tmp": f"{size},mode=1777",
                "/dev/shm": f"{size},mode=1777",
            },
            volumes={
                str(tmp / "in"): {"bind": "/rlvr/in", "mode": "ro"},
                str(tmp / "out"): {"bind": "/rlvr/out", "mode": "rw"},
            },
            cap_drop=["ALL"],
            cap_add=["SETUID", "SETGID"],  # to drop to the program's and judge's uids; then they hold none
            security_opt=["no-new-privileges"],
            environment=env,
            working_dir="/",
            labels={"rlvr.sandbox": "1"},
            runtime=cfg.docker_runtime,
        )
        try:
            return self._wait(container, tmp / "out", timeout)
        finally:
            with contextlib.suppress(Exception):
                container.remove(force=True)

    def _wait(self, container: Any, out: Path, timeout: float) -> ExecResult:
        container.start()
        status_path = out / "status"
        begin = time.monotonic()
        started = killed = None
        timed_out = False
        while True:
            now = time.monotonic()
            status, _ = _read_capped(status_path, 1 << 20)
            if started is None and status[:1] == b"S":
                started = now
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
        end = time.monotonic() if killed is None else killed
        oom = bool(container.attrs.get("State", {}).get("OOMKilled"))
        status, _ = _read_capped(status_path, 1 << 20)
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
