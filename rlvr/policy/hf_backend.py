"""Generation with a transformers model, returning each sampled token's behaviour log-prob.

Two decoders: "loop" (default, `rlvr.policy.decode`: one prefill per distinct prompt, finished rows dropped
from the batch, its own seeded generator) and "generate" (transformers' `model.generate` with the warpers
passed explicitly and a last processor that records log-probs). Both sample from the same distribution.

Which distribution the behaviour log-probs come from (the same in the vLLM backend): the distribution the
token was actually drawn from, i.e. softmax of the logits divided by the temperature, then restricted to the
top-k / top-p set and renormalised. With the training defaults (top_k=0, top_p=1) this is exactly
log_softmax(logits / T), which is what `Learner.compute_logprobs` computes with the same temperature, so the
importance ratio of a fresh rollout is 1. With top-k/top-p on, the behaviour log-prob is higher than the
learner's by -log(kept mass) and the ratio is the honest correction between the filtered sampler and the
unfiltered policy. Greedy decoding (temperature 0) reports log_softmax(logits), i.e. temperature 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import torch

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import derive_seed
from rlvr.core.types import Prompt
from rlvr.policy.base import Generation, GenerationBackend, SamplingParams
from rlvr.policy.decode import sample
from rlvr.policy.prompts import encode_prompt, eos_token_ids, finish_completion


class _LogprobRecorder:
    """Last logits processor: remembers the final sampling scores so the sampled token's log-prob can be read.

    transformers calls processors before sampling, so the log-prob of the token drawn at step t is gathered
    at step t+1 (when it appears in `input_ids`), and the last one after `generate` returns.
    """

    def __init__(self) -> None:
        self.prev_scores: torch.Tensor | None = None
        self.prev_lse: torch.Tensor | None = None
        self.logprobs: list[torch.Tensor] = []

    def gather(self, tokens: torch.Tensor) -> None:
        if self.prev_scores is None or self.prev_lse is None:
            return
        picked = self.prev_scores.gather(1, tokens[:, None])[:, 0]
        self.logprobs.append(picked - self.prev_lse)
        self.prev_scores = self.prev_lse = None

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        self.gather(input_ids[:, -1])
        self.prev_scores = scores.float()
        self.prev_lse = torch.logsumexp(self.prev_scores, dim=-1)
        return scores


class HFBackend(GenerationBackend):
    """Batched, seeded sampling from a transformers model; may share its model object with the learner."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        seed: int = 0,
        max_batch_size: int = 64,
        decoder: str = "loop",
        show_progress: bool = False,
    ) -> None:
        if max_batch_size < 1:
            raise ConfigError(f"max_batch_size must be >= 1, got {max_batch_size}")
        if decoder not in ("loop", "generate"):
            raise ConfigError(f"decoder must be 'loop' (rlvr's sampling loop) or 'generate', got {decoder!r}")
        self.decoder = decoder
        self.model = model
        self.tokenizer = tokenizer
        self.seed = int(seed)
        self.max_batch_size = int(max_batch_size)
        self.show_progress = show_progress
        self.policy_version = 0
        self._calls = 0
        self._eos = eos_token_ids(tokenizer, getattr(model, "generation_config", None))
        self._pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self._eos[0]

    @property
    def device(self) -> torch.device:
        """Device of the model's parameters."""
        return next(self.model.parameters()).device

    def _generation_config(self, sampling: SamplingParams) -> Any:
        from transformers import GenerationConfig

        # Warpers are passed explicitly (see _processors) so that the log-prob recorder runs after them;
        # a fresh config keeps the model's own defaults (top_k=50, repetition penalties...) out of the way.
        return GenerationConfig(
            do_sample=sampling.temperature > 0,
            temperature=1.0,
            top_k=0,
            top_p=1.0,
            max_new_tokens=sampling.max_new_tokens,
            eos_token_id=self._eos,
            pad_token_id=self._pad,
            stop_strings=list(sampling.stop) or None,
            use_cache=True,
            return_dict_in_generate=True,
        )

    def _processors(self, sampling: SamplingParams, recorder: _LogprobRecorder) -> Any:
        from transformers import (
            LogitsProcessorList,
            TemperatureLogitsWarper,
            TopKLogitsWarper,
            TopPLogitsWarper,
        )

        chain: list[Any] = []
        if sampling.temperature > 0:
            if sampling.temperature != 1.0:
                chain.append(TemperatureLogitsWarper(sampling.temperature))
            if sampling.top_k > 0:
                chain.append(TopKLogitsWarper(top_k=sampling.top_k))
            if sampling.top_p < 1.0:
                chain.append(TopPLogitsWarper(top_p=sampling.top_p))
        chain.append(recorder)
        return LogitsProcessorList(chain)

    def _generate_chunk(
        self, prompt_ids: list[list[int]], sampling: SamplingParams, seed: int
    ) -> tuple[list[list[int]], list[list[float]]]:
        width = max(len(p) for p in prompt_ids)
        input_ids = torch.full((len(prompt_ids), width), self._pad, dtype=torch.long)
        attention = torch.zeros((len(prompt_ids), width), dtype=torch.long)
        for row, ids in enumerate(prompt_ids):  # left padding: every prompt ends where generation starts
            input_ids[row, width - len(ids) :] = torch.tensor(ids)
            attention[row, width - len(ids) :] = 1
        recorder = _LogprobRecorder()
        with torch.random.fork_rng(devices=[]), torch.no_grad():
            torch.manual_seed(seed)  # generate draws from the global RNG: seed it locally
            out = self.model.generate(
                input_ids=input_ids.to(self.device),
                attention_mask=attention.to(self.device),
                generation_config=self._generation_config(sampling),
                logits_processor=self._processors(sampling, recorder),
                tokenizer=self.tokenizer if sampling.stop else None,
            )
        completions = out.sequences[:, width:].cpu()
        if (
            len(recorder.logprobs) < completions.shape[1]
        ):  # the last sampled token's log-prob is still pending
            recorder.gather(completions[:, len(recorder.logprobs)])
        # generate may run a step past a stop and undo it; trust the returned sequences' length
        steps = min(completions.shape[1], len(recorder.logprobs))
        logprobs = (
            torch.stack(recorder.logprobs[:steps], dim=1).cpu() if steps else torch.zeros(len(prompt_ids), 0)
        )
        return completions[:, :steps].tolist(), logprobs.tolist()

    def _sample_chunk(
        self, prompt_ids: list[list[int]], n: int, sampling: SamplingParams, seed: int
    ) -> tuple[list[list[int]], list[list[float]]]:
        """Token ids and log-probs of n samples for each prompt, prompt-major."""
        was_training = self.model.training
        self.model.eval()
        try:
            if self.decoder == "generate":
                out = self._generate_chunk([ids for ids in prompt_ids for _ in range(n)], sampling, seed)
                if self.on_completions is not None:  # transformers' generate reports nothing sooner
                    self.on_completions(len(prompt_ids) * n)
                return out
            return sample(
                self.model,
                prompt_ids,
                n,
                sampling,
                eos_ids=self._eos,
                pad_id=self._pad,
                generator=torch.Generator(device=self.device).manual_seed(seed),
                tokenizer=self.tokenizer if sampling.stop else None,
                on_done=self.on_completions,
            )
        finally:
            self.model.train(was_training)

    def generate(self, prompts: Sequence[Prompt], n: int, sampling: SamplingParams) -> list[list[Generation]]:
        """Return, for each prompt, `n` sampled completions with token ids and behaviour log-probs."""
        if n < 1:
            raise ConfigError(f"n (completions per prompt) must be >= 1, got {n}")
        encoded = [encode_prompt(self.tokenizer, p) for p in prompts]
        call_seed = (
            sampling.seed if sampling.seed is not None else derive_seed(self.seed, "call", self._calls)
        )
        self._calls += 1
        per_chunk = max(1, self.max_batch_size // n)  # whole prompts per chunk: all n samples share a prefill
        chunks: Iterable[int] = range(0, len(encoded), per_chunk)
        if self.show_progress:
            from tqdm.auto import tqdm

            chunks = tqdm(chunks, desc=f"generate (hf, {self.decoder})", unit="batch")
        results: list[list[Generation]] = []
        for start in chunks:
            part = encoded[start : start + per_chunk]
            seqs, lps = self._sample_chunk(
                [ids for _, ids in part], n, sampling, derive_seed(call_seed, "chunk", start)
            )
            for k, (text, prompt_ids) in enumerate(part):
                group = []
                for ids, lp in zip(seqs[k * n : (k + 1) * n], lps[k * n : (k + 1) * n]):
                    completion, cids, clps, reason = finish_completion(
                        self.tokenizer,
                        ids,
                        lp,
                        eos_ids=self._eos,
                        stop=sampling.stop,
                        max_new_tokens=sampling.max_new_tokens,
                    )
                    group.append(
                        Generation(
                            prompt=text,
                            prompt_ids=np.asarray(prompt_ids, dtype=np.int64),
                            completion=completion,
                            completion_ids=cids,
                            logprobs=clps,
                            finish_reason=reason,
                            metadata={"policy_version": self.policy_version, "backend": "hf"},
                        )
                    )
                results.append(group)
        return results

    def load_weights(self, state_dict: Mapping[str, Any], version: int) -> None:
        """Copy the learner's weights in place (tensors already shared with this model are skipped)."""
        own = self.model.state_dict()
        unknown = [k for k in state_dict if k not in own]
        if unknown:
            raise ConfigError(
                f"load_weights got {len(unknown)} tensors this model does not have (e.g. {unknown[:3]}); "
                "sync weights from a learner built on the same architecture"
            )
        with torch.no_grad():
            for name, value in state_dict.items():
                target = own[name]
                if isinstance(value, torch.Tensor) and value.data_ptr() == target.data_ptr():
                    continue  # the learner and this backend share the model: nothing to copy
                target.copy_(torch.as_tensor(value).to(device=target.device, dtype=target.dtype))
        self.policy_version = int(version)
