"""Analysis of benchmarks/replay_efficiency.py: pilot plan, threshold crossings, paired ratios, tables, plots.

Works on whatever result files exist (one JSON per (arm, seed) under <results>/runs/) and says how many seeds
each arm has. Compute = trained samples + mu x generated rollouts (the paper's sum of B + mu R per step), at
mu = the pilot's measured mu and at the paper's 5.28 (Qwen2.5-7B) and 6.84 (Qwen3-0.6B).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

BASELINE = "on-policy"
CD_BASELINE = "cd on-policy"
PAPER_MUS = (5.28, 6.84)
#: fewer seeds than this in an arm or its baseline: the report does not compare IQRs, only gives paired ratios
MIN_SEEDS_FOR_IQR = 4
#: axes of "to threshold": (key, label, scale for the table)
AXES = (
    ("step", "optimizer steps", 1.0),
    ("rollouts", "generated rollouts", 1.0),
    ("tokens", "generated tokens (k)", 1e3),
    ("samples", "trained samples (k)", 1e3),
)


# ----------------------------------------------------------------------------------------------- loading


def load_runs(results: Path) -> list[dict[str, Any]]:
    """Every finished run's result file."""
    return [json.loads(p.read_text()) for p in sorted(Path(results).glob("runs/*/seed*.json"))]


def load_pilot(results: Path) -> dict[str, Any] | None:
    """The pilot's plan (budget, threshold, mu), once the pilot has run."""
    p = Path(results) / "pilot.json"
    return json.loads(p.read_text()) if p.is_file() else None


def measured_mu(run: dict[str, Any], upto: int | None = None) -> float:
    """(generation s per rollout) / (training s per trained sample) over a run's first `upto` steps."""
    c = run["curves"]
    g, r = sum(c["gen_s"][:upto]), sum(c["rollouts"][:upto])
    t, n = sum(c["train_s"][:upto]), sum(c["samples"][:upto])
    return (g / r) / (t / n) if r and n and t > 0 else math.nan


def points(run: dict[str, Any], mus: dict[str, float], steps: int | None = None) -> dict[str, np.ndarray]:
    """Accuracy at each evaluated step (step 0 included) and the cumulative axes there, up to `steps`."""
    c = run["curves"]
    cum = {k: np.concatenate([[0.0], np.cumsum(c[k])]) for k in ("rollouts", "tokens", "samples")}
    ev = np.asarray(run["eval_steps"], dtype=int)
    acc = np.asarray(run["accuracy"], dtype=float)
    keep = ev <= (steps if steps is not None else ev.max())
    ev, acc = ev[keep], acc[keep]
    out = {"step": ev.astype(float), "acc": acc, **{k: v[ev] for k, v in cum.items()}}
    for name, mu in mus.items():
        out[f"compute@{name}"] = out["samples"] + mu * out["rollouts"]
    return out


# ----------------------------------------------------------------------------------------------- the pilot


