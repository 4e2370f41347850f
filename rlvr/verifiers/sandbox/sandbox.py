"""`Sandbox`: the one entry point; picks a backend from `SandboxConfig.backend`."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Protocol

from rlvr.core.registry import Registry
from rlvr.verifiers.sandbox.config import ExecResult, Judge, SandboxConfig


class Backend(Protocol):
    """What a sandbox backend implements."""

    def run(
        self,
        code: str,
        *,
        stdin: str | bytes = "",
        files: dict[str, str | bytes] | None = None,
        timeout_s: float | None = None,
        memory_mb: int | None = None,
        judge: Judge | None = None,
    ) -> ExecResult: ...

    def start(self) -> None: ...

    def close(self) -> None: ...

    @property
    def python_version(self) -> tuple[int, int] | None: ...


#: backend name -> class taking a `SandboxConfig` (lazy entries: docker is imported only when used).
SANDBOX_BACKENDS: Registry[Any] = Registry("sandbox backend")
SANDBOX_BACKENDS.register("local", "rlvr.verifiers.sandbox.local:LocalBackend")
SANDBOX_BACKENDS.register("docker", "rlvr.verifiers.sandbox.docker:DockerBackend")


class Sandbox:
    """Runs untrusted Python programs in isolation with hard limits; safe to share between threads.

    Pickles as its config only (e.g. into a Ray actor), where it lazily starts its own pool.
    """

    def __init__(self, config: SandboxConfig | None = None, **overrides: Any) -> None:
        config = config or SandboxConfig()
        self.config = dataclasses.replace(config, **overrides) if overrides else config
        self._backend: Backend = SANDBOX_BACKENDS.get(self.config.backend)(self.config)

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
        """Run the Python program `code` with `stdin` and `files` in its working directory; never raises on
        what the program does (only `SandboxError` when the sandbox itself cannot work)."""
        return self._backend.run(
            code, stdin=stdin, files=files, timeout_s=timeout_s, memory_mb=memory_mb, judge=judge
        )

    @property
    def python_version(self) -> tuple[int, int] | None:
        """(major, minor) of the sandbox's interpreter, or None when not known in advance (docker)."""
        return self._backend.python_version

    def start(self) -> Sandbox:
        """Start the warm pool now instead of on the first run; returns self."""
        self._backend.start()
        return self

    def close(self) -> None:
        """Stop the pool and release its resources; the object cannot run programs afterwards."""
        self._backend.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        backend = getattr(self, "_backend", None)
        if backend is not None:
            with contextlib.suppress(Exception):  # interpreter shutdown: best effort
                backend.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"])  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"Sandbox(backend={self.config.backend!r}, warm={self.config.warm}, pool_size={self.config.pool_size})"
