"""Run untrusted Python programs with hard limits: `Sandbox(config).run(code, stdin=..., files=...)`.

The local backend (Linux, root) isolates each run with namespaces, cgroups, rlimits and a per-slot
unprivileged uid; a warm pool forks runs from a pre-started interpreter that already lives inside the
sandbox's private root. A Docker backend (`SandboxConfig(backend="docker")`) offers the same interface.

What it protects against (local backend; each line has an adversarial test in tests/test_sandbox*.py):

- Runaway CPU: a run is SIGKILLed at `timeout_s` of wall time, whole process tree included, whatever signals
  it ignores; RLIMIT_CPU is a second stop and the CPU cgroup caps it at `cpus` cores.
- Fork bombs: the pids cgroup and RLIMIT_NPROC (counted per slot uid) cap processes + threads at
  `max_processes`; the host keeps working.
- Memory exhaustion: the memory cgroup caps all processes of a run together at `memory_mb`; the kernel kills
  the run and `memory_exceeded` is read from the cgroup's OOM counter (not from the program's output).
- Disk filling: nothing is written to host disks; the writable dirs (workdir, /tmp, /dev/shm) are tmpfs of
  `max_file_mb` each, charged to the memory cgroup, and RLIMIT_FSIZE caps any one file.
- Network: a private network namespace with no interface up: no connection to host listeners (127.0.0.1,
  abstract unix sockets), no DNS, no outside world.
- Reading host files: a private mount namespace whose root holds only read-only system dirs (/usr, /lib*,
  the Python installation, `python_paths`, `ro_paths`); /root, /home, /tmp, /work, the host's cwd ... are absent.
- Writing host files: all mounts but the run's own tmpfs dirs are read-only, and the program is not root.
- Host secrets in the environment: programs get a fixed minimal environment, never the host's.
- Signalling, tracing or killing host processes, the zygote, the run's init or the judge: a pid namespace
  hides host processes, and the program runs as an unprivileged uid with no capabilities and no_new_privs.
- Processes outliving the run: the run's init is pid 1 of its own pid namespace; when the run ends it exits,
  the kernel kills everything left, and `run()` returns only once the slot's cgroup is empty.
- Output flooding: stdout/stderr are read continuously and kept up to `max_output_bytes` each
  (`*_truncated`), so neither the writer blocks nor host memory grows.
- Forged results: a `Judge` runs as another uid beside the program and reports on a channel the program
  does not hold (the code verifier decides pass/fail there, never from exit codes or printed text).
- Reading what it is judged against. The rule: the judge's expectations (`Judge.data`: asserts, expected
  values) never enter any process, memory, file or kernel object the program can read. By construction: the
  run spec the program's process is forked with has no judge data; the program is forked first and holds no
  descriptor but its stdin memfd, stdout, stderr and the two call pipes; only then does the host write
  `Judge.data` into a pipe whose read end only the judge process holds (init passes it on unread), and the
  judge, another uid and not dumpable, is the only process that ever reads it (no ptrace, /proc/<pid>/mem,
  environ or fd access for the program). Warm and cold mode alike.
- Kernel state that namespaces do not isolate: a seccomp filter (installed in the program's process after
  no_new_privs, before its code; inherited by its children and exec'd programs; not removable) allows
  `socket`/`socketpair` only for AF_UNIX, AF_INET and AF_INET6 (AF_VSOCK, netlink, packet, ... get
  EAFNOSUPPORT), refuses the key syscalls and io_uring (EPERM), and kills a process using another syscall
  ABI; each program and judge joins a fresh anonymous session keyring (never the host's), and /proc/keys,
  /proc/key-users read empty, so keys of earlier runs or of the host are neither usable nor listed.
- Interference between runs: each slot has its own uids, cgroups and network namespace (its runs are
  sequential and nothing persists in it), each run fresh pid/mount/IPC/UTS namespaces and tmpfs dirs, so no
  files, SysV IPC, sockets or processes survive into the next run; slot ids are locked machine-wide, so
  separate processes (Ray actors) never share one.

What it does not protect against:

- Kernel exploits: programs share the host kernel (the seccomp filter trims a few surfaces, it is not an
  allow-list of syscalls, and there is no VM); for hostile code at scale use a VM/gVisor runtime through the
  Docker backend.
- Reading what the read-only system dirs contain (e.g. /usr, the Python installation): visible by design.
- Side channels (timing, CPU caches) and using resources up to the limits (memory, CPU, `timeout_s`).
- `network=True` (then the host network is shared) and, without cgroups (`cgroups=False` or unavailable),
  memory limits are per process (RLIMIT_AS) and `memory_exceeded` is inferred from a MemoryError message.
- Warm-pool runs start from the same pre-started interpreter image (it holds no secrets, never sees other
  runs' code or input, and `random` is reseeded after each fork).
"""

from rlvr.core.errors import SandboxError
from rlvr.verifiers.sandbox.config import ExecResult, Judge, SandboxConfig
from rlvr.verifiers.sandbox.sandbox import SANDBOX_BACKENDS, Sandbox

__all__ = ["SANDBOX_BACKENDS", "ExecResult", "Judge", "Sandbox", "SandboxConfig", "SandboxError"]
