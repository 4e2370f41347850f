"""Per-slot bookkeeping in flat numpy arrays: liveness, insertion order, versions, use counts, correctness.

Rollouts are frozen; what changes while an item sits in the buffer (use count, last-use step) lives here, and
so do copies of the few scalar fields that samplers, writers and metrics filter on, so they can work on whole
arrays instead of visiting rollout objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from rlvr.core.types import Rollout

_ARRAYS: dict[str, tuple[Any, Any]] = {  # name -> (dtype, empty value)
    "live": (bool, False),
    "serial": (np.int64, -1),  # global insertion number: orders items, and makes stable handles
    "policy_version": (np.int64, 0),
    "created_step": (np.int64, 0),
    "inserted_step": (np.int64, 0),
    "use_count": (np.int64, 0),
    "last_use": (np.int64, -1),
    "correct": (bool, False),
    "reward": (np.float64, 0.0),
    "advantage": (np.float64, 0.0),
    "group_mean": (np.float64, 0.0),
    "relabeled": (bool, False),
}
_COUNTERS: tuple[str, ...] = (
    "next_serial", "inserted", "dropped", "evicted_capacity", "evicted_age", "evicted_uses", "draws", "used_unique",
    "relabeled_inserted",
)  # fmt: skip


class SlotTable:
    """Flat per-slot arrays plus lifetime counters; the buffer's single source of truth about its slots."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        for name, (dtype, empty) in _ARRAYS.items():
            setattr(self, name, np.full(capacity, empty, dtype=dtype))
        self.counters: dict[str, int] = dict.fromkeys(_COUNTERS, 0)
        self.num_live = 0
        #: one past the highest slot ever written; while num_live == high_water the live slots are exactly
        #: range(num_live), which lets uniform sampling skip building an index array
        self.high_water = 0
        self._live_slots: np.ndarray | None = None
        self.version = 0  # bumped on every change of liveness; lets samplers cache derived index arrays

    # annotations for the arrays created above (type checkers and readers)
    live: np.ndarray
    serial: np.ndarray
    policy_version: np.ndarray
    created_step: np.ndarray
    inserted_step: np.ndarray
    use_count: np.ndarray
    last_use: np.ndarray
    correct: np.ndarray
    reward: np.ndarray
    advantage: np.ndarray
    group_mean: np.ndarray
    relabeled: np.ndarray

    @staticmethod
    def columns(items: Sequence[Rollout]) -> np.ndarray:
        """The scalar fields the table keeps, one row per item: see `write` for the column order."""
        flat = chain.from_iterable(
            (
                r.policy_version,
                r.created_step,
                r.verdict.passed,
                r.reward,
                r.advantage,
                r.group_mean,
                r.relabeled,
            )
            for r in items
        )  # one flat fromiter is several times faster than np.array over a list of mixed-type tuples
        return np.fromiter(flat, np.float64, 7 * len(items)).reshape(len(items), 7)

    def write(self, slots: np.ndarray, cols: np.ndarray, serials: np.ndarray, step: int) -> None:
        """Record new items in (empty) `slots`, given their `columns` rows."""
        if slots.size == 0:
            return
        self.live[slots] = True
        self.serial[slots] = serials
        self.policy_version[slots] = cols[:, 0]
        self.created_step[slots] = cols[:, 1]
        self.inserted_step[slots] = step
        self.use_count[slots] = 0
        self.last_use[slots] = -1
        self.correct[slots] = cols[:, 2] != 0
        self.reward[slots] = cols[:, 3]
        self.advantage[slots] = cols[:, 4]
        self.group_mean[slots] = cols[:, 5]
        self.relabeled[slots] = cols[:, 6] != 0
        self.num_live += int(slots.size)
        self.high_water = max(self.high_water, int(slots.max()) + 1)
        self.counters["relabeled_inserted"] += int(np.count_nonzero(cols[:, 6]))
        self._changed()

    def remove(self, slots: np.ndarray) -> None:
        """Mark `slots` empty."""
        if slots.size == 0:
            return
        self.num_live -= int(np.count_nonzero(self.live[slots]))
        self.live[slots] = False
        self.serial[slots] = -1
        self._changed()

    def record_use(self, slots: np.ndarray, step: int, distinct: bool = False) -> None:
        """Count one draw of each slot (a slot drawn twice in one batch counts twice)."""
        if distinct:  # the common case (no repeats within a batch) skips the unique/scatter-add
            self.counters["used_unique"] += int(np.count_nonzero(self.use_count[slots] == 0))
            self.use_count[slots] += 1
        else:
            self.counters["used_unique"] += int(np.count_nonzero(self.use_count[np.unique(slots)] == 0))
            np.add.at(self.use_count, slots, 1)
        self.last_use[slots] = step
        self.counters["draws"] += int(slots.size)

    def live_slots(self) -> np.ndarray:
        """Slots holding an item, ascending (cached until the next change)."""
        if self._live_slots is None:
            self._live_slots = np.flatnonzero(self.live)
        return self._live_slots

    def _changed(self) -> None:
        self._live_slots = None
        self.version += 1

    def handles(self, slots: np.ndarray) -> np.ndarray:
        """Stable item handles (serial * capacity + slot): still valid after the slot is reused by another item."""
        return self.serial[slots] * self.capacity + slots

    def resolve(self, handles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Map handles back to slots; returns (slots, mask of handles whose item is still in the buffer)."""
        handles = np.asarray(handles, dtype=np.int64).reshape(-1)
        slots = handles % self.capacity
        ok = (handles >= 0) & self.live[slots] & (self.serial[slots] == handles // self.capacity)
        return slots, ok

    def state_dict(self) -> dict[str, Any]:
        """Copies of every array and counter."""
        state: dict[str, Any] = {name: getattr(self, name).copy() for name in _ARRAYS}
        state["counters"] = dict(self.counters)
        state["high_water"] = self.high_water
        return state

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore arrays and counters saved by `state_dict`."""
        if state["live"].shape[0] != self.capacity:
            raise ValueError(f"saved table has {state['live'].shape[0]} slots, this buffer {self.capacity}")
        for name in _ARRAYS:
            setattr(self, name, state[name].copy())
        self.counters = {**dict.fromkeys(_COUNTERS, 0), **state["counters"]}
        self.num_live = int(np.count_nonzero(self.live))
        self.high_water = int(state["high_water"])
        self._changed()
