"""The learner trains a real tiny model: parameters move, good completions gain probability, reward rises."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

from rlvr.core import ADVANTAGES, ConfigError, DataError, Rollout, Verdict
from rlvr.policy import HFBackend, Learner, LearnerConfig, SamplingParams, tiny_model

PROMPTS = ["Add 2 and 2.", ({"role": "user", "content": "Say something."},), "x", "Count to three:"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A tiny model and 16 rollouts sampled from it (4 prompts x 4), advantages alternating +1 / -1.

    Completions are cut to different lengths (a prefix of a sample is a sample, with the same log-probs)
    so batches have padding on both sides.
    """
    model, tok = tiny_model(tmp_path_factory.mktemp("tiny"), seed=0)
    groups = HFBackend(model, tok).generate(PROMPTS, 4, SamplingParams(max_new_tokens=10, seed=0))
    rollouts = [
        Rollout(
            example_key=f"p{i}",
            prompt=g.prompt,
            completion=g.completion,
            prompt_ids=g.prompt_ids,
            completion_ids=g.completion_ids[: 3 + (i + j) % 8],
            behaviour_logprobs=g.logprobs[: 3 + (i + j) % 8],
            verdict=Verdict.correct() if j % 2 == 0 else Verdict.fail("wrong"),
            reward=1.0 if j % 2 == 0 else 0.0,
            advantage=1.0 if j % 2 == 0 else -1.0,
            group_mean=0.5,
            group_size=4,
        )
        for i, group in enumerate(groups)
        for j, g in enumerate(group)
    ]
    return model, tok, rollouts


def fresh(base):
    model, tok, rollouts = base
    return copy.deepcopy(model), tok, rollouts


def seq_logprob(learner, rollouts):
    logprobs, _ = learner.compute_logprobs(rollouts)
    return logprobs.sum(dim=1)


@pytest.mark.parametrize("loss", ["grpo", "asymre"])
def test_training_moves_probability_towards_positive_advantages(base, loss):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig(loss=loss, lr=3e-3, micro_batch_size=5))
    positive = torch.tensor([r.advantage > 0 for r in rollouts])
    start = seq_logprob(learner, rollouts)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    losses = [learner.train_step(rollouts)["loss"] for _ in range(5)]
    end = seq_logprob(learner, rollouts)
    assert any(not torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert (end - start)[positive].mean() > 0.5 and (end - start)[~positive].mean() < -0.5
    assert losses[-1] < losses[0]
    assert learner.step == 5


def test_reward_rises_in_a_short_rl_loop(tmp_path):
    """Generate -> reward -> GRPO advantages -> update, sharing one model; reward: share of even token ids."""
    model, tok = tiny_model(tmp_path, seed=1)
    backend = HFBackend(model, tok, seed=0)  # shares the learner's model: no weight copy needed
    learner = Learner(model, tok, LearnerConfig(lr=1e-2, micro_batch_size=16))
    rewards_per_step = []
    for _ in range(12):
        groups = backend.generate(PROMPTS, 8, SamplingParams(max_new_tokens=8))
        rollouts = []
        for i, group in enumerate(groups):
            rewards = [float(np.mean(g.completion_ids % 2 == 0)) for g in group]
            for g, r, a in zip(group, rewards, ADVANTAGES.get("grpo")(rewards)):
                rollouts.append(
                    Rollout(
                        example_key=str(i),
                        prompt=g.prompt,
                        completion=g.completion,
                        prompt_ids=g.prompt_ids,
                        completion_ids=g.completion_ids,
                        behaviour_logprobs=g.logprobs,
                        verdict=Verdict.correct(),
                        reward=r,
                        advantage=float(a),
                    )
                )
        rewards_per_step.append(np.mean([r.reward for r in rollouts]))
        learner.train_step(rollouts)
    assert np.mean(rewards_per_step[-3:]) > np.mean(rewards_per_step[:3]) + 0.2, rewards_per_step


def test_micro_batching_gives_the_full_batch_gradient(base):
    steps = []
    for mbs in (1, 3, 16):
        model, tok, rollouts = fresh(base)
        learner = Learner(
            model, tok, LearnerConfig(optimizer="sgd", lr=0.5, max_grad_norm=None, micro_batch_size=mbs)
        )
        metrics = learner.train_step(rollouts)
        steps.append((model.state_dict(), metrics))
    (ref, ref_metrics), *others = steps
    for state, metrics in others:
        for k in ref:
            assert torch.allclose(ref[k], state[k], atol=1e-6), k
        assert metrics["loss"] == pytest.approx(ref_metrics["loss"], abs=1e-6)
        assert metrics["entropy"] == pytest.approx(ref_metrics["entropy"], rel=1e-5)


def test_padding_contributes_nothing(base):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig())
    batch = learner.collate(rollouts)
    gen = torch.Generator().manual_seed(0)
    pad_in = batch.attention_mask == 0
    pad_out = batch.completion_mask == 0
    assert pad_in.any() and pad_out.any()
    noisy = type(batch)(
        **{
            **batch.__dict__,
            "input_ids": torch.where(
                pad_in, torch.randint(0, 200, batch.input_ids.shape, generator=gen), batch.input_ids
            ),
            "completion_ids": torch.where(
                pad_out,
                torch.randint(0, 200, batch.completion_ids.shape, generator=gen),
                batch.completion_ids,
            ),
            "behaviour_logprobs": torch.where(
                pad_out,
                -torch.rand(batch.behaviour_logprobs.shape, generator=gen) * 50,
                batch.behaviour_logprobs,
            ),
        }
    )
    a, b = learner.compute_loss(batch), learner.compute_loss(noisy)
    assert a.loss.item() == pytest.approx(b.loss.item(), abs=1e-6)
    assert a.metrics["entropy"] == pytest.approx(b.metrics["entropy"], abs=1e-5)


