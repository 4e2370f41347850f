# ruff: noqa: SIM105  (try/except/pass on purpose: contextlib is not imported, to keep cold starts fast)
"""Code that runs inside the sandbox: builds the private root, forks one isolated run, drops privileges.

Stdlib only and never imported by the host: the host compiles this file (followed by inside_pool.py, the
warm pool's processes) once and ships the code object to a fresh interpreter (`python -S -c BOOT`), either a
one-shot launcher (cold run) or a long-lived master zygote (warm pool). Process tree of one run::

    launcher | master zygote -> slot zygote   (root, host pid ns, private mount ns with a read-only root;
      │                                        a slot zygote has joined its slot's cgroups once)
      └─ init (pid 1 of a fresh pid ns; own mount/net/ipc/uts/cgroup ns and tmpfs dirs; root)
           ├─ program (the untrusted code: slot uid, no capabilities, rlimits, no_new_privs)
           └─ judge   (optional trusted companion: another uid, talks to the program over fds 3/4)

When init exits the kernel kills every process of its pid namespace, so nothing outlives a run.
Status protocol on the status fd (init -> host): b"S" once the program started, then b"E" + marshal(dict)
when it ended; b"X" + text if the sandbox itself could not be set up.
"""

import ctypes
import fcntl
import marshal
import os
import resource
import sys

# typing.TYPE_CHECKING without importing typing into every sandbox: False when run, True for type checkers
TYPE_CHECKING = False
if TYPE_CHECKING:  # in the sandbox inside_seccomp.py's source follows this file's and defines these
    from rlvr.verifiers.sandbox.inside_seccomp import install_seccomp, join_fresh_session_keyring

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
SIGKILL = 9
# pivot_root has no glibc wrapper; its syscall number per architecture (fallback: MS_MOVE + chroot)
PIVOT_ROOT_NR = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _b(s):
    return None if s is None else s.encode()


def mount(src, dst, fstype, flags, data=None):
    _check(_libc.mount(_b(src), _b(dst), _b(fstype), ctypes.c_ulong(flags), _b(data)), f"mount {dst}")


def unshare(flags):
    _check(_libc.unshare(ctypes.c_int(flags)), f"unshare({flags:#x})")


def setns(fd, nstype):
    _check(_libc.setns(ctypes.c_int(fd), ctypes.c_int(nstype)), "setns")


def prctl(option, arg):
    _check(_libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg), 0, 0, 0), f"prctl({option})")


def pivot_root_here():
    """Make the current directory the root and detach the old one."""
    nr = PIVOT_ROOT_NR.get(os.uname().machine)
    if nr is not None and _libc.syscall(ctypes.c_long(nr), b".", b".") == 0:
        _check(_libc.umount2(b".", ctypes.c_int(MNT_DETACH)), "umount old root")
    else:  # e.g. an initramfs root, where pivot_root is refused
        mount(".", "/", None, MS_MOVE)
        os.chroot(".")
    os.chdir("/")


