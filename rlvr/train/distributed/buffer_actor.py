"""The replay buffer as one Ray actor: rollout workers push into it, each learner rank's batch comes out of it.

It wraps the same `ReplayBuffer` (or, with buffer.num_shards = T, `ShardedReplayBuffer`) the single-process
trainer uses, seeded the same way, so one actor fed the same rollouts draws the same batches. Batches leave as
T parts straight to the learner ranks (`num_returns=T`), never through the driver: with one buffer the batch
of B is drawn once and cut into T contiguous slices; with shards, rank r draws B/T from shard r (the paper).
The actor's state is checkpointed by the driver next to the learner's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from rlvr.buffer import NotEnoughItems, ShardedReplayBuffer
from rlvr.core.seeding import seed_everything
from rlvr.core.types import Rollout
from rlvr.policy.learner import micro_batch_order
from rlvr.train.build import build_buffer, build_model
from rlvr.train.config import RunConfig
from rlvr.train.distributed.runtime import setup_actor


class BufferActor:
    """Holds the run's replay buffer; all methods are small and coarse (one call per insert or batch)."""

    def __init__(self, config: RunConfig) -> None:
        assert config.distributed is not None
        setup_actor(config)
        seed_everything(config.train.seed)
        tokenizer = None
        if (
            config.buffer.hindsight is not None
        ):  # relabeled prompts are re-encoded with the policy's tokenizer
            _, tokenizer = build_model(config.model, config.train.seed)
        self.buffer = build_buffer(config, None, tokenizer)
        self.sharded = isinstance(self.buffer, ShardedReplayBuffer)

    def extend(self, rollouts: Sequence[Rollout], step: int) -> int:
        """Insert rollouts (FIFO eviction, hindsight relabeling as configured); returns the buffer size."""
        self.buffer.extend(rollouts, step)
        return len(self.buffer)

    def extend_many(self, step: int, *parts: Sequence[Rollout]) -> int:
        """Insert several workers' rollouts in the given order, as one insertion (sync mode)."""
        return self.extend([r for part in parts for r in part], step)

    def size(self) -> int:
        """Items currently held (over all shards)."""
        return len(self.buffer)

    def sample_parts(self, batch_size: int, version: int, parts: int, warmup: int = 0) -> Any:
        """T batch slices for the learner ranks (a single one when T = 1); all None when there is no batch.

        None when the buffer holds fewer than `warmup` items or not enough after staleness eviction; every
        rank then skips the step together (a rank alone cannot skip a collective step).
        """
        out: list[dict[str, Any] | None] = [None] * parts
        if len(self.buffer) >= max(warmup, 1):
            try:
                out = self._sample(batch_size, version, parts)  # type: ignore[assignment]
            except NotEnoughItems:
                out = [None] * parts
        return out[0] if parts == 1 else tuple(out)

    def _sample(self, batch_size: int, version: int, parts: int) -> list[dict[str, Any]]:
        if self.sharded:
            per = batch_size // parts
            buffer: ShardedReplayBuffer = self.buffer  # type: ignore[assignment]
            if any(len(buffer.shard(r)) < per for r in range(parts)):  # check all before drawing from any
                raise NotEnoughItems(f"a shard holds fewer than {per} items")
            batches = [buffer.sample(per, version, rank=r, policy_version=version) for r in range(parts)]
            return [_part(b.rollouts, b.weights, b.ages) for b in batches]
        batch = self.buffer.sample(batch_size, version, policy_version=version)  # type: ignore[call-arg]
        return rank_slices(batch.rollouts, batch.weights, batch.ages, parts)

    def metrics(self) -> dict[str, float]:
        """The buffer's metrics (size, evictions, replay ratio, staleness histogram, ...)."""
        return {k: float(v) for k, v in self.buffer.metrics().items()}

    def state_dict(self) -> dict[str, Any]:
        """A snapshot of contents, bookkeeping and RNG (the driver writes it into the checkpoint)."""
        return self.buffer.state_dict()

    def load_state_dict(self, state: dict[str, Any]) -> int:
        """Restore a snapshot; returns the size."""
        self.buffer.load_state_dict(state)
        return len(self.buffer)


def rank_slices(rollouts: Sequence[Rollout], weights: Any, ages: Any, parts: int) -> list[dict[str, Any]]:
    """One batch cut into `parts` contiguous slices in the learner's micro-batch order.

    Samples of a prompt stay together (`share_prompts` runs each prompt once per micro-batch), and each rank's
    micro-batches are the ones a single process cuts from the whole batch (the ranks' steps add up to its).
    """
    order = micro_batch_order(rollouts)
    ordered = [rollouts[i] for i in order]
    weights, ages = np.asarray(weights)[order], np.asarray(ages)[order]
    n = len(ordered)
    bounds = [n * i // parts for i in range(parts + 1)]
    return [_part(ordered[lo:hi], weights[lo:hi], ages[lo:hi]) for lo, hi in itertools.pairwise(bounds)]


def _part(rollouts: list[Rollout], weights: Any, ages: Any) -> dict[str, Any]:
    return {"rollouts": list(rollouts), "weights": weights, "ages": ages}
