"""The independent red-team's false-positive classes (tests/data/math/external/redteam.yaml), one test per
case: every wrong answer fails with a reason, and every correct counterpart of a class still passes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rlvr.verifiers import MathVerifier

DATA = Path(__file__).parent / "data" / "math" / "external" / "redteam.yaml"
CASES = yaml.safe_load(DATA.read_text())["cases"]


def test_cases_are_sourced_and_classed() -> None:
    assert len(CASES) >= 40
    assert all(c["source"].startswith("rlvr independent red-team, 2026-12-03") for c in CASES)
    assert all(c["cat"] == f"redteam:{c['class']}" and isinstance(c["want"], bool) for c in CASES)
    assert all(any(not c["want"] for c in CASES if c["class"] == k) for k in {c["class"] for c in CASES})


@pytest.mark.parametrize("case", CASES, ids=[f"{c['class']}-{c['source'].rsplit('#', 1)[1]}" for c in CASES])
def test_redteam_case(verifier: MathVerifier, case: dict) -> None:
    verdict = verifier.verify(case["pred"], case["gold"])
    assert verdict.passed is case["want"], dict(verdict.details)
    if not case["want"]:
        assert verdict.score == 0.0 and verdict.reason and verdict.reason != "correct"


def test_symbolic_verdicts_do_not_depend_on_call_order() -> None:
    """Class G was nondeterministic: sympy's `equals` samples random points, so order changed verdicts."""
    pairs = [(c["pred"], c["gold"]) for c in CASES if c["class"] == "G"]
    first = [MathVerifier(in_process=True).verify(p, g).passed for p, g in pairs]
    again = MathVerifier(in_process=True)
    second = [again.verify(p, g).passed for p, g in reversed(pairs)][::-1]
    assert first == second
