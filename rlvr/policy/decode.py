"""A lean sampling loop over a transformers causal LM and its KV cache (the HF backend's default decoder).

Compared with `model.generate` it (1) prefills each distinct prompt once and copies its KV cache to the n
samples (`DynamicCache.batch_repeat_interleave`), (2) drops finished rows from the batch and the cache
(`batch_select_indices`) so later steps only compute live sequences, (3) samples with its own seeded
`torch.Generator` (no global RNG state) and reads each sampled token's log-prob from the very distribution it
was drawn from. Sampling semantics are those of transformers' warpers: temperature, then top-k, then top-p.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from rlvr.policy.base import SamplingParams


def filter_logits(logits: torch.Tensor, sampling: SamplingParams) -> torch.Tensor:
    """Tempered, top-k / top-p filtered logits (B, V); filtered entries are -inf. Greedy: raw logits."""
    if sampling.temperature == 0:
        return logits
    logits = logits / sampling.temperature
    if sampling.top_k > 0 and sampling.top_k < logits.shape[-1]:
        kth = torch.topk(logits, sampling.top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if sampling.top_p < 1.0:
        # keep the smallest set of most likely tokens whose mass reaches top_p (always at least one)
        sorted_logits, order = torch.sort(logits, descending=False, dim=-1)
        cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        remove_sorted = cumulative <= (1.0 - sampling.top_p)
        remove_sorted[..., -1:] = False
        remove = remove_sorted.scatter(-1, order, remove_sorted)
        logits = logits.masked_fill(remove, float("-inf"))
    return logits


def _stop_hit(tokenizer: Any, ids: list[int], stop: Sequence[str], window: int) -> bool:
    tail = tokenizer.decode(ids[-window:], skip_special_tokens=True)
    return any(s in tail for s in stop)


@torch.no_grad()
def sample(
    model: Any,
    prompt_ids: Sequence[Sequence[int]],
    n: int,
    sampling: SamplingParams,
    *,
    eos_ids: Sequence[int],
    pad_id: int,
    generator: torch.Generator,
    tokenizer: Any = None,
    on_done: Callable[[int], None] | None = None,
) -> tuple[list[list[int]], list[list[float]]]:
    """Sample `n` completions per prompt; returns token ids and their log-probs, prompt-major (row p*n + j).

    `on_done(k)` is called whenever k rows finish (a progress bar moves per completion, not per batch).

    Rows stop at an EOS (kept) or, when `tokenizer` is given, once a stop string shows up in the decoded tail;
    the exact cut is left to `prompts.finish_completion`.
    """
    from transformers import DynamicCache

    device = next(model.parameters()).device
    width = max(len(p) for p in prompt_ids)
    rows = len(prompt_ids)
    input_ids = torch.full((rows, width), pad_id, dtype=torch.long)
    attention = torch.zeros((rows, width), dtype=torch.long)
    for r, ids in enumerate(prompt_ids):  # left padding, positions counted from each prompt's first token
        input_ids[r, width - len(ids) :] = torch.tensor(list(ids), dtype=torch.long)
        attention[r, width - len(ids) :] = 1
    positions = (attention.cumsum(-1) - 1).clamp(min=0)
    input_ids, attention, positions = input_ids.to(device), attention.to(device), positions.to(device)

    cache = DynamicCache(config=model.config)
    out = model(
        input_ids=input_ids,
        attention_mask=attention,
        position_ids=positions,
        past_key_values=cache,
        use_cache=True,
        logits_to_keep=1,
    )
    logits = out.logits[:, -1].float()
    if n > 1:  # one prefill per distinct prompt, then n copies of its cache
        cache.batch_repeat_interleave(n)
        logits = logits.repeat_interleave(n, dim=0)
        attention = attention.repeat_interleave(n, dim=0)
        positions = positions.repeat_interleave(n, dim=0)

    total = rows * n
    tokens: list[list[int]] = [[] for _ in range(total)]
    logprobs: list[list[float]] = [[] for _ in range(total)]
    live = torch.arange(total, device=device)  # original row of each row still in the batch
    next_pos = positions[:, -1] + 1
    eos = torch.tensor(list(eos_ids), dtype=torch.long, device=device)
    stop = tuple(sampling.stop) if tokenizer is not None else ()
    window = max((len(s) for s in stop), default=0) + 8
    # attention mask for prompt + all new tokens, allocated once and sliced per step
    mask = torch.cat(
        [attention, torch.ones((total, sampling.max_new_tokens), dtype=attention.dtype, device=device)], 1
    )
    for step in range(sampling.max_new_tokens):
        scores = filter_logits(logits, sampling)
        log_probs = torch.log_softmax(scores, dim=-1)
        if sampling.temperature == 0:
            chosen = scores.argmax(dim=-1)
        else:
            chosen = torch.multinomial(log_probs.exp(), 1, generator=generator)[:, 0]
        picked = log_probs.gather(1, chosen[:, None])[:, 0]
        chosen_list, picked_list, live_list = chosen.tolist(), picked.tolist(), live.tolist()
        finished = torch.isin(chosen, eos)
        for i, row in enumerate(live_list):
            tokens[row].append(chosen_list[i])
            logprobs[row].append(picked_list[i])
        if stop:
            hits = [_stop_hit(tokenizer, tokens[row], stop, window) for row in live_list]
            finished |= torch.tensor(hits, dtype=torch.bool, device=device)
        if step == sampling.max_new_tokens - 1:
            if on_done is not None:
                on_done(int(live.numel()))  # the rest stop at the length limit
            break
        if on_done is not None and bool(finished.any()):
            on_done(int(finished.sum()))
        keep = (~finished).nonzero()[:, 0]
        if keep.numel() == 0:
            break
        if keep.numel() < live.numel():  # drop finished rows from the batch and the cache
            cache.batch_select_indices(keep)
            live, chosen, next_pos, mask = live[keep], chosen[keep], next_pos[keep], mask[keep]
        out = model(
            input_ids=chosen[:, None],
            attention_mask=mask[:, : width + step + 1],
            position_ids=next_pos[:, None],
            past_key_values=cache,
            use_cache=True,
        )
        logits = out.logits[:, -1].float()
        next_pos = next_pos + 1
    return tokens, logprobs
