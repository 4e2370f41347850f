"""Issue 13, remaining false negatives, one rule per class (each with its wrong counterparts): multiple-choice
golds with option text, verification paragraphs after a box, scale words, general-solution parameters."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier


@pytest.fixture(scope="module")
def verifier() -> MathVerifier:
    return MathVerifier(in_process=True)


def _check(verifier: MathVerifier, pred: str, gold: str, want: bool) -> dict:
    verdict = verifier.verify(pred, gold)
    assert verdict.passed is want, dict(verdict.details)
    if not want:
        assert verdict.reason != "correct" and verdict.score == 0.0
    return dict(verdict.details)


# ---- 1d: a multiple-choice gold written with its option's text states the option letter
@pytest.mark.parametrize(
    "gold, pred, want",
    [
        ("C Cecile", "C", True),
        ("C Cecile", "A", False),
        ("Alina and the answer is\n(C) Cecile", "C", True),
        ("Alina and the answer is\n(C) Cecile", "A", False),
        ("Alina and the answer is\nC Cecile", "The answer is C.", True),
        ("A Peter\nCelina bum", "A", True),
        ("A Peter\nCelina bum", "C", False),
        ("(D) Alina", "D", True),
    ],
)
def test_choice_gold_with_option_text(verifier: MathVerifier, gold: str, pred: str, want: bool) -> None:
    details = _check(verifier, pred, gold, want)
    assert details["parsed"] == pred.rstrip(".")[-1]  # graded as an option letter, not as text


@pytest.mark.parametrize("gold", ["A circle", "A = 3", "A B", "I think so"])
def test_a_capital_letter_before_other_words_is_not_an_option(verifier: MathVerifier, gold: str) -> None:
    """An article before lower case, a formula, a bare letter pair: the gold is not an option letter."""
    assert not verifier.verify(gold[0], gold).passed
