"""scripts/device_check.py, the prepared accelerator check of issue 15, runs end to end here on CPU: real
training steps of the shipped model, timings read back from the run's metrics.csv into the table and the JSON."""

from __future__ import annotations

import json
import math
import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "device_check.py"
SMALL = [
    "rollout.prompts_per_step=2",
    "rollout.group_size=2",
    "train.batch_size=4",
    "buffer.capacity=8",
    "learner.micro_batch_size=4",
    "rollout.max_new_tokens=8",
]


def test_device_check_trains_and_reports_timings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main = runpy.run_path(str(SCRIPT))["main"]
    assert main(["--shapes", "tiny", "--steps", "2", "--device", "cpu", "--out", str(tmp_path), *SMALL]) == 0
    (result,) = json.loads((tmp_path / "device_check.json").read_text())
    assert result["shape"] == "tiny" and result["device"] == "cpu" and result["steps"] == 2
    for key in ("step_s", "generate_s", "train_s", "gen_tokens_per_s", "train_tokens_per_s", "mu"):
        assert math.isfinite(result[key]) and result[key] > 0, key
    assert "| tiny | cpu | 2 |" in capsys.readouterr().out


def test_device_check_refuses_an_unknown_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main = runpy.run_path(str(SCRIPT))["main"]
    assert main(["--shapes", "smollm3", "--out", str(tmp_path)]) == 2
    assert "unknown shape(s) ['smollm3']" in capsys.readouterr().err
