"""Per-slot cgroups (v1 or v2): memory, process-count and CPU limits, OOM accounting, emptiness checks."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from dataclasses import dataclass

CONTROLLERS = ("memory", "pids", "cpu")
PERIOD_US = 100_000


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def _write(path: str, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _own_cgroup_dirs() -> tuple[int, dict[str, str]]:
    """(version, controller -> directory of this process's cgroup) for the writable hierarchies found."""
    mounts: list[tuple[str, str, str, str]] = []  # (fstype, mountpoint, root, super options)
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            fields, after = pre.split(), post.split()
            if after and after[0] in ("cgroup", "cgroup2"):
                mounts.append((after[0], fields[4], fields[3], after[2] if len(after) > 2 else ""))
    own: dict[str, str] = {}  # hierarchy key ("" for v2, controller list for v1) -> path
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            own[ctrls] = path

    def under(mountpoint: str, root: str, path: str) -> str | None:
        if path == root or path.startswith(root.rstrip("/") + "/"):
            return mountpoint + path[len(root.rstrip("/")) :]
        return None

    v1: dict[str, str] = {}
    for fstype, mountpoint, root, opts in mounts:
        if fstype != "cgroup":
            continue
        for ctrls, path in own.items():
            names = set(ctrls.split(","))
            for c in CONTROLLERS:
                if c in names and c in opts.split(",") and c not in v1:
                    d = under(mountpoint, root, path)
                    if d and os.path.isdir(d):
                        v1[c] = d
    if "memory" in v1 and "pids" in v1:
        return 1, v1
    for fstype, mountpoint, root, _ in mounts:
        if fstype == "cgroup2" and "" in own:
            d = under(mountpoint, root, own[""])
            if d and os.path.isdir(d):
                have = set(_read(os.path.join(d, "cgroup.controllers")).split())
                if {"memory", "pids"} <= have:
                    return 2, {c: d for c in CONTROLLERS if c in have}
    return 0, {}


@dataclass
class CgroupSlot:
    """The cgroup(s) of one sandbox slot; all processes of a run live in them."""

    version: int
    dirs: dict[str, str]  # controller -> directory (v2: the same directory for all)
    memory_bytes: int = -1
    pids_max: int = -1
    cpu_quota: int = -2

    @property
    def procs_files(self) -> list[str]:
        """The `cgroup.procs` files a process writes itself into (one per distinct directory)."""
        return sorted({os.path.join(d, "cgroup.procs") for d in self.dirs.values()})

    def set_limits(self, memory_mb: int, max_processes: int, cpus: float | None) -> None:
        """Apply the run's limits (only writes what changed since the last run)."""
        mem = int(memory_mb) << 20
        if mem != self.memory_bytes:
            self._set_memory(mem)
            self.memory_bytes = mem
        if max_processes != self.pids_max:
            _write(os.path.join(self.dirs["pids"], "pids.max"), str(max_processes))
            self.pids_max = max_processes
        quota = -1 if cpus is None else max(1000, int(cpus * PERIOD_US))
        if "cpu" in self.dirs and quota != self.cpu_quota:
            d = self.dirs["cpu"]
            if self.version == 1:
                _write(os.path.join(d, "cpu.cfs_period_us"), str(PERIOD_US))
                _write(os.path.join(d, "cpu.cfs_quota_us"), str(quota))
            else:
                _write(os.path.join(d, "cpu.max"), f"{'max' if quota < 0 else quota} {PERIOD_US}")
            self.cpu_quota = quota

    def _set_memory(self, mem: int) -> None:
        d = self.dirs["memory"]
        if self.version == 2:
            _write(os.path.join(d, "memory.max"), str(mem))
            with contextlib.suppress(OSError):
                _write(os.path.join(d, "memory.swap.max"), "0")
            return
        limit, memsw = (
            os.path.join(d, "memory.limit_in_bytes"),
            os.path.join(d, "memory.memsw.limit_in_bytes"),
        )
        # memsw (memory + swap) must stay >= the memory limit: raise it first, lower it last
        has_memsw = os.path.exists(memsw)
        current = int(_read(limit))
        order = [(memsw, mem), (limit, mem)] if mem > current else [(limit, mem), (memsw, mem)]
        for path, value in order:
            if path == memsw and not has_memsw:
                continue
            try:
                _write(path, str(value))
            except OSError as exc:  # below the page cache left by earlier runs: drop it and retry
                if exc.errno != errno.EBUSY:
                    raise
                _write(os.path.join(d, "memory.force_empty"), "0")
                _write(path, str(value))

    def oom_kills(self) -> int:
        """How many processes the kernel's OOM killer has killed in this cgroup so far."""
        d = self.dirs["memory"]
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        for line in _read(os.path.join(d, name)).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return int(_read(os.path.join(d, "memory.failcnt"))) if self.version == 1 else 0

    def pids(self) -> list[int]:
        """The processes currently in the slot."""
        found: set[int] = set()
        for path in self.procs_files:
            with contextlib.suppress(OSError):
                found.update(int(x) for x in _read(path).split())
        return sorted(found)

    def kill_all(self, wait_s: float = 5.0) -> bool:
        """SIGKILL every process in the slot until it is empty; False if it did not empty in `wait_s`."""
        deadline = time.monotonic() + wait_s
        while True:
            pids = self.pids()
            if not pids:
                return True
            if time.monotonic() > deadline:
                return False
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)

    def wait_empty(self, wait_s: float = 5.0) -> bool:
        """Wait until the kernel has removed every process of the last run (they are dying or dead)."""
        deadline = time.monotonic() + wait_s
        while self.pids():
            if time.monotonic() > deadline:
                return self.kill_all(wait_s)
            time.sleep(0.0005)
        return True

    def remove(self) -> None:
        """Kill what is left and delete the slot's directories."""
        self.kill_all(2.0)
        for d in sorted(set(self.dirs.values()), reverse=True):
            with contextlib.suppress(OSError):
                os.rmdir(d)


class CgroupTree:
    """`<own cgroup>/rlvr-sandbox/slot-<id>` in each controller's hierarchy."""

    def __init__(self, version: int, base_dirs: dict[str, str]) -> None:
        self.version = version
        self.base = {c: os.path.join(d, "rlvr-sandbox") for c, d in base_dirs.items()}
        for c, d in self.base.items():
            os.makedirs(d, exist_ok=True)
            if version == 2 and c == "memory":
                enable = " ".join(f"+{x}" for x in self.base)
                _write(os.path.join(base_dirs[c], "cgroup.subtree_control"), enable)
                _write(os.path.join(d, "cgroup.subtree_control"), enable)

    @classmethod
    def detect(cls) -> tuple[CgroupTree | None, str]:
        """The tree, or None and why cgroups cannot be used here."""
        if os.geteuid() != 0:
            return None, "not running as root"
        try:
            version, dirs = _own_cgroup_dirs()
        except OSError as exc:
            return None, f"cannot read /proc/self/cgroup: {exc}"
        if not version:
            return None, "no writable memory+pids cgroup controllers found"
        try:
            return cls(version, dirs), ""
        except OSError as exc:
            return None, f"cannot create cgroups under {dirs}: {exc}"

    def slot(self, slot_id: int) -> CgroupSlot:
        """Create (or adopt, after a crashed owner) the slot's cgroups, emptied of stale processes."""
        dirs = {}
        for c, d in self.base.items():
            path = os.path.join(d, f"slot-{slot_id}")
            os.makedirs(path, exist_ok=True)
            dirs[c] = path
        slot = CgroupSlot(self.version, dirs)
        slot.kill_all(2.0)
        return slot
