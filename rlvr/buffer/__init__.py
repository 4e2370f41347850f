"""Replay buffer for rollouts: FIFO-uniform (the paper), prioritized, staleness limits, positive-bias retention,
hindsight relabeling, whole-group sampling, sharding; Storage + Sampler + Writer parts chosen by name.

    from rlvr.buffer import BufferConfig, make_buffer
    from rlvr.core import make_rng

    buffer = make_buffer(BufferConfig(capacity=252), make_rng(0))
    buffer.extend(rollouts, step=0)
    batch = buffer.sample(60, step=1)   # batch.rollouts, batch.weights, batch.ages, batch.indices
"""

from __future__ import annotations

import numpy as np

from rlvr.buffer.config import BufferConfig, HindsightConfig, PriorityConfig, StalenessConfig
from rlvr.buffer.hindsight import HindsightRelabeler, final_goals, future_goals, random_goals
from rlvr.buffer.metrics import staleness_histogram
from rlvr.buffer.prioritized import MAX_PRIORITY, PrioritizedSampler, abs_advantage, group_learnability
from rlvr.buffer.registries import GOAL_STRATEGIES, PRIORITY_SOURCES, SAMPLERS, STORAGES, WRITERS
from rlvr.buffer.replay import RecomputeFn, ReplayBuffer, SampledBatch
from rlvr.buffer.samplers import (
    GroupSampler,
    NeverUsedFirstSampler,
    NoReplacementSampler,
    NotEnoughItems,
    Sampler,
    UniformSampler,
)
from rlvr.buffer.sharded import ShardedReplayBuffer
from rlvr.buffer.storage import ArrayStorage, ListStorage, Storage
from rlvr.buffer.sumtree import MinTree, SumTree
from rlvr.buffer.writers import FifoWriter, PositiveBiasWriter, Writer


def make_buffer(
    config: BufferConfig, rng: np.random.Generator, **hooks: object
) -> ReplayBuffer | ShardedReplayBuffer:
    """A ReplayBuffer, or a ShardedReplayBuffer when `config.num_shards > 1`.

    `hooks` are passed through: `achieved_goal` and `relabel` (hindsight), `recompute` (recompute_on_sample).
    """
    cls = ShardedReplayBuffer if config.num_shards > 1 else ReplayBuffer
    return cls(config, rng, **hooks)  # type: ignore[arg-type]


__all__ = [
    "GOAL_STRATEGIES",
    "MAX_PRIORITY",
    "PRIORITY_SOURCES",
    "SAMPLERS",
    "STORAGES",
    "WRITERS",
    "ArrayStorage",
    "BufferConfig",
    "FifoWriter",
    "GroupSampler",
    "HindsightConfig",
    "HindsightRelabeler",
    "ListStorage",
    "MinTree",
    "NeverUsedFirstSampler",
    "NoReplacementSampler",
    "NotEnoughItems",
    "PositiveBiasWriter",
    "PrioritizedSampler",
    "PriorityConfig",
    "RecomputeFn",
    "ReplayBuffer",
    "SampledBatch",
    "Sampler",
    "ShardedReplayBuffer",
    "StalenessConfig",
    "Storage",
    "SumTree",
    "UniformSampler",
    "Writer",
    "abs_advantage",
    "final_goals",
    "future_goals",
    "group_learnability",
    "make_buffer",
    "random_goals",
    "staleness_histogram",
]
