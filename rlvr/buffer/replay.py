"""The replay buffer: a Storage, a Sampler and a Writer around a table of per-slot bookkeeping.

Rollouts go in whole and frozen (advantage and behaviour log-probs from generation time); a batch comes out
with stable handles, importance weights and each item's age and prior use count. One lock makes it safe for
concurrent writers (rollout workers) and readers (the learner); hindsight relabeling and the optional
recompute hook run outside that lock, since they call the task's verifier or the model.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rlvr.buffer.config import BufferConfig
from rlvr.buffer.hindsight import AchievedGoalFn, HindsightRelabeler, RelabelFn
from rlvr.buffer.registries import SAMPLERS, STORAGES, WRITERS
from rlvr.buffer.samplers import Sampler
from rlvr.buffer.storage import Storage
from rlvr.buffer.table import SlotTable
from rlvr.buffer.writers import Writer
from rlvr.core.errors import ConfigError
from rlvr.core.types import Rollout

RecomputeFn = Callable[[list[Rollout]], Sequence[Rollout]]
STATE_FORMAT = 1


@dataclass(frozen=True)
class SampledBatch:
    """A batch drawn from the buffer; `indices` are handles for `update_priorities` (stale ones are ignored)."""

    rollouts: list[Rollout]
    indices: np.ndarray
    """Stable item handles (int64), valid for `update_priorities` even after other items were inserted."""
    weights: np.ndarray
    """Per-item loss weights: PER importance weights times staleness down-weighting; ones for uniform."""
    ages: np.ndarray
    """Policy versions since each rollout was generated (current version - `rollout.policy_version`)."""
    use_counts: np.ndarray
    """How many times each item had been drawn before this batch (0 = first use)."""
    step: int
    """The learner step this batch was drawn for."""

    def __len__(self) -> int:
        return len(self.rollouts)


def child_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator seeded from `rng` (deterministic given rng's state)."""
    return np.random.default_rng(int(rng.integers(2**63)))


