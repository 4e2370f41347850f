"""The learner: log-probs of rollouts under the current policy, and one optimizer step per batch.

`Learner.train_step(rollouts, weights, reduce=...)` is the one optimizer step of both runtimes: it collates
the rollouts, splits them into prompt-grouped micro-batches (`micro_batch_order`), computes the registered
loss on each (normalised by whole-batch counts, so accumulated gradients equal the full-batch gradient),
clips the gradient norm and takes one optimizer step. `reduce` joins data-parallel ranks (sums of the counts
and of the gradients before clipping); in one process it is a no-op. Log-probs are log_softmax(logits / T) with
the config's temperature, the same distribution the generation backends report behaviour log-probs from
(with top_k=0, top_p=1), so a fresh rollout has importance ratio 1.
"""

from __future__ import annotations

import copy
import inspect
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.registry import Registry
from rlvr.core.types import Rollout
from rlvr.policy.batch import TokenBatch, collate
from rlvr.policy.losses import AGGREGATIONS, LOSSES, LossBatch, LossOutput

#: name -> factory(params, config) building the optimizer from a LearnerConfig
OptimizerFactory = Callable[[list[torch.nn.Parameter], "LearnerConfig"], torch.optim.Optimizer]
OPTIMIZERS: Registry[OptimizerFactory] = Registry("optimizer")


def _fusable(params: list[torch.nn.Parameter]) -> bool:
    # the fused Adam kernels (CPU and CUDA) are several times faster than the per-tensor loop
    return bool(params) and all(p.is_floating_point() and p.device.type in ("cpu", "cuda") for p in params)


@OPTIMIZERS.register("adamw")
def _adamw(params: list[torch.nn.Parameter], cfg: LearnerConfig) -> torch.optim.Optimizer:
    kwargs: dict[str, Any] = {"betas": cfg.betas, "eps": cfg.adam_eps, "weight_decay": cfg.weight_decay}
    return torch.optim.AdamW(params, lr=cfg.lr, fused=_fusable(params) or None, **kwargs)


@OPTIMIZERS.register("adam")
def _adam(params: list[torch.nn.Parameter], cfg: LearnerConfig) -> torch.optim.Optimizer:
    kwargs: dict[str, Any] = {"betas": cfg.betas, "eps": cfg.adam_eps, "weight_decay": cfg.weight_decay}
    return torch.optim.Adam(params, lr=cfg.lr, fused=_fusable(params) or None, **kwargs)


@OPTIMIZERS.register("sgd")
def _sgd(params: list[torch.nn.Parameter], cfg: LearnerConfig) -> torch.optim.Optimizer:
    return torch.optim.SGD(params, lr=cfg.lr, weight_decay=cfg.weight_decay)


# config field -> loss keyword it feeds (only passed to losses whose signature takes it)
_LOSS_PARAMS = ("eps_low", "eps_high", "kl_coef", "tis_cap", "aggregation", "max_tokens", "delta_v")


