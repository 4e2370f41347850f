"""The warm pool's host side: a master zygote in the sandbox's root, one slot zygote per slot."""

from __future__ import annotations

import contextlib
import marshal
import os
import socket
import subprocess
import threading
from typing import TYPE_CHECKING

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.rootfs import FIX_HINT
from rlvr.verifiers.sandbox.slots import Slot

if TYPE_CHECKING:
    from rlvr.verifiers.sandbox.local import LocalBackend

SETUP_TIMEOUT_S = 30.0  # interpreter start + namespace setup, before the program's own clock starts


class Zygote:
    """A pre-started interpreter inside the sandbox's root; it forks one slot zygote per slot (which joins the
    slot's cgroups once), and each slot zygote forks one isolated init per run."""

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend
        self.lock = threading.Lock()
        self.slot_socks: dict[int, socket.socket] = {}
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock = parent
        slots = {s.index: (s.cgroup.procs_files if s.cgroup else []) for s in backend.pool.slots}
        args = {"mode": "zygote", "ctrl_fd": child.fileno(), "slots": slots, "root": backend.root_spec,
                "preload": list(backend.config.preload)}  # fmt: skip
        try:
            self.proc = backend.launch(args, [child.fileno()], stderr=subprocess.DEVNULL)
        finally:
            child.close()
        parent.settimeout(SETUP_TIMEOUT_S)
        try:
            first = parent.recv(1 << 16)
        except TimeoutError:
            first = b"Xzygote did not start in time"
        if first != b"R":
            self.close()
            raise SandboxError(
                f"sandbox zygote failed to start ({FIX_HINT}):\n{first[1:].decode(errors='replace')}"
            )
        parent.settimeout(None)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _slot_sock(self, slot: Slot, fresh: bool) -> socket.socket:
        """The socket of the slot's zygote, forking a new one if there is none (or `fresh`)."""
        sock = self.slot_socks.get(slot.index)
        if sock is not None and not fresh:
            return sock
        if sock is not None:
            sock.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with self.lock:
                request = {"slot": slot.index, "box": self.backend.box(slot)}
                socket.send_fds(self.sock, [marshal.dumps(request)], [theirs.fileno()])
                reply = self.sock.recv(1 << 16)
        finally:
            theirs.close()
        if reply != b"Z":
            ours.close()
            raise SandboxError(
                f"sandbox zygote could not start slot {slot.index}: {reply[1:].decode(errors='replace')}"
            )
        self.slot_socks[slot.index] = ours
        return ours

    def spawn(self, slot: Slot, fds: dict[str, int]) -> int:
        """Hand one run to the slot's prepared init; returns a pidfd of that init. The caller holds the slot."""
        header = marshal.dumps({"fds": list(fds)})
        for attempt in range(2):
            sock = self._slot_sock(slot, fresh=attempt > 0)
            try:
                socket.send_fds(sock, [header], list(fds.values()))
                msg, got, _, _ = socket.recv_fds(sock, 1 << 16, 1)
            except TimeoutError:
                raise SandboxError(
                    f"the sandbox's slot {slot.index} did not take a run in {SETUP_TIMEOUT_S} s"
                ) from None
            except OSError:
                continue  # the slot zygote died (e.g. OOM-killed with a run): fork a new one and retry
            if msg == b"A" and len(got) == 1:
                return got[0]
            for fd in got:
                os.close(fd)
            if msg:
                self.slot_socks.pop(slot.index).close()
                raise SandboxError(
                    f"the sandbox could not prepare a run ({FIX_HINT}):\n{msg[1:].decode(errors='replace')}"
                )
        raise SandboxError("the sandbox's slot zygote keeps dying; see SandboxConfig limits")

    def close(self) -> None:
        for sock in self.slot_socks.values():
            with contextlib.suppress(OSError):
                sock.close()
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(OSError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
