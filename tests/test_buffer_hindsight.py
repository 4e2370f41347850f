"""Hindsight relabeling in the buffer, on the real Countdown task and its real verifier."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlvr.envs  # noqa: F401  (registers rlvr/Countdown-v0)
from rlvr.buffer import BufferConfig, HindsightConfig, ReplayBuffer, ShardedReplayBuffer
from rlvr.core import ADVANTAGES, Example, Rollout, make_rng
from rlvr.envs.hindsight import hindsight_fns
from rlvr.verifiers.countdown import CountdownProblem, CountdownVerifier


def tokenize(prompt: str) -> list[int]:
    return list(prompt.encode("utf-8"))  # a byte-level tokenizer (ByT5-style)


def completions_for(ex: Example) -> list[str]:
    """One gold answer and several wrong ones that reach other values (a generation group of 6)."""
    a, b, c = ex.metadata["numbers"][:3]
    return [
        f"<answer>{ex.metadata['solution']}</answer>",
        f"<answer>{a} + {b}</answer>",
        f"<answer>{a} * {b}</answer>",
        f"<answer>{a} + {b} + {c}</answer>",
        "I give up.",  # reaches nothing: cannot be relabeled
        f"<answer>{a} + {b}</answer>",  # the same value as rollout 1
    ]


def group(env: gym.Env, seed: int, version: int = 3) -> list[Rollout]:
    """A GRPO group for one Countdown prompt, graded by the env's verifier, advantages frozen at generation."""
    _, info = env.reset(seed=seed)
    ex: Example = info["example"]
    verdicts = [env.unwrapped.verifier.verify(c, ex.reference) for c in completions_for(ex)]
    rewards = [v.score for v in verdicts]
    advantages = ADVANTAGES.get("grpo")(rewards)
    return [
        Rollout(
            example_key=ex.key,
            prompt=env.unwrapped.template.render_text(ex),
            completion=c,
            prompt_ids=tokenize(env.unwrapped.template.render_text(ex)),
            completion_ids=tokenize(c),
            behaviour_logprobs=[-0.25] * len(tokenize(c)),
            verdict=v,
            reward=float(v.score),
            advantage=float(adv),
            group_id=f"{ex.key}/{seed}",
            group_mean=float(np.mean(rewards)),
            group_size=len(rewards),
            policy_version=version,
            created_step=version,
            goal=ex.goal,
            metadata={"example": ex},
        )
        for c, v, adv in zip(completions_for(ex), verdicts, advantages)
    ]


@pytest.fixture()
def env() -> gym.Env:
    e = gym.make("rlvr/Countdown-v0", size=200)
    yield e
    e.close()


def stored(buf: ReplayBuffer) -> list[Rollout]:
    return buf.storage.get(buf.table.live_slots())


def independent_reward(r: Rollout, goal: int) -> float:
    numbers = r.metadata["example"].metadata["numbers"]
    return CountdownVerifier().verify(r.completion, CountdownProblem(tuple(numbers), goal)).score


def buffer(
    env: gym.Env, strategy: str, k: int = 1, store_group: bool = False, sampler: str = "uniform"
) -> ReplayBuffer:
    achieved_goal, relabel = hindsight_fns(env, tokenize)
    hindsight = HindsightConfig(strategy=strategy, k=k, store_group=store_group)
    config = BufferConfig(capacity=200, sampler=sampler, hindsight=hindsight)
    return ReplayBuffer(config, make_rng(0), achieved_goal=achieved_goal, relabel=relabel)


