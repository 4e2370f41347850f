"""Every verification has a deadline in every mode, and timeouts run in parallel (issue 16, item 9).

Driven as a user meets it: a user's module registers a verifier that hangs on model output and an env using
it; `rlvr train --import` runs one step with `env.verifier_workers` 0 and 2 and a 2 s timeout. The step must
end in about two timeouts (one to see the hang, one for the rest of the batch in parallel), far below the
batch's serial cost, with every rollout a `timeout` verdict (reward 0) that the error guard counts.
"""

from __future__ import annotations

import contextlib
import csv
import logging
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rlvr.cli import main as cli
from rlvr.core import ConfigError
from rlvr.core.types import Verdict
from rlvr.verifiers import Verifier, VerifierPool
from rlvr.verifiers.grading import AlarmDeadline, enforces_deadline, grading_pool

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 2.0

HANGING_MODULE = '''
import time

from rlvr.core import Example
from rlvr.envs import register_env
from rlvr.envs.registration import ENVS
from rlvr.tasks import ListTask, example_key
from rlvr.verifiers import verifier


@verifier("myns/hangs-on-model-output", overwrite=True)
def hangs(completion, reference):
    """Gold answers pass at once; anything else hangs (think of a regex that backtracks forever)."""
    if completion.strip() == f"\\\\boxed{{{reference}}}":
        return True
    time.sleep(3600)


def sums(n: int = 9) -> ListTask:
    examples = [
        Example(key=example_key("sums", f"Compute {a} + 1.", str(a + 1)), prompt=f"Compute {a} + 1.",
                reference=str(a + 1), task="sums")
        for a in range(1, n + 1)
    ]
    return ListTask("sums", examples, verifier_name="myns/hangs-on-model-output",
                    gold_fn=lambda ex: f"\\\\boxed{{{ex.reference}}}")


if "myns/HangingSums-v0" not in ENVS:
    register_env("myns/HangingSums-v0", task=sums, verifier="myns/hangs-on-model-output", template="plain-v0")
'''


@pytest.fixture
def hanging_module(tmp_path: Path) -> Path:
    path = tmp_path / "my_hanging_verifier.py"
    path.write_text(HANGING_MODULE)
    yield path
    from rlvr.envs.registration import unregister_env

    unregister_env("myns/HangingSums-v0")
    sys.modules.pop(f"rlvr_user_{path.stem}", None)  # the next test loads the file afresh


