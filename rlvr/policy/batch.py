"""Collating rollouts into padded tensors for the learner.

Layout (B rows): prompts left-padded to P columns, completions right-padded to T columns, so every
completion starts at column P and the logits that predict completion tokens are the last T+1 positions
minus one. Position ids count real tokens only, exactly as `generate` numbers a left-padded prompt, so the
learner sees each token at the same position the sampler did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from rlvr.core.errors import DataError
from rlvr.core.types import Rollout


@dataclass(frozen=True)
class TokenBatch:
    """Padded tensors of B rollouts: P = longest prompt, T = longest completion, L = P + T."""

    input_ids: torch.Tensor
    """(B, L) prompt (left-padded) then completion (right-padded) token ids."""
    attention_mask: torch.Tensor
    """(B, L) 1 on real tokens."""
    position_ids: torch.Tensor
    """(B, L) position of each real token counted from the row's first real token (0 on padding)."""
    completion_ids: torch.Tensor
    """(B, T) completion token ids (pad on padding)."""
    completion_mask: torch.Tensor
    """(B, T) float 1.0 on completion tokens."""
    behaviour_logprobs: torch.Tensor
    """(B, T) frozen behaviour log-probs (0 on padding)."""
    advantages: torch.Tensor
    """(B,) frozen advantages."""
    rewards: torch.Tensor
    """(B,) rewards."""
    group_means: torch.Tensor
    """(B,) generation-group mean rewards (V-hat)."""

    @property
    def num_tokens(self) -> int:
        """Number of real completion tokens."""
        return int(self.completion_mask.sum().item())

    def __len__(self) -> int:
        return int(self.input_ids.shape[0])

    def rows(self, index: slice) -> TokenBatch:
        """The sub-batch of rows `index` (columns unchanged)."""
        return TokenBatch(**{k: getattr(self, k)[index] for k in self.__dataclass_fields__})

    def to(self, device: torch.device | str) -> TokenBatch:
        """The same batch on `device`."""
        return TokenBatch(**{k: getattr(self, k).to(device) for k in self.__dataclass_fields__})


def collate(rollouts: Sequence[Rollout], pad_id: int) -> TokenBatch:
    """Pad rollouts into a `TokenBatch` (see the module docstring for the layout)."""
    if not rollouts:
        raise DataError("cannot collate an empty list of rollouts; sample at least one")
    for r in rollouts:
        if r.prompt_ids.size == 0:
            raise DataError(
                f"rollout of example {r.example_key!r} has no prompt_ids; store token ids in rollouts"
            )
    b = len(rollouts)
    p = max(int(r.prompt_ids.size) for r in rollouts)
    t = max(int(r.completion_ids.size) for r in rollouts)
    input_ids = np.full((b, p + t), pad_id, dtype=np.int64)
    attention = np.zeros((b, p + t), dtype=np.int64)
    comp_ids = np.full((b, t), pad_id, dtype=np.int64)
    comp_mask = np.zeros((b, t), dtype=np.float32)
    behaviour = np.zeros((b, t), dtype=np.float32)
    for i, r in enumerate(rollouts):
        np_, nc = int(r.prompt_ids.size), int(r.completion_ids.size)
        input_ids[i, p - np_ : p] = r.prompt_ids
        input_ids[i, p : p + nc] = r.completion_ids
        attention[i, p - np_ : p + nc] = 1
        comp_ids[i, :nc] = r.completion_ids
        comp_mask[i, :nc] = 1.0
        behaviour[i, :nc] = r.behaviour_logprobs
    positions = np.clip(np.cumsum(attention, axis=1) - 1, 0, None)
    return TokenBatch(
        input_ids=torch.from_numpy(input_ids),
        attention_mask=torch.from_numpy(attention),
        position_ids=torch.from_numpy(positions),
        completion_ids=torch.from_numpy(comp_ids),
        completion_mask=torch.from_numpy(comp_mask),
        behaviour_logprobs=torch.from_numpy(behaviour),
        advantages=torch.tensor([r.advantage for r in rollouts], dtype=torch.float32),
        rewards=torch.tensor([r.reward for r in rollouts], dtype=torch.float32),
        group_means=torch.tensor([r.group_mean for r in rollouts], dtype=torch.float32),
    )
