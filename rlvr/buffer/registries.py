"""Named, swappable buffer parts: storages, samplers, writers, priority sources and hindsight goal strategies.

Entries are lazy `"module:attr"` strings so config validation can check a name without importing the parts.
Register your own with e.g. `SAMPLERS.register("mine", MySampler)`: a sampler or writer entry is called with
the `BufferConfig`, a storage entry with the capacity, a priority source with a `Rollout`, and a goal strategy
as documented in `hindsight.py`.
"""

from __future__ import annotations

from typing import Any

from rlvr.core.registry import Registry

STORAGES: Registry[Any] = Registry("buffer storage", entry_point_group="rlvr.buffer.storages")
SAMPLERS: Registry[Any] = Registry("buffer sampler", entry_point_group="rlvr.buffer.samplers")
WRITERS: Registry[Any] = Registry("buffer writer", entry_point_group="rlvr.buffer.writers")
PRIORITY_SOURCES: Registry[Any] = Registry("priority source")
GOAL_STRATEGIES: Registry[Any] = Registry("hindsight goal strategy")

STORAGES.register("list", "rlvr.buffer.storage:ListStorage")
STORAGES.register("array", "rlvr.buffer.storage:ArrayStorage")

SAMPLERS.register("uniform", "rlvr.buffer.samplers:UniformSampler")
SAMPLERS.register("no_replacement", "rlvr.buffer.samplers:NoReplacementSampler")
SAMPLERS.register("never_used_first", "rlvr.buffer.samplers:NeverUsedFirstSampler")
SAMPLERS.register("prioritized", "rlvr.buffer.prioritized:PrioritizedSampler")
SAMPLERS.register("group", "rlvr.buffer.samplers:GroupSampler")

WRITERS.register("fifo", "rlvr.buffer.writers:FifoWriter")
WRITERS.register("positive_bias", "rlvr.buffer.writers:PositiveBiasWriter")

PRIORITY_SOURCES.register("advantage", "rlvr.buffer.prioritized:abs_advantage")
PRIORITY_SOURCES.register("learnability", "rlvr.buffer.prioritized:group_learnability")
PRIORITY_SOURCES.register("max", "rlvr.buffer.prioritized:MAX_PRIORITY")

GOAL_STRATEGIES.register("final", "rlvr.buffer.hindsight:final_goals")
GOAL_STRATEGIES.register("future", "rlvr.buffer.hindsight:future_goals")
GOAL_STRATEGIES.register("random", "rlvr.buffer.hindsight:random_goals")
