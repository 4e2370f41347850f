"""Frozen records shared by every layer: what a task yields, what a verifier says, what the learner trains on."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

#: A chat message as transformers' chat templates expect it: {"role": ..., "content": ...}.
Message = Mapping[str, str]
#: What a model is prompted with: plain text, or chat messages that the policy side renders with a template.
Prompt = str | tuple[Message, ...]


class Reason(StrEnum):
    """Why a verifier gave its score; a `StrEnum`, so `verdict.reason == "correct"` works too."""

    CORRECT = "correct"
    WRONG = "wrong"
    NO_ANSWER = "no_answer"
    TIMEOUT = "timeout"
    UNPARSABLE_GOLD = "unparsable_gold"
    ERROR = "error"
    # code verifier
    PASSED = "passed"
    SYNTAX_ERROR = "syntax_error"
    RUNTIME_ERROR = "runtime_error"
    WRONG_ANSWER = "wrong_answer"
    MEMORY = "memory"
    NO_CODE = "no_code"


@dataclass(frozen=True)
class Verdict:
    """A verifier's judgement of one completion: `score` in [0, 1], `passed`, a `reason` and free-form details."""

    score: float
    passed: bool
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (
            isinstance(self.score, int | float) and math.isfinite(self.score) and 0.0 <= self.score <= 1.0
        ):
            raise ValueError(f"Verdict.score must be a finite number in [0, 1], got {self.score!r}")
        # store plain strings so verdicts print, pickle and serialise to JSON without the enum type
        object.__setattr__(self, "reason", str(self.reason))

    @classmethod
    def correct(cls, **details: Any) -> Verdict:
        """A full-credit verdict."""
        return cls(1.0, True, Reason.CORRECT, details)

    @classmethod
    def fail(cls, reason: str, score: float = 0.0, **details: Any) -> Verdict:
        """A failing verdict with the given reason (and optional partial score)."""
        return cls(score, False, reason, details)


@dataclass(frozen=True)
class Example:
    """One task instance: the prompt shown to the model, the reference a verifier grades against, metadata.

    `key` is a stable content hash (same example -> same key across runs and machines), `task` the source's
    registry name, `reference` whatever the task's verifier takes (a gold answer string for math, a test
    specification for code, a target for goal tasks), `goal` the goal of goal-conditioned tasks (hindsight).
    """

    key: str
    prompt: Prompt
    reference: Any
    task: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    goal: Any = None


def _frozen_array(values: Any, dtype: Any) -> np.ndarray:
    arr = np.array(values, dtype=dtype, copy=True).reshape(-1)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class Rollout:
    """One sampled completion of one prompt, frozen at generation time: the replay buffer's unit.

    The advantage, group mean and behaviour log-probs are computed when the rollout is generated (over its
    whole generation group) and are never recomputed on reuse (PAPER.md section 2). Token arrays are
    read-only numpy arrays: `prompt_ids` (P,), `completion_ids` (C,), `behaviour_logprobs` (C,) float32.
    """

    example_key: str
    prompt: str
    completion: str
    prompt_ids: np.ndarray
    completion_ids: np.ndarray
    behaviour_logprobs: np.ndarray
    verdict: Verdict
    reward: float
    advantage: float = 0.0
    group_id: str = ""
    group_mean: float = 0.0
    group_size: int = 1
    policy_version: int = 0
    created_step: int = 0
    goal: Any = None
    relabeled: bool = False
    finish_reason: str = "stop"
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prompt_ids", _frozen_array(self.prompt_ids, np.int64))
        object.__setattr__(self, "completion_ids", _frozen_array(self.completion_ids, np.int64))
        object.__setattr__(self, "behaviour_logprobs", _frozen_array(self.behaviour_logprobs, np.float32))
        if self.behaviour_logprobs.shape != self.completion_ids.shape:
            raise ValueError(
                f"Rollout.behaviour_logprobs has {self.behaviour_logprobs.shape[0]} entries but completion_ids "
                f"has {self.completion_ids.shape[0]}: give one behaviour log-prob per completion token"
            )
        if not math.isfinite(self.reward) or not math.isfinite(self.advantage):
            raise ValueError(
                f"Rollout reward/advantage must be finite, got {self.reward!r}/{self.advantage!r}"
            )

    @property
    def correct(self) -> bool:
        """Whether the verifier passed this completion."""
        return self.verdict.passed

    @property
    def num_tokens(self) -> int:
        """Number of completion tokens."""
        return int(self.completion_ids.shape[0])


@dataclass(frozen=True)
class Turn:
    """One step of a (possibly multi-turn) episode: what the policy saw, what it answered, what it got."""

    observation: Prompt
    action: str
    reward: float
    verdict: Verdict | None = None


@dataclass(frozen=True)
class Trajectory:
    """A finished episode: its turns, final reward, and Gymnasium's `terminated`/`truncated` kept apart."""

    example_key: str
    turns: tuple[Turn, ...]
    reward: float
    terminated: bool
    truncated: bool
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def final_verdict(self) -> Verdict | None:
        """The verdict of the last turn that has one."""
        for turn in reversed(self.turns):
            if turn.verdict is not None:
                return turn.verdict
        return None
