"""Build the default run's starting model: a tiny Llama-style model, SFT-warm-started on easy arithmetic.

RL needs a policy that sometimes answers right. A random tiny model never does, and SmolLM2-135M is too slow
to train in minutes on 2 CPU cores. This script trains a ~1M-parameter model from scratch on the gold
completions of `rlvr/Arithmetic-v0` (difficulty 0: single-digit sums) for a short while -- long enough to learn the answer
format and some sums, short enough that it is still often wrong -- so GRPO has a reward signal to climb.

    .venv/bin/python scripts/make_tiny_model.py [--out rlvr/data/models/tiny-arithmetic] [--steps 200]

It prints held-out accuracy (T=1 and greedy) at checkpoints, so the choice of --steps is visible.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from rlvr.core.seeding import seed_everything
from rlvr.envs import make_env
from rlvr.eval import evaluate_backend
from rlvr.policy import SamplingParams, make_backend, tiny_model
from rlvr.train.sft import SFTConfig, save_model, sft, sft_pairs

ENV_ID = "rlvr/Arithmetic-v0"
#: a bare prompt ("Compute 13 - 15."): a 1M-parameter model needs no instructions, and short sequences train fast
ENV_KWARGS = {"difficulty": 0, "template": "plain-v0"}


def accuracy(model, tokenizer, examples, temperature: float) -> float:
    """pass@1 of `model` on held-out examples."""
    backend = make_backend("hf", model, tokenizer, seed=0)
    env = make_env(ENV_ID, **ENV_KWARGS, seed=1)
    sampling = SamplingParams(temperature=temperature, max_new_tokens=48, seed=0)
    report = evaluate_backend(backend, env, examples, samples=1, sampling=sampling)
    return float(report.summary["pass@1"])


def main() -> None:
    """Train, report, save."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="rlvr/data/models/tiny-arithmetic")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument(
        "--eval-every", type=int, default=0, help="also evaluate every this many steps (0: only at the end)"
    )
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--train-examples", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    seed_everything(args.seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    model, tokenizer = tiny_model(
        seed=args.seed,
        hidden_size=args.hidden,
        intermediate_size=3 * args.hidden,
        num_hidden_layers=args.layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=512,
    )
    pairs = sft_pairs(ENV_ID, {**ENV_KWARGS, "size": args.train_examples, "seed": 0}, tokenizer)
    held_out = [make_env(ENV_ID, **ENV_KWARGS, seed=1).task[i] for i in range(128)]
    chunk = args.eval_every or args.steps
    done, log = 0, []
    while done < args.steps:
        n = min(chunk, args.steps - done)
        # one cosine schedule per chunk keeps each chunk's end a sensible (decayed) point to stop at
        losses = sft(
            model,
            tokenizer,
            pairs,
            SFTConfig(steps=n, lr=args.lr, seed=args.seed + done, warmup_steps=min(50, n // 5)),
        )
        done += n
        row = {
            "step": done,
            "loss": round(sum(losses[-20:]) / len(losses[-20:]), 4),
            "acc_t1": accuracy(model, tokenizer, held_out, 1.0),
            "acc_greedy": accuracy(model, tokenizer, held_out, 0.0),
        }
        log.append(row)
        print(json.dumps(row), flush=True)
    model.config.rlvr_sft = {"env": ENV_ID, **ENV_KWARGS, "steps": args.steps, "held_out": log[-1]}
    out = save_model(model, tokenizer, Path(args.out))
    print(f"saved to {out}")


if __name__ == "__main__":
    main()
