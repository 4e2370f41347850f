"""Writers decide where new rollouts go and, when the buffer is full, which old ones are evicted."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from typing import Any

import numpy as np

from rlvr.buffer.config import BufferConfig
from rlvr.buffer.table import SlotTable


class Writer(ABC):
    """Chooses slots for new items; a slot that holds a live item means that item is evicted (retention rule)."""

    def __init__(self, config: BufferConfig) -> None:
        self.capacity = config.capacity

    @abstractmethod
    def place(self, correct: np.ndarray, serials: np.ndarray, table: SlotTable) -> np.ndarray:
        """One slot per new item, distinct, or -1 for an item that is not kept (the retention rule drops it)."""

    def on_remove(self, slots: np.ndarray) -> None:
        """Hear that the buffer removed the items in `slots` itself (staleness or use limits)."""
        return None  # default: nothing to track

    def state_dict(self) -> dict[str, Any]:
        """The writer's position/queues."""
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore what `state_dict` saved."""
        return None  # default: nothing to track


class FifoWriter(Writer):
    """The paper's rule: a ring over the slots, so the buffer holds the N most recent insertions.

    An item removed early (max age or max uses) leaves a hole that is refilled when the ring comes round,
    not out of order: the slot order stays the insertion order and `extend` costs O(batch).
    """

    def __init__(self, config: BufferConfig) -> None:
        super().__init__(config)
        self.cursor = 0

    def place(self, correct: np.ndarray, serials: np.ndarray, table: SlotTable) -> np.ndarray:
        """The next ring positions; of a batch larger than the buffer only the last N are kept."""
        n = correct.shape[0]
        slots = np.full(n, -1, dtype=np.int64)
        kept = min(n, self.capacity)
        slots[n - kept :] = (self.cursor + np.arange(kept)) % self.capacity
        self.cursor = (self.cursor + kept) % self.capacity
        return slots

    def state_dict(self) -> dict[str, Any]:
        """The ring cursor."""
        return {"cursor": self.cursor}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the ring cursor."""
        self.cursor = int(state["cursor"])


class PositiveBiasWriter(Writer):
    """Positive-bias retention (PAPER.md section 1): the freshest (1-delta)N items plus the freshest delta*N
    correct items not already among them. If fewer correct items exist, the remaining room keeps the freshest
    incorrect ones, so a full buffer always holds N items.

    Items are kept in three insertion-ordered queues: the recent window (size K = N - round(delta N)), and the
    correct and incorrect items older than the window. When an item leaves the window it joins one of the
    other two queues; when room is needed the oldest older-than-window incorrect item goes first, then the
    oldest correct one. This keeps exactly the set the rule defines over the whole history.
    """

    def __init__(self, config: BufferConfig) -> None:
        super().__init__(config)
        self.num_correct = round(config.positive_bias_delta * self.capacity)
        self.window_size = self.capacity - self.num_correct
        # queue entries are [slot, serial, position in the current batch or -1]
        self._window: deque[list[int]] = deque()
        self._correct: deque[list[int]] = deque()
        self._incorrect: deque[list[int]] = deque()
        self._is_correct: dict[int, bool] = {}  # serial -> correctness, for items still in the window
        self._slot_serial = np.full(self.capacity, -1, dtype=np.int64)  # this writer's view of occupancy
        self._free: list[int] = list(range(self.capacity - 1, -1, -1))

    def _valid(self, entry: list[int]) -> bool:
        # slot -1: the item being placed right now; -2: an item the rule dropped
        return entry[0] == -1 or (entry[0] >= 0 and self._slot_serial[entry[0]] == entry[1])

    def _pop_victim(self) -> list[int] | None:
        for queue in (self._incorrect, self._correct):
            while queue:
                entry = queue.popleft()
                if self._valid(entry):
                    return entry
        return None

    def place(self, correct: np.ndarray, serials: np.ndarray, table: SlotTable) -> np.ndarray:
        """Apply the retention rule item by item (in insertion order)."""
        slots = np.full(correct.shape[0], -1, dtype=np.int64)
        batch: list[list[int]] = []
        for pos, (ok, serial) in enumerate(zip(correct.tolist(), serials.tolist())):
            entry = [-1, serial, pos]
            batch.append(entry)
            self._is_correct[serial] = bool(ok)
            self._window.append(entry)
            while len(self._window) > self.window_size:
                leaving = self._window.popleft()
                if self._valid(leaving):
                    is_ok = self._is_correct.pop(leaving[1])
                    (self._correct if is_ok else self._incorrect).append(leaving)
                else:
                    self._is_correct.pop(leaving[1], None)
            if self._free:
                slot = self._free.pop()
            else:
                victim = self._pop_victim()
                if victim is None or victim is entry:  # with K = 0 the new item itself can lose
                    entry[0] = -2
                    continue
                slot = victim[0]
                if victim[2] >= 0:  # kept earlier in this same batch, now pushed out again
                    slots[victim[2]] = -1
            entry[0] = slot
            self._slot_serial[slot] = serial
            slots[pos] = slot
        for entry in batch:
            entry[2] = -1
        return slots

    def on_remove(self, slots: np.ndarray) -> None:
        """Free the slots; their queue entries become stale and are skipped when reached."""
        for slot in slots.tolist():
            if self._slot_serial[slot] >= 0:
                self._slot_serial[slot] = -1
                self._free.append(slot)

    def state_dict(self) -> dict[str, Any]:
        """The three queues, the free slots and the occupancy view."""
        return {
            "window": [e[:2] for e in self._window],
            "correct": [e[:2] for e in self._correct],
            "incorrect": [e[:2] for e in self._incorrect],
            "is_correct": dict(self._is_correct),
            "slot_serial": self._slot_serial.copy(),
            "free": list(self._free),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the queues saved by `state_dict`."""
        self._window = deque([*e, -1] for e in state["window"])
        self._correct = deque([*e, -1] for e in state["correct"])
        self._incorrect = deque([*e, -1] for e in state["incorrect"])
        self._is_correct = dict(state["is_correct"])
        self._slot_serial = state["slot_serial"].copy()
        self._free = list(state["free"])
