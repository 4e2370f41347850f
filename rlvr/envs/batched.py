"""Batched rollouts for group-based RL (GRPO): P prompts x G completions, graded in one verifier-pool call.

The trainer's loop, in three calls::

    benv = BatchedEnv("rlvr/MATH-v0", group_size=8, num_workers=4, split="train")
    batch = benv.reset(num_prompts=32, seed=step)         # PromptBatch: .examples, .observations (P)
    completions = generate(batch.observations, n=8)       # the policy: P lists of G strings
    out = benv.step(completions)                          # StepBatch: .rewards (P, G), .verdicts, .examples

`BatchedEnv` holds P x G ordinary Gymnasium envs (`VerifiedEnv` / `FeedbackEnv`, slot [p][g] = prompt p,
sample g), so its transitions are exactly the single envs'. Only grading is batched: every active slot's
(completion, reference) pair goes to the verifier pool at once (parallel worker processes with hard-killed
timeouts), and each verdict is applied back to its env. Multi-turn envs keep going: `out.observations[p][g]`
is the next prompt of a slot that is not done; call `step` again with completions for those slots (None for
finished ones) until `out.all_done`. `trajectories()` then gives each slot's `Trajectory`.

Prompts come from the task in seeded epochs (every example once per epoch, fresh order each epoch), or are
chosen by the caller (`reset(examples=...)`, e.g. for replayed or relabeled examples).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.types import Example, Prompt, Trajectory, Turn, Verdict
from rlvr.envs.registration import ENV_OPTIONS, EnvRecipe, get_recipe, make_env
from rlvr.envs.verified_env import VerifiedEnv


@dataclass(frozen=True)
class PromptBatch:
    """The prompts of one batch: P examples and what to show the policy for each (G samples per prompt)."""

    examples: tuple[Example, ...]
    observations: tuple[Prompt, ...]
    group_size: int

    @property
    def keys(self) -> list[str]:
        """The example keys, in order."""
        return [ex.key for ex in self.examples]

    def __len__(self) -> int:
        return len(self.examples)


@dataclass(frozen=True, eq=False)
class StepBatch:
    """The result of grading one round of P x G completions (arrays are indexed [prompt, sample])."""

    examples: tuple[Example, ...]
    completions: tuple[tuple[str | None, ...], ...]
    #: None where the slot was already done and got no completion this round
    verdicts: tuple[tuple[Verdict | None, ...], ...]
    #: this step's reward (multi-turn envs pay on the last step); 0 for inactive slots
    rewards: np.ndarray
    #: slot solved / ended by the task (after this step)
    terminated: np.ndarray
    #: slot ended by the attempt budget (after this step)
    truncated: np.ndarray
    #: the next observation of each slot that is still running, else None
    observations: tuple[tuple[Prompt | None, ...], ...]
    infos: tuple[tuple[dict[str, Any] | None, ...], ...]

    @property
    def done(self) -> np.ndarray:
        """(P, G) bool: the slot's episode is over."""
        return self.terminated | self.truncated

    @property
    def all_done(self) -> bool:
        """Whether every slot's episode is over."""
        return bool(self.done.all())

    @property
    def scores(self) -> np.ndarray:
        """(P, G) verifier scores of this round (NaN where no completion was graded)."""
        return np.array(
            [[np.nan if v is None else v.score for v in row] for row in self.verdicts], dtype=np.float64
        )

    @property
    def passed(self) -> np.ndarray:
        """(P, G) bool: the verdict of this round passed."""
        return np.array([[v is not None and v.passed for v in row] for row in self.verdicts], dtype=bool)

    @property
    def keys(self) -> list[str]:
        """The example keys, in order."""
        return [ex.key for ex in self.examples]


_RESOLVED = ("task", "verifier", "verifier_kwargs")


