"""Storages: fixed-capacity, slot-addressed containers of rollouts. They know nothing of order or sampling."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from rlvr.core.types import Rollout

_TOKEN_FIELDS = ("prompt_ids", "completion_ids", "behaviour_logprobs")
_OTHER_FIELDS = tuple(f.name for f in dataclasses.fields(Rollout) if f.name not in _TOKEN_FIELDS)


class Storage(ABC):
    """Holds up to `capacity` rollouts in numbered slots; the buffer decides which slot each item goes to."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity

    @abstractmethod
    def set(self, slots: np.ndarray, items: Sequence[Rollout]) -> None:
        """Put `items[j]` into slot `slots[j]` (slots are distinct)."""

    @abstractmethod
    def get(self, slots: np.ndarray) -> list[Rollout]:
        """The rollouts in `slots`, in that order."""

    @abstractmethod
    def clear(self, slots: np.ndarray) -> None:
        """Forget the items in `slots` (so evicted rollouts can be garbage-collected)."""

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """Everything needed to restore the contents."""

    @abstractmethod
    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore contents saved by `state_dict`."""


class ListStorage(Storage):
    """Rollout objects in a Python list of slots: zero-copy in and out."""

    def __init__(self, capacity: int) -> None:
        super().__init__(capacity)
        self._items: list[Rollout | None] = [None] * capacity

    def set(self, slots: np.ndarray, items: Sequence[Rollout]) -> None:
        """Put `items[j]` into slot `slots[j]`."""
        store = self._items
        for slot, item in zip(slots.tolist(), items):
            store[slot] = item

    def get(self, slots: np.ndarray) -> list[Rollout]:
        """The rollouts in `slots`."""
        store = self._items
        return [store[s] for s in slots.tolist()]

    def clear(self, slots: np.ndarray) -> None:
        """Drop references to the items in `slots`."""
        for slot in slots.tolist():
            self._items[slot] = None

    def state_dict(self) -> dict[str, Any]:
        """The slot list (rollouts are immutable, so a shallow copy is a snapshot)."""
        return {"items": list(self._items)}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the slot list."""
        items = list(state["items"])
        if len(items) != self.capacity:
            raise ValueError(f"saved list storage has {len(items)} slots, this one {self.capacity}")
        self._items = items


class ArrayStorage(Storage):
    """Tokens and behaviour log-probs in padded numpy columns (TorchRL's LazyTensorStorage, for ragged text).

    Columns are allocated on first write and widen (doubling) when a longer sequence arrives. `padded(slots)`
    returns ready-to-collate `[B, L]` arrays without building Rollout objects; `get` rebuilds Rollouts.
    """

    def __init__(self, capacity: int) -> None:
        super().__init__(capacity)
        self._cols: dict[str, np.ndarray] = {}
        self._lengths = {"prompt": np.zeros(capacity, np.int64), "completion": np.zeros(capacity, np.int64)}
        self._other = np.empty(capacity, dtype=object)  # the non-token fields, as a tuple per slot

    def _ensure_width(self, name: str, width: int, dtype: Any) -> np.ndarray:
        col = self._cols.get(name)
        if col is None or col.shape[1] < width:
            new_width = max(width, 1 if col is None else 2 * col.shape[1])
            grown = np.zeros((self.capacity, new_width), dtype=dtype)
            if col is not None:
                grown[:, : col.shape[1]] = col
            self._cols[name] = col = grown
        return col

    def set(self, slots: np.ndarray, items: Sequence[Rollout]) -> None:
        """Copy each item's tokens into its slot's row and keep the other fields alongside."""
        if not len(items):
            return
        p_len = np.fromiter((r.prompt_ids.shape[0] for r in items), np.int64, len(items))
        c_len = np.fromiter((r.completion_ids.shape[0] for r in items), np.int64, len(items))
        prompt = self._ensure_width("prompt_ids", int(p_len.max()), np.int64)
        completion = self._ensure_width("completion_ids", int(c_len.max()), np.int64)
        logprobs = self._ensure_width("behaviour_logprobs", int(c_len.max()), np.float32)
        for slot, r, pl, cl in zip(slots.tolist(), items, p_len.tolist(), c_len.tolist()):
            prompt[slot, :pl] = r.prompt_ids
            prompt[slot, pl:] = 0
            completion[slot, :cl] = r.completion_ids
            completion[slot, cl:] = 0
            logprobs[slot, :cl] = r.behaviour_logprobs
            logprobs[slot, cl:] = 0
            self._other[slot] = tuple(getattr(r, name) for name in _OTHER_FIELDS)
        self._lengths["prompt"][slots] = p_len
        self._lengths["completion"][slots] = c_len

    def get(self, slots: np.ndarray) -> list[Rollout]:
        """Rebuild the rollouts in `slots` from their rows."""
        out = []
        pl, cl = self._lengths["prompt"], self._lengths["completion"]
        for slot in slots.tolist():
            other = self._other[slot]
            if other is None:
                raise KeyError(f"slot {slot} of the array storage is empty")
            fields = dict(zip(_OTHER_FIELDS, other))
            p, c = int(pl[slot]), int(cl[slot])
            fields["prompt_ids"] = self._cols["prompt_ids"][slot, :p]
            fields["completion_ids"] = self._cols["completion_ids"][slot, :c]
            fields["behaviour_logprobs"] = self._cols["behaviour_logprobs"][slot, :c]
            out.append(Rollout(**fields))
        return out

    def padded(self, slots: np.ndarray) -> dict[str, np.ndarray]:
        """Right-padded `[B, L]` token/log-prob arrays and their lengths for `slots`, trimmed to the longest."""
        slots = np.asarray(slots, dtype=np.int64)
        p_len, c_len = self._lengths["prompt"][slots], self._lengths["completion"][slots]
        p_w, c_w = int(p_len.max(initial=0)), int(c_len.max(initial=0))
        empty_i, empty_f = np.zeros((len(slots), 0), np.int64), np.zeros((len(slots), 0), np.float32)
        cols = self._cols
        return {
            "prompt_ids": cols["prompt_ids"][slots, :p_w] if cols else empty_i,
            "completion_ids": cols["completion_ids"][slots, :c_w] if cols else empty_i,
            "behaviour_logprobs": cols["behaviour_logprobs"][slots, :c_w] if cols else empty_f,
            "prompt_lengths": p_len,
            "completion_lengths": c_len,
        }

    def clear(self, slots: np.ndarray) -> None:
        """Mark `slots` empty (their rows are overwritten on the next write)."""
        self._other[slots] = None
        self._lengths["prompt"][slots] = 0
        self._lengths["completion"][slots] = 0

    def state_dict(self) -> dict[str, Any]:
        """Copies of the columns, lengths and per-slot fields."""
        return {
            "cols": {k: v.copy() for k, v in self._cols.items()},
            "lengths": {k: v.copy() for k, v in self._lengths.items()},
            "other": self._other.copy(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the columns saved by `state_dict`."""
        other = state["other"]
        if other.shape[0] != self.capacity:
            raise ValueError(f"saved array storage has {other.shape[0]} slots, this one {self.capacity}")
        self._cols = {k: v.copy() for k, v in state["cols"].items()}
        self._lengths = {k: v.copy() for k, v in state["lengths"].items()}
        self._other = other.copy()
