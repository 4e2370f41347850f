"""The batched rollout API for GRPO: P prompts x G completions graded together, single- and multi-turn."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import rlvr
from rlvr.core import ConfigError, Example, Verdict
from rlvr.envs import BatchedEnv, unregister_env
from rlvr.tasks import ListTask, example_key, fixture_path


def test_group_rollout_shapes_rewards_and_examples() -> None:
    benv = BatchedEnv("rlvr/Countdown-v0", group_size=4)
    batch = benv.reset(num_prompts=3, seed=0)
    assert len(batch) == 3 and batch.group_size == 4 and len(set(batch.keys)) == 3
    assert all(ex.prompt in obs for ex, obs in zip(batch.examples, batch.observations))
    task = benv.task
    completions = [
        [task.gold_completion(ex), "no answer", "<answer>1+1</answer>", task.gold_completion(ex)]
        for ex in batch.examples
    ]
    out = benv.step(completions)
    assert out.rewards.shape == (3, 4) and out.rewards.dtype == np.float64
    assert np.array_equal(out.rewards, np.tile([1.0, 0.0, 0.0, 1.0], (3, 1)))
    assert out.all_done and out.terminated.all() and not out.truncated.any()
    assert out.keys == batch.keys and out.examples == batch.examples
    assert [v.reason for v in out.verdicts[0]] == ["correct", "no_answer", "wrong", "correct"]
    assert np.array_equal(out.passed, out.rewards == 1.0) and np.array_equal(out.scores, out.rewards)
    assert out.infos[1][0]["example_key"] == batch.keys[1]
    trajs = benv.trajectories()
    assert trajs[2][3].reward == 1.0 and trajs[2][3].example_key == batch.keys[2]
    assert trajs[0][1].turns[0].action == "no answer" and trajs[0][1].final_verdict.reason == "no_answer"
    assert np.array_equal(benv.episode_rewards(), out.rewards)


def test_prompts_come_in_seeded_epochs() -> None:
    benv = BatchedEnv("rlvr/Arithmetic-v0", group_size=2, size=10)
    first = benv.reset(4, seed=1).keys + benv.reset(4).keys + benv.reset(2).keys
    assert sorted(first) == sorted(benv.task.keys())  # one epoch: every example exactly once
    again = BatchedEnv("rlvr/Arithmetic-v0", group_size=2, size=10)
    assert again.reset(4, seed=1).keys == first[:4]
    assert again.reset(4, seed=2).keys != first[:4]


def test_explicit_examples_and_shape_errors() -> None:
    benv = BatchedEnv("rlvr/Countdown-v0", group_size=2)
    chosen = [benv.task[5], benv.task[5], benv.task[9]]
    batch = benv.reset(examples=chosen)
    assert batch.examples == tuple(chosen)
    with pytest.raises(ConfigError, match=r"3 lists of 2 completions.*\[2, 2\]"):
        benv.step([["a", "b"], ["c", "d"]])
    with pytest.raises(ConfigError, match="needs a completion string"):
        benv.step([["a", None], ["c", "d"], ["e", "f"]])
    out = benv.step([["a", "b"], ["c", "d"], ["e", "f"]])
    assert out.all_done
    with pytest.raises(ConfigError, match="is done; pass None"):
        benv.step([["a", "b"], ["c", "d"], ["e", "f"]])
    with pytest.raises(ConfigError, match="num_prompts >= 1"):
        benv.reset()
    with pytest.raises(ConfigError, match="group_size"):
        BatchedEnv("rlvr/Countdown-v0", group_size=0)
    with pytest.raises(ConfigError, match="call reset"):
        BatchedEnv("rlvr/Countdown-v0").step([])


def test_batched_equals_single_env_results() -> None:
    """Batching changes how grading is scheduled, not its results."""
    import gymnasium as gym

    benv = BatchedEnv("rlvr/MATH500-v0", group_size=3, path=str(fixture_path("math500")))
    batch = benv.reset(num_prompts=4, seed=3)
    completions = [[f"\\boxed{{{ex.reference}}}", "\\boxed{0}", "I give up"] for ex in batch.examples]
    out = benv.step(completions)
    env = gym.make("rlvr/MATH500-v0", path=str(fixture_path("math500")))
    for p, ex in enumerate(batch.examples):
        for g in range(3):
            env.reset(options={"example": ex})
            _, reward, *_, info = env.step(completions[p][g])
            assert reward == out.rewards[p, g] and info["verdict"].reason == out.verdicts[p][g].reason
    assert out.rewards[:, 0].tolist() == [1.0] * 4 and out.rewards[:, 2].tolist() == [0.0] * 4


def test_verifier_pool_grades_in_parallel_processes() -> None:
    with BatchedEnv(
        "rlvr/GSM8K-v0", group_size=2, num_workers=2, timeout_s=30, path=str(fixture_path("gsm8k"))
    ) as benv:
        assert benv.pool is not None
        batch = benv.reset(num_prompts=10, seed=0)
        out = benv.step([[f"#### {ex.reference}", "#### -1"] for ex in batch.examples])
    assert out.rewards[:, 0].tolist() == [1.0] * 10 and out.rewards[:, 1].tolist() == [0.0] * 10


@pytest.fixture
def retry_env_id() -> Iterator[str]:
    examples = [Example(example_key("word", w, w), f"Say {w}", w, "word") for w in ("cat", "dog")]
    env_id = "test/WordRetry-v0"
    rlvr.register_env(
        env_id,
        task=ListTask("word", examples, verifier_name="countdown"),
        verifier=lambda completion, ref: (
            Verdict.correct() if completion == ref else Verdict.fail("wrong", error="no")
        ),
        max_turns=2,
        feedback_template="retry-feedback-v0",
    )
    yield env_id
    unregister_env(env_id)


def test_multi_turn_batched_loop(retry_env_id: str) -> None:
    benv = BatchedEnv(retry_env_id, group_size=3, chat=True)
    batch = benv.reset(examples=list(benv.task))
    words = [ex.reference for ex in batch.examples]
    out = benv.step([[w, "x", "x"] for w in words])
    assert not out.all_done
    assert out.terminated[:, 0].all() and not out.done[:, 1:].any()
    assert out.observations[0][0] is None and out.observations[0][1][-1]["role"] == "user"
    out = benv.step([[None, w, "y"] for w in words])
    assert out.all_done
    assert out.verdicts[0][0] is None and np.isnan(out.scores[0, 0])
    assert out.terminated[:, 1].all() and out.truncated[:, 2].all() and not out.terminated[:, 2].any()
    assert benv.episode_rewards().tolist() == [[1.0, 1.0, 0.0]] * 2
    traj = benv.trajectories()[1][1]
    assert [t.action for t in traj.turns] == ["x", words[1]] and traj.terminated and not traj.truncated
    assert traj.turns[1].observation[-1]["content"].startswith("That is not correct")
