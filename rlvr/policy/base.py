"""The generation-backend contract: prompts in, completions with token ids and behaviour log-probs out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.types import Prompt


@dataclass(frozen=True)
class SamplingParams:
    """How to sample completions (shared by all backends)."""

    temperature: float = 1.0
    """Softmax temperature; 0 means greedy. Behaviour log-probs are those of the tempered distribution."""
    top_p: float = 1.0
    """Nucleus sampling mass in (0, 1]; 1 disables it."""
    top_k: int = 0
    """Keep only the k most likely tokens; 0 disables it."""
    max_new_tokens: int = 256
    """Upper bound on completion length; longer completions end with finish_reason 'length'."""
    stop: tuple[str, ...] = ()
    """Extra strings that end a completion (the tokenizer's EOS always does)."""
    seed: int | None = None
    """Seed for this call's sampling; None draws from the backend's own seeded stream."""

    def __post_init__(self) -> None:
        if self.temperature < 0:
            raise ConfigError(f"temperature must be >= 0 (0 = greedy), got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            raise ConfigError(
                f"top_p must be in (0, 1], got {self.top_p}; use 1.0 to disable nucleus sampling"
            )
        if self.top_k < 0:
            raise ConfigError(f"top_k must be >= 0 (0 disables it), got {self.top_k}")
        if self.max_new_tokens < 1:
            raise ConfigError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")


@dataclass(frozen=True, eq=False)
class Generation:
    """One sampled completion: text, token ids (C,), behaviour log-probs (C,) float32 and why it stopped."""

    prompt: str
    prompt_ids: np.ndarray
    completion: str
    completion_ids: np.ndarray
    logprobs: np.ndarray
    finish_reason: str = "stop"
    """'stop' (EOS or a stop string) or 'length' (hit max_new_tokens)."""
    metadata: Mapping[str, object] = field(default_factory=dict)


class GenerationBackend(ABC):
    """Samples n completions per prompt and accepts new weights from the learner."""

    #: Version of the weights currently loaded (incremented by the learner on each sync).
    policy_version: int = 0
    #: Called with how many completions just finished, while `generate` runs (a progress bar's `update`);
    #: None: not called. Backends call it as their engine reports finished sequences.
    on_completions: Callable[[int], None] | None = None

    @abstractmethod
    def generate(self, prompts: Sequence[Prompt], n: int, sampling: SamplingParams) -> list[list[Generation]]:
        """Return, for each prompt, `n` generations (chat-message prompts get the model's chat template)."""

    @abstractmethod
    def load_weights(self, state_dict: Mapping[str, object], version: int) -> None:
        """Replace the generation weights in place with the learner's `state_dict` (tensors by name)."""

    def close(self) -> None:
        """Release engines, processes and memory held by the backend."""
        return None
