"""One buffer per learner rank: even round-robin filling, local sampling, whole groups, persistence."""

from __future__ import annotations

import numpy as np
import pytest

from rlvr.buffer import BufferConfig, ReplayBuffer, ShardedReplayBuffer, make_buffer
from rlvr.core import ConfigError, Rollout, Verdict, make_rng


def rollout(i: int, group: str = "", group_size: int = 1) -> Rollout:
    return Rollout(
        f"k{i}", "p", "c", [1], [2], [-0.1], Verdict.fail("wrong"), 0.0, group_id=group, group_size=group_size
    )


def shard_keys(buf: ShardedReplayBuffer, rank: int) -> set[str]:
    s = buf.shard(rank)
    return {r.example_key for r in s.storage.get(s.table.live_slots())}


def test_capacity_is_split_and_filled_evenly() -> None:
    buf = make_buffer(BufferConfig(capacity=10, num_shards=3), make_rng(0))
    assert isinstance(buf, ShardedReplayBuffer)
    assert [s.config.capacity for s in buf.shards] == [4, 3, 3]
    n = 0
    for size in (1, 2, 1, 1):  # round-robin continues across calls
        buf.extend([rollout(n + j) for j in range(size)], step=0)
        n += size
        sizes = [len(s) for s in buf.shards]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    everything = [shard_keys(buf, r) for r in range(3)]
    assert set().union(*everything) == {f"k{i}" for i in range(5)}
    assert sum(map(len, everything)) == 5  # each rollout lives on exactly one shard


def test_each_rank_samples_only_its_shard() -> None:
    buf = ShardedReplayBuffer(BufferConfig(capacity=12, num_shards=2), make_rng(0))
    buf.extend([rollout(i) for i in range(12)], step=0)
    for rank in (0, 1):
        own = shard_keys(buf, rank)
        for step in range(5):
            assert {r.example_key for r in buf.sample(4, step, rank=rank).rollouts} <= own
    assert isinstance(buf.shard(1), ReplayBuffer)
    with pytest.raises(IndexError):
        buf.shard(2)
    m = buf.metrics()
    assert m["size"] == 12 and m["capacity"] == 12 and m["draws"] == 40
    assert m["replay_ratio"] == pytest.approx(40 / 12) and m["shard/0/size"] == 6


def test_group_sampling_deals_whole_groups() -> None:
    buf = ShardedReplayBuffer(BufferConfig(capacity=24, num_shards=2, sampler="group"), make_rng(0))
    buf.extend([rollout(i, group=f"g{i // 4}", group_size=4) for i in range(16)], step=0)
    for rank in (0, 1):
        batch = buf.sample(8, 0, rank=rank)
        groups = [r.group_id for r in batch.rollouts]
        assert len(batch) == 8 and all(groups.count(g) == 4 for g in groups)
    assert len(buf.shard(0)) == len(buf.shard(1)) == 8


def test_sharded_state_round_trip(tmp_path: object) -> None:
    cfg = BufferConfig(capacity=9, num_shards=3, sampler="prioritized")
    buf = ShardedReplayBuffer(cfg, make_rng(0))
    buf.extend([rollout(i) for i in range(11)], step=0)
    b = buf.sample(2, 0, rank=1)
    assert buf.update_priorities(b.indices, np.array([3.0, 4.0]), rank=1) == 2
    buf.save(tmp_path / "sharded.pkl")  # type: ignore[operator]
    clone = ShardedReplayBuffer(cfg, make_rng(42))
    clone.load(tmp_path / "sharded.pkl")  # type: ignore[operator]
    for rank in range(3):
        assert [r.example_key for r in clone.sample(2, 1, rank=rank).rollouts] == [
            r.example_key for r in buf.sample(2, 1, rank=rank).rollouts
        ]
    clone.extend([rollout(20)], step=1)
    buf.extend([rollout(20)], step=1)
    assert [shard_keys(clone, r) for r in range(3)] == [shard_keys(buf, r) for r in range(3)]
    with pytest.raises(ConfigError, match="num_shards"):
        ShardedReplayBuffer(BufferConfig(capacity=9, num_shards=2), make_rng(0)).load_state_dict(
            buf.state_dict()
        )
    assert buf.wait_for(3, timeout=0.01, rank=0)
