"""The worker-side re-tie of lm_head after an in-place reload (plain torch modules; vLLM is not needed)."""

from __future__ import annotations

from types import SimpleNamespace

import torch
from torch import nn

from rlvr.policy.vllm_worker import retie_lm_head


class _Head(nn.Module):
    def __init__(self, weight: nn.Parameter) -> None:
        super().__init__()
        self.weight = weight
        self.processed_with: torch.Tensor | None = None
        self.quant_method = SimpleNamespace(process_weights_after_loading=self._process)

    def _process(self, layer: nn.Module) -> None:
        self.processed_with = layer.weight.detach().clone()  # stands in for vLLM's CPU kernel repacking


class _Model(nn.Module):
    """Mimics vLLM's state after `reload_weights` on a tied model: new embedding, head left on the old tensor."""

    def __init__(self) -> None:
        super().__init__()
        self.model = nn.Module()
        self.model.embed_tokens = nn.Embedding(11, 4)
        self.lm_head = _Head(nn.Parameter(torch.zeros(11, 4)))


def test_retie_points_the_head_at_the_new_embedding_and_reprocesses_it():
    model = _Model()
    assert retie_lm_head(model, SimpleNamespace(tie_word_embeddings=True))
    assert model.lm_head.weight is model.model.embed_tokens.weight
    assert torch.equal(model.lm_head.processed_with, model.model.embed_tokens.weight)


def test_untied_models_are_left_alone():
    model = _Model()
    old = model.lm_head.weight
    assert not retie_lm_head(model, SimpleNamespace(tie_word_embeddings=False))
    assert model.lm_head.weight is old and model.lm_head.processed_with is None
