"""The two callables the replay buffer's hindsight relabeler takes, built from a goal-conditioned env.

The buffer works on `Rollout`s and never imports tasks or verifiers (DESIGN.md), so the trainer injects:

- `achieved_goal(rollout) -> goal | None`: the goal the rollout's completion reached (Countdown: its value);
- `relabel(rollout, goal) -> Rollout | None`: the same completion as a rollout of the example with that goal:
  new example key, prompt (rendered by the env's template) and prompt ids (by the injected `tokenize`), the
  verdict and reward recomputed by the env's own verifier and reward function, `relabeled=True`.

Only tokenization is the policy's; everything else is the env's, so a relabeled reward is exactly what the
env would have paid for that completion on that goal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.types import Example, Prompt, Rollout
from rlvr.envs.verified_env import VerifiedEnv


def hindsight_fns(
    env: Any, tokenize: Callable[[Prompt], Sequence[int]]
) -> tuple[Callable[[Rollout], Any], Callable[[Rollout, Any], Rollout | None]]:
    """`(achieved_goal, relabel)` for the buffer, from a goal-conditioned env and the policy's tokenizer."""
    base: VerifiedEnv = getattr(env, "unwrapped", env)
    if not isinstance(base, VerifiedEnv):
        raise ConfigError(f"hindsight_fns needs an rlvr VerifiedEnv, got {type(base).__name__}")
    task = base.task
    if not task.goal_conditioned:
        raise ConfigError(
            f"task {task.name!r} is not goal-conditioned; hindsight needs e.g. rlvr/Countdown-v0"
        )

    def example_of(rollout: Rollout) -> Example:
        # the trainer may carry the Example in the rollout's metadata; else look it up by key
        ex = rollout.metadata.get("example") if rollout.metadata else None
        return ex if isinstance(ex, Example) else task.by_key(rollout.example_key)

    def achieved_goal(rollout: Rollout) -> Any:
        """The goal the completion reached, or None."""
        return task.achieved_goal(example_of(rollout), rollout.completion)

    def relabel(rollout: Rollout, goal: Any) -> Rollout | None:
        """The completion as a rollout of the relabeled example, graded by the env's verifier and reward."""
        relabeled = task.relabel(example_of(rollout), goal)
        verdict = base.grade(rollout.completion, relabeled.reference)
        prompt = base.template.render(relabeled, chat=base.chat)
        metadata = dict(rollout.metadata or {})
        metadata.update(example=relabeled, relabeled_from=rollout.example_key)
        return dataclasses.replace(
            rollout,
            example_key=relabeled.key,
            prompt=prompt if isinstance(prompt, str) else base.template.render_text(relabeled),
            prompt_ids=np.asarray(tokenize(prompt), dtype=np.int64),
            verdict=verdict,
            reward=float(base.reward_fn(verdict, relabeled)),
            goal=relabeled.goal,
            relabeled=True,
            metadata=metadata,
        )

    return achieved_goal, relabel
