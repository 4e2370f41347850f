"""The Docker backend, with the default runtime (runc) and with gVisor (runsc), against a real daemon.

The local backend's adversarial tests (tests/test_sandbox.py, tests/test_sandbox_isolation.py) that do not
depend on how the local backend is built are imported here and run again with this module's `sandbox`
fixture, parametrized over [docker] and [gvisor]; the tests below them cover what is Docker's own (the
container's limits as the kernel sees them, no pull, nothing left behind). A machine without a daemon skips
them with the fix in the reason (`scripts/docker_sandbox.sh`); CI sets RLVR_REQUIRE_DOCKER=1 (and
RLVR_REQUIRE_GVISOR=1) after that script succeeded, which turns those skips into failures.
"""

from __future__ import annotations

import os
import secrets
import subprocess

import pytest
from test_sandbox import (  # noqa: F401 - collected again here, with this module's `sandbox` fixture
    src,
    test_bad_files_path_is_rejected,
    test_exception_gives_traceback_and_status_1,
    test_fork_bomb_is_contained_and_host_keeps_working,
    test_infinite_loop_ignoring_sigterm_is_killed_at_the_limit,
    test_memory_hog_is_stopped_and_reported,
    test_memory_limit_covers_all_processes_together,
    test_process_limit_is_enforced,
    test_runs_program_with_stdin_files_and_exit_code,
    test_small_allocation_is_not_flagged,
    test_syntax_error,
    test_timeout_kills_the_whole_process_tree,
)
from test_sandbox_isolation import (  # noqa: F401
    NET_PROBE,
    listener,
    test_host_files_are_not_visible,
    test_key_syscalls_are_refused,
    test_no_network,
    test_runs_do_not_see_each_other,
    test_seccomp_filter_cannot_be_removed,
    test_socket_families_outside_the_network_namespace_are_refused,
    test_system_dirs_are_visible_but_read_only,
    test_writes_outside_the_sandbox_have_no_effect,
)

from rlvr.core.errors import SandboxError
from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig
from rlvr.verifiers.sandbox import Judge, Sandbox, SandboxConfig
from rlvr.verifiers.sandbox.config import DOCKER_IMAGE

SETUP = "run scripts/docker_sandbox.sh (add --gvisor for runsc)"


def _probe() -> tuple[object, str | None, bool]:
    """(docker client or None, why the docker tests cannot run or None, whether runsc is registered)."""
    try:
        import docker

        client = docker.from_env(timeout=5)
        client.ping()
    except Exception as exc:
        return None, f"no Docker daemon answers on this machine ({type(exc).__name__}): {SETUP}", False
    image = SandboxConfig().docker_image
    try:
        client.images.get(image)
    except Exception:
        return client, f"the Docker image {image!r} is not on this machine: {SETUP}", False
    return client, None, "runsc" in (client.info().get("Runtimes") or {})


CLIENT, WHY_NOT, HAVE_RUNSC = _probe()


def _skip_or_fail(reason: str, required_by: str) -> None:
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{required_by}=1 but {reason}")
    pytest.skip(reason)


def _require(runtime: str | None) -> None:
    if WHY_NOT is not None:
        _skip_or_fail(WHY_NOT, "RLVR_REQUIRE_DOCKER")
    if runtime == "runsc" and not HAVE_RUNSC:
        _skip_or_fail(f"the Docker daemon has no runsc runtime: {SETUP}", "RLVR_REQUIRE_GVISOR")


RUNTIMES = [pytest.param(None, id="docker"), pytest.param("runsc", id="gvisor")]


@pytest.fixture(scope="module", params=RUNTIMES)
def sandbox(request):
    _require(request.param)
    # uid_base=1000: the imported tests' `sandbox_processes` then looks for host processes of the container's
    # program/judge uids (1000/1001; runc shares the host's uids), not the local backend's slot uids
    config = SandboxConfig(
        backend="docker", docker_runtime=request.param, pool_size=2, timeout_s=5.0, uid_base=1000
    )
    sb = Sandbox(config)
    yield sb
    sb.close()


def _containers_left() -> list:
    return CLIENT.containers.list(all=True, filters={"label": "rlvr.sandbox"}) if CLIENT is not None else []


# -- configuration and errors (no daemon needed) -----------------------------------------------------------
def test_image_is_a_setting_with_an_env_override(monkeypatch):
    monkeypatch.delenv("RLVR_DOCKER_IMAGE", raising=False)
    assert SandboxConfig().docker_image == DOCKER_IMAGE == "rlvr-sandbox:latest"
    monkeypatch.setenv("RLVR_DOCKER_IMAGE", "my-python:3.11")
    assert SandboxConfig().docker_image == "my-python:3.11"
    assert SandboxConfig(docker_image="other:1").docker_image == "other:1"


