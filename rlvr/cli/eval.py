"""`rlvr eval`: pass@k, maj@k and per-level/subject accuracy of a model on a registered env, resumable."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from rlvr.cli._common import add_import_arg, add_option_args, options_of, parse_options, reporting_errors


def _ks(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(k) for k in text.replace(" ", "").split(",") if k)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--k takes comma-separated integers like 1,4,16, got {text!r}"
        ) from None


def _slug(text: str) -> str:
    keep = "".join(c if c.isalnum() or c in "-_." else "_" for c in text.strip("/").split("/")[-1])
    return keep or "model"


#: env options that decide how prompts look; a checkpoint is evaluated with the values it was trained with
FORMAT_OPTIONS = ("chat", "template", "system_prompt")


def _trained_setup(model: str) -> tuple[str, Any, str | None, dict[str, Any]]:
    """(model to load, its run or None, the run's env id, the run's env options) for --model."""
    from rlvr.core.errors import ConfigError
    from rlvr.train.checkpoint import find_run_model
    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config

    try:
        run = find_run_model(model)
    except FileNotFoundError as exc:
        raise ConfigError(str(exc)) from None
    if run is None:
        return model, None, None, {}
    if run.run_dir is None:
        return str(run.model_dir), run, None, {}
    try:
        trained = load_config(RunConfig, run.run_dir / "config.yaml")
    except ConfigError as exc:
        warnings.warn(
            f"cannot read the run's config ({exc}); evaluating with the env's defaults", stacklevel=1
        )
        return str(run.model_dir), run, None, {}
    return str(run.model_dir), run, trained.env.id, dict(trained.env.kwargs)


def _env_options(
    args: argparse.Namespace, trained_env: str | None, trained: dict[str, Any]
) -> dict[str, Any]:
    """The eval env's options: a checkpoint's training options (its split aside), then the user's, checked."""
    given = parse_options(options_of(args))
    if trained_env is None or args.task != trained_env:
        return given
    options = {k: v for k, v in trained.items() if k != "split"}  # evaluation takes the test split
    for key in FORMAT_OPTIONS:
        if key in given and key in trained and given[key] != trained[key]:
            warnings.warn(
                f"this checkpoint was trained with {key}={trained[key]!r} but is evaluated with "
                f"{key}={given[key]!r}: scores will not reflect what it learned",
                stacklevel=1,
            )
    trained_chat = bool(trained.get("chat", False))
    if args.chat is not None and args.chat != trained_chat:
        warnings.warn(
            f"this checkpoint was trained with chat={trained_chat} prompts but --{'' if args.chat else 'no-'}chat "
            "is given: scores will not reflect what it learned",
            stacklevel=1,
        )
    if "path" in options and "path" not in given and Path(str(options["path"])).is_file():
        warnings.warn(
            f"the run trained on the single file {options['path']!r}, which has no test split: this evaluation "
            "is on training data; pass -o path=HELD_OUT_FILE",
            stacklevel=1,
        )
    return {**options, **given}