@pytest.mark.parametrize("workers", [0, 2])
def test_a_hanging_user_verifier_costs_about_two_timeouts_per_step(
    workers: int, hanging_module: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / f"run{workers}"
    argv = [
        "train",
        str(ROOT / "configs/default.yaml"),
        "--import",
        str(hanging_module),
        "env.id=myns/HangingSums-v0",
        "env.kwargs={}",
        f"env.verifier_workers={workers}",
        f"env.verifier_timeout_s={TIMEOUT_S}",
        "env.max_verifier_error_rate=1.0",  # let the step finish so its metrics can be read
        f"train.output_dir={out}",
        "train.steps=1",
        "rollout.prompts_per_step=4",
        "rollout.group_size=4",  # 16 completions: 16 (workers=0) or 8 (workers=2) timeouts if serial
        "rollout.max_new_tokens=8",
        "train.batch_size=16",
        "buffer.capacity=16",
        "learner.micro_batch_size=16",
        "eval.every=0",
        "train.checkpoint_every=0",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
    ]
    with caplog.at_level(logging.WARNING, logger="rlvr.train"):
        assert cli(argv) == 0
    row = next(csv.DictReader((out / "metrics.csv").open()))
    assert float(row["rollout/count"]) == 16
    assert float(row["rollout/reason_timeout"]) == 1.0 and float(row["rollout/reward_mean"]) == 0.0
    serial = 16 / max(1, workers) * TIMEOUT_S
    verify_s = float(row["rollout/verify_s"])
    # one timeout to see the hang, one for the rest in parallel, and worker start-up on a loaded machine
    assert verify_s < 3 * TIMEOUT_S + 4, f"grading took {verify_s:.1f}s"
    assert verify_s < serial, f"grading took {verify_s:.1f}s, as long as serial timeouts ({serial:.0f}s)"
    # the guard counted them as verifier failures, and said why
    warned = [r.getMessage() for r in caplog.records if "passed its deadline on" in r.getMessage()]
    assert len(warned) == 1 and "on 16 of 16 completions" in warned[0]
    assert f"did not return within env.verifier_timeout_s={TIMEOUT_S}" in warned[0]


def test_the_guard_stops_a_run_whose_verifier_hangs(hanging_module: Path, tmp_path: Path, capsys) -> None:
    argv = [
        "train",
        str(ROOT / "configs/default.yaml"),
        "--import",
        str(hanging_module),
        "env.id=myns/HangingSums-v0",
        "env.kwargs={}",
        "env.verifier_timeout_s=1",
        f"train.output_dir={tmp_path / 'run'}",
        "train.steps=3",
        "rollout.prompts_per_step=2",
        "rollout.group_size=2",
        "rollout.max_new_tokens=4",
        "train.batch_size=4",
        "buffer.capacity=8",
        "learner.micro_batch_size=4",
        "eval.every=0",
        "train.checkpoint_every=0",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
    ]
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert "the verifier failed (raised, returned a wrong type or timed out) on 4 of the last 4" in err


# -- the pool: parallel timeouts without false ones -----------------------------------------------------------


class Sleeper(Verifier):
    """Sleeps as long as the completion says (`sleep:S`), then passes."""

    def verify(self, completion: str, reference: Any) -> Verdict:
        time.sleep(float(completion.split(":")[1]))
        return Verdict.correct()


def test_a_batch_that_hangs_everywhere_times_out_in_parallel() -> None:
    timeout, jobs = 1.5, 12
    serial = jobs * timeout  # one worker, one timeout after the other: what this replaces
    with VerifierPool(Sleeper(), num_workers=1, timeout_s=timeout) as pool:
        pool.verify("sleep:0", 0)  # the worker is up: what follows measures grading, not the first start-up
        t0 = time.monotonic()
        verdicts = pool.verify_batch([("sleep:3600", i) for i in range(jobs)])
        took = time.monotonic() - t0
        assert all(v.reason == "timeout" and v.details["verifier_timeout"] for v in verdicts)
        # two timeouts (see the hang, then all the rest at once) plus the start-up of 11 workers
        assert took < serial / 2, f"{took:.1f}s; serial timeouts take {serial:.0f}s"
        assert pool.stats["peak_workers"] == jobs - 1  # the queued jobs got workers of their own
        assert pool.verify("sleep:0", 0).passed  # and the pool goes on with a fresh worker


def test_a_slow_but_working_verifier_is_never_failed_for_waiting() -> None:
    # one worker: a hung job first, then jobs that each need 0.3 s; none of them may become a `timeout`
    # for the time it spent queued behind the hang (the reason jobs are not expired from submission)
    with VerifierPool(Sleeper(), num_workers=1, timeout_s=1.0) as pool:
        verdicts = pool.verify_batch([("sleep:3600", 0)] + [("sleep:0.3", i) for i in range(6)])
        assert [v.reason for v in verdicts] == ["timeout"] + ["correct"] * 6
        # they ran in parallel once the hang was seen; the extra workers then retire
        assert pool.stats["peak_workers"] > 1
        deadline = time.monotonic() + 10
        while len(pool._workers) > 1 and time.monotonic() < deadline:
            pool.verify("sleep:0", 0)
            time.sleep(0.1)
        assert len(pool._workers) == 1


# -- without workers: which verifier runs where ---------------------------------------------------------------


def _sleep_forever(completion: str, reference: Any) -> bool:
    time.sleep(3600)
    return True


def test_without_workers_only_self_bounded_verifiers_run_in_process() -> None:
    from rlvr.verifiers import FunctionVerifier, MathVerifier
    from rlvr.verifiers.rubric import BoxedFormat, RegexFormat, Rubric

    assert grading_pool(MathVerifier(), 0, TIMEOUT_S) is None
    assert enforces_deadline(Rubric([("c", MathVerifier(), 1.0), ("b", BoxedFormat(), 0.1)]))
    assert not enforces_deadline(Rubric([("c", MathVerifier(), 1.0), ("r", RegexFormat("(a+)+$"), 0.1)]))
    user = FunctionVerifier(_sleep_forever, "sleepy")  # module-level: picklable, so a killable worker
    pool = grading_pool(user, 0, TIMEOUT_S)
    assert isinstance(pool, VerifierPool) and pool.num_workers == 1
    with pool:
        verdict = pool.verify("x", "y")
    assert verdict.reason == "timeout" and verdict.details["verifier_timeout"]


def test_an_unpicklable_verifier_gets_an_alarm_deadline_in_process() -> None:
    from rlvr.verifiers import FunctionVerifier

    def swallowing(completion: str, reference: Any) -> bool:  # a closure: cannot go to a worker
        while True:
            with contextlib.suppress(Exception):  # swallows what it can; the deadline is no Exception
                time.sleep(3600)

    guarded = grading_pool(FunctionVerifier(swallowing, "closure"), 0, 0.5)
    assert isinstance(guarded, AlarmDeadline)
    t0 = time.monotonic()
    verdict = guarded.verify("x", "y")
    assert time.monotonic() - t0 < 2
    assert verdict.reason == "timeout" and verdict.details == {
        "timeout_s": 0.5,
        "verifier_timeout": True,
        "in_process": True,
    }
    fine = AlarmDeadline(FunctionVerifier(lambda c, r: c == r, "eq"), 0.5)
    assert fine.verify("a", "a").passed
    time.sleep(0.7)  # the timer is off after a call: nothing fires later
    assert fine.verify("a", "b").reason == "wrong"


def test_a_verifier_that_hangs_on_gold_answers_is_refused_at_make(hanging_module: Path) -> None:
    from rlvr.core.registry import import_user_modules
    from rlvr.envs import make_env
    from rlvr.envs.registration import _check_user_verifier
    from rlvr.verifiers import FunctionVerifier

    import_user_modules([str(hanging_module)])
    env = make_env("myns/HangingSums-v0")  # its gold answers pass at once, so make checks and accepts it
    with pytest.raises(ConfigError, match=r"did not return within 0.5 s on the gold answer"):
        _check_user_verifier("myns/X-v0", env.task, FunctionVerifier(_sleep_forever, "user"), timeout_s=0.5)


@pytest.mark.timeout(90)
def test_a_single_env_step_and_rlvr_verify_keep_the_deadline(
    hanging_module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Outside training too: `env.step` of a plain Gymnasium env and `rlvr verify NAME` end a hanging verifier."""
    import gymnasium as gym

    from rlvr.core.registry import import_user_modules

    import_user_modules([str(hanging_module)])
    env = gym.make("myns/HangingSums-v0", verifier_timeout_s=1.0)
    try:
        env.reset(seed=0)
        t0 = time.monotonic()
        _, reward, terminated, _, info = env.step("I think it is 7")
        elapsed = time.monotonic() - t0
        assert terminated and reward == 0.0 and info["verdict"].reason == "timeout", info["verdict"]
        assert info["verdict"].details.get("verifier_timeout") is True
        assert elapsed < 1.0 + 10, f"step took {elapsed:.1f}s"  # the timeout plus one worker start-up
        env.reset(seed=0)
        _, reward, *_ = env.step(env.unwrapped.task.gold_completion(env.unwrapped.example))
        assert reward == 1.0  # the same worker grades the next step
    finally:
        env.close()
    argv = ["verify", "myns/hangs-on-model-output", "seven", "7", "--import", str(hanging_module),
            "--timeout", "1", "--json"]  # fmt: skip
    t0 = time.monotonic()
    assert cli(argv) == 0
    assert time.monotonic() - t0 < 1.0 + 10
    assert '"reason": "timeout"' in capsys.readouterr().out
