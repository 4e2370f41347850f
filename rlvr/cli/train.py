"""`rlvr train CONFIG.yaml [key=value ...]`: run GRPO with replay from a YAML config."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Attach the `train` sub-command."""
    p = sub.add_parser(
        "train",
        help="train a policy with GRPO and replay from a YAML config",
        description="Train with GRPO/AsymRE and a replay buffer. Overrides use dotted keys, e.g. "
        "`rlvr train configs/default.yaml train.steps=5 buffer.sampler=prioritized`.",
    )
    p.add_argument("config", help="YAML run config (see configs/)")
    p.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides, e.g. train.steps=10")
    p.add_argument("--output-dir", help="shorthand for train.output_dir=...")
    p.add_argument("--no-resume", action="store_true", help="start fresh even if output_dir has checkpoints")
    p.add_argument("--dry-run", action="store_true", help="validate the config, print it and exit")
    p.add_argument(
        "--address",
        help="train on the Ray cluster at this address ('auto' inside a cluster, 'ray://host:10001', ...); "
        "a config with a `distributed` section trains on Ray even without it (starting a local Ray)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load and validate the config, then train (or print it with --dry-run)."""
    import yaml

    from rlvr.core.errors import ConfigError
    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config, to_dict

    overrides = list(args.overrides)
    if args.output_dir:
        overrides.append(f"train.output_dir={args.output_dir}")
    if args.no_resume:
        overrides.append("train.resume=false")
    if (
        args.address
    ):  # turns the Ray runtime on (default settings unless the config has a distributed section)
        overrides.append(f"distributed.address={json.dumps(args.address)}")
    try:
        config = load_config(RunConfig, args.config, overrides)
    except ConfigError as exc:
        print(f"rlvr train: invalid config: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        print(yaml.safe_dump(to_dict(config), sort_keys=False))
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if config.distributed is not None:
        from rlvr.train.distributed import train_distributed

        try:
            rows = train_distributed(config)
        except ConfigError as exc:
            print(f"rlvr train: {exc}", file=sys.stderr)
            return 2
    else:
        from rlvr.train.loop import train

        rows = train(config)
    if rows:
        first, last = rows[0], rows[-1]
        print(
            f"rlvr train: {len(rows)} steps -> {config.train.output_dir} | rollout reward "
            f"{first.get('rollout/reward_mean', float('nan')):.3f} -> {last.get('rollout/reward_mean', float('nan')):.3f}"
            f" | plot: {config.train.output_dir}/training.png"
        )
    return 0
