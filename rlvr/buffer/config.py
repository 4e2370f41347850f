"""Frozen configuration of the replay buffer; every impossible setting fails here, before any work starts."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rlvr.buffer.registries import GOAL_STRATEGIES, PRIORITY_SOURCES, SAMPLERS, STORAGES, WRITERS
from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.core.types import Rollout


def _check_name(registry: Registry[Any], name: str, knob: str) -> None:
    if name not in registry:
        raise ConfigError(f"{knob}={name!r} is not a known {registry.kind}; choose one of {registry.names()}")


def _check_fraction(value: float, knob: str, *, low_open: bool = False) -> None:
    ok = isinstance(value, int | float) and math.isfinite(value) and (value > 0 if low_open else value >= 0)
    if not ok or value > 1:
        bound = "(0, 1]" if low_open else "[0, 1]"
        raise ConfigError(f"{knob}={value!r} must be a number in {bound}")


@dataclass(frozen=True)
class PriorityConfig:
    """Prioritized replay (Schaul et al. 2015): P(i) = p_i^alpha / sum p^alpha, IS weights (N P(i))^-beta / max."""

    alpha: float = 0.6
    """Priority exponent: 0 samples uniformly, 1 fully in proportion to priority."""
    beta: float = 0.4
    """Importance-weight exponent at step 0 (0: no correction, 1: full correction)."""
    beta_final: float = 1.0
    """The value beta reaches after `beta_steps` learner steps (linear schedule)."""
    beta_steps: int = 0
    """Learner steps over which beta anneals from `beta` to `beta_final`; 0 keeps beta constant."""
    eps: float = 1e-6
    """Added to every priority so that no live item has probability zero."""
    source: str | Callable[[Rollout], float] = "advantage"
    """Priority of a new item: 'advantage' (|A|), 'learnability' (p(1-p) of its group's mean reward),
    'max' (the largest priority seen so far, classic PER), a registered name, or a callable Rollout -> float."""

    def __post_init__(self) -> None:
        if not (isinstance(self.alpha, int | float) and 0 <= self.alpha <= 10):
            raise ConfigError(f"priority.alpha={self.alpha!r} must be in [0, 10] (0 = uniform; PER uses 0.6)")
        _check_fraction(self.beta, "priority.beta")
        _check_fraction(self.beta_final, "priority.beta_final")
        if not isinstance(self.beta_steps, int) or self.beta_steps < 0:
            raise ConfigError(
                f"priority.beta_steps={self.beta_steps!r} must be an int >= 0 (0 = constant beta)"
            )
        if not (isinstance(self.eps, int | float) and self.eps > 0):
            raise ConfigError(
                f"priority.eps={self.eps!r} must be > 0, or zero-priority items could never be drawn"
            )
        if isinstance(self.source, str):
            _check_name(PRIORITY_SOURCES, self.source, "priority.source")
        elif not callable(self.source):
            raise ConfigError("priority.source must be a registered name or a callable Rollout -> float")

    def beta_at(self, step: int) -> float:
        """The annealed IS exponent at learner step `step`."""
        if self.beta_steps == 0:
            return float(self.beta)
        frac = min(1.0, max(0, step) / self.beta_steps)
        return float(self.beta + (self.beta_final - self.beta) * frac)


@dataclass(frozen=True)
class StalenessConfig:
    """Limits on how old (in policy versions) and how often used an item may be."""

    max_age: int | None = None
    """Largest age (current policy version - the rollout's `policy_version`) kept at full weight; None: no limit."""
    action: str = "evict"
    """What happens past `max_age`: 'evict' removes the item; 'downweight' keeps it with a smaller loss weight."""
    decay: float = 0.5
    """With action='downweight': the loss weight is multiplied by decay ** (age - max_age)."""
    max_uses: int | None = None
    """Evict an item once it has been drawn this many times; None: unlimited (the paper)."""

    def __post_init__(self) -> None:
        if self.max_age is not None and (not isinstance(self.max_age, int) or self.max_age < 0):
            raise ConfigError(f"staleness.max_age={self.max_age!r} must be an int >= 0, or None for no limit")
        if self.action not in ("evict", "downweight"):
            raise ConfigError(f"staleness.action={self.action!r} must be 'evict' or 'downweight'")
        _check_fraction(self.decay, "staleness.decay")
        if self.max_uses is not None and (not isinstance(self.max_uses, int) or self.max_uses < 1):
            raise ConfigError(
                f"staleness.max_uses={self.max_uses!r} must be an int >= 1, or None for unlimited"
            )


@dataclass(frozen=True)
class HindsightConfig:
    """Hindsight relabeling of failed rollouts with goals that were actually achieved (Andrychowicz et al. 2017)."""

    strategy: str = "final"
    """Where goals come from: 'final' (the goal this rollout achieved itself), 'future' (goals achieved by later
    rollouts of its generation group, else by later rollouts of the same insertion), 'random' (goals achieved
    by random items inserted earlier), or a registered strategy name."""
    k: int = 1
    """Relabeled copies (distinct goals) made per failed rollout; 'final' makes at most one."""
    advantage: str = "grpo"
    """Advantage estimator (rlvr.core.ADVANTAGES) applied to the generation group rescored against the new goal."""
    store_group: bool = False
    """Also store the other rescored members of the group (a whole relabeled group, e.g. for group sampling)."""
    goal_pool: int = 4096
    """How many recently achieved goals the 'random' strategy draws from."""

    def __post_init__(self) -> None:
        _check_name(GOAL_STRATEGIES, self.strategy, "hindsight.strategy")
        if not isinstance(self.k, int) or self.k < 1:
            raise ConfigError(
                f"hindsight.k={self.k!r} must be an int >= 1 (relabeled items per failed rollout)"
            )
        from rlvr.core.advantages import ADVANTAGES  # core only; imported here to keep config import light

        _check_name(ADVANTAGES, self.advantage, "hindsight.advantage")
        if not isinstance(self.goal_pool, int) or self.goal_pool < 1:
            raise ConfigError(f"hindsight.goal_pool={self.goal_pool!r} must be an int >= 1")


@dataclass(frozen=True)
class BufferConfig:
    """The replay buffer: what it stores, how it evicts, how it samples. Defaults are the paper's FIFO-uniform."""

    capacity: int = 1024
    """N: the most rollouts held (in total over all shards). The paper used N from 64 to 20736."""
    sampler: str = "uniform"
    """'uniform' (paper), 'no_replacement' (each item once per pass over the buffer), 'never_used_first',
    'prioritized' (see `priority`), 'group' (whole generation groups), or a registered name."""
    storage: str = "list"
    """'list' (rollout objects in slots) or 'array' (tokens in padded numpy columns)."""
    writer: str = "fifo"
    """'fifo' (keep the N most recent insertions, paper) or 'positive_bias' (see `positive_bias_delta`)."""
    positive_bias_delta: float = 0.5
    """delta for writer='positive_bias': keep the freshest (1-delta)N rollouts plus the freshest delta*N correct
    rollouts not already among them (PAPER.md section 1; the paper's worked example is delta = 0.5)."""
    replacement: bool = False
    """Whether one batch may hold the same item twice. False is the paper's `random.sample` (no repeats)."""
    num_shards: int = 1
    """Learner ranks: `make_buffer` then builds a ShardedReplayBuffer of this many buffers of capacity N/T."""
    priority: PriorityConfig = field(default_factory=PriorityConfig)
    """Settings of sampler='prioritized'."""
    staleness: StalenessConfig = field(default_factory=StalenessConfig)
    """Age and use limits (off by default, as in the paper)."""
    hindsight: HindsightConfig | None = None
    """Hindsight relabeling on insertion; needs `achieved_goal` and `relabel` callables. None: off."""
    recompute_on_sample: bool = False
    """Pass sampled rollouts through a user `recompute` hook (e.g. fresh log-probs/advantages) before returning
    them. This is a different algorithm from the paper, which freezes both at generation."""

    def __post_init__(self) -> None:
        if not isinstance(self.capacity, int) or self.capacity < 1:
            raise ConfigError(f"capacity={self.capacity!r} must be an int >= 1 (the number of rollouts kept)")
        _check_name(SAMPLERS, self.sampler, "sampler")
        _check_name(STORAGES, self.storage, "storage")
        _check_name(WRITERS, self.writer, "writer")
        _check_fraction(self.positive_bias_delta, "positive_bias_delta")
        if not isinstance(self.num_shards, int) or self.num_shards < 1:
            raise ConfigError(
                f"num_shards={self.num_shards!r} must be an int >= 1 (one shard per learner rank)"
            )
        if self.num_shards > self.capacity:
            raise ConfigError(
                f"num_shards={self.num_shards} exceeds capacity={self.capacity}: every shard needs room for at "
                "least one rollout; raise capacity or lower num_shards"
            )
        for name, sub, kind in (
            ("priority", self.priority, PriorityConfig),
            ("staleness", self.staleness, StalenessConfig),
        ):
            if not isinstance(sub, kind):
                raise ConfigError(f"{name} must be a {kind.__name__}, got {type(sub).__name__}")
        if self.replacement and self.sampler in ("no_replacement", "never_used_first", "group"):
            raise ConfigError(
                f"sampler={self.sampler!r} never repeats an item within a batch; set replacement=False "
                "(or use sampler='uniform' or 'prioritized' with replacement=True)"
            )
        if self.hindsight is not None and not isinstance(self.hindsight, HindsightConfig):
            raise ConfigError(
                f"hindsight must be a HindsightConfig or None, got {type(self.hindsight).__name__}"
            )