class ReplayBuffer:
    """FIFO-uniform replay by default (PAPER.md section 1); sampler, writer and storage come from the config."""

    def __init__(
        self,
        config: BufferConfig,
        rng: np.random.Generator,
        *,
        achieved_goal: AchievedGoalFn | None = None,
        relabel: RelabelFn | None = None,
        recompute: RecomputeFn | None = None,
    ) -> None:
        if not isinstance(config, BufferConfig):
            raise ConfigError(f"config must be a BufferConfig, got {type(config).__name__}")
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng must be a numpy.random.Generator; pass rlvr.core.make_rng(seed)")
        given = (achieved_goal is not None, relabel is not None)
        if (config.hindsight is not None and not all(given)) or (config.hindsight is None and any(given)):
            raise ConfigError(
                "hindsight needs both config.hindsight (a HindsightConfig) and the task's achieved_goal and "
                "relabel callables; give all three, or none"
            )
        if config.recompute_on_sample != (recompute is not None):
            raise ConfigError(
                "recompute_on_sample=True and a recompute callable go together (recomputing advantages or "
                "log-probs on reuse is a different algorithm from the paper's, so it is opt-in twice)"
            )
        self.config = config
        self._rng = rng
        self._recompute = recompute
        self._lock = threading.RLock()
        self._grew = threading.Condition(self._lock)
        self.storage: Storage = STORAGES.get(config.storage)(config.capacity)
        self.sampler: Sampler = SAMPLERS.get(config.sampler)(config)
        self.writer: Writer = WRITERS.get(config.writer)(config)
        self.table = SlotTable(config.capacity)
        self.hindsight = (
            HindsightRelabeler(config.hindsight, achieved_goal, relabel, child_generator(rng))  # type: ignore[arg-type]
            if config.hindsight is not None
            else None
        )
        self._version = 0  # the newest policy version seen (from samples and inserted rollouts)
        self._age_checked_at: int | None = None
        self._last_batch: SampledBatch | None = None
        self._step = 0  # the learner step of the latest sample

    def __len__(self) -> int:
        return self.table.num_live

    def extend(self, rollouts: Sequence[Rollout], step: int) -> None:
        """Insert rollouts (plus their hindsight relabels), evicting per the writer's retention rule."""
        items = list(rollouts)
        for r in items:
            if not isinstance(r, Rollout):
                raise TypeError(f"the buffer stores rlvr.core.Rollout objects, got {type(r).__name__}")
        if self.hindsight is not None and items:
            items += self.hindsight(items)
        with self._lock:
            self._insert(items, step)
            self._grew.notify_all()

    def sample(self, batch_size: int, step: int, *, policy_version: int | None = None) -> SampledBatch:
        """Draw a batch for learner step `step`; ages count from `policy_version` (default: `step`)."""
        if not isinstance(batch_size, int | np.integer) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        with self._lock:
            version = self._see_version(step if policy_version is None else policy_version)
            self._evict_stale(version)
            slots, weights = self.sampler.sample(int(batch_size), self.table, self._rng, step)
            ages = version - self.table.policy_version[slots]
            batch = SampledBatch(
                rollouts=self.storage.get(slots),
                indices=self.table.handles(slots),
                weights=self._staleness_weighted(weights, ages),
                ages=ages,
                use_counts=self.table.use_count[slots],  # a gather: already a copy
                step=step,
            )
            self.table.record_use(slots, step, distinct=not self.config.replacement)
            self._evict_used_up(slots)
            self._step, self._last_batch = step, batch
        if self._recompute is not None:
            batch = dataclasses.replace(batch, rollouts=self._recomputed(batch.rollouts))
        return batch

    def update_priorities(self, indices: np.ndarray, values: np.ndarray) -> int:
        """Set new priorities for items by handle; returns how many were still stored (others are skipped)."""
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        with self._lock:
            slots, ok = self.table.resolve(indices)
            if slots.shape != values.shape:
                raise ValueError(
                    f"got {slots.size} indices but {values.size} priority values; give one per index"
                )
            self.sampler.update_priorities(slots[ok], values[ok])
            return int(np.count_nonzero(ok))

    def wait_for(self, size: int, timeout: float | None = None) -> bool:
        """Block until the buffer holds at least `size` items (or `timeout` seconds pass); returns whether it does."""
        with self._grew:
            return self._grew.wait_for(lambda: self.table.num_live >= size, timeout)

    # ---- internals -------------------------------------------------------------------------------------

    def _insert(self, items: list[Rollout], step: int) -> None:
        table, n = self.table, len(items)
        serials = np.arange(table.counters["next_serial"], table.counters["next_serial"] + n, dtype=np.int64)
        table.counters["next_serial"] += n
        table.counters["inserted"] += n
        cols = table.columns(items)
        slots = self.writer.place(cols[:, 2] != 0, serials, table)
        keep = np.flatnonzero(slots >= 0)
        table.counters["dropped"] += n - keep.size
        if keep.size == n:
            kept_slots, kept = slots, items
        else:
            kept_slots, kept, cols = slots[keep], [items[i] for i in keep.tolist()], cols[keep]
        self._remove(kept_slots[table.live[kept_slots]], "capacity", replaced=True)
        self.storage.set(kept_slots, kept)
        table.write(kept_slots, cols, serials[keep], step)
        self.sampler.on_write(kept_slots, kept, table)
        if kept:
            self._version = max(self._version, int(table.policy_version[kept_slots].max()))
            self._evict_stale(self._version, only=kept_slots)

    def _remove(self, slots: np.ndarray, reason: str, replaced: bool = False) -> None:
        if slots.size == 0:
            return
        self.sampler.on_remove(slots, self.table, replaced)
        if not replaced:  # the writer chose replaced slots itself; the storage overwrites them next
            self.writer.on_remove(slots)
            self.storage.clear(slots)
        self.table.remove(slots)
        self.table.counters[f"evicted_{reason}"] += int(slots.size)

    def _see_version(self, version: int) -> int:
        self._version = max(self._version, int(version))
        return int(version)

    def _evict_stale(self, version: int, only: np.ndarray | None = None) -> None:
        cfg = self.config.staleness
        if cfg.max_age is None or cfg.action != "evict":
            return
        if only is None:
            if self._age_checked_at == version:  # everything already checked against this version
                return
            self._age_checked_at = version
        slots = self.table.live_slots() if only is None else only
        self._remove(slots[self.table.policy_version[slots] < version - cfg.max_age], "age")

    def _evict_used_up(self, slots: np.ndarray) -> None:
        if self.config.staleness.max_uses is not None:
            slots = np.unique(slots)
            self._remove(slots[self.table.use_count[slots] >= self.config.staleness.max_uses], "uses")

    def _staleness_weighted(self, weights: np.ndarray, ages: np.ndarray) -> np.ndarray:
        cfg = self.config.staleness
        if cfg.max_age is None or cfg.action != "downweight":
            return weights
        return weights * cfg.decay ** np.maximum(ages - cfg.max_age, 0).astype(np.float64)

    def _recomputed(self, rollouts: list[Rollout]) -> list[Rollout]:
        out = list(self._recompute(rollouts))  # type: ignore[misc]
        if len(out) != len(rollouts) or not all(isinstance(r, Rollout) for r in out):
            raise TypeError("the recompute hook must return one Rollout per input rollout, in order")
        return out

    # ---- metrics and persistence -------------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Size, eviction and use counters, replay ratio, staleness histogram, priority stats (for logging)."""
        from rlvr.buffer.metrics import buffer_metrics

        with self._lock:
            return buffer_metrics(self.table, self.sampler, self._version, self._step, self._last_metrics())

    def _last_metrics(self) -> dict[str, float]:
        b = self._last_batch
        if b is None:
            return {}
        return {"sample/age_mean": float(b.ages.mean()), "sample/weight_mean": float(b.weights.mean())}

    def state_dict(self) -> dict[str, Any]:
        """A snapshot of contents, bookkeeping, sampler and writer state and the generator state."""
        with self._lock:
            return {
                "format": STATE_FORMAT,
                "parts": self._parts(),
                "storage": self.storage.state_dict(),
                "table": self.table.state_dict(),
                "sampler": self.sampler.state_dict(),
                "writer": self.writer.state_dict(),
                "hindsight": None if self.hindsight is None else self.hindsight.state_dict(),
                "rng": self._rng.bit_generator.state,
                "version": self._version,
                "age_checked_at": self._age_checked_at,
                "last_batch": self._last_batch,
                "step": self._step,
            }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore a snapshot taken by `state_dict` from a buffer built with the same config parts."""
        if state.get("format") != STATE_FORMAT:
            raise ConfigError(
                f"buffer state format {state.get('format')!r} is not {STATE_FORMAT}; re-save it"
            )
        if state["parts"] != self._parts():
            raise ConfigError(
                f"the saved buffer was built with {state['parts']}, this one with {self._parts()}; build the "
                "buffer from the same BufferConfig before loading"
            )
        if (state["hindsight"] is None) != (self.hindsight is None):
            raise ConfigError("saved and current buffers disagree on hindsight; use the same BufferConfig")
        rng_kind = state["rng"]["bit_generator"]
        if rng_kind != type(self._rng.bit_generator).__name__:
            raise ConfigError(
                f"the saved generator is a {rng_kind}; pass a Generator with that bit generator"
            )
        with self._lock:
            self.storage.load_state_dict(state["storage"])
            self.table.load_state_dict(state["table"])
            self.sampler.load_state_dict(state["sampler"])
            self.writer.load_state_dict(state["writer"])
            if self.hindsight is not None:
                self.hindsight.load_state_dict(state["hindsight"])
            self._rng.bit_generator.state = state["rng"]
            self._version = int(state["version"])
            self._age_checked_at = state["age_checked_at"]
            self._last_batch = state["last_batch"]
            self._step = int(state["step"])

    def _parts(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "capacity": cfg.capacity,
            "sampler": cfg.sampler,
            "storage": cfg.storage,
            "writer": cfg.writer,
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write `state_dict` to `path` atomically (pickle: load only files you wrote yourself)."""
        save_state(self.state_dict(), path)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Restore a buffer saved with `save`."""
        self.load_state_dict(load_state(path))


def save_state(state: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Pickle `state` to `path` via a temporary file and an atomic rename (no half-written checkpoints)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_state(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a state written by `save_state`."""
    with open(path, "rb") as fh:
        return pickle.load(fh)
