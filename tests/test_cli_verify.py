"""`rlvr verify math`: human-readable and JSON verdicts, stdin input, exit codes, bad options."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from rlvr.cli import main


def test_verify_math_human_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "math", r"The answer is \boxed{\frac{1}{2}}", "0.5"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "correct  (score 1, passed)"
    assert r"extracted:    \frac{1}{2}" in out and "found by:     boxed" in out and "parsed:       1/2" in out


def test_verify_math_json_and_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "math", "--json", r"\boxed{3}", "4"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["reason"] == "wrong" and verdict["passed"] is False and verdict["score"] == 0.0
    assert verdict["details"]["parsed"] == "3"
    assert main(["verify", "math", "--exit-code", r"\boxed{3}", "4"]) == 1
    assert main(["verify", "math", "--exit-code", r"\boxed{4}", "4"]) == 0


def test_verify_math_reads_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("long reasoning...\n#### 72\n"))
    assert main(["verify", "math", "--json", "-", "72"]) == 0
    assert json.loads(capsys.readouterr().out)["reason"] == "correct"
    assert main(["verify", "math", "-", "-"]) == 2
    assert "only one" in capsys.readouterr().err


def test_verify_math_bad_config_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "math", "--timeout", "0", "1", "1"]) == 2
    assert "timeout_s" in capsys.readouterr().err
    assert main(["verify"]) == 2  # no verifier kind: usage
    assert "math" in capsys.readouterr().out


def test_console_script() -> None:
    """The installed `rlvr` entry point (or `python -m rlvr` where the script is not on PATH) works."""
    exe = shutil.which("rlvr", path=os.path.dirname(sys.executable)) or shutil.which("rlvr")
    cmd = [exe] if exe else [sys.executable, "-m", "rlvr"]
    result = subprocess.run(
        [*cmd, "verify", "math", r"The answer is \boxed{\frac{1}{2}}", "0.5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.startswith("correct")
