"""The sandbox's isolation guarantees (network, files, environment, processes, runs), each checked with a real
adversarial program; see rlvr.verifiers.sandbox's docstring. Limits (CPU, memory, disk, output) are in
test_sandbox.py."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys

import pytest
from test_sandbox import sandbox_processes, src

from rlvr.verifiers.sandbox import Sandbox, SandboxConfig

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root")


@pytest.fixture(scope="module", params=["warm", "cold"])
def sandbox(request):
    sb = Sandbox(SandboxConfig(warm=request.param == "warm", pool_size=2, timeout_s=5.0))
    yield sb
    sb.close()


# -- network ---------------------------------------------------------------------------------------------
@pytest.fixture
def listener():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.5)
    yield srv
    srv.close()


NET_PROBE = src(
    """
    import socket, sys
    port = int(open("port").read())
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        s.sendall(b"escaped")
        print("connected")
    except OSError as e:
        print("connect failed:", type(e).__name__)
    try:
        print("dns:", socket.getaddrinfo("example.com", 80)[0][4])
    except OSError as e:
        print("dns failed:", type(e).__name__)
    """
)


def test_no_network(sandbox, listener):
    port = listener.getsockname()[1]
    r = sandbox.run(NET_PROBE, files={"port": str(port)})
    assert "connect failed" in r.stdout and "connected" not in r.stdout.replace("connect failed", "")
    assert "dns failed" in r.stdout
    with pytest.raises(TimeoutError):
        listener.accept()


def test_network_true_is_the_positive_control(listener):
    port = listener.getsockname()[1]
    with Sandbox(SandboxConfig(network=True, pool_size=1)) as sb:
        r = sb.run(NET_PROBE, files={"port": str(port)})
    assert "connected" in r.stdout
    conn, _ = listener.accept()
    assert conn.recv(16) == b"escaped"
    conn.close()


def test_no_abstract_unix_socket_to_host():
    name = f"\0rlvr-test-{secrets.token_hex(4)}"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(name)
    srv.listen(1)
    try:
        with Sandbox(SandboxConfig(pool_size=1)) as sb:
            code = f"import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect({name!r})\n    print('connected')\nexcept OSError as e:\n    print('failed', e.errno)\n"
            r = sb.run(code)
        assert r.stdout.startswith("failed"), r
    finally:
        srv.close()


# -- host files --------------------------------------------------------------------------------------------
def test_host_files_are_not_visible(sandbox, tmp_path):
    token = secrets.token_hex(8)
    secret = tmp_path / "secret.txt"
    secret.write_text(token)
    home_secret = os.path.expanduser("~/.rlvr-test-secret")
    with open(home_secret, "w") as f:
        f.write(token)
    try:
        code = src(
            f"""
            import os
            for path in [{str(secret)!r}, {home_secret!r}, "/proc/1/root{secret}", "/proc/1/environ"]:
                try:
                    print(open(path).read())
                except OSError as e:
                    print(path, type(e).__name__)
            for top in ("/root", "/home", "/work", "/tmp", "/old_root", "/mnt", "/run"):
                print(top, os.path.exists(top) and os.listdir(top))
            """
        )
        r = sandbox.run(code)
    finally:
        os.remove(home_secret)
    assert token not in r.stdout + r.stderr
    assert "FileNotFoundError" in r.stdout
    assert "/tmp []" in r.stdout and "/work False" in r.stdout and "/home False" in r.stdout


def test_writes_outside_the_sandbox_have_no_effect(sandbox, tmp_path):
    escape = f"/tmp/rlvr-escape-{secrets.token_hex(4)}"
    target = tmp_path / "planted.txt"
    code = src(
        f"""
        for path in [{escape!r}, {str(target)!r}, "/usr/planted", "/etc/planted", "/planted", "/root/planted"]:
            try:
                with open(path, "w") as f:
                    f.write("pwned")
                print("wrote", path)
            except OSError as e:
                print("refused", path, type(e).__name__)
        """
    )
    r = sandbox.run(code)
    assert f"wrote {escape}" in r.stdout  # its own private /tmp
    assert "refused /usr/planted" in r.stdout and "refused /etc/planted" in r.stdout
    for path in (escape, str(target), "/usr/planted", "/etc/planted", "/planted", "/root/planted"):
        assert not os.path.exists(path), path


def test_runs_do_not_see_each_other(sandbox):
    token = secrets.token_hex(4)
    first = sandbox.run(f"open('/tmp/{token}', 'w').write('a')\nopen('{token}', 'w').write('b')\nprint('ok')")
    assert first.stdout == "ok\n"
    second = sandbox.run(f"import os\nprint(os.path.exists('/tmp/{token}'), os.path.exists('{token}'))")
    assert second.stdout == "False False\n"


# -- environment -----------------------------------------------------------------------------------------
def test_host_environment_is_not_visible(monkeypatch):
    token = secrets.token_hex(8)
    monkeypatch.setenv("RLVR_TEST_SECRET", token)
    with Sandbox(SandboxConfig(pool_size=1)) as sb:
        code = "import os\nprint(dict(os.environ))\nprint(open('/proc/self/environ').read())\n"
        r = sb.run(code)
    assert r.ok
    assert token not in r.stdout and "RLVR_TEST_SECRET" not in r.stdout
    assert "'HOME': '/sandbox'" in r.stdout


# -- processes -------------------------------------------------------------------------------------------
def test_cannot_kill_host_processes_or_its_parent(sandbox):
    victim = subprocess.Popen(["sleep", "60"])
    try:
        code = src(
            f"""
            import os, signal
            results = {{}}
            for name, pid in [("victim", {victim.pid}), ("host", {os.getpid()}), ("init", 1),
                              ("parent", os.getppid())]:
                try:
                    os.kill(pid, signal.SIGKILL)
                    results[name] = "killed"
                except OSError as e:
                    results[name] = type(e).__name__
            print(results)
            print("visible pids:", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
            for pid in range(2, 40000):  # everything it can see or guess, itself last
                if pid != os.getpid():
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            print("still here")
            """
        )
        r = sandbox.run(code)
        assert r.ok, r
        assert "'init': 'PermissionError'" in r.stdout and "'parent': 'PermissionError'" in r.stdout
        assert "'victim': 'ProcessLookupError'" in r.stdout or "'victim': 'PermissionError'" in r.stdout
        assert "visible pids: [1, 2]" in r.stdout
        assert victim.poll() is None  # the host process survived
        assert sandbox.run("print('pool still works')").stdout == "pool still works\n"
    finally:
        victim.kill()
        victim.wait()


def test_cannot_read_or_trace_the_init(sandbox):
    code = src(
        """
        import ctypes
        for path in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd/0"):
            try:
                open(path, "rb").read(1)
                print("read", path)
            except OSError as e:
                print("refused", path, type(e).__name__)
        libc = ctypes.CDLL(None, use_errno=True)
        PTRACE_ATTACH = 16
        print("ptrace", libc.ptrace(PTRACE_ATTACH, 1, 0, 0), ctypes.get_errno())
        """
    )
    r = sandbox.run(code)
    assert "read /proc" not in r.stdout
    assert "ptrace -1 1" in r.stdout  # EPERM


def test_no_process_outlives_the_run(sandbox):
    code = src(
        """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                for fd in (0, 1, 2):
                    os.close(fd)
                time.sleep(100)
            os._exit(0)
        os.wait()
        print("daemon started")
        """
    )
    r = sandbox.run(code)
    assert r.ok and r.stdout == "daemon started\n"
    assert sandbox_processes(sandbox) == []


def test_program_runs_unprivileged(sandbox):
    r = sandbox.run("import os\nprint(os.getuid(), os.geteuid(), os.getgroups())\nos.setuid(0)\n")
    uid = int(r.stdout.split()[0])
    assert uid >= sandbox.config.uid_base
    assert "PermissionError" in r.stderr


def test_nothing_persists_between_runs_of_one_slot(tmp_path):
    """SysV shared memory, abstract unix sockets and files left by a run are gone for the next run in the
    same slot (pool_size=1), including a background process that tried to keep a socket open."""
    first = src(
        """
        import ctypes, os, socket, time
        libc = ctypes.CDLL(None, use_errno=True)
        print("shm", libc.shmget(0x7217, 4096, 0o1000 | 0o666) >= 0)  # IPC_CREAT
        s = socket.socket(socket.AF_UNIX)
        s.bind("\\0rlvr-persist")
        s.listen(1)
        if os.fork() == 0:
            time.sleep(30)
        open("/tmp/left", "w").write("x")
        print("done", flush=True)
        """
    )
    second = src(
        """
        import ctypes, os, socket
        libc = ctypes.CDLL(None, use_errno=True)
        print("shm", libc.shmget(0x7217, 0, 0) >= 0)
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect("\\0rlvr-persist")
            print("socket alive")
        except OSError:
            print("socket gone")
        print("tmp", os.path.exists("/tmp/left"))
        """
    )
    with Sandbox(SandboxConfig(pool_size=1)) as sb:
        a = sb.run(first)
        b = sb.run(second)
    assert a.stdout == "shm True\ndone\n", a
    assert b.stdout == "shm False\nsocket gone\ntmp False\n", b


def test_system_dirs_are_visible_but_read_only(sandbox):
    code = src(
        """
        import os, sys
        print(os.path.isdir("/usr/lib"), os.path.exists(sys.executable))
        try:
            open("/usr/lib/rlvr-test", "w")
        except OSError as e:
            print(type(e).__name__)
        """
    )
    r = sandbox.run(code)
    assert r.stdout.splitlines() in (["True True", "OSError"], ["True True", "PermissionError"])


# -- kernel state that namespaces do not isolate: socket families, keyrings (seccomp filter) ----------------
KEY_NR = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[
    os.uname().machine
]  # add_key, request_key, keyctl
KEYS = src(
    f"""
    import ctypes, errno
    libc = ctypes.CDLL(None, use_errno=True)
    ADD_KEY, REQUEST_KEY, KEYCTL = {KEY_NR}
    def call(*args):
        ret = libc.syscall(*args)
        return "ok" if ret >= 0 else errno.errorcode[ctypes.get_errno()]
    """
)
FAMILIES = {"AF_VSOCK": 40, "AF_NETLINK": 16, "AF_PACKET": 17, "AF_KEY": 15, "AF_ALG": 38, "AF_TIPC": 30}


def test_socket_families_outside_the_network_namespace_are_refused(sandbox):
    code = src(
        f"""
        import socket
        for name, family in {FAMILIES!r}.items():
            for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_RAW, socket.SOCK_SEQPACKET):
                try:
                    socket.socket(family, kind).close()
                    print(name, kind, "created")
                except OSError as e:
                    if e.errno != 97:  # EAFNOSUPPORT: the filter's answer
                        print(name, kind, "other error", e.errno)
        for family in (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6):
            socket.socket(family, socket.SOCK_STREAM).close()
        a, b = socket.socketpair(socket.AF_UNIX)
        a.sendall(b"ping")
        print("unix ok", b.recv(4))
        try:
            socket.socketpair(40, socket.SOCK_STREAM)
        except OSError as e:
            print("vsock pair", e.errno)
        """
    )
    r = sandbox.run(code)
    assert r.stdout == "unix ok b'ping'\nvsock pair 97\n", (r.stdout, r.stderr)


def test_seccomp_filter_cannot_be_removed(sandbox):
    """The filter is the kernel's (mode 2 in /proc/self/status): a program cannot undo it with prctl, by adding
    an allow-all filter of its own, in a forked child or in a freshly exec'd interpreter."""
    probe = "import socket\ntry:\n    socket.socket(40, socket.SOCK_STREAM)\n    print('vsock created')\nexcept OSError as e:\n    print('vsock', e.errno)"
    code = src(
        f"""
        import ctypes, os, struct, subprocess, sys
        libc = ctypes.CDLL(None, use_errno=True)
        print(open("/proc/self/status").read().split("Seccomp:")[1].split()[0])
        print("disable", libc.prctl(22, 0, 0, 0, 0), ctypes.get_errno())  # PR_SET_SECCOMP, SECCOMP_MODE_DISABLED
        allow_all = ctypes.create_string_buffer(struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000))
        class Prog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        prog = Prog(1, ctypes.cast(allow_all, ctypes.c_void_p))
        print("own filter", libc.prctl(22, 2, ctypes.byref(prog), 0, 0))
        exec({probe!r})
        sys.stdout.flush()
        if os.fork() == 0:
            exec({probe!r})
            sys.stdout.flush()
            os._exit(0)
        os.wait()
        print(subprocess.run([sys.executable, "-c", {probe!r}], capture_output=True, text=True).stdout, end="")
        """
    )
    r = sandbox.run(code)
    assert r.stdout == "2\ndisable -1 22\nown filter 0\nvsock 97\nvsock 97\nvsock 97\n", (r.stdout, r.stderr)


