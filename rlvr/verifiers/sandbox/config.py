"""The sandbox's configuration and result records."""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from rlvr.core.errors import ConfigError

#: Backends a `SandboxConfig.backend` may name.
BACKENDS = ("local", "docker")
#: The docker backend's default image, as `scripts/docker_sandbox.sh` tags it.
DOCKER_IMAGE = "rlvr-sandbox:latest"


def _default_pool_size() -> int:
    return max(2, min(16, os.cpu_count() or 2))


@dataclass(frozen=True)
class SandboxConfig:
    """How programs are isolated and limited; every limit can be overridden per `Sandbox.run` call."""

    backend: str = "local"
    """"local" (Linux namespaces + cgroups, needs root or unprivileged user namespaces) or "docker"."""
    timeout_s: float = 5.0
    """Wall-clock limit of one run, counted from the program's start; the whole process tree is killed."""
    memory_mb: int = 1024
    """Memory limit of one run (all its processes together, tmpfs files included)."""
    max_processes: int = 64
    """Processes + threads a run may have at once (fork bombs stop here)."""
    max_file_mb: int = 64
    """Largest file a run may write, and the size of each of its writable tmpfs dirs (workdir, /tmp)."""
    max_output_bytes: int = 1 << 20
    """Bytes of stdout and of stderr kept per run; the rest is read and discarded (`*_truncated` set)."""
    cpus: float | None = 1.0
    """CPU time share of one run in cores (cgroup quota); None: unlimited."""
    max_open_files: int = 256
    """RLIMIT_NOFILE of the program."""
    network: bool = False
    """Give runs the host's network (no network namespace). Off by default: no interfaces, no DNS."""
    warm: bool = True
    """Fork runs from a pool of pre-started isolated interpreters (fast); False: a fresh launcher per run."""
    pool_size: int = field(default_factory=_default_pool_size)
    """Runs at once per `Sandbox` (a bounded pool: further calls wait for a free slot)."""
    python: str = sys.executable
    """The interpreter that runs programs; its installation is mounted read-only."""
    python_paths: tuple[str, ...] = ()
    """Extra import directories (e.g. a site-packages), mounted read-only and appended to `sys.path`."""
    ro_paths: tuple[str, ...] = ()
    """Extra host paths mounted read-only at the same place."""
    workdir: str = "/sandbox"
    """The run's working directory inside the sandbox (a fresh tmpfs per run)."""
    hash_seed: int | None = 0
    """PYTHONHASHSEED of the sandboxed interpreter (0: reproducible set/dict-of-str order); None: random."""
    cgroups: bool | None = None
    """Use cgroups for memory/process/CPU limits: None = when available, True = required, False = rlimits only."""
    uid_base: int = 1_500_000_000
    """First host uid of the per-slot unprivileged users (root mode; 2 uids per slot)."""
    preload: tuple[str, ...] = (
        "ast", "base64", "bisect", "collections", "copy", "datetime", "decimal", "fractions", "functools",
        "hashlib", "heapq", "itertools", "json", "math", "operator", "random", "re", "statistics",
        "string", "struct", "typing",
    )  # fmt: skip
    """Modules the warm pool imports once, so programs that use them start faster."""
    docker_image: str = field(default_factory=lambda: os.environ.get("RLVR_DOCKER_IMAGE", DOCKER_IMAGE))
    """Image of the docker backend (env `RLVR_DOCKER_IMAGE`); it must be present, it is never pulled.
    `scripts/docker_sandbox.sh` builds the default one from this machine's Python, without a registry."""
    docker_runtime: str | None = None
    """OCI runtime of the docker backend, e.g. "runsc" (gVisor: its own kernel; `scripts/docker_sandbox.sh
    --gvisor` registers it); None: the daemon's default (runc)."""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ConfigError(f"SandboxConfig.backend={self.backend!r}: use one of {BACKENDS}")
        for name in ("timeout_s", "memory_mb", "max_processes", "max_file_mb", "max_output_bytes"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise ConfigError(f"SandboxConfig.{name}={value!r}: must be a positive number")
        if self.memory_mb < 32:
            raise ConfigError(f"SandboxConfig.memory_mb={self.memory_mb}: a Python run needs at least 32 MiB")
        if self.max_processes < 2:
            raise ConfigError("SandboxConfig.max_processes must be >= 2 (the program and its interpreter)")
        if self.cpus is not None and not (isinstance(self.cpus, int | float) and self.cpus > 0):
            raise ConfigError(f"SandboxConfig.cpus={self.cpus!r}: give a positive number of cores or None")
        if not (isinstance(self.pool_size, int) and 1 <= self.pool_size <= 1024):
            raise ConfigError(f"SandboxConfig.pool_size={self.pool_size!r}: must be an int in [1, 1024]")
        if not self.workdir.startswith("/") or self.workdir in ("/", "/tmp", "/proc", "/dev"):
            raise ConfigError(f"SandboxConfig.workdir={self.workdir!r}: give an absolute, dedicated path")
        if not 0 < self.uid_base < 2**32 - 2 * 65536:
            raise ConfigError(f"SandboxConfig.uid_base={self.uid_base}: must leave room for 131072 uids")
        object.__setattr__(self, "python_paths", tuple(self.python_paths))
        object.__setattr__(self, "ro_paths", tuple(self.ro_paths))
        object.__setattr__(self, "preload", tuple(self.preload))


@dataclass(frozen=True)
class Judge:
    """A trusted companion program run next to the untrusted one, under another uid, in the same sandbox.

    `source` is executed with globals `DATA` (the bytes given here), `RPC_IN`/`RPC_OUT` (fds connected to the
    program's fds 4/3) and `REPORT` (an fd only the judge holds; what it writes there comes back as
    `ExecResult.judge_output`). The program cannot signal, trace or read the judge, nor write to `REPORT`.
    """

    source: str
    data: bytes = b""
    max_report_bytes: int = 4 << 20


@dataclass(frozen=True)
class ExecResult:
    """What one sandboxed run did: exit status, captured output (capped), and which limit, if any, it hit."""

    exit_code: int | None
    """The program's exit status; negative = killed by that signal; None = never ran (setup failed)."""
    stdout: str
    stderr: str
    timed_out: bool
    memory_exceeded: bool
    wall_s: float
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    max_rss_mb: float = 0.0
    cpu_s: float = 0.0
    judge_output: bytes = b""
    judge_exit_code: int | None = None

    @property
    def truncated(self) -> bool:
        """Whether stdout or stderr was cut at `max_output_bytes`."""
        return self.stdout_truncated or self.stderr_truncated

    @property
    def ok(self) -> bool:
        """Exited with status 0 within its limits."""
        return self.exit_code == 0 and not self.timed_out and not self.memory_exceeded

    def summary(self, max_chars: int = 1000) -> dict[str, Any]:
        """A JSON-friendly digest with the output tails cut to `max_chars`."""
        return {
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "memory_exceeded": self.memory_exceeded,
            "wall_s": round(self.wall_s, 4),
            "max_rss_mb": round(self.max_rss_mb, 1),
            "stdout": _tail(self.stdout, max_chars),
            "stderr": _tail(self.stderr, max_chars),
            "truncated": self.truncated,
        }


def _tail(text: str, n: int) -> str:
    return text if len(text) <= n else "..." + text[-n:]
