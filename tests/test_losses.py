"""Each loss against values worked out by hand on a 2-sequence batch (5 real tokens, 1 padding position).

Batch used throughout (eps_low=0.2, eps_high=0.28):
  seq 0, A=+1:   logp = [-0.8, -2.0, -0.5], pi_old = [-1.1, -1.5, -0.5]
                 ratio = [e^0.3, e^-0.5, 1] = [1.3498588, 0.6065307, 1]
                 min(rA, clip(r)A) = [1.28 (clipped), 0.6065307, 1.0]
  seq 1, A=-0.5: logp = [-0.3, -1.4, pad], pi_old = [-0.6, -1.0, pad]
                 ratio = [e^0.3, e^-0.4] = [1.3498588, 0.6703200]
                 min(rA, clip(r)A) = [-0.6749294, -0.4 (clipped)]
  sum of objectives = 1.8116013; 2 of 5 tokens clipped.
"""

from __future__ import annotations

import math

import pytest
import torch

from rlvr.core.errors import ConfigError
from rlvr.policy.losses import LOSSES, LossBatch, aggregate, asymre_loss, grpo_loss, k3_kl

NAN = float("nan")


def make_batch(**overrides) -> LossBatch:
    fields = {
        "logprobs": torch.tensor([[-0.8, -2.0, -0.5], [-0.3, -1.4, NAN]], requires_grad=True),
        "mask": torch.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0]]),
        "behaviour_logprobs": torch.tensor([[-1.1, -1.5, -0.5], [-0.6, -1.0, float("inf")]]),
        "advantages": torch.tensor([1.0, -0.5]),
        "rewards": torch.tensor([1.0, 0.0]),
        "group_means": torch.tensor([0.5, 0.5]),
    }
    fields.update(overrides)
    return LossBatch(**fields)


GRPO = {"eps_low": 0.2, "eps_high": 0.28}


def test_registry_holds_the_losses():
    assert {"grpo", "asymre"} <= set(LOSSES.names())
    assert LOSSES.get("grpo") is grpo_loss and LOSSES.get("asymre") is asymre_loss


@pytest.mark.parametrize(
    "aggregation,expected",
    [
        ("token_mean", -1.8116013 / 5),
        ("sequence_mean", -((1.28 + 0.6065307 + 1.0) / 3 + (-0.6749294 - 0.4) / 2) / 2),
        ("sequence_sum", -1.8116013 / 2),
        ("dr_grpo", -1.8116013 / (2 * 4)),
    ],
)
def test_grpo_matches_hand_computed_value(aggregation, expected):
    out = grpo_loss(make_batch(), aggregation=aggregation, max_tokens=4, **GRPO)
    assert out.loss.item() == pytest.approx(expected, abs=1e-6)
    assert math.isfinite(out.loss.item())  # NaN/inf on the padding position never leaks in
    assert out.metrics["clip_fraction"] == pytest.approx(2 / 5)
    ratios = [math.exp(0.3), math.exp(-0.5), 1.0, math.exp(0.3), math.exp(-0.4)]
    assert out.metrics["ratio_mean"] == pytest.approx(sum(ratios) / 5, abs=1e-6)
    assert out.metrics["tokens"] == 5


def test_grpo_gradient_is_zero_on_clipped_tokens():
    batch = make_batch()
    grpo_loss(batch, **GRPO).loss.backward()
    grad = batch.logprobs.grad
    # d/dlogp of -(r A)/5 is -r A / 5 on unclipped tokens; clipped tokens and padding get nothing
    expected = [[0.0, -math.exp(-0.5) / 5, -1.0 / 5], [0.5 * math.exp(0.3) / 5, 0.0, 0.0]]
    assert torch.allclose(grad, torch.tensor(expected), atol=1e-6)


def test_grpo_symmetric_default_clip_changes_which_tokens_clip():
    out = grpo_loss(make_batch())  # eps 0.2/0.2: seq0 t0 clips at 1.2 instead of 1.28
    assert out.loss.item() == pytest.approx(-(1.2 + 0.6065307 + 1.0 - 0.6749294 - 0.4) / 5, abs=1e-6)


def test_grpo_importance_weights_scale_each_sequence():
    out = grpo_loss(make_batch(weights=torch.tensor([2.0, 0.5])), **GRPO)
    expected = -(2.0 * (1.28 + 0.6065307 + 1.0) + 0.5 * (-0.6749294 - 0.4)) / 5
    assert out.loss.item() == pytest.approx(expected, abs=1e-6)


