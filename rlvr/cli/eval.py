"""`rlvr eval`: pass@k, maj@k and per-level/subject accuracy of a model on a registered env, resumable."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from rlvr.cli.tasks import parse_options, reporting_errors


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


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from rlvr.eval import EvalConfig, evaluate

    output_dir = args.output_dir or str(Path("runs") / "eval" / f"{_slug(args.task)}__{_slug(args.model)}")
    config = EvalConfig(
        env=args.task,
        env_options=parse_options(args.option),
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
        backend=args.backend,
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
    # a pipe or log file gets a wide table instead of rich's default 80 columns
    console = Console(width=None if sys.stdout.isatty() else 160)
    report = evaluate(args.model, config=config)
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
    p.add_argument("--model", required=True, help="model directory, hub id or alias (e.g. smollm2-135m)")
    p.add_argument("--task", default="rlvr/MATH500-v0", help="registered env id (see `rlvr envs list`)")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="env/task option, e.g. -o split=test -o path=data/math500.jsonl -o levels=[4,5]",
    )
    p.add_argument("--samples", "-n", type=int, default=1, help="completions per problem")
    p.add_argument(
        "--k", type=_ks, default=None, help="k values of pass@k/maj@k (default 1,2,4.. up to --samples)"
    )
    p.add_argument("--temperature", "-t", type=float, default=0.6, help="sampling temperature (0 = greedy)")
    p.add_argument("--top-p", type=float, default=0.95, help="nucleus sampling mass (1 disables)")
    p.add_argument("--top-k", type=int, default=0, help="top-k filter (0 disables)")
    p.add_argument("--max-new-tokens", type=int, default=1024, help="longest completion")
    p.add_argument("--backend", choices=["hf", "vllm"], default="hf", help="generation backend")
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
        help="apply the model's chat template (default: if the tokenizer has one)",
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