def setup_root(spec):
    """Build the minimal read-only root described by `spec` and pivot into it (in a new mount ns)."""
    unshare(CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    # open bind sources before the staging tmpfs may hide them (a source under /tmp stays reachable)
    sources = {}
    for op in spec["ops"]:
        if op[0] == "bind":
            try:
                sources[op[2]] = os.open(op[1], os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                pass
    stage = spec["stage"]
    mount("tmpfs", stage, "tmpfs", MS_NOSUID, "size=4m,mode=0755")
    for op in spec["ops"]:
        kind, path = op[0], stage + op[2] if op[0] == "bind" else stage + op[1]
        if kind == "dir":
            os.makedirs(path, mode=op[2], exist_ok=True)
            os.chmod(path, op[2])
        elif kind == "symlink":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.symlink(op[2], path)
        elif kind == "file":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(op[2])
            os.chmod(path, op[3])
        elif kind == "hide":  # an empty read-only dir over a path that a bound tree should not show
            mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=0555")
        elif kind == "bind":
            fd = sources.get(op[2])
            if fd is None:
                continue
            is_dir, writable, dev = op[3], op[4], op[5]
            os.makedirs(path if is_dir else os.path.dirname(path), exist_ok=True)
            if not is_dir:
                open(path, "ab").close()
            mount(f"/proc/self/fd/{fd}", path, None, MS_BIND)
            flags = (
                MS_REMOUNT | MS_BIND | MS_NOSUID | (0 if dev else MS_NODEV) | (0 if writable else MS_RDONLY)
            )
            mount(None, path, None, flags)
            os.close(fd)
    os.chdir(stage)
    pivot_root_here()
    mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID)


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def move_fds(mapping):
    """dup2 each source fd onto its target number (targets may collide with sources), close the rest."""
    top = max(mapping) + 1
    # copies numbered above every target first, so no dup2 below overwrites a source still needed
    high = {target: fcntl.fcntl(src, fcntl.F_DUPFD_CLOEXEC, top) for target, src in mapping.items()}
    for target, fd in high.items():
        os.dup2(fd, target, inheritable=True)
    os.closerange(top, 1 << 20)


def drop_privileges(uid, gid):
    """Become `uid`/`gid` with no supplementary groups, no capabilities and no way to regain any."""
    if os.getuid() == 0:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def set_rlimits(limits):
    for name, value in limits.items():
        soft, hard = value if isinstance(value, tuple) else (value, value)
        resource.setrlimit(getattr(resource, name), (soft, hard))


def finish(code):
    """Exit like the interpreter would (join threads, atexit, flush) without returning into our callers."""
    try:
        if "threading" in sys.modules:
            sys.modules["threading"]._shutdown()
        import atexit

        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    os._exit(code)


def exit_code_of(exc):
    """The status code `SystemExit(exc.code)` exits with, printing a non-integer code as Python does."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def run_program(run):
    """Runs in the program process after privileges are dropped: execute the untrusted code as __main__."""
    for rel, data in run["files"].items():
        path = os.path.join(run["workdir"], rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    os.chdir(run["workdir"])
    os.environ.clear()
    os.environ.update(run["env"])
    main_path = os.path.join(run["workdir"], "main.py")
    sys.argv[:] = [main_path]
    sys.path[:] = [run["workdir"], *(p for p in sys.path if p), *run["python_paths"]]
    module = type(sys)("__main__")
    module.__file__ = main_path
    module.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = module
    try:
        code = compile(run["code"], main_path, "exec")
        exec(code, module.__dict__)
    except SystemExit as exc:
        finish(exit_code_of(exc))
    except BaseException as exc:
        try:
            # hide this runner's frame; a SyntaxError from compile() gets no traceback, as in `python main.py`
            tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
            exc = exc.with_traceback(tb)
            sys.excepthook(type(exc), exc, tb)
        except BaseException:
            pass
        finish(1)
    finish(0)


def read_all(fd):
    chunks: list[bytes] = []  # a local annotation: never evaluated, so any Python 3 runs it
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def run_judge(run, judge):
    """Runs in the judge process: read the judge's data from its own pipe (fd 6: written by the host only after
    the program's process exists), then execute the trusted companion code with its fds."""
    os.chdir("/")
    os.environ.clear()
    sys.path[:] = [p for p in sys.path if p]  # not the cwd: nothing the program writes can shadow a module
    try:
        data = judge["data"] if "data" in judge else read_all(6)
        if "data" not in judge:
            os.close(6)
        if judge.get("kind", "marshal") == "marshal":
            code = marshal.loads(judge["code"])
        else:  # another Python version than the host's (e.g. a Docker image): compile here
            code = compile(judge["code"].decode(), "<judge>", "exec")
        exec(
            code,
            {"__name__": "__rlvr_judge__", "DATA": data, "RPC_IN": 3, "RPC_OUT": 4, "REPORT": 5},
        )
    except SystemExit as exc:
        finish(exit_code_of(exc))
    except BaseException as exc:
        try:
            os.write(5, b'{"type": "judge_crash", "error": %s}\n' % repr(repr(exc)[:2000]).encode())
        except BaseException:
            pass
        finish(1)
    finish(0)


def child_setup(run, uid, gid, fdmap, limits, oom_adj, program):
    """Confine a forked program (or judge) process before its code runs; see inside_seccomp.py."""
    os.setsid()
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(oom_adj))
    except OSError:
        pass
    move_fds(fdmap)
    set_rlimits(limits)
    join_fresh_session_keyring()  # (inside_seccomp.py) never the host's session keyring
    drop_privileges(uid, gid)
    if program:
        prctl(PR_SET_DUMPABLE, 1)  # changing uid made it non-dumpable, which would hide its own /proc/self
        install_seccomp()  # (inside_seccomp.py) after no_new_privs, before the program's code


SETUP_FAILED = 3


def prepare_init(box, new_net):
    """pid 1 of a fresh pid namespace, before its run is known: private namespaces, /proc, tmpfs dirs."""
    prctl(PR_SET_PDEATHSIG, SIGKILL)
    flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP
    if new_net and not box["network"]:
        flags |= CLONE_NEWNET
    unshare(flags)
    hostname = b"sandbox"
    _libc.sethostname(hostname, len(hostname))
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    # keyrings are not namespaced: keys of earlier runs (or the host's) stay listed there; show an empty file
    for path in ("/proc/keys", "/proc/key-users"):
        if os.path.exists(path):
            mount("/dev/null", path, None, MS_BIND)
    size = f"size={box['disk_mb']}m"
    owner = f"uid={box['uid']},gid={box['gid']}"
    mount("tmpfs", box["workdir"], "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=0700,{owner}")
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")


