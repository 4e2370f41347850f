"""The multi-turn feedback env: retries, feedback observations, final vs best reward, terminated vs truncated."""

from __future__ import annotations

from collections.abc import Iterator

import gymnasium as gym
import pytest

import rlvr
from rlvr.core import ConfigError, Example, Verdict
from rlvr.envs import describe_verdict, unregister_env
from rlvr.tasks import ListTask, example_key


@pytest.fixture
def partial_env_id() -> Iterator[str]:
    """A retry env whose verifier gives partial credit: the fraction of the reference's letters present."""

    def letters(completion: str, reference: str) -> Verdict:
        score = sum(c in completion for c in reference) / len(reference)
        if score == 1.0:
            return Verdict.correct()
        return Verdict.fail(
            "wrong_answer", score=score, error=f"missing {[c for c in reference if c not in completion]}"
        )

    examples = [Example(example_key("letters", w, w), f"Say {w}", w, "letters") for w in ("abcd", "wxyz")]
    env_id = "test/Letters-v0"
    rlvr.register_env(
        env_id,
        task=ListTask("letters", examples, verifier_name="countdown"),
        verifier=letters,
        max_turns=3,
        feedback_template="retry-feedback-v0",
    )
    yield env_id
    unregister_env(env_id)


def test_success_on_a_retry_terminates_with_final_reward(partial_env_id: str) -> None:
    env = gym.make(partial_env_id, chat=True)
    obs, info = env.reset(options={"index": 0})
    assert info["turn"] == 0 and obs == ({"role": "user", "content": "Say abcd"},)
    obs, reward, terminated, truncated, info = env.step("ab")
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["turn"] == 1 and info["score"] == 0.5 and info["attempt_rewards"] == [0.5]
    assert obs[1] == {"role": "assistant", "content": "ab"}
    assert obs[2]["role"] == "user" and "missing ['c', 'd']" in obs[2]["content"]
    assert obs[2]["content"].startswith("That is not correct (") and obs[2]["content"].endswith(
        "Please try again."
    )
    obs, reward, terminated, truncated, info = env.step("abcd")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["turn"] == 2 and info["passed"]


@pytest.mark.parametrize(("mode", "expected"), [("final", 0.25), ("best", 0.75)])
def test_out_of_turns_truncates_with_final_or_best_reward(
    partial_env_id: str, mode: str, expected: float
) -> None:
    env = gym.make(partial_env_id, reward_mode=mode)
    obs, _ = env.reset(options={"index": 1})
    rewards = []
    for attempt in ("wx", "wxy", "w"):
        obs, reward, terminated, truncated, info = env.step(attempt)
        rewards.append(reward)
    assert rewards[:2] == [0.0, 0.0] and rewards[2] == expected
    assert (terminated, truncated) == (False, True)
    assert info["attempt_rewards"] == [0.5, 0.75, 0.25]
    # text mode: the observation is the whole conversation as text
    assert obs.startswith("Say wxyz\n\nwx\n\nThat is not correct")
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step("wxyz")


def test_feedback_env_options_are_checked(partial_env_id: str) -> None:
    with pytest.raises(ConfigError, match="reward_mode"):
        gym.make(partial_env_id, reward_mode="mean")
    with pytest.raises(ConfigError, match="max_turns"):
        gym.make(partial_env_id, max_turns=0)
    with pytest.raises(ConfigError, match="feedback"):
        gym.make(partial_env_id, feedback_template="no placeholder")
    env = gym.make(partial_env_id, feedback_template="Wrong: {feedback}", max_turns=2)
    env.reset(options={"index": 0})
    obs, *_ = env.step("a")
    assert "\n\nWrong: Result: wrong answer (score 0.25)." in obs


def test_describe_verdict_lists_failing_tests() -> None:
    verdict = Verdict.fail(
        "wrong_answer",
        score=0.5,
        tests=[
            {"name": "t1", "status": "passed"},
            {"name": "t2", "status": "failed", "error": "AssertionError", "output": "x" * 1000},
        ],
    )
    text = describe_verdict(verdict)
    assert "1 of 2 tests passed." in text and "- test t2: AssertionError: " in text
    assert "(truncated)" in text and len(text) < 2000


def test_humaneval_feedback_env_with_the_sandbox() -> None:
    env = gym.make("rlvr/HumanEvalFeedback-v0")
    obs, info = env.reset(options={"index": 0})
    ex = info["example"]
    assert obs[0]["role"] == "user" and ex.prompt in obs[0]["content"]
    wrong = "```python\n" + ex.prompt + "    return False\n```"
    obs, reward, terminated, truncated, info = env.step(wrong)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert not info["passed"] and len(obs) == 3
    assert obs[2]["content"].startswith("Your code did not pass the tests.")
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.task.gold_completion(ex))
    assert (reward, terminated, truncated) == (1.0, True, False)