def test_final_strategy_turns_failures_into_verified_successes(env: gym.Env) -> None:
    buf = buffer(env, "final")
    originals = group(env, seed=1)
    assert [r.correct for r in originals] == [True] + [False] * 5
    buf.extend(originals, step=3)
    relabeled = [r for r in stored(buf) if r.relabeled]
    # rollouts 1, 2, 3, 5 reached a value; "I give up." reached none and the correct one needs no relabel
    assert len(buf) == 6 + 4 and len(relabeled) == 4
    target = originals[0].goal
    for r in relabeled:
        goal = r.goal
        assert goal != target and f"equals {goal}." in r.prompt and list(r.prompt_ids) == tokenize(r.prompt)
        assert r.correct and r.reward == 1.0 == independent_reward(r, goal)  # the real verifier agrees
        # advantage: GRPO over the whole group rescored against the new goal
        rescored = [independent_reward(o, goal) for o in originals]
        expected = ADVANTAGES.get("grpo")(rescored)[[o.completion for o in originals].index(r.completion)]
        assert r.advantage == pytest.approx(expected) and r.advantage > 0
        assert r.group_mean == pytest.approx(np.mean(rescored)) and r.group_size == 6
        assert "#hindsight:" in r.group_id and r.policy_version == 3 and r.created_step == 3
        assert r.metadata["hindsight_of"] == originals[0].example_key
    assert buf.metrics()["relabeled_inserted"] == 4


def test_future_strategy_uses_goals_of_later_group_members(env: gym.Env) -> None:
    buf = buffer(env, "future", k=2)
    originals = group(env, seed=2)
    achieved_goal, _ = hindsight_fns(env, tokenize)
    achieved = [achieved_goal(r) for r in originals]
    buf.extend(originals, step=3)
    relabeled = [r for r in stored(buf) if r.relabeled]
    assert relabeled
    for r in relabeled:
        i = next(j for j, o in enumerate(originals) if o.completion == r.completion and not o.correct)
        later = {g for g in achieved[i + 1 :] if g is not None}
        assert r.goal in later and r.goal != originals[i].goal
        assert r.reward == independent_reward(r, r.goal)  # may be 0: a later member's goal, graded for real
    per_source: dict[str, int] = {}
    for r in relabeled:
        per_source[r.completion] = per_source.get(r.completion, 0) + 1
    assert max(per_source.values()) <= 2  # k goals per failed rollout at most


def test_random_strategy_and_whole_relabeled_groups(env: gym.Env) -> None:
    buf = buffer(env, "random", store_group=True, sampler="group")
    achieved_goal, _ = hindsight_fns(env, tokenize)
    first, second = group(env, seed=3), group(env, seed=4)
    buf.extend(first, step=3)
    buf.extend(second, step=4)
    pool = {achieved_goal(r) for r in first + second} - {None}
    relabeled = [r for r in stored(buf) if r.relabeled]
    assert relabeled
    for r in relabeled:
        assert r.goal in pool and r.reward == independent_reward(r, r.goal)
    groups: dict[str, list[Rollout]] = {}
    for r in relabeled:
        groups.setdefault(r.group_id, []).append(r)
    assert all(len(g) == g[0].group_size == 6 for g in groups.values())  # stored whole
    for step in range(5):
        batch = buf.sample(12, step=5 + step)
        counts: dict[str, int] = {}
        for r in batch.rollouts:
            counts[r.group_id] = counts.get(r.group_id, 0) + 1
        assert len(batch) == 12 and set(counts.values()) == {6}  # whole groups only


def test_hindsight_runs_before_sharding(env: gym.Env) -> None:
    achieved_goal, relabel = hindsight_fns(env, tokenize)
    cfg = BufferConfig(capacity=40, num_shards=2, hindsight=HindsightConfig(strategy="final"))
    buf = ShardedReplayBuffer(cfg, make_rng(0), achieved_goal=achieved_goal, relabel=relabel)
    buf.extend(group(env, seed=1), step=3)
    assert len(buf) == 10 and buf.metrics()["relabeled_inserted"] == 4
    assert abs(len(buf.shard(0)) - len(buf.shard(1))) <= 1
    clone = ShardedReplayBuffer(cfg, make_rng(1), achieved_goal=achieved_goal, relabel=relabel)
    clone.load_state_dict(buf.state_dict())
    assert clone.metrics() == buf.metrics()
