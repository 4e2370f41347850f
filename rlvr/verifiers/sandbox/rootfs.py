"""The sandbox's read-only root, environment and shipped code: what the host prepares once per config."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from functools import cache
from typing import Any

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.config import SandboxConfig

FIX_HINT = (
    "the local sandbox needs root (or CAP_SYS_ADMIN) on Linux to create namespaces and mounts; run as root, "
    'or use SandboxConfig(backend="docker") with a Docker daemon'
)


@cache
def inside_source() -> str:
    """The code that runs inside the sandbox: inside.py, inside_seccomp.py, inside_pool.py (one namespace)."""
    here = os.path.dirname(__file__)
    parts = []
    for name in ("inside.py", "inside_seccomp.py", "inside_pool.py"):
        with open(os.path.join(here, name)) as f:
            parts.append(f.read())
    return "\n".join(parts)


@cache
def interpreter_info(python: str) -> tuple[tuple[int, int], tuple[str, ...]]:
    """(version, installation prefixes) of `python`, asked once per interpreter."""
    real = os.path.realpath(python)
    if real == os.path.realpath(sys.executable):
        return sys.version_info[:2], (sys.base_prefix, sys.base_exec_prefix)
    try:
        out = subprocess.run(
            [real, "-S", "-c", "import sys;print(sys.version_info[0],sys.version_info[1]);print(sys.base_prefix);"
             "print(sys.base_exec_prefix)"],
            capture_output=True, text=True, timeout=30, check=True,
        ).stdout.split("\n")  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        raise SandboxError(
            f"SandboxConfig.python={python!r} does not run: {exc}; give a working interpreter"
        ) from exc
    major, minor = (int(x) for x in out[0].split())
    return (major, minor), (out[1], out[2])


@cache
def compiled(source: str, name: str, version: tuple[int, int]) -> tuple[str, bytes]:
    """("marshal", code bytes) when the sandbox runs this interpreter's version, else ("source", text)."""
    if version == sys.version_info[:2]:
        return "marshal", marshal.dumps(compile(source, name, "exec"))
    return "source", source.encode()


def build_root_ops(config: SandboxConfig) -> list[tuple[Any, ...]]:
    """The operations that build the sandbox's read-only root (see `inside.setup_root`)."""
    _, prefixes = interpreter_info(config.python)
    ops: list[tuple[Any, ...]] = []
    bound: list[str] = []

    def covered(path: str) -> bool:
        return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound)

    def bind(path: str, *, writable: bool = False, dev: bool = False) -> None:
        real = os.path.realpath(path)
        if not os.path.exists(real) or covered(real):
            return
        ops.append(("bind", real, real, os.path.isdir(real), writable, dev))
        bound.append(real)

    for top in ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + top
        if os.path.islink(path):
            ops.append(("symlink", path, os.readlink(path)))
        elif os.path.isdir(path):
            bind(path)
    for path in (
        *prefixes,
        os.path.dirname(os.path.realpath(config.python)),
        *config.python_paths,
        *config.ro_paths,
    ):
        bind(path)
    # the interpreter's own site-packages stay hidden (programs run with -S: only the stdlib and
    # `python_paths` are importable), unless a `python_paths` entry lies inside it
    version, _ = interpreter_info(config.python)
    for prefix in dict.fromkeys(prefixes):
        site = os.path.join(
            os.path.realpath(prefix), "lib", f"python{version[0]}.{version[1]}", "site-packages"
        )
        wanted = [os.path.realpath(p) for p in config.python_paths + config.ro_paths]
        if os.path.isdir(site) and not any(w == site or w.startswith(site + "/") for w in wanted):
            ops.append(("hide", site))
    ops += [("dir", "/etc", 0o755), ("dir", "/proc", 0o555), ("dir", "/tmp", 0o1777), ("dir", "/dev", 0o755)]
    ops += [("dir", "/dev/shm", 0o1777), ("dir", config.workdir, 0o755)]
    ops.append(
        (
            "file",
            "/etc/passwd",
            b"root:x:0:0:root:/root:/bin/sh\nsandbox:x:65534:65534::/sandbox:/bin/sh\n",
            0o644,
        )
    )
    ops.append(("file", "/etc/group", b"root:x:0:\nsandbox:x:65534:\n", 0o644))
    ops.append(("file", "/etc/hosts", b"127.0.0.1 localhost\n::1 localhost\n", 0o644))
    for path in ("/etc/ld.so.cache", "/etc/localtime"):
        if os.path.isfile(path):
            ops.append(("bind", path, path, False, False, False))
    if config.network:
        for path in ("/etc/resolv.conf", "/etc/nsswitch.conf", "/etc/ssl", "/etc/ca-certificates"):
            if os.path.exists(path):
                ops.append(("bind", os.path.realpath(path), path, os.path.isdir(path), False, False))
    for name in ("null", "zero", "full", "random", "urandom"):
        ops.append(("bind", f"/dev/{name}", f"/dev/{name}", False, True, True))
    ops.append(("symlink", "/dev/fd", "/proc/self/fd"))
    for i, name in enumerate(("stdin", "stdout", "stderr")):
        ops.append(("symlink", f"/dev/{name}", f"/proc/self/fd/{i}"))
    return ops


def sandbox_env(config: SandboxConfig) -> dict[str, str]:
    """The environment of sandboxed processes: nothing from the host's."""
    bindir = os.path.dirname(os.path.realpath(config.python))
    env = {
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": config.workdir,
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "USER": "sandbox",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if config.hash_seed is not None:
        env["PYTHONHASHSEED"] = str(config.hash_seed)
    return env