class BatchedEnv:
    """P x G copies of one registered env, stepped together with pool-parallel verification (see module doc)."""

    def __init__(
        self,
        env: str | EnvRecipe,
        *,
        group_size: int = 1,
        num_workers: int = 0,
        timeout_s: float | None = None,
        pool: Any = None,
        seed: int = 0,
        **overrides: Any,
    ) -> None:
        if not isinstance(group_size, int) or group_size < 1:
            raise ConfigError(f"group_size must be a positive int, got {group_size!r}")
        if num_workers < 0:
            raise ConfigError(
                f"num_workers must be >= 0 (0 = no pool of grading processes), got {num_workers}"
            )
        self.recipe = get_recipe(env) if isinstance(env, str) else env
        self.group_size = group_size
        self._overrides = {k: v for k, v in overrides.items() if k != "task"}
        first = make_env(self.recipe, **overrides)
        self.task = first.task
        self.verifier = first.verifier
        self._spare: list[VerifiedEnv] = [first]
        self._envs: list[list[VerifiedEnv]] = []
        self._examples: tuple[Example, ...] = ()
        self._turns: list[list[list[Turn]]] = []
        self._returns = np.zeros((0, group_size))
        self._terminated = np.zeros((0, group_size), dtype=bool)
        self._truncated = np.zeros((0, group_size), dtype=bool)
        self._observations: list[list[Prompt | None]] = []
        self.seed = seed
        self._stream: Iterator[Example] = self.task.epochs(seed)
        self._own_pool = pool is None
        if self._own_pool:
            from rlvr.verifiers.grading import grading_pool

            # num_workers=0 still gives a verifier that does not bound its own time a killable worker
            pool = grading_pool(self.verifier, num_workers, timeout_s)
        self.pool = pool

    # ----- envs -----
    def _new_env(self) -> VerifiedEnv:
        if self._spare:
            return self._spare.pop()
        # copies share the first env's task and verifier: no dataset reload, one verifier
        env_opts = {k: v for k, v in self._overrides.items() if k in ENV_OPTIONS and k not in _RESOLVED}
        return make_env(self.recipe, task=self.task, verifier=self.verifier, **env_opts)

    def _ensure(self, num_prompts: int) -> None:
        while len(self._envs) < num_prompts:
            self._envs.append([self._new_env() for _ in range(self.group_size)])

    # ----- the rollout API -----
    def reset(
        self,
        num_prompts: int | None = None,
        *,
        seed: int | None = None,
        examples: Sequence[Example] | None = None,
    ) -> PromptBatch:
        """Start P x G episodes: the next `num_prompts` examples of the seeded epoch stream, or `examples`."""
        if seed is not None:
            self.seed = seed
            self._stream = self.task.epochs(seed)
        if examples is None:
            if not isinstance(num_prompts, int) or num_prompts < 1:
                raise ConfigError(
                    f"reset needs num_prompts >= 1 or examples=[...], got num_prompts={num_prompts!r}"
                )
            examples = [next(self._stream) for _ in range(num_prompts)]
        elif num_prompts is not None and num_prompts != len(examples):
            raise ConfigError(f"num_prompts={num_prompts} but {len(examples)} examples were given")
        if not examples:
            raise ConfigError("reset needs at least one example")
        P, G = len(examples), self.group_size
        self._ensure(P)
        self._examples = tuple(examples)
        self._observations = []
        prompts: list[Prompt] = []  # each prompt's first observation (the G copies are equal)
        for p, ex in enumerate(self._examples):
            row = [self._envs[p][g].reset(options={"example": ex})[0] for g in range(G)]
            prompts.append(row[0])
            self._observations.append(list(row))
        self._turns = [[[] for _ in range(G)] for _ in range(P)]
        self._returns = np.zeros((P, G))
        self._terminated = np.zeros((P, G), dtype=bool)
        self._truncated = np.zeros((P, G), dtype=bool)
        return PromptBatch(self._examples, tuple(prompts), G)

    def _verify(self, pairs: list[tuple[str, Any]]) -> list[Verdict]:
        if not pairs:
            return []
        if self.pool is not None:
            return list(self.pool.verify_batch(pairs))
        return list(self.verifier.verify_batch(pairs))

    def step(self, completions: Sequence[Sequence[str | None]]) -> StepBatch:
        """Grade one completion per running slot (P lists of G; None for finished slots) in one pool call."""
        P, G = len(self._examples), self.group_size
        if P == 0:
            raise ConfigError("call reset() before step()")
        if len(completions) != P or any(len(row) != G for row in completions):
            shape = [len(row) for row in completions]
            raise ConfigError(
                f"step expects {P} lists of {G} completions (one per prompt and sample), got {shape}"
            )
        done = self._terminated | self._truncated
        slots, pairs = [], []
        for p in range(P):
            for g in range(G):
                c = completions[p][g]
                if done[p, g]:
                    if c is not None:
                        raise ConfigError(f"slot [{p}][{g}] is done; pass None instead of a completion")
                    continue
                if not isinstance(c, str):
                    raise ConfigError(f"slot [{p}][{g}] is running and needs a completion string, got {c!r}")
                pairs.append(self._envs[p][g].verification_request(c))
                slots.append((p, g))
        verdicts_flat = self._verify(pairs)
        if len(verdicts_flat) != len(pairs):
            raise RuntimeError(
                f"the verifier pool returned {len(verdicts_flat)} verdicts for {len(pairs)} pairs"
            )
        rewards = np.zeros((P, G))
        verdicts: list[list[Verdict | None]] = [[None] * G for _ in range(P)]
        infos: list[list[dict[str, Any] | None]] = [[None] * G for _ in range(P)]
        for (p, g), verdict in zip(slots, verdicts_flat):
            completion = completions[p][g]
            assert completion is not None
            obs, reward, terminated, truncated, info = self._envs[p][g].apply_verdict(completion, verdict)
            prev = self._observations[p][g]
            self._turns[p][g].append(Turn(prev, completion, float(reward), verdict))  # type: ignore[arg-type]
            rewards[p, g] = float(reward)
            self._returns[p, g] += float(reward)
            self._terminated[p, g], self._truncated[p, g] = terminated, truncated
            self._observations[p][g] = None if (terminated or truncated) else obs
            verdicts[p][g], infos[p][g] = verdict, info
        return StepBatch(
            examples=self._examples,
            completions=tuple(tuple(row) for row in completions),
            verdicts=tuple(tuple(row) for row in verdicts),
            rewards=rewards,
            terminated=self._terminated.copy(),
            truncated=self._truncated.copy(),
            observations=tuple(tuple(row) for row in self._observations),
            infos=tuple(tuple(row) for row in infos),
        )

    def episode_rewards(self) -> np.ndarray:
        """(P, G) sum of rewards of each slot's episode so far (its return)."""
        return self._returns.copy()

    def trajectories(self) -> list[list[Trajectory]]:
        """Each slot's episode as a `Trajectory` (turns, return, terminated/truncated), [prompt][sample]."""
        return [
            [
                Trajectory(
                    example_key=ex.key,
                    turns=tuple(self._turns[p][g]),
                    reward=float(self._returns[p, g]),
                    terminated=bool(self._terminated[p, g]),
                    truncated=bool(self._truncated[p, g]),
                    metadata={"task": ex.task, "group_index": g},
                )
                for g in range(self.group_size)
            ]
            for p, ex in enumerate(self._examples)
        ]

    def close(self) -> None:
        """Close the envs and the verifier pool this object started."""
        for row in self._envs:
            for env in row:
                env.close()
        if self._own_pool and self.pool is not None and hasattr(self.pool, "close"):
            self.pool.close()
        self.pool = None if self._own_pool else self.pool

    def __enter__(self) -> BatchedEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
