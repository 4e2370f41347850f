"""Policy-gradient losses on replayed rollouts, in a registry (`LOSSES.get("grpo")(batch, eps_low=0.2)`).

Every loss is a pure function of tensors: a `LossBatch` in, a `LossOutput` (scalar loss to minimise plus
metrics) out. Advantages, group means and the behaviour log-probs (pi_old) arrive frozen from generation
time and are never recomputed here (PAPER.md section 2). Shapes: B sequences, T completion positions
(padded); `mask` is 1 on real completion tokens and 0 on padding, and padded positions never contribute.

Aggregations (how per-token terms l[i, t] become one number; `token_normalizer` / `sequence_normalizer`
override the denominators so that micro-batches of one batch add up to the full-batch loss):
- "token_mean": sum_{i,t} w_i l[i,t] / (number of tokens)  (DAPO; long answers weigh more)
- "sequence_mean": mean_i w_i mean_t l[i,t]  (original GRPO)
- "sequence_sum": mean_i w_i sum_t l[i,t]  (REINFORCE with the sequence log-prob, AsymRE as written)
- "dr_grpo": mean_i w_i sum_t l[i,t] / max_tokens  (Dr.GRPO: a constant length, no length bias)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry

AGGREGATIONS = ("token_mean", "sequence_mean", "sequence_sum", "dr_grpo")


@dataclass(frozen=True)
class LossBatch:
    """Tensors a loss needs. B = sequences, T = padded completion length."""

    logprobs: torch.Tensor
    """(B, T) log pi_theta of each completion token under the learner (requires grad)."""
    mask: torch.Tensor
    """(B, T) 1.0 on completion tokens, 0.0 on padding."""
    behaviour_logprobs: torch.Tensor
    """(B, T) log pi_old: behaviour log-probs recorded at generation, frozen."""
    advantages: torch.Tensor
    """(B,) advantage of each rollout, computed over its generation group at generation time."""
    rewards: torch.Tensor | None = None
    """(B,) reward of each rollout (AsymRE)."""
    group_means: torch.Tensor | None = None
    """(B,) mean reward of each rollout's generation group, V-hat (AsymRE)."""
    weights: torch.Tensor | None = None
    """(B,) per-sample importance weights from a prioritized buffer; None = all ones."""
    ref_logprobs: torch.Tensor | None = None
    """(B, T) log-probs under a frozen reference policy, for the optional KL penalty."""
    old_logprobs: torch.Tensor | None = None
    """(B, T) the learner's own pi_old (detached); with it, clipping uses it and TIS corrects for behaviour."""
    entropy: torch.Tensor | None = None
    """(B, T) per-token entropy of the learner's distribution (only reported)."""
    token_normalizer: float | None = None
    """Total completion tokens of the whole batch (default: this batch's)."""
    sequence_normalizer: float | None = None
    """Total sequences of the whole batch (default: B)."""


@dataclass
class LossOutput:
    """The scalar loss to minimise and float metrics (token-averaged over this batch)."""

    loss: torch.Tensor
    metrics: dict[str, float] = field(default_factory=dict)


LossFn = Callable[..., LossOutput]
LOSSES: Registry[LossFn] = Registry("loss")


def aggregate(
    per_token: torch.Tensor,
    mask: torch.Tensor,
    aggregation: str,
    *,
    weights: torch.Tensor | None = None,
    max_tokens: int | None = None,
    token_normalizer: float | None = None,
    sequence_normalizer: float | None = None,
) -> torch.Tensor:
    """Reduce per-token terms (B, T) to a scalar with one of AGGREGATIONS (padding masked out)."""
    if aggregation not in AGGREGATIONS:
        raise ConfigError(f"unknown aggregation {aggregation!r}; use one of {AGGREGATIONS}")
    mask = mask.to(per_token.dtype)
    terms = torch.where(mask > 0, per_token, torch.zeros_like(per_token))
    if weights is not None:
        terms = terms * weights.to(per_token.dtype)[:, None]
    n_seq = float(sequence_normalizer) if sequence_normalizer is not None else float(per_token.shape[0])
    if aggregation == "token_mean":
        n_tok = float(token_normalizer) if token_normalizer is not None else float(mask.sum().item())
        return terms.sum() / max(n_tok, 1.0)
    if aggregation == "sequence_mean":
        lengths = mask.sum(dim=1).clamp(min=1.0)
        return (terms.sum(dim=1) / lengths).sum() / max(n_seq, 1.0)
    if aggregation == "sequence_sum":
        return terms.sum() / max(n_seq, 1.0)
    if max_tokens is None or max_tokens < 1:
        raise ConfigError("aggregation 'dr_grpo' needs max_tokens (the constant length), e.g. max_new_tokens")
    return terms.sum() / (max(n_seq, 1.0) * float(max_tokens))


def masked_mean(values: torch.Tensor, mask: torch.Tensor) -> float:
    """Mean of `values` (B, T) over positions where mask is 1 (0.0 when the mask is empty)."""
    mask = mask.to(values.dtype)
    total = mask.sum()
    picked = torch.where(mask > 0, values, torch.zeros_like(values))
    return float(picked.sum() / total) if total > 0 else 0.0


def k3_kl(logprobs: torch.Tensor, ref_logprobs: torch.Tensor) -> torch.Tensor:
    """Per-token k3 estimate of KL(pi || ref): exp(ref - logp) - (ref - logp) - 1 (>= 0, unbiased)."""
    delta = ref_logprobs - logprobs
    return torch.exp(delta) - delta - 1.0