def test_without_a_daemon_the_error_names_the_fix(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxError, match="no Docker daemon answered.*scripts/docker_sandbox.sh"):
        Sandbox(SandboxConfig(backend="docker")).run("print(1)")


def test_a_missing_image_is_never_pulled_and_the_error_says_how_to_build_one():
    _require(None)
    image = f"rlvr-no-such-image:{secrets.token_hex(4)}"
    with pytest.raises(SandboxError, match=r"never pulls.*scripts/docker_sandbox\.sh"):
        Sandbox(SandboxConfig(backend="docker", docker_image=image)).run("print(1)")
    assert not CLIENT.images.list(name=image.split(":")[0])  # nothing was fetched


def test_an_unregistered_runtime_is_a_clear_error():
    _require(None)
    with pytest.raises(SandboxError, match="no runtime 'rlvr-nonexistent'"):
        Sandbox(SandboxConfig(backend="docker", docker_runtime="rlvr-nonexistent")).run("print(1)")


# -- what is Docker's own ----------------------------------------------------------------------------------
def test_the_runtime_is_the_one_asked_for(sandbox):
    """Under gVisor the program sees gVisor's kernel (it reports 4.4.0), not the host's: the [gvisor] rows
    of this module really ran in runsc."""
    r = sandbox.run("import os\nprint(os.uname().release)\n")
    assert r.ok, r
    if sandbox.config.docker_runtime == "runsc":
        assert r.stdout == "4.4.0\n"
    else:
        assert r.stdout == os.uname().release + "\n"


PRIVILEGES = src(
    """
    import os
    def status(pid):
        return dict(line.split(":\\t", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":\\t" in line)
    me, init = status("self"), status(1)
    print("uid", os.getuid(), os.geteuid(), os.getgroups())
    print("program", me["CapEff"].strip(), me["CapPrm"].strip(), me["NoNewPrivs"].strip() if "NoNewPrivs" in me else "?")
    print("init", init["CapEff"].strip(), init["CapBnd"].strip())
    try:
        os.setuid(0)
        print("setuid worked")
    except PermissionError:
        print("setuid refused")
    """
)


def test_program_runs_as_an_unprivileged_user_with_no_capabilities(sandbox):
    """--cap-drop ALL (+ only SETUID/SETGID for the container's init, to drop to the run's uids), a non-root
    user, no_new_privs for the program."""
    r = sandbox.run(PRIVILEGES)
    lines = r.stdout.splitlines()
    assert lines[0] == "uid 1000 1000 []", r
    assert lines[1].startswith("program 0000000000000000 0000000000000000")
    assert lines[1].split()[3] in ("1", "?")  # gVisor does not report NoNewPrivs
    assert lines[2] == "init 00000000000000c0 00000000000000c0"  # CAP_SETGID|CAP_SETUID, nothing else
    assert lines[3] == "setuid refused"


LIMITS = src(
    """
    import os
    def read(path):
        try:
            return open(path).read().strip()
        except OSError:
            return "-"
    print("pids", read("/sys/fs/cgroup/pids/pids.max"), read("/sys/fs/cgroup/pids.max"))
    print("mem", read("/sys/fs/cgroup/memory/memory.limit_in_bytes"), read("/sys/fs/cgroup/memory.max"))
    print("cpu", read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), read("/sys/fs/cgroup/cpu.max"))
    print("nics", sorted(line.split(":")[0].strip() for line in open("/proc/net/dev").readlines()[2:]))
    mounts = {line.split()[4]: line for line in open("/proc/self/mountinfo")}
    print("root", mounts["/"].split()[5].split(",")[0])
    for path in ("/sandbox", "/tmp"):
        print(path, [o for o in mounts[path].split(" - ")[1].split()[2].split(",") if o.startswith("size=")])
    """
)


def test_container_limits_as_the_kernel_sees_them(sandbox):
    """--pids-limit, --memory, --cpus, --network none, --read-only and sized tmpfs dirs, read back from the
    container's cgroups and mount table (runc; gVisor enforces cgroups outside its sandbox, where the
    program cannot read them: there the behavioural tests above are the check)."""
    cfg = sandbox.config
    r = sandbox.run(LIMITS, memory_mb=200)
    out = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert out["nics"] == "['lo']", r
    assert out["root"] == "ro"
    if cfg.docker_runtime == "runsc":
        return
    assert str(cfg.max_processes + 4) in out["pids"].split()
    assert str(200 << 20) in out["mem"].split()
    assert "100000" in out["cpu"].split() or out["cpu"].split()[-1].startswith("100000 ")
    assert out["/sandbox"] == f"['size={cfg.max_file_mb << 10}k']"
    assert out["/tmp"] == f"['size={cfg.max_file_mb << 10}k']"


