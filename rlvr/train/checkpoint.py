"""Checkpoint directories written atomically (a killed run never leaves a half-written 'latest').

Layout: `<run>/checkpoints/step-000120/` holding whatever the trainer saves (learner, buffer, RNG, state),
plus `<run>/checkpoints/latest` naming the newest complete one. A checkpoint is first written to a temporary
sibling directory and renamed into place, so the newest complete checkpoint is always loadable.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

LATEST = "latest"


def capture_rng_state() -> dict[str, Any]:
    """The global RNG states of Python, numpy and torch (CPU, and CUDA when present)."""
    import torch

    state: dict[str, Any] = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng_state(state: dict[str, Any]) -> None:
    """Restore what `capture_rng_state` returned."""
    import torch

    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_pickle(obj: Any, path: Path) -> None:
    """Pickle `obj` to `path` (fsync'd, so a crash right after does not leave an empty file)."""
    with path.open("wb") as fh:
        pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
        fh.flush()
        os.fsync(fh.fileno())


def load_pickle(path: Path) -> Any:
    """Load a pickle written by `save_pickle` (checkpoints are trusted files of the user's own runs)."""
    with path.open("rb") as fh:
        return pickle.load(fh)


def write_checkpoint(root: str | Path, step: int, write: Callable[[Path], None], keep: int = 2) -> Path:
    """Create `root/step-NNNNNN` by calling `write(tmpdir)` then renaming; prune to the newest `keep`."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"step-{step:06d}"
    tmp = root / f".tmp-step-{step:06d}-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    write(tmp)
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    pointer = root / f".{LATEST}.tmp"
    pointer.write_text(final.name)
    os.replace(pointer, root / LATEST)
    if keep > 0:
        complete = sorted(p for p in root.glob("step-*") if p.is_dir())
        for old in complete[:-keep]:
            shutil.rmtree(old, ignore_errors=True)
    return final


def latest_checkpoint(root: str | Path) -> Path | None:
    """The newest complete checkpoint under `root`, or None if there is none."""
    root = Path(root)
    pointer = root / LATEST
    if pointer.is_file():
        candidate = root / pointer.read_text().strip()
        if candidate.is_dir():
            return candidate
    complete = sorted(p for p in root.glob("step-*") if p.is_dir())
    return complete[-1] if complete else None


@dataclasses.dataclass(frozen=True)
class RunModel:
    """Where a trained policy lives: its HF model directory, and the run and checkpoint it came from."""

    model_dir: Path
    run_dir: Path | None
    checkpoint: Path | None


def find_run_model(path: str | Path) -> RunModel | None:
    """Resolve a run dir, `checkpoints/`, `checkpoints/latest` or `checkpoints/step-N` to its policy weights.

    Returns None for anything else (a plain model directory, a hub id or an alias is not a run).
    """
    path = Path(path).expanduser()
    if path.name == LATEST and path.is_file():  # the pointer file itself
        path = path.parent / path.read_text().strip()
    if (path / "checkpoints").is_dir():  # a run directory
        ckpt = latest_checkpoint(path / "checkpoints")
        if ckpt is None:
            raise FileNotFoundError(f"run {str(path)!r} has no complete checkpoint under checkpoints/ yet")
        path = ckpt
    elif path.name == "checkpoints" and path.is_dir():
        ckpt = latest_checkpoint(path)
        if ckpt is None:
            raise FileNotFoundError(f"{str(path)!r} holds no complete checkpoint")
        path = ckpt
    for candidate in (path / "learner" / "model", path / "model"):
        if (candidate / "config.json").is_file():
            break
    else:
        return None
    checkpoint = path if (path / "learner").is_dir() else None
    run_dir = path.parent.parent if checkpoint is not None and path.parent.name == "checkpoints" else None
    if run_dir is not None and not (run_dir / "config.yaml").is_file():
        run_dir = None
    return RunModel(model_dir=candidate, run_dir=run_dir, checkpoint=checkpoint)
