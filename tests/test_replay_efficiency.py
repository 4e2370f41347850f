"""The analysis side of benchmarks/replay_efficiency.py on synthetic runs: thresholds, crossings, median/IQR."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "replay_efficiency", ROOT / "benchmarks" / "replay_efficiency.py"
)
assert _spec is not None and _spec.loader is not None
re_bench = importlib.util.module_from_spec(_spec)
sys.modules["replay_efficiency"] = re_bench
_spec.loader.exec_module(re_bench)


def fake_run(
    arm: str,
    seed: int,
    R: int,
    B: int,
    accs: list[float],
    *,
    eval_every: int = 2,
    gen_s: float = 10.0,
    train_s: float = 10.0,
    group: str = "core",
    tokens_per_rollout: int = 30,
) -> dict:
    """A run of len(accs) * eval_every steps: R rollouts generated and B samples trained every step."""
    steps = len(accs) * eval_every
    step = np.arange(1, steps + 1, dtype=float)
    acc = [math.nan] * steps
    for i, a in enumerate(accs):
        acc[(i + 1) * eval_every - 1] = a
    curves = {
        "step": step.tolist(),
        "eval/pass@1": acc,
        "compute/trained_samples": (B * step).tolist(),
        "compute/unique_rollouts": (R * step).tolist(),
        "compute/generated_tokens": (R * tokens_per_rollout * step).tolist(),
        "train/entropy": np.linspace(1.0, 0.5, steps).tolist(),
        "fresh_nll": np.linspace(1.0, 0.4, steps).tolist(),
    }
    return {
        "kind": "run",
        "arm": arm,
        "group": group,
        "seed": seed,
        "R": R,
        "N": R,
        "B": B,
        "wall_s": 1.0,
        "gen_s": gen_s,
        "train_s": train_s,
        "curves": curves,
        "use_hist": {"1": R * steps},
        "age_hist": {"0": B * steps},
        "buffer": {"replay_ratio": B / R},
    }


def test_median_iqr_plain_and_with_not_reached():
    assert re_bench.median_iqr([1, 2, 3, 4, 5]) == (3.0, 2.0, 4.0)
    med, lo, hi = re_bench.median_iqr([1.0, 2.0, 3.0, math.inf])
    assert (med, lo) == (2.5, 1.75) and hi == math.inf
    med, lo, hi = re_bench.median_iqr([1.0, math.inf, math.inf, math.inf])
    assert med == math.inf and lo == math.inf  # 25th percentile interpolates between 1 and inf
    assert math.isnan(re_bench.median_iqr([])[0])


def test_first_crossing_skips_nan_and_reports_inf():
    x = [10, 20, 30, 40]
    assert re_bench.first_crossing(x, [0.1, math.nan, 0.5, 0.9], 0.5) == 30
    assert re_bench.first_crossing(x, [0.1, 0.2, 0.3, 0.4], 0.5) == math.inf
    assert re_bench.first_crossing(x, [0.6, 0.2, 0.3, 0.4], 0.5) == 10


def test_analyze_thresholds_and_compute_axis():
    B = 32
    base_accs = [[0.1, 0.3, 0.5, 0.6], [0.1, 0.4, 0.5, 0.5], [0.2, 0.3, 0.6, 0.5], [0.1, 0.3, 0.5, 0.55]]
    runs = [
        fake_run(re_bench.BASELINE, s, B, B, a, gen_s=20.0, train_s=10.0) for s, a in enumerate(base_accs)
    ]
    # replay arm: R = B/4, same per-step accuracy path shifted one eval later, then higher
    rep_accs = [[0.1, 0.2, 0.4, 0.6], [0.1, 0.3, 0.6, 0.6], [0.1, 0.2, 0.6, 0.6], [0.0, 0.1, 0.2, 0.3]]
    runs += [fake_run("replay", s, B // 4, B, a) for s, a in enumerate(rep_accs)]
    arms = [re_bench.Arm(re_bench.BASELINE, 4, B, "core"), re_bench.Arm("replay", 1, 64, "core")]
    stats = re_bench.analyze(runs, arms)
    # mu = (20 s / rollouts) / (10 s / samples) with rollouts == samples on-policy -> 2
    assert stats["mu"][re_bench.BASELINE] == pytest.approx(2.0)
    # median baseline curve = [0.1, 0.3, 0.5, 0.525] -> peak 0.525, threshold 0.5145
    assert stats["baseline_peak"][re_bench.BASELINE] == pytest.approx(0.525)
    assert stats["threshold"][re_bench.BASELINE] == pytest.approx(0.98 * 0.525)
    base = stats["arms"][re_bench.BASELINE]
    # per-seed crossing steps: 8, inf, 6, 8 (0.5 < 0.5145 never crosses for seed 1) -> compute per step B + 2B = 96
    med, lo, hi = base["cross"]["step"]
    assert med == 8.0 and lo == pytest.approx(7.5) and hi == math.inf
    assert base["cross"]["compute"][0] == pytest.approx(8 * 96)
    assert base["reached"] == 3
    # paired thresholds (98% of the same seed's baseline peak): every baseline seed reaches its own, at steps 8, 6, 6, 8
    assert base["paired_reached"] == 4 and base["paired_cross"]["step"][0] == pytest.approx(7.0)
    rep = stats["arms"]["replay"]
    assert (
        rep["paired_reached"] == 3 and rep["paired_cross"]["step"][2] == math.inf
    )  # seed 3 never reaches 0.539
    # replay crossing steps: 8, 6, 6, inf; compute per step 32 + 2 * 8 = 48
    assert rep["cross"]["step"][0] == pytest.approx(7.0)
    assert rep["cross"]["compute"][0] == pytest.approx(7 * 48)
    assert rep["cross"]["rollouts"][0] == pytest.approx(7 * 8)
    assert rep["cross"]["tokens"][0] == pytest.approx(7 * 8 * 30)
    assert rep["peak"][0] == pytest.approx(0.6)
    assert rep["median_curve_cross"]["step"] == 8.0  # median curve [0.1, 0.2, 0.5, 0.6]: 0.5 < thr, so step 8
    table = re_bench.results_table(stats, [re_bench.BASELINE, "replay"])
    assert "| replay | 8 | 8 | 4 |" in table and "3/4" in table and "not reached" not in table


def test_analyze_not_reached_and_plots(tmp_path):
    B = 16
    runs = [fake_run(re_bench.BASELINE, s, B, B, [0.2, 0.8]) for s in range(2)]
    runs += [fake_run("flat", s, B // 2, B, [0.1, 0.2]) for s in range(2)]
    arms = [re_bench.Arm(re_bench.BASELINE, 2, B, "core"), re_bench.Arm("flat", 1, 32, "core")]
    stats = re_bench.analyze(runs, arms)
    flat = stats["arms"]["flat"]
    assert flat["reached"] == 0 and flat["cross"]["compute"][0] == math.inf
    assert "not reached" in re_bench.results_table(stats, ["flat"])
    files = re_bench.make_plots(stats, runs, arms, tmp_path)
    assert {"accuracy_core.png", "entropy.png", "histograms.png"} <= set(files)
    assert all((tmp_path / f).stat().st_size > 1000 for f in files)


def test_arms_follow_the_protocol():
    s = re_bench.FULL
    arms = {a.name: a for a in re_bench.make_arms(s)}
    base = arms[re_bench.BASELINE]
    assert base.prompts * s.group_size == s.batch == base.capacity  # R = B = N
    ys = sorted({s.batch // (a.prompts * s.group_size) for a in arms.values() if a.group == "core"})
    assert ys == [1, 2, 4]
    for a in arms.values():
        batch = s.cd_batch if a.group == "countdown" else s.batch
        assert a.capacity >= batch and a.capacity >= a.prompts * s.group_size
    assert any("hindsight" in o for a in arms.values() for o in a.overrides)


@pytest.mark.slow
def test_quick_end_to_end(tmp_path):
    model = next((c for c in re_bench.MODEL_CANDIDATES if (ROOT / c / "config.json").is_file()), None)
    if model is None:
        pytest.skip("no tiny model built")
    script = ROOT / "benchmarks" / "replay_efficiency.py"
    cmd = [sys.executable, str(script), "--quick", "--jobs", "2", "--out", str(tmp_path / "out")]
    subprocess.run([*cmd, "--work", str(tmp_path / "work")], check=True, timeout=300, cwd=ROOT)
    text = (tmp_path / "out" / "results.md").read_text()
    assert re_bench.BASELINE in text and (tmp_path / "out" / "runs.csv").is_file()
