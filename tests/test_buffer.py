"""The replay buffer: sampler x storage x capacity, FIFO order, staleness, persistence, metrics, threads."""

from __future__ import annotations

import copy
import pickle
import threading

import numpy as np
import pytest

from rlvr.buffer import (
    SAMPLERS,
    STORAGES,
    BufferConfig,
    NotEnoughItems,
    PriorityConfig,
    ReplayBuffer,
    StalenessConfig,
    make_buffer,
    staleness_histogram,
)
from rlvr.core import ConfigError, Rollout, Verdict, make_rng


def rollout(
    i: int, *, correct: bool = False, version: int = 0, group: str = "", group_size: int = 1
) -> Rollout:
    n = 1 + i % 5  # ragged completions exercise the array storage's padding
    return Rollout(
        example_key=f"k{i}",
        prompt=f"prompt {i}",
        completion=f"completion {i}",
        prompt_ids=[i, i + 1],
        completion_ids=list(range(i, i + n)),
        behaviour_logprobs=[-0.5 - 0.01 * j for j in range(n)],
        verdict=Verdict.correct() if correct else Verdict.fail("wrong"),
        reward=float(correct),
        advantage=0.1 * (i % 7) - 0.3,
        group_id=group,
        group_size=group_size,
        policy_version=version,
        created_step=version,
        metadata={"i": i},
    )


def keys(rollouts: list[Rollout]) -> list[str]:
    return [r.example_key for r in rollouts]


def same_rollout(a: Rollout, b: Rollout) -> bool:
    return (
        a.example_key == b.example_key
        and a.completion == b.completion
        and np.array_equal(a.prompt_ids, b.prompt_ids)
        and np.array_equal(a.completion_ids, b.completion_ids)
        and np.array_equal(a.behaviour_logprobs, b.behaviour_logprobs)
        and a.advantage == b.advantage
        and a.verdict == b.verdict
        and a.metadata == b.metadata
    )


SAMPLER_NAMES = SAMPLERS.names()
STORAGE_NAMES = STORAGES.names()


@pytest.mark.parametrize("capacity", [1, 7, 64])
@pytest.mark.parametrize("storage", STORAGE_NAMES)
@pytest.mark.parametrize("sampler", SAMPLER_NAMES)
def test_every_sampler_storage_and_capacity(sampler: str, storage: str, capacity: int) -> None:
    buf = ReplayBuffer(BufferConfig(capacity=capacity, sampler=sampler, storage=storage), make_rng(1))
    inserted = [rollout(i, version=i // 10) for i in range(3 * capacity + 2)]
    for start in range(0, len(inserted), 5):
        buf.extend(inserted[start : start + 5], step=start // 10)
    held = inserted[-capacity:]  # FIFO keeps the `capacity` most recent
    assert len(buf) == capacity
    by_key = {r.example_key: r for r in held}
    batch_size = min(capacity, 4)
    for step in range(6):
        batch = buf.sample(batch_size, step=10 + step)
        assert len(batch) == batch_size == len(batch.indices) == len(batch.weights)
        assert len(set(keys(batch.rollouts))) == batch_size  # no repeats within a batch (paper default)
        assert all(same_rollout(r, by_key[r.example_key]) for r in batch.rollouts)  # stored intact
        assert (batch.weights > 0).all() and np.isfinite(batch.weights).all()
        np.testing.assert_array_equal(batch.ages, [10 + step - r.policy_version for r in batch.rollouts])
        assert len(buf) == capacity  # sampling never removes
    m = buf.metrics()
    assert m["draws"] == 6 * batch_size and m["size"] == capacity
    assert m["uses/mean"] == pytest.approx(6 * batch_size / capacity)


def test_fifo_evicts_oldest_first_whatever_the_batching() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=5), make_rng(0))
    history: list[Rollout] = []
    sizes = [1, 3, 2, 7, 1, 1, 4, 12]
    i = 0
    for size in sizes:
        new = [rollout(i + j) for j in range(size)]
        i += size
        history += new
        buf.extend(new, step=0)
        live = buf.storage.get(buf.table.live_slots())
        order = np.argsort(buf.table.serial[buf.table.live_slots()])
        assert keys([live[j] for j in order]) == keys(history[-5:])
    m = buf.metrics()
    assert m["inserted"] == i and m["evicted/capacity"] + m["dropped"] == i - 5


def test_uniform_sampling_is_uniform_and_replacement_is_opt_in() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=10), make_rng(3))
    buf.extend([rollout(i) for i in range(10)], step=0)
    counts = np.zeros(10)
    for _ in range(2000):
        np.add.at(counts, [int(k[1:]) for k in keys(buf.sample(3, 0).rollouts)], 1)
    assert counts.min() > 0.85 * 600 and counts.max() < 1.15 * 600
    with pytest.raises(NotEnoughItems, match="replacement=True"):
        buf.sample(11, 0)
    rep = ReplayBuffer(BufferConfig(capacity=10, replacement=True), make_rng(3))
    rep.extend([rollout(i) for i in range(3)], step=0)
    assert len(rep.sample(50, 0)) == 50
    with pytest.raises(NotEnoughItems, match="empty"):
        ReplayBuffer(BufferConfig(capacity=3), make_rng(0)).sample(1, 0)