def test_sample_weights(base):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig(micro_batch_size=4))
    batch = learner.collate(rollouts)
    ones = learner.compute_loss(batch).loss.item()
    assert learner.compute_loss(batch, np.full(len(rollouts), 2.0)).loss.item() == pytest.approx(
        2 * ones, rel=1e-5
    )
    before = {k: v.clone() for k, v in model.state_dict().items()}
    metrics = learner.train_step(rollouts, weights=np.zeros(len(rollouts)))
    assert metrics["grad_norm"] == 0.0
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    with pytest.raises(DataError, match="one per rollout"):
        learner.train_step(rollouts, weights=np.ones(3))
    with pytest.raises(DataError, match="no rollouts"):
        learner.train_step([])


def test_kl_to_reference_and_tis_metrics(base):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig(lr=3e-3, kl_coef=0.05))
    assert learner.ref_model is not None and learner.ref_model is not model
    first = learner.train_step(rollouts)
    second = learner.train_step(rollouts)
    assert first["kl_ref"] == pytest.approx(0.0, abs=1e-7) and second["kl_ref"] > 0
    model, tok, rollouts = fresh(base)
    tis = Learner(model, tok, LearnerConfig(old_logprobs="learner", tis_cap=2.0))
    metrics = tis.train_step(rollouts)
    assert metrics["ratio_mean"] == pytest.approx(1.0) and metrics["clip_fraction"] == 0.0
    assert 0 < metrics["tis_weight_mean"] <= 2.0


def test_state_dict_syncs_a_generation_backend(base):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig(lr=1e-2))
    backend = HFBackend(copy.deepcopy(model), tok)
    learner.train_step(rollouts)
    backend.load_weights(learner.state_dict(), version=learner.step)
    groups = backend.generate(PROMPTS[:2], 2, SamplingParams(max_new_tokens=8, seed=3))
    fresh_rollouts = [
        Rollout(
            example_key="k",
            prompt=g.prompt,
            completion=g.completion,
            prompt_ids=g.prompt_ids,
            completion_ids=g.completion_ids,
            behaviour_logprobs=g.logprobs,
            verdict=Verdict.correct(),
            reward=0.0,
        )
        for group in groups
        for g in group
    ]
    logprobs, _ = learner.compute_logprobs(fresh_rollouts)
    batch = learner.collate(fresh_rollouts)
    assert torch.allclose(logprobs, batch.behaviour_logprobs, atol=1e-4)
    assert backend.policy_version == 1


