"""Sum-tree correctness, and the statistics of prioritized replay: P(i) ∝ p_i^alpha and the IS weights."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rlvr.buffer import BufferConfig, MinTree, PriorityConfig, ReplayBuffer, SumTree
from rlvr.core import DataError, Rollout, Verdict, make_rng


def rollout(i: int, advantage: float = 1.0, group_mean: float = 0.5) -> Rollout:
    return Rollout(
        f"k{i}",
        "p",
        "c",
        [1],
        [2],
        [-0.1],
        Verdict.fail("wrong"),
        0.0,
        advantage=advantage,
        group_mean=group_mean,
    )


# ---- chi-square without scipy: the exact survival function, checked against table values -----------------


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X ~ chi-square(df): 1 - regularized lower incomplete gamma P(df/2, x/2) (series form)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    term = total = 1.0 / a
    n = 0
    while term > total * 1e-15:
        n += 1
        term *= z / (a + n)
        total += term
    lower = math.exp(a * math.log(z) - z - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def test_chi2_survival_function_matches_tables() -> None:
    # critical values from standard chi-square tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4)
    for df, crit, alpha in [(1, 3.841, 0.05), (10, 18.307, 0.05), (10, 29.588, 0.001), (19, 43.820, 0.001)]:
        assert chi2_sf(crit, df) == pytest.approx(alpha, rel=2e-3)


def chi2_pvalue(counts: np.ndarray, probs: np.ndarray) -> float:
    expected = counts.sum() * probs
    stat = float(((counts - expected) ** 2 / expected).sum())
    return chi2_sf(stat, counts.size - 1)


# ---- sum-tree ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("capacity", [1, 2, 3, 17, 1000])
def test_sum_tree_matches_brute_force(capacity: int) -> None:
    rng = np.random.default_rng(capacity)
    tree, low = SumTree(capacity), MinTree(capacity)
    values = np.zeros(capacity)
    for _ in range(20):
        idx = rng.integers(0, capacity, size=rng.integers(1, 8))
        new = rng.random(idx.size) * (rng.random(idx.size) > 0.2)
        _, last = np.unique(idx[::-1], return_index=True)
        idx, new = idx[::-1][last], new[::-1][last]
        tree.update(idx, new)
        low.update(idx, np.where(new > 0, new, np.inf))
        values[idx] = new
        assert tree.root == pytest.approx(values.sum())
        positive = values[values > 0]
        assert low.root == (positive.min() if positive.size else np.inf)
        if values.sum() > 0:
            u = rng.random(50) * values.sum()
            np.testing.assert_array_equal(tree.find(u), np.searchsorted(np.cumsum(values), u, side="right"))
            assert (values[tree.sample(200, rng)] > 0).all()  # zero leaves are never drawn
    rebuilt = SumTree(capacity)
    rebuilt.rebuild(values)
    assert rebuilt.root == pytest.approx(tree.root)
    np.testing.assert_array_equal(rebuilt.leaves, tree.leaves)


def test_sum_tree_rejects_bad_use() -> None:
    tree = SumTree(4)
    with pytest.raises(ValueError, match="total is zero"):
        tree.sample(1, np.random.default_rng(0))
    with pytest.raises(IndexError):
        tree.update(np.array([4]), 1.0)
    with pytest.raises(ValueError):
        SumTree(0)


# ---- PER ---------------------------------------------------------------------------------------------------


def per_buffer(
    n: int, alpha: float, replacement: bool, **priority: object
) -> tuple[ReplayBuffer, np.ndarray]:
    cfg = BufferConfig(
        capacity=n,
        sampler="prioritized",
        replacement=replacement,
        priority=PriorityConfig(alpha=alpha, **priority),  # type: ignore[arg-type]
    )
    buf = ReplayBuffer(cfg, make_rng(7))
    buf.extend([rollout(i) for i in range(n)], step=0)
    priorities = np.linspace(0.05, 3.0, n) ** 1.5
    handles = buf.table.handles(np.arange(n))
    assert buf.update_priorities(handles, priorities) == n
    return buf, priorities


def slot_counts(buf: ReplayBuffer, n: int, draws: int, batch: int) -> np.ndarray:
    counts = np.zeros(n)
    for _ in range(draws // batch):
        b = buf.sample(batch, step=0)
        np.add.at(counts, [int(r.example_key[1:]) for r in b.rollouts], 1)
    return counts


@pytest.mark.parametrize("alpha", [0.6, 1.0])
def test_per_samples_in_proportion_to_priority_power_alpha(alpha: float) -> None:
    n = 20
    buf, p = per_buffer(n, alpha, replacement=True)
    counts = slot_counts(buf, n, draws=40_000, batch=200)
    eps = buf.config.priority.eps
    target = (p + eps) ** alpha / ((p + eps) ** alpha).sum()
    assert chi2_pvalue(counts, target) > 1e-3
    # the same counts are far from another exponent, so the test has power
    wrong = (p + eps) ** (alpha + 0.3) / ((p + eps) ** (alpha + 0.3)).sum()
    assert chi2_pvalue(counts, wrong) < 1e-6
    assert chi2_pvalue(counts, np.full(n, 1 / n)) < 1e-6


def test_per_single_draws_without_replacement_are_proportional_too() -> None:
    n = 12
    buf, p = per_buffer(n, 0.6, replacement=False)
    counts = slot_counts(buf, n, draws=6000, batch=1)
    target = (p + 1e-6) ** 0.6 / ((p + 1e-6) ** 0.6).sum()
    assert chi2_pvalue(counts, target) > 1e-3


def test_per_batches_without_replacement_are_distinct_and_leave_the_tree_intact() -> None:
    n = 10
    buf, _ = per_buffer(n, 1.0, replacement=False)
    sampler = buf.sampler
    before = sampler._sum.leaves.copy()  # type: ignore[attr-defined]
    for size in (3, 9, 10):
        b = buf.sample(size, step=0)
        assert len({r.example_key for r in b.rollouts}) == size
    np.testing.assert_array_equal(sampler._sum.leaves, before)  # type: ignore[attr-defined]


@pytest.mark.parametrize("step", [0, 50, 100, 400])
def test_importance_weights_match_the_formula(step: int) -> None:
    n = 16
    buf, p = per_buffer(n, 0.7, replacement=True, beta=0.4, beta_final=1.0, beta_steps=100)
    b = buf.sample(64, step=step)
    beta = 0.4 + 0.6 * min(1.0, step / 100)
    probs = (p + 1e-6) ** 0.7 / ((p + 1e-6) ** 0.7).sum()
    w_all = (n * probs) ** -beta
    slots = np.array([int(r.example_key[1:]) for r in b.rollouts])
    np.testing.assert_allclose(b.weights, w_all[slots] / w_all[slots].mean(), rtol=1e-9)
    assert b.weights.mean() == pytest.approx(1.0)  # the loss scale of uniform sampling
    assert buf.metrics()["priority/beta"] == pytest.approx(beta)


def test_new_items_get_the_configured_priority() -> None:
    cfg = BufferConfig(capacity=8, sampler="prioritized", priority=PriorityConfig(source="max", alpha=1.0))
    buf = ReplayBuffer(cfg, make_rng(0))
    buf.extend([rollout(i) for i in range(4)], step=0)
    buf.update_priorities(buf.table.handles(np.arange(4)), [0.5, 7.0, 2.0, 1.0])
    buf.extend([rollout(4)], step=0)
    assert buf.sampler._priority[4] == 7.0  # type: ignore[attr-defined]  # PER: new items at max priority
    for source, expected in [("advantage", 0.8), ("learnability", 0.25 * 0.75), (lambda r: 3.0, 3.0)]:
        cfg = BufferConfig(capacity=2, sampler="prioritized", priority=PriorityConfig(source=source))
        buf = ReplayBuffer(cfg, make_rng(0))
        buf.extend([rollout(0, advantage=-0.8, group_mean=0.25)], step=0)
        assert buf.metrics()["priority/max"] == pytest.approx(expected)


def test_priorities_by_stale_handle_are_ignored_and_bad_values_rejected() -> None:
    cfg = BufferConfig(capacity=2, sampler="prioritized", priority=PriorityConfig(alpha=1.0))
    buf = ReplayBuffer(cfg, make_rng(0))
    buf.extend([rollout(0), rollout(1)], step=0)
    old = buf.sample(2, step=0).indices
    buf.extend([rollout(2)], step=0)  # evicts k0, whose slot k2 now uses
    assert buf.update_priorities(old, [5.0, 5.0]) == 1
    assert sorted(buf.sampler._priority.tolist()) == [1.0, 5.0]  # type: ignore[attr-defined]
    with pytest.raises(DataError, match="finite and >= 0"):
        buf.update_priorities(buf.sample(1, step=0).indices, [-1.0])
    with pytest.raises(ValueError, match="one per index"):
        buf.update_priorities(old, [1.0])


def test_zero_advantage_items_do_not_shrink_the_loss_scale() -> None:
    """All-equal groups (A = 0, priority eps) in the buffer must not set every other item's weight.

    With PER's max-over-live-items normalisation one such item made every weight ~1/28 (alpha 0.6, beta 0.4).
    """
    cfg = BufferConfig(capacity=64, sampler="prioritized", priority=PriorityConfig(source="advantage"))
    informative = [rollout(i, advantage=a) for i, a in enumerate(np.linspace(0.5, 1.5, 32))]
    alone = ReplayBuffer(cfg, make_rng(0))
    alone.extend(informative, step=0)
    mixed = ReplayBuffer(cfg, make_rng(0))
    mixed.extend(informative + [rollout(100 + i, advantage=0.0) for i in range(16)], step=0)
    w_alone, w_mixed = alone.sample(16, step=0).weights, mixed.sample(16, step=0).weights
    assert w_alone.mean() == pytest.approx(1.0) and w_mixed.mean() == pytest.approx(1.0)
    assert w_mixed.min() > 0.5  # the old normalisation gave ~0.03 here
    assert w_alone.max() / w_alone.min() < 2.0  # the relative correction inside the batch is PER's
