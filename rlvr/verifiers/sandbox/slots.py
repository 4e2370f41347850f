"""Slots: the bounded pool of run contexts, each with its own host uids and cgroups, unique machine-wide.

A slot id is claimed with an exclusive `flock` on `<lock_dir>/slot-<id>.lock`, so separate processes (Ray
actors, several `Sandbox` objects) never share a uid or a cgroup; the kernel drops the lock when its holder dies.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import queue
import threading
from dataclasses import dataclass

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.cgroups import CgroupSlot, CgroupTree

MAX_SLOTS = 65536


@dataclass
class Slot:
    """One run context: the program's uid/gid, the judge's uid/gid, and the slot's cgroups (if any)."""

    index: int  # position in this pool
    slot_id: int  # machine-wide id
    uid: int
    judge_uid: int
    lock_fd: int
    cgroup: CgroupSlot | None


class SlotPool:
    """A thread-safe bounded pool of slots; `acquire` blocks while all are busy."""

    def __init__(self, size: int, uid_base: int, cgroups: CgroupTree | None, lock_dir: str) -> None:
        self.size = size
        self.uid_base = uid_base
        self.cgroups = cgroups
        self.lock_dir = lock_dir
        self.slots: list[Slot] = []
        self._free: queue.LifoQueue[Slot] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._closed = False

    def open(self) -> None:
        """Claim `size` machine-wide slot ids and create their cgroups."""
        os.makedirs(self.lock_dir, mode=0o700, exist_ok=True)
        root = os.geteuid() == 0
        candidate = 0
        while len(self.slots) < self.size:
            if candidate >= MAX_SLOTS:
                raise SandboxError(
                    f"all {MAX_SLOTS} sandbox slots under {self.lock_dir} are held by other processes; "
                    "close unused Sandbox objects (Sandbox.close()) or lower SandboxConfig.pool_size"
                )
            fd = os.open(
                os.path.join(self.lock_dir, f"slot-{candidate}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
            )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                candidate += 1
                continue
            uid = self.uid_base + 2 * candidate if root else os.getuid()
            judge_uid = uid + 1 if root else os.getuid()
            try:
                cg = self.cgroups.slot(candidate) if self.cgroups is not None else None
            except OSError as exc:
                os.close(fd)
                raise SandboxError(f"cannot create the cgroups of sandbox slot {candidate}: {exc}") from exc
            slot = Slot(len(self.slots), candidate, uid, judge_uid, fd, cg)
            self.slots.append(slot)
            self._free.put(slot)
            candidate += 1

    def acquire(self, timeout: float | None = None) -> Slot:
        """Take a free slot, waiting for one if all are busy."""
        if self._closed:
            raise SandboxError("this Sandbox was closed; create a new one")
        try:
            return self._free.get(timeout=timeout)
        except queue.Empty:
            raise SandboxError(f"no sandbox slot became free within {timeout} s") from None

    def release(self, slot: Slot) -> None:
        """Return a slot to the pool."""
        self._free.put(slot)

    def close(self) -> None:
        """Kill anything left in the slots, remove their cgroups and release their ids."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for slot in self.slots:
            if slot.cgroup is not None:
                slot.cgroup.remove()
            with contextlib.suppress(OSError):
                os.close(slot.lock_fd)
        self.slots.clear()
