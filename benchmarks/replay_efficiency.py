"""Replay efficiency at tiny scale: does a FIFO replay buffer reach the on-policy accuracy with less compute?

Reproduces the *direction* of "Efficient RL Training for LLMs with Experience Replay" (arXiv 2604.08706,
/work/shared/PAPER.md section 6) with a ~1M-parameter model on CPU:

- core arms (rlvr/Arithmetic-v0, difficulty 0, plain-v0 template; B = 128): the on-policy baseline R = B, N = R, and
  replay with R = B/2 and R = B/4 (y = B/R = 2, 4), each with a small and a large buffer N;
- extra arms on top of one replay arm: positive-bias writer, AsymRE loss, prioritized sampler;
- a hindsight arm on rlvr/Countdown-v0 (goal-conditioned), with its own Countdown model (SFT here) and its own
  on-policy and plain-replay baselines (B = 32).

Compute is charged as in the paper, B + mu R per step, with one mu per model measured on the on-policy
baseline (generation seconds per rollout / training seconds per trained sample); generated tokens and rollouts
are counted as well. Every run logs held-out accuracy (pass@1 at T = 1, 4 samples per problem) every
`eval_every` steps.

    .venv/bin/python benchmarks/replay_efficiency.py --jobs 2            # the full experiment (~65 min on 2 busy cores)
    .venv/bin/python benchmarks/replay_efficiency.py --quick --jobs 2    # smoke test (< 2 min)
    .venv/bin/python benchmarks/replay_efficiency.py --analyze-only      # redo tables/plots from saved runs

Per-run outputs (metrics.csv, summary json) go to --work (default runs/replay_efficiency, not committed); the
report (PNGs, results.md, runs.csv, runs.json) goes to --out (default benchmarks/results/replay_efficiency).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks/results/replay_efficiency"
ARITH_ENV = "rlvr/Arithmetic-v0"
ARITH_KWARGS = {"difficulty": 0, "template": "plain-v0"}
COUNTDOWN_ENV = "rlvr/Countdown-v0"
COUNTDOWN_KWARGS = {
    "task": "countdown_short",
    "num_numbers": 3,
    "max_number": 9,
    "max_target": 100,
    "template": "plain-v0",
}
MODEL_CANDIDATES = ("rlvr/data/models/tiny-arithmetic",)
BASELINE = "on-policy"
CD_BASELINE = "cd on-policy"


# ----------------------------------------------------------------------------------------------- tasks


def _register_short_countdown() -> None:
    """Countdown with a terse prompt ('Make 14 from 9 3 8.'), registered as task 'countdown_short'.

    The library's Countdown prompt is ~150 bytes of instructions; a byte-level 1M-parameter model spends most of
    a short SFT learning to attend past it and never learns to copy the numbers. Same generator, verifier,
    achieved_goal and relabel (hindsight) as rlvr's CountdownTask; only the prompt text differs.
    """
    from rlvr.core.types import Example
    from rlvr.tasks import TASKS
    from rlvr.tasks.base import example_key
    from rlvr.tasks.countdown import CountdownTask
    from rlvr.verifiers.countdown import CountdownProblem

    class ShortCountdownTask(CountdownTask):
        name = "countdown_short"

        def _example_for(self, numbers: Sequence[int], target: int, metadata: dict[str, Any]) -> Example:
            problem = CountdownProblem(tuple(numbers), target)
            prompt = f"Make {target} from {' '.join(str(n) for n in numbers)}."
            return Example(
                key=example_key(self.name, prompt, {"numbers": list(numbers), "target": target}),
                prompt=prompt,
                reference=problem,
                task=self.name,
                metadata={"numbers": list(numbers), "target": target, **metadata},
                goal=target,
            )

    if "countdown_short" not in TASKS:
        TASKS.register("countdown_short", ShortCountdownTask)


_register_short_countdown()


# ----------------------------------------------------------------------------------------------- arms


@dataclass(frozen=True)
class Arm:
    """One configuration: R = prompts x G rollouts per step, buffer capacity N, extra config overrides."""

    name: str
    prompts: int
    capacity: int
    group: str  # 'core', 'extra' or 'countdown'
    overrides: tuple[str, ...] = ()
    base: str = BASELINE  # the arm it is compared against in the text
    note: str = ""


@dataclass(frozen=True)
class Setup:
    """Sizes shared by all arms of one mode."""

    steps: int
    cd_steps: int
    group_size: int = 8
    batch_prompts: int = 16  # B = batch_prompts x G (arithmetic)
    cd_batch_prompts: int = 4  # B of the Countdown arms (smaller: that model is slow to learn anyway)
    max_new_tokens: int = 40  # 'The final answer is $\\boxed{-16}$.' + EOS is 35 byte tokens
    cd_max_new_tokens: int = 32
    eval_every: int = 10
    eval_examples: int = 64
    eval_samples: int = 4
    lr: float = 1e-4
    cd_sft_steps: int = 600
    seeds: int = 4
    extra_seeds: int = 2
    cd_seeds: int = 2

    @property
    def batch(self) -> int:
        return self.batch_prompts * self.group_size

    @property
    def cd_batch(self) -> int:
        return self.cd_batch_prompts * self.group_size


FULL = Setup(steps=120, cd_steps=80)
QUICK = Setup(
    steps=4,
    cd_steps=3,
    eval_every=2,
    eval_examples=16,
    eval_samples=1,
    batch_prompts=4,
    cd_sft_steps=20,
    seeds=1,
    extra_seeds=1,
    cd_seeds=1,
)


def make_arms(s: Setup) -> list[Arm]:
    """The arms of the experiment; N = max(kR, B) since a batch of B is drawn from the buffer without repeats."""
    g, bp = s.group_size, s.batch_prompts
    B = s.batch
    arms = [Arm(BASELINE, bp, B, "core", note="R = B, N = R")]
    for y in (2, 4):
        p = bp // y
        R = p * g
        for k in (2, 8):
            n = max(k * R, B)
            note = f"R = B/{y}, N = {k}R" + ("" if n == k * R else f" -> {n} (= B, the smallest N >= B)")
            arms.append(Arm(f"R=B/{y} N={n}", p, n, "core", note=note))
    # extras on the y = 2, N = 8R replay arm
    p2 = bp // 2
    n2 = 8 * p2 * g
    base2 = f"R=B/2 N={n2}"
    arms += [
        Arm(
            "+positive-bias",
            p2,
            n2,
            "extra",
            ("buffer.writer=positive_bias", "buffer.positive_bias_delta=0.5"),
            base2,
            "R = B/2, N = 8R, positive-bias writer delta = 0.5",
        ),
        Arm(
            "+AsymRE",
            p2,
            n2,
            "extra",
            ("learner.loss=asymre", "learner.delta_v=-0.1"),
            base2,
            "R = B/2, N = 8R, AsymRE loss (delta_V = -0.1)",
        ),
        Arm(
            "+prioritized",
            p2,
            n2,
            "extra",
            ("buffer.sampler=prioritized",),
            base2,
            "R = B/2, N = 8R, prioritized sampler (|A|, alpha 0.6, beta 0.4)",
        ),
    ]
    # Countdown (goal-conditioned, its own smaller B): on-policy, plain replay, replay + hindsight
    cbp, cp2 = s.cd_batch_prompts, s.cd_batch_prompts // 2
    cn2 = 8 * cp2 * g
    arms += [
        Arm(CD_BASELINE, cbp, s.cd_batch, "countdown", base=CD_BASELINE, note="Countdown, R = B, N = R"),
        Arm(f"cd R=B/2 N={cn2}", cp2, cn2, "countdown", base=CD_BASELINE, note="Countdown, R = B/2, N = 8R"),
        Arm(
            "cd +hindsight",
            cp2,
            cn2,
            "countdown",
            ("buffer.hindsight.strategy=final",),
            CD_BASELINE,
            "Countdown, R = B/2, N = 8R, hindsight relabeling ('final')",
        ),
    ]
    return arms


def seeds_for(arm: Arm, s: Setup) -> int:
    return {"core": s.seeds, "extra": s.extra_seeds, "countdown": s.cd_seeds}[arm.group]


# ----------------------------------------------------------------------------------------------- running


def find_model() -> str:
    for cand in MODEL_CANDIDATES:
        p = Path(cand) if cand.startswith("/") else ROOT / cand
        if (p / "config.json").is_file():
            return str(p)
    raise SystemExit(
        f"no tiny arithmetic model found in {MODEL_CANDIDATES}; run scripts/make_tiny_model.py first"
    )


def make_countdown_model(out: str, steps: int, seed: int = 0) -> dict[str, Any]:
    """SFT a tiny model from scratch on easy Countdown gold answers ('<answer>3 * 4</answer>'), then save it.

    Same architecture as scripts/make_tiny_model.py. Short enough that it writes valid expressions but often
    misses the target: exactly the case hindsight relabeling is for.
    """
    import torch

    from rlvr.core.seeding import seed_everything
    from rlvr.policy import tiny_model
    from rlvr.train.sft import SFTConfig, save_model, sft, sft_pairs

    torch.set_num_threads(1)
    if (Path(out) / "config.json").is_file():
        return json.loads((Path(out) / "sft.json").read_text())
    t0 = time.perf_counter()
    seed_everything(seed)
    model, tok = tiny_model(
        seed=seed,
        hidden_size=128,
        intermediate_size=384,
        num_hidden_layers=4,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=512,
    )
    pairs = sft_pairs(COUNTDOWN_ENV, {**COUNTDOWN_KWARGS, "size": 20_000, "seed": 0}, tok)
    losses: list[float] = []
    for done in range(0, steps, 200):  # chunks of 200 steps, each its own warmup + cosine schedule
        n = min(200, steps - done)
        cfg = SFTConfig(steps=n, lr=3e-3, seed=seed + done, warmup_steps=min(40, n // 5))
        losses += sft(model, tok, pairs, cfg, progress=False)
    acc = countdown_accuracy(model, tok)
    save_model(model, tok, Path(out))
    info = {
        "steps": steps,
        "final_loss": float(np.mean(losses[-20:])),
        **acc,
        "seconds": time.perf_counter() - t0,
    }
    (Path(out) / "sft.json").write_text(json.dumps(info))
    return info


def countdown_accuracy(model: Any, tok: Any, n: int = 64, max_new_tokens: int = 40) -> dict[str, float]:
    """pass@1 of a Countdown model on `n` held-out instances at T=1 and greedy."""
    from rlvr.envs import make_env
    from rlvr.eval import evaluate_backend
    from rlvr.policy import SamplingParams, make_backend

    env = make_env(COUNTDOWN_ENV, **COUNTDOWN_KWARGS, seed=1)
    held = [env.task[i] for i in range(n)]
    acc = {}
    for t in (1.0, 0.0):
        backend = make_backend("hf", model, tok, seed=0)
        sampling = SamplingParams(temperature=t, max_new_tokens=max_new_tokens, seed=0)
        acc[f"acc_t{t:g}"] = float(
            evaluate_backend(backend, env, held, samples=1, sampling=sampling).summary["pass@1"]
        )
    env.close()
    return acc


def run_overrides(arm: Arm, s: Setup, seed: int, model: str, out_dir: str, lr: float) -> list[str]:
    cd = arm.group == "countdown"
    env_kwargs = COUNTDOWN_KWARGS if cd else ARITH_KWARGS
    return [
        f"model.name={model}",
        f"env.id={COUNTDOWN_ENV if cd else ARITH_ENV}",
        f"env.kwargs={json.dumps(env_kwargs)}",
        f"rollout.prompts_per_step={arm.prompts}",
        f"rollout.group_size={s.group_size}",
        "rollout.temperature=1.0",
        f"rollout.max_new_tokens={s.cd_max_new_tokens if cd else s.max_new_tokens}",
        f"buffer.capacity={arm.capacity}",
        f"train.batch_size={s.cd_batch if cd else s.batch}",
        f"train.steps={s.cd_steps if cd else s.steps}",
        f"train.seed={seed}",
        f"train.output_dir={out_dir}",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
        "train.resume=false",
        f"learner.lr={lr}",
        f"eval.every={s.eval_every}",
        f"eval.num_examples={s.eval_examples}",
        f"eval.samples={s.eval_samples}",
        "eval.temperature=1.0",
        "learner.micro_batch_size=64",
        *arm.overrides,
    ]


def run_one(job: dict[str, Any]) -> dict[str, Any]:
    """One training run in this (worker) process; returns and saves its summary (curves, histograms)."""
    import torch

    torch.set_num_threads(1)
    if job["kind"] == "sft":
        return {"kind": "sft", **make_countdown_model(job["out"], job["steps"])}
    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config
    from rlvr.train.loop import Trainer

    arm, s = Arm(**job["arm"]), Setup(**job["setup"])
    out_dir = Path(job["out"])
    summary_path = out_dir / "summary.json"
    if summary_path.is_file():
        return json.loads(summary_path.read_text())
    config = load_config(
        RunConfig, None, run_overrides(arm, s, job["seed"], job["model"], str(out_dir), job["lr"])
    )
    t0 = time.perf_counter()
    trainer = Trainer(config)
    buf = trainer.buffer
    uses: Counter[int] = Counter()
    ages: list[int] = []
    fresh_nll: list[float] = []
    orig_sample, orig_extend = buf.sample, buf.extend

    def sample(*args: Any, **kwargs: Any) -> Any:
        batch = orig_sample(*args, **kwargs)
        uses.update(int(i) for i in np.asarray(batch.indices).tolist())
        ages.extend(int(a) for a in np.asarray(batch.ages).tolist())
        return batch

    def extend(rollouts: Sequence[Any], step: int) -> Any:
        lps = [r.behaviour_logprobs for r in rollouts if r.num_tokens]
        # mean -log pi(token) of fresh samples: a Monte-Carlo estimate of the policy's token entropy
        fresh_nll.append(float(-np.concatenate(lps).mean()) if lps else float("nan"))
        return orig_extend(rollouts, step)

    buf.sample, buf.extend = (
        sample,
        extend,
    )  # instance attributes shadow the methods; the library is unchanged
    try:
        rows = trainer.fit()
        bm = buf.metrics()
    finally:
        trainer.close()
    keys = [
        "step",
        "eval/pass@1",
        "train/entropy",
        "compute/mu",
        "compute/total_cost",
        "compute/generated_tokens",
        "compute/unique_rollouts",
        "compute/trained_samples",
        "rollout/accuracy",
        "rollout/reward_mean",
        "train/age_mean",
        "buffer/replay_ratio",
        "rollout/generate_s",
        "compute/train_s",
        "time/step_s",
        "rollout/length_mean",
        "train/relabeled_frac",
    ]
    curves = {k: [float(r.get(k, float("nan"))) for r in rows] for k in keys}
    curves["fresh_nll"] = fresh_nll
    inserted = int(bm.get("inserted", 0))
    use_hist = Counter(uses.values())
    use_hist[0] = max(0, inserted - len(uses))
    summary = {
        "kind": "run",
        "arm": arm.name,
        "group": arm.group,
        "seed": job["seed"],
        "lr": job["lr"],
        "R": arm.prompts * s.group_size,
        "N": arm.capacity,
        "B": s.cd_batch if arm.group == "countdown" else s.batch,
        "wall_s": time.perf_counter() - t0,
        "gen_s": float(np.nansum(curves["rollout/generate_s"])),
        "train_s": float(np.nansum(curves["compute/train_s"])),
        "curves": curves,
        "use_hist": {str(k): v for k, v in sorted(use_hist.items())},
        "age_hist": {str(k): v for k, v in sorted(Counter(ages).items())},
        "buffer": {k: bm[k] for k in ("inserted", "relabeled_inserted", "draws", "replay_ratio") if k in bm},
    }
    summary_path.write_text(json.dumps(summary))
    return summary


def run_all(args: argparse.Namespace, s: Setup, arms: list[Arm]) -> list[dict[str, Any]]:
    """Run every (arm, seed) with `args.jobs` worker processes; the Countdown SFT runs first among them."""
    import multiprocessing as mp

    from tqdm.auto import tqdm

    model = args.model or find_model()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    cd_model = str(work / ("countdown-model-quick" if args.quick else "countdown-model"))
    arith, cd = [], []
    for arm in arms:
        n = seeds_for(arm, s)
        for seed in range(n):
            job = {
                "kind": "run",
                "arm": asdict(arm),
                "setup": asdict(s),
                "seed": seed,
                "lr": args.lr or s.lr,
                "out": str(
                    work
                    / ("quick" if args.quick else "full")
                    / arm.name.replace(" ", "_").replace("/", "")
                    / f"seed{seed}"
                ),
                "model": model,
            }
            (cd if arm.group == "countdown" else arith).append(job)
    if args.no_countdown:
        cd = []
    cd = [dict(j, model=cd_model) for j in cd]
    pending: list[dict[str, Any]] = []
    waiting_cd: list[dict[str, Any]] = []
    if cd and not (Path(cd_model) / "config.json").is_file():
        pending.append({"kind": "sft", "out": cd_model, "steps": s.cd_sft_steps})
        waiting_cd, cd = cd, []  # queued when the SFT is done
    # core arms first; then extra and Countdown arms seed-major, so a cut-short experiment has balanced seeds
    order = {"core": 0, "extra": 1, "countdown": 1}
    pending += sorted(arith + cd, key=lambda j: (order[j["arm"]["group"]], j["seed"], j["arm"]["group"]))
    results: list[dict[str, Any]] = []
    total = len(pending) + len(waiting_cd)
    bar = tqdm(total=total, desc="replay-efficiency runs", unit="run", dynamic_ncols=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=mp.get_context("spawn")) as pool:
        running: dict[Future[Any], dict[str, Any]] = {}

        def submit() -> None:
            while pending and len(running) < args.jobs:
                job = pending.pop(0)
                running[pool.submit(run_one, job)] = job

        submit()
        while running:
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                job = running.pop(fut)
                res = fut.result()
                if res["kind"] == "sft":
                    tqdm.write(f"countdown SFT model: {json.dumps(res)}")
                    pending += waiting_cd  # Countdown runs last
                    waiting_cd = []
                    results.append(res)
                else:
                    results.append(res)
                    acc = np.nanmax(res["curves"]["eval/pass@1"])
                    tqdm.write(
                        f"{res['arm']:>18s} seed {res['seed']}: peak acc {acc:.3f}, {res['wall_s']:.0f}s"
                    )
                bar.update(1)
                bar.set_postfix(elapsed=f"{(time.perf_counter() - start) / 60:.1f}min")
            submit()
    bar.close()
    return results


# ----------------------------------------------------------------------------------------------- analysis


def median_iqr(values: Sequence[float]) -> tuple[float, float, float]:
    """(median, 25th, 75th percentile); inf values count as larger than everything (not-reached seeds)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return (math.nan, math.nan, math.nan)
    finite = np.isfinite(v)
    if finite.all():
        q = np.percentile(v, [50, 25, 75])
        return (float(q[0]), float(q[1]), float(q[2]))
    # rank-based with inf: use 'lower'/'higher' interpolation so an inf never mixes with a number
    s = np.sort(np.where(finite, v, np.inf))
    out = []
    for q in (50, 25, 75):
        pos = (len(s) - 1) * q / 100
        lo, hi = s[math.floor(pos)], s[math.ceil(pos)]
        out.append(float(lo + (hi - lo) * (pos - math.floor(pos))) if np.isfinite(hi) else math.inf)
    return (out[0], out[1], out[2])


