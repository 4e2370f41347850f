"""Samplers choose which stored items form a batch. Sampling never removes anything (PAPER.md invariant 1)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from rlvr.buffer.config import BufferConfig
from rlvr.buffer.table import SlotTable
from rlvr.core.errors import RlvrError
from rlvr.core.types import Rollout


class NotEnoughItems(RlvrError, RuntimeError):
    """The buffer cannot fill the requested batch yet (too few items, or no complete group)."""


class Sampler(ABC):
    """Picks slots for a batch and returns them with per-item importance weights (ones when unbiased)."""

    def __init__(self, config: BufferConfig) -> None:
        self.capacity = config.capacity
        self.replacement = config.replacement

    @abstractmethod
    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """`batch_size` slots of live items and their importance weights."""

    def on_write(self, slots: np.ndarray, items: Sequence[Rollout], table: SlotTable) -> None:
        """Hear that `items` now occupy `slots` (after the table recorded them)."""
        return None  # default: nothing to track

    def on_remove(self, slots: np.ndarray, table: SlotTable, replaced: bool = False) -> None:
        """Hear that the items in `slots` left the buffer (`replaced`: new items' `on_write` follows)."""
        return None  # default: nothing to track

    def update_priorities(self, slots: np.ndarray, values: np.ndarray) -> None:
        """Set the priorities of `slots`; samplers without priorities ignore this."""
        return None  # default: nothing to track

    def metrics(self, table: SlotTable, step: int) -> dict[str, float]:
        """Sampler-specific numbers for logging."""
        return {}

    def state_dict(self) -> dict[str, Any]:
        """What must be saved to continue sampling exactly."""
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore what `state_dict` saved."""
        return None  # default: nothing to track


def _check_size(batch_size: int, available: int, replacement: bool) -> None:
    if available == 0:
        raise NotEnoughItems("the buffer is empty; extend it with rollouts before sampling")
    if not replacement and batch_size > available:
        raise NotEnoughItems(
            f"a batch of {batch_size} distinct items was requested but the buffer holds {available}; wait until "
            "len(buffer) >= batch_size (see ReplayBuffer.wait_for), or set replacement=True"
        )


def _choose(rng: np.random.Generator, n: int, k: int, replacement: bool) -> np.ndarray:
    return rng.integers(n, size=k) if replacement else rng.choice(n, size=k, replace=False)


class UniformSampler(Sampler):
    """The paper's sampler: B items uniformly at random, distinct within a batch unless replacement=True."""

    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Uniform draw over live items."""
        n = table.num_live
        _check_size(batch_size, n, self.replacement)
        pick = _choose(rng, n, batch_size, self.replacement)
        # live slots are range(n) until the buffer first has a hole: skip building the index array then
        slots = pick if n == table.high_water else table.live_slots()[pick]
        return slots.astype(np.int64, copy=False), np.ones(batch_size)


class NoReplacementSampler(Sampler):
    """No replacement across draws: every live item is drawn once before any item is drawn again (a pass);
    items inserted during a pass join it. Batches that straddle two passes take the rest of the old pass first.
    """

    def __init__(self, config: BufferConfig) -> None:
        super().__init__(config)
        self._drawn = np.zeros(config.capacity, dtype=bool)
        self.passes = 0

    def on_write(self, slots: np.ndarray, items: Sequence[Rollout], table: SlotTable) -> None:
        """New items have not been drawn in this pass."""
        self._drawn[slots] = False

    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw from the items not yet drawn in this pass, starting a new pass when they run out."""
        _check_size(batch_size, table.num_live, replacement=False)
        fresh = np.flatnonzero(table.live & ~self._drawn)
        if fresh.size >= batch_size:
            slots = fresh[rng.choice(fresh.size, batch_size, replace=False)]
            self._drawn[slots] = True
        else:  # finish this pass with `fresh`, start the next one with `more` (fresh items stay undrawn in it)
            self._drawn[:] = False
            self.passes += 1
            rest = np.setdiff1d(table.live_slots(), fresh, assume_unique=True)
            more = rest[rng.choice(rest.size, batch_size - fresh.size, replace=False)]
            self._drawn[more] = True
            slots = np.concatenate([rng.permutation(fresh), more])
        return slots, np.ones(batch_size)

    def state_dict(self) -> dict[str, Any]:
        """Which items this pass has drawn."""
        return {"drawn": self._drawn.copy(), "passes": self.passes}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the pass."""
        self._drawn = state["drawn"].copy()
        self.passes = int(state["passes"])


class NeverUsedFirstSampler(Sampler):
    """Items never drawn before are taken first (uniformly among them); the rest of the batch is uniform."""

    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Unused items first, then a uniform draw from the used ones."""
        _check_size(batch_size, table.num_live, replacement=False)
        live = table.live_slots()
        unused = table.use_count[live] == 0
        fresh, used = live[unused], live[~unused]
        if fresh.size >= batch_size:
            slots = fresh[rng.choice(fresh.size, batch_size, replace=False)]
        else:
            more = used[rng.choice(used.size, batch_size - fresh.size, replace=False)]
            slots = np.concatenate([rng.permutation(fresh), more])
        return slots, np.ones(batch_size)


class GroupSampler(Sampler):
    """Whole generation groups: uniformly chosen complete groups (all `group_size` members still stored),
    added whole while they fit in the batch. Groups are identified by `Rollout.group_id`; a rollout with an
    empty group_id is a group of its own. With groups of G and batch_size a multiple of G, batches are full.
    """

    def __init__(self, config: BufferConfig) -> None:
        super().__init__(config)
        self._slot_group: list[str | None] = [None] * config.capacity
        self._members: dict[str, set[int]] = {}
        self._size: dict[str, int] = {}

    def on_write(self, slots: np.ndarray, items: Sequence[Rollout], table: SlotTable) -> None:
        """Add each item to its group."""
        for slot, r in zip(slots.tolist(), items):
            gid = r.group_id or f"\0serial:{table.serial[slot]}"
            self._slot_group[slot] = gid
            self._members.setdefault(gid, set()).add(slot)
            self._size[gid] = r.group_size if r.group_id else 1

    def on_remove(self, slots: np.ndarray, table: SlotTable, replaced: bool = False) -> None:
        """Take each item out of its group; forget empty groups."""
        for slot in slots.tolist():
            gid = self._slot_group[slot]
            if gid is None:
                continue
            self._slot_group[slot] = None
            members = self._members[gid]
            members.discard(slot)
            if not members:
                del self._members[gid], self._size[gid]

    def sample(
        self, batch_size: int, table: SlotTable, rng: np.random.Generator, step: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Complete groups in random order, each taken whole while the batch has room."""
        complete = sorted(g for g, m in self._members.items() if len(m) >= self._size[g])
        if not complete:
            raise NotEnoughItems(
                "no complete generation group is stored; group sampling needs every member of a group "
                "(extend with whole groups, and a capacity of at least one group)"
            )
        chosen: list[int] = []
        for g in rng.permutation(len(complete)).tolist():
            members = self._members[complete[g]]
            if len(chosen) + len(members) <= batch_size:
                chosen.extend(sorted(members, key=lambda s: table.serial[s]))
            if len(chosen) == batch_size:
                break
        if not chosen:
            smallest = min(len(self._members[g]) for g in complete)
            raise NotEnoughItems(
                f"batch_size={batch_size} is smaller than the smallest complete group ({smallest}); "
                "use a batch size that is a multiple of the group size"
            )
        return np.asarray(chosen, dtype=np.int64), np.ones(len(chosen))

    def metrics(self, table: SlotTable, step: int) -> dict[str, float]:
        """Number of stored and complete groups."""
        complete = sum(len(m) >= self._size[g] for g, m in self._members.items())
        return {"groups/stored": float(len(self._members)), "groups/complete": float(complete)}

    def state_dict(self) -> dict[str, Any]:
        """Group membership."""
        return {"slot_group": list(self._slot_group), "size": dict(self._size)}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Rebuild group membership."""
        self._slot_group = list(state["slot_group"])
        self._size = dict(state["size"])
        self._members = {}
        for slot, gid in enumerate(self._slot_group):
            if gid is not None:
                self._members.setdefault(gid, set()).add(slot)
