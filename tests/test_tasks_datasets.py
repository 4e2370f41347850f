"""Dataset tasks through the real `datasets.load_dataset` path (local fixtures), and each gold vs its verifier."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rlvr.core import ConfigError, DataError
from rlvr.tasks import fixture_path, load_task
from rlvr.tasks.math_datasets import MATH_LEVELS, MATH_SUBJECTS, gsm8k_gold, last_boxed, load_gsm8k, load_math


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in fixture_path(name).read_text().splitlines()]


def test_last_boxed_and_gsm8k_gold() -> None:
    assert last_boxed(r"so $\boxed{1}$ and then $\boxed{\frac{a}{b^{2}}}$.") == r"\frac{a}{b^{2}}"
    assert (
        last_boxed(r"\boxed{\begin{pmatrix} 1 \\ 2 \end{pmatrix}}") == r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}"
    )
    assert last_boxed(r"the answer is \fbox{7}") == "7"
    assert last_boxed(r"the answer is $\boxed 5$.") == "5"
    assert last_boxed("no box here") is None and last_boxed(r"\boxed{}") is None
    assert last_boxed(r"\boxed{unclosed") is None
    assert gsm8k_gold("work\n#### 1,234") == "1234" and gsm8k_gold("no marker") is None


def test_math_fixture_covers_every_subject_and_level() -> None:
    task = load_task("math", path=str(fixture_path("math")))
    cells = {(ex.metadata["subject"], ex.metadata["level"]) for ex in task}
    assert cells == {(s, lvl) for s in MATH_SUBJECTS.values() for lvl in MATH_LEVELS}
    assert len(task) == 35 and len(set(task.keys())) == 35
    ex = task[0]
    assert ex.task == "math" and ex.prompt.startswith("What is") and ex.reference == "5"
    assert ex.metadata["solution"].endswith(r"$x = \boxed{5}$.")


def test_math_filters() -> None:
    path = fixture_path("math")
    algebra = load_math(path=path, subjects=["algebra", "Number Theory"], levels=[4, 5])
    assert {(ex.metadata["subject"], ex.metadata["level"]) for ex in algebra} == {
        ("Algebra", 4),
        ("Algebra", 5),
        ("Number Theory", 4),
        ("Number Theory", 5),
    }
    with pytest.raises(ConfigError, match="unknown MATH subject 'calculus'"):
        load_math(path=path, subjects=["calculus"])
    with pytest.raises(ConfigError, match="levels are 1..5"):
        load_math(path=path, levels=[6])


def test_math_row_without_box_is_rejected_naming_the_row(tmp_path: Path) -> None:
    rows = _rows("math")[:3]
    rows[1] = {**rows[1], "solution": "The answer is 6, but nobody boxed it."}
    path = _write_jsonl(tmp_path / "bad.jsonl", rows)
    with pytest.raises(
        DataError, match=r"MATH row 1 of .*bad.jsonl.*no \\boxed\{\.\.\.\}.*on_invalid='skip'"
    ):
        load_math(path=path)
    with pytest.warns(UserWarning, match="skipped 1 invalid rows"):
        task = load_math(path=path, on_invalid="skip")
    assert len(task) == 2
    with pytest.raises(ConfigError, match="on_invalid"):
        load_math(path=path, on_invalid="ignore")  # type: ignore[arg-type]


def test_ungradeable_gold_is_rejected_at_load(tmp_path: Path) -> None:
    rows = _rows("math")[:4]
    rows[2] = {**rows[2], "solution": r"So the answer is $\boxed{???}$."}
    path = _write_jsonl(tmp_path / "ungradeable.jsonl", rows)
    with pytest.raises(
        DataError, match=r"MATH row 2 of .*: gold '\?\?\?' cannot be graded \(math gold answer"
    ):
        load_math(path=path)
    m500 = _rows("math500")[:3]
    m500[0] = {**m500[0], "answer": "1 +"}
    path = _write_jsonl(tmp_path / "m500.jsonl", m500)
    with pytest.raises(DataError, match=r"MATH-500 row 0 .*fixture/algebra/0.json.*'1 \+' cannot be graded"):
        load_task("math500", path=str(path))
    with pytest.warns(UserWarning, match="skipped 1 invalid rows"):
        assert len(load_task("math500", path=str(path), on_invalid="skip")) == 2


def test_missing_columns_and_paths_are_reported(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "x.jsonl", [{"problem": "1+1?"}])
    with pytest.raises(DataError, match=r"missing \['solution'\]"):
        load_math(path=path)
    with pytest.raises(DataError, match="does not exist"):
        load_math(path=tmp_path / "nope.jsonl")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="holds no .parquet/.jsonl/.json files"):
        load_math(path=tmp_path / "empty")
    bad = _write_jsonl(tmp_path / "g.jsonl", [{"question": "q", "answer": "no marker"}])
    with pytest.raises(DataError, match=r"GSM8K row 0 .* no '#### <answer>' line"):
        load_gsm8k(path=bad)


def test_parquet_and_split_directories_load_through_datasets(tmp_path: Path) -> None:
    import datasets

    jsonl = load_task("gsm8k", path=str(fixture_path("gsm8k")))
    ds = datasets.load_dataset("json", data_files=str(fixture_path("gsm8k")), split="train")
    (tmp_path / "main").mkdir()
    ds.select(range(4)).to_parquet(str(tmp_path / "main" / "train-00000-of-00001.parquet"))
    ds.select(range(4, 10)).to_parquet(str(tmp_path / "main" / "test-00000-of-00001.parquet"))
    train = load_gsm8k("train", path=tmp_path)
    test = load_gsm8k("test", path=tmp_path)
    assert train.keys() == jsonl.keys()[:4] and test.keys() == jsonl.keys()[4:]
    assert test[0].metadata["split"] == "test"
    # a mistyped split names the ones there are, instead of loading train and test together
    with pytest.raises(DataError, match=r"no split 'tset' in .*available splits: test, train"):
        load_gsm8k("tset", path=tmp_path)


def test_null_gold_is_a_load_time_error_naming_the_row(tmp_path: Path) -> None:
    from rlvr.tasks.math_datasets import load_math500

    rows = _rows("math500")[:3]
    rows[1]["answer"] = None
    with pytest.raises(DataError, match=r"MATH-500 row 1 of .*column\(s\) \['answer'\] are null"):
        load_math500(path=_write_jsonl(tmp_path / "m.jsonl", rows))
    gsm = _rows("gsm8k")[:2]
    gsm[0]["answer"] = None
    with pytest.raises(DataError, match=r"GSM8K row 0 .*\['answer'\] are null"):
        load_gsm8k(path=_write_jsonl(tmp_path / "g.jsonl", gsm))


def test_malformed_jsonl_names_its_line(tmp_path: Path) -> None:
    lines = [json.dumps(r) for r in _rows("gsm8k")[:3]]
    lines.insert(2, '{"question": "q", "answer": ')
    bad = tmp_path / "g.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"g.jsonl line 3: not valid JSON"):
        load_gsm8k(path=bad)


def test_hub_failure_says_how_to_use_local_files() -> None:
    code = "from rlvr.tasks import load_task\nload_task('gsm8k', split='test')"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode != 0
    assert (
        "DataError: cannot load 'openai/gsm8k', 'main' split 'test' from the Hugging Face hub" in out.stderr
    )
    assert "offline mode is set" in out.stderr and "-o path=FILE_OR_DIR" in out.stderr


def test_math500_and_gsm8k_fixtures() -> None:
    m500 = load_task("math500", path=str(fixture_path("math500")))
    assert len(m500) == 10 and m500[3].reference == r"\frac{7}{12}"
    assert m500[0].metadata["unique_id"].startswith("fixture/")
    gsm = load_task("gsm8k", path=str(fixture_path("gsm8k")))
    assert len(gsm) == 10 and gsm[4].reference == "2400"  # '#### 2,400' without the separator


def test_mbpp_full_and_sanitized_formats(tmp_path: Path) -> None:
    full = load_task("mbpp", path=str(fixture_path("mbpp")))
    assert len(full) == 10 and full[0].prompt.endswith("assert max_of_two(3, 5) == 5")
    assert full[0].metadata["task_id"] == 9001
    challenge = load_task("mbpp", path=str(fixture_path("mbpp")), challenge_tests=True)
    assert challenge[1].key != full[1].key  # more tests -> different reference -> different key
    assert challenge[0].key == full[0].key  # no challenge tests for this one
    sanitized = [
        {
            "source_file": "x",
            "task_id": 1,
            "prompt": r["text"],
            "code": r["code"],
            "test_imports": ["import math"],
            "test_list": r["test_list"],
        }
        for r in _rows("mbpp")[7:8]
    ]
    task = load_task("mbpp", config="sanitized", path=str(_write_jsonl(tmp_path / "s.jsonl", sanitized)))
    assert task.make_verifier().verify(task.gold_completion(task[0]), task[0].reference).passed
    with pytest.raises(ConfigError, match="full' or 'sanitized"):
        load_task("mbpp", config="other", path=str(fixture_path("mbpp")))


def test_humaneval_is_complete_from_the_package() -> None:
    task = load_task("humaneval")
    assert len(task) == 164 and len(set(task.keys())) == 164
    ids = [ex.metadata["task_id"] for ex in task]
    assert ids[0] == "HumanEval/0" and ids[-1] == "HumanEval/163"
    assert task[0].prompt.startswith("from typing import List")


@pytest.mark.parametrize("name", ["math", "math500", "gsm8k", "mbpp"])
def test_every_fixture_gold_passes_its_own_verifier(name: str) -> None:
    task = load_task(name, path=str(fixture_path(name)))
    task.validate()  # validate_reference on each gold, then the gold completion through the verifier


def test_every_humaneval_canonical_solution_passes() -> None:
    from rlvr.envs import BatchedEnv

    # through the batched env and its verifier pool: the same path the trainer grades with
    with BatchedEnv("rlvr/HumanEval-v0", num_workers=2) as benv:
        task = benv.task
        batch = benv.reset(examples=list(task))
        out = benv.step([[task.gold_completion(ex)] for ex in batch.examples])
    failing = [ex.metadata["task_id"] for ex, ok in zip(batch.examples, out.passed[:, 0]) if not ok]
    assert not failing


def test_arithmetic_level_zero_is_single_digit_sums() -> None:
    task = load_task("arithmetic", difficulty=0, size=500, seed=3)
    task.validate()
    pairs = {(ex.metadata["expression"], ex.reference) for ex in task}
    assert all(
        len(expr.split(" + ")) == 2 and all(1 <= int(x) <= 9 for x in expr.split(" + ")) for expr, _ in pairs
    )
    assert all(int(ref) == sum(int(x) for x in expr.split(" + ")) for expr, ref in pairs)
    assert 60 <= len(pairs) <= 81  # 81 distinct facts, nearly all drawn in 500 examples


@pytest.mark.parametrize("difficulty", [1, 2, 3, 4, 5])
def test_generated_math_golds_pass_the_math_verifier(difficulty: int) -> None:
    for name in ("arithmetic", "linear_equations"):
        task = load_task(name, difficulty=difficulty, size=40, seed=difficulty)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            task.validate()
