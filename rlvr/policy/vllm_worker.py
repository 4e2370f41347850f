"""Code that runs inside vLLM's worker process (loaded there by `worker_extension_cls`); imports only torch.

vLLM's in-place `reload_weights` re-processes every layer that received weights (on CPU this repacks the
linear kernels), but a tied `lm_head` receives none: the checkpoint has no `lm_head.weight` and vLLM's
loader skips it for tied models. vLLM then puts the old lm_head tensors back, so the output layer silently
keeps the previous embedding. `rlvr_reload_weights` reloads and then re-ties the head to the new embedding
and re-runs its post-load processing.
"""

from __future__ import annotations

from typing import Any


def _submodule(model: Any, names: tuple[str, ...]) -> Any:
    for name in names:
        try:
            return model.get_submodule(name)
        except AttributeError:
            continue
    return None


def retie_lm_head(model: Any, hf_config: Any) -> bool:
    """Point a tied lm_head at the (new) input embedding and rebuild its kernels; False if not tied."""
    text_config = hf_config.get_text_config() if hasattr(hf_config, "get_text_config") else hf_config
    if not getattr(text_config, "tie_word_embeddings", False):
        return False
    head = _submodule(model, ("lm_head", "language_model.lm_head"))
    embed = _submodule(model, ("model.embed_tokens", "language_model.model.embed_tokens", "embed_tokens"))
    if head is None or embed is None or not hasattr(head, "weight") or not hasattr(embed, "weight"):
        return False
    head.weight = embed.weight
    method = getattr(head, "quant_method", None)
    if method is not None and hasattr(method, "process_weights_after_loading"):
        method.process_weights_after_loading(head)
    return True


class WeightSyncExtension:
    """Mixed into vLLM's worker class; its methods are called with `llm.collective_rpc(name, kwargs=...)`."""

    def rlvr_reload_weights(self, weights_path: str) -> bool:
        """Reload weights in place from a safetensors dir, then re-tie embeddings; returns whether it re-tied."""
        worker: Any = self
        worker.reload_weights(weights_path=weights_path)
        runner = worker.model_runner
        return retie_lm_head(runner.get_model(), runner.model_config.hf_config)
