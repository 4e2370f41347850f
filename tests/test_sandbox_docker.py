"""The Docker backend: same interface and guarantees; skipped when no Docker daemon answers."""

from __future__ import annotations

import pytest

from rlvr.core.errors import SandboxError
from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig
from rlvr.verifiers.sandbox import Sandbox, SandboxConfig


def _daemon_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


HAVE_DOCKER = _daemon_answers()
needs_docker = pytest.mark.skipif(not HAVE_DOCKER, reason="no Docker daemon answers on this machine")


def test_without_a_daemon_the_error_names_the_fix():
    if HAVE_DOCKER:
        pytest.skip("a Docker daemon is available here")
    sb = Sandbox(SandboxConfig(backend="docker"))
    with pytest.raises(SandboxError, match="Docker daemon"):
        sb.run("print(1)")


@pytest.fixture(scope="module")
def docker_sandbox():
    sb = Sandbox(SandboxConfig(backend="docker", pool_size=2, timeout_s=10.0))
    yield sb
    sb.close()


@needs_docker
def test_docker_runs_a_program(docker_sandbox):
    r = docker_sandbox.run("import sys\nprint(sys.stdin.read().upper())\n", stdin="hi", files={"a.txt": "x"})
    assert r.ok and r.stdout == "HI\n"


@needs_docker
def test_docker_timeout_memory_and_network(docker_sandbox):
    loop = docker_sandbox.run(
        "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: pass\n", timeout_s=2
    )
    assert loop.timed_out
    hog = docker_sandbox.run("x = b'a' * (1 << 30)\n", memory_mb=128)
    assert hog.memory_exceeded
    net = docker_sandbox.run(
        "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n    print('net')\n"
        "except OSError:\n    print('no net')\n"
    )
    assert net.stdout == "no net\n"


@needs_docker
def test_docker_code_verifier_with_judge():
    v = CodeVerifier(CodeVerifierConfig(sandbox=SandboxConfig(backend="docker", pool_size=1)))
    try:
        tests = CodeTests.from_asserts(["assert add(1, 2) == 3", "assert add(2, 2) == 5"])
        verdict = v.verify("```python\ndef add(a, b):\n    return a + b\n```", tests)
    finally:
        v.close()
    assert verdict.score == 0.5 and verdict.reason == "wrong_answer"


def test_in_container_launcher_runs_a_judged_program(tmp_path):
    """What the container executes (inside.docker_main), run here without Docker: a judged program with a
    source-shipped judge and format-4 marshal payloads, as for an image with another Python version."""
    import marshal
    import subprocess
    import sys

    from rlvr.verifiers.code.verifier import _sources
    from rlvr.verifiers.sandbox import docker as backend

    work, out, inp = tmp_path / "work", tmp_path / "out", tmp_path / "in"
    for d in (work, out, inp):
        d.mkdir()
    judge_source, server_source = _sources()
    spec = {"program": "def add(a, b):\n    return a + b\n", "setup": [], "max_chars": 100,
            "steps": [["test", "assert add(1, 2) == 3", "t1"], ["test", "assert add(1, 1) == 3", "t2"]],
            "functions": [["add", "add"]]}  # fmt: skip
    # uid 0: on this host the interpreter lives under /root, which the container's uids could not read
    box = {"network": False, "workdir": str(work), "disk_mb": 8, "uid": 0, "gid": 0, "judge_uid": 0}
    run = {"code": "SOLUTION_PATH = 'solution.py'\nMODULE_NAME = 'solution'\n" + server_source, "stdin": b"",
           "files": {"solution.py": spec["program"].encode()}, "workdir": str(work), "box": box, "env": {},
           "python_paths": [], "rlimits": {"RLIMIT_CPU": (10, 11)},
           "judge": {"kind": "source", "code": judge_source.encode(), "data": marshal.dumps(spec),
                     "rlimits": {"RLIMIT_NPROC": 1}}}  # fmt: skip
    (inp / "run.bin").write_bytes(marshal.dumps(run, 4))
    args = {"mode": "docker", "out_dir": str(out), "run_path": str(inp / "run.bin")}
    (inp / "inside.py").write_text(backend.inside_source())
    boot = (
        f"import marshal;exec(compile(open({str(inp / 'inside.py')!r}).read(),'inside','exec'),"
        f"{{'__name__':'__rlvr_inside__','ARGS':marshal.loads({marshal.dumps(args, 4)!r})}})"
    )
    subprocess.run([sys.executable, "-S", "-c", boot], check=True, timeout=60)
    assert (out / "status").read_bytes()[:2] == b"SE"
    report = (out / "report").read_text()
    assert '"index": 0, "name": "t1", "status": "passed"' in report
    assert '"index": 1, "name": "t2", "status": "failed"' in report
