"""Positive-bias retention (PAPER.md section 1): the paper's worked example and a brute-force check of the rule."""

from __future__ import annotations

import numpy as np
import pytest

from rlvr.buffer import BufferConfig, ReplayBuffer, StalenessConfig
from rlvr.core import Rollout, Verdict, make_rng


def rollout(i: int, correct: bool) -> Rollout:
    verdict = Verdict.correct() if correct else Verdict.fail("wrong")
    return Rollout(f"z{i}", "p", "c", [1], [2], [-0.1], verdict, float(correct))


def stored(buf: ReplayBuffer) -> set[str]:
    return {r.example_key for r in buf.storage.get(buf.table.live_slots())}


def expected_by_rule(correct: list[bool], capacity: int, delta: float) -> set[int]:
    """The rule over the whole history: the freshest (1-delta)N, plus the freshest delta*N correct ones not
    among them, topped up with the freshest remaining (incorrect) ones while fewer than N are kept."""
    n_correct = round(delta * capacity)
    recent = (
        list(range(len(correct)))[len(correct) - (capacity - n_correct) :] if capacity > n_correct else []
    )
    older = [i for i in range(len(correct)) if i not in set(recent)]
    good = [i for i in reversed(older) if correct[i]][:n_correct]
    room = min(capacity, len(correct)) - len(recent) - len(good)
    pad = [i for i in reversed(older) if not correct[i]][: max(0, room)]
    return set(recent) | set(good) | set(pad)


# z_{t-9} .. z_t = R G G R G G R G R R (R: incorrect, G: correct); index 9 is z_t
PAPER_LABELS = [c == "G" for c in ["R", "G", "G", "R", "G", "G", "R", "G", "R", "R"]]


def test_papers_worked_example_is_the_delta_one_half_case() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=8, writer="positive_bias", positive_bias_delta=0.5), make_rng(0))
    for i, ok in enumerate(PAPER_LABELS):
        buf.extend([rollout(i, ok)], step=i)
    # the paper's buffer {z_{t-8}, z_{t-7}, z_{t-5}, ..., z_t}: z_{t-9} and z_{t-6} (both incorrect) are gone
    assert stored(buf) == {f"z{i}" for i in (1, 2, 4, 5, 6, 7, 8, 9)}
    assert expected_by_rule(PAPER_LABELS, 8, 0.5) == {1, 2, 4, 5, 6, 7, 8, 9}


def test_delta_three_quarters_needs_the_top_up_to_match_the_example() -> None:
    # the paper's text says delta = 0.75: 2 freshest + 6 freshest correct older ones, but only 5 exist; with
    # our top-up (freshest incorrect fills the room) it lands on the same 8 items, without it on 7 of them
    buf = ReplayBuffer(
        BufferConfig(capacity=8, writer="positive_bias", positive_bias_delta=0.75), make_rng(0)
    )
    buf.extend([rollout(i, ok) for i, ok in enumerate(PAPER_LABELS)], step=0)
    assert stored(buf) == {f"z{i}" for i in (1, 2, 4, 5, 6, 7, 8, 9)}


def test_plain_fifo_would_keep_different_items() -> None:
    buf = ReplayBuffer(BufferConfig(capacity=8), make_rng(0))
    buf.extend([rollout(i, ok) for i, ok in enumerate(PAPER_LABELS)], step=0)
    assert stored(buf) == {f"z{i}" for i in range(2, 10)}


@pytest.mark.parametrize("delta", [0.0, 0.2, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("capacity", [1, 5, 8, 13])
def test_retention_matches_the_rule_over_random_histories(delta: float, capacity: int) -> None:
    rng = np.random.default_rng(int(capacity * 10 + delta * 100))
    buf = ReplayBuffer(
        BufferConfig(capacity=capacity, writer="positive_bias", positive_bias_delta=delta), make_rng(0)
    )
    history: list[bool] = []
    while len(history) < 6 * capacity + 10:
        size = int(rng.integers(1, 2 * capacity + 2))  # batches larger than the buffer too
        labels = (rng.random(size) < rng.choice([0.1, 0.5, 0.9])).tolist()
        buf.extend([rollout(len(history) + j, ok) for j, ok in enumerate(labels)], step=0)
        history += labels
        assert stored(buf) == {f"z{i}" for i in expected_by_rule(history, capacity, delta)}
        assert len(buf) == min(capacity, len(history))
    m = buf.metrics()
    assert m["inserted"] == len(history) and m["size"] + m["evicted/capacity"] + m["dropped"] == len(history)


def test_positive_bias_state_round_trip_and_freed_slots() -> None:
    cfg = BufferConfig(
        capacity=6, writer="positive_bias", positive_bias_delta=0.5, staleness=StalenessConfig(max_uses=1)
    )
    buf = ReplayBuffer(cfg, make_rng(0))
    buf.extend([rollout(i, i % 3 == 0) for i in range(9)], step=0)
    buf.sample(2, 0)  # retires two items, freeing their slots
    assert len(buf) == 4
    clone = ReplayBuffer(cfg, make_rng(1))
    clone.load_state_dict(buf.state_dict())
    more = [rollout(9 + i, i % 2 == 0) for i in range(5)]
    buf.extend(more, step=1)
    clone.extend(more, step=1)
    assert stored(buf) == stored(clone) and len(buf) == 6