def test_save_and_load_resume_identically(base, tmp_path):
    model, tok, rollouts = fresh(base)
    learner = Learner(model, tok, LearnerConfig(lr=3e-3, warmup_steps=3))
    learner.train_step(rollouts[:8])
    learner.save(tmp_path / "ckpt")
    other_model, _ = tiny_model(tmp_path / "other", seed=9)
    resumed = Learner(other_model, tok, LearnerConfig(lr=3e-3, warmup_steps=3))
    resumed.load(tmp_path / "ckpt")
    assert resumed.step == 1
    a, b = learner.train_step(rollouts[8:]), resumed.train_step(rollouts[8:])
    assert a["loss"] == pytest.approx(b["loss"], abs=1e-7) and a["lr"] == b["lr"]
    for k, v in model.state_dict().items():
        assert torch.equal(v, other_model.state_dict()[k]), k
    # tied embeddings survive the round trip
    assert other_model.lm_head.weight.data_ptr() == other_model.model.embed_tokens.weight.data_ptr()
    with pytest.raises(ConfigError, match="not a learner checkpoint"):
        resumed.load(tmp_path / "missing")


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"loss": "ppo"}, "unknown loss 'ppo'"),
        ({"lr": 0.0}, "lr must be"),
        ({"eps_low": 1.0}, "clip ranges"),
        ({"aggregation": "dr_grpo"}, "needs max_tokens"),
        ({"aggregation": "mean"}, "aggregation must be one of"),
        ({"tis_cap": 2.0}, "set old_logprobs='learner'"),
        ({"old_logprobs": "learner", "tis_cap": 0.5}, "tis_cap must be >= 1"),
        ({"temperature": 0.0}, "use temperature=1.0"),
        ({"micro_batch_size": 0}, "micro_batch_size"),
        ({"loss": "asymre", "eps_high": 0.28}, "eps_high=0.28 has no effect with loss 'asymre'"),
        ({"delta_v": -0.2}, "delta_v=-0.2 has no effect with loss 'grpo'"),
        ({"optimizer": "lion"}, "unknown optimizer"),
    ],
)
def test_config_rejects_impossible_settings(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        LearnerConfig(**kwargs)


def test_config_passes_only_the_losss_own_parameters():
    assert LearnerConfig(loss="asymre", delta_v=-0.2).loss_kwargs() == {
        "delta_v": -0.2,
        "kl_coef": 0.0,
        "max_tokens": None,
    }
    assert LearnerConfig(aggregation="sequence_mean").loss_kwargs()["aggregation"] == "sequence_mean"
    assert "aggregation" not in LearnerConfig().loss_kwargs()


def test_compute_logprobs_in_chunks_equals_one_pass(base):
    model, tok, rollouts = fresh(base)
    small = Learner(model, tok, LearnerConfig(micro_batch_size=3)).compute_logprobs(rollouts)
    whole = Learner(model, tok, LearnerConfig(micro_batch_size=64)).compute_logprobs(rollouts)
    assert small[0].shape == whole[0].shape == (len(rollouts), max(r.num_tokens for r in rollouts))
    assert torch.allclose(small[0], whole[0], atol=1e-5) and torch.allclose(small[1], whole[1], atol=1e-5)


def test_shared_prompt_pass_gives_the_same_loss_and_gradients(base):
    """Each distinct prompt run once with its KV cache reused == every row run in full."""
    model, tok, rollouts = fresh(base)
    grads = []
    for share in (True, False):
        learner = Learner(model, tok, LearnerConfig(share_prompts=share))
        batch = learner.collate(rollouts)  # 4 prompts of different lengths x 4 samples
        model.zero_grad()
        out = learner.compute_loss(batch)
        out.loss.backward()
        grads.append((out.loss.item(), {n: p.grad.clone() for n, p in model.named_parameters()}))
        if share:  # the batch really takes the shared path
            assert learner._shared_prompt_logits(model, batch) is not None
    (loss_a, ga), (loss_b, gb) = grads
    assert loss_a == pytest.approx(loss_b, abs=1e-6)
    for name in ga:
        assert torch.allclose(ga[name], gb[name], atol=1e-6, rtol=1e-4), name
    # rows with distinct prompts take the plain path
    single = Learner(model, tok, LearnerConfig()).collate(rollouts[::4])
    assert Learner(model, tok, LearnerConfig())._shared_prompt_logits(model, single) is None
