"""Run metrics: CSV (always), TensorBoard and wandb (optional), and a PNG summary plot."""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


class ComputeMeter:
    """The paper's compute accounting, B + mu R per step, from raw per-step seconds and counts.

    Callers add a step's raw numbers to the running totals (`gen_s`, `rollouts`, `tokens`, `train_s`,
    `samples`) and then call `charge(rollouts, samples)`, which records that step's raw row in `history`.
    Costs are never accumulated with the mu known at the time (that charged generation 0 until the first
    update and so favoured arms with a warm-up): every total is recomputed from the raw counts with ONE mu,
    the given `mu` or else the run's measured mu so far, and is NaN while mu is still unknown.
    """

    FIELDS = ("gen_s", "rollouts", "tokens", "train_s", "samples")

    def __init__(self, mu: float | None = None) -> None:
        if mu is not None and not (math.isfinite(mu) and mu >= 0):
            raise ValueError(f"ComputeMeter mu must be a finite number >= 0 or None (measure it), got {mu}")
        self.fixed_mu = mu
        self.gen_s = 0.0
        self.rollouts = 0
        self.tokens = 0
        self.train_s = 0.0
        self.samples = 0
        self.history: list[dict[str, float]] = []  # one raw row per charged step
        self._charged = dict.fromkeys(self.FIELDS, 0.0)  # totals at the last charge, for the step deltas

    @property
    def measured_mu(self) -> float:
        """Generation seconds per rollout over training seconds per trained sample (NaN until both seen)."""
        if not self.rollouts or not self.samples or self.train_s <= 0:
            return float("nan")
        return (self.gen_s / self.rollouts) / (self.train_s / self.samples)

    @property
    def mu(self) -> float:
        """The mu used for costs: the given one, else the measured one (NaN while unknown)."""
        return self.measured_mu if self.fixed_mu is None else float(self.fixed_mu)

    def charge(self, rollouts: int, samples: int) -> float:
        """Record one step (raw deltas of the totals since the last charge); returns its cost B + mu R."""
        row = {k: float(getattr(self, k)) - self._charged[k] for k in self.FIELDS}
        row.update(rollouts=float(rollouts), samples=float(samples))
        self.history.append(row)
        self._charged = {k: float(getattr(self, k)) for k in self.FIELDS}
        return samples + self.mu * rollouts

    def total(self, mu: float | None = None, steps: int | None = None) -> float:
        """Cumulative cost of the first `steps` charged steps (default all), sum of B + mu R, at one mu."""
        mu = self.mu if mu is None else mu
        rows = self.history if steps is None else self.history[:steps]
        return sum(r["samples"] for r in rows) + mu * sum(r["rollouts"] for r in rows)

    @property
    def cost(self) -> float:
        """Total cost so far at the current mu (the given one or the one measured so far)."""
        return self.total()

    def state_dict(self) -> dict[str, Any]:
        """Counters and per-step history for checkpoints."""
        state = {k: getattr(self, k) for k in self.FIELDS}
        state.update(fixed_mu=self.fixed_mu, history=[dict(r) for r in self.history])
        state["charged"] = dict(self._charged)
        return state

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore counters from a checkpoint (older checkpoints without a history restore the totals only)."""
        for k in self.FIELDS:
            setattr(self, k, type(getattr(self, k))(state[k]))
        self.fixed_mu = state.get("fixed_mu", self.fixed_mu)
        self.history = [dict(r) for r in state.get("history", [])]
        self._charged = dict(state.get("charged", {k: float(state[k]) for k in self.FIELDS}))


class MetricsLogger:
    """Appends one row of scalar metrics per step to `metrics.csv` and mirrors it to TensorBoard/wandb."""

    def __init__(
        self,
        output_dir: str | Path,
        *,
        tensorboard: bool = True,
        wandb_project: str | None = None,
        run_name: str | None = None,
        config: Mapping[str, Any] | None = None,
        resume: bool = False,
    ) -> None:
        self.dir = Path(output_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.csv_path = self.dir / "metrics.csv"
        self._rows: list[dict[str, Any]] = []
        if resume and self.csv_path.exists():
            with self.csv_path.open(newline="") as fh:
                self._rows = [dict(r) for r in csv.DictReader(fh)]
        elif self.csv_path.exists():
            self.csv_path.unlink()
        self._columns: list[str] = list(self._rows[0].keys()) if self._rows else ["step"]
        self._tb = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter  # lazy: tensorboard import is slow

            self._tb = SummaryWriter(log_dir=str(self.dir / "tensorboard"))
        self._wandb = None
        if wandb_project:
            try:
                import wandb
            except ImportError as exc:
                raise ImportError(
                    "wandb logging was requested but wandb is not installed: pip install wandb"
                ) from exc
            self._wandb = wandb.init(
                project=wandb_project, name=run_name, config=dict(config or {}), resume="allow"
            )

    def truncate(self, after_step: int) -> None:
        """Drop rows logged after `after_step` (on resume from an earlier checkpoint)."""
        self._rows = [r for r in self._rows if int(float(r["step"])) <= after_step]
        self._rewrite()

    def log(self, step: int, metrics: Mapping[str, float]) -> None:
        """Record `metrics` at `step` (non-finite values are kept in the CSV as 'nan'/'inf')."""
        row: dict[str, Any] = {"step": step}
        row.update({k: float(v) for k, v in metrics.items() if isinstance(v, int | float)})
        new_columns = [k for k in row if k not in self._columns]
        self._rows.append(row)
        if new_columns:
            self._columns.extend(new_columns)
            self._rewrite()
        else:
            with self.csv_path.open("a", newline="") as fh:
                csv.DictWriter(fh, self._columns).writerow(row)
        if self._tb is not None:
            for key, value in row.items():
                if key != "step" and math.isfinite(value):
                    self._tb.add_scalar(key, value, step)
        if self._wandb is not None:
            self._wandb.log({k: v for k, v in row.items() if k != "step"}, step=step)

    def _rewrite(self) -> None:
        tmp = self.csv_path.with_suffix(".csv.tmp")
        with tmp.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, self._columns)
            writer.writeheader()
            writer.writerows(self._rows)
        os.replace(tmp, self.csv_path)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """All rows logged so far (values as floats or CSV strings)."""
        return self._rows

    def close(self) -> None:
        """Flush and close the TensorBoard/wandb writers."""
        if self._tb is not None:
            self._tb.flush()
            self._tb.close()
            self._tb = None
        if self._wandb is not None:
            self._wandb.finish()
            self._wandb = None


def progress_fields(
    metrics: Mapping[str, float], last_eval: Mapping[str, float], **extra: Any
) -> dict[str, Any]:
    """What the progress bar shows: rollout reward and loss each step, the latest held-out pass@1 once known."""
    fields: dict[str, Any] = {"reward": f"{metrics.get('rollout/reward_mean', float('nan')):.3f}"}
    if "train/loss" in metrics:
        fields["loss"] = f"{metrics['train/loss']:.4f}"
    for key, label in (("eval/pass@1", "heldout@1"), ("eval/gold_prob", "gold_p")):
        if key in last_eval:
            fields[label] = f"{last_eval[key]:.3f}"
    return {**fields, **extra}


def _series(rows: Sequence[Mapping[str, Any]], key: str) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for row in rows:
        raw = row.get(key)
        if raw in (None, ""):
            continue
        value = float(raw)
        if math.isfinite(value):
            xs.append(float(row["step"]))
            ys.append(value)
    return xs, ys


#: (title, [(metric key, label)]) panels of the training summary plot.
#: one quantity (one unit) per panel
PANELS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "rollout reward",
        (
            ("rollout/reward_mean", "rollout reward"),
            ("rollout/accuracy", "rollout pass rate"),  # drawn only where it differs from the reward
            ("train/reward_mean", "trained-on reward"),
        ),
    ),
    ("held-out", (("eval/pass@1", "held-out pass@1"), ("eval/gold_prob", "gold completion probability"))),
    ("loss", (("train/loss", "loss"),)),
    ("entropy (nats/token)", (("train/entropy", "policy entropy"),)),
    (
        "age (policy versions)",
        (("train/age_mean", "trained rollouts"), ("buffer/staleness/mean", "buffer contents")),
    ),
    ("replay ratio (uses per rollout)", (("buffer/replay_ratio", "replay ratio"),)),
)
#: noisy per-step series that also get a trailing mean, so a trend is visible
SMOOTHED = ("rollout/reward_mean", "rollout/accuracy")


def plot_metrics(csv_path: str | Path, png_path: str | Path, title: str = "rlvr training") -> Path:
    """Plot reward, held-out score, loss, entropy, age and replay ratio (one quantity per panel) into a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with Path(csv_path).open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    fig, axes = plt.subplots(3, 2, figsize=(11, 10), constrained_layout=True)
    for ax, (panel, series) in zip(axes.flat, PANELS):
        drawn = False
        shown: list[list[float]] = []
        for key, label in series:
            xs, ys = _series(rows, key)
            if xs and ys not in shown:  # e.g. the pass rate of binary rewards is the reward: drawn once
                shown.append(ys)
                ax.plot(xs, ys, marker="o" if len(xs) < 30 else None, ms=3, label=label, alpha=0.8)
                drawn = True
                if key in SMOOTHED and len(ys) >= 20:
                    w = max(5, len(ys) // 10)
                    trend = np.convolve(ys, np.ones(w) / w, mode="valid")
                    ax.plot(xs[w - 1 :], trend, lw=2.2, label=f"{label} ({w}-step mean)")
        ax.set_title(panel)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        if drawn:
            ax.legend(fontsize=8)
        else:
            ax.text(0.5, 0.5, "not logged", ha="center", va="center", transform=ax.transAxes, color="gray")
    fig.suptitle(title)
    out = Path(png_path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
