"""One replay buffer per learner rank, filled evenly, each rank sampling only its own shard (PAPER.md sec. 1)."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from rlvr.buffer.config import BufferConfig
from rlvr.buffer.hindsight import AchievedGoalFn, HindsightRelabeler, RelabelFn
from rlvr.buffer.replay import (
    STATE_FORMAT,
    RecomputeFn,
    ReplayBuffer,
    SampledBatch,
    child_generator,
    load_state,
    save_state,
)
from rlvr.core.errors import ConfigError
from rlvr.core.types import Rollout

_ADDITIVE = (
    "size",
    "capacity",
    "inserted",
    "dropped",
    "evicted/",
    "draws",
    "relabeled_inserted",
    "staleness/hist/",
)


class ShardedReplayBuffer:
    """`num_shards` buffers of capacity N/T (the reported N is the total, as in the paper).

    `extend` deals rollouts to shards round-robin, continuing where the previous call stopped, so shards fill
    evenly and each rollout lives on exactly one shard (its group's advantage was computed before the split).
    With sampler='group', whole groups are dealt instead, so every shard holds complete groups. Hindsight
    relabeling runs here, before the split, so it sees whole groups. Rank r uses `shard(r)` (a ReplayBuffer
    with the full API) or the rank-keyword methods below.
    """

    def __init__(
        self,
        config: BufferConfig,
        rng: np.random.Generator,
        *,
        achieved_goal: AchievedGoalFn | None = None,
        relabel: RelabelFn | None = None,
        recompute: RecomputeFn | None = None,
    ) -> None:
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng must be a numpy.random.Generator; pass rlvr.core.make_rng(seed)")
        given = (achieved_goal is not None, relabel is not None)
        if (config.hindsight is not None and not all(given)) or (config.hindsight is None and any(given)):
            raise ConfigError(
                "hindsight needs both config.hindsight (a HindsightConfig) and the task's achieved_goal and "
                "relabel callables; give all three, or none"
            )
        self.config = config
        n, t = config.capacity, config.num_shards
        self.shards = [
            ReplayBuffer(
                dataclasses.replace(config, capacity=n // t + (r < n % t), num_shards=1, hindsight=None),
                child_generator(rng),
                recompute=recompute,
            )
            for r in range(t)
        ]
        self.hindsight = (
            HindsightRelabeler(config.hindsight, achieved_goal, relabel, child_generator(rng))  # type: ignore[arg-type]
            if config.hindsight is not None
            else None
        )
        self._cursor = 0
        self._lock = threading.Lock()

    @property
    def num_shards(self) -> int:
        """Number of shards (learner ranks)."""
        return len(self.shards)

    def shard(self, rank: int) -> ReplayBuffer:
        """The buffer of learner rank `rank`."""
        if not 0 <= rank < len(self.shards):
            raise IndexError(f"rank {rank} is out of range for {len(self.shards)} shards")
        return self.shards[rank]

    def __len__(self) -> int:
        return sum(len(s) for s in self.shards)

    def extend(self, rollouts: Sequence[Rollout], step: int) -> None:
        """Relabel (if configured), then deal the rollouts to the shards round-robin."""
        items = list(rollouts)
        for r in items:
            if not isinstance(r, Rollout):
                raise TypeError(f"the buffer stores rlvr.core.Rollout objects, got {type(r).__name__}")
        if self.hindsight is not None and items:
            items += self.hindsight(items)
        t = len(self.shards)
        if self.config.sampler == "group":  # deal whole groups, so each shard keeps complete groups
            unit: dict[str, int] = {}
            keys = [unit.setdefault(r.group_id or f"\0{i}", len(unit)) for i, r in enumerate(items)]
        else:
            keys = list(range(len(items)))
        with self._lock:
            start = self._cursor
            self._cursor = (start + (max(keys) + 1 if keys else 0)) % t
        parts: list[list[Rollout]] = [[] for _ in range(t)]
        for r, key in zip(items, keys):
            parts[(start + key) % t].append(r)
        for rank, part in enumerate(parts):
            if part:
                self.shards[rank].extend(part, step)

    def sample(
        self, batch_size: int, step: int, *, rank: int, policy_version: int | None = None
    ) -> SampledBatch:
        """Rank `rank` draws from its own shard only."""
        return self.shard(rank).sample(batch_size, step, policy_version=policy_version)

    def update_priorities(self, indices: np.ndarray, values: np.ndarray, *, rank: int) -> int:
        """Update priorities of items of rank `rank`'s shard (handles come from that shard's batches)."""
        return self.shard(rank).update_priorities(indices, values)

    def wait_for(self, size: int, timeout: float | None = None, *, rank: int) -> bool:
        """Block until rank `rank`'s shard holds `size` items."""
        return self.shard(rank).wait_for(size, timeout)

    def metrics(self) -> dict[str, float]:
        """Totals over shards for counts, means over shards otherwise, plus per-shard sizes."""
        per = [s.metrics() for s in self.shards]
        out: dict[str, float] = {}
        for key in sorted({k for m in per for k in m}):
            values = [m[key] for m in per if key in m]
            additive = any(key == a or (a.endswith("/") and key.startswith(a)) for a in _ADDITIVE)
            out[key] = float(sum(values)) if additive else float(np.mean(values))
        out["fill"] = out["size"] / out["capacity"]
        out["replay_ratio"] = out["draws"] / max(1.0, out["inserted"])
        out.update({f"shard/{r}/size": m["size"] for r, m in enumerate(per)})
        return out

    def state_dict(self) -> dict[str, Any]:
        """Every shard's state, the dealing cursor and the relabeler's state."""
        with self._lock:
            return {
                "format": STATE_FORMAT,
                "num_shards": len(self.shards),
                "cursor": self._cursor,
                "shards": [s.state_dict() for s in self.shards],
                "hindsight": None if self.hindsight is None else self.hindsight.state_dict(),
            }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore a snapshot taken by `state_dict` (same config, same number of shards)."""
        if state.get("num_shards") != len(self.shards):
            raise ConfigError(
                f"the saved buffer has {state.get('num_shards')} shards, this one {len(self.shards)}; "
                "use the same num_shards (one per learner rank) as when it was saved"
            )
        if (state["hindsight"] is None) != (self.hindsight is None):
            raise ConfigError("saved and current buffers disagree on hindsight; use the same BufferConfig")
        with self._lock:
            for shard, shard_state in zip(self.shards, state["shards"]):
                shard.load_state_dict(shard_state)
            self._cursor = int(state["cursor"])
            if self.hindsight is not None:
                self.hindsight.load_state_dict(state["hindsight"])

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write all shards to one file atomically."""
        save_state(self.state_dict(), path)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Restore a buffer saved with `save`."""
        self.load_state_dict(load_state(path))
