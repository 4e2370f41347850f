"""SFT warm start: gold completions rendered by the env's template, loss only on completion tokens."""

from __future__ import annotations

import numpy as np
import pytest

from rlvr.core.errors import ConfigError
from rlvr.policy import load_model, resolve_model_path, tiny_model
from rlvr.train.sft import SFTConfig, _batch, save_model, sft, sft_pairs

ENV = ("rlvr/Arithmetic-v0", {"difficulty": 1, "template": "plain-v0", "size": 64})


def test_pairs_are_prompt_and_gold_completion() -> None:
    _, tok = tiny_model()
    pairs = sft_pairs(*ENV, tok, limit=8)
    assert len(pairs) == 8
    prompt, completion = pairs[0]
    assert tok.decode(prompt) == "Compute 13 - 15."
    assert tok.decode(completion[:-1]) == "The final answer is $\\boxed{-2}$."
    assert completion[-1] == tok.eos_token_id
    ids, attn, labels = _batch(pairs[:2], pad=tok.pad_token_id)
    # the prompt is context only: no loss on it, and padding is neither attended nor trained on
    assert ids[0, : len(prompt)].tolist() == prompt
    assert (labels[0, : len(prompt)] == -100).all()
    assert labels[0, len(prompt) : len(prompt) + len(completion)].tolist() == completion
    assert int(attn[0].sum()) == len(prompt) + len(completion)


def test_sft_learns_the_format_and_saves(tmp_path) -> None:
    model, tok = tiny_model(seed=0)
    pairs = sft_pairs(*ENV, tok)
    losses = sft(
        model, tok, pairs, SFTConfig(steps=40, batch_size=16, lr=5e-3, warmup_steps=5), progress=False
    )
    assert np.mean(losses[-5:]) < 0.5 * np.mean(losses[:5])
    out = save_model(model, tok, tmp_path / "m")
    again, _ = load_model(str(out))
    assert again.config.rlvr_sft["steps"] == 40


def test_bad_sft_config_is_rejected() -> None:
    with pytest.raises(ConfigError, match="steps"):
        SFTConfig(steps=0)


def test_shipped_default_model_alias() -> None:
    path = resolve_model_path("tiny-arithmetic")
    assert path.endswith("tiny-arithmetic")
    model, tok = load_model(path)
    assert model.config.rlvr_sft["env"] == "rlvr/Arithmetic-v0"
    assert tok.decode(tok("Compute 1 + 2.")["input_ids"]) == "Compute 1 + 2."
