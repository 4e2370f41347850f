"""Replay efficiency at tiny scale, resumable: does a FIFO replay buffer reach the on-policy accuracy with less compute?

The replay paper's protocol (arXiv 2604.08706, /work/shared/PAPER.md section 6) with a ~1M-parameter model on CPU,
built so that its answer can stand (issue 17):

- accuracy = the exact expected probability of the gold completion over the whole task distribution (the 81
  facts of rlvr/Arithmetic-v0 difficulty 0, teacher-forced at T = 1: `eval.gold_prob`), so evaluation adds no
  sampling noise; sampled pass@1 (T = 1, 4 samples per fact) is logged every `sample_every` steps as a check;
- a pilot (on-policy, 4 seeds, `pilot_steps`) fixes the step budget (the plateau) and an absolute threshold
  halfway between the start and the plateau, and measures mu;
- core arms: on-policy (R = B, N = R), R = B/2 and R = B/4 with N = 8R, 8 paired seeds (seed k = the same
  training data order and the same evaluation set in every arm), each given the same compute budget at the
  measured mu (the replay arms run more steps);
- extra arms: positive-bias, AsymRE, prioritized on R = B/2 (4 seeds), and Countdown hindsight with AsymRE (8 seeds).

Every (arm, seed) is one JSON file under benchmarks/results/replay_efficiency/runs/, skipped when present, so the
experiment runs in pieces across sessions; the analysis (benchmarks/replay_analysis.py) works on whatever subset
exists and says how many seeds each arm has.

    .venv/bin/python benchmarks/replay_efficiency.py --phase core --jobs 1    # pilot, then the core arms
    .venv/bin/python benchmarks/replay_efficiency.py --phase extra --jobs 1   # the extra and Countdown arms
    .venv/bin/python benchmarks/replay_efficiency.py --analyze-only           # report from the saved runs
    .venv/bin/python benchmarks/replay_efficiency.py --quick                  # smoke test (~1 min, tmp dirs)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import replay_analysis as analysis  # noqa: E402  (a sibling module, not a package)

RESULTS = ROOT / "benchmarks/results/replay_efficiency"
ARITH_ENV = "rlvr/Arithmetic-v0"
ARITH_KWARGS = {"difficulty": 0, "template": "plain-v0"}
COUNTDOWN_ENV = "rlvr/Countdown-v0"
COUNTDOWN_KWARGS = {"task": "countdown_short", "num_numbers": 3, "max_number": 9, "max_target": 100}
COUNTDOWN_KWARGS["template"] = "plain-v0"
MODEL = "rlvr/data/models/tiny-arithmetic"
BASELINE = analysis.BASELINE
CD_BASELINE = analysis.CD_BASELINE


def _register_short_countdown() -> None:
    """rlvr's CountdownTask with a terse prompt ('Make 14 from 9 3 8.'), registered as task 'countdown_short'.

    A byte-level 1M-parameter model SFT'd on the library's ~150-byte Countdown prompt never learned to copy
    the numbers; same generator, verifier, achieved_goal and relabel otherwise.
    """
    from rlvr.core.types import Example
    from rlvr.tasks import TASKS
    from rlvr.tasks.base import example_key
    from rlvr.tasks.countdown import CountdownTask
    from rlvr.verifiers.countdown import CountdownProblem

    class ShortCountdownTask(CountdownTask):
        name = "countdown_short"

        def _example_for(self, numbers: Sequence[int], target: int, metadata: dict[str, Any]) -> Example:
            prompt = f"Make {target} from {' '.join(str(n) for n in numbers)}."
            meta = {"numbers": list(numbers), "target": target}
            return Example(
                key=example_key(self.name, prompt, meta),
                prompt=prompt,
                reference=CountdownProblem(tuple(numbers), target),
                task=self.name,
                metadata={**meta, **metadata},
                goal=target,
            )

    if "countdown_short" not in TASKS:
        TASKS.register("countdown_short", ShortCountdownTask)


_register_short_countdown()


@dataclass(frozen=True)
class Arm:
    """One configuration: R = prompts x G rollouts per step, buffer capacity N, extra config overrides."""

    name: str
    prompts: int
    capacity: int
    group: str  # 'core', 'extra' or 'countdown'
    overrides: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Setup:
    """Sizes shared by the arms; the step budgets of the core arms come from the pilot."""

    group_size: int = 8
    batch_prompts: int = 8  # B = 64 (the paper's minimal experiment uses B = 64)
    max_new_tokens: int = 40  # 'The final answer is $\\boxed{12}$.' + EOS is ~34 byte tokens
    lr: float = 1e-4
    eval_every: int = 10
    sample_every: int = 100  # sampled pass@1 (the secondary check) at these steps, at 0 and at the end
    eval_samples: int = 4
    pilot_seeds: int = 4
    pilot_steps: int = 400
    seeds: int = 8
    extra_seeds: int = 4
    cd_batch_prompts: int = 4
    cd_max_new_tokens: int = 32
    cd_steps: int = 120
    cd_sft_steps: int = 600
    cd_seeds: int = 8

    @property
    def batch(self) -> int:
        """B of the arithmetic arms."""
        return self.batch_prompts * self.group_size


FULL = Setup()
QUICK = Setup(
    batch_prompts=4,
    eval_every=2,
    sample_every=4,
    eval_samples=1,
    pilot_seeds=2,
    pilot_steps=6,
    seeds=2,
    extra_seeds=1,
    cd_steps=3,
    cd_sft_steps=20,
    cd_seeds=1,
)


def make_arms(s: Setup) -> list[Arm]:
    """The arms: on-policy, R = B/2 and B/4 with N = 8R, extras on R = B/2, and the Countdown trio."""
    g, bp, B = s.group_size, s.batch_prompts, s.batch
    arms = [Arm(BASELINE, bp, B, "core", note="R = B, N = R")]
    for y in (2, 4):
        p = bp // y
        arms.append(Arm(f"R=B/{y} N=8R", p, max(8 * p * g, B), "core", note=f"R = B/{y}, N = 8R"))
    p2, n2 = bp // 2, 8 * (bp // 2) * g
    extra = [
        ("+positive-bias", ("buffer.writer=positive_bias", "buffer.positive_bias_delta=0.5"), "delta = 0.5"),
        ("+AsymRE", ("learner.loss=asymre", "learner.delta_v=-0.1"), "AsymRE loss, delta_V = -0.1"),
        (
            "+prioritized",
            ("buffer.sampler=prioritized",),
            "|A| priorities, alpha 0.6, beta 0.4, mean-1 weights",
        ),
    ]
    arms += [Arm(n, p2, n2, "extra", o, f"R = B/2, N = 8R, {note}") for n, o, note in extra]
    cbp, cp2 = s.cd_batch_prompts, s.cd_batch_prompts // 2
    asym = ("learner.loss=asymre", "learner.delta_v=-0.1")
    arms += [
        Arm(CD_BASELINE, cbp, cbp * g, "countdown", note="Countdown, R = B, N = R, GRPO"),
        Arm(
            "cd R=B/2 N=8R AsymRE", cp2, 8 * cp2 * g, "countdown", asym, "Countdown, R = B/2, N = 8R, AsymRE"
        ),
        Arm(
            "cd +hindsight AsymRE",
            cp2,
            8 * cp2 * g,
            "countdown",
            (*asym, "buffer.hindsight.strategy=final"),
            "Countdown, R = B/2, N = 8R, AsymRE, hindsight relabeling ('final')",
        ),
    ]
    return arms


def slug(name: str) -> str:
    """A file-name form of an arm name."""
    return name.replace(" ", "_").replace("/", "").replace("+", "plus-").replace("=", "")


def run_path(results: Path, arm: Arm, seed: int) -> Path:
    """Where the result of (arm, seed) is stored; its presence means 'done'."""
    return results / "runs" / slug(arm.name) / f"seed{seed}.json"


def run_overrides(arm: Arm, s: Setup, seed: int, steps: int, model: str, out_dir: str) -> list[str]:
    """The `rlvr train` overrides of one run."""
    cd = arm.group == "countdown"
    batch = s.cd_batch_prompts * s.group_size if cd else s.batch
    return [
        f"model.name={model}",
        f"env.id={COUNTDOWN_ENV if cd else ARITH_ENV}",
        f"env.kwargs={json.dumps(COUNTDOWN_KWARGS if cd else ARITH_KWARGS)}",
        f"rollout.prompts_per_step={arm.prompts}",
        f"rollout.group_size={s.group_size}",
        "rollout.temperature=1.0",
        f"rollout.max_new_tokens={s.cd_max_new_tokens if cd else s.max_new_tokens}",
        f"buffer.capacity={arm.capacity}",
        f"train.batch_size={batch}",
        f"train.steps={steps}",
        f"train.seed={seed}",
        f"train.output_dir={out_dir}",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
        "train.resume=false",
        # the scratch dir of a run that was interrupted is disposable (the result file is the record): move it aside
        "train.overwrite=true",
        f"learner.lr={s.lr}",
        "learner.micro_batch_size=64",
        f"eval.every={s.eval_every}",
        "eval.temperature=1.0",
        f"eval.samples={s.eval_samples}",
        # arithmetic: all 81 facts, exact gold probability; Countdown has no gold for every target: sampled
        *(["eval.num_examples=64"] if cd else ["eval.num_examples=81", "eval.gold_prob=true"]),
        *arm.overrides,
    ]


def _git_commit() -> str:
    if os.environ.get("REPLAY_COMMIT"):  # set when the experiment runs from an exported snapshot of a commit
        return os.environ["REPLAY_COMMIT"]
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run_one(job: dict[str, Any]) -> dict[str, Any]:
    """One training run in this process; writes its result file (atomically) and returns it."""
    import torch

    torch.set_num_threads(1)
    if job["kind"] == "sft":
        return {"kind": "sft", **make_countdown_model(job["out"], job["steps"])}
    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config
    from rlvr.train.loop import Trainer

    arm, s, seed, steps = Arm(**job["arm"]), Setup(**job["setup"]), job["seed"], job["steps"]
    path = Path(job["path"])
    overrides = run_overrides(arm, s, seed, steps, job["model"], job["work"])
    config = load_config(RunConfig, None, overrides)
    cd = arm.group == "countdown"
    sample_steps = {steps} | set(range(s.sample_every, steps + 1, s.sample_every))
    t0 = time.perf_counter()
    trainer = Trainer(config)
    gold_cfg = replace(config, eval=replace(config.eval, samples=0)) if not cd else config
    sampled_cfg = replace(config, eval=replace(config.eval, gold_prob=False))
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
        # mean -log pi(token) of fresh samples: a Monte-Carlo estimate of the generating policy's entropy
        fresh_nll.append(float(-np.concatenate(lps).mean()) if lps else float("nan"))
        return orig_extend(rollouts, step)

    buf.sample, buf.extend = (
        sample,
        extend,
    )  # instance attributes shadow the methods; the library is unchanged

    def evaluate(step: int) -> dict[str, float]:
        out: dict[str, float] = {}
        trainer.config = gold_cfg  # the exact evaluation every eval step (sampled for Countdown)
        out.update(trainer.evaluate())
        if not cd and step in sample_steps | {0}:
            trainer.config = sampled_cfg
            out.update({k: v for k, v in trainer.evaluate().items() if k == "eval/pass@1"})
        trainer.config = config
        return out

    start = evaluate(0)
    evals: dict[int, dict[str, float]] = {0: start}
    trainer.config = replace(config, eval=replace(config.eval, every=0))  # evaluation is driven from here

    def on_step(step: int, metrics: dict[str, float]) -> None:
        if step % s.eval_every == 0 or step == steps:
            evals[step] = evaluate(step)

    trainer.on_step = on_step
    try:
        trainer.config = replace(config, eval=replace(config.eval, every=0))
        rows = trainer.fit()
        bm = buf.metrics()
        history = trainer.compute.history
    finally:
        trainer.close()
    keys = (
        "train/entropy",
        "rollout/accuracy",
        "rollout/reward_mean",
        "train/age_mean",
        "train/relabeled_frac",
    )
    curves: dict[str, list[float]] = {k: [float(r.get(k, math.nan)) for r in rows] for k in keys}
    for field in ("gen_s", "train_s", "rollouts", "samples", "tokens"):
        curves[field] = [float(h[field]) for h in history]  # raw per-step numbers (not cumulative)
    curves["fresh_nll"] = fresh_nll
    metric = "eval/pass@1" if cd else "eval/gold_prob"
    use_hist = Counter(uses.values())
    use_hist[0] = max(0, int(bm.get("inserted", 0)) - len(uses))
    result = {
        "arm": arm.name,
        "group": arm.group,
        "seed": seed,
        "R": arm.prompts * s.group_size,
        "N": arm.capacity,
        "B": (s.cd_batch_prompts if cd else s.batch_prompts) * s.group_size,
        "steps": steps,
        "lr": s.lr,
        "overrides": overrides,
        "note": arm.note,
        "accuracy_metric": metric,
        "eval_steps": sorted(evals),
        "accuracy": [evals[k].get(metric, math.nan) for k in sorted(evals)],
        "sampled_pass1": {str(k): v["eval/pass@1"] for k, v in sorted(evals.items()) if "eval/pass@1" in v},
        "num_problems": start.get("eval/num_problems", math.nan),
        "curves": curves,
        "use_hist": {str(k): v for k, v in sorted(use_hist.items())},
        "age_hist": {str(k): v for k, v in sorted(Counter(ages).items())},
        "buffer": {
            k: float(bm[k]) for k in ("inserted", "relabeled_inserted", "draws", "replay_ratio") if k in bm
        },
        "wall_s": time.perf_counter() - t0,
        "commit": _git_commit(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, default=float))
    os.replace(tmp, path)
    return result


def make_countdown_model(out: str, steps: int, seed: int = 0) -> dict[str, Any]:
    """SFT a tiny model (same architecture as scripts/make_tiny_model.py) on easy Countdown gold answers; cached."""
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
    save_model(model, tok, Path(out))
    info = {"steps": steps, "final_loss": float(np.mean(losses[-20:])), "seconds": time.perf_counter() - t0}
    (Path(out) / "sft.json").write_text(json.dumps(info))
    return info


# ----------------------------------------------------------------------------------------------- scheduling


def _job(arm: Arm, s: Setup, seed: int, steps: int, results: Path, work: Path, model: str) -> dict[str, Any]:
    return {
        "kind": "run",
        "arm": asdict(arm),
        "setup": asdict(s),
        "seed": seed,
        "steps": steps,
        "path": str(run_path(results, arm, seed)),
        "work": str(work / slug(arm.name) / f"seed{seed}"),
        "model": model,
    }


def run_jobs(jobs: list[dict[str, Any]], n_parallel: int) -> None:
    """Run the jobs whose result file is missing, `n_parallel` processes at a time (spawned: fresh state)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    todo = [j for j in jobs if j["kind"] == "sft" or not Path(j["path"]).is_file()]
    print(f"{len(jobs) - len(todo)} of {len(jobs)} runs already done; {len(todo)} to run", flush=True)
    if not todo:
        return
    with ProcessPoolExecutor(max_workers=n_parallel, mp_context=mp.get_context("spawn")) as pool:
        for job, res in zip(todo, pool.map(run_one, todo), strict=True):
            if job["kind"] == "sft":
                print(f"countdown SFT model: {json.dumps(res)}", flush=True)
                continue
            print(
                f"{time.strftime('%H:%M:%S')} {res['arm']:>22s} seed {res['seed']}: {res['steps']} steps, "
                f"accuracy {res['accuracy'][0]:.3f} -> {res['accuracy'][-1]:.3f}, {res['wall_s']:.0f}s",
                flush=True,
            )


