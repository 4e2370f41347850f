"""Theorem 4.5 planner: the closed form against a numerical minimisation, the paper-derived table, the CLI and
the one-line hint `rlvr train` logs."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import numpy as np
import pytest
import yaml

from rlvr.cli import main
from rlvr.train.plan import hint as plan_hint
from rlvr.train.plan import objective, optimum, plan


def numeric_minimum(mu: float, alpha: float, rho: float) -> tuple[float, float]:
    """argmin of J over (x, y) by a log-grid search refined three times (no scipy in the environment)."""
    lx, ly = np.log(1e-3), np.log(1e-3)
    hx, hy = np.log(1e5), np.log(1e4)
    for _ in range(4):
        X, Y = np.meshgrid(np.exp(np.linspace(lx, hx, 401)), np.exp(np.linspace(ly, hy, 401)), indexing="ij")
        J = X ** (2 * alpha) * (1 + Y / mu) * (1 / Y + 1 / X + rho)
        i, j = np.unravel_index(np.argmin(J), J.shape)
        x, y = X[i, j], Y[i, j]
        wx, wy = (hx - lx) / 20, (hy - ly) / 20
        lx, hx, ly, hy = np.log(x) - wx, np.log(x) + wx, np.log(y) - wy, np.log(y) + wy
    return float(x), float(y)


@pytest.mark.parametrize(
    "mu,alpha,rho",
    [
        (5.28, 0.25, 0.1),
        (5.28, 0.1, 0.1),
        (6.84, 0.05, 0.01),
        (0.96, 0.25, 0.1),
        (20.0, 0.4, 1.0),
        (2.0, 0.15, 0.5),
    ],
)
def test_closed_form_is_the_numerical_minimum(mu: float, alpha: float, rho: float) -> None:
    x, y = optimum(mu, alpha, rho)
    xn, yn = numeric_minimum(mu, alpha, rho)
    assert x == pytest.approx(xn, rel=2e-3) and y == pytest.approx(yn, rel=2e-3)
    assert objective(x, y, mu, alpha, rho) <= objective(xn, yn, mu, alpha, rho) * (1 + 1e-9)
    assert y == pytest.approx(np.sqrt(mu / (rho + 1 / x)), rel=1e-9)  # the theorem's y* given x*


def test_the_paper_derived_table() -> None:
    """PAPER.md section 3: mu = 5.28, rho = 0.1; alpha 0.25 -> y* ~ 3.2, x* ~ 2.4; alpha 0.1 -> y* ~ 5.6, x* ~ 14."""
    x, y = optimum(5.28, 0.25, 0.1)
    assert round(y, 1) == 3.2 and round(x, 1) == 2.4
    x, y = optimum(5.28, 0.1, 0.1)
    assert round(y, 1) == 5.6 and round(x) == 14


def test_plan_sizes_band_and_when_to_stay_on_policy() -> None:
    p = plan(5.28, 64)
    assert p.replay and round(p.y * 64) == p.B and p.N >= p.B  # x* R = 156 < B = 206: raised to B
    assert p.y_band[0] < p.y < p.y_band[1] and p.x_band[0] < p.x < p.x_band[1]
    assert 0 < p.saving < 1 and 0 < p.on_policy_share < 1
    wide = plan(6.84, 64, alpha=0.1)
    assert wide.N == round(wide.x * 64) > wide.B  # a long horizon: N from x*
    cheap = plan(0.96, 64)  # generation as cheap as training (this CPU): y* < 1
    assert not cheap.replay and cheap.B == cheap.N == 64 and "stay on-policy" in cheap.summary()
    assert optimum(5.0, 0.5, 0.1) == (0.0, 0.0)  # sigma grows too fast: no finite horizon pays
    x0, y0 = optimum(5.28, 0.25, 0.0)
    x1, y1 = optimum(5.28, 0.25, 1e-9)
    assert y0 == pytest.approx(y1, rel=1e-6) and x0 == pytest.approx(x1, rel=1e-6)  # the rho -> 0 limit
    larger = [optimum(mu, 0.25, 0.1) for mu in (2.0, 5.0, 10.0)]
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in itertools.pairwise(larger))  # both grow with mu
    for bad in ({"mu": 0.0}, {"mu": float("inf")}):
        with pytest.raises(ValueError, match="mu"):
            plan(bad["mu"], 64)
    with pytest.raises(ValueError, match="alpha"):
        optimum(5.0, 0.0, 0.1)


def test_hint_only_when_far_from_the_plan() -> None:
    assert plan_hint(5.28, 64, 128, 512) is None  # B/R = 2, N/R = 8: inside the band
    msg = plan_hint(0.01, 64, 128, 512)  # generation nearly free: replay never pays
    assert msg is not None and "replay does not pay" in msg and "rlvr plan --mu 0.01" in msg
    msg = plan_hint(5.28, 64, 64 * 60, 64 * 60)
    assert msg is not None and "B/R = 60.00" in msg
    assert plan_hint(float("nan"), 64, 128, 512) is None


def test_cli_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--mu", "5.28", "--rollouts-per-step", "64"]) == 0
    out = capsys.readouterr().out
    assert "y* = B/R = 3.21" in out and "x* = N/R = 2.43" in out and "band over alpha" in out
    assert main(["plan", "--mu", "0.96", "-R", "64"]) == 0
    assert "stay on-policy" in capsys.readouterr().out
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.csv").write_text("step,compute/mu\n1,nan\n2,6.0\n3,5.28\n")
    config = {"rollout": {"prompts_per_step": 8, "group_size": 8}, "train": {"batch_size": 128}}
    (run / "config.yaml").write_text(yaml.safe_dump({**config, "buffer": {"capacity": 512}}))
    assert main(["plan", "--run", str(run)]) == 0
    out = capsys.readouterr().out
    assert "measured mu = 5.280" in out and "R = 64" in out and "within the band" in out
    assert main(["plan"]) == 2 and "--mu" in capsys.readouterr().err
    assert main(["plan", "--run", str(tmp_path / "missing")]) == 2
    assert "metrics.csv" in capsys.readouterr().err
    assert main(["plan", "--mu", "-1", "-R", "64"]) == 2


def test_train_logs_the_hint(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A replay run (B = 2R) whose mu says replay cannot pay gets the one-line hint."""
    from rlvr.buffer import BufferConfig
    from rlvr.policy import LearnerConfig
    from rlvr.train.config import EnvConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig
    from rlvr.train.loop import Trainer

    cfg = RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(kwargs={"difficulty": 0, "template": "plain-v0"}),
        rollout=RolloutConfig(prompts_per_step=2, group_size=4, max_new_tokens=4),
        buffer=BufferConfig(capacity=32),
        learner=LearnerConfig(lr=1e-3, micro_batch_size=16),
        train=TrainConfig(
            steps=3, batch_size=16, output_dir=str(tmp_path), tensorboard=False, progress=False
        ),
    )
    trainer = Trainer(cfg)
    trainer.compute.fixed_mu = 0.01  # as if generation were nearly free
    with caplog.at_level(logging.INFO, logger="rlvr.train"):
        trainer.fit()
    trainer.close()
    hints = [r.getMessage() for r in caplog.records if r.getMessage().startswith("plan:")]
    assert len(hints) == 1 and "replay does not pay" in hints[0]
