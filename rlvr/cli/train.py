"""`rlvr train CONFIG.yaml [key=value ...]`: run GRPO with replay from a YAML config."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any

from rlvr.cli._common import add_import_arg, add_option_args, options_of


def add_parser(sub: Any) -> None:
    """Attach the `train` sub-command."""
    p = sub.add_parser(
        "train",
        help="train a policy with GRPO and replay from a YAML config",
        description="Train with GRPO/AsymRE and a replay buffer. Overrides use dotted keys, e.g. "
        "`rlvr train configs/default.yaml train.steps=5 buffer.sampler=prioritized`.",
    )
    p.add_argument("config", help="YAML run config (see configs/)")
    add_option_args(p, "config override", "train.steps=10 (or -o train.steps=10)")
    add_import_arg(p)
    p.add_argument("--output-dir", help="shorthand for train.output_dir=...")
    p.add_argument(
        "--no-resume",
        action="store_true",
        help="start fresh; refused where output_dir holds an earlier run unless --overwrite is given",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="with --no-resume: move an earlier run in output_dir aside (to <dir>.prev-<time>) and start fresh",
    )
    p.add_argument(
        "--accept-changes",
        action="store_true",
        help="resume even though learning settings differ from the run's saved config (differences are shown)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="check everything but the model weights (config, env and its data, gold answers, model name, "
        "output dir), print the config and exit",
    )
    p.add_argument(
        "--address",
        help="train on the Ray cluster at this address ('auto' inside a cluster, 'ray://host:10001', ...); "
        "a config with a `distributed` section trains on Ray even without it (starting a local Ray)",
    )
    p.set_defaults(func=run)


def summarize(rows: list[dict[str, float]], window: int = 10) -> str:
    """Means of the first and last `window` steps (single steps are too noisy to compare), per key metric."""
    import math

    n = min(window, max(1, len(rows) // 2))
    parts = []
    for key, label in (
        ("rollout/reward_mean", "rollout reward"),
        ("eval/pass@1", "held-out pass@1"),
        ("train/loss", "loss"),
    ):
        values = [r[key] for r in rows if isinstance(r.get(key), float | int) and not math.isnan(r[key])]
        if len(values) >= 2:
            k = min(n, len(values) // 2) or 1
            first, last = sum(values[:k]) / k, sum(values[-k:]) / k
            parts.append(f"{label} {first:.3f} -> {last:.3f}")
    return f"means of the first/last {n} steps: " + (", ".join(parts) or "no metrics logged")


def run(args: argparse.Namespace) -> int:
    """Load and validate the config, then train (or print it with --dry-run)."""
    from dataclasses import replace

    import yaml

    from rlvr.core.errors import ConfigError, DataError, VerifierFailure
    from rlvr.train.build import preflight
    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config, to_dict

    overrides = options_of(args)
    if args.output_dir:
        overrides.append(f"train.output_dir={args.output_dir}")
    if args.no_resume:
        overrides.append("train.resume=false")
    if args.overwrite:
        overrides.append("train.overwrite=true")
    if args.accept_changes:
        overrides.append("train.accept_changes=true")
    if (
        args.address
    ):  # turns the Ray runtime on (default settings unless the config has a distributed section)
        overrides.append(f"distributed.address={json.dumps(args.address)}")
    try:
        config = load_config(RunConfig, args.config, overrides)
        if args.imports:  # recorded in the config, so Ray workers and a resumed run import them too
            imports = tuple(dict.fromkeys([*config.env.imports, *args.imports]))
            config = replace(config, env=replace(config.env, imports=imports))
        preflight(config)
    except (ConfigError, DataError) as exc:
        print(f"rlvr train: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        print(yaml.safe_dump(to_dict(config), sort_keys=False))
        print(
            "rlvr train: dry run OK (env, data, gold answers and model name checked; no weights loaded)",
            file=sys.stderr,
        )
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if config.distributed is not None:
        from rlvr.train.distributed import train_distributed

        try:
            rows = train_distributed(config)
        except (ConfigError, VerifierFailure) as exc:
            print(f"rlvr train: {exc}", file=sys.stderr)
            return 2
    else:
        from rlvr.train.loop import train

        try:
            rows = train(config)
        except (
            ConfigError,
            VerifierFailure,
        ) as exc:  # e.g. the output dir holds a run that must not be overwritten
            print(f"rlvr train: {exc}", file=sys.stderr)
            return 2
    if rows:
        print(f"rlvr train: {len(rows)} steps -> {config.train.output_dir} | {summarize(rows)}")
        print(f"rlvr train: plot: {config.train.output_dir}/training.png")
        if rows[-1]["step"] < config.train.steps:  # a signal stopped it after a checkpoint
            print(
                f"rlvr train: stopped at step {int(rows[-1]['step'])} of {config.train.steps}; the checkpoint is "
                "saved: run the same command again to resume",
                file=sys.stderr,
            )
            return 130
    return 0
