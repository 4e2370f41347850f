"""Hindsight relabeling for single-turn goal tasks (HER, Andrychowicz et al. 2017, adapted to GRPO groups).

A failed rollout of a goal-conditioned task (Countdown: "make 24 from these numbers") often achieved some
other goal (its expression evaluates to 19). Relabeling turns it into a rollout of the task "make 19", which
it solves. The buffer never imports tasks or verifiers; the task side injects two callables:

- `achieved_goal(rollout) -> goal | None`: the goal the completion actually reached (None: nothing usable);
- `relabel(rollout, goal) -> Rollout | None`: the same completion posed as a rollout for `goal` (new prompt,
  prompt ids, goal, example key) with `verdict`/`reward` recomputed by the task's real verifier.

Goal strategies (which goals a failed rollout is relabeled with; k distinct goals per failed rollout):
- `final`: the goal the rollout achieved itself (at most one);
- `future`: goals achieved by rollouts after it in the same generation group of the same `extend` call,
  else by any later rollout of that call (a single-turn rollout has no later states of its own);
- `random`: goals achieved by random recent insertions (a pool of the last `goal_pool` achieved goals).

Advantage of a relabeled item (our choice; the paper freezes advantages at generation): the rollout's whole
generation group, as present in the same `extend` call, is rescored against the new goal with `relabel`, and
the configured advantage estimator (default GRPO's z-score) runs over those rescored rewards. The relabeled
item gets its entry, the group mean and size of the rescored group, and a new group id. This is the
advantage the completion would have had had the group been generated for the new goal; relabeling a lone
success instead would give a z-score of 0. With `store_group=True` the other rescored members are stored
too (a whole relabeled group). Behaviour log-probs stay those of the original prompt, so for a relabeled
item the ratio pi(z|q')/pi_old(z|q) compares different prompts: train them with a loss without an IS ratio
(AsymRE). `RunConfig` refuses buffer.hindsight with GRPO's behaviour ratio (learner.old_logprobs='behaviour'
or a tis_cap) and says so. Relabeled items keep the original policy version
and creation step (staleness counts from generation), have `relabeled=True`, and are never relabeled again.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rlvr.buffer.config import HindsightConfig
from rlvr.buffer.registries import GOAL_STRATEGIES
from rlvr.core.advantages import ADVANTAGES
from rlvr.core.seeding import stable_hash
from rlvr.core.types import Rollout

AchievedGoalFn = Callable[[Rollout], Any]
RelabelFn = Callable[[Rollout, Any], "Rollout | None"]
#: (index of the failed rollout, the rollouts of this extend call, their achieved goals, pool of recent
#: achieved goals, k, rng) -> candidate goals, best first
GoalStrategy = Callable[
    [int, Sequence[Rollout], Sequence[Any], Sequence[Any], int, np.random.Generator], list
]


def _goal_key(goal: Any) -> str:
    return stable_hash(goal)


def _pick_distinct(goals: Sequence[Any], k: int, rng: np.random.Generator) -> list[Any]:
    unique = {_goal_key(g): g for g in goals if g is not None}
    keys = sorted(unique)  # sorted keys make the draw independent of dict/hash order
    if len(keys) <= k:
        return [unique[key] for key in rng.permutation(keys).tolist()] if keys else []
    return [unique[keys[j]] for j in rng.choice(len(keys), size=k, replace=False).tolist()]


def final_goals(
    i: int, rollouts: Sequence[Rollout], achieved: Sequence[Any], pool: Sequence[Any], k: int, rng: Any
) -> list[Any]:
    """The goal rollout `i` achieved itself."""
    return [] if achieved[i] is None else [achieved[i]]


def future_goals(
    i: int, rollouts: Sequence[Rollout], achieved: Sequence[Any], pool: Sequence[Any], k: int, rng: Any
) -> list[Any]:
    """Goals achieved by later rollouts of the same group in this call, else by any later rollout of it."""
    gid = rollouts[i].group_id
    later = range(i + 1, len(rollouts))
    same_group = [achieved[j] for j in later if gid and rollouts[j].group_id == gid]
    candidates = [g for g in same_group if g is not None] or [achieved[j] for j in later]
    return _pick_distinct(candidates, k, rng)


def random_goals(
    i: int, rollouts: Sequence[Rollout], achieved: Sequence[Any], pool: Sequence[Any], k: int, rng: Any
) -> list[Any]:
    """Goals achieved by random recently inserted rollouts."""
    return _pick_distinct(pool, k, rng)


class HindsightRelabeler:
    """Makes the relabeled rollouts for one `extend` call; thread-safe, with its own generator."""

    def __init__(
        self,
        config: HindsightConfig,
        achieved_goal: AchievedGoalFn,
        relabel: RelabelFn,
        rng: np.random.Generator,
    ) -> None:
        self.config = config
        self._achieved_goal = achieved_goal
        self._relabel = relabel
        self._strategy: GoalStrategy = GOAL_STRATEGIES.get(config.strategy)
        self._advantage = ADVANTAGES.get(config.advantage)
        self._rng = rng
        self._pool: deque[Any] = deque(maxlen=config.goal_pool)
        self._lock = threading.Lock()

    def __call__(self, rollouts: Sequence[Rollout]) -> list[Rollout]:
        """The relabeled rollouts to store alongside `rollouts` (which are not changed)."""
        with self._lock:
            achieved = [None if r.relabeled else self._achieved_goal(r) for r in rollouts]
            self._pool.extend(g for g in achieved if g is not None)
            members: dict[str, list[int]] = {}
            for i, r in enumerate(rollouts):
                members.setdefault(r.group_id or f"\0{i}", []).append(i)
            pool = list(self._pool)
            rescored: dict[tuple[str, str], dict[int, Rollout]] = {}
            out: list[Rollout] = []
            for i, r in enumerate(rollouts):
                if r.verdict.passed or r.relabeled:
                    continue
                own = _goal_key(r.goal)
                goals = self._strategy(i, rollouts, achieved, pool, self.config.k, self._rng)
                goals = [g for g in goals if g is not None and _goal_key(g) != own][: self.config.k]
                for goal in goals:
                    group = r.group_id or f"\0{i}"
                    key = (group, _goal_key(goal))
                    if key not in rescored:
                        rescored[key] = self._rescore(rollouts, members[group], goal)
                        if self.config.store_group:
                            out.extend(rescored[key].values())
                    if not self.config.store_group and i in rescored[key]:
                        out.append(rescored[key][i])
            return out

    def _rescore(self, rollouts: Sequence[Rollout], group: list[int], goal: Any) -> dict[int, Rollout]:
        """The group's rollouts posed for `goal`, with advantages over the rescored group."""
        posed: dict[int, Rollout] = {}
        for j in group:
            new = self._relabel(rollouts[j], goal)
            if new is None:
                continue
            if not isinstance(new, Rollout):
                raise TypeError(
                    f"relabel(rollout, goal) must return a Rollout or None, got {type(new).__name__}"
                )
            posed[j] = new
        if not posed:
            return {}
        rewards = [posed[j].reward for j in posed]
        advantages = np.asarray(self._advantage(rewards), dtype=np.float64)
        mean = float(np.mean(rewards))
        gid = f"{rollouts[group[0]].group_id}#hindsight:{_goal_key(goal)}"
        out = {}
        for (j, new), adv in zip(posed.items(), advantages.tolist()):
            orig = rollouts[j]
            out[j] = dataclasses.replace(
                new,
                goal=goal if new.goal is None else new.goal,
                advantage=float(adv),
                group_id=gid,
                group_mean=mean,
                group_size=len(posed),
                policy_version=orig.policy_version,
                created_step=orig.created_step,
                relabeled=True,
                metadata={**new.metadata, "hindsight_of": orig.example_key, "hindsight_goal": goal},
            )
        return out

    def state_dict(self) -> dict[str, Any]:
        """The goal pool and the generator state."""
        return {"pool": list(self._pool), "rng": self._rng.bit_generator.state}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the goal pool and generator."""
        self._pool = deque(state["pool"], maxlen=self.config.goal_pool)
        self._rng.bit_generator.state = state["rng"]
