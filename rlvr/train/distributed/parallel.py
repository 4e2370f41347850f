"""The data-parallel `reduce` hook of `Learner.train_step` over a torch.distributed group (gloo/nccl).

There is one optimizer step (`Learner.train_step`); under data parallelism each rank runs it on its slice of
the batch with `reduce=AllReduce(device)`. The loss of every micro-batch is then normalised by the *global*
token and sequence counts (all-reduced first), and gradients are *summed* across ranks before clipping, so
the update equals the one a single process takes on the whole batch, whatever the aggregation (token mean,
sequence mean, Dr. GRPO). The optimizers stay in lockstep: all ranks hold identical parameters after every
step. With two ranks whose slices are one micro-batch each (cut in `micro_batch_order`), the sum g0 + g1 is
the same float addition a single process does when it accumulates those two micro-batches, so the update is
bit for bit the single-process one (tests/test_distributed.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.distributed as dist

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
        for item in [*group, None]:
            if item is not None and (size + item.numel() <= BUCKET_ELEMENTS or not bucket):
                bucket.append(item)
                size += item.numel()
                continue
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])  # type: ignore[union-attr]
            dist.all_reduce(flat, op=dist.ReduceOp.SUM)
            offset = 0
            for q in bucket:
                n = q.numel()
                grad = q.grad
                assert grad is not None  # `live` holds only parameters with a gradient
                grad.copy_(flat[offset : offset + n].view_as(grad))
                offset += n
            bucket, size = ([item], item.numel()) if item is not None else ([], 0)


def broadcast_parameters(model: torch.nn.Module, src: int = 0) -> None:
    """Copy rank `src`'s parameters and buffers to every rank (identical starting points)."""
    with torch.no_grad():
        for tensor in [*model.parameters(), *model.buffers()]:
            dist.broadcast(tensor.data, src=src)


class AllReduce:
    """`Learner.train_step`'s `reduce` hook over the process group: sums numbers and gradients across ranks."""

    def __init__(self, device: torch.device) -> None:
        self.device = device

    def sum(self, values: Sequence[float]) -> list[float]:
        """The values summed over ranks (float64)."""
        return all_reduce_sum(values, self.device)

    def gradients(self, params: Sequence[torch.nn.Parameter]) -> None:
        """Every gradient summed over ranks, in flat buckets."""
        all_reduce_gradients(params)
