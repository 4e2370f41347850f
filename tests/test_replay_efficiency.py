"""The analysis side of benchmarks/replay_efficiency.py on synthetic result files: the pilot's plan, equal-compute
budgets, threshold crossings on every axis, paired ratios, the claims the report makes, and resumability."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
_spec = importlib.util.spec_from_file_location(
    "replay_efficiency", ROOT / "benchmarks" / "replay_efficiency.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["replay_efficiency"] = bench
_spec.loader.exec_module(bench)
ana = bench.analysis


def fake_run(
    arm: str, seed: int, R: int, B: int, steps: int, acc_at, *, gen=1.0, train=1.0, every=10
) -> dict:
    """A run generating R and training B per step (no warm-up), `gen`/`train` seconds per step, acc_at(step)."""
    ev = list(range(0, steps + 1, every))
    return {
        "arm": arm,
        "group": "core",
        "seed": seed,
        "R": R,
        "N": R,
        "B": B,
        "steps": steps,
        "note": "",
        "accuracy_metric": "eval/gold_prob",
        "eval_steps": ev,
        "accuracy": [float(acc_at(s)) for s in ev],
        "sampled_pass1": {"0": 0.3, str(steps): 0.5},
        "curves": {
            "gen_s": [gen] * steps,
            "train_s": [train] * steps,
            "rollouts": [float(R)] * steps,
            "samples": [float(B)] * steps,
            "tokens": [30.0 * R] * steps,
            "train/entropy": [0.05] * steps,
        },
        "wall_s": 1.0,
    }


def saturating(start: float, top: float, tau: float):
    return lambda s: start + (top - start) * (1 - math.exp(-s / tau))


def test_median_iqr_and_first_crossing() -> None:
    assert ana.median_iqr([1, 2, 3, 4, 5]) == (3.0, 2.0, 4.0)
    med, lo, hi = ana.median_iqr([1.0, 2.0, 3.0, math.inf])
    assert (med, lo) == (2.5, 1.75) and hi == math.inf
    assert math.isnan(ana.median_iqr([])[0]) and ana.median_iqr([math.nan, 2.0])[0] == 2.0
    assert ana.first_crossing([0, 10, 20], [0.1, math.nan, 0.5], 0.5) == 20
    assert ana.first_crossing([0, 10], [0.1, 0.2], 0.5) == math.inf


def test_pilot_fixes_budget_threshold_and_mu() -> None:
    B = 64
    runs = [fake_run("on-policy", k, B, B, 400, saturating(0.4, 0.8, 50 + 10 * k), gen=2.0) for k in range(4)]
    pilot = ana.make_pilot(runs, 10)
    assert pilot["start"] == pytest.approx(0.4)
    assert 0.79 < pilot["plateau"] <= 0.8 and abs(pilot["final_slope_per_100_steps"]) < 0.01
    assert pilot["threshold"] == pytest.approx(0.4 + 0.5 * (pilot["plateau"] - 0.4))
    # mu = (2 s / 64 rollouts) / (1 s / 64 samples) = 2
    assert pilot["mu"] == pytest.approx(2.0)
    # 90% of the rise of the median curve (tau 65) at ~150 steps; budget = 1.5x that, a multiple of 10
    assert pilot["plateau_step_90pct"] == 150 and pilot["budget_steps"] == 230
    assert len(pilot["steps_to_threshold"]) == 4 and all(40 <= s <= 70 for s in pilot["steps_to_threshold"])
    # equal compute at the pilot's mu: T0 (B + mu B) = T (B + mu R)
    assert ana.budget_steps(pilot, B, B, 10) == 230
    assert ana.budget_steps(pilot, B, B // 2, 10) == round(230 * 3 / 2 / 10) * 10
    assert ana.budget_steps(pilot, B, B // 4, 10) == round(230 * 3 / 1.5 / 10) * 10
    flat = ana.make_pilot([fake_run("on-policy", 0, B, B, 100, lambda s: 0.4 - s * 1e-4)], 10)
    assert flat["threshold"] == math.inf and flat["budget_steps"] == 100  # no learning: nothing can cross


def test_analysis_axes_paired_ratios_and_claims(tmp_path: Path) -> None:
    B = 64
    base = [fake_run("on-policy", k, B, B, 300, saturating(0.4, 0.8, 60 + 5 * k)) for k in range(4)]
    pilot = ana.make_pilot(base, 10)
    pilot["budget_steps"] = 200  # the pilot ran longer than its budget: the analysis cuts it
    # replay: half the rollouts per step, same per-step learning but one step slower
    rep = [fake_run("R=B/2 N=8R", k, B // 2, B, 300, saturating(0.4, 0.8, 70 + 5 * k)) for k in range(4)]
    stats = ana.analyze(base + rep, pilot, ["on-policy", "R=B/2 N=8R"])
    thr = pilot["threshold"]
    b, r = stats["arms"]["on-policy"], stats["arms"]["R=B/2 N=8R"]
    assert b["steps"] == 200 and r["steps"] == 300 and r["seeds"] == [0, 1, 2, 3]
    steps_b = [
        ana.first_crossing(
            range(0, 201, 10), [saturating(0.4, 0.8, 60 + 5 * k)(s) for s in range(0, 201, 10)], thr
        )
        for k in range(4)
    ]
    assert b["cross"]["step"][0] == pytest.approx(np.median(steps_b))
    # every axis is a fixed multiple of the crossing step here
    assert b["cross"]["rollouts"][0] == pytest.approx(64 * np.median(steps_b))
    assert b["cross"]["compute@5.28"][0] == pytest.approx((64 + 5.28 * 64) * np.median(steps_b))
    assert r["cross"]["tokens"][0] == pytest.approx(30 * 32 * r["cross"]["step"][0])
    # paired per seed: replay needs 1 step more per 10 but half the rollouts -> rollout ratio ~0.5-0.6
    ratios = r["paired_values"]["rollouts"]
    assert len(ratios) == 4 and all(0.45 < x < 0.65 for x in ratios)
    assert r["paired"]["compute@5.28"][2] < 1 and ana.separated(r, b, "rollouts")
    text = "\n".join(ana.claims(stats, ["on-policy", "R=B/2 N=8R"]))
    assert "rollouts: IQRs separate" in text and "4 seeds" in text
    # an arm that never reaches the threshold: infinite crossings, IQRs do not separate
    slow = [fake_run("R=B/4 N=8R", k, B // 4, B, 300, lambda s: 0.4) for k in range(2)]
    stats = ana.analyze(base + rep + slow, pilot, ["on-policy", "R=B/2 N=8R", "R=B/4 N=8R"])
    s = stats["arms"]["R=B/4 N=8R"]
    assert s["reached"] == 0 and s["cross"]["step"][0] == math.inf and not ana.separated(s, b, "rollouts")
    assert "too few seeds for an IQR comparison" in "\n".join(ana.claims(stats, ["R=B/4 N=8R"]))  # 2 seeds
    slow = [fake_run("R=B/4 N=8R", k, B // 4, B, 300, lambda s: 0.4) for k in range(4)]
    stats = ana.analyze(base + rep + slow, pilot, ["on-policy", "R=B/2 N=8R", "R=B/4 N=8R"])
    assert "IQRs overlap" in "\n".join(ana.claims(stats, ["R=B/4 N=8R"]))


def test_a_seed_whose_baseline_starts_above_the_threshold_has_no_ratio(tmp_path: Path) -> None:
    """Where evaluation sets differ by seed (Countdown), a baseline seed may start at or above the threshold:
    it gives no ratio (0 rollouts to divide by), is named in the claims, and the per-seed table still renders."""
    B = 64
    base = [fake_run("on-policy", k, B, B, 200, saturating(0.4, 0.8, 40)) for k in range(4)]
    pilot = ana.make_pilot(base, 10)
    base[3] = fake_run("on-policy", 3, B, B, 200, saturating(0.7, 0.8, 40))  # starts above the threshold
    rep = [fake_run("R=B/2 N=8R", k, B // 2, B, 300, saturating(0.4, 0.8, 45)) for k in range(4)]
    stats = ana.analyze(base + rep, pilot, ["on-policy", "R=B/2 N=8R"])
    r = stats["arms"]["R=B/2 N=8R"]
    assert r["paired_seeds"] == [0, 1, 2] and r["unpaired_at_start"] == [3]
    assert r["paired_n"] == 3 and len(r["paired_values"]["rollouts"]) == 3
    table = ana.paired_table(stats, ["on-policy", "R=B/2 N=8R"])
    assert "| 0: 0." in table and "3: " not in table.split("|")[-2]
    assert "Seeds without a ratio: [3]" in "\n".join(ana.claims(stats, ["on-policy", "R=B/2 N=8R"]))


def test_report_works_on_any_subset_and_says_how_many_seeds(tmp_path: Path) -> None:
    B = 64
    runs = [fake_run("on-policy", k, B, B, 100, saturating(0.4, 0.8, 30)) for k in range(2)]
    runs.append(fake_run("R=B/2 N=8R", 0, B // 2, B, 150, saturating(0.4, 0.8, 35)))
    for r in runs:
        p = tmp_path / "runs" / bench.slug(r["arm"]) / f"seed{r['seed']}.json"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(r))
    (tmp_path / "pilot.json").write_text(json.dumps(ana.make_pilot(runs[:2], 10)))
    text = ana.report(tmp_path, ["on-policy", "R=B/2 N=8R", "R=B/4 N=8R"], {}, "test")
    assert (
        "on-policy 2, R=B/2 N=8R 1" in text
        and "R=B/4" not in text.split("## Checks")[0].split("Seeds per")[1]
    )
    assert (tmp_path / "accuracy_core.png").stat().st_size > 1000 and (tmp_path / "results.md").is_file()
    assert "rollouts ratio per seed" in text and "| 0: 0." in text  # the paired ratio of seed 0, listed


def test_arms_follow_the_protocol_and_runs_are_skipped_when_present(tmp_path: Path) -> None:
    s = bench.FULL
    arms = {a.name: a for a in bench.make_arms(s)}
    base = arms[bench.BASELINE]
    assert base.prompts * s.group_size == s.batch == base.capacity  # R = B = N
    for y in (2, 4):
        a = arms[f"R=B/{y} N=8R"]
        R = a.prompts * s.group_size
        assert R * y == s.batch and a.capacity == max(8 * R, s.batch)
    cd = [a for a in arms.values() if a.group == "countdown" and "hindsight" in a.name]
    assert cd and "learner.loss=asymre" in cd[0].overrides  # hindsight needs a ratio-free loss
    assert len({bench.slug(n) for n in arms}) == len(arms)
    job = bench._job(base, s, 0, 10, tmp_path, tmp_path / "work", "model")
    Path(job["path"]).parent.mkdir(parents=True)
    Path(job["path"]).write_text("{}")
    bench.run_jobs([job], 1)  # present: not rerun (it would fail on the bogus model)


@pytest.mark.slow
def test_quick_end_to_end(tmp_path: Path) -> None:
    if not (ROOT / bench.MODEL / "config.json").is_file():
        pytest.skip("no tiny model built")
    cmd = [sys.executable, str(ROOT / "benchmarks/replay_efficiency.py"), "--quick", "--work", str(tmp_path)]
    subprocess.run(cmd, check=True, timeout=600, cwd=ROOT)
    results = tmp_path / "quick" / "results"
    assert (results / "pilot.json").is_file() and (results / "results.md").is_file()
    assert len(list(results.glob("runs/*/seed*.json"))) == 2 + 2 * 2  # pilot + (2 replay arms x 2 seeds)