def make_pilot(runs: list[dict[str, Any]], eval_every: int) -> dict[str, Any]:
    """Budget (steps to the plateau), threshold (halfway from start to plateau), mu and seed spread."""
    if not runs:
        raise ValueError("the pilot has no finished runs")
    pts = [points(r, {}) for r in runs]
    n = min(len(p["acc"]) for p in pts)
    steps = pts[0]["step"][:n]
    med = np.median(np.stack([p["acc"][:n] for p in pts]), axis=0)
    start = float(med[0])
    tail = max(2, n // 4)
    plateau = float(np.mean(med[-tail:]))
    slope = float(np.polyfit(steps[-tail:], med[-tail:], 1)[0] * 100)  # accuracy per 100 steps at the end
    rise = plateau - start
    if rise > 0:
        reach = int(np.argmax(med >= start + 0.9 * rise))
        budget = min(int(steps[-1]), int(math.ceil(1.5 * steps[reach] / eval_every) * eval_every))
    else:
        reach, budget = n - 1, int(steps[-1])
    mu = float(np.median([measured_mu(r) for r in runs]))
    threshold = start + 0.5 * rise if rise > 0 else math.inf  # no learning: nothing can cross
    cross = [first_crossing(p["step"], p["acc"], threshold) for p in pts]
    mus = {"measured": mu}
    cross_c = [
        first_crossing(points(r, mus)["compute@measured"], points(r, mus)["acc"], threshold) for r in runs
    ]
    return {
        "seeds": sorted(int(r["seed"]) for r in runs),
        "steps_run": int(steps[-1]),
        "start": start,
        "plateau": plateau,
        "final_slope_per_100_steps": slope,
        "plateau_step_90pct": int(steps[reach]),
        "budget_steps": budget,
        "threshold": threshold,
        "mu": mu,
        "steps_to_threshold": cross,
        "compute_to_threshold": cross_c,
        "median_curve": {"step": steps.tolist(), "acc": med.tolist()},
    }


def budget_steps(pilot: dict[str, Any], B: int, R: int, eval_every: int) -> int:
    """Steps an arm generating R per step gets for the baseline's compute budget at the pilot's mu."""
    mu = pilot["mu"]
    budget = pilot["budget_steps"] * (B + mu * B)
    return max(eval_every, round(budget / (B + mu * R) / eval_every) * eval_every)


# ----------------------------------------------------------------------------------------------- statistics


def first_crossing(x: Sequence[float], y: Sequence[float], threshold: float) -> float:
    """The first x at which y >= threshold (NaN y skipped); inf if never."""
    for xi, yi in zip(x, y, strict=True):
        if np.isfinite(yi) and yi >= threshold - 1e-12:
            return float(xi)
    return math.inf


def median_iqr(values: Sequence[float]) -> tuple[float, float, float]:
    """(median, 25th, 75th percentile); inf counts as larger than everything (a seed that never got there)."""
    v = np.sort(np.asarray([x for x in values if not math.isnan(x)], dtype=float))
    if v.size == 0:
        return (math.nan, math.nan, math.nan)
    out = []
    for q in (50, 25, 75):
        pos = (v.size - 1) * q / 100
        lo, hi = v[math.floor(pos)], v[math.ceil(pos)]
        out.append(float(lo + (hi - lo) * (pos - math.floor(pos))) if np.isfinite(hi) else math.inf)
    return (out[0], out[1], out[2])


def last_sampled(run: dict[str, Any], steps: int) -> tuple[int, float]:
    """(step, sampled pass@1) of the run's last sampled check at or before `steps` ((-1, NaN) if none)."""
    done = sorted((int(k), float(v)) for k, v in run.get("sampled_pass1", {}).items() if int(k) <= steps)
    return done[-1] if done else (-1, math.nan)


def gold_at(pts: dict[str, np.ndarray], step: int) -> float:
    """The exact accuracy at an evaluated step (NaN if that step was not evaluated)."""
    hit = np.flatnonzero(pts["step"] == step)
    return float(pts["acc"][hit[0]]) if hit.size else math.nan


def analyze(runs: list[dict[str, Any]], pilot: dict[str, Any] | None, order: Sequence[str]) -> dict[str, Any]:
    """Per arm: crossings of the threshold on every axis, paired ratios to the baseline, final numbers."""
    by_arm: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_arm.setdefault(r["arm"], []).append(r)
    mu = (
        pilot["mu"]
        if pilot
        else float(np.median([measured_mu(r) for r in by_arm.get(BASELINE, [])] or [1.0]))
    )
    mus = {"measured": mu, **{f"{m:g}": m for m in PAPER_MUS}}
    thresholds: dict[str, float] = {}
    budgets: dict[str, int] = {}
    if pilot:
        thresholds[BASELINE], budgets[BASELINE] = pilot["threshold"], pilot["budget_steps"]
    if CD_BASELINE in by_arm:  # Countdown: the same rule on its own baseline, no separate pilot
        cd = make_pilot(by_arm[CD_BASELINE], 1)
        thresholds[CD_BASELINE] = cd["threshold"]
    stats: dict[str, Any] = {"mus": mus, "thresholds": thresholds, "pilot": pilot, "arms": {}}
    axes = [a[0] for a in AXES] + [f"compute@{k}" for k in mus]
    cross_by: dict[str, dict[int, dict[str, float]]] = {}
    for name in [n for n in order if n in by_arm]:
        rs = sorted(by_arm[name], key=lambda r: r["seed"])
        base = CD_BASELINE if rs[0]["group"] == "countdown" else BASELINE
        thr = thresholds.get(base, math.nan)
        # the baseline's pilot seeds ran longer than its budget: cut every run at its own arm's budget
        steps = min(r["steps"] for r in rs) if name != BASELINE or not pilot else pilot["budget_steps"]
        pts = {r["seed"]: points(r, mus, steps) for r in rs}
        cross_by[name] = {
            k: {ax: first_crossing(p[ax], p["acc"], thr) for ax in axes} for k, p in pts.items()
        }
        entropy = [float(np.nanmean(r["curves"]["train/entropy"][max(0, steps - 10) : steps])) for r in rs]
        sampled = [r.get("sampled_pass1", {}) for r in rs]
        stats["arms"][name] = {
            "group": rs[0]["group"],
            "note": rs[0].get("note", ""),
            "R": rs[0]["R"],
            "N": rs[0]["N"],
            "B": rs[0]["B"],
            "seeds": [r["seed"] for r in rs],
            "steps": steps,
            "base": base,
            "cross": {ax: median_iqr([c[ax] for c in cross_by[name].values()]) for ax in axes},
            "reached": sum(math.isfinite(c["step"]) for c in cross_by[name].values()),
            "final_acc": median_iqr([float(p["acc"][-1]) for p in pts.values()]),
            "peak_acc": median_iqr([float(np.nanmax(p["acc"])) for p in pts.values()]),
            "final_entropy": median_iqr(entropy),
            "mu_measured": median_iqr([measured_mu(r, steps) for r in rs]),
            "total": {ax: median_iqr([float(p[ax][-1]) for p in pts.values()]) for ax in axes},
            "sampled_start": median_iqr([float(s.get("0", math.nan)) for s in sampled]),
            "sampled_end": median_iqr([last_sampled(r, steps)[1] for r in rs]),
            "gold_end": median_iqr([gold_at(pts[r["seed"]], last_sampled(r, steps)[0]) for r in rs]),
            "wall_s": median_iqr([r["wall_s"] for r in rs]),
        }
    for name, a in stats["arms"].items():  # paired by seed: same data order and evaluation set
        base = cross_by.get(a["base"], {})
        ratios: dict[str, list[float]] = {}
        # a seed pairs when its baseline reached the threshold after step 0 (one that starts at or above it,
        # possible where the evaluation set differs by seed, gives no ratio); the same test as the ratios below
        a["paired_seeds"] = [
            k for k in cross_by[name] if _positive(base.get(k, {}).get("rollouts", math.nan))
        ]
        a["unpaired_at_start"] = sorted(k for k in cross_by[name] if base.get(k, {}).get("rollouts") == 0)
        for ax in ("rollouts", "tokens", "samples", *[f"compute@{k}" for k in mus]):
            vals = []
            for seed in a["paired_seeds"]:
                vals.append(cross_by[name][seed][ax] / base[seed][ax])
            ratios[ax] = vals
        a["paired"] = {ax: median_iqr(v) for ax, v in ratios.items()}
        a["paired_n"] = len(ratios["rollouts"])
        a["paired_values"] = ratios
    return stats


def _positive(x: float) -> bool:
    return math.isfinite(x) and x > 0


def separated(arm: dict[str, Any], base: dict[str, Any], axis: str) -> bool:
    """True when the arm's whole IQR to threshold lies below the baseline's (a saving the seeds agree on)."""
    return math.isfinite(arm["cross"][axis][2]) and arm["cross"][axis][2] < base["cross"][axis][1]


# ----------------------------------------------------------------------------------------------- report


def _fmt(m: tuple[float, float, float], scale: float = 1.0, digits: int = 0) -> str:
    med, lo, hi = m
    if math.isnan(med):
        return "-"
    if not math.isfinite(med):
        return "not reached"

    def f(v: float) -> str:
        return "inf" if not math.isfinite(v) else f"{v / scale:.{digits}f}"

    return f"{f(med)} [{f(lo)}, {f(hi)}]"


def crossing_table(stats: dict[str, Any], names: Sequence[str]) -> str:
    """Median [IQR] over seeds of each axis at the first evaluation at or above the threshold."""
    mus = list(stats["mus"])
    head = (
        "| arm | R | N | seeds | steps run | reached | steps | rollouts | gen. tokens (k) | trained samples (k) | "
        + " | ".join(f"compute (k) @ mu={stats['mus'][m]:.2f}" for m in mus)
        + " | final acc. |\n|"
        + "---|" * (10 + len(mus))
        + "\n"
    )
    rows = []
    for n in names:
        a = stats["arms"][n]
        c = a["cross"]
        cells = [_fmt(c["step"]), _fmt(c["rollouts"]), _fmt(c["tokens"], 1e3, 1), _fmt(c["samples"], 1e3, 1)]
        cells += [_fmt(c[f"compute@{m}"], 1e3, 1) for m in mus]
        rows.append(
            f"| {n} | {a['R']} | {a['N']} | {len(a['seeds'])} | {a['steps']} | {a['reached']}/{len(a['seeds'])} | "
            + " | ".join(cells)
            + f" | {_fmt(a['final_acc'], 1, 3)} |"
        )
    return head + "\n".join(rows) + "\n"


def paired_table(stats: dict[str, Any], names: Sequence[str]) -> str:
    """Per seed, arm / baseline of each axis to threshold (same seed = same data order and evaluation set)."""
    mus = list(stats["mus"])
    axes = ["rollouts", "tokens", "samples", *[f"compute@{m}" for m in mus]]
    head = (
        "| arm | paired seeds | rollouts | gen. tokens | trained samples | "
        + " | ".join(f"compute @ mu={stats['mus'][m]:.2f}" for m in mus)
        + " | rollouts ratio per seed |\n|"
        + "---|" * (6 + len(mus))
        + "\n"
    )
    rows = []
    for n in names:
        a = stats["arms"][n]
        if n == a["base"]:
            continue
        per_seed = ", ".join(
            f"{seed}: {v:.2f}"
            for seed, v in zip(a["paired_seeds"], a["paired_values"]["rollouts"], strict=True)
        )
        rows.append(
            f"| {n} | {a['paired_n']} | "
            + " | ".join(_fmt(a["paired"][ax], 1, 2) for ax in axes)
            + f" | {per_seed or '-'} |"
        )
    return head + "\n".join(rows) + "\n"


def claims(stats: dict[str, Any], names: Sequence[str]) -> list[str]:
    """One sentence per arm that says what the data support: IQRs separated or not, and the paired ratio."""
    out = []
    for n in names:
        a = stats["arms"][n]
        base = stats["arms"].get(a["base"])
        if n == a["base"] or base is None:
            continue
        parts = []
        for ax, label in (
            ("compute@5.28", "compute at mu = 5.28"),
            ("compute@measured", "compute at the measured mu"),
            ("rollouts", "rollouts"),
        ):
            pr = a["paired"][ax]
            ratio = (
                "no paired seed reached it"
                if math.isnan(pr[0])
                else (f"paired ratio {_fmt(pr, 1, 2)} over {a['paired_n']} seeds")
            )
            if min(len(a["seeds"]), len(base["seeds"])) < MIN_SEEDS_FOR_IQR:
                verdict = f"too few seeds for an IQR comparison (< {MIN_SEEDS_FOR_IQR})"
            else:
                verdict = "IQRs separate" if separated(a, base, ax) else "IQRs overlap"
            parts.append(f"{label}: {verdict}, {ratio}")
        unpaired = [k for k in a["seeds"] if k not in a["paired_seeds"]]
        why = (
            f" Seeds without a ratio: {unpaired} (the baseline never reached the threshold, or"
            f" {a['unpaired_at_start']} started at or above it)"
            if unpaired
            else ""
        )
        out.append(
            f"- **{n}** ({len(a['seeds'])} seeds, {a['reached']} reached the threshold): "
            + "; ".join(parts)
            + "."
            + (why + "." if why else "")
        )
    return out


def _band(ax: Any, pts: list[dict[str, np.ndarray]], key: str, label: str, color: Any) -> None:
    """Median line and IQR band over seeds on a common x grid (inside the range every run covers)."""
    xmax = min(p[key][-1] for p in pts)
    grid = np.linspace(0.0, xmax, 80)
    ys = np.stack([np.interp(grid, p[key], p["acc"]) for p in pts])
    q = np.percentile(ys, [25, 50, 75], axis=0)
    ax.plot(grid, q[1], label=label, color=color)
    ax.fill_between(grid, q[0], q[2], color=color, alpha=0.15)


def plot_group(
    stats: dict[str, Any], runs: list[dict[str, Any]], names: Sequence[str], out: Path, title: str
) -> None:
    """Accuracy against steps, rollouts, tokens, trained samples and compute at two mus; median and IQR."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(16, 8.5))
    group = [r for r in runs if r["arm"] in names]  # the label is this group's metric, not the first run's
    keys = ["step", "rollouts", "tokens", "samples", "compute@measured", "compute@5.28"]
    colors = plt.cm.tab10.colors
    for i, n in enumerate(names):
        a = stats["arms"][n]
        pts = [points(r, stats["mus"], a["steps"]) for r in runs if r["arm"] == n]
        for ax, key in zip(axes.flat, keys, strict=True):
            _band(ax, pts, key, f"{n} ({len(pts)} seeds)", colors[i % 10])
    for ax, key in zip(axes.flat, keys, strict=True):
        label = {"step": "optimizer steps", "samples": "trained samples"}.get(key, key)
        if key.startswith("compute@"):
            label = f"compute = samples + mu x rollouts, mu = {stats['mus'][key.split('@')[1]]:.2f}"
        ax.set_xlabel(label)
        ax.set_ylabel(group[0]["accuracy_metric"] if group else "accuracy")
        thr = stats["thresholds"].get(stats["arms"][names[0]]["base"]) if names else None
        if thr is not None:
            ax.axhline(thr, color="gray", ls="--", lw=0.8, label="threshold")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{title}: median and IQR over seeds")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def report(results: Path, arms_order: Sequence[str], setup: dict[str, Any], command: str) -> str:
    """results.md, stats.json and the plots from every result file present; returns the markdown."""
    results = Path(results)
    runs = load_runs(results)
    pilot = load_pilot(results)
    stats = analyze(runs, pilot, arms_order)
    (results / "stats.json").write_text(json.dumps(stats, default=float, indent=1))
    groups = {
        g: [n for n in arms_order if stats["arms"].get(n, {}).get("group") == g]
        for g in ("core", "extra", "countdown")
    }
    if groups["extra"]:
        groups["extra"] = [n for n in (BASELINE, "R=B/2 N=8R") if n in stats["arms"]] + groups["extra"]
    lines = [
        "# Replay efficiency at tiny scale: results (generated; do not edit)",
        "",
        f"Generated by `{command}` from {len(runs)} result files. Setup and discussion: docs/replay_efficiency.md.",
        "",
        "Seeds per arm so far: "
        + ", ".join(f"{n} {len(a['seeds'])}" for n, a in stats["arms"].items())
        + ".",
        "",
    ]
    if pilot:
        lines += [
            f"**Pilot** (on-policy, seeds {pilot['seeds']}, {pilot['steps_run']} steps): accuracy (mean gold-completion "
            f"probability over all 81 facts) starts at {pilot['start']:.3f}, plateau (mean of the last quarter of "
            f"the median curve) {pilot['plateau']:.3f}, slope there {pilot['final_slope_per_100_steps']:+.3f} per 100 "
            f"steps; 90% of the rise at step {pilot['plateau_step_90pct']}, so the budget is "
            f"{pilot['budget_steps']} on-policy steps. Threshold (halfway) = **{pilot['threshold']:.3f}**. mu = "
            f"**{pilot['mu']:.3f}**. Pilot seeds' steps to threshold: {pilot['steps_to_threshold']}.",
            "",
        ]
    sep = "Cells: median [25th, 75th percentile] over seeds; a seed that never reaches the threshold counts as infinite."
    for g, title in (("core", "Core arms"), ("extra", "Extra arms"), ("countdown", "Countdown / hindsight")):
        names = groups[g]
        if not names:
            continue
        thr = stats["thresholds"].get(stats["arms"][names[-1]]["base"], math.nan)
        lines += [f"## {title}: to threshold {thr:.3f}", "", sep, "", crossing_table(stats, names)]
        lines += ["Paired ratios (arm / on-policy, per seed, then median [IQR]; < 1 = less):", ""]
        lines += [paired_table(stats, names), *claims(stats, names), ""]
        png = f"accuracy_{g}.png"
        plot_group(stats, runs, names, results / png, title)
        lines += [f"![{png}]({png})", ""]
    lines += [
        "## Checks",
        "",
        "| arm | mu measured in the arm | final entropy | sampled pass@1 at step 0 | sampled pass@1, last check | gold prob. at that step | wall s per run |",
        "|---|---|---|---|---|---|---|",
    ]
    for n, a in stats["arms"].items():
        lines.append(
            f"| {n} | {_fmt(a['mu_measured'], 1, 2)} | {_fmt(a['final_entropy'], 1, 3)} | {_fmt(a['sampled_start'], 1, 3)} | "
            f"{_fmt(a['sampled_end'], 1, 3)} | {_fmt(a['gold_end'], 1, 3)} | {_fmt(a['wall_s'])} |"
        )
    text = "\n".join(lines) + "\n"
    (results / "results.md").write_text(text)
    return text