def test_disk_filling_is_capped_by_the_tmpfs_size(sandbox):
    """One big file stops at RLIMIT_FSIZE; many files stop when the dir's tmpfs (max_file_mb) is full."""
    code = src(
        """
        import os
        try:
            with open("big.bin", "wb") as f:
                for _ in range(100):
                    f.write(b"x" * (1024 * 1024))
        except OSError as e:
            print("big file stopped at", os.path.getsize("big.bin") >> 20, "MiB:", e.strerror)
        os.remove("big.bin")
        for where in (".", "/tmp", "/dev/shm"):
            try:
                for i in range(100):
                    with open(f"{where}/f{i}", "wb") as f:
                        f.write(b"y" * (1024 * 1024))
                print(where, "not stopped")
            except OSError as e:
                print(where, "stopped at", i, "MiB:", e.strerror)
            for i in range(100):
                if os.path.exists(f"{where}/f{i}"):
                    os.remove(f"{where}/f{i}")
        """
    )
    with Sandbox(dataclass_replace(sandbox.config, max_file_mb=8, pool_size=1)) as small:
        r = small.run(code, timeout_s=10.0)
    lines = r.stdout.splitlines()
    assert lines[0] == "big file stopped at 8 MiB: File too large", r
    assert [line.split(" stopped at ")[0] for line in lines[1:]] == [".", "/tmp", "/dev/shm"], r
    assert all(int(line.split()[3]) <= 8 and "No space left on device" in line for line in lines[1:]), r


def dataclass_replace(config: SandboxConfig, **changes) -> SandboxConfig:
    import dataclasses

    return dataclasses.replace(config, **changes)


def test_host_environment_is_not_visible_in_the_container(sandbox, monkeypatch):
    token = secrets.token_hex(8)
    monkeypatch.setenv("RLVR_TEST_SECRET", token)
    r = sandbox.run("import os\nprint(dict(os.environ))\nprint(open('/proc/self/environ').read())\n")
    assert r.ok and token not in r.stdout and "RLVR_TEST_SECRET" not in r.stdout
    assert "'HOME': '/sandbox'" in r.stdout


def test_no_container_outlives_its_run(sandbox):
    sandbox.run("import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(100)\n", timeout_s=1.0)
    sandbox.run("while True: pass\n", timeout_s=1.0)
    assert _containers_left() == []


def test_code_verifier_with_judge(sandbox):
    v = CodeVerifier(CodeVerifierConfig(sandbox=sandbox.config))
    try:
        tests = CodeTests.from_asserts(["assert add(1, 2) == 3", "assert add(2, 2) == 5"])
        verdict = v.verify("```python\ndef add(a, b):\n    return a + b\n```", tests)
    finally:
        v.close()
    assert verdict.score == 0.5 and verdict.reason == "wrong_answer"


def test_network_true_is_the_hosts_network(sandbox, listener):  # noqa: F811 - the imported fixture
    """The positive control of test_no_network: network=True gives runc containers the host's network (as the
    local backend does); gVisor, registered with --network=none, still has none."""
    port = listener.getsockname()[1]
    with Sandbox(dataclass_replace(sandbox.config, network=True, pool_size=1)) as sb:
        r = sb.run(NET_PROBE, files={"port": str(port)})
    if sandbox.config.docker_runtime == "runsc":
        assert "connect failed" in r.stdout, r
        return
    assert "connected" in r.stdout.replace("connect failed", ""), r
    conn, _ = listener.accept()
    assert conn.recv(16) == b"escaped"
    conn.close()


def test_cannot_kill_host_processes_or_see_other_processes(sandbox):
    """Only init (pid 1) and the program itself are visible (runc numbers the program 7, after its own setup
    processes; gVisor 2); the program can kill neither init nor a host process."""
    victim = subprocess.Popen(["sleep", "60"])
    try:
        code = src(
            f"""
            import os, signal
            for name, pid in [("victim", {victim.pid}), ("host", {os.getpid()}), ("init", 1)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                    print(name, "killed")
                except OSError as e:
                    print(name, type(e).__name__)
            print("visible", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()) == [1, os.getpid()])
            """
        )
        r = sandbox.run(code)
        assert r.ok, r
        assert "init PermissionError" in r.stdout and "visible True" in r.stdout, r.stdout
        assert "victim killed" not in r.stdout and "host killed" not in r.stdout
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()