@dataclass(frozen=True)
class LearnerConfig:
    """How the learner turns rollouts into an update."""

    loss: str = "grpo"
    """Name of a loss in `rlvr.policy.losses.LOSSES` ('grpo', 'asymre')."""
    lr: float = 1e-6
    """Learning rate (constant after warmup; the paper uses a constant LR)."""
    warmup_steps: int = 0
    """Linear LR warmup over this many optimizer steps (0 = none)."""
    optimizer: str = "adamw"
    """Name in OPTIMIZERS ('adamw', 'adam', 'sgd')."""
    weight_decay: float = 0.0
    """Decoupled weight decay (AdamW)."""
    betas: tuple[float, float] = (0.9, 0.999)
    """Adam betas."""
    adam_eps: float = 1e-8
    """Adam epsilon."""
    eps_low: float = 0.2
    """GRPO: lower clip range, ratio >= 1 - eps_low."""
    eps_high: float = 0.2
    """GRPO: upper clip range, ratio <= 1 + eps_high (DAPO's clip-higher uses e.g. 0.28)."""
    kl_coef: float = 0.0
    """Coefficient of the k3 KL penalty to a frozen copy of the initial model (0 = no KL, no reference)."""
    aggregation: str | None = None
    """'token_mean', 'sequence_mean', 'sequence_sum' or 'dr_grpo'; None = the loss's default."""
    max_tokens: int | None = None
    """Constant length for the 'dr_grpo' aggregation (use the rollouts' max_new_tokens)."""
    old_logprobs: str = "behaviour"
    """pi_old of the GRPO ratio: 'behaviour' (frozen at generation, the paper) or 'learner' (current weights
    before the step, detached; then `tis_cap` weights tokens by min(pi_learner / pi_behaviour, tis_cap))."""
    tis_cap: float | None = None
    """Truncated importance sampling cap (>= 1) between the learner's pi_old and the behaviour policy."""
    delta_v: float = -0.1
    """AsymRE: baseline offset, baseline = group mean + delta_v."""
    micro_batch_size: int = 8
    """Rollouts per forward/backward; gradients are accumulated over micro-batches."""
    max_grad_norm: float | None = 1.0
    """Clip the global gradient norm to this (None = no clipping; the norm is still reported)."""
    temperature: float = 1.0
    """Sampling temperature of the rollouts: log-probs are log_softmax(logits / temperature)."""
    compute_entropy: bool = True
    """Report the mean token entropy of the learner's distribution (costs one softmax per micro-batch)."""
    gradient_checkpointing: bool = False
    """Trade compute for memory in the forward pass."""
    share_prompts: bool = True
    """Run each distinct prompt of a micro-batch through the model once and reuse its KV cache for all its
    samples (same gradients, less compute; micro-batches are formed so samples of a prompt sit together)."""

    def __post_init__(self) -> None:
        if self.loss not in LOSSES:
            raise ConfigError(f"unknown loss {self.loss!r}; registered losses: {LOSSES.names()}")
        if self.optimizer not in OPTIMIZERS:
            raise ConfigError(f"unknown optimizer {self.optimizer!r}; registered: {OPTIMIZERS.names()}")
        if not (self.lr > 0 and math.isfinite(self.lr)):
            raise ConfigError(f"lr must be a positive finite number, got {self.lr}")
        if self.warmup_steps < 0:
            raise ConfigError(f"warmup_steps must be >= 0, got {self.warmup_steps}")
        if not 0.0 <= self.eps_low < 1.0 or self.eps_high < 0.0:
            raise ConfigError(
                f"clip ranges need 0 <= eps_low < 1 and eps_high >= 0, got {self.eps_low}/{self.eps_high}"
            )
        if self.kl_coef < 0:
            raise ConfigError(f"kl_coef must be >= 0 (0 disables the KL term), got {self.kl_coef}")
        if self.aggregation is not None and self.aggregation not in AGGREGATIONS:
            raise ConfigError(f"aggregation must be one of {AGGREGATIONS} or None, got {self.aggregation!r}")
        if self.aggregation == "dr_grpo" and (self.max_tokens is None or self.max_tokens < 1):
            raise ConfigError("aggregation='dr_grpo' needs max_tokens >= 1 (set it to the max_new_tokens)")
        if self.old_logprobs not in ("behaviour", "learner"):
            raise ConfigError(f"old_logprobs must be 'behaviour' or 'learner', got {self.old_logprobs!r}")
        if self.tis_cap is not None:
            if self.tis_cap < 1.0:
                raise ConfigError(f"tis_cap must be >= 1 (or None to disable TIS), got {self.tis_cap}")
            if self.old_logprobs != "learner":
                raise ConfigError(
                    "tis_cap weights tokens by pi_learner_old / pi_behaviour, which is 1 when pi_old is the "
                    "behaviour policy; set old_logprobs='learner' or drop tis_cap"
                )
        if self.micro_batch_size < 1:
            raise ConfigError(f"micro_batch_size must be >= 1, got {self.micro_batch_size}")
        if self.max_grad_norm is not None and self.max_grad_norm <= 0:
            raise ConfigError(f"max_grad_norm must be > 0 or None, got {self.max_grad_norm}")
        if not self.temperature > 0:
            raise ConfigError(
                f"temperature must be > 0, got {self.temperature}; for greedy rollouts (temperature 0) the "
                "backends report temperature-1 log-probs, so use temperature=1.0"
            )
        accepted = inspect.signature(LOSSES.get(self.loss)).parameters
        for name in _LOSS_PARAMS:
            default = next(f.default for f in fields(self) if f.name == name)
            if getattr(self, name) != default and name not in accepted:
                raise ConfigError(
                    f"{name}={getattr(self, name)!r} has no effect with loss {self.loss!r} (it takes "
                    f"{sorted(k for k in accepted if k != 'batch')}); remove it or pick a loss that uses it"
                )

    def loss_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the configured loss, taken from this config."""
        accepted = inspect.signature(LOSSES.get(self.loss)).parameters
        kwargs = {name: getattr(self, name) for name in _LOSS_PARAMS if name in accepted}
        if kwargs.get("aggregation", "") is None:
            del kwargs["aggregation"]
        return kwargs


class Reduce(Protocol):
    """How one optimizer step is joined across data-parallel ranks (a no-op in one process)."""

    def sum(self, values: Sequence[float]) -> list[float]:
        """The values summed over all ranks."""
        ...

    def gradients(self, params: Sequence[torch.nn.Parameter]) -> None:
        """Replace each parameter's gradient by its sum over all ranks (in place)."""
        ...