def test_no_replacement_across_draws_visits_every_item_once_per_pass() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=12, sampler="no_replacement"), make_rng(0))
    buf.extend([rollout(i) for i in range(12)], step=0)
    seen = [k for _ in range(4) for k in keys(buf.sample(3, 0).rollouts)]
    assert sorted(seen) == sorted(f"k{i}" for i in range(12))
    buf.sample(5, 0), buf.sample(5, 0)  # pass 2: 10 of 12 drawn
    straddle = keys(buf.sample(5, 0).rollouts)  # the last 2 of pass 2, then 3 opening pass 3
    assert len(set(straddle)) == 5
    rest_of_pass = keys(buf.sample(9, 0).rollouts)
    assert sorted(rest_of_pass + straddle[2:]) == sorted(f"k{i}" for i in range(12))
    assert buf.sampler.passes == 2  # type: ignore[attr-defined]


def test_never_used_first_prefers_fresh_items() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=10, sampler="never_used_first"), make_rng(0))
    buf.extend([rollout(i) for i in range(6)], step=0)
    first = set(keys(buf.sample(4, 0).rollouts))
    assert buf.metrics()["uses/never_used_frac"] == pytest.approx(2 / 6)
    buf.extend([rollout(i) for i in range(6, 8)], step=0)
    second = keys(buf.sample(5, 1).rollouts)
    unused = {f"k{i}" for i in range(8)} - first
    assert set(second[:4]) == unused and second[4] in first


def test_group_sampling_returns_whole_complete_groups() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=10, sampler="group"), make_rng(0))
    items = [rollout(i, group=f"g{i // 4}", group_size=4) for i in range(14)]
    buf.extend(items, step=0)  # capacity 10 keeps k4..k13: groups g1, g2 complete, g3 partial (2 of 4)
    for _ in range(10):
        batch = buf.sample(8, 0)
        assert sorted(r.group_id for r in batch.rollouts) == ["g1"] * 4 + ["g2"] * 4
    assert {r.group_id for r in buf.sample(4, 0).rollouts} <= {"g1", "g2"}
    with pytest.raises(NotEnoughItems, match="multiple of the group size"):
        buf.sample(3, 0)
    assert buf.metrics()["groups/complete"] == 2


def test_max_age_evicts_or_downweights_and_max_uses_retires() -> None:
    cfg = BufferConfig(capacity=20, staleness=StalenessConfig(max_age=2))
    buf = ReplayBuffer(cfg, make_rng(0))
    buf.extend([rollout(i, version=i) for i in range(6)], step=5)
    assert len(buf) == 3  # the newest rollout is version 5, so versions 0..2 are already too old
    batch = buf.sample(2, step=6)  # at version 6, max_age 2 keeps versions 4 and 5
    assert sorted(keys(batch.rollouts)) == ["k4", "k5"] and len(buf) == 2
    assert buf.metrics()["evicted/age"] == 4
    buf.extend([rollout(9, version=1)], step=6)  # a straggler from an old policy is evicted on arrival
    assert len(buf) == 2

    down = ReplayBuffer(
        BufferConfig(capacity=20, staleness=StalenessConfig(max_age=1, action="downweight", decay=0.5)),
        make_rng(0),
    )
    down.extend([rollout(i, version=i) for i in range(4)], step=3)
    b = down.sample(4, step=3)
    np.testing.assert_allclose(b.weights, 0.5 ** np.maximum(b.ages - 1, 0))
    assert len(down) == 4

    uses = ReplayBuffer(BufferConfig(capacity=4, staleness=StalenessConfig(max_uses=2)), make_rng(0))
    uses.extend([rollout(i) for i in range(4)], step=0)
    for _ in range(4):
        uses.sample(2, 0)
    assert len(uses) == 0 and uses.metrics()["evicted/uses"] == 4
    uses.extend([rollout(i) for i in range(4, 6)], step=0)  # holes are refilled by the ring
    assert len(uses) == 2 and sorted(keys(uses.sample(2, 0).rollouts)) == ["k4", "k5"]


