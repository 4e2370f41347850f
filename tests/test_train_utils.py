"""Config loading/overrides, metrics CSV + plot, atomic checkpoints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from rlvr.core import ConfigError
from rlvr.train.checkpoint import latest_checkpoint, write_checkpoint
from rlvr.train.configio import dump_config, from_dict, load_config, parse_overrides, to_dict
from rlvr.train.metrics import MetricsLogger, plot_metrics


@dataclass(frozen=True)
class Inner:
    lr: float = 1e-3
    name: Literal["adam", "sgd"] = "adam"
    betas: tuple[float, ...] = (0.9, 0.99)

    def __post_init__(self) -> None:
        if self.lr <= 0:
            raise ConfigError(f"lr must be > 0, got {self.lr}")


@dataclass(frozen=True)
class Outer:
    steps: int = 10
    tag: str | None = None
    inner: Inner = field(default_factory=Inner)


def test_yaml_overrides_and_roundtrip(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("steps: 5\ninner:\n  lr: 0.5\n")
    cfg = load_config(Outer, path, ["inner.name=sgd", "tag=run1", "inner.betas=[0.1, 0.2]"])
    assert cfg == Outer(steps=5, tag="run1", inner=Inner(lr=0.5, name="sgd", betas=(0.1, 0.2)))
    dump_config(cfg, tmp_path / "out.yaml")
    assert load_config(Outer, tmp_path / "out.yaml") == cfg
    assert to_dict(cfg)["inner"]["betas"] == [0.1, 0.2]


def test_config_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown config key 'inner.lrr'; did you mean 'lr'"):
        from_dict(Outer, {"inner": {"lrr": 1}})
    with pytest.raises(ConfigError, match="inner.name.*not one of"):
        from_dict(Outer, {"inner": {"name": "rmsprop"}})
    with pytest.raises(ConfigError, match="steps: expected an integer"):
        from_dict(Outer, {"steps": "ten"})
    with pytest.raises(ConfigError, match="lr must be > 0"):
        from_dict(Outer, {"inner": {"lr": -1}})
    with pytest.raises(ConfigError, match="section.key=value"):
        parse_overrides(["steps"])
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(Outer, tmp_path / "missing.yaml")


def test_metrics_csv_new_columns_resume_and_plot(tmp_path: Path) -> None:
    log = MetricsLogger(tmp_path, tensorboard=True)
    log.log(1, {"rollout/reward_mean": 0.1})
    log.log(2, {"rollout/reward_mean": 0.3, "train/entropy": 1.5})
    log.log(3, {"rollout/reward_mean": 0.5, "train/entropy": 1.2})
    log.close()
    text = (tmp_path / "metrics.csv").read_text().splitlines()
    assert text[0] == "step,rollout/reward_mean,train/entropy"
    assert len(text) == 4
    assert any((tmp_path / "tensorboard").iterdir())
    resumed = MetricsLogger(tmp_path, tensorboard=False, resume=True)
    resumed.truncate(after_step=2)
    assert [int(float(r["step"])) for r in resumed.rows] == [1, 2]
    png = plot_metrics(tmp_path / "metrics.csv", tmp_path / "plot.png")
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"


def test_checkpoints_are_atomic_and_pruned(tmp_path: Path) -> None:
    root = tmp_path / "ckpt"
    for step in (1, 2, 3):
        write_checkpoint(root, step, lambda d, s=step: (d / "x").write_text(str(s)), keep=2)
    assert sorted(p.name for p in root.glob("step-*")) == ["step-000002", "step-000003"]
    assert (latest_checkpoint(root) / "x").read_text() == "3"

    def crash(d: Path) -> None:
        (d / "x").write_text("partial")
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        write_checkpoint(root, 4, crash)
    assert latest_checkpoint(root).name == "step-000003"
