"""Logging numbers for a buffer: size, evictions, replay ratio, staleness histogram, use counts, priorities."""

from __future__ import annotations

import numpy as np

from rlvr.buffer.samplers import Sampler
from rlvr.buffer.table import SlotTable


def staleness_histogram(ages: np.ndarray) -> dict[str, float]:
    """Counts of ages in power-of-two bins: '0', '1', '2-3', '4-7', ... (negative ages count as 0)."""
    ages = np.maximum(np.asarray(ages, dtype=np.int64), 0)
    if ages.size == 0:
        return {}
    # bin b holds ages in [2^(b-1), 2^b) for b >= 1, and age 0 in bin 0
    bins = np.where(ages == 0, 0, np.floor(np.log2(np.maximum(ages, 1))).astype(np.int64) + 1)
    counts = np.bincount(bins)
    out = {}
    for b, count in enumerate(counts.tolist()):
        lo, hi = (0, 0) if b == 0 else (2 ** (b - 1), 2**b - 1)
        out[f"staleness/hist/{lo}" if lo == hi else f"staleness/hist/{lo}-{hi}"] = float(count)
    return out


def buffer_metrics(
    table: SlotTable, sampler: Sampler, version: int, step: int, last: dict[str, float]
) -> dict[str, float]:
    """All metrics of one buffer as a flat name -> float map."""
    c = table.counters
    out: dict[str, float] = {
        "size": table.num_live,
        "capacity": table.capacity,
        "fill": table.num_live / table.capacity,
        "inserted": c["inserted"],
        "dropped": c["dropped"],
        "evicted/capacity": c["evicted_capacity"],
        "evicted/age": c["evicted_age"],
        "evicted/uses": c["evicted_uses"],
        "relabeled_inserted": c["relabeled_inserted"],
        "draws": c["draws"],
        # the paper's replay ratio: draws per generated (inserted) rollout
        "replay_ratio": c["draws"] / max(1, c["inserted"]),
        # uses per distinct rollout that was drawn at least once
        "uses_per_used_rollout": c["draws"] / max(1, c["used_unique"]),
        "policy_version": version,
    }
    live = table.live_slots()
    if live.size:
        ages = version - table.policy_version[live]
        uses = table.use_count[live]
        out.update(
            {
                "staleness/mean": ages.mean(),
                "staleness/p50": np.percentile(ages, 50),
                "staleness/p90": np.percentile(ages, 90),
                "staleness/max": ages.max(),
                "uses/mean": uses.mean(),
                "uses/max": uses.max(),
                "uses/never_used_frac": np.mean(uses == 0),
                "correct_frac": np.mean(table.correct[live]),
                "relabeled_frac": np.mean(table.relabeled[live]),
            }
        )
        out.update(staleness_histogram(ages))
    out.update(last)
    out.update(sampler.metrics(table, step))
    return {k: float(v) for k, v in out.items()}
