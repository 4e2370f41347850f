"""Prioritized replay (Schaul et al. 2015) over a vectorised sum-tree, and the built-in priority sources."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rlvr.buffer.config import BufferConfig
from rlvr.buffer.registries import PRIORITY_SOURCES
from rlvr.buffer.samplers import Sampler, _check_size
from rlvr.buffer.sumtree import MinTree, SumTree
from rlvr.buffer.table import SlotTable
from rlvr.core.errors import DataError
from rlvr.core.types import Rollout


class _MaxPriority:
    """Marker source: give new items the largest priority seen so far (classic PER)."""

    def __repr__(self) -> str:
        return "MAX_PRIORITY"


MAX_PRIORITY = _MaxPriority()


def abs_advantage(rollout: Rollout) -> float:
    """|A|: the frozen group-relative advantage; zero-advantage items (all-equal groups) teach nothing."""
    return abs(rollout.advantage)


def group_learnability(rollout: Rollout) -> float:
    """p(1-p) with p the mean reward of the rollout's generation group: highest for groups solved half the time."""
    p = min(max(rollout.group_mean, 0.0), 1.0)
    return p * (1.0 - p)


def _learnability_of(table: SlotTable, slots: np.ndarray) -> np.ndarray:
    p = np.clip(table.group_mean[slots], 0.0, 1.0)
    return p * (1.0 - p)


# a source may carry a vectorised twin reading the table's copies of the fields (same values, no object walk)
abs_advantage.from_table = lambda table, slots: np.abs(table.advantage[slots])  # type: ignore[attr-defined]
group_learnability.from_table = _learnability_of  # type: ignore[attr-defined]


def _unique_in_order(values: np.ndarray) -> np.ndarray:
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


class PrioritizedSampler(Sampler):
    """P(i) = p_i^alpha / sum_j p_j^alpha over live items; weights w_i = (N P(i))^-beta, normalised to mean 1.

    Scale (our choice, not the PER paper's max over all live items): the batch's weights are divided by their
    mean, so they sum to B like uniform sampling's ones. The PER normalisation by the largest weight of any
    live item lets the least likely item set every loss weight: with |A| priorities, one zero-advantage item
    (priority eps) in the buffer shrinks all weights ~28x (alpha 0.6, beta 0.4), so the loss scale jumps as
    all-equal groups enter and leave and the lr and grad-norm clip lose their meaning. Mean 1 over the batch
    keeps PER's relative correction inside the batch and the uniform sampler's loss scale.

    Priorities are set once, when an item is written, from `priority.source`. The built-in sources read the
    advantage or group mean, which are frozen at generation (the paper's rule), so refreshing them after a
    train step would rewrite the same values; a loss-based source updates them through `update_priorities`.
    Without replacement, duplicates are redrawn with the already chosen leaves set to zero (successive
    sampling); the weights still use the proportional P(i), which is exact for replacement=True.
    """

    def __init__(self, config: BufferConfig) -> None:
        super().__init__(config)
        self.config = config.priority
        source = self.config.source
        self._source = PRIORITY_SOURCES.get(source) if isinstance(source, str) else source
        self._sum = SumTree(config.capacity)
        self._min = MinTree(config.capacity)
        self._priority = np.zeros(config.capacity)  # raw priorities, before eps and alpha
        self.max_priority = 1.0

    def _set(self, slots: np.ndarray, priorities: np.ndarray) -> None:
        self._priority[slots] = priorities
        if priorities.size:
            self.max_priority = max(self.max_priority, float(priorities.max()))
        leaf = (priorities + self.config.eps) ** self.config.alpha
        self._sum.update_unchecked(slots, leaf)  # slots come from the table: always in range
        self._min.update_unchecked(slots, leaf)

    def on_write(self, slots: np.ndarray, items: Sequence[Rollout], table: SlotTable) -> None:
        """Give new items their initial priority."""
        if self._source is MAX_PRIORITY:
            priorities = np.full(len(items), self.max_priority)
        elif hasattr(self._source, "from_table"):
            priorities = np.asarray(self._source.from_table(table, slots), dtype=np.float64)
        else:
            priorities = np.fromiter((self._source(r) for r in items), np.float64, len(items))
        self._set(slots, _validated(priorities, "the priority source"))

    def on_remove(self, slots: np.ndarray, table: SlotTable, replaced: bool = False) -> None:
        """Removed items get zero probability (replaced ones get their successor's in `on_write`)."""
        if replaced:
            return
        self._priority[slots] = 0.0
        self._sum.update_unchecked(slots, 0.0)
        self._min.update_unchecked(slots, np.inf)

    def update_priorities(self, slots: np.ndarray, values: np.ndarray) -> None:
        """New raw priorities (e.g. |advantage| or a loss-based score); the last value wins for a repeated slot."""
        values = _validated(np.asarray(values, dtype=np.float64).reshape(-1), "update_priorities")
        rev_unique = np.unique(slots[::-1], return_index=True)[1]
        keep = slots.shape[0] - 1 - rev_unique
        self._set(slots[keep], values[keep])

    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Proportional draw through the sum-tree, with importance weights for the annealed beta."""
        _check_size(batch_size, table.num_live, self.replacement)
        slots = self._sum.sample(batch_size, rng)
        if not self.replacement:
            slots = self._distinct(slots, batch_size, rng)
        # (N P(i))^-beta up to a constant factor, which the mean-1 normalisation removes
        raw = (self._sum[slots] / self._min.root) ** -self.config.beta_at(step)
        return slots, raw / raw.mean()

    def _distinct(self, slots: np.ndarray, batch_size: int, rng: np.random.Generator) -> np.ndarray:
        chosen = _unique_in_order(slots)
        if chosen.size == batch_size:
            return slots
        zeroed_slots, zeroed_leaves = [], []
        fresh = chosen
        while chosen.size < batch_size:
            zeroed_slots.append(fresh)
            zeroed_leaves.append(self._sum[fresh])
            self._sum.update(fresh, 0.0)  # chosen leaves cannot be drawn again
            fresh = _unique_in_order(self._sum.sample(batch_size - chosen.size, rng))
            chosen = np.concatenate([chosen, fresh])
        self._sum.update(np.concatenate(zeroed_slots), np.concatenate(zeroed_leaves))
        return chosen

    def metrics(self, table: SlotTable, step: int) -> dict[str, float]:
        """Priority statistics over live items and the current beta."""
        out = {"priority/beta": self.config.beta_at(step), "priority/max_seen": self.max_priority}
        if table.num_live:
            live = self._priority[table.live_slots()]
            out.update({"priority/min": live.min(), "priority/mean": live.mean(), "priority/max": live.max()})
        return {k: float(v) for k, v in out.items()}

    def state_dict(self) -> dict[str, Any]:
        """Raw priorities, tree leaves and the running max."""
        return {
            "priority": self._priority.copy(),
            "leaves": self._sum.leaves.copy(),
            "max": self.max_priority,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Rebuild both trees from the saved leaves."""
        self._priority = state["priority"].copy()
        self.max_priority = float(state["max"])
        leaves = state["leaves"]
        self._sum.rebuild(leaves)
        self._min.rebuild(np.where(leaves > 0, leaves, np.inf))


def _validated(priorities: np.ndarray, what: str) -> np.ndarray:
    if priorities.size and not (np.isfinite(priorities).all() and (priorities >= 0).all()):
        bad = priorities[~(np.isfinite(priorities) & (priorities >= 0))][:3]
        raise DataError(
            f"{what} gave priorities {bad.tolist()}; priorities must be finite and >= 0 (use |x|)"
        )
    return priorities
