"""A run directory's safety rules: never overwrite an earlier run, never resume silently with other settings,
and checkpoint on the way out when the run is stopped by a signal.
"""

from __future__ import annotations

import logging
import shutil
import signal
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.train.checkpoint import latest_checkpoint
from rlvr.train.config import RunConfig
from rlvr.train.configio import load_config, to_dict

log = logging.getLogger("rlvr.train")

#: settings a resumed run may change without asking: how long it runs and how it reports, not what it learns
RESUMABLE_CHANGES = (
    "train.steps",
    "train.output_dir",
    "train.resume",
    "train.overwrite",
    "train.accept_changes",
    "train.progress",
    "train.plot",
    "train.tensorboard",
    "train.wandb_project",
    "train.checkpoint_every",
    "train.keep_checkpoints",
    "distributed.address",
)


def _flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        for key, value in tree.items():
            out.update(_flatten(value, f"{prefix}{key}."))
        return out or {prefix[:-1]: {}}
    return {prefix[:-1]: tree}


def config_changes(old: RunConfig, new: RunConfig) -> list[str]:
    """'key: old -> new' for every setting that differs, except those a resume may change freely."""
    a, b = _flatten(to_dict(old)), _flatten(to_dict(new))
    changed = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key) and not key.startswith(RESUMABLE_CHANGES):
            changed.append(f"{key}: {a.get(key)!r} -> {b.get(key)!r}")
    return changed


def _earlier_run(out: Path) -> str | None:
    """What in `out` belongs to an earlier run (None if nothing does)."""
    found = []
    ckpt = latest_checkpoint(out / "checkpoints") if (out / "checkpoints").is_dir() else None
    if ckpt is not None:
        found.append(f"checkpoint {ckpt.name}")
    if (out / "metrics.csv").is_file():
        found.append("metrics.csv")
    return ", ".join(found) or None


def prepare_run_dir(config: RunConfig, *, apply: bool = True) -> None:
    """Check `train.output_dir` against what is already there, before anything is written (see module doc).

    - `resume=false` into a directory that holds a run: refused, or with `overwrite=true` that run is moved
      aside to `<dir>.prev-<time>` (nothing is deleted, and `checkpoints/latest` never points into it).
    - resuming a checkpoint with different learning settings: refused with the differences listed, unless
      `accept_changes=true`; then the old config is kept as `config.prev-N.yaml`.

    With `apply=False` (a dry run) it only checks: nothing is moved or copied.
    """
    out = Path(config.train.output_dir)
    if not out.exists():
        return
    earlier = _earlier_run(out)
    if not config.train.resume:
        if earlier is None:
            return
        if not config.train.overwrite:
            raise ConfigError(
                f"{out} holds an earlier run ({earlier}) and resume is off: starting over would overwrite it. "
                "Pass another --output-dir, resume it (drop --no-resume), or add --overwrite "
                "(train.overwrite=true) to move it aside"
            )
        aside = out.with_name(f"{out.name}.prev-{time.strftime('%Y%m%d-%H%M%S')}")
        if not apply:
            return
        shutil.move(str(out), str(aside))
        log.warning("moved the earlier run in %s aside to %s", out, aside)
        return
    if latest_checkpoint(out / "checkpoints") is None or not (out / "config.yaml").is_file():
        return
    try:
        previous = load_config(RunConfig, out / "config.yaml")
    except ConfigError as exc:
        raise ConfigError(
            f"cannot read the config of the run being resumed ({out / 'config.yaml'}: {exc}); pass another "
            "--output-dir or --no-resume --overwrite"
        ) from None
    changes = config_changes(previous, config)
    if not changes:
        return
    listed = "; ".join(changes)
    if not config.train.accept_changes:
        raise ConfigError(
            f"resuming {out} with settings that differ from the run's: {listed}. Add --accept-changes "
            "(train.accept_changes=true) to continue with them, or pass another --output-dir"
        )
    if not apply:
        return
    n = 1 + sum(1 for _ in out.glob("config.prev-*.yaml"))
    shutil.copy2(out / "config.yaml", out / f"config.prev-{n}.yaml")
    log.warning(
        "resuming %s with changed settings (old config kept as config.prev-%d.yaml): %s", out, n, listed
    )


class GracefulStop:
    """While active, SIGTERM/SIGINT ask the loop to stop after the current step (a second one stops at once).

    The loop checks `requested` after each step, saves a checkpoint and returns, so a stopped run loses at most
    the step in flight. Outside the main thread (where handlers cannot be installed) it does nothing.
    """

    def __init__(self) -> None:
        self.requested: int | None = None
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested is not None:  # asked twice: the user means it
            raise KeyboardInterrupt
        self.requested = signum
        log.warning(
            "%s received: stopping after this step and saving a checkpoint", signal.Signals(signum).name
        )

    def __enter__(self) -> GracefulStop:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()
