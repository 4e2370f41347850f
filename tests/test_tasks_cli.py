"""`rlvr tasks ...` and `rlvr envs ...` on the command line."""

from __future__ import annotations

import pytest

from rlvr.cli import main
from rlvr.cli.tasks import parse_options
from rlvr.core import ConfigError


def test_tasks_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "list"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert names == sorted(names)
    assert {
        "math",
        "math500",
        "gsm8k",
        "humaneval",
        "mbpp",
        "arithmetic",
        "linear_equations",
        "countdown",
    } <= set(names)
    assert "MATH (Hendrycks et al.): 7 subjects x 5 levels" in out


def test_envs_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["envs", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["ID", "TASK", "VERIFIER", "TEMPLATE", "TURNS"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    for env_id in ("rlvr/MATH-v0", "rlvr/MATH500-v0", "rlvr/GSM8K-v0", "rlvr/HumanEval-v0", "rlvr/MBPP-v1"):
        assert env_id in rows
    assert rows["rlvr/Countdown-v0"][1:2] == ["countdown"]
    assert rows["rlvr/HumanEvalFeedback-v0"][1] == "humaneval" and "3" in rows["rlvr/HumanEvalFeedback-v0"]


def test_envs_check_and_tasks_validate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["envs", "check", "rlvr/Countdown-v0", "-o", "size=50", "-o", "num_numbers=3"]) == 0
    assert "rlvr/Countdown-v0: passes gymnasium's check_env" in capsys.readouterr().out
    assert main(["tasks", "validate", "countdown", "-o", "size=30"]) == 0
    assert "every gold passes" in capsys.readouterr().out
    assert main(["tasks", "show", "countdown", "-n", "1"]) == 0
    assert "Using the numbers" in capsys.readouterr().out


def test_bad_options_fail_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "show", "countdown", "-o", "difficulty=3"]) == 2
    assert "error: cannot build task 'countdown'" in capsys.readouterr().err
    assert main(["envs", "check", "rlvr/Arithmetc-v0"]) == 2
    err = capsys.readouterr().err
    assert "error: unknown environment 'rlvr/Arithmetc-v0'; did you mean 'rlvr/Arithmetic-v0'?" in err
    assert "--import MODULE_OR_FILE.py" in err and "'rlvr.envs' entry-point group" in err
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_options(["split"])
    assert parse_options(["levels=[1, 2]", "split=test", "chat=true"]) == {
        "levels": [1, 2],
        "split": "test",
        "chat": True,
    }
