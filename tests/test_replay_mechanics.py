"""Mechanics behind the replay-efficiency experiment (issue 17): compute accounting, held-out sets, the exact
gold-probability evaluation, and configurations that would silently train the wrong objective."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from rlvr.buffer import BufferConfig, HindsightConfig
from rlvr.core import ConfigError
from rlvr.envs import make_env
from rlvr.policy import LearnerConfig, tiny_model
from rlvr.train.build import build_env, gold_probability, held_out_examples
from rlvr.train.config import EnvConfig, HeldOutConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig
from rlvr.train.configio import load_config
from rlvr.train.loop import Trainer
from rlvr.train.metrics import ComputeMeter

ARITH0 = {"difficulty": 0, "template": "plain-v0"}


# ---- compute accounting -------------------------------------------------------------------------------------


def test_compute_meter_charges_warmup_generation_at_the_run_mu() -> None:
    """Two warm-up steps generate without training; their generation must cost mu x R like any other step."""
    meter = ComputeMeter()
    per_step = [(2.0, 64, 0.0, 0), (2.0, 64, 0.0, 0), (2.0, 64, 1.0, 128), (2.0, 64, 1.0, 128)]
    logged = []
    for gen_s, rollouts, train_s, samples in per_step:
        meter.gen_s += gen_s
        meter.rollouts += rollouts
        meter.train_s += train_s
        meter.samples += samples
        meter.tokens += 30 * rollouts
        meter.charge(rollouts, samples)
        logged.append(meter.cost)
    mu = (8.0 / 256) / (2.0 / 256)
    assert meter.mu == pytest.approx(4.0) == pytest.approx(mu)
    assert np.isnan(logged[0]) and np.isnan(logged[1])  # mu unknown: no made-up cost (was 0 for generation)
    assert logged[-1] == pytest.approx(256 + mu * 256)  # = trained samples + mu x rollouts
    assert meter.total(steps=2) == pytest.approx(mu * 128)  # the warm-up steps, at the same mu
    assert meter.total(mu=5.28) == pytest.approx(256 + 5.28 * 256)
    assert [r["gen_s"] for r in meter.history] == [2.0] * 4 and meter.history[2]["train_s"] == 1.0
    restored = ComputeMeter()
    restored.load_state_dict(meter.state_dict())
    assert restored.total() == pytest.approx(meter.total()) and restored.history == meter.history
    assert ComputeMeter(mu=2.0).mu == 2.0
    with pytest.raises(ValueError, match="mu"):
        ComputeMeter(mu=-1.0)


def test_trainer_logs_compute_independent_of_when_mu_became_known(tmp_path: Path) -> None:
    """A replay run with warm-up (R = B/2): the logged total is samples + final mu x rollouts, exactly."""
    cfg = RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(kwargs=ARITH0),
        rollout=RolloutConfig(prompts_per_step=2, group_size=4, max_new_tokens=6),
        buffer=BufferConfig(capacity=32),
        learner=LearnerConfig(lr=1e-3, micro_batch_size=16),
        train=TrainConfig(
            steps=4, batch_size=16, output_dir=str(tmp_path), tensorboard=False, progress=False
        ),
    )
    trainer = Trainer(cfg)
    rows = trainer.fit()
    trainer.close()
    assert rows[0]["compute/trained_samples"] == 0  # the warm-up step (buffer holds 8 < B = 16)
    last = rows[-1]
    mu = last["compute/mu"]
    expected = last["compute/trained_samples"] + mu * last["compute/unique_rollouts"]
    assert last["compute/total_cost"] == pytest.approx(expected, rel=1e-9)
    assert len(trainer.compute.history) == 4 and trainer.compute.history[0]["gen_s"] > 0


# ---- held-out sets ------------------------------------------------------------------------------------------


def _config(*overrides: str) -> RunConfig:
    return load_config(RunConfig, None, ["eval.every=5", *overrides])


def test_a_finite_task_is_evaluated_on_its_whole_distribution() -> None:
    cfg = _config('env.kwargs={"difficulty": 0}', "eval.num_examples=81")
    train_task = build_env(cfg).task
    _, examples = held_out_examples(cfg, train_task)
    assert len(examples) == 81 == len({ex.key for ex in examples})  # every single-digit sum once
    prompts = {ex.prompt for ex in examples}
    assert "Compute 1 + 9." in prompts and "Compute 9 + 1." in prompts
    assert all(
        train_task.make_verifier().verify(f"$\\boxed{{{ex.reference}}}$", ex.reference).passed
        for ex in examples
    )
    # every training problem is one of them, so the uniform mean over these is the exact expected reward
    assert {train_task[i].key for i in range(500)} <= {ex.key for ex in examples}


def test_disjoint_held_out_never_silently_falls_back() -> None:
    with pytest.raises(ConfigError, match="eval.held_out=distribution"):
        held_out_examples(
            _config('env.kwargs={"difficulty": 0}', "eval.held_out=disjoint"),
            build_env(_config('env.kwargs={"difficulty": 0}')).task,
        )
    # difficulty 1 has 800 problems, all in a 10k-example training stream: no disjoint set either
    with pytest.raises(ConfigError, match="no disjoint held-out set"):
        cfg = _config('env.kwargs={"difficulty": 1}', "eval.held_out=disjoint")
        held_out_examples(cfg, build_env(cfg).task)
    cfg = _config('env.kwargs={"difficulty": 3}', "eval.num_examples=64", "eval.held_out=disjoint")
    train_task = build_env(cfg).task
    _, examples = held_out_examples(cfg, train_task)
    train_keys = {train_task[i].key for i in range(len(train_task))}
    assert len({ex.key for ex in examples}) == 64  # distinct, and as many as asked
    assert not train_keys & {ex.key for ex in examples}
    with pytest.raises(ConfigError, match="finite support"):
        held_out_examples(_config('env.kwargs={"difficulty": 3}', "eval.held_out=distribution"), train_task)


def test_a_larger_finite_support_is_sampled_uniformly_by_eval_seed() -> None:
    cfg = _config("eval.num_examples=16", "eval.seed=3")  # default difficulty 1: 800 problems
    train_task = build_env(cfg).task
    assert len(train_task.support()) == 800 == len({ex.key for ex in train_task.support()})
    _, examples = held_out_examples(cfg, train_task)
    assert len({ex.key for ex in examples}) == 16
    assert {ex.key for ex in examples} <= {ex.key for ex in train_task.support()}


# ---- exact evaluation: probability of the gold completion ---------------------------------------------------


def test_gold_probability_is_the_teacher_forced_sequence_probability() -> None:
    model, tok = tiny_model(seed=0, hidden_size=32, intermediate_size=64, num_hidden_layers=1)
    env = make_env("rlvr/Arithmetic-v0", **ARITH0)
    examples = env.task.support()[:10]
    probs = gold_probability(model, tok, env, examples, batch_size=4)  # padded batches
    assert probs.shape == (10,) and np.all((probs > 0) & (probs <= 1))
    for ex, p in zip(examples, probs, strict=True):  # one unpadded sequence at a time, by hand
        prompt = tok(env.template.render(ex, chat=False))["input_ids"]
        completion = [
            *tok(env.task.gold_completion(ex), add_special_tokens=False)["input_ids"],
            tok.eos_token_id,
        ]
        ids = torch.tensor([prompt + completion])
        with torch.no_grad():
            logp = torch.log_softmax(model(input_ids=ids).logits[0, :-1].float(), dim=-1)
        lp = sum(float(logp[len(prompt) - 1 + j, t]) for j, t in enumerate(completion))
        assert p == pytest.approx(np.exp(lp), rel=1e-4)


def test_eval_gold_prob_only_needs_no_sampling(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="evaluates nothing"):
        HeldOutConfig(samples=0)
    cfg = RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(kwargs=ARITH0),
        rollout=RolloutConfig(prompts_per_step=2, group_size=4, max_new_tokens=6),
        buffer=BufferConfig(capacity=16),
        learner=LearnerConfig(lr=1e-3, micro_batch_size=16),
        train=TrainConfig(steps=2, batch_size=8, output_dir=str(tmp_path), tensorboard=False, progress=False),
        eval=HeldOutConfig(every=2, num_examples=81, samples=0, gold_prob=True),
    )
    trainer = Trainer(cfg)
    rows = trainer.fit()
    trainer.close()
    assert rows[-1]["eval/num_problems"] == 81 and 0 < rows[-1]["eval/gold_prob"] < 1
    assert "eval/pass@1" not in rows[-1]


# ---- configurations that would train the wrong objective ----------------------------------------------------


def test_rollout_top_p_below_one_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"rollout.top_p=1.0"):
        RolloutConfig(top_p=0.9)
    assert RolloutConfig(top_p=1.0).top_p == 1.0 and HeldOutConfig(top_p=0.95).top_p == 0.95


def test_hindsight_with_a_behaviour_ratio_is_rejected() -> None:
    buffer = BufferConfig(capacity=64, hindsight=HindsightConfig(strategy="final"))
    env = EnvConfig(id="rlvr/Countdown-v0")
    with pytest.raises(ConfigError, match="learner.loss=asymre"):
        RunConfig(env=env, buffer=buffer)
    with pytest.raises(ConfigError, match="learner.loss=asymre"):
        RunConfig(env=env, buffer=buffer, learner=LearnerConfig(old_logprobs="learner", tis_cap=2.0))
    assert RunConfig(env=env, buffer=buffer, learner=LearnerConfig(loss="asymre")).learner.loss == "asymre"
    base = RunConfig(env=env, buffer=buffer, learner=LearnerConfig(old_logprobs="learner"))
    assert replace(base.buffer, hindsight=None).hindsight is None