def test_grpo_kl_penalty_k3():
    ref = torch.tensor([[-1.0, -1.0, -1.0], [-1.0, -1.0, NAN]])
    out = grpo_loss(make_batch(ref_logprobs=ref), kl_coef=0.1, **GRPO)
    lp = [-0.8, -2.0, -0.5, -0.3, -1.4]
    kl = [math.exp(-1.0 - x) - (-1.0 - x) - 1.0 for x in lp]
    assert out.loss.item() == pytest.approx((-1.8116013 + 0.1 * sum(kl)) / 5, abs=1e-6)
    assert out.metrics["kl_ref"] == pytest.approx(sum(kl) / 5, abs=1e-6)
    assert torch.allclose(k3_kl(torch.tensor([-0.5]), torch.tensor([-0.5])), torch.zeros(1))


def test_grpo_truncated_importance_sampling():
    """pi_old from the learner (ratio 1), each token weighted by min(pi_old / pi_behaviour, cap)."""
    batch = make_batch()
    out = grpo_loss(make_batch(old_logprobs=batch.logprobs.detach()), tis_cap=1.3, **GRPO)
    tis = [min(math.exp(x), 1.3) for x in (0.3, -0.5, 0.0, 0.3, -0.4)]  # e^0.3 = 1.35 is capped
    adv = [1.0, 1.0, 1.0, -0.5, -0.5]
    assert out.loss.item() == pytest.approx(-sum(a * w for a, w in zip(adv, tis)) / 5, abs=1e-6)
    assert out.metrics["tis_capped_fraction"] == pytest.approx(2 / 5)
    assert out.metrics["clip_fraction"] == 0.0 and out.metrics["ratio_mean"] == pytest.approx(1.0)


def test_asymre_matches_hand_computed_value():
    # coef = r - (V + dV) = [1 - 0.4, 0 - 0.4]; log pi(z|q) = [-3.3, -1.7]
    out = asymre_loss(make_batch())
    assert out.loss.item() == pytest.approx(-(0.6 * -3.3 + -0.4 * -1.7) / 2, abs=1e-6)
    batch = make_batch()
    asymre_loss(batch).loss.backward()
    assert torch.allclose(batch.logprobs.grad, torch.tensor([[-0.3] * 3, [0.2, 0.2, 0.0]]), atol=1e-6)
    # no ratio and no clip: the behaviour log-probs do not matter
    shifted = asymre_loss(make_batch(behaviour_logprobs=torch.full((2, 3), -9.0)))
    assert shifted.loss.item() == pytest.approx(out.loss.item())
    token_mean = asymre_loss(make_batch(), delta_v=0.0, aggregation="token_mean")
    assert token_mean.loss.item() == pytest.approx(-(0.5 * -3.3 + -0.5 * -1.7) / 5, abs=1e-6)


def test_micro_batch_normalisers_add_up_to_the_full_batch():
    full = make_batch()
    rows = [slice(0, 1), slice(1, 2)]
    for aggregation in ("token_mean", "sequence_mean", "sequence_sum"):
        total = grpo_loss(full, aggregation=aggregation, **GRPO).loss.item()
        parts = sum(
            grpo_loss(
                LossBatch(
                    logprobs=full.logprobs[r],
                    mask=full.mask[r],
                    behaviour_logprobs=full.behaviour_logprobs[r],
                    advantages=full.advantages[r],
                    token_normalizer=5.0,
                    sequence_normalizer=2.0,
                ),
                aggregation=aggregation,
                **GRPO,
            ).loss.item()
            for r in rows
        )
        assert parts == pytest.approx(total, abs=1e-6), aggregation


def test_bad_loss_inputs_fail_with_a_fix():
    with pytest.raises(ConfigError, match="needs max_tokens"):
        grpo_loss(make_batch(), aggregation="dr_grpo")
    with pytest.raises(ConfigError, match="unknown aggregation"):
        aggregate(torch.zeros(1, 1), torch.ones(1, 1), "median")
    with pytest.raises(ConfigError, match="needs ref_logprobs"):
        grpo_loss(make_batch(), kl_coef=0.1)
    with pytest.raises(ConfigError, match="needs rewards and group_means"):
        asymre_loss(make_batch(rewards=None))
