"""Policy layer: model loading, generation backends (transformers, vLLM), losses and the learner.

Imports only `rlvr.core`; vLLM is imported lazily, only when a vLLM backend is built.
"""

from rlvr.policy.backends import BACKENDS, make_backend
from rlvr.policy.base import Generation, GenerationBackend, SamplingParams
from rlvr.policy.batch import TokenBatch, collate
from rlvr.policy.hf_backend import HFBackend
from rlvr.policy.learner import OPTIMIZERS, Learner, LearnerConfig
from rlvr.policy.losses import AGGREGATIONS, LOSSES, LossBatch, LossOutput, asymre_loss, grpo_loss
from rlvr.policy.models import MODEL_ALIASES, load_model, resolve_model_path, tiny_model

__all__ = [
    "AGGREGATIONS",
    "BACKENDS",
    "LOSSES",
    "MODEL_ALIASES",
    "OPTIMIZERS",
    "Generation",
    "GenerationBackend",
    "HFBackend",
    "Learner",
    "LearnerConfig",
    "LossBatch",
    "LossOutput",
    "SamplingParams",
    "TokenBatch",
    "asymre_loss",
    "collate",
    "grpo_loss",
    "load_model",
    "make_backend",
    "resolve_model_path",
    "tiny_model",
]