def test_batch_reports_use_counts_and_replay_ratio() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=3), make_rng(0))
    buf.extend([rollout(i) for i in range(3)], step=0)
    assert list(buf.sample(3, 0).use_counts) == [0, 0, 0]
    assert list(buf.sample(3, 1).use_counts) == [1, 1, 1]
    m = buf.metrics()
    assert m["replay_ratio"] == 2.0 and m["uses_per_used_rollout"] == 2.0


def test_staleness_histogram_bins() -> None:
    h = staleness_histogram(np.array([0, 0, 1, 2, 3, 4, 7, 8, -1]))
    assert h == {
        "staleness/hist/0": 3.0,
        "staleness/hist/1": 1.0,
        "staleness/hist/2-3": 2.0,
        "staleness/hist/4-7": 2.0,
        "staleness/hist/8-15": 1.0,
    }
    buf = ReplayBuffer(BufferConfig(capacity=10), make_rng(0))
    buf.extend([rollout(i, version=i) for i in range(5)], step=0)
    buf.sample(1, step=6)
    m = buf.metrics()
    assert m["staleness/max"] == 6 and m["staleness/hist/2-3"] == 2 and m["policy_version"] == 6


@pytest.mark.parametrize("storage", STORAGE_NAMES)
@pytest.mark.parametrize("sampler", SAMPLER_NAMES)
def test_restored_state_repeats_the_samples(sampler: str, storage: str, tmp_path: object) -> None:
    cfg = BufferConfig(capacity=16, sampler=sampler, storage=storage, priority=PriorityConfig(alpha=1.0))
    buf = ReplayBuffer(cfg, make_rng(5))
    buf.extend([rollout(i, group=f"g{i // 2}", group_size=2) for i in range(20)], step=0)
    for step in range(3):
        b = buf.sample(4, step)
        buf.update_priorities(b.indices, np.arange(1.0, 5.0))
    state = copy.deepcopy(buf.state_dict())
    buf.save(tmp_path / "buffer.pkl")  # type: ignore[operator]

    def continue_run(b: ReplayBuffer) -> list[tuple[list[str], list[float], list[int]]]:
        out = []
        for step in range(3, 7):
            batch = b.sample(4, step)
            out.append((keys(batch.rollouts), batch.weights.tolist(), batch.use_counts.tolist()))
            b.update_priorities(batch.indices, np.full(len(batch), float(step)))
            b.extend([rollout(100 + step, group="h", group_size=1)], step=step)
        return out

    expected = continue_run(buf)
    for restore in ("state", "file"):
        fresh = ReplayBuffer(cfg, make_rng(999))  # a different seed: the state must carry the generator
        if restore == "state":
            fresh.load_state_dict(state)
        else:
            fresh.load(tmp_path / "buffer.pkl")  # type: ignore[operator]
        assert continue_run(fresh) == expected
        assert fresh.metrics() == buf.metrics()


def test_load_rejects_a_different_configuration() -> None:
    a = ReplayBuffer(BufferConfig(capacity=4), make_rng(0))
    with pytest.raises(ConfigError, match="same BufferConfig"):
        ReplayBuffer(BufferConfig(capacity=5), make_rng(0)).load_state_dict(a.state_dict())
    with pytest.raises(ConfigError, match="same BufferConfig"):
        ReplayBuffer(BufferConfig(capacity=4, sampler="prioritized"), make_rng(0)).load_state_dict(
            a.state_dict()
        )


