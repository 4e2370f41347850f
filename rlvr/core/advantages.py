"""Advantage estimators over one generation group, in a registry (`ADVANTAGES.get("grpo")(rewards)`).

All are computed once, when the group is generated, and travel frozen with each rollout (PAPER.md section 2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from rlvr.core.registry import Registry

AdvantageFn = Callable[[Sequence[float]], np.ndarray]
ADVANTAGES: Registry[AdvantageFn] = Registry("advantage estimator")


@ADVANTAGES.register("grpo")
def grpo_advantages(rewards: Sequence[float], eps: float = 1e-6) -> np.ndarray:
    """GRPO's group z-score: (r - mean) / (std + eps); all-equal groups get zeros."""
    r = np.asarray(rewards, dtype=np.float64)
    if r.size == 0:
        return r
    return (r - r.mean()) / (r.std() + eps)


@ADVANTAGES.register("dr_grpo")
def mean_centred_advantages(rewards: Sequence[float]) -> np.ndarray:
    """Dr.GRPO's advantage: r - mean, without the std normalisation that biases towards easy/hard groups."""
    r = np.asarray(rewards, dtype=np.float64)
    return r - r.mean() if r.size else r


@ADVANTAGES.register("rloo")
def leave_one_out_advantages(rewards: Sequence[float]) -> np.ndarray:
    """RLOO: r_i minus the mean of the other rewards of the group (zero for a group of one)."""
    r = np.asarray(rewards, dtype=np.float64)
    n = r.size
    if n <= 1:
        return np.zeros_like(r)
    return r - (r.sum() - r) / (n - 1)
