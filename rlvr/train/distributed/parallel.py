"""One data-parallel optimizer step over a torch.distributed process group (gloo on CPU, nccl on GPU).

Each rank holds a slice of the batch. The loss of every micro-batch is normalised by the *global* token and
sequence counts (all-reduced first), and gradients are *summed* across ranks, so the update equals the one
`Learner.train_step` would take on the whole batch in one process, whatever the aggregation (token mean,
sequence mean, Dr. GRPO), up to float summation order. Clipping then sees the same global gradient on every
rank, and the optimizers stay in lockstep: all ranks hold identical parameters after every step.

This mirrors `Learner.train_step` (which normalises by its own batch), using the learner's public pieces:
`collate`, `compute_loss`, `optimizer`, `scheduler`, `config`, `model`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import torch.distributed as dist

from rlvr.core.errors import DataError
from rlvr.core.types import Rollout

BUCKET_ELEMENTS = 1 << 25  # gradients are all-reduced in flat buckets of at most this many elements


def all_reduce_sum(values: Sequence[float], device: torch.device) -> list[float]:
    """Sum a short list of numbers across ranks (float64, so counts stay exact)."""
    t = torch.tensor(list(values), dtype=torch.float64, device=device)
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t.tolist()


def all_reduce_gradients(params: Sequence[torch.nn.Parameter]) -> None:
    """Replace every parameter's gradient by its sum over ranks (a missing gradient counts as zero).

    A parameter that has no gradient on any rank keeps `grad=None`, as in a single process, so the optimizer
    skips it there too.
    """
    if not params:
        return
    device = params[0].device
    has = torch.tensor([p.grad is not None for p in params], dtype=torch.int32, device=device)
    dist.all_reduce(has, op=dist.ReduceOp.MAX)
    live = [p for p, h in zip(params, has.tolist()) if h]
    for p in live:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    by_dtype: dict[torch.dtype, list[torch.nn.Parameter]] = {}
    for p in live:
        by_dtype.setdefault(p.grad.dtype, []).append(p)  # type: ignore[union-attr]
    for group in by_dtype.values():
        bucket: list[torch.nn.Parameter] = []
        size = 0
        for p in [*group, None]:
            if p is not None and (size + p.numel() <= BUCKET_ELEMENTS or not bucket):
                bucket.append(p)
                size += p.numel()
                continue
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])  # type: ignore[union-attr]
            dist.all_reduce(flat, op=dist.ReduceOp.SUM)
            offset = 0
            for q in bucket:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))  # type: ignore[union-attr]
                offset += n
            bucket, size = ([p], p.numel()) if p is not None else ([], 0)


def broadcast_parameters(model: torch.nn.Module, src: int = 0) -> None:
    """Copy rank `src`'s parameters and buffers to every rank (identical starting points)."""
    with torch.no_grad():
        for tensor in [*model.parameters(), *model.buffers()]:
            dist.broadcast(tensor.data, src=src)


def data_parallel_step(
    learner: Any, rollouts: Sequence[Rollout], weights: np.ndarray | None = None
) -> dict[str, float]:
    """One synchronous optimizer step on this rank's `rollouts`; every rank must call it. Returns global metrics."""
    start = time.perf_counter()
    if len(rollouts) == 0:
        raise DataError("a learner rank got no rollouts; every rank needs a non-empty slice of the batch")
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float32).reshape(-1)
        if w.shape[0] != len(rollouts) or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise DataError(
                f"weights must be {len(rollouts)} finite non-negative numbers, got shape {w.shape}"
            )
    cfg, model, device = learner.config, learner.model, learner.device
    local_tokens = float(sum(r.num_tokens for r in rollouts))
    total_seqs, total_tokens = all_reduce_sum([len(rollouts), local_tokens], device)
    mbs = cfg.micro_batch_size
    order = sorted(range(len(rollouts)), key=lambda i: rollouts[i].prompt_ids.size + rollouts[i].num_tokens)
    model.train()
    learner.optimizer.zero_grad(set_to_none=True)
    sums: dict[str, float] = {}
    loss_total = 0.0
    for lo in range(0, len(rollouts), mbs):
        chunk = order[lo : lo + mbs]
        batch = learner.collate([rollouts[i] for i in chunk])
        out = learner.compute_loss(
            batch,
            None if w is None else w[chunk],
            token_normalizer=total_tokens,
            sequence_normalizer=total_seqs,
        )
        out.loss.backward()
        loss_total += float(out.loss.detach())
        n_tok = out.metrics.get("tokens", float(batch.num_tokens))
        for key, value in out.metrics.items():
            if key != "tokens":
                sums[key] = sums.get(key, 0.0) + value * n_tok
    params = [p for p in model.parameters() if p.requires_grad]
    all_reduce_gradients(params)
    with_grad = [p for p in params if p.grad is not None]
    max_norm = cfg.max_grad_norm if cfg.max_grad_norm is not None else float("inf")
    grad_norm = float(torch.nn.utils.clip_grad_norm_(with_grad, max_norm)) if with_grad else 0.0
    lr = float(learner.optimizer.param_groups[0]["lr"])
    if math.isfinite(grad_norm):  # the same on every rank: the gradients are identical after the sum
        learner.optimizer.step()
        learner.scheduler.step()
    learner.optimizer.zero_grad(set_to_none=True)
    learner.step += 1
    keys = sorted(sums)  # every rank runs the same loss, so the metric names agree
    reduced = all_reduce_sum([loss_total, *(sums[k] for k in keys)], device)
    elapsed = time.perf_counter() - start
    metrics = {k: v / max(total_tokens, 1.0) for k, v in zip(keys, reduced[1:])}
    metrics.update(
        loss=reduced[0],
        grad_norm=grad_norm,
        lr=lr,
        tokens=total_tokens,
        samples=total_seqs,
        skipped_nonfinite=float(not math.isfinite(grad_norm)),
        step_time_s=elapsed,
        samples_per_s=total_seqs / elapsed if elapsed > 0 else 0.0,
    )
    return metrics