def pilot_and_core(s: Setup, arms: list[Arm], results: Path, work: Path, model: str, n: int) -> None:
    """The pilot (on-policy seeds 0..pilot_seeds-1), its plan (budget, threshold, mu), then the core arms."""
    base = next(a for a in arms if a.name == BASELINE)
    run_jobs([_job(base, s, k, s.pilot_steps, results, work, model) for k in range(s.pilot_seeds)], n)
    pilot = analysis.load_pilot(results)
    if pilot is None:
        runs = [r for r in analysis.load_runs(results) if r["arm"] == BASELINE and r["seed"] < s.pilot_seeds]
        pilot = analysis.make_pilot(runs, s.eval_every)
        (results / "pilot.json").write_text(json.dumps(pilot, indent=1))
    print(f"pilot: {json.dumps({k: v for k, v in pilot.items() if k != 'median_curve'})}", flush=True)
    core = [a for a in arms if a.group == "core"]
    jobs = []
    for seed in range(s.seeds):  # seed-major: a cut-short experiment still has paired seeds
        for arm in core:
            steps = analysis.budget_steps(pilot, s.batch, arm.prompts * s.group_size, s.eval_every)
            if arm.name == BASELINE and seed < s.pilot_seeds:
                continue  # the pilot runs are the baseline's first seeds (run longer; the analysis cuts them)
            jobs.append(_job(arm, s, seed, steps, results, work, model))
    run_jobs(jobs, n)