def run_init(run, fds, box):
    """pid 1 with its run: fork the program (and judge), report start and end, then exit, which makes the
    kernel kill whatever is left in the namespace."""
    status_fd = fds["status"]
    try:
        stdin_fd = os.memfd_create("stdin", 0)
        write_all(stdin_fd, run["stdin"])
        os.lseek(stdin_fd, 0, 0)
        judge = run["judge"]
        if judge is not None:
            to_judge_r, to_judge_w = os.pipe()
            to_prog_r, to_prog_w = os.pipe()
    except BaseException as exc:
        import traceback

        write_all(status_fd, b"X" + ("".join(traceback.format_exception(exc))).encode())
        os._exit(1)

    prog_fds = {0: stdin_fd, 1: fds["stdout"], 2: fds["stderr"]}
    if judge is not None:
        prog_fds.update({3: to_prog_r, 4: to_judge_w})
    # the program is forked first and holds none of the judge's fds; the judge's data reaches the sandbox only
    # later, on the "spec" pipe, which only the judge reads (init never does)
    prog = os.fork()
    if prog == 0:
        try:
            child_setup(run, box["uid"], box["gid"], prog_fds, run["rlimits"], 1000, True)
        except BaseException as exc:
            os.write(2, f"sandbox: program setup failed: {exc!r}\n".encode())
            os._exit(127)
        run_program(run)
    judge_pid = None
    if judge is not None:
        judge_pid = os.fork()
        if judge_pid == 0:
            devnull = os.open("/dev/null", os.O_RDWR)
            judge_fds = {0: devnull, 1: devnull, 2: devnull, 3: to_judge_r, 4: to_prog_w, 5: fds["report"]}
            if "spec" in fds:
                judge_fds[6] = fds["spec"]
            try:
                child_setup(run, box["judge_uid"], box["judge_uid"], judge_fds, judge["rlimits"], 0, False)
            except BaseException:
                os._exit(127)
            run_judge(run, judge)
        for fd in (to_judge_r, to_judge_w, to_prog_r, to_prog_w, fds["report"], fds.get("spec", -1)):
            if fd >= 0:
                os.close(fd)
    for fd in (stdin_fd, fds["stdout"], fds["stderr"]):
        os.close(fd)
    os.write(status_fd, b"S")

    result = {"exit": None, "judge_exit": None, "maxrss_kb": 0, "cpu_s": 0.0}

    def record(status, usage):
        result["exit"] = os.waitstatus_to_exitcode(status)
        result["maxrss_kb"] = usage.ru_maxrss
        result["cpu_s"] = usage.ru_utime + usage.ru_stime

    waiting = {prog} if judge_pid is None else {judge_pid}
    while waiting:
        try:
            pid, status, usage = os.wait4(-1, 0)
        except ChildProcessError:
            break
        if pid == prog:
            record(status, usage)
        elif pid == judge_pid:
            result["judge_exit"] = os.waitstatus_to_exitcode(status)
        waiting.discard(pid)
    if result["exit"] is None and judge_pid is not None:
        # the judge is done; the program normally exits at once on end of file of its request pipe
        import time

        for _ in range(100):
            pid, status, usage = os.wait4(prog, os.WNOHANG)
            if pid == prog:
                record(status, usage)
                break
            time.sleep(0.001)
    write_all(status_fd, b"E" + marshal.dumps(result))
    os._exit(0)  # as pid 1 this kills every process left in the namespace


def fork_init(own_pidns_fd):
    """Fork into a fresh pid namespace (the child is its pid 1); returns the child's pid, 0 in the child."""
    unshare(CLONE_NEWPID)
    pid = -1
    try:
        pid = os.fork()
    finally:
        if own_pidns_fd is not None and pid != 0:
            setns(own_pidns_fd, CLONE_NEWPID)  # the zygote's next fork gets a fresh namespace again
    return pid


def open_cgroup_procs(paths):
    return [os.open(p, os.O_WRONLY | os.O_CLOEXEC) for p in paths]


def cold_main(args):
    """One-shot launcher: set up the root, run one program, exit when it is done."""
    fds = args["fds"]
    try:
        setup_root(args["root"])
        run = marshal.loads(args["run"])
        # meanwhile the host has been moving this process into the slot's cgroups (slow in cgroup v1, so it
        # overlaps our start-up); the run may start once it says so
        if os.read(fds.pop("go"), 1) != b"1":
            os._exit(1)
        pid = fork_init(None)
        if pid == 0:
            prepare_init(run["box"], new_net=True)
            run_init(run, fds, run["box"])
        import _signal

        # the host stops a run with SIGTERM to us: kill its init, whose exit tears the namespace down, and
        # exit only after that, so the host knows that no process of the run is left once we are gone
        pidfd = os.pidfd_open(pid)
        _signal.signal(15, lambda *_: _signal.pidfd_send_signal(pidfd, SIGKILL))
    except BaseException as exc:
        import traceback

        write_all(fds["status"], b"X" + "".join(traceback.format_exception(exc)).encode())
        os._exit(1)
    os.waitpid(pid, 0)
    os._exit(0)
