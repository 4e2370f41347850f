"""Evaluation runs with a real tiny model: resume, determinism, other envs, and `rlvr eval` end to end."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from rlvr.cli import main
from rlvr.eval import EvalConfig, evaluate, evaluate_backend, pass_at_k, read_samples
from rlvr.policy import GenerationBackend, HFBackend, SamplingParams, tiny_model
from rlvr.tasks import fixture_path

MATH = {"path": str(fixture_path("math"))}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    model, tok = tiny_model(folder, seed=0)
    return folder, model, tok


class CountingBackend(GenerationBackend):
    """A real HF backend that also counts the completions it was asked for."""

    def __init__(self, model, tok) -> None:
        self.inner = HFBackend(model, tok, seed=0)
        self.tokenizer = tok
        self.model = model
        self.calls = 0
        self.generated = 0

    def generate(self, prompts, n, sampling):
        self.calls += 1
        self.generated += len(prompts) * n
        return self.inner.generate(prompts, n, sampling)

    def load_weights(self, state_dict, version):
        self.inner.load_weights(state_dict, version)


def _config(tmp_path: Path, **kw) -> EvalConfig:
    base = dict(
        env="rlvr/MATH-v0",
        env_options=MATH,
        samples=3,
        limit=4,
        max_new_tokens=8,
        temperature=1.0,
        num_workers=0,
        batch_size=3,
        progress=False,
        output_dir=str(tmp_path / "out"),
    )
    return EvalConfig(**{**base, **kw})


def test_resume_generates_only_what_is_missing(tiny, tmp_path) -> None:
    _, model, tok = tiny
    backend = CountingBackend(model, tok)
    cfg = _config(tmp_path)
    first = evaluate(backend, config=cfg)
    assert first.generated == 12 and first.reused == 0 and backend.generated == 12
    assert backend.calls == 2  # 4 problems in batches of 3
    assert len(read_samples(cfg.samples_path)) == 12

    again = evaluate(backend, config=cfg)
    assert again.generated == 0 and again.reused == 12
    assert backend.generated == 12 and backend.calls == 2  # the rerun generated nothing
    assert again.summary == first.summary
    assert [s.completion for s in again.samples] == [s.completion for s in first.samples]

    more = evaluate(backend, config=cfg.replace(samples=5))  # two more samples per problem
    assert more.generated == 8 and more.reused == 12 and backend.generated == 20
    assert sorted({s.index for s in more.samples}) == [0, 1, 2, 3, 4]
    wider = evaluate(backend, config=cfg.replace(limit=6))  # two more problems, same settings
    assert wider.generated == 6 and wider.reused == 12

    other = evaluate(backend, config=cfg.replace(temperature=0.7))  # new settings: nothing reused
    assert other.generated == 12 and other.reused == 0
    assert other.settings["hash"] != first.settings["hash"]
    lines = read_samples(cfg.samples_path)
    assert len(lines) == 12 + 8 + 6 + 12
    assert len({(s.settings, s.key, s.index) for s in lines}) == len(lines)  # no sample stored twice

    fresh = evaluate(backend, config=cfg.replace(resume=False))
    assert fresh.generated == 12 and len(read_samples(cfg.samples_path)) == 12


def test_interrupted_samples_file_is_repaired(tiny, tmp_path) -> None:
    _, model, tok = tiny
    backend = CountingBackend(model, tok)
    cfg = _config(tmp_path)
    evaluate(backend, config=cfg)
    path = cfg.samples_path
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:10]) + lines[10][: len(lines[10]) // 2])  # killed mid-write
    with pytest.warns(UserWarning, match="unfinished last line"):
        resumed = evaluate(backend, config=cfg)
    assert resumed.generated == 2 and resumed.reused == 10
    assert len(read_samples(path)) == 12
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_evaluate_backend_writes_nothing_and_is_seeded(tiny, tmp_path, monkeypatch) -> None:
    _, model, tok = tiny
    monkeypatch.chdir(tmp_path)
    from rlvr.envs import make_env

    env = make_env("rlvr/MATH-v0", **MATH)
    held_out = [env.task[i] for i in (4, 0, 9)]
    sampling = SamplingParams(temperature=1.0, max_new_tokens=6, seed=3)
    a = evaluate_backend(HFBackend(model, tok), env, held_out, 2, sampling, ks=[1, 2])
    b = evaluate_backend(HFBackend(model, tok, seed=99), env, held_out, 2, sampling, ks=[1, 2])
    assert list(tmp_path.iterdir()) == []  # no file I/O
    assert [s.key for s in a.samples] == [ex.key for ex in held_out for _ in range(2)]
    assert [s.completion for s in a.samples] == [s.completion for s in b.samples]  # seeded by sampling.seed
    assert set(a.summary) >= {"pass@1", "pass@2", "maj@2", "mean_tokens", "no_answer_rate", "timeout_rate"}
    assert all(isinstance(v, float) for v in a.summary.values())
    # a built env is prompted as it is configured (chat=False here), whatever the tokenizer offers
    assert a.template["name"] == "boxed-v0" and a.template["chat"] is False
    assert a.samples[0].prompt.startswith(held_out[0].prompt) and "\\boxed{}" in a.samples[0].prompt
    chat = evaluate_backend(HFBackend(model, tok), env, held_out[:1], 1, sampling, chat=True)
    assert chat.samples[0].prompt.startswith("<|im_start|>user\n") and chat.template["chat"] is True
    assert chat.settings["hash"] != a.settings["hash"]


def test_gsm8k_and_humaneval_envs(tiny, tmp_path) -> None:
    _, model, tok = tiny
    backend = HFBackend(model, tok)
    gsm = evaluate(
        backend,
        "rlvr/GSM8K-v0",
        env_options={"path": str(fixture_path("gsm8k"))},
        samples=2,
        limit=3,
        max_new_tokens=6,
        num_workers=0,
        progress=False,
    )
    assert set(gsm.groups) == {"overall"} and gsm.summary["problems"] == 3  # GSM8K has no levels/subjects
    assert "maj@2" in gsm.summary
    code = evaluate(
        backend, "rlvr/HumanEval-v0", samples=1, limit=2, max_new_tokens=6, num_workers=1, progress=False
    )
    assert code.summary["problems"] == 2
    assert "maj@1" not in code.summary  # code answers have no equivalence to vote with
    assert {s.reason for s in code.samples} <= {
        "no_code",
        "syntax_error",
        "runtime_error",
        "wrong_answer",
        "timeout",
        "passed",
    }
    no_code = np.mean([s.reason == "no_code" for s in code.samples])
    assert code.summary["no_answer_rate"] == pytest.approx(no_code)


def test_multi_turn_env_is_refused(tiny) -> None:
    _, model, tok = tiny
    from rlvr.core.errors import ConfigError

    with pytest.raises(ConfigError, match="rlvr/HumanEval-v0 instead"):
        evaluate(HFBackend(model, tok), "rlvr/HumanEvalFeedback-v0", num_workers=0, progress=False)


def test_cli_end_to_end_summary_matches_samples(tiny, tmp_path, capsys) -> None:
    folder, _, _ = tiny
    out = tmp_path / "run"
    argv = [
        "eval",
        "--backend",
        "hf",
        "--model",
        str(folder),
        "--task",
        "rlvr/MATH-v0",
        "-o",
        f"path={MATH['path']}",
        "--samples",
        "4",
        "--k",
        "1,2,4",
        "--temperature",
        "1.0",
        "--limit",
        "8",
        "--max-new-tokens",
        "12",
        "--batch-size",
        "4",
        "--workers",
        "1",
        "--seed",
        "5",
        "--chat",  # the env's default is plain text, as in training; this run checks the chat path
        "--output-dir",
        str(out),
        "--quiet",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "boxed-v0" in printed and "pass@4" in printed and "maj@4" in printed
    for name in ("samples.jsonl", "summary.json", "report.md", "plot.png"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((out / "summary.json").read_text())
    records = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert len(records) == 32 and summary["counts"] == {"generated": 32, "reused": 0, "samples": 32}
    assert all(r["settings"] == summary["settings"]["hash"] for r in records)
    assert summary["settings"]["seed"] == 5 and summary["settings"]["temperature"] == 1.0
    by_key = defaultdict(list)
    for r in records:
        by_key[r["key"]].append(r)
    assert len(by_key) == 8 and all(sorted(r["index"] for r in rs) == [0, 1, 2, 3] for rs in by_key.values())
    s = summary["summary"]
    for k in (1, 2, 4):  # the summary is what the JSONL says
        expect = np.mean([pass_at_k(4, sum(r["passed"] for r in rs), k) for rs in by_key.values()])
        assert s[f"pass@{k}"] == pytest.approx(expect)
    assert s["maj@1"] == pytest.approx(s["pass@1"])
    assert s["mean_tokens"] == pytest.approx(np.mean([r["num_tokens"] for r in records]))
    assert s["no_answer_rate"] == pytest.approx(np.mean([r["reason"] == "no_answer" for r in records]))
    assert s["timeout_rate"] == pytest.approx(np.mean([r["reason"] == "timeout" for r in records]))
    for level, row in summary["groups"]["level"].items():
        rs = [r for r in records if str(r["metadata"]["level"]) == level]
        assert row["samples"] == len(rs) and row["pass@1"] == pytest.approx(
            np.mean([r["passed"] for r in rs])
        )
    assert {r["metadata"]["subject"] for r in records} == set(summary["groups"]["subject"])
    for r in records:
        assert r["prompt"].startswith("<|im_start|>user\n") and r["completion"] is not None
        assert r["extracted"] is None or isinstance(r["extracted"], str)
    md = (out / "report.md").read_text()
    assert "| overall |" in md and "boxed-v0" in md and summary["settings"]["hash"] in md
    # the same command again resumes: nothing new
    assert main(argv) == 0
    assert json.loads((out / "summary.json").read_text())["counts"]["generated"] == 0
    assert json.loads((out / "summary.json").read_text())["summary"] == s


def test_cli_rejects_bad_input_before_loading_the_model(tmp_path, capsys) -> None:
    no_model = str(tmp_path / "missing-model")
    assert main(["eval", "--model", no_model, "--samples", "2", "--k", "1,8"]) == 2
    assert "raise --samples to 8" in capsys.readouterr().err
    assert main(["eval", "--model", no_model, "--task", "rlvr/Nope-v0"]) == 2
    assert "rlvr/Nope-v0" in capsys.readouterr().err
    assert main(["eval", "--model", no_model, "--task", "rlvr/MATH-v0", "-o", "path=/no/such/dir"]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "--model", no_model, "--k", "one"])


@pytest.mark.slow
def test_cli_with_the_vllm_backend(tiny, tmp_path) -> None:
    pytest.importorskip("vllm")
    folder, _, _ = tiny
    out = tmp_path / "vllm"
    argv = [
        "eval",
        "--model",
        str(folder),
        "--task",
        "rlvr/MATH-v0",
        "-o",
        f"path={MATH['path']}",
        "--backend",
        "vllm",
        "-b",
        "max_model_len=512",
        "--samples",
        "2",
        "--limit",
        "3",
        "--max-new-tokens",
        "8",
        "--workers",
        "0",
        "--output-dir",
        str(out),
        "--quiet",
    ]
    assert main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["settings"]["backend"] == "VLLMBackend" and summary["counts"]["generated"] == 6
    assert main(argv) == 0  # resumed: the engine is started but nothing is generated
    assert json.loads((out / "summary.json").read_text())["counts"]["generated"] == 0


def test_eval_prompts_as_training_does(tiny) -> None:
    """A built env and an env id are both prompted in the env's format (as training does), even when the
    tokenizer has a chat template; chat prompts only when asked for."""
    from rlvr.envs import make_env

    _, model, tok = tiny
    backend = HFBackend(model, tok, seed=0)
    assert tok.chat_template  # a chat template exists, and still is not applied unless asked
    env = make_env("rlvr/Arithmetic-v0", difficulty=1, template="plain-v0")
    sampling = SamplingParams(temperature=0.0, max_new_tokens=4)
    plain = evaluate_backend(backend, env, [env.task[0]], 1, sampling)
    assert plain.template["chat"] is False
    assert plain.samples[0].prompt == "Compute 13 - 15."
    by_id = evaluate_backend(
        backend, "rlvr/Arithmetic-v0", [env.task[0]], 1, sampling, env_options={"difficulty": 1}
    )
    assert by_id.template["chat"] is False and by_id.samples[0].prompt.startswith("Compute 13 - 15.\n")
    chat = evaluate_backend(
        backend, "rlvr/Arithmetic-v0", [env.task[0]], 1, sampling, env_options={"difficulty": 1}, chat=True
    )
    assert chat.template["chat"] is True and "<|im_start|>" in chat.samples[0].prompt
