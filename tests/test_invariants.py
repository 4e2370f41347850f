"""The paper's invariants, end to end through the one training loop (tiny model, tiny config, real parts).

Each test watches the real run from outside (the runtime's `produce`, the buffer's `sample`, the learner's
`train_step` and `collate` wrapped, never replaced) and fails if an invariant breaks anywhere on the way:
advantages z-scored per generation group, AsymRE's V-hat = the group mean, advantages and behaviour
log-probs frozen from generation to every reuse, `buffer.sample(step=)` given the policy version, compute
= B + mu R per step from the logged parts, and `rollout/accuracy` / `rollout/truncated_frac` meaning what
they say. The Ray runtime runs the same loop and is held to the single-process run bit for bit in
tests/test_distributed.py, so these hold there too.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import rlvr
from rlvr.buffer import BufferConfig
from rlvr.core import ADVANTAGES, Example, Verdict
from rlvr.envs import PromptTemplate
from rlvr.policy import LearnerConfig
from rlvr.tasks import ListTask, example_key
from rlvr.train.config import EnvConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig
from rlvr.train.loop import Trainer
from rlvr.verifiers import verifier

ENV_ID = "test/InvariantLetters-v0"
P, G, B, MAX_NEW = 4, 4, 24, 8  # R = 16 != B, so samples and rollouts are told apart in the compute test
UPDATES = 2  # updates per step: the policy version runs ahead of the loop's step


@verifier("test/invariant-letters", overwrite=True)
def invariant_letters(completion: str, reference: str) -> Verdict:
    """Score: the share of lowercase ASCII letters in the first 8 characters; passed from a quarter on.

    `passed` is a threshold on the score, so accuracy (share passed) and reward (mean score) differ.
    """
    score = sum("a" <= c <= "z" for c in completion[:8]) / 8
    return Verdict(score, score >= 0.25, "correct" if score >= 0.25 else "wrong")


def _task() -> ListTask:
    prompts = [f"Say a{i}" for i in range(8)]
    examples = [Example(example_key("inv", p, "a"), p, "a", "inv") for p in prompts]
    return ListTask("inv", examples, verifier_name="test/invariant-letters", gold_fn=lambda ex: "aaaaaaaa")


if ENV_ID not in rlvr.envs.ENVS:
    rlvr.register_env(
        ENV_ID, task=_task, verifier=invariant_letters, template=PromptTemplate("plain-inv-v0", "{prompt}")
    )


def config(out: Path, loss: str = "grpo") -> RunConfig:
    """4 steps of 4 prompts x 4 samples, B = 24 (step 1 is warm-up), 2 updates per step."""
    return RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(id=ENV_ID),
        rollout=RolloutConfig(prompts_per_step=P, group_size=G, max_new_tokens=MAX_NEW),
        buffer=BufferConfig(capacity=48),
        learner=LearnerConfig(loss=loss, lr=1e-3, micro_batch_size=8),
        train=TrainConfig(
            steps=4,
            batch_size=B,
            updates_per_step=UPDATES,
            output_dir=str(out),
            tensorboard=False,
            progress=False,
            plot=False,
        ),
    )


def _boost_eos(model: Any, tokenizer: Any) -> None:
    """Make the random model end about half its completions before max_new_tokens (both finish reasons).

    The tied EOS embedding is moved along the mean final hidden state, which raises the EOS logit everywhere.
    """
    enc = tokenizer([f"Say a{i}" for i in range(8)], return_tensors="pt", padding=True)
    with torch.no_grad():
        hidden = model(**enc, output_hidden_states=True).hidden_states[-1]
        model.get_input_embeddings().weight[tokenizer.eos_token_id] += 0.13 * hidden.reshape(
            -1, hidden.shape[-1]
        ).mean(0)


class Watch:
    """What the run produced, sampled and trained on, recorded by wrapping the real methods."""

    def __init__(self, trainer: Trainer) -> None:
        self.produced: list[tuple[int, list[Any], Any]] = []  # (step, rollouts, stats)
        self.samples: list[dict[str, int]] = []  # buffer.sample's step / policy_version and the loop's state
        self.trained: list[list[Any]] = []  # the rollouts of each optimizer step
        self.collated: list[tuple[list[Any], Any]] = []  # (micro-batch rollouts, TokenBatch)
        runtime, learner, buffer = trainer.runtime, trainer.learner, trainer.buffer
        produce, sample, train_step, collate = (
            runtime.produce,
            buffer.sample,
            learner.train_step,
            learner.collate,
        )

        def on_produce(step: int) -> Any:
            rollouts, stats = produce(step)
            self.produced.append((step, list(rollouts), stats))
            return rollouts, stats

        def on_sample(batch_size: int, step: int, *, policy_version: int | None = None) -> Any:
            self.samples.append(
                {
                    "step": step,
                    "policy_version": policy_version,
                    "version": trainer.version,
                    "loop": trainer.step,
                }
            )
            return sample(batch_size, step, policy_version=policy_version)

        def on_train(rollouts: Any, weights: Any = None, **kwargs: Any) -> Any:
            self.trained.append(list(rollouts))
            return train_step(rollouts, weights, **kwargs)

        def on_collate(rollouts: Any) -> Any:
            batch = collate(rollouts)
            self.collated.append((list(rollouts), batch))
            return batch

        runtime.produce, buffer.sample = on_produce, on_sample
        learner.train_step, learner.collate = on_train, on_collate

    def groups(self) -> dict[str, list[Any]]:
        """Generated rollouts by generation group."""
        out: dict[str, list[Any]] = defaultdict(list)
        for _, rollouts, _ in self.produced:
            for r in rollouts:
                out[r.group_id].append(r)
        return out


def _run(out: Path, loss: str = "grpo") -> tuple[Watch, list[dict[str, float]], Trainer]:
    trainer = Trainer(config(out, loss))
    _boost_eos(trainer.model, trainer.runtime.tokenizer)
    watch = Watch(trainer)
    try:
        rows = trainer.fit()
    finally:
        trainer.close()
    return watch, rows, trainer


@pytest.fixture(scope="module")
def grpo_run(tmp_path_factory) -> tuple[Watch, list[dict[str, float]], Trainer]:
    return _run(tmp_path_factory.mktemp("inv") / "grpo")


def test_advantages_are_z_scored_per_generation_group_not_per_step(grpo_run) -> None:
    watch, _, _ = grpo_run
    z = ADVANTAGES.get("grpo")
    meaningful = False
    for _, rollouts, _ in watch.produced:
        assert len(rollouts) == P * G
        groups: dict[str, list[Any]] = defaultdict(list)
        for r in rollouts:
            groups[r.group_id].append(r)
        assert len(groups) == P and all(len(g) == G for g in groups.values())
        for members in groups.values():
            rewards = [r.reward for r in members]
            assert [r.advantage for r in members] == [float(a) for a in z(rewards)]
        # the test can tell: a step whose groups differ in mean reward has other per-step z-scores
        per_step = z([r.reward for r in rollouts])
        meaningful |= not np.allclose(per_step, [r.advantage for r in rollouts])
    assert meaningful, "every step's groups had equal means: per-group and per-step z-scores coincide"


def test_buffer_sample_gets_the_policy_version(grpo_run) -> None:
    watch, rows, _ = grpo_run
    assert len(watch.samples) == len(watch.trained) == UPDATES * (len(rows) - 1)  # step 1 is warm-up
    for i, call in enumerate(watch.samples):
        assert call["step"] == call["policy_version"] == call["version"] == i, call  # i updates before it
    assert any(call["step"] != call["loop"] for call in watch.samples)  # versions run ahead of steps


def test_advantages_and_behaviour_logprobs_are_never_recomputed(grpo_run) -> None:
    watch, _, trainer = grpo_run
    generated = {(r.group_id, r.metadata["sample"]): r for g in watch.groups().values() for r in g}
    replayed = 0
    for version, batch in enumerate(watch.trained):
        for r in batch:
            original = generated[(r.group_id, r.metadata["sample"])]
            assert r.advantage == original.advantage and r.reward == original.reward
            assert np.array_equal(r.behaviour_logprobs, original.behaviour_logprobs)
            assert r.policy_version == original.policy_version
            replayed += version > r.policy_version  # trained after the weights had moved on
    assert replayed > 0, "no rollout was trained on after an update: recomputation could not show"
    # and recomputation would show: the final policy gives a replayed rollout other log-probs
    r = watch.trained[-1][0]
    now, _ = trainer.learner.compute_logprobs([r])
    assert not np.allclose(now[0, : r.num_tokens].numpy(), r.behaviour_logprobs)


def test_compute_is_b_plus_mu_r_per_step_from_the_logged_parts(grpo_run) -> None:
    _, rows, _ = grpo_run
    gen_s = rollouts = train_s = samples = 0.0
    trained_before = unique_before = 0.0
    for i, row in enumerate(rows):
        d_trained = row["compute/trained_samples"] - trained_before
        d_unique = row["compute/unique_rollouts"] - unique_before
        trained_before, unique_before = row["compute/trained_samples"], row["compute/unique_rollouts"]
        assert d_unique == row["rollout/count"] == P * G
        assert d_trained == (0 if i == 0 else UPDATES * B)  # step 1: the buffer holds 16 < B = 24
        gen_s += row["rollout/generate_s"]
        rollouts += row["rollout/count"]
        train_s += row["compute/train_s"]
        samples += d_trained
        mu = (gen_s / rollouts) / (train_s / samples) if samples else float("nan")
        if i == 0:
            assert np.isnan(row["compute/mu"]) and np.isnan(row["compute/step_cost"])
            continue
        assert row["compute/mu"] == pytest.approx(mu, rel=1e-9)
        assert row["compute/step_cost"] == pytest.approx(d_trained + mu * d_unique, rel=1e-9)
        assert row["compute/total_cost"] == pytest.approx(
            row["compute/trained_samples"] + mu * row["compute/unique_rollouts"], rel=1e-9
        )


def test_rollout_accuracy_and_truncated_frac_mean_what_they_say(grpo_run) -> None:
    watch, rows, trainer = grpo_run
    eos = trainer.runtime.tokenizer.eos_token_id
    mixed_truncation = differs_from_reward = False
    for (_, rollouts, _), row in zip(watch.produced, rows):
        passed = [r.verdict.passed for r in rollouts]
        truncated = [r.finish_reason == "length" for r in rollouts]
        for r, cut in zip(rollouts, truncated):  # "length" = hit max_new_tokens without EOS
            ended = r.num_tokens > 0 and int(r.completion_ids[-1]) == eos
            assert cut == (r.num_tokens == MAX_NEW and not ended), (r.num_tokens, r.finish_reason)
        assert row["rollout/accuracy"] == pytest.approx(np.mean(passed))
        assert row["rollout/truncated_frac"] == pytest.approx(np.mean(truncated))
        assert row["rollout/reward_mean"] == pytest.approx(np.mean([r.reward for r in rollouts]))
        mixed_truncation |= 0 < np.mean(truncated) < 1
        differs_from_reward |= row["rollout/accuracy"] != pytest.approx(row["rollout/reward_mean"])
    assert mixed_truncation, "every step was all-truncated or all-stopped: the test could not tell"
    assert differs_from_reward


def test_asymre_baseline_is_the_generation_group_mean(tmp_path: Path) -> None:
    watch, rows, _ = _run(tmp_path / "asymre", loss="asymre")
    groups = watch.groups()
    assert watch.collated and rows[-1]["policy/version"] == UPDATES * 3
    step_mean = {s: float(np.mean([r.reward for r in rs])) for s, rs, _ in watch.produced}
    per_step_differs = False
    for rollouts, batch in watch.collated:  # what the loss sees, micro-batch by micro-batch
        v_hat = [float(np.mean([m.reward for m in groups[r.group_id]])) for r in rollouts]
        assert batch.group_means is not None
        assert batch.group_means.tolist() == pytest.approx(v_hat, abs=1e-6)
        assert batch.rewards.tolist() == pytest.approx([r.reward for r in rollouts], abs=1e-6)
        per_step_differs |= not np.allclose([step_mean[r.created_step] for r in rollouts], v_hat)
    assert per_step_differs, "every group mean equalled its step's mean: the test could not tell"
