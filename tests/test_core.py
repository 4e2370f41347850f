"""Core records, registry, seeding and advantage estimators."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest

from rlvr.core import (
    ADVANTAGES,
    Example,
    Reason,
    Registry,
    RegistryError,
    Rollout,
    Trajectory,
    Turn,
    Verdict,
    derive_seed,
    make_rng,
    stable_hash,
)


def test_verdict_validates_score() -> None:
    assert Verdict.correct(answer="2").passed
    assert Verdict.fail(Reason.WRONG).reason == "wrong"
    for bad in (-0.1, 1.5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="score"):
            Verdict(bad, False, "wrong")
    v = Verdict(0.5, False, Reason.WRONG_ANSWER, {"n": 2})
    with pytest.raises(AttributeError):
        v.score = 1.0  # type: ignore[misc]


def test_rollout_is_frozen_and_checked() -> None:
    r = Rollout("k", "p", "c", [1, 2], [3, 4, 5], [-0.1, -0.2, -0.3], Verdict.correct(), reward=1.0)
    assert r.completion_ids.dtype == np.int64 and r.behaviour_logprobs.dtype == np.float32
    assert r.num_tokens == 3 and r.correct
    with pytest.raises(ValueError, match="read-only"):
        r.completion_ids[0] = 9
    with pytest.raises(ValueError, match="one behaviour log-prob per completion token"):
        Rollout("k", "p", "c", [1], [3, 4], [-0.1], Verdict.correct(), reward=1.0)
    with pytest.raises(ValueError, match="finite"):
        Rollout("k", "p", "c", [1], [3], [-0.1], Verdict.correct(), reward=float("nan"))


def test_trajectory_final_verdict() -> None:
    t = Trajectory(
        "k", (Turn("o", "a", 0.0, Verdict.fail("wrong")), Turn("o2", "a2", 1.0, None)), 1.0, True, False
    )
    assert t.final_verdict == Verdict.fail("wrong")
    assert t.terminated and not t.truncated
    assert Example("k", "p", "2", "t").goal is None


def test_registry_register_get_lazy_and_errors() -> None:
    reg: Registry[object] = Registry("widget", versioned=True)

    @reg.register("me/Thing-v0")
    def thing() -> int:
        return 1

    assert reg.get("me/Thing-v0") is thing
    reg.register("me/Lazy-v1", "rlvr.core.seeding:stable_hash")
    assert reg.get("me/Lazy-v1") is stable_hash
    assert reg.names() == ["me/Lazy-v1", "me/Thing-v0"]
    with pytest.raises(RegistryError, match="already registered"):
        reg.register("me/Thing-v0", object())
    with pytest.raises(RegistryError, match="namespace/Name-vN"):
        reg.register("NoVersion", object())
    with pytest.raises(RegistryError, match="unknown widget 'me/Nope-v0'"):
        reg.get("me/Nope-v0")
    reg.register("me/Broken-v0", "rlvr.core.nope:x")
    with pytest.raises(RegistryError, match="cannot import"):
        reg.get("me/Broken-v0")


def test_registry_is_thread_safe() -> None:
    reg: Registry[int] = Registry("num")
    threads = [
        threading.Thread(target=lambda i=i: [reg.register(f"n{i}_{j}", j) for j in range(200)])
        for i in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(reg) == 1600


def test_stable_hash_across_processes() -> None:
    obj = {"b": [1, 2, {"x": 1.5}], "a": "é"}
    code = "from rlvr.core import stable_hash; print(stable_hash({'a': 'é', 'b': [1, 2, {'x': 1.5}]}))"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    assert other.stdout.strip() == stable_hash(obj)
    assert stable_hash(obj) != stable_hash({"a": "e", "b": [1, 2, {"x": 1.5}]})


def test_seeded_rngs_repeat_and_differ() -> None:
    assert make_rng(3, "worker", 1).integers(1 << 30) == make_rng(3, "worker", 1).integers(1 << 30)
    assert derive_seed(3, "a") != derive_seed(3, "b")


def test_advantage_estimators() -> None:
    r = [1.0, 0.0, 0.0, 1.0]
    np.testing.assert_allclose(ADVANTAGES.get("grpo")(r), [1, -1, -1, 1], atol=1e-5)
    np.testing.assert_allclose(ADVANTAGES.get("dr_grpo")(r), [0.5, -0.5, -0.5, 0.5])
    np.testing.assert_allclose(ADVANTAGES.get("rloo")(r), [1 - 1 / 3, -2 / 3, -2 / 3, 1 - 1 / 3])
    np.testing.assert_allclose(ADVANTAGES.get("grpo")([1.0, 1.0]), [0.0, 0.0])