def extras(s: Setup, arms: list[Arm], results: Path, work: Path, model: str, n: int, quick: bool) -> None:
    """The extra arms (R = B/2 variants) and the Countdown arms, seed-major."""
    pilot = analysis.load_pilot(results)
    if pilot is None:
        raise SystemExit("run --phase core first: the extra arms take their step budget from the pilot")
    jobs = []
    for seed in range(s.extra_seeds):
        for arm in (a for a in arms if a.group == "extra"):
            steps = analysis.budget_steps(pilot, s.batch, arm.prompts * s.group_size, s.eval_every)
            jobs.append(_job(arm, s, seed, steps, results, work, model))
    cd_model = str(work / ("countdown-model-quick" if quick else "countdown-model"))
    run_jobs([{"kind": "sft", "out": cd_model, "steps": s.cd_sft_steps, "path": ""}], 1)
    for seed in range(s.cd_seeds):
        for arm in (a for a in arms if a.group == "countdown"):
            jobs.append(_job(arm, s, seed, s.cd_steps, results, work, cd_model))
    run_jobs(jobs, n)


def main(argv: Sequence[str] | None = None) -> None:
    """Run a phase of the experiment (resumable), then write the report from every result file present."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--phase", choices=("core", "extra", "all"), default="core")
    p.add_argument("--jobs", type=int, default=1, help="runs in parallel (separate processes)")
    p.add_argument("--quick", action="store_true", help="smoke test: tiny sizes, results under --work")
    p.add_argument(
        "--analyze-only", action="store_true", help="only rebuild the report from the result files"
    )
    p.add_argument("--results", default=None, help=f"result files and report (default {RESULTS})")
    p.add_argument(
        "--work", default=str(ROOT / "runs/replay_efficiency"), help="per-run scratch (not committed)"
    )
    p.add_argument("--model", default=str(ROOT / MODEL), help="the arithmetic model")
    args = p.parse_args(argv)
    s = QUICK if args.quick else FULL
    work = Path(args.work) / ("quick" if args.quick else "full")
    results = Path(args.results) if args.results else (work / "results" if args.quick else RESULTS)
    results.mkdir(parents=True, exist_ok=True)
    arms = make_arms(s)
    if not args.analyze_only:
        if args.phase in ("core", "all"):
            pilot_and_core(s, arms, results, work, args.model, args.jobs)
        if args.phase in ("extra", "all"):
            extras(s, arms, results, work, args.model, args.jobs, args.quick)
    command = "python " + " ".join(
        [os.path.relpath(__file__, ROOT), *(argv if argv is not None else sys.argv[1:])]
    )
    text = analysis.report(results, arms_order=[a.name for a in arms], setup=asdict(s), command=command)
    print(text)


if __name__ == "__main__":
    main()
