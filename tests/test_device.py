"""`model.device` / `model.dtype`: CUDA (bf16 where supported) when present, the same config on CPU here."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from rlvr.cli import main as cli
from rlvr.core import ConfigError
from rlvr.train.build import build_model, resolve_device
from rlvr.train.config import ModelConfig

ROOT = Path(__file__).resolve().parents[1]


def test_auto_is_cpu_float32_without_a_gpu() -> None:
    assert not torch.cuda.is_available()  # this machine; on a GPU machine the next test covers it
    assert resolve_device(ModelConfig()) == ("cpu", "float32")
    model, _ = build_model(ModelConfig(name="tiny"), seed=0)
    assert {(p.device.type, p.dtype) for p in model.parameters()} == {("cpu", torch.float32)}


@pytest.mark.parametrize(
    ("bf16", "config", "want"),
    [
        (True, {}, ("cuda", "bfloat16")),
        (False, {}, ("cuda", "float32")),  # no bf16: fp32 (fp16 training would need a loss scaler)
        (True, {"dtype": "float32"}, ("cuda", "float32")),
        (True, {"device": "cpu"}, ("cpu", "float32")),
        (True, {"device": "cuda:1"}, ("cuda:1", "bfloat16")),
    ],
)
def test_auto_picks_cuda_and_bf16_when_present(
    monkeypatch: pytest.MonkeyPatch, bf16: bool, config: dict, want: tuple[str, str]
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: bf16)
    assert resolve_device(ModelConfig(**config)) == want


def test_bad_settings_fail_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="model.device must be 'auto', 'cpu', 'cuda' or 'cuda:N'"):
        ModelConfig(device="gpu")
    with pytest.raises(ConfigError, match="model.dtype must be one of"):
        ModelConfig(dtype="fp8")  # type: ignore[arg-type]
    out = tmp_path / "run"
    argv = [
        "train",
        str(ROOT / "configs/default.yaml"),
        "--dry-run",
        "model.device=cuda",
        f"train.output_dir={out}",
    ]
    assert cli(argv) != 0
    err = capsys.readouterr().err
    assert "model.device='cuda' but torch sees no CUDA device" in err and "model.device=auto" in err
    assert not (out / "metrics.csv").exists()
