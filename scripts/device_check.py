"""The prepared accelerator check of issue 15: a few GRPO steps with the HF backend on whatever device torch sees.

Two model shapes, each a short `rlvr train` of configs/default.yaml (Arithmetic-v0, R = 64, B = 128) with
`model.device=auto` / `model.dtype=auto` (CUDA + bf16 where supported, else CPU + fp32):

- `tiny`: the shipped ~1M-parameter `tiny-arithmetic` model (the main job's model);
- `smollm2-shape`: a random Llama with SmolLM2-135M's body (hidden 576, MLP 1536, 30 layers, 9 heads, 3 KV
  heads, tied embeddings) built from a config, no download; its vocabulary is rlvr's byte-level one (~260
  tokens, not SmolLM2's 49,152), so the embedding and LM head are smaller than the real model's.

Per shape it prints (median over the steps after the first): step time, generation tokens/s, training
tokens/s, mu (generation seconds per rollout over training seconds per sample, as the loop measures it), and
writes everything to `--out`/device_check.json. On a machine without Ray, vLLM or gymnasium (the lent GPU box),
install gymnasium's wheel and rlvr with `pip install --no-deps`; Ray and vLLM are not imported by this path.

    python scripts/device_check.py                          # both shapes, 6 steps each, device auto
    python scripts/device_check.py --shapes tiny --steps 2  # a smoke run (the test suite runs this on CPU)
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHAPES: dict[str, list[str]] = {
    "tiny": [],
    "smollm2-shape": [
        "model.name=tiny",
        "model.tiny.hidden_size=576",
        "model.tiny.intermediate_size=1536",
        "model.tiny.num_hidden_layers=30",
        "model.tiny.num_attention_heads=9",
        "model.tiny.num_key_value_heads=3",
        "model.tiny.max_position_embeddings=2048",
    ],
}


def _median(rows: list[dict[str, str]], key: str) -> float:
    values = [float(r[key]) for r in rows if r.get(key) not in (None, "", "nan")]
    return statistics.median(values) if values else float("nan")


def run_shape(shape: str, steps: int, out: Path, device: str, extra: list[str]) -> dict[str, Any]:
    """Train `shape` for `steps` steps in `out/shape`; the medians of its per-step timings."""
    import torch

    from rlvr.train.config import RunConfig
    from rlvr.train.configio import load_config
    from rlvr.train.loop import train

    overrides = [
        *SHAPES[shape],
        f"model.device={device}",
        f"train.steps={steps}",
        f"train.checkpoint_every={steps}",
        "train.progress=false",
        "train.plot=false",
        "train.tensorboard=false",
        "eval.every=0",
        f"train.output_dir={out / shape}",
        "train.resume=false",
        "train.overwrite=true",
        *extra,
    ]
    config = load_config(RunConfig, ROOT / "configs" / "default.yaml", overrides)
    start = time.perf_counter()
    train(config)
    wall = time.perf_counter() - start
    with open(out / shape / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    timed = rows[1:] or rows  # the first step pays for warm-up (CUDA context, kernels, allocator)
    gen_tokens = [float(r["rollout/generated_tokens"]) / float(r["rollout/generate_s"]) for r in timed]
    train_tokens = [
        float(r["train/tokens"]) / float(r["train/step_time_s"]) for r in timed if r["train/tokens"]
    ]
    on_cuda = device != "cpu" and torch.cuda.is_available()
    return {
        "shape": shape,
        "device": torch.cuda.get_device_name(0) if on_cuda else "cpu",
        "steps": len(rows),
        "step_s": _median(timed, "time/step_s"),
        "generate_s": _median(timed, "rollout/generate_s"),
        "train_s": _median(timed, "train/step_time_s"),
        "gen_tokens_per_s": statistics.median(gen_tokens),
        "train_tokens_per_s": statistics.median(train_tokens) if train_tokens else float("nan"),
        "mu": _median(timed, "compute/mu"),
        "reward_mean": _median(timed, "rollout/reward_mean"),
        "wall_s": wall,
        "torch": torch.__version__,
    }


def table(results: list[dict[str, Any]]) -> str:
    """The results as a Markdown table."""
    head = (
        "| shape | device | steps | step s | generate s | train s | gen tokens/s | train tokens/s | mu |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
    )
    return head + "\n".join(
        f"| {r['shape']} | {r['device']} | {r['steps']} | {r['step_s']:.3f} | {r['generate_s']:.3f} | "
        f"{r['train_s']:.3f} | {r['gen_tokens_per_s']:.0f} | {r['train_tokens_per_s']:.0f} | {r['mu']:.2f} |"
        for r in results
    )


def main(argv: list[str] | None = None) -> int:
    """Run the check for each shape and print the table."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of {', '.join(SHAPES)}")
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--device", default="auto", help="model.device: auto, cpu, cuda, cuda:N")
    p.add_argument("--out", default=str(ROOT / "runs" / "device_check"))
    p.add_argument("overrides", nargs="*", help="more KEY=VALUE config overrides for every shape")
    args = p.parse_args(argv)
    shapes = [s for s in args.shapes.split(",") if s]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        print(f"error: unknown shape(s) {unknown}; choose from {list(SHAPES)}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for shape in shapes:
        print(f"device_check: {shape}, {args.steps} steps, device {args.device} ...", flush=True)
        results.append(run_shape(shape, args.steps, out, args.device, args.overrides))
    (out / "device_check.json").write_text(json.dumps(results, indent=2))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
