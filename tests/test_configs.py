"""Every shipped run config validates, and the main job's config means what the README says."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.policy import resolve_model_path
from rlvr.train.config import RunConfig
from rlvr.train.configio import load_config

CONFIGS = sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_shipped_config_validates(path: Path) -> None:
    config = load_config(RunConfig, str(path), [])
    assert config.train.steps >= 1


def test_default_config_is_replay_on_the_shipped_model() -> None:
    config = load_config(RunConfig, str(CONFIGS[0].with_name("default.yaml")), [])
    assert Path(resolve_model_path(config.model.name)).is_dir()
    # replay on: fewer rollouts generated per step than trained on, from a buffer holding several steps
    assert config.rollout.rollouts_per_step < config.train.batch_size < config.buffer.capacity
    assert config.distributed is None and config.rollout.backend == "hf"
    assert config.eval.every > 0