def test_cannot_read_trace_or_forge_through_the_init(sandbox):
    """The program cannot read init's memory, trace it, or open init's status/report/spec descriptors (to
    forge a verdict or read the judge's data). gVisor lets /proc/1/environ be read: it holds the container's
    environment only, the same as the program's own."""
    code = src(
        """
        import ctypes, os
        for path in ["/proc/1/mem"] + [f"/proc/1/fd/{n}" for n in range(3, 16)]:
            for mode in (os.O_RDONLY, os.O_WRONLY):
                try:
                    os.close(os.open(path, mode))
                    print("opened", path, mode)
                except OSError:
                    pass
        libc = ctypes.CDLL(None, use_errno=True)
        print("ptrace", libc.ptrace(16, 1, 0, 0), ctypes.get_errno())
        try:
            print("environ", sorted(k.split(b"=")[0] for k in open("/proc/1/environ", "rb").read().split(b"\\0") if k))
        except OSError as e:
            print("environ", type(e).__name__)
        """
    )
    r = sandbox.run(code)
    assert "opened" not in r.stdout, r.stdout
    assert "ptrace -1 1" in r.stdout
    environ = r.stdout.split("environ ", 1)[1].strip()
    allowed = {
        "HOME",
        "HOSTNAME",
        "LANG",
        "PATH",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
        "TMPDIR",
        "USER",
    }
    assert environ == "PermissionError" or set(eval(environ)) <= {k.encode() for k in allowed}, environ


ECHO_JUDGE = "import os\nos.write(REPORT, DATA)\n"


def test_the_judge_gets_its_data_after_the_program_started(sandbox):
    """The judge's data reaches only the judge, over the container's stdin, intact however large (here more
    than a pipe holds), and is in no file of the container: /rlvr/in is root's."""
    data = secrets.token_bytes(3 << 20)
    program = src(
        """
        import os
        try:
            print(os.listdir("/rlvr/in"))
        except OSError as e:
            print("in", type(e).__name__)
        """
    )
    r = sandbox.run(program, judge=Judge(ECHO_JUDGE, data=data, max_report_bytes=4 << 20))
    assert r.judge_exit_code == 0 and r.judge_output == data
    assert r.stdout == "in PermissionError\n", r


def test_thief_steals_nothing(sandbox):
    """tests/test_code_verifier_thief.py's thief (stack frames, gc, /proc/*/mem, environ, files, inherited
    descriptors), on its sample of HumanEval problems, in the container: it scores what knowing nothing scores."""
    thief = pytest.importorskip("test_code_verifier_thief")
    v = CodeVerifier(CodeVerifierConfig(timeout_s=30.0, sandbox=sandbox.config))
    try:
        thief.check_thief(v, thief.SAMPLE[:5])
    finally:
        v.close()


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 3 x 164 containers: ~4 min (runc) to ~7 min (gVisor) on an idle 2-core machine
def test_thief_steals_nothing_on_all_164_problems(sandbox):
    thief = pytest.importorskip("test_code_verifier_thief")
    v = CodeVerifier(CodeVerifierConfig(timeout_s=30.0, sandbox=sandbox.config))
    try:
        thief.check_thief(v, list(thief.PROBLEMS))
    finally:
        v.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="the container's init drops privileges: needs root")
def test_container_init_without_docker(tmp_path, monkeypatch):
    """What the container runs (inside.py's source + docker.CONTAINER_MAIN), run here without Docker: the judge's
    data, written on init's stdin after b"S" as the backend does, reaches the judge intact and is in none of the
    run's files. (uid 0: this host's interpreter lives under /root, which uid 1000 could not read.)"""
    import marshal
    import sys
    import time

    from rlvr.verifiers.sandbox import docker as backend

    monkeypatch.setattr(backend, "UID", 0)
    monkeypatch.setattr(backend, "JUDGE_UID", 0)
    (tmp_path / "work").mkdir()
    token = secrets.token_hex(16).encode()
    runner = backend.DockerBackend(SandboxConfig(backend="docker", workdir=str(tmp_path / "work")))
    runner._write_inputs(
        tmp_path, "print(open('a.txt').read())\n", "", {"a.txt": b"x"}, 10.0, Judge(ECHO_JUDGE, token)
    )
    args = {"out_dir": str(tmp_path / "out"), "run_path": str(tmp_path / "in" / "run.bin")}
    boot = (
        f"import marshal;exec(compile(open({str(tmp_path / 'in' / 'inside.py')!r}).read(),'inside','exec'),"
        f"{{'__name__':'__rlvr_docker__','ARGS':marshal.loads({marshal.dumps(args, 4)!r})}})"
    )
    proc = subprocess.Popen([sys.executable, "-S", "-c", boot], stdin=subprocess.PIPE)
    status = tmp_path / "out" / "status"
    deadline = time.monotonic() + 30
    while not (status.exists() and status.read_bytes()[:1] == b"S") and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.stdin.write(token)
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert status.read_bytes()[:2] == b"SE"
    assert marshal.loads(status.read_bytes()[2:])["judge_exit"] == 0
    assert (tmp_path / "out" / "report").read_bytes() == token
    assert (tmp_path / "out" / "stdout").read_text() == "x\n"
    assert all(token not in f.read_bytes() for f in (tmp_path / "in").iterdir())
