"""Gymnasium environments over tasks and verifiers: single-turn, multi-turn feedback, batched GRPO rollouts.

`import rlvr` registers the built-ins (`gymnasium.make("rlvr/MATH-v0")`); `rlvr.register_env` adds yours.
Names are loaded lazily so that importing this package does not import datasets, sympy or the sandbox.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ENVS": "rlvr.envs.registration",
    "EnvRecipe": "rlvr.envs.registration",
    "make_env": "rlvr.envs.registration",
    "register_env": "rlvr.envs.registration",
    "unregister_env": "rlvr.envs.registration",
    "VerifiedEnv": "rlvr.envs.verified_env",
    "REWARDS": "rlvr.envs.verified_env",
    "FeedbackEnv": "rlvr.envs.feedback_env",
    "describe_verdict": "rlvr.envs.feedback_env",
    "PromptTemplate": "rlvr.envs.templates",
    "TEMPLATES": "rlvr.envs.templates",
    "register_template": "rlvr.envs.templates",
    "LLMText": "rlvr.envs.spaces",
    "ChatMessages": "rlvr.envs.spaces",
    "hindsight_fns": "rlvr.envs.hindsight",
    "BatchedEnv": "rlvr.envs.batched",
    "PromptBatch": "rlvr.envs.batched",
    "StepBatch": "rlvr.envs.batched",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rlvr.envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
