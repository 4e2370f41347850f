"""The sandbox from Ray actors: each actor process gets its own pool, with machine-wide distinct slots."""

from __future__ import annotations

import os

import pytest

from rlvr.verifiers.code import CodeTests, CodeVerifier
from rlvr.verifiers.sandbox import Sandbox, SandboxConfig

ray = pytest.importorskip("ray")
pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root"),
    pytest.mark.slow,  # starting Ray takes ~10-20 s
]


def test_actors_run_sandboxed_programs_concurrently(ray_local):
    @ray.remote
    class Runner:
        def __init__(self, sandbox: Sandbox, verifier: CodeVerifier) -> None:
            self.sandbox, self.verifier = sandbox, verifier  # both arrive pickled as their configs

        def run(self, i: int) -> tuple[str, str, bool]:
            r = self.sandbox.run(f"import os\nprint({i} * {i}, os.getuid())")
            tests = CodeTests.from_asserts([f"assert sq({i}) == {i * i}"])
            verdict = self.verifier.verify("def sq(x):\n    return x * x", tests)
            return r.stdout.split()[0], r.stdout.split()[1], verdict.passed

        def close(self) -> None:
            self.sandbox.close()
            self.verifier.close()

    sandbox = Sandbox(SandboxConfig(pool_size=2))
    verifier = CodeVerifier(sandbox=None)
    actors = [Runner.remote(sandbox, verifier) for _ in range(2)]
    results = ray.get([actors[i % 2].run.remote(i) for i in range(8)])
    ray.get([a.close.remote() for a in actors])
    sandbox.close()
    assert [int(sq) for sq, _, _ in results] == [i * i for i in range(8)]
    assert all(passed for _, _, passed in results)
    uids_by_actor = [{uid for j, (_, uid, _) in enumerate(results) if j % 2 == a} for a in range(2)]
    assert not uids_by_actor[0] & uids_by_actor[1]  # the two actor processes never share a slot uid
