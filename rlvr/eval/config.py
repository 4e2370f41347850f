"""`EvalConfig`: every knob of an evaluation run, validated before any model is loaded or sample generated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.eval.metrics import check_ks, default_ks
from rlvr.policy.base import SamplingParams

#: metadata fields that get their own rows in the report when the examples carry them
DEFAULT_GROUP_BY = ("level", "subject", "difficulty")


@dataclass(frozen=True)
class EvalConfig:
    """How to evaluate: which env, how many samples, how to sample, where to write (see `rlvr eval --help`)."""

    env: str = "rlvr/MATH500-v0"
    """Registered env id (`rlvr envs list`): its task gives the examples, its verifier and template grade."""
    env_options: Mapping[str, Any] = field(default_factory=dict)
    """Options of the env and its task loader, e.g. {"split": "test", "path": "data/math/"}."""
    samples: int = 1
    """Completions generated per problem (n of pass@k)."""
    ks: tuple[int, ...] | None = None
    """k values of pass@k and maj@k; None = 1, 2, 4, ... up to `samples`."""
    temperature: float = 0.6
    """Sampling temperature (0 = greedy; use > 0 with samples > 1)."""
    top_p: float = 0.95
    """Nucleus sampling mass (1 disables it)."""
    top_k: int = 0
    """Top-k filter (0 disables it)."""
    max_new_tokens: int = 1024
    """Longest completion; longer ones are cut and counted in `truncated_rate`."""
    seed: int = 0
    """Seed of the sampling (and of the example order with `shuffle`)."""
    limit: int | None = None
    """Evaluate only this many problems (the first ones, or a seeded random subset with `shuffle`)."""
    shuffle: bool = False
    """Draw the `limit` problems at random (seeded) instead of taking the first ones."""
    batch_size: int = 16
    """Problems per generation call (each with `samples` completions); results are saved after each."""
    chat: bool | None = None
    """Render prompts as chat messages (the model's chat template); None = yes if the tokenizer has one."""
    num_workers: int = 2
    """Verifier pool worker processes (hard-killed timeouts); 0 grades in this process."""
    timeout_s: float = 10.0
    """Time limit of one verification in the pool."""
    output_dir: str | None = None
    """Where samples.jsonl, summary.json, report.md and plot.png go; None writes nothing."""
    resume: bool = True
    """Reuse the samples already in output_dir/samples.jsonl that have the same settings."""
    group_by: tuple[str, ...] = DEFAULT_GROUP_BY
    """Example metadata fields reported as separate rows (only those the examples have)."""
    backend: str = "hf"
    """Generation backend when a model name is given: 'hf' (transformers) or 'vllm'."""
    dtype: str = "float32"
    """Model dtype when a model name is given (float32, bfloat16, float16)."""
    backend_options: Mapping[str, Any] = field(default_factory=dict)
    """Extra options of the backend built from a model name, e.g. {"max_model_len": 4096} for vLLM."""
    model_name: str | None = None
    """Label of the model in the report and the settings hash; None = taken from the backend."""
    progress: bool = True
    """Show progress bars."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "env_options", MappingProxyType(dict(self.env_options)))
        object.__setattr__(self, "backend_options", MappingProxyType(dict(self.backend_options)))
        if not isinstance(self.samples, int) or self.samples < 1:
            raise ConfigError(
                f"samples must be a positive int (completions per problem), got {self.samples!r}"
            )
        if self.ks is not None:
            object.__setattr__(self, "ks", check_ks(self.ks, self.samples))
        if self.limit is not None and (not isinstance(self.limit, int) or self.limit < 1):
            raise ConfigError(f"limit must be a positive int or None (all problems), got {self.limit!r}")
        if not isinstance(self.batch_size, int) or self.batch_size < 1:
            raise ConfigError(
                f"batch_size must be a positive int (problems per call), got {self.batch_size!r}"
            )
        if self.num_workers < 0:
            raise ConfigError(f"num_workers must be >= 0 (0 = grade in this process), got {self.num_workers}")
        if not self.timeout_s > 0:
            raise ConfigError(f"timeout_s must be > 0 seconds, got {self.timeout_s}")
        if "chat" in self.env_options:
            raise ConfigError(
                "pass chat=True/False as EvalConfig.chat (CLI: --chat/--no-chat), not an env option"
            )
        object.__setattr__(self, "group_by", tuple(self.group_by))
        self.sampling()  # SamplingParams validates temperature, top_p, top_k, max_new_tokens

    def sampling(self) -> SamplingParams:
        """The sampling parameters of this evaluation (the per-batch seed is set by the runner)."""
        return SamplingParams(
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=self.top_k,
            max_new_tokens=self.max_new_tokens,
            seed=self.seed,
        )

    @property
    def k_values(self) -> tuple[int, ...]:
        """The k values reported: `ks`, or 1, 2, 4, ... up to `samples`."""
        return default_ks(self.samples) if self.ks is None else tuple(self.ks)

    @property
    def samples_path(self) -> Path | None:
        """output_dir/samples.jsonl, or None without an output dir."""
        return Path(self.output_dir) / "samples.jsonl" if self.output_dir else None

    def replace(self, **changes: Any) -> EvalConfig:
        """A copy with some fields changed (validated again)."""
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise ConfigError(
                f"unknown evaluation settings {sorted(unknown)}; valid ones are {sorted(self.__dataclass_fields__)}"
            )
        return replace(self, **changes)
