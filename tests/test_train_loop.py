"""The single-process GRPO-with-replay loop: config checks, learning, exact resume, CLI."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

import rlvr
from rlvr.buffer import BufferConfig
from rlvr.cli import main
from rlvr.core import ConfigError, Example, Verdict
from rlvr.envs import PromptTemplate
from rlvr.policy import LearnerConfig
from rlvr.tasks import ListTask, example_key
from rlvr.train.config import EnvConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig
from rlvr.train.configio import to_dict
from rlvr.train.loop import Trainer
from rlvr.verifiers import verifier

ENV_ID = "test/LetterA-v0"


@verifier("test/letter-a", overwrite=True)
def letter_a(completion: str, reference: str) -> Verdict:
    """Partial credit: the share of lowercase ASCII letters among the first 8 characters.

    A random byte-level model emits one ~10% of the time: a dense signal that a few GRPO steps can climb.
    """
    head = completion[:8]
    score = sum("a" <= c <= "z" for c in head) / 8
    return Verdict(score, score == 1.0, "correct" if score == 1.0 else "wrong")


def _task() -> ListTask:
    prompts = [f"Say a{i}" for i in range(8)]
    examples = [Example(example_key("letter_a", p, "a"), p, "a", "letter_a") for p in prompts]
    return ListTask("letter_a", examples, verifier_name="test/letter-a", gold_fn=lambda ex: "aaaaaaaa")


if ENV_ID not in rlvr.envs.ENVS:
    rlvr.register_env(
        ENV_ID, task=_task, verifier=letter_a, template=PromptTemplate("plain-test-v0", "{prompt}")
    )


def tiny_config(out: Path, **train: object) -> RunConfig:
    return RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(id=ENV_ID),
        rollout=RolloutConfig(prompts_per_step=4, group_size=4, max_new_tokens=8),
        buffer=BufferConfig(capacity=48),
        learner=LearnerConfig(lr=3e-3, micro_batch_size=16),
        train=TrainConfig(
            **{
                "steps": 4,
                "batch_size": 16,
                "output_dir": str(out),
                "tensorboard": False,
                "progress": False,
                **train,
            }
        ),
    )


def test_invalid_combinations_fail_before_work(tmp_path: Path) -> None:
    base = tiny_config(tmp_path)
    with pytest.raises(ConfigError, match="exceeds buffer.capacity"):
        replace(base, train=replace(base.train, batch_size=64))
    with pytest.raises(ConfigError, match="smaller than the R=16 rollouts"):
        replace(base, buffer=BufferConfig(capacity=8), train=replace(base.train, batch_size=8))
    with pytest.raises(ConfigError, match="set learner.temperature"):
        replace(base, rollout=replace(base.rollout, temperature=0.7))
    with pytest.raises(ConfigError, match="group_size >= 2"):
        RolloutConfig(group_size=1)
    with pytest.raises(ConfigError, match="multiple of rollout.group_size"):
        replace(
            base, buffer=BufferConfig(capacity=48, sampler="group"), train=replace(base.train, batch_size=10)
        )


def test_tiny_model_trains_and_params_change(tmp_path: Path) -> None:
    trainer = Trainer(tiny_config(tmp_path / "run"))
    before = {k: v.clone() for k, v in trainer.model.state_dict().items()}
    rows = trainer.fit()
    trainer.close()
    after = trainer.model.state_dict()
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert len(changed) > len(before) // 2, "most parameter tensors should move after 4 updates"
    assert [r["step"] for r in rows] == [1, 2, 3, 4]
    assert rows[-1]["policy/version"] == 4
    assert rows[-1]["compute/unique_rollouts"] == 64 and rows[-1]["compute/trained_samples"] == 64
    assert np.isfinite(rows[-1]["compute/mu"]) and rows[-1]["compute/mu"] > 0
    # generation lags by one update at most with sync_every=1: the backend holds the learner's weights
    gen = trainer.backend.model.state_dict()
    assert all(torch.equal(gen[k], after[k]) for k in after)
    out = tmp_path / "run"
    assert (
        (out / "metrics.csv").exists() and (out / "training.png").exists() and (out / "config.yaml").exists()
    )


def test_resume_continues_identically(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path / "full", steps=4, checkpoint_every=2, sync_every=2)
    full = Trainer(cfg)
    rows_full = full.fit()
    full.close()

    part_cfg = replace(cfg, train=replace(cfg.train, output_dir=str(tmp_path / "part"), steps=2))
    first = Trainer(part_cfg)
    first.fit()
    first.close()
    resumed = Trainer(replace(part_cfg, train=replace(part_cfg.train, steps=4)))
    rows_resumed = resumed.fit()
    resumed.close()

    assert [r["step"] for r in rows_resumed] == [3, 4]
    for a, b in zip(rows_full[2:], rows_resumed):
        for key in (
            "rollout/reward_mean",
            "train/loss",
            "train/grad_norm",
            "buffer/size",
            "rollout/generated_tokens",
        ):
            assert a[key] == pytest.approx(b[key], rel=1e-5, abs=1e-7), key
    for name, tensor in full.model.state_dict().items():
        torch.testing.assert_close(tensor, resumed.model.state_dict()[name], rtol=1e-5, atol=1e-6)


def test_reward_rises_on_a_learnable_task(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path / "learn", steps=16)
    cfg = replace(cfg, learner=replace(cfg.learner, lr=1e-2))
    trainer = Trainer(cfg)
    rows = trainer.fit()
    trainer.close()
    rewards = [r["rollout/reward_mean"] for r in rows]
    early, late = np.mean(rewards[:3]), np.mean(rewards[-3:])
    assert late > early + 0.15, f"reward should climb on this task: {np.round(rewards, 3)}"


def test_cli_train_runs_and_rejects_bad_configs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg_path = tmp_path / "run.yaml"
    cfg_path.write_text(yaml.safe_dump(to_dict(tiny_config(tmp_path / "cli", steps=2))))
    assert main(["train", str(cfg_path), "--dry-run"]) == 0
    assert "LetterA" in capsys.readouterr().out
    # overrides may also follow options
    assert main(["train", str(cfg_path), "--dry-run", "train.steps=7", "rollout.group_size=3"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["train"]["steps"] == 7 and printed["rollout"]["group_size"] == 3
    with pytest.raises(SystemExit):
        main(["train", str(cfg_path), "--dry-run", "--bogus-flag"])
    assert main(["train", str(cfg_path), "train.batch_sise=3"]) == 2
    assert "did you mean 'batch_size'" in capsys.readouterr().err
    assert main(["train", str(cfg_path), "--no-resume"]) == 0
    assert "2 steps" in capsys.readouterr().out
    assert (tmp_path / "cli" / "checkpoints" / "latest").exists()


def test_eval_seed_fixes_the_held_out_set_across_training_seeds() -> None:
    from rlvr.train.build import build_env, held_out_examples
    from rlvr.train.configio import load_config

    def keys(*overrides: str) -> list[str]:
        cfg = load_config(RunConfig, None, ["eval.num_examples=16", "eval.every=5", *overrides])
        _, examples = held_out_examples(cfg, build_env(cfg).task)
        return [ex.key for ex in examples]

    assert keys("train.seed=1") != keys("train.seed=2")  # by default the set follows the training seed
    assert keys("train.seed=1", "eval.seed=7") == keys("train.seed=2", "eval.seed=7")
