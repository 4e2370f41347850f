"""What a new user meets (issue 16): config notation, CLI forms, data errors, eval splits -- driven as a user would."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.cli import main as cli
from rlvr.core import ConfigError
from rlvr.train.config import RunConfig
from rlvr.train.configio import load_config

ROOT = Path(__file__).resolve().parents[1]


def test_exponent_notation_is_a_float_in_yaml_and_on_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    text = (ROOT / "configs/default.yaml").read_text()
    assert "lr: 1.0e-4" in text
    path.write_text(text.replace("lr: 1.0e-4", "lr: 1e-4"))
    cfg = load_config(RunConfig, path)
    assert cfg.learner.lr == pytest.approx(1e-4)
    cfg = load_config(RunConfig, ROOT / "configs/default.yaml", ["learner.lr=3e-5", "learner.max_grad_norm=2E+0"])
    assert cfg.learner.lr == pytest.approx(3e-5) and cfg.learner.max_grad_norm == pytest.approx(2.0)


def test_cli_override_replaces_a_mapping() -> None:
    base = load_config(RunConfig, ROOT / "configs/default.yaml", ["env.kwargs={difficulty: 1}"])
    assert base.env.kwargs == {"difficulty": 1}
    cleared = load_config(RunConfig, ROOT / "configs/default.yaml", ["env.kwargs={difficulty: 1}", "env.kwargs={}"])
    assert cleared.env.kwargs == {}


def test_greedy_rollouts_are_rejected_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="temperature=0.*advantage is zero"):
        load_config(RunConfig, ROOT / "configs/default.yaml", ["rollout.temperature=0"])
    assert cli(["train", str(ROOT / "configs/default.yaml"), "rollout.temperature=0", "--dry-run"]) == 2
    assert "temperature > 0" in capsys.readouterr().err