def test_seccomp_filter_checks_the_architecture(sandbox):
    """The filter's first test is the syscall ABI: on x86_64 the x32 numbers (another table, which the rules
    below would not match) are refused, and a foreign architecture is killed, whatever the syscall."""
    from rlvr.verifiers.sandbox.inside_seccomp import RET_KILL_PROCESS, SECCOMP_ARCHES, seccomp_program

    for machine, (audit_arch, _) in SECCOMP_ARCHES.items():
        program = seccomp_program(machine)
        assert program[0] == (0x20, 0, 0, 4) and program[1][0] == 0x15 and program[1][3] == audit_arch
        assert program[2 + program[1][2]] == (0x06, 0, 0, RET_KILL_PROCESS)  # arch mismatch -> kill
    with pytest.raises(OSError, match="riscv64"):
        seccomp_program("riscv64")
    if os.uname().machine != "x86_64":
        return
    code = src(
        """
        import ctypes, errno
        libc = ctypes.CDLL(None, use_errno=True)
        ret = libc.syscall(0x40000000 + 41, 40, 1, 0)  # socket(AF_VSOCK, SOCK_STREAM) through the x32 table
        print(ret, errno.errorcode.get(ctypes.get_errno()))
        """
    )
    assert sandbox.run(code).stdout == "-1 EPERM\n"


