"""Training throughput of the Ray runtime, sync vs async, against the single-process loop, same config, one table.

Every run trains the same tiny random model on rlvr/Arithmetic-v0 (P prompts x G samples per step, batches of
B, same seed); the Ray runs share one local Ray instance (started once, not timed) and give each actor a
fraction of a core. Throughput is measured over the steps after the first (actor start-up, the first weight
sync and the final checkpoint are not counted):

- trained samples/s: rollouts consumed by optimizer steps per second;
- rollouts/s: unique rollouts generated per second;
- replay ratio: trained samples / unique rollouts (fixed at B/R in sync mode, measured in async mode);
- mu: generation seconds per rollout over training seconds per sample (device-seconds, as the single-process
  loop charges it); mu_tp: the paper's (K_train / T) / (K_inf / W) over the same wall time (async only);
- age: policy versions between a trained rollout's generation and its use (mean over the run; the largest seen,
  which async mode bounds by buffer.staleness.max_age).

All runs go through the one loop (`rlvr.train.loop.Trainer`), on `LocalRuntime` or `RayRuntime`.

On a 2-core machine W + T actors compete for the same cores, so more actors need not be faster here; the
table is meant to be re-run on a machine with a core (or GPU) per actor.

    python benchmarks/distributed.py                    # the default table
    python benchmarks/distributed.py --steps 12 --runs single,sync:1x1,async:2x2
"""

from __future__ import annotations

import argparse
import logging
import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from rlvr.buffer import BufferConfig, StalenessConfig
from rlvr.policy import LearnerConfig
from rlvr.train.config import DistributedConfig, EnvConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig

DEFAULT_RUNS = "single,sync:1x1,sync:2x2,async:1x1,async:2x2"


@dataclass(frozen=True)
class Run:
    """One table row: 'single', or a Ray mode with W rollout workers and T learner ranks."""

    mode: str
    workers: int = 1
    ranks: int = 1

    @property
    def label(self) -> str:
        """The row's name."""
        return (
            "single-process" if self.mode == "single" else f"ray {self.mode} W={self.workers} T={self.ranks}"
        )


def parse_runs(spec: str) -> list[Run]:
    """'single,sync:1x1,async:2x2' -> runs."""
    runs = []
    for item in spec.split(","):
        mode, _, shape = item.strip().partition(":")
        if mode == "single":
            runs.append(Run("single"))
            continue
        if mode not in ("sync", "async") or "x" not in shape:
            raise SystemExit(f"bad run {item!r}: use single, sync:WxT or async:WxT")
        w, t = (int(x) for x in shape.split("x"))
        runs.append(Run(mode, w, t))
    return runs


def make_config(run: Run, args: argparse.Namespace, out: Path) -> RunConfig:
    """The shared config, with the run's distributed section."""
    distributed = None
    buffer = BufferConfig(capacity=args.capacity)
    if run.mode != "single":
        distributed = DistributedConfig(
            mode=run.mode,  # type: ignore[arg-type]
            rollout_workers=run.workers,
            learner_ranks=run.ranks,
            rollout_cpus=0.25,
            learner_cpus=0.25,
            buffer_cpus=0.25,
            verifier_cpus=0.25,
        )
        shards = run.ranks if run.mode == "async" else 1  # async: the paper's per-rank shards
        staleness = StalenessConfig(max_age=args.max_age) if run.mode == "async" else StalenessConfig()
        buffer = BufferConfig(capacity=args.capacity, num_shards=shards, staleness=staleness)
    return RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(id="rlvr/Arithmetic-v0", kwargs={"difficulty": 1}),
        rollout=RolloutConfig(
            prompts_per_step=args.prompts, group_size=args.group, max_new_tokens=args.tokens
        ),
        buffer=buffer,
        learner=LearnerConfig(lr=1e-3, micro_batch_size=16),
        train=TrainConfig(
            steps=args.steps,
            batch_size=args.batch,
            seed=args.seed,
            output_dir=str(out),
            tensorboard=False,
            plot=False,
            progress=False,
            resume=False,
        ),
        distributed=distributed,
    )


