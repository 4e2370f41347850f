"""Rubrics: weighted sums of real verifiers (MathVerifier, format rewards, length penalty)."""

from __future__ import annotations

import pickle

import pytest

from rlvr.core.errors import ConfigError
from rlvr.verifiers import (
    VERIFIERS,
    BoxedFormat,
    LengthPenalty,
    MathVerifier,
    RegexFormat,
    Rubric,
    RubricTerm,
    Verdict,
    VerifierPool,
    make_verifier,
)


@pytest.fixture(scope="module")
def rubric() -> Rubric:
    return Rubric(
        [
            ("correct", MathVerifier(in_process=True), 1.0),
            ("boxed", BoxedFormat(), 0.25),
            ("length", LengthPenalty(100, 300), -0.5),
        ]
    )


def test_weighted_score(rubric: Rubric) -> None:
    full = rubric.verify(r"So \boxed{\frac{1}{2}}", "0.5")
    assert full.score == pytest.approx(1.0) and full.passed and full.reason == "correct"
    assert full.details["rubric"]["boxed"] == {"score": 1.0, "weight": 0.25, "reason": "correct"}
    assert full.details["extracted"] == r"\frac{1}{2}"  # the primary term's details are kept
    unboxed = rubric.verify("The final answer is 0.5", "0.5")
    assert unboxed.score == pytest.approx(1.0 / 1.25) and unboxed.passed
    wrong_but_boxed = rubric.verify(r"\boxed{3}", "0.5")
    assert wrong_but_boxed.score == pytest.approx(0.25 / 1.25) and not wrong_but_boxed.passed
    assert wrong_but_boxed.reason == "wrong"
    tail = r" \boxed{0.5}"
    rambling = rubric.verify("x" * (200 - len(tail)) + tail, "0.5")  # 200 chars: half the length penalty
    assert rambling.score == pytest.approx((1.25 - 0.5 * 0.5) / 1.25)
    assert rubric.verify("x" * 1000, "0.5").score == 0.0  # clipped at 0


def test_batch_matches_single(rubric: Rubric) -> None:
    pairs = [(r"\boxed{1}", "1"), ("no answer", "1"), (r"\boxed{\sqrt{8}}", r"2\sqrt{2}"), ("y" * 250, "2")]
    assert rubric.verify_batch(pairs) == [rubric.verify(c, r) for c, r in pairs]


def test_passed_by_and_validation() -> None:
    rubric = Rubric(
        [("fmt", BoxedFormat(), 1.0), ("correct", MathVerifier(in_process=True), 1.0)], passed_by="correct"
    )
    verdict = rubric.verify(r"\boxed{2}", "3")
    assert not verdict.passed and verdict.score == 0.5
    with pytest.raises(ConfigError, match="at least one term"):
        Rubric([])
    with pytest.raises(ConfigError, match="positive weight"):
        Rubric([("p", LengthPenalty(1, 2), -1.0)])
    with pytest.raises(ConfigError, match="unique"):
        Rubric([("a", BoxedFormat(), 1.0), ("a", BoxedFormat(), 1.0)])
    with pytest.raises(ConfigError, match="passed_by"):
        Rubric([("a", BoxedFormat(), 1.0)], passed_by="b")
    with pytest.raises(ConfigError, match="Verifier instance"):
        RubricTerm("a", lambda c, r: 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="finite weight"):
        RubricTerm("a", BoxedFormat(), float("nan"))
    with pytest.raises(ConfigError, match="LengthPenalty"):
        LengthPenalty(10, 5)
    with pytest.raises(ConfigError, match="does not compile"):
        RegexFormat("(")


def test_format_verifiers() -> None:
    assert BoxedFormat().verify(r"\boxed{x}", None).passed
    assert BoxedFormat().verify(r"\boxed{}", None).reason == "no_answer"
    assert BoxedFormat().verify(r"\boxed{x", None).reason == "no_answer"
    think = RegexFormat(r"<think>.+</think>\s*\S")
    assert think.verify("<think>hmm\nok</think> 42", None).passed
    assert not think.verify("42", None).passed
    assert not RegexFormat(r"\d+", fullmatch=True).verify("a42", None).passed
    penalty = LengthPenalty(10, 20)
    assert penalty.verify("x" * 5, None) == Verdict(0.0, True, "correct", {"chars": 5})
    assert penalty.verify("x" * 15, None).score == 0.5
    assert penalty.verify("x" * 50, None).score == 1.0


def test_registry_pickle_and_pool() -> None:
    assert VERIFIERS.get("rubric") is Rubric
    assert isinstance(make_verifier("format/boxed"), BoxedFormat)
    assert isinstance(make_verifier("penalty/length", target_chars=1, max_chars=2), LengthPenalty)
    rubric = Rubric([("correct", MathVerifier(in_process=True), 1.0), ("think", RegexFormat("<think>"), 0.5)])
    clone = pickle.loads(pickle.dumps(rubric))
    assert clone.verify(r"<think></think>\boxed{4}", "4").score == 1.0
    with VerifierPool(rubric, num_workers=1, timeout_s=30) as pool:  # rubrics run in worker processes too
        assert pool.verify(r"\boxed{4}", "4").score == pytest.approx(1 / 1.5)