def first_crossing(x: Sequence[float], y: Sequence[float], threshold: float) -> float:
    """The first x at which y >= threshold (NaN y skipped); inf if never."""
    for xi, yi in zip(x, y, strict=True):
        if np.isfinite(yi) and yi >= threshold - 1e-12:
            return float(xi)
    return math.inf


def eval_points(run: dict[str, Any], mu: float) -> dict[str, np.ndarray]:
    """The steps with a held-out evaluation, and the cumulative compute/tokens/rollouts there (x = 0 excluded)."""
    c = run["curves"]
    acc = np.asarray(c["eval/pass@1"], dtype=float)
    m = np.isfinite(acc)
    samples = np.asarray(c["compute/trained_samples"], dtype=float)
    rollouts = np.asarray(c["compute/unique_rollouts"], dtype=float)
    return {
        "step": np.asarray(c["step"], dtype=float)[m],
        "acc": acc[m],
        "compute": (samples + mu * rollouts)[m],
        "tokens": np.asarray(c["compute/generated_tokens"], dtype=float)[m],
        "rollouts": rollouts[m],
    }


def arm_median_curve(points: list[dict[str, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The median held-out accuracy over seeds at each eval step (runs of an arm share their eval steps)."""
    n = min(len(p["acc"]) for p in points)
    return points[0]["step"][:n], np.median(np.stack([p["acc"][:n] for p in points]), axis=0)


def measure_mu(runs: list[dict[str, Any]], arm: str) -> float:
    """Median over seeds of (generation s per rollout) / (training s per trained sample) of an arm's runs."""
    vals = []
    for r in runs:
        if r["arm"] != arm:
            continue
        c = r["curves"]
        rollouts, samples = c["compute/unique_rollouts"][-1], c["compute/trained_samples"][-1]
        if r["train_s"] > 0 and rollouts and samples:
            vals.append((r["gen_s"] / rollouts) / (r["train_s"] / samples))
    return float(np.median(vals)) if vals else 1.0


def analyze(runs: list[dict[str, Any]], arms: list[Arm]) -> dict[str, Any]:
    """Per-arm statistics: threshold crossings (compute, tokens, rollouts, steps), peak and final numbers."""
    by_arm: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_arm.setdefault(r["arm"], []).append(r)
    mus = {BASELINE: measure_mu(runs, BASELINE), CD_BASELINE: measure_mu(runs, CD_BASELINE)}
    thresholds: dict[str, float] = {}
    peaks: dict[str, float] = {}
    for base in (BASELINE, CD_BASELINE):
        if base in by_arm:
            pts = [eval_points(r, mus[base]) for r in by_arm[base]]
            _, med = arm_median_curve(pts)
            peaks[base] = float(np.max(med))
            thresholds[base] = 0.98 * peaks[base]
    stats: dict[str, Any] = {"mu": mus, "threshold": thresholds, "baseline_peak": peaks, "arms": {}}
    for arm in arms:
        rs = sorted(by_arm.get(arm.name, []), key=lambda r: r["seed"])
        if not rs:
            continue
        base = CD_BASELINE if arm.group == "countdown" else BASELINE
        mu, thr = mus[base], thresholds.get(base, math.nan)
        pts = [eval_points(r, mu) for r in rs]
        cross = {
            k: [first_crossing(p[k], p["acc"], thr) for p in pts]
            for k in ("compute", "tokens", "rollouts", "step")
        }
        # paired by seed: each seed's own threshold, 98% of its baseline run's peak (same held-out set per seed)
        base_peak = {r["seed"]: float(np.nanmax(r["curves"]["eval/pass@1"])) for r in by_arm.get(base, [])}
        paired = {
            k: [
                first_crossing(p[k], p["acc"], 0.98 * base_peak[r["seed"]])
                if r["seed"] in base_peak
                else math.nan
                for p, r in zip(pts, rs, strict=True)
            ]
            for k in ("compute", "tokens", "step")
        }
        paired = {k: [x for x in v if not math.isnan(x)] for k, v in paired.items()}
        steps, med = arm_median_curve(pts)
        i = next((j for j, a in enumerate(med) if a >= thr - 1e-12), None)
        ent = [float(np.nanmean(r["curves"]["train/entropy"][-10:])) for r in rs]
        nll = [float(np.nanmean(r["curves"]["fresh_nll"][-10:])) for r in rs]
        stats["arms"][arm.name] = {
            "group": arm.group,
            "note": arm.note,
            "R": rs[0]["R"],
            "N": rs[0]["N"],
            "B": int(
                np.max(np.diff([0.0, *rs[0]["curves"]["compute/trained_samples"]]))
            ),  # samples per update
            "seeds": len(rs),
            "steps": int(rs[0]["curves"]["step"][-1]),
            "mu_measured": measure_mu(rs, arm.name),
            "cross": {k: median_iqr(v) for k, v in cross.items()},
            "reached": int(sum(np.isfinite(v) for v in cross["compute"])),
            "paired_cross": {k: median_iqr(v) for k, v in paired.items()},
            "paired_reached": int(sum(np.isfinite(v) for v in paired["compute"])),
            "paired_n": len(paired["compute"]),
            "median_curve_cross": None
            if i is None
            else {
                "step": float(steps[i]),
                "compute": float(np.median([p["compute"][i] for p in pts])),
                "tokens": float(np.median([p["tokens"][i] for p in pts])),
            },
            "peak": median_iqr([float(np.max(p["acc"])) for p in pts]),
            "median_curve_peak": float(np.max(med)),
            "final_acc": median_iqr([float(p["acc"][-1]) for p in pts]),
            "final_entropy": median_iqr(ent),
            "final_fresh_nll": median_iqr(nll),
            "total_compute": median_iqr([float(p["compute"][-1]) for p in pts]),
            "total_tokens": median_iqr([float(p["tokens"][-1]) for p in pts]),
            "replay_ratio": median_iqr([float(r["buffer"].get("replay_ratio", math.nan)) for r in rs]),
            "wall_s": median_iqr([r["wall_s"] for r in rs]),
        }
    return stats


def _fmt(m: tuple[float, float, float], scale: float = 1.0, digits: int = 0) -> str:
    med, lo, hi = m
    if not math.isfinite(med):
        return "not reached"

    def f(v: float) -> str:
        return "inf" if not math.isfinite(v) else f"{v / scale:.{digits}f}"

    return f"{f(med)} [{f(lo)}, {f(hi)}]"


def _median_curve_cell(a: dict[str, Any]) -> str:
    m = a["median_curve_cross"]
    return "not reached" if m is None else f"{m['step']:.0f} ({m['compute'] / 1e3:.1f})"


def extra_names(stats: dict[str, Any], arms: list[Arm]) -> list[str]:
    """The extra arms preceded by the baseline and the replay arm they modify."""
    extras = [a for a in arms if a.group == "extra"]
    names = [BASELINE, *dict.fromkeys(a.base for a in extras), *(a.name for a in extras)]
    return [n for n in names if n in stats["arms"]]


def results_table(stats: dict[str, Any], names: Sequence[str]) -> str:
    head = (
        "| arm | R | N | B/R | seeds | steps | compute to thr. (k) | gen. tokens to thr. (k) | rollouts to thr. "
        "| reached | compute to paired thr. (k) | paired reached | peak acc | final acc | final entropy |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for name in names:
        a = stats["arms"][name]
        lines.append(
            f"| {name} | {a['R']} | {a['N']} | {a['B'] / a['R']:g} | {a['seeds']} | {a['steps']} | "
            f"{_fmt(a['cross']['compute'], 1e3, 1)} | {_fmt(a['cross']['tokens'], 1e3, 1)} | "
            f"{_fmt(a['cross']['rollouts'])} | {a['reached']}/{a['seeds']} | "
            f"{_fmt(a['paired_cross']['compute'], 1e3, 1)} | {a['paired_reached']}/{a['paired_n']} | "
            f"{_fmt(a['peak'], 1, 3)} | "
            f"{_fmt(a['final_acc'], 1, 3)} | {_fmt(a['final_entropy'], 1, 3)} |"
        )
    return head + "\n".join(lines) + "\n"


def write_report(
    stats: dict[str, Any], runs: list[dict[str, Any]], arms: list[Arm], out: Path, meta: dict[str, Any]
) -> None:
    """results.md, runs.csv and runs.json in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "runs.json").write_text(json.dumps({"meta": meta, "stats": stats, "runs": runs}, default=float))
    with open(out / "runs.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "arm",
                "seed",
                "step",
                "eval_acc",
                "compute",
                "generated_tokens",
                "unique_rollouts",
                "trained_samples",
                "train_entropy",
                "fresh_nll",
                "rollout_acc",
                "replay_ratio",
                "age_mean",
            ]
        )
        for r in runs:
            base = CD_BASELINE if r["group"] == "countdown" else BASELINE
            mu = stats["mu"][base]
            c = r["curves"]
            for i, step in enumerate(c["step"]):
                w.writerow(
                    [
                        r["arm"],
                        r["seed"],
                        int(step),
                        c["eval/pass@1"][i],
                        c["compute/trained_samples"][i] + mu * c["compute/unique_rollouts"][i],
                        c["compute/generated_tokens"][i],
                        c["compute/unique_rollouts"][i],
                        c["compute/trained_samples"][i],
                        c["train/entropy"][i],
                        c["fresh_nll"][i] if i < len(c["fresh_nll"]) else "",
                        c["rollout/accuracy"][i],
                        c["buffer/replay_ratio"][i],
                        c["train/age_mean"][i],
                    ]
                )
    thr = stats["threshold"]
    lines = [
        "# Replay efficiency at tiny scale: results",
        "",
        f"Generated by `{meta['command']}` on {meta['date']} in {meta['wall_min']:.1f} min wall "
        f"({meta['jobs']} parallel runs, 1 torch thread each). Setup and discussion: docs/replay_efficiency.md.",
        "",
        f"- mu (gen. s per rollout / train s per sample, median over the on-policy seeds): arithmetic "
        f"{stats['mu'].get(BASELINE, math.nan):.3f}, Countdown {stats['mu'].get(CD_BASELINE, math.nan):.3f}; "
        "compute = trained samples + mu x generated rollouts (the paper's B + mu R per step, summed).",
        f"- Threshold: 98% of the on-policy baseline's peak median held-out accuracy: arithmetic "
        f"{thr.get(BASELINE, math.nan):.3f} (peak {stats['baseline_peak'].get(BASELINE, math.nan):.3f}), Countdown "
        f"{thr.get(CD_BASELINE, math.nan):.3f} (peak {stats['baseline_peak'].get(CD_BASELINE, math.nan):.3f}).",
        "- Cells are median [25th, 75th percentile] over seeds; a seed that never reaches the threshold counts as "
        "infinite ('not reached' when the median is). 'Paired thr.': each seed's own threshold, 98% of the peak of "
        "the baseline run with the same seed (the held-out set is seeded by the training seed, so seeds differ in "
        "difficulty; pairing removes that). Held-out accuracy: pass@1 at T = 1 (mean over samples). Entropy: the learner's "
        "mean token entropy on its training batch, averaged over the last 10 steps.",
        "",
        "## Core arms (arithmetic)",
        "",
        results_table(stats, [n for n, a in stats["arms"].items() if a["group"] == "core"]),
        "## Extra arms (on R = B/2, N = 8R)",
        "",
        results_table(stats, extra_names(stats, arms)),
        "## Countdown (hindsight)",
        "",
        results_table(stats, [n for n, a in stats["arms"].items() if a["group"] == "countdown"]),
        "## Arm definitions and measured numbers",
        "",
        "| arm | definition | mu measured in this arm | total compute (k) | total gen. tokens (k) | replay ratio "
        "(draws / generated) | final fresh-sample NLL | wall s per run | median curve reaches thr. at step "
        "(compute k) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, a in stats["arms"].items():
        lines.append(
            f"| {name} | {a['note']} | {a['mu_measured']:.3f} | {_fmt(a['total_compute'], 1e3, 1)} | "
            f"{_fmt(a['total_tokens'], 1e3, 1)} | {_fmt(a['replay_ratio'], 1, 2)} | {_fmt(a['final_fresh_nll'], 1, 3)}"
            f" | {_fmt(a['wall_s'])} | {_median_curve_cell(a)} |"
        )
    lines += ["", "## Plots", ""]
    for png in meta["plots"]:
        lines.append(f"![{png}]({png})")
    (out / "results.md").write_text("\n".join(lines) + "\n")


def _band(ax: Any, runs_pts: list[dict[str, np.ndarray]], xkey: str, label: str, color: Any) -> None:
    """Median line and IQR band over seeds, on a common x grid (linear interpolation inside each run's range)."""
    xmax = min(p[xkey][-1] for p in runs_pts)
    xmin = max(p[xkey][0] for p in runs_pts)
    grid = np.linspace(xmin, xmax, 60)
    ys = np.stack([np.interp(grid, p[xkey], p["acc"]) for p in runs_pts])
    q = np.percentile(ys, [25, 50, 75], axis=0)
    ax.plot(grid, q[1], label=label, color=color)
    ax.fill_between(grid, q[0], q[2], color=color, alpha=0.15)


def make_plots(stats: dict[str, Any], runs: list[dict[str, Any]], arms: list[Arm], out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    by_arm: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_arm.setdefault(r["arm"], []).append(r)
    colors = dict(zip([a.name for a in arms], plt.cm.tab10.colors * 2, strict=False))
    files = []
    panels = [
        ("core", "core arms (arithmetic)"),
        ("extra", "extra arms"),
        ("countdown", "Countdown (hindsight)"),
    ]
    for group, title in panels:
        names = [a.name for a in arms if a.group == group and a.name in by_arm]
        if group == "extra" and names:
            bases = [a.base for a in arms if a.group == "extra"]
            names = [n for n in [BASELINE, *dict.fromkeys(bases)] if n in by_arm] + names
        if not names:
            continue
        base = CD_BASELINE if group == "countdown" else BASELINE
        mu = stats["mu"][base]
        fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
        for name in names:
            pts = [eval_points(r, mu) for r in by_arm[name]]
            for ax, xkey in zip(axes, ("compute", "tokens", "step"), strict=True):
                _band(ax, pts, xkey, f"{name} ({len(pts)} seeds)", colors[name])
        for ax, xl in zip(
            axes,
            (
                f"cumulative compute (B + mu R, mu = {mu:.2f}; trained-sample units)",
                "generated tokens",
                "optimizer steps",
            ),
            strict=True,
        ):
            ax.set_xlabel(xl)
            ax.set_ylabel("held-out pass@1 (T = 1)")
            if base in stats["threshold"]:
                ax.axhline(
                    stats["threshold"][base], color="gray", ls="--", lw=0.8, label="98% of baseline peak"
                )
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=7, loc="lower right")
        fig.suptitle(f"{title}: median and IQR over seeds")
        fig.tight_layout()
        name = f"accuracy_{group}.png"
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        files.append(name)
    # entropy curves
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    for arm in arms:
        if arm.name not in by_arm or arm.group == "countdown":
            continue
        for ax, key in zip(axes, ("train/entropy", "fresh_nll"), strict=True):
            ys = [np.asarray(r["curves"][key], dtype=float) for r in by_arm[arm.name]]
            n = min(len(y) for y in ys)
            q = np.nanpercentile(np.stack([y[:n] for y in ys]), [25, 50, 75], axis=0)
            x = np.arange(1, n + 1)
            ls = "-" if arm.group == "core" else ":"
            ax.plot(x, q[1], ls=ls, color=colors[arm.name], label=arm.name)
            ax.fill_between(x, q[0], q[2], color=colors[arm.name], alpha=0.1)
    axes[0].set_title("learner token entropy on its training batch")
    axes[1].set_title("-log pi of fresh samples (entropy estimate of the generating policy)")
    for ax in axes:
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "entropy.png", dpi=110)
    plt.close(fig)
    files.append("entropy.png")
    # replay-ratio (uses per rollout) and staleness histograms, pooled over seeds
    shown = [a for a in arms if a.name in by_arm]
    fig, axes = plt.subplots(2, 1, figsize=(14, 8))
    width = 0.8 / max(1, len(shown))
    for j, arm in enumerate(shown):
        for ax, key in zip(axes, ("use_hist", "age_hist"), strict=True):
            tot: Counter[int] = Counter()
            for r in by_arm[arm.name]:
                tot.update({int(k): v for k, v in r[key].items()})
            if not tot:
                continue
            ks = np.arange(0, min(max(tot) + 1, 25))
            frac = np.array([tot.get(int(k), 0) for k in ks], dtype=float) / sum(tot.values())
            ax.bar(
                ks + (j - len(shown) / 2) * width, frac, width=width, color=colors[arm.name], label=arm.name
            )
    axes[0].set_title("uses per stored rollout (0 = evicted unused), pooled over seeds")
    axes[0].set_xlabel("times drawn for training")
    axes[1].set_title("staleness of trained samples (policy versions since generation), pooled over seeds")
    axes[1].set_xlabel("age (optimizer steps)")
    for ax in axes:
        ax.set_ylabel("fraction")
        ax.legend(fontsize=7, ncol=3)
        ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(out / "histograms.png", dpi=110)
    plt.close(fig)
    files.append("histograms.png")
    return files


# ----------------------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--quick", action="store_true", help="tiny smoke version (< 2 min)")
    p.add_argument("--jobs", type=int, default=2, help="training runs in parallel (separate processes)")
    p.add_argument("--seeds", type=int, default=None, help="seeds of the core arms (default 4; quick 1)")
    p.add_argument(
        "--extra-seeds", type=int, default=None, help="seeds of the extra arms (default 2; quick 1)"
    )
    p.add_argument(
        "--cd-seeds", type=int, default=None, help="seeds of the Countdown arms (default 2; quick 1)"
    )
    p.add_argument("--steps", type=int, default=None, help="arithmetic training steps per run (default 150)")
    p.add_argument("--lr", type=float, default=None, help="learning rate of all arms (default 3e-4)")
    p.add_argument("--model", default=None, help="arithmetic model dir (default: the committed tiny model)")
    p.add_argument(
        "--out",
        default=None,
        help="report dir (default benchmarks/results/replay_efficiency; with --quick: <work>/quick-report)",
    )
    p.add_argument(
        "--work", default=str(ROOT / "runs/replay_efficiency"), help="per-run outputs (not committed)"
    )
    p.add_argument(
        "--arms", default="all", help="'all', 'core' or a comma list of groups (core,extra,countdown)"
    )
    p.add_argument("--no-countdown", action="store_true", help="skip the Countdown/hindsight arms")
    p.add_argument(
        "--analyze-only", action="store_true", help="only rebuild the report from --work summaries"
    )
    args = p.parse_args(argv)
    s = QUICK if args.quick else FULL
    if args.steps:
        s = Setup(**{**asdict(s), "steps": args.steps})
    for flag, key in (("seeds", "seeds"), ("extra_seeds", "extra_seeds"), ("cd_seeds", "cd_seeds")):
        if getattr(args, flag):
            s = Setup(**{**asdict(s), key: getattr(args, flag)})
    arms = make_arms(s)
    if args.arms != "all":
        groups = set(args.arms.split(","))
        arms = [a for a in arms if a.group in groups]
    if args.no_countdown:
        arms = [a for a in arms if a.group != "countdown"]
    start = time.perf_counter()
    if args.analyze_only:
        mode = "quick" if args.quick else "full"
        runs = [json.loads(f.read_text()) for f in sorted(Path(args.work, mode).glob("*/seed*/summary.json"))]
        names = {a.name for a in arms}
        runs = [r for r in runs if r["arm"] in names]
    else:
        results = run_all(args, s, arms)
        runs = [r for r in results if r["kind"] == "run"]
    runs.sort(key=lambda r: ([a.name for a in arms].index(r["arm"]), r["seed"]))
    out = Path(args.out or (Path(args.work) / "quick-report" if args.quick else RESULTS))
    stats = analyze(runs, arms)
    plots = make_plots(stats, runs, arms, out)
    sft_info = Path(args.work) / ("countdown-model-quick" if args.quick else "countdown-model") / "sft.json"
    meta = {
        "command": "python "
        + " ".join([os.path.relpath(__file__, ROOT), *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "wall_min": (time.perf_counter() - start) / 60,
        "jobs": args.jobs,
        "setup": asdict(s),
        "lr": args.lr or s.lr,
        "countdown_sft": json.loads(sft_info.read_text()) if sft_info.is_file() else None,
        "plots": plots,
    }
    previous = out / "runs.json"
    if args.analyze_only and previous.is_file():  # keep how and when the runs themselves were made
        old = json.loads(previous.read_text()).get("meta", {})
        meta.update({k: old[k] for k in ("command", "date", "wall_min", "jobs") if k in old})
        meta["reanalyzed"] = time.strftime("%Y-%m-%d %H:%M")
    write_report(stats, runs, arms, out, meta)
    print((out / "results.md").read_text())


if __name__ == "__main__":
    main()