class NoReduce:
    """One process: nothing to join, every sum is the local one."""

    def sum(self, values: Sequence[float]) -> list[float]:
        """`values` unchanged."""
        return [float(v) for v in values]

    def gradients(self, params: Sequence[torch.nn.Parameter]) -> None:
        """Nothing: the local gradients are the whole batch's."""


NO_REDUCE = NoReduce()


def micro_batch_order(rollouts: Sequence[Rollout]) -> list[int]:
    """The order `train_step` cuts micro-batches in: samples of one prompt together, then by length.

    Samples of a prompt share its forward pass (`share_prompts`) and similar lengths pad less. Data-parallel
    runs cut a batch into rank slices in this same order (the buffer actor), so each rank's micro-batches are
    the ones one process would form; a stable sort leaves an already ordered slice as it is.
    """
    return sorted(
        range(len(rollouts)),
        key=lambda i: (rollouts[i].prompt_ids.size, rollouts[i].prompt_ids.tobytes(), rollouts[i].num_tokens),
    )


class Learner:
    """Owns the trainable model and its optimizer; turns batches of rollouts into optimizer steps."""

    def __init__(self, model: Any, tokenizer: Any, config: LearnerConfig | None = None) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.config = config or LearnerConfig()
        self.step = 0
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        if pad is None:
            raise ConfigError("the tokenizer has neither a pad nor an EOS token; set tokenizer.pad_token")
        self.pad_id = int(pad)
        if self.config.gradient_checkpointing:
            model.gradient_checkpointing_enable()
        cfg = self.config
        self.optimizer = OPTIMIZERS.get(cfg.optimizer)(
            [p for p in model.parameters() if p.requires_grad], cfg
        )
        warmup = cfg.warmup_steps
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda s: min(1.0, (s + 1) / warmup) if warmup else 1.0
        )
        self.ref_model: Any = None
        if cfg.kl_coef > 0:  # the reference is the policy as it was when the learner was built
            self.ref_model = copy.deepcopy(model).eval()
            for p in self.ref_model.parameters():
                p.requires_grad_(False)
        self._loss_fn = LOSSES.get(cfg.loss)
        self._loss_kwargs = cfg.loss_kwargs()

    @property
    def device(self) -> torch.device:
        """Device of the model's parameters."""
        return next(self.model.parameters()).device

    def collate(self, rollouts: Sequence[Rollout]) -> TokenBatch:
        """Pad rollouts into tensors on the learner's device."""
        return collate(rollouts, self.pad_id).to(self.device)

    def _forward(
        self, model: Any, batch: TokenBatch, *, with_entropy: bool
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        t = batch.completion_ids.shape[1]
        logits = self._shared_prompt_logits(model, batch) if self.config.share_prompts else None
        if logits is None:
            out = model(
                input_ids=batch.input_ids,
                attention_mask=batch.attention_mask,
                position_ids=batch.position_ids,
                logits_to_keep=t + 1,
                use_cache=False,
            )
            logits = out.logits[:, :-1, :]
        logits = logits.float()
        if self.config.temperature != 1.0:
            logits = logits / self.config.temperature
        lse = torch.logsumexp(logits, dim=-1)
        picked = logits.gather(-1, batch.completion_ids[..., None])[..., 0]
        mask = batch.completion_mask
        # where, not multiply: junk (even non-finite) values on padding must not leak into sums
        logprobs = torch.where(mask > 0, picked - lse, torch.zeros_like(lse))
        entropy = None
        if with_entropy:
            with torch.no_grad():
                probs = torch.softmax(logits.detach(), dim=-1)
                ent = lse.detach() - (probs * logits.detach()).sum(-1)
                entropy = torch.where(mask > 0, ent, torch.zeros_like(ent))
        return logprobs, entropy

    def _shared_prompt_logits(self, model: Any, batch: TokenBatch) -> torch.Tensor | None:
        """Logits (B, T, V) predicting the completion tokens, running each distinct prompt only once.

        GRPO batches hold several samples of one prompt: the prompt goes through the model once, its KV cache
        is indexed out to every row that shares it (indexing is differentiable, so gradients through the
        prompt's keys/values add up exactly as in separate passes), then only completion tokens run. Returns
        None when no two rows share a prompt (the plain single pass is then cheaper).
        """
        from transformers import DynamicCache

        t = batch.completion_ids.shape[1]
        p = batch.input_ids.shape[1] - t
        if p == 0 or t == 0 or self.config.gradient_checkpointing:
            return None
        # rows are equal prompts iff ids *and* mask agree (the pad id can be a real token, e.g. EOS)
        keys = torch.cat([batch.input_ids[:, :p], batch.attention_mask[:, :p]], dim=1)
        unique, inverse = torch.unique(keys, dim=0, return_inverse=True)
        if unique.shape[0] == keys.shape[0]:
            return None
        prompt_ids, prompt_mask = unique[:, :p], unique[:, p:]
        cache = DynamicCache(config=model.config)
        prefix = model(
            input_ids=prompt_ids,
            attention_mask=prompt_mask,
            position_ids=(prompt_mask.cumsum(-1) - 1).clamp(min=0),
            past_key_values=cache,
            use_cache=True,
            logits_to_keep=1,
        )
        first = prefix.logits[:, -1][inverse]  # (B, V): predicts each row's first completion token
        cache.batch_select_indices(inverse)
        rest = model(
            input_ids=batch.input_ids[:, p:],
            attention_mask=batch.attention_mask,
            position_ids=batch.position_ids[:, p:],
            past_key_values=cache,
            use_cache=True,
        )
        return torch.cat([first[:, None], rest.logits[:, :-1]], dim=1)

    def compute_logprobs(self, batch: TokenBatch | Sequence[Rollout]) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probs (B, T) and entropies (B, T) of the completion tokens under the current policy (no grad).

        Runs in chunks of `micro_batch_size` rows; zeros on padding.
        """
        if not isinstance(batch, TokenBatch):
            batch = self.collate(batch)
        batch = batch.to(self.device)
        was_training = self.model.training
        self.model.eval()
        parts: list[tuple[torch.Tensor, torch.Tensor]] = []
        try:
            with torch.no_grad():
                for lo in range(0, len(batch), self.config.micro_batch_size):
                    logprobs, entropy = self._forward(
                        self.model,
                        batch.rows(slice(lo, lo + self.config.micro_batch_size)),
                        with_entropy=True,
                    )
                    assert entropy is not None
                    parts.append((logprobs, entropy))
        finally:
            self.model.train(was_training)
        return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])

    def compute_loss(
        self,
        batch: TokenBatch,
        weights: np.ndarray | None = None,
        *,
        token_normalizer: float | None = None,
        sequence_normalizer: float | None = None,
    ) -> LossOutput:
        """The configured loss on one (micro-)batch with gradients attached (normalisers default to this batch)."""
        batch = batch.to(self.device)
        logprobs, entropy = self._forward(self.model, batch, with_entropy=self.config.compute_entropy)
        ref = None
        if self.ref_model is not None:
            with torch.no_grad():
                ref, _ = self._forward(self.ref_model, batch, with_entropy=False)
        # one optimizer step per batch, so the learner's pi_old is the current policy, detached
        old = logprobs.detach() if self.config.old_logprobs == "learner" else None
        loss_batch = LossBatch(
            logprobs=logprobs,
            mask=batch.completion_mask,
            behaviour_logprobs=batch.behaviour_logprobs,
            advantages=batch.advantages,
            rewards=batch.rewards,
            group_means=batch.group_means,
            weights=None
            if weights is None
            else torch.as_tensor(weights, dtype=torch.float32).to(self.device),
            ref_logprobs=ref,
            old_logprobs=old,
            entropy=entropy,
            token_normalizer=token_normalizer,
            sequence_normalizer=sequence_normalizer,
        )
        return self._loss_fn(loss_batch, **self._loss_kwargs)

    def train_step(
        self, rollouts: Sequence[Rollout], weights: np.ndarray | None = None, *, reduce: Reduce | None = None
    ) -> dict[str, float]:
        """One optimizer step on `rollouts` (optionally importance-weighted per sample); returns metrics.

        `reduce` joins this step to the other data-parallel ranks' (`rlvr.train.distributed.parallel.AllReduce`):
        the normalisers and metric sums are summed over ranks before use and the gradients before clipping, so
        every rank takes the step one process would take on the union of the ranks' rollouts. None (one
        process) reduces nothing.
        """
        start = time.perf_counter()
        reduce = reduce or NO_REDUCE
        if len(rollouts) == 0:
            raise DataError("train_step got no rollouts; sample a non-empty batch (every rank needs a slice)")
        w = None
        if weights is not None:
            w = np.asarray(weights, dtype=np.float32).reshape(-1)
            if w.shape[0] != len(rollouts) or not np.all(np.isfinite(w)) or np.any(w < 0):
                raise DataError(
                    f"weights must be {len(rollouts)} finite non-negative numbers (one per rollout), "
                    f"got shape {w.shape}"
                )
        # float64 sums of integers: exact, so every rank (and one process) divides by the same numbers
        total_seqs, total_tokens = reduce.sum(
            [float(len(rollouts)), float(sum(r.num_tokens for r in rollouts))]
        )
        mbs = self.config.micro_batch_size
        order = micro_batch_order(rollouts)
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        sums: dict[str, float] = {}
        loss_total = 0.0
        for lo in range(0, len(rollouts), mbs):
            chunk = order[lo : lo + mbs]
            batch = self.collate([rollouts[i] for i in chunk])
            out = self.compute_loss(
                batch,
                None if w is None else w[chunk],
                token_normalizer=total_tokens,
                sequence_normalizer=total_seqs,
            )
            out.loss.backward()
            loss_total += float(out.loss.detach())
            n_tok = out.metrics.get("tokens", float(batch.num_tokens))
            for key, value in out.metrics.items():
                if key != "tokens":  # token-weighted average across micro-batches
                    sums[key] = sums.get(key, 0.0) + value * n_tok
        params = [p for p in self.model.parameters() if p.requires_grad]
        reduce.gradients(params)
        with_grad = [p for p in params if p.grad is not None]
        max_norm = self.config.max_grad_norm if self.config.max_grad_norm is not None else float("inf")
        grad_norm = float(torch.nn.utils.clip_grad_norm_(with_grad, max_norm)) if with_grad else 0.0
        lr = float(self.optimizer.param_groups[0]["lr"])
        if math.isfinite(grad_norm):  # the same on every rank: the gradients are identical after the sum
            self.optimizer.step()
            self.scheduler.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.step += 1
        keys = sorted(sums)  # every rank runs the same loss, so the metric names agree
        reduced = reduce.sum([loss_total, *(sums[k] for k in keys)])
        elapsed = time.perf_counter() - start
        metrics = {key: value / max(total_tokens, 1.0) for key, value in zip(keys, reduced[1:])}
        metrics.update(
            loss=reduced[0],
            grad_norm=grad_norm,
            lr=lr,
            tokens=total_tokens,
            samples=total_seqs,
            skipped_nonfinite=float(not math.isfinite(grad_norm)),
            step_time_s=elapsed,
            samples_per_s=total_seqs / elapsed if elapsed > 0 else 0.0,
        )
        return metrics

    def state_dict(self) -> dict[str, torch.Tensor]:
        """The policy weights by name (detached, shared with the model) for syncing to generation backends."""
        return {name: t.detach() for name, t in self.model.state_dict().items()}

    def save(self, directory: str | Path) -> Path:
        """Write model + tokenizer (HF format, loadable by `load_model` and vLLM) and optimizer state."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.model.save_pretrained(directory / "model")
        self.tokenizer.save_pretrained(directory / "model")
        torch.save(
            {
                "optimizer": self.optimizer.state_dict(),
                "scheduler": self.scheduler.state_dict(),
                "step": self.step,
                "config": asdict(self.config),
            },
            directory / "learner.pt",
        )
        return directory

    def load(self, directory: str | Path) -> None:
        """Restore model weights (in place), optimizer and step from a `save` directory."""
        from safetensors.torch import load_file

        directory = Path(directory)
        files = sorted((directory / "model").glob("*.safetensors"))
        if not files or not (directory / "learner.pt").is_file():
            raise ConfigError(
                f"{directory} is not a learner checkpoint (needs model/*.safetensors and learner.pt)"
            )
        state: dict[str, torch.Tensor] = {}
        for f in files:
            state.update(load_file(f))
        missing, unexpected = self.model.load_state_dict(state, strict=False)
        tied = {"lm_head.weight"} if getattr(self.model.config, "tie_word_embeddings", False) else set()
        if unexpected or set(missing) - tied:
            raise ConfigError(
                f"checkpoint {directory} does not match the model (missing {sorted(set(missing) - tied)[:3]}, "
                f"unexpected {sorted(unexpected)[:3]}); load it into the same architecture"
            )
        extra = torch.load(directory / "learner.pt", map_location=self.device, weights_only=False)
        self.optimizer.load_state_dict(extra["optimizer"])
        self.scheduler.load_state_dict(extra["scheduler"])
        self.step = int(extra["step"])

    def describe(self) -> Mapping[str, Any]:
        """A summary for logs: parameter count, config and step."""
        n = sum(p.numel() for p in self.model.parameters())
        return {"parameters": n, "step": self.step, **asdict(self.config)}
