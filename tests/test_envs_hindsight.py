"""The buffer's hindsight callables built from a goal-conditioned env (Countdown)."""

from __future__ import annotations

import gymnasium as gym
import pytest

from rlvr.core import ConfigError, Example, Rollout
from rlvr.envs import register_env, unregister_env
from rlvr.envs.hindsight import hindsight_fns
from rlvr.tasks import ListTask, example_key


def _tokenize(prompt: str) -> list[int]:
    return [ord(c) % 1000 for c in prompt]


def _rollout(env: gym.Env, completion: str, **metadata: object) -> Rollout:
    ex = env.unwrapped.example
    verdict = env.unwrapped.verifier.verify(completion, ex.reference)
    return Rollout(
        ex.key,
        "p",
        completion,
        [1, 2],
        [3, 4],
        [-0.5, -0.5],
        verdict,
        reward=float(verdict.score),
        goal=ex.goal,
        metadata=metadata,
    )


def test_failed_countdown_rollout_is_relabeled_into_a_success() -> None:
    env = gym.make("rlvr/Countdown-v0", size=100)
    _, info = env.reset(seed=4)
    ex = info["example"]
    a, b = ex.metadata["numbers"][:2]
    completion = f"I tried.\n<answer>{a} * {b}</answer>"
    if a * b == ex.goal:  # pragma: no cover - make sure the rollout really failed
        completion = f"<answer>{a} + {b}</answer>"
    rollout = _rollout(env, completion)
    assert not rollout.correct
    achieved_goal, relabel = hindsight_fns(env, _tokenize)
    goal = achieved_goal(rollout)
    assert goal in (a * b, a + b) and goal != ex.goal
    new = relabel(rollout, goal)
    assert new.relabeled and new.correct and new.reward == 1.0 and new.goal == goal
    assert new.example_key != rollout.example_key and new.metadata["relabeled_from"] == rollout.example_key
    assert f"equals {goal}." in new.prompt and list(new.prompt_ids) == _tokenize(new.prompt)
    # the completion, its tokens and behaviour log-probs are untouched
    assert new.completion == rollout.completion and list(new.completion_ids) == [3, 4]
    # the Example may travel in the rollout's metadata instead of being looked up by key
    carried = _rollout(env, completion, example=ex)
    assert achieved_goal(carried) == goal
    assert achieved_goal(_rollout(env, "no expression")) is None


def test_hindsight_needs_a_goal_conditioned_verified_env() -> None:
    examples = [Example(example_key("plain", "q", "a"), "q", "a", "plain")]
    register_env(
        "test/Plain-v0",
        task=ListTask("plain", examples, verifier_name="countdown"),
        verifier=lambda c, r: c == r,
    )
    try:
        with pytest.raises(ConfigError, match="not goal-conditioned"):
            hindsight_fns(gym.make("test/Plain-v0"), _tokenize)
    finally:
        unregister_env("test/Plain-v0")
    with pytest.raises(ConfigError, match="VerifiedEnv"):
        hindsight_fns(object(), _tokenize)


def test_relabeled_reward_uses_the_env_reward_function() -> None:
    register_env(
        "test/CountdownHalf-v0", task="countdown", template="countdown-v0", reward=lambda v, e: 0.5 * v.score
    )
    try:
        env = gym.make("test/CountdownHalf-v0")
        _, info = env.reset(seed=0)
        n = info["example"].metadata["numbers"]
        rollout = _rollout(env, f"<answer>{n[0]} + {n[1]}</answer>")
        achieved_goal, relabel = hindsight_fns(env, _tokenize)
        assert relabel(rollout, achieved_goal(rollout)).reward == 0.5
    finally:
        unregister_env("test/CountdownHalf-v0")