def run_one(run: Run, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """Train one configuration; returns the row of the table."""
    config = make_config(run, args, root / run.label.replace(" ", "_").replace("=", ""))
    if run.mode == "single":
        from rlvr.train.loop import Trainer

        trainer: Any = Trainer(config)
    else:
        from rlvr.train.distributed import DistributedTrainer

        trainer = DistributedTrainer(config)
    try:
        rows = trainer.fit()
    finally:
        trainer.close()
    timed = rows[1:] or rows
    seconds = sum(r["time/step_s"] for r in timed)
    first = rows[0] if len(rows) > 1 else {"compute/trained_samples": 0.0, "compute/unique_rollouts": 0.0}
    trained = rows[-1]["compute/trained_samples"] - first["compute/trained_samples"]
    unique = rows[-1]["compute/unique_rollouts"] - first["compute/unique_rollouts"]
    last = rows[-1]
    return {
        "run": run.label,
        "samples_per_s": trained / seconds if seconds > 0 else math.nan,
        "rollouts_per_s": unique / seconds if seconds > 0 else math.nan,
        "replay_ratio": last["compute/trained_samples"] / max(1.0, last["compute/unique_rollouts"]),
        "mu": last["compute/mu"],
        "mu_tp": last.get("compute/mu_throughput", math.nan),
        "age_mean": float(sum(r.get("train/age_mean", 0.0) for r in rows) / len(rows)),
        "age_max": max((r["train/age_max"] for r in rows if "train/age_max" in r), default=math.nan),
        "versions": int(last["policy/version"]),
    }


def print_table(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The side-by-side table."""
    print(
        f"\nrlvr distributed: tiny model, rlvr/Arithmetic-v0, P={args.prompts} x G={args.group} "
        f"(R={args.prompts * args.group}), B={args.batch}, N={args.capacity}, {args.steps} steps, "
        f"{args.tokens} new tokens; async max_age={args.max_age}"
    )
    header = (
        f"{'run':<24}{'samples/s':>11}{'rollouts/s':>12}{'vs single':>11}{'replay':>8}{'mu':>8}"
        f"{'mu_tp':>8}{'age mean':>9}{'age max':>8}{'updates':>9}"
    )
    print(header)
    print("-" * len(header))
    base = next((r["samples_per_s"] for r in results if r["run"] == "single-process"), math.nan)
    for r in results:
        rel = r["samples_per_s"] / base if base and math.isfinite(base) else math.nan
        print(
            f"{r['run']:<24}{r['samples_per_s']:>11.1f}{r['rollouts_per_s']:>12.1f}{rel:>10.2f}x"
            f"{r['replay_ratio']:>8.2f}{r['mu']:>8.2f}{r['mu_tp']:>8.2f}{r['age_mean']:>9.2f}{r['age_max']:>8.1f}"
            f"{r['versions']:>9d}"
        )


def main() -> None:
    """Run the configurations and print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", default=DEFAULT_RUNS, help=f"comma-separated (default {DEFAULT_RUNS})")
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--prompts", type=int, default=8)
    p.add_argument("--group", type=int, default=4)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--capacity", type=int, default=128)
    p.add_argument("--tokens", type=int, default=32)
    p.add_argument("--max-age", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-cpus", type=int, default=4, help="logical CPUs of the local Ray instance")
    args = p.parse_args()
    runs = parse_runs(args.runs)
    logging.basicConfig(level=logging.WARNING)
    results = []
    with tempfile.TemporaryDirectory(prefix="rlvr-bench-dist-") as tmp:
        if any(r.mode != "single" for r in runs):
            import ray

            t0 = time.perf_counter()
            ray.init(
                num_cpus=args.num_cpus, include_dashboard=False, configure_logging=False, log_to_driver=False
            )
            print(f"local Ray started in {time.perf_counter() - t0:.1f}s (not counted)")
        try:
            for run in tqdm(runs, desc="runs", unit="run"):
                results.append(run_one(run, args, Path(tmp)))
        finally:
            import ray

            if ray.is_initialized():
                ray.shutdown()
    print_table(results, args)


if __name__ == "__main__":
    main()
