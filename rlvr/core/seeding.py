"""Seeding and stable hashing: every random choice in rlvr flows from an explicit seed."""

from __future__ import annotations

import hashlib
import json
import os
import random
from typing import Any

import numpy as np


def _canonical(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, list | tuple):
        return [_canonical(v) for v in obj]
    if isinstance(obj, set | frozenset):
        return sorted((_canonical(v) for v in obj), key=repr)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, str | int | float | bool) or obj is None:
        return obj
    return repr(obj)


def stable_hash(obj: Any, length: int = 16) -> str:
    """A hex digest of `obj` that is the same across processes, machines and Python hash seeds."""
    payload = json.dumps(_canonical(obj), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(payload.encode("utf-8"), digest_size=32).hexdigest()[:length]


def derive_seed(seed: int, *names: Any) -> int:
    """A 63-bit seed derived from a base seed and names (e.g. a worker rank), stable across runs."""
    digest = hashlib.blake2b(repr((int(seed), *names)).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") & ((1 << 63) - 1)


def make_rng(seed: int | None, *names: Any) -> np.random.Generator:
    """A numpy Generator for `seed` (optionally derived with names); `None` draws fresh OS entropy."""
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(derive_seed(seed, *names) if names else seed)


def seed_everything(seed: int) -> None:
    """Seed Python's `random`, numpy's legacy global RNG and, if it is installed, torch (CPU and CUDA)."""
    random.seed(seed)
    np.random.seed(seed % (2**32))
    os.environ.setdefault("PYTHONHASHSEED", str(seed))
    try:
        import torch
    except ImportError:  # torch is optional for the core layer
        return
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