def _common_metrics(batch: LossBatch, out: dict[str, float]) -> None:
    if batch.entropy is not None:
        out["entropy"] = masked_mean(batch.entropy.detach(), batch.mask)
    log_ratio = (batch.logprobs.detach() - batch.behaviour_logprobs).clamp(-20.0, 20.0)
    out["behaviour_ratio_mean"] = masked_mean(torch.exp(log_ratio), batch.mask)
    # k3 estimate of KL(behaviour || learner): how far the policy drifted since generation
    out["approx_kl"] = masked_mean(torch.exp(log_ratio) - 1.0 - log_ratio, batch.mask)
    out["tokens"] = float(batch.mask.sum().item())


def _kl_term(batch: LossBatch, kl_coef: float, metrics: dict[str, float]) -> torch.Tensor | None:
    if kl_coef == 0.0:
        return None
    if batch.ref_logprobs is None:
        raise ConfigError(
            "kl_coef > 0 needs ref_logprobs (a frozen reference model); set kl_coef=0 to drop KL"
        )
    kl = k3_kl(batch.logprobs, batch.ref_logprobs)
    metrics["kl_ref"] = masked_mean(kl.detach(), batch.mask)
    return kl_coef * kl


@LOSSES.register("grpo")
def grpo_loss(
    batch: LossBatch,
    *,
    eps_low: float = 0.2,
    eps_high: float = 0.2,
    kl_coef: float = 0.0,
    tis_cap: float | None = None,
    aggregation: str = "token_mean",
    max_tokens: int | None = None,
) -> LossOutput:
    """GRPO clipped surrogate: -min(rho A, clip(rho, 1-eps_low, 1+eps_high) A), rho = pi_theta / pi_old.

    pi_old is `batch.old_logprobs` when given, else the frozen behaviour log-probs (the paper's setting).
    With `old_logprobs` and `tis_cap`, each token is also weighted by the truncated importance weight
    min(pi_old / pi_behaviour, tis_cap) (TIS), which corrects for the policy that really sampled it.
    Optional KL to a reference (k3 estimator) with `kl_coef`. Returns (loss (), metrics).
    """
    old = batch.old_logprobs if batch.old_logprobs is not None else batch.behaviour_logprobs
    log_ratio = (batch.logprobs - old).clamp(-20.0, 20.0)  # clamp: exp of stale, masked junk must stay finite
    ratio = torch.exp(log_ratio)
    adv = batch.advantages.to(ratio.dtype)[:, None]
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1.0 - eps_low, 1.0 + eps_high) * adv
    per_token = -torch.minimum(unclipped, clipped)
    metrics: dict[str, float] = {}
    if tis_cap is not None and batch.old_logprobs is not None:
        tis = torch.exp((batch.old_logprobs - batch.behaviour_logprobs).clamp(-20.0, 20.0))
        capped = tis.clamp(max=tis_cap)
        metrics["tis_weight_mean"] = masked_mean(capped, batch.mask)
        metrics["tis_capped_fraction"] = masked_mean((tis > tis_cap).to(tis.dtype), batch.mask)
        per_token = per_token * capped.detach()
    kl = _kl_term(batch, kl_coef, metrics)
    if kl is not None:
        per_token = per_token + kl
    loss = aggregate(
        per_token,
        batch.mask,
        aggregation,
        weights=batch.weights,
        max_tokens=max_tokens,
        token_normalizer=batch.token_normalizer,
        sequence_normalizer=batch.sequence_normalizer,
    )
    with torch.no_grad():
        r = ratio.detach()
        was_clipped = ((adv > 0) & (r > 1.0 + eps_high)) | ((adv < 0) & (r < 1.0 - eps_low))
        metrics["clip_fraction"] = masked_mean(was_clipped.to(r.dtype), batch.mask)
        metrics["ratio_mean"] = masked_mean(r, batch.mask)
        _common_metrics(batch, metrics)
    return LossOutput(loss, metrics)


@LOSSES.register("asymre")
def asymre_loss(
    batch: LossBatch,
    *,
    delta_v: float = -0.1,
    kl_coef: float = 0.0,
    aggregation: str = "sequence_sum",
    max_tokens: int | None = None,
) -> LossOutput:
    """AsymRE: -(r - (V-hat + delta_v)) * log pi_theta(z|q), no ratio and no clipping.

    V-hat is the rollout's generation-group mean reward; delta_v < 0 makes the baseline a lower bound, which
    favours positive samples off-policy. With the default "sequence_sum" aggregation, log pi(z|q) is the sum
    of the token log-probs and the loss is the batch mean, as in the paper. Returns (loss (), metrics).
    """
    if batch.rewards is None or batch.group_means is None:
        raise ConfigError("the asymre loss needs rewards and group_means (V-hat) in the batch")
    coef = (batch.rewards - (batch.group_means + delta_v)).to(batch.logprobs.dtype)
    per_token = -coef[:, None] * batch.logprobs
    metrics: dict[str, float] = {"asymre_coef_mean": float(coef.mean().item())}
    kl = _kl_term(batch, kl_coef, metrics)
    if kl is not None:
        per_token = per_token + kl
    loss = aggregate(
        per_token,
        batch.mask,
        aggregation,
        weights=batch.weights,
        max_tokens=max_tokens,
        token_normalizer=batch.token_normalizer,
        sequence_normalizer=batch.sequence_normalizer,
    )
    with torch.no_grad():
        metrics["clip_fraction"] = 0.0
        _common_metrics(batch, metrics)
        metrics["ratio_mean"] = metrics["behaviour_ratio_mean"]
    return LossOutput(loss, metrics)