def test_key_syscalls_are_refused(sandbox):
    code = KEYS + src(
        """
        print("add_key", call(ADD_KEY, b"user", b"rlvr-probe", b"secret", 6, -4))  # KEY_SPEC_USER_KEYRING
        print("keyctl", call(KEYCTL, 0, -3, 0))  # KEYCTL_GET_KEYRING_ID of the session keyring
        print("request_key", call(REQUEST_KEY, b"user", b"rlvr-probe", None, 0))
        """
    )
    r = sandbox.run(code)
    assert r.stdout == "add_key EPERM\nkeyctl EPERM\nrequest_key EPERM\n", (r.stdout, r.stderr)


def test_keys_do_not_outlive_a_run():
    """What one run stores in its uid's keyrings, the next run of the same slot (and of a new Sandbox that
    reuses the slot id) cannot read: the key syscalls are refused, /proc/keys lists nothing of it."""
    store = KEYS + src(
        """
        for ring in (-4, -5):  # KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING
            print(call(ADD_KEY, b"user", b"rlvr-left-%d" % -ring, b"secret", 6, ring))
        """
    )
    read = KEYS + src(
        """
        print(call(REQUEST_KEY, b"user", b"rlvr-left-4", None, 0))
        print("rlvr-left" in open("/proc/keys").read())
        """
    )
    with Sandbox(SandboxConfig(pool_size=1)) as sb:
        stored = sb.run(store)
        same_slot = sb.run(read)
    with Sandbox(SandboxConfig(pool_size=1, warm=False)) as sb:
        reused_slot = sb.run(read)
    assert stored.stdout == "EPERM\nEPERM\n", stored
    assert same_slot.stdout == reused_slot.stdout == "EPERM\nFalse\n", (same_slot, reused_slot)


