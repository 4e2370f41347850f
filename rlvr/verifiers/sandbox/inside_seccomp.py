"""The program's kernel-side limits that namespaces do not give: a seccomp filter and a fresh session keyring.

Shipped after inside.py's source (it uses its `_libc` and `_check`); stdlib only. The filter is a classic BPF
program installed with `prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)` in the program's process after
`no_new_privs` and before its code runs; the kernel keeps it for the process and every child (fork and exec
included) and offers no call that removes it. It checks the architecture first (another ABI, e.g. 32-bit
`int 0x80` calls or x86's x32 numbers, would bypass the numbers below) and then:

- `socket`/`socketpair`: only AF_UNIX, AF_INET and AF_INET6 (else EAFNOSUPPORT). Other families reach kernel
  state that the network namespace does not isolate (AF_VSOCK shares the host VM's port space; netlink,
  packet, bluetooth, ... are attack surface no test needs).
- `add_key`, `keyctl`, `request_key`: EPERM. Keyrings are not namespaced: per-uid keyrings outlive a run and
  the session keyring is inherited from the host.
- `io_uring_*`: EPERM (io_uring can create sockets without the `socket` syscall, so the filter above would
  not see them).

Every refusal is an error code, never a kill, so a program gets a clean Python `OSError`.
"""

import ctypes
import os
import struct

if "_libc" not in globals():  # for readers, tests and linters; in the sandbox inside.py's source comes first
    from rlvr.verifiers.sandbox.inside import _check, _libc

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
KEYCTL_JOIN_SESSION_KEYRING = 1
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
ALLOWED_FAMILIES = (AF_UNIX, AF_INET, AF_INET6)
EPERM, EAFNOSUPPORT = 1, 97
RET_KILL_PROCESS, RET_ERRNO, RET_ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06  # BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, ...
NR_OFFSET, ARCH_OFFSET, ARG0_OFFSET = 0, 4, 16  # struct seccomp_data (args[0]'s low word, little endian)
X32_SYSCALL_BIT = 0x40000000
DENIED = ("add_key", "request_key", "keyctl", "io_uring_setup", "io_uring_enter", "io_uring_register")
#: machine -> (AUDIT_ARCH_*, syscall numbers)
SECCOMP_ARCHES = {
    "x86_64": (0xC000003E, {"socket": 41, "socketpair": 53, "add_key": 248, "request_key": 249, "keyctl": 250,
                            "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}),
    "aarch64": (0xC00000B7, {"socket": 198, "socketpair": 199, "add_key": 217, "request_key": 218, "keyctl": 219,
                             "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}),
}  # fmt: skip


def seccomp_program(machine):
    """The filter as a list of (code, jt, jf, k) BPF instructions for `machine` (os.uname().machine)."""
    if machine not in SECCOMP_ARCHES:
        raise OSError(f"the sandbox's seccomp filter knows no syscall table for {machine!r}")
    arch, nr = SECCOMP_ARCHES[machine]
    # (code, true label or None, false label or None, k) with symbolic jump targets, resolved below
    body: list[tuple[int, str | None, str | None, int]] = [  # local annotation: never evaluated
        (LD_W_ABS, None, None, ARCH_OFFSET),
        (JEQ_K, None, "kill", arch),
        (LD_W_ABS, None, None, NR_OFFSET),
    ]
    if machine == "x86_64":
        body.append((JGE_K, "eperm", None, X32_SYSCALL_BIT))
    body += [(JEQ_K, "eperm", None, nr[name]) for name in DENIED]
    body += [(JEQ_K, "family", None, nr["socket"]), (JEQ_K, "family", None, nr["socketpair"])]
    body.append((RET_K, None, None, RET_ALLOW))
    labels = {"family": len(body)}
    body.append((LD_W_ABS, None, None, ARG0_OFFSET))
    body += [(JEQ_K, "allow", None, family) for family in ALLOWED_FAMILIES]
    body.append((RET_K, None, None, RET_ERRNO | EAFNOSUPPORT))
    for name, ret in (("allow", RET_ALLOW), ("eperm", RET_ERRNO | EPERM), ("kill", RET_KILL_PROCESS)):
        labels[name] = len(body)
        body.append((RET_K, None, None, ret))
    program = []
    for pc, (code, jt, jf, k) in enumerate(body):
        jumps = [0 if label is None else labels[label] - pc - 1 for label in (jt, jf)]
        program.append((code, jumps[0], jumps[1], k))
    return program


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp():
    """Install the filter in this process (needs no_new_privs or CAP_SYS_ADMIN); irrevocable."""
    program = seccomp_program(os.uname().machine)
    buf = ctypes.create_string_buffer(b"".join(struct.pack("=HBBI", *ins) for ins in program))
    fprog = _SockFprog(len(program), ctypes.cast(buf, ctypes.c_void_p))
    ret = _libc.prctl(
        ctypes.c_int(PR_SET_SECCOMP), ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(fprog),
        ctypes.c_ulong(0), ctypes.c_ulong(0),
    )  # fmt: skip
    _check(ret, "install the seccomp filter")


def join_fresh_session_keyring():
    """Replace the session keyring inherited from the host with a new anonymous one (for this process)."""
    nr = SECCOMP_ARCHES.get(os.uname().machine, (0, {}))[1].get("keyctl")
    if nr is None:
        raise OSError(f"no keyctl syscall number known for {os.uname().machine!r}")
    serial = _libc.syscall(
        ctypes.c_long(nr), ctypes.c_int(KEYCTL_JOIN_SESSION_KEYRING), ctypes.c_void_p(None)
    )
    if serial < 0:
        err = ctypes.get_errno()
        if err != 38:  # ENOSYS: a kernel without keys has no keyring to inherit either
            raise OSError(err, f"join a fresh session keyring: {os.strerror(err)}")