def _backend(choice: str) -> str:
    """`auto` -> vllm when it is importable, else hf."""
    import importlib.util

    if choice != "auto":
        return choice
    return "vllm" if importlib.util.find_spec("vllm") is not None else "hf"


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from rlvr.eval import EvalConfig, evaluate

    model, run, trained_env, trained = _trained_setup(args.model)
    if args.task is None:
        args.task = trained_env or "rlvr/MATH500-v0"
    env_options = _env_options(args, trained_env, trained)
    if run is not None and run.checkpoint is not None:  # one output dir per checkpoint, not per "model"
        name = f"{run.run_dir.name if run.run_dir else run.checkpoint.parent.name}-{run.checkpoint.name}"
    else:
        name = "_".join(Path(args.model.rstrip("/")).parts[-2:]) if Path(args.model).exists() else args.model
    output_dir = args.output_dir or str(Path("runs") / "eval" / f"{_slug(args.task)}__{_slug(name)}")
    config = EvalConfig(
        env=args.task,
        env_options=env_options,
        samples=args.samples,
        ks=args.k,
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_new_tokens=args.max_new_tokens,
        seed=args.seed,
        limit=args.limit,
        shuffle=args.shuffle,
        batch_size=args.batch_size,
        chat=args.chat,
        num_workers=args.workers,
        timeout_s=args.timeout,
        output_dir=output_dir,
        resume=not args.no_resume,
        backend=_backend(args.backend),
        dtype=args.dtype,
        backend_options=parse_options(args.backend_option),
        progress=not args.quiet,
    )
    if config.temperature == 0 and config.samples > 1:
        warnings.warn(
            "temperature 0 is greedy: all samples of a problem are (nearly) identical; pass --temperature > 0 "
            "for a meaningful pass@k",
            stacklevel=1,
        )
    console = Console(width=None if sys.stdout.isatty() else 80)  # a pipe or log: the table fits 80 columns
    report = evaluate(model, config=config)
    report.print(console)
    console.print(
        f"{report.generated} samples generated, {report.reused} reused · files in {output_dir}: "
        + ", ".join(Path(p).name for p in report.files.values()),
        highlight=False,
    )
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr eval`."""
    p = sub.add_parser(
        "eval",
        help="evaluate a model on an env: pass@k, maj@k, accuracy per level/subject",
        description="Sample K completions per problem, grade them in the verifier pool and report pass@k "
        "(unbiased estimator), maj@k (majority over equivalent answers), mean length and no-answer/timeout "
        "shares, overall and per level/subject. Writes samples.jsonl (resumable), summary.json, report.md "
        "and plot.png to --output-dir.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument(
        "--model",
        required=True,
        help="model directory, hub id, alias (e.g. smollm2-135m), or a training run: runs/NAME, "
        "runs/NAME/checkpoints/step-N or .../latest (then its env and prompt format are used)",
    )
    p.add_argument(
        "--task",
        default=None,
        help="registered env id (see `rlvr envs list`); default: the run's env for a training run, else "
        "rlvr/MATH500-v0",
    )
    add_option_args(p, "env/task option", "-o split=test -o path=data/math500.jsonl -o levels=[4,5]")
    add_import_arg(p)
    p.add_argument("--samples", "-n", type=int, default=1, help="completions per problem")
    p.add_argument(
        "--k", type=_ks, default=None, help="k values of pass@k/maj@k (default 1,2,4.. up to --samples)"
    )
    p.add_argument("--temperature", "-t", type=float, default=0.6, help="sampling temperature (0 = greedy)")
    p.add_argument("--top-p", type=float, default=0.95, help="nucleus sampling mass (1 disables)")
    p.add_argument("--top-k", type=int, default=0, help="top-k filter (0 disables)")
    p.add_argument("--max-new-tokens", type=int, default=1024, help="longest completion")
    p.add_argument(
        "--backend",
        choices=["auto", "hf", "vllm"],
        default="auto",
        help="generation backend; auto = vllm when it is installed (far faster), else hf (transformers)",
    )
    p.add_argument("--dtype", default="float32", help="model dtype (float32, bfloat16, float16)")
    p.add_argument(
        "-b",
        "--backend-option",
        action="append",
        metavar="KEY=VALUE",
        help="backend option, e.g. -b max_model_len=4096 -b gpu_memory_utilization=0.9 (vllm)",
    )
    p.add_argument("--limit", type=int, default=None, help="evaluate only the first N problems")
    p.add_argument("--shuffle", action="store_true", help="with --limit: a seeded random subset instead")
    p.add_argument("--seed", type=int, default=0, help="sampling seed")
    p.add_argument("--batch-size", type=int, default=16, help="problems per generation call")
    p.add_argument(
        "--chat",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="apply the model's chat template (default: the env's format, plain text unless -o chat=true, "
        "as in training; a training run's own format for a checkpoint)",
    )
    p.add_argument("--workers", type=int, default=2, help="verifier pool processes (0 = in process)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per verification")
    p.add_argument("--output-dir", default=None, help="default runs/eval/<env>__<model>")
    p.add_argument("--no-resume", action="store_true", help="discard earlier samples in --output-dir")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=reporting_errors(_run))


if __name__ == "__main__":  # pragma: no cover
    from rlvr.cli import main

    sys.exit(main(["eval", *sys.argv[1:]]))
