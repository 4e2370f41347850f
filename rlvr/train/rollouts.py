"""Turning prompts into `Rollout`s: generate G completions per prompt, grade them, freeze group advantages.

`RolloutProducer` is the one piece of rollout logic; the single-process trainer calls it directly and each
Ray rollout worker wraps one, so both runtimes produce identical rollouts for the same seed and weights.
"""

from __future__ import annotations

import collections
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rlvr.core.advantages import ADVANTAGES
from rlvr.core.errors import VerifierFailure
from rlvr.core.types import Example, Rollout
from rlvr.envs import BatchedEnv
from rlvr.policy import Generation, GenerationBackend, SamplingParams

log = logging.getLogger("rlvr.train")


@dataclass
class RolloutStats:
    """What one production round cost and yielded."""

    rollouts: int = 0
    prompts: int = 0
    generated_tokens: int = 0
    generate_s: float = 0.0
    verify_s: float = 0.0
    rewards: list[float] = field(default_factory=list)
    passed: list[bool] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    truncated: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    #: the first verifier failure of the round (its message and traceback), for the loop's one warning
    first_error: str | None = None
    #: completions whose verification passed its deadline (a `timeout` verdict from the verifier pool)
    verifier_timeouts: int = 0

    def metrics(self) -> dict[str, float]:
        """Scalar metrics (`rollout/...`) of this round."""
        n = max(self.rollouts, 1)
        out = {
            "rollout/reward_mean": float(np.mean(self.rewards)) if self.rewards else 0.0,
            "rollout/accuracy": float(np.mean(self.passed)) if self.passed else 0.0,
            "rollout/length_mean": float(np.mean(self.lengths)) if self.lengths else 0.0,
            "rollout/truncated_frac": self.truncated / n,
            "rollout/generate_s": self.generate_s,
            "rollout/verify_s": self.verify_s,
            "rollout/generated_tokens": float(self.generated_tokens),
            "rollout/count": float(self.rollouts),
        }
        for reason, count in self.reasons.items():
            out[f"rollout/reason_{reason}"] = count / n
        return out


class VerifierErrorGuard:
    """Watches the share of `error` verdicts (the verifier itself failed): warns once with the first traceback,
    and stops the run when the share over the last `window` steps exceeds `max_rate` (rewards would be noise)."""

    def __init__(self, max_rate: float, window: int = 5) -> None:
        self.max_rate = max_rate
        self.recent: collections.deque[tuple[int, int]] = collections.deque(maxlen=window)
        self.warned = False

    def check(self, stats: RolloutStats) -> None:
        """Record one step's verdicts; raise `VerifierFailure` above the limit."""
        errors = stats.reasons.get("error", 0) + stats.verifier_timeouts  # a hung verifier failed too
        self.recent.append((errors, stats.rollouts))
        if errors and not self.warned and stats.first_error is not None:
            self.warned = True
            log.warning(
                "the verifier failed or passed its deadline on %d of %d completions this step (reward 0 for "
                "each); the first failure:\n%s",
                errors,
                stats.rollouts,
                stats.first_error,
            )
        failed, total = (sum(x) for x in zip(*self.recent))
        if total and failed / total > self.max_rate:
            raise VerifierFailure(
                f"the verifier failed (raised, returned a wrong type or timed out) on {failed} of the last {total} "
                f"completions, more than env.max_verifier_error_rate={self.max_rate}; its first failure: "
                f"{(stats.first_error or '').strip().splitlines()[-1:] or ['?']}. Fix the verifier (the "
                "warning above has the traceback) or raise the limit"
            )


