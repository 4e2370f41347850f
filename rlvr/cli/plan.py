"""`rlvr plan`: compute-optimal replay buffer N and batch B from mu (Theorem 4.5 of the replay paper)."""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path
from typing import Any


def run_mu(run_dir: Path) -> tuple[float, dict[str, Any]]:
    """The last measured compute/mu in a run's metrics.csv, and its resolved config (config.yaml) as a dict."""
    import yaml

    metrics, config = run_dir / "metrics.csv", run_dir / "config.yaml"
    if not metrics.is_file():
        raise FileNotFoundError(f"{metrics} not found: --run takes the output_dir of an `rlvr train` run")
    mu = math.nan
    with metrics.open(newline="") as fh:
        for row in csv.DictReader(fh):
            try:
                value = float(row.get("compute/mu") or "nan")
            except ValueError:
                continue
            if math.isfinite(value):
                mu = value
    if not math.isfinite(mu):
        raise ValueError(f"{metrics} has no measured compute/mu yet (no optimizer step logged); pass --mu")
    cfg = yaml.safe_load(config.read_text()) if config.is_file() else {}
    return mu, cfg or {}


def _plan(args: argparse.Namespace) -> int:
    from rlvr.train.plan import hint, plan

    cfg: dict[str, Any] = {}
    mu = args.mu
    try:
        if args.run:
            mu, cfg = run_mu(Path(args.run))
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rollout = cfg.get("rollout", {})
    R = args.rollouts_per_step or (rollout.get("prompts_per_step", 0) * rollout.get("group_size", 0))
    if mu is None or not R:
        print(
            "error: give --mu and --rollouts-per-step, or --run DIR of a run with a measured mu",
            file=sys.stderr,
        )
        return 2
    try:
        p = plan(mu, int(R), alpha=args.alpha, rho=args.rho)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.run:
        print(f"run {args.run}: measured mu = {mu:.3f}")
    print(p.summary())
    B, N = cfg.get("train", {}).get("batch_size"), cfg.get("buffer", {}).get("capacity")
    if B and N:
        print(f"this run: B = {B}, N = {N} (B/R = {B / R:.2f}, N/R = {N / R:.2f})")
        message = hint(mu, int(R), int(B), int(N))
        print(message or "plan: the run's B and N lie within the band")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr plan`."""
    parser = sub.add_parser(
        "plan",
        help="compute-optimal replay N and B from mu (Theorem 4.5)",
        description="N (buffer capacity) and B (batch) for R rollouts per step from the generation/training cost "
        "ratio mu, with the band over the unknown alpha (variance growth) and rho (correlation); says when to "
        "stay on-policy.",
    )
    parser.add_argument(
        "--mu", type=float, help="generation seconds per rollout / training seconds per sample"
    )
    parser.add_argument("--rollouts-per-step", "-R", type=int, help="R: rollouts generated per step")
    parser.add_argument(
        "--run", help="an `rlvr train` output_dir: mu from its metrics.csv, R/B/N from its config"
    )
    parser.add_argument("--alpha", type=float, default=0.25, help="point estimate of alpha (sigma ~ x^alpha)")
    parser.add_argument("--rho", type=float, default=0.1, help="point estimate of rho (sample correlation)")
    parser.set_defaults(func=_plan)
