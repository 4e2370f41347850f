"""Supervised warm start on a task's gold completions (before RL), e.g. to give a small model the format.

RL from a model that never produces a gradeable answer has no signal; a short SFT on the task's own gold
completions (rendered with the env's prompt template) gives it one. Loss: cross-entropy on completion tokens.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import make_rng
from rlvr.core.types import Example
from rlvr.envs import make_env
from rlvr.policy.prompts import encode_prompt, eos_token_ids


@dataclass(frozen=True)
class SFTConfig:
    """Supervised fine-tuning on gold completions."""

    steps: int = 1000
    """Optimizer steps."""
    batch_size: int = 64
    """Examples per step."""
    lr: float = 3e-3
    """Peak learning rate (AdamW), cosine-decayed to 10% of it."""
    warmup_steps: int = 50
    """Linear warmup steps."""
    weight_decay: float = 0.01
    """AdamW weight decay."""
    seed: int = 0
    """Seeds example order."""

    def __post_init__(self) -> None:
        if self.steps < 1 or self.batch_size < 1 or not self.lr > 0:
            raise ConfigError(f"sft needs steps >= 1, batch_size >= 1, lr > 0; got {self}")


def sft_pairs(
    env_id: str, env_kwargs: dict[str, Any], tokenizer: Any, limit: int | None = None
) -> list[tuple[list[int], list[int]]]:
    """(prompt ids, gold completion ids + EOS) for the examples of an env's task, rendered by its template."""
    env = make_env(env_id, **env_kwargs)
    task = env.task
    eos = eos_token_ids(tokenizer)[0]
    n = len(task) if limit is None else min(limit, len(task))
    pairs = []
    for i in range(n):
        example: Example = task[i]
        prompt = env.template.render(example, chat=env.chat)
        _, prompt_ids = encode_prompt(tokenizer, prompt)
        completion = task.gold_completion(example)
        completion_ids = [*tokenizer(completion, add_special_tokens=False)["input_ids"], eos]
        pairs.append((prompt_ids, completion_ids))
    env.close()
    return pairs


def _batch(pairs: Sequence[tuple[list[int], list[int]]], pad: int) -> tuple[torch.Tensor, ...]:
    width = max(len(p) + len(c) for p, c in pairs)
    ids = torch.full((len(pairs), width), pad, dtype=torch.long)
    attn = torch.zeros_like(ids)
    labels = torch.full_like(ids, -100)
    for row, (p, c) in enumerate(pairs):
        seq = p + c
        ids[row, : len(seq)] = torch.tensor(seq)
        attn[row, : len(seq)] = 1
        labels[row, len(p) : len(seq)] = torch.tensor(c)  # loss only on the completion
    return ids, attn, labels


def sft(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[tuple[list[int], list[int]]],
    config: SFTConfig,
    *,
    progress: bool = True,
) -> list[float]:
    """Train `model` in place on (prompt, completion) id pairs; returns the per-step losses."""
    if not pairs:
        raise ConfigError("sft got no examples")
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos_token_ids(tokenizer)[0]
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)

    def lr_at(step: int) -> float:
        if step < config.warmup_steps:
            return (step + 1) / config.warmup_steps
        frac = (step - config.warmup_steps) / max(1, config.steps - config.warmup_steps)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * frac))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_at)
    rng = make_rng(config.seed, "sft")
    order = np.array([], dtype=np.int64)
    losses: list[float] = []
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=config.steps, desc="sft", unit="step")
    model.train()
    start = time.perf_counter()
    for _ in range(config.steps):
        if order.size < config.batch_size:  # epochs of a fresh permutation
            order = np.concatenate([order, rng.permutation(len(pairs))])
        idx, order = order[: config.batch_size], order[config.batch_size :]
        ids, attn, labels = _batch([pairs[int(i)] for i in idx], pad)
        out = model(input_ids=ids, attention_mask=attn, labels=labels, use_cache=False)
        opt.zero_grad(set_to_none=True)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(float(out.loss.detach()))
        if bar is not None:
            bar.update(1)
            bar.set_postfix(loss=f"{np.mean(losses[-20:]):.3f}")
    if bar is not None:
        bar.close()
    model.eval()
    model.config.rlvr_sft = {"steps": config.steps, "seconds": round(time.perf_counter() - start, 1)}
    return losses


def save_model(model: Any, tokenizer: Any, directory: str | Path) -> Path:
    """Save a model + tokenizer in HF format (loadable by `rlvr.policy.load_model` and vLLM)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