class RolloutProducer:
    """Generates and grades P x G rollouts per call with one backend and one batched env.

    Its one source of randomness is `sampling.seed` (+ the step): no second seed of its own.
    """

    def __init__(
        self,
        env: BatchedEnv,
        backend: GenerationBackend,
        sampling: SamplingParams,
        *,
        advantage: str = "grpo",
        keep_example: bool = False,
    ) -> None:
        self.env = env
        self.backend = backend
        self.sampling = sampling
        self.advantage_fn = ADVANTAGES.get(advantage)
        self.keep_example = keep_example
        self.group_size = env.group_size

    def produce(
        self, num_prompts: int, step: int, *, examples: Sequence[Example] | None = None
    ) -> tuple[list[Rollout], RolloutStats]:
        """Rollouts of `num_prompts` prompts (or `examples`) x G samples, stamped with `step` and the version."""
        stats = RolloutStats()
        batch = self.env.reset(None if examples is not None else num_prompts, examples=examples)
        G = self.group_size
        P = len(batch)
        version = int(self.backend.policy_version)
        # every (prompt, sample) slot accumulates its turns; single-turn envs have exactly one
        turns: list[list[list[Generation]]] = [[[] for _ in range(G)] for _ in range(P)]
        observations: list[list[Any]] = [[obs] * G for obs in batch.observations]
        first_round = True
        while True:
            active = [(p, g) for p in range(P) for g in range(G) if observations[p][g] is not None]
            t0 = time.perf_counter()
            gens = self._generate(observations, active, first_round, step)
            stats.generate_s += time.perf_counter() - t0
            completions: list[list[str | None]] = [[None] * G for _ in range(P)]
            for (p, g), gen in gens.items():
                turns[p][g].append(gen)
                completions[p][g] = gen.completion
                stats.generated_tokens += int(gen.completion_ids.shape[0])
            t0 = time.perf_counter()
            out = self.env.step(completions)
            stats.verify_s += time.perf_counter() - t0
            first_round = False
            if out.all_done:
                break
            observations = [list(row) for row in out.observations]
        returns = self.env.episode_rewards()
        trajectories = self.env.trajectories()
        rollouts: list[Rollout] = []
        for p, example in enumerate(batch.examples):
            advantages = np.asarray(self.advantage_fn(returns[p]), dtype=np.float64)
            group_mean = float(np.mean(returns[p]))
            group_id = f"{step}:{p}:{example.key}"
            for g in range(G):
                verdict = trajectories[p][g].final_verdict
                assert verdict is not None
                stats.rewards.append(float(returns[p, g]))
                stats.passed.append(bool(verdict.passed))
                stats.reasons[verdict.reason] = stats.reasons.get(verdict.reason, 0) + 1
                if verdict.details.get("verifier_timeout"):
                    stats.verifier_timeouts += 1
                    if stats.first_error is None:
                        stats.first_error = (
                            f"the verifier did not return within env.verifier_timeout_s={verdict.details.get('timeout_s')} "
                            "s and was stopped; make it faster or raise the limit"
                        )
                elif verdict.reason == "error" and stats.first_error is None:
                    details = verdict.details
                    stats.first_error = str(details.get("traceback") or details.get("error") or details)
                for gen in turns[p][g]:
                    stats.lengths.append(int(gen.completion_ids.shape[0]))
                    stats.truncated += gen.finish_reason == "length"
                    metadata: dict[str, Any] = {"task": example.task, "sample": g}
                    if self.keep_example:
                        metadata["example"] = example
                    rollouts.append(
                        Rollout(
                            example_key=example.key,
                            prompt=gen.prompt,
                            completion=gen.completion,
                            prompt_ids=gen.prompt_ids,
                            completion_ids=gen.completion_ids,
                            behaviour_logprobs=gen.logprobs,
                            verdict=verdict,
                            reward=float(returns[p, g]),
                            advantage=float(advantages[g]),
                            group_id=group_id,
                            group_mean=group_mean,
                            group_size=G,
                            policy_version=version,
                            created_step=step,
                            goal=example.goal,
                            finish_reason=gen.finish_reason,
                            metadata=metadata,
                        )
                    )
        stats.rollouts = len(rollouts)
        stats.prompts = P
        return rollouts, stats

    def _generate(
        self, observations: list[list[Any]], active: list[tuple[int, int]], first_round: bool, step: int
    ) -> dict[tuple[int, int], Generation]:
        """Generations for the active slots; the first round samples G per prompt in one backend call."""
        seed = None if self.sampling.seed is None else self.sampling.seed + step
        sampling = SamplingParams(**{**self.sampling.__dict__, "seed": seed})
        G = self.group_size
        if first_round:  # all slots of a prompt share its observation: ask for n=G at once
            prompts = [observations[p][0] for p in range(len(observations))]
            groups = self.backend.generate(prompts, G, sampling)
            return {(p, g): groups[p][g] for p in range(len(prompts)) for g in range(G)}
        prompts = [observations[p][g] for p, g in active]  # later turns: each slot has its own history
        groups = self.backend.generate(prompts, 1, sampling)
        return {slot: group[0] for slot, group in zip(active, groups)}