def test_host_session_keyring_is_not_inherited():
    """A key in the host's session keyring is visible to nothing in the sandbox: every run joins a fresh
    anonymous session keyring (run from a helper process, so the test's own keyring is left alone)."""
    helper = src(
        f"""
        import ctypes
        from rlvr.verifiers.sandbox import Sandbox
        libc = ctypes.CDLL(None, use_errno=True)
        ADD_KEY, REQUEST_KEY, KEYCTL = {KEY_NR}
        assert libc.syscall(KEYCTL, 1, None) > 0  # KEYCTL_JOIN_SESSION_KEYRING: this helper's own
        assert libc.syscall(ADD_KEY, b"user", b"rlvr-host-secret", b"hunter2", 7, -3) > 0  # into the session ring
        with Sandbox(pool_size=1) as sb:
            print(sb.run("print('rlvr-host-secret' in open('/proc/keys').read())").stdout, end="")
        """
    )
    out = subprocess.run([sys.executable, "-c", helper], capture_output=True, text=True, timeout=120)
    assert out.stdout == "False\n", (out.stdout, out.stderr[-2000:])


# -- the judge's data -------------------------------------------------------------------------------------------
SEEK = src(
    """
    import gc, os, re, sys
    pattern = re.compile(rb"rlvr-judge-data-[0-9a-f]{32}")
    def blobs():
        frame = sys._getframe()
        while frame:
            yield repr(frame.f_locals).encode("utf-8", "backslashreplace")
            frame = frame.f_back
        for obj in gc.get_objects():
            for ref in gc.get_referents(obj):
                if isinstance(ref, bytes):
                    yield ref
                elif isinstance(ref, str):
                    yield ref.encode("utf-8", "replace")
        for pid in ["self"] + [p for p in os.listdir("/proc") if p.isdigit()]:
            try:
                mem = open(f"/proc/{pid}/mem", "rb", buffering=0)
                for line in open(f"/proc/{pid}/maps"):
                    span, perms = line.split()[:2]
                    lo, hi = (int(x, 16) for x in span.split("-"))
                    if perms[0] == "r" and "[vvar" not in line:
                        try:
                            mem.seek(lo)
                            yield mem.read(hi - lo)
                        except (OSError, ValueError, OverflowError):
                            pass
            except OSError:
                pass
        for fd in range(1024):
            try:
                yield os.pread(fd, 1 << 20, 0)
            except OSError:
                pass
        for top in ("/tmp", "/dev/shm", os.getcwd()):
            for root, _, files in os.walk(top):
                for name in files:
                    try:
                        yield open(os.path.join(root, name), "rb").read()
                    except OSError:
                        pass
    print("found" if any(pattern.search(b) for b in blobs()) else "not found")
    """
)


def test_judge_data_never_reaches_the_program(sandbox):
    """A judge's data (the code verifier's expected values) is read by the judge, and found nowhere the program
    can look: frames, objects, its memory and every process's it can read, descriptors, files."""
    from rlvr.verifiers.sandbox import Judge

    data = b"rlvr-judge-data-" + secrets.token_hex(16).encode()
    # the judge holds its data while the program searches, and reports once the program is done (end of file)
    judge = Judge("import os\nos.read(RPC_IN, 1)\nos.write(REPORT, DATA)\n", data)
    r = sandbox.run(SEEK, judge=judge)
    assert r.judge_output == data and r.judge_exit_code == 0, r
    assert r.stdout == "not found\n", r