def test_config_errors_say_how_to_fix() -> None:
    with pytest.raises(ConfigError, match="choose one of"):
        BufferConfig(sampler="lifo")
    with pytest.raises(ConfigError, match="capacity"):
        BufferConfig(capacity=0)
    with pytest.raises(ConfigError, match="set replacement=False"):
        BufferConfig(sampler="group", replacement=True)
    with pytest.raises(ConfigError, match=r"\[0, 1\]"):
        BufferConfig(positive_bias_delta=1.5)
    with pytest.raises(ConfigError, match="alpha"):
        PriorityConfig(alpha=-1)
    with pytest.raises(ConfigError, match="'evict' or 'downweight'"):
        StalenessConfig(action="drop")
    with pytest.raises(ConfigError, match="num_shards"):
        BufferConfig(capacity=2, num_shards=3)
    with pytest.raises(ConfigError, match="make_rng"):
        ReplayBuffer(BufferConfig(), rng=0)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="achieved_goal and relabel"):
        ReplayBuffer(BufferConfig(), make_rng(0), relabel=lambda r, g: r)
    with pytest.raises(ConfigError, match="opt-in"):
        ReplayBuffer(BufferConfig(recompute_on_sample=True), make_rng(0))
    with pytest.raises(TypeError, match="Rollout"):
        ReplayBuffer(BufferConfig(), make_rng(0)).extend(["not a rollout"], step=0)  # type: ignore[list-item]


def test_recompute_hook_changes_the_batch_not_the_store() -> None:
    def recompute(rs: list[Rollout]) -> list[Rollout]:
        import dataclasses

        return [dataclasses.replace(r, advantage=9.0) for r in rs]

    buf = ReplayBuffer(BufferConfig(capacity=4, recompute_on_sample=True), make_rng(0), recompute=recompute)
    buf.extend([rollout(i) for i in range(4)], step=0)
    assert {r.advantage for r in buf.sample(4, 0).rollouts} == {9.0}
    assert 9.0 not in {r.advantage for r in buf.storage.get(buf.table.live_slots())}


def test_array_storage_pads_for_collation() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=8, storage="array"), make_rng(0))
    items = [rollout(i) for i in range(8)]
    buf.extend(items, step=0)
    padded = buf.storage.padded(np.array([0, 4]))  # type: ignore[attr-defined]
    assert padded["completion_ids"].shape == (2, 5)
    assert padded["completion_lengths"].tolist() == [1, 5]
    np.testing.assert_array_equal(padded["completion_ids"][1], items[4].completion_ids)
    assert padded["completion_ids"][0, 1:].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("sampler", ["uniform", "prioritized", "group"])
def test_concurrent_writers_lose_nothing(sampler: str) -> None:
    writers, batches, per_batch = 4, 40, 5
    total = writers * batches * per_batch
    buf = ReplayBuffer(BufferConfig(capacity=total, sampler=sampler), make_rng(0))
    small = ReplayBuffer(BufferConfig(capacity=37, sampler=sampler), make_rng(0))
    errors: list[BaseException] = []
    done = threading.Event()

    def write(w: int) -> None:
        try:
            for b in range(batches):
                base = (w * batches + b) * per_batch
                items = [rollout(base + j, group=f"g{base}", group_size=per_batch) for j in range(per_batch)]
                buf.extend(items, step=b)
                small.extend(items, step=b)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def read() -> None:
        try:
            while not done.is_set():
                if len(small) >= 5:
                    small.sample(5, 0)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    reader = threading.Thread(target=read)
    reader.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    reader.join()
    assert not errors
    assert len(buf) == total
    assert sorted(keys(buf.storage.get(buf.table.live_slots()))) == sorted(f"k{i}" for i in range(total))
    m = small.metrics()
    assert m["inserted"] == total and m["size"] == 37
    assert m["size"] + m["evicted/capacity"] + m["dropped"] == total
    assert buf.wait_for(total, timeout=0.1) and not buf.wait_for(total + 1, timeout=0.05)


def test_make_buffer_and_pickling() -> None:
    for sampler in SAMPLER_NAMES:  # an empty extend is a no-op for every part
        empty = make_buffer(BufferConfig(capacity=4, sampler=sampler, writer="positive_bias"), make_rng(0))
        empty.extend([], step=0)
        assert len(empty) == 0 and empty.metrics()["inserted"] == 0
    buf = make_buffer(BufferConfig(capacity=4), make_rng(0))
    assert isinstance(buf, ReplayBuffer)
    buf.extend([rollout(0)], step=0)
    clone = pickle.loads(pickle.dumps(buf.state_dict()))
    assert clone["table"]["live"].sum() == 1
