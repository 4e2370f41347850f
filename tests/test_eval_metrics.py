"""Evaluation metrics: the pass@k estimator, majority voting over verifier-equivalent answers, aggregation."""

from __future__ import annotations

from math import comb

import pytest

from rlvr.core.errors import ConfigError
from rlvr.core.types import Example
from rlvr.eval import EQUIVALENCES, EvalConfig, EvalSample, build_report, cluster_answers, pass_at_k
from rlvr.eval.answers import extracted_answer
from rlvr.eval.metrics import (
    ProblemResult,
    aggregate,
    aggregate_groups,
    check_ks,
    default_ks,
    maj_at_k,
    majority_score,
)
from rlvr.verifiers import Verdict
from rlvr.verifiers.math import MathVerifier


@pytest.fixture(scope="module")
def math_verifier() -> MathVerifier:
    return MathVerifier()


# ----- pass@k -----
def test_pass_at_k_hand_computed() -> None:
    # n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    # n=4, c=1, k=2: 1 - C(3,2)/C(4,2) = 1 - 3/6
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)
    # n=10, c=3, k=1 is the fraction correct
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    # n=16, c=1, k=16: the one correct sample is always among the 16
    assert pass_at_k(16, 1, 16) == 1.0
    # fewer wrong samples than k: some correct sample is always drawn
    assert pass_at_k(5, 4, 2) == 1.0
    assert pass_at_k(8, 0, 4) == 0.0


def test_pass_at_k_matches_the_binomial_formula_on_a_grid() -> None:
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                exact = 1.0 - comb(n - c, k) / comb(n, k)
                assert pass_at_k(n, c, k) == pytest.approx(exact, abs=1e-12), (n, c, k)


def test_pass_at_k_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="1 <= k <= n"):
        pass_at_k(4, 1, 5)
    with pytest.raises(ValueError, match="0 <= c <= n"):
        pass_at_k(4, 5, 1)


def test_k_lists() -> None:
    assert default_ks(1) == (1,)
    assert default_ks(16) == (1, 2, 4, 8, 16)
    assert default_ks(6) == (1, 2, 4, 6)
    assert check_ks([4, 1, 4], 4) == (1, 4)
    with pytest.raises(ConfigError, match="raise --samples to 16"):
        check_ks([1, 16], 4)
    with pytest.raises(ConfigError, match=">= 1"):
        check_ks([0, 1], 4)
    with pytest.raises(ConfigError, match="samples"):
        EvalConfig(samples=2, ks=(1, 4))
    assert EvalConfig(samples=8).k_values == (1, 2, 4, 8)
    assert EvalConfig(samples=8).replace(samples=2).k_values == (1, 2)


# ----- majority voting -----
def test_majority_score_and_blocks() -> None:
    assert majority_score([0, 0, 1], 0) == 1.0
    assert majority_score([1, 1, 0], 0) == 0.0
    assert majority_score([0, 1], 0) == 0.5  # a two-way tie: expected score of a random tie-break
    assert majority_score([None, None, 0], 0) == 1.0  # samples without an answer do not vote
    assert majority_score([None, None], 0) == 0.0
    assert majority_score([1, 2], None) == 0.0  # no correct cluster at all
    votes = [0, 1, 1, 1, 0, 0, 2, 0]  # blocks of 4: [0,1,1,1] -> 0; [0,0,2,0] -> 1
    assert maj_at_k(votes, 0, 4) == 0.5
    assert maj_at_k(votes, 0, 8) == 1.0  # 4 zeros vs 3 ones
    assert maj_at_k(votes, 0, 1) == pytest.approx(4 / 8)  # maj@1 is the fraction correct
    assert maj_at_k(votes, 0, 3) == pytest.approx((0.0 + 1.0) / 2)  # blocks [0,1,1], [1,0,0]; the rest unused


def test_extracted_answer_reads_the_math_verdict(math_verifier: MathVerifier) -> None:
    verdict = math_verifier.verify("so the answer is $\\boxed{\\frac{1}{2}}$", "0.5")
    assert verdict.passed
    assert extracted_answer(verdict) == "\\frac{1}{2}"
    assert extracted_answer(math_verifier.verify("I do not know", "3")) is None
    assert extracted_answer(Verdict.fail("wrong")) is None


def test_equivalent_answers_vote_together(math_verifier: MathVerifier) -> None:
    math_eq = EQUIVALENCES.get("math")
    # gold 7: three samples say one half in three spellings, two say 7 -> the wrong half wins 3:2
    answers = [["\\frac12", "0.5", "\\dfrac{1}{2}", "7", "7", None, "2"]]
    passed = [[False, False, False, True, True, False, False]]
    [(votes, correct)] = cluster_answers(answers, passed, math_eq, math_verifier.verify_batch)
    assert correct == 0
    assert votes[3] == votes[4] == 0
    assert votes[0] == votes[1] == votes[2] != 0
    assert votes[5] is None
    assert votes[6] not in (0, votes[0], None)
    assert majority_score(votes[:5], correct) == 0.0  # string voting would have picked "7" (2 vs 1, 1, 1)
    # gold 1/2: the correct cluster collects 0.5, 1/2 and \frac{1}{2} and beats 3, 3
    [(votes, correct)] = cluster_answers(
        [["0.5", "3", "1/2", "3", "\\frac{1}{2}"]],
        [[True, False, True, False, True]],
        math_eq,
        math_verifier.verify_batch,
    )
    assert votes == [0, 1, 0, 1, 0] and correct == 0
    assert maj_at_k(votes, correct, 5) == 1.0


def test_clustering_several_problems_in_rounds(math_verifier: MathVerifier) -> None:
    calls: list[int] = []

    def batch(pairs):
        calls.append(len(pairs))
        return math_verifier.verify_batch(pairs)

    out = cluster_answers(
        [["2", "4", "2.0", "x+1", "1+x"], ["\\sqrt{4}", "2"], []],
        [[False] * 5, [False, False], []],
        EQUIVALENCES.get("math"),
        batch,
    )
    assert out[0] == ([0, 1, 0, 2, 2], None)
    assert out[1] == ([0, 0], None)
    assert out[2] == ([], None)
    # each round compares one pending answer per problem with all clusters of that problem, in one call
    assert len(calls) <= 4 and calls[0] == 2


# ----- aggregation -----
def _problem(key: str, level: int, passed: list[bool], tokens: int = 10, reasons=None) -> ProblemResult:
    reasons = reasons or ["correct" if p else "wrong" for p in passed]
    return ProblemResult(
        key=key,
        groups={"level": str(level), "subject": "Algebra" if level < 3 else "Geometry"},
        passed=tuple(passed),
        scores=tuple(float(p) for p in passed),
        reasons=tuple(reasons),
        num_tokens=(tokens,) * len(passed),
        finish_reasons=("stop",) * len(passed),
    )


def test_per_level_aggregation_by_hand() -> None:
    problems = [
        _problem("a", 1, [True, True, False, False]),  # pass@1 .5, pass@2 1 - C(2,2)/C(4,2) = 5/6
        _problem("b", 1, [False, False, False, False], reasons=["no_answer", "timeout", "wrong", "wrong"]),
        _problem("c", 3, [True, False, False, False], tokens=30),  # pass@1 .25, pass@2 1 - 3/6 = .5
    ]
    groups = aggregate_groups(problems, [1, 2], ["level", "subject", "difficulty"])
    assert set(groups) == {"overall", "level", "subject"}  # no example has a difficulty
    assert list(groups["level"]) == ["1", "3"]
    lvl1, lvl3 = groups["level"]["1"], groups["level"]["3"]
    assert lvl1["problems"] == 2 and lvl1["samples"] == 8
    assert lvl1["pass@1"] == pytest.approx((0.5 + 0.0) / 2)
    assert lvl1["pass@2"] == pytest.approx((5 / 6 + 0.0) / 2)
    assert lvl1["no_answer_rate"] == pytest.approx(1 / 8) and lvl1["timeout_rate"] == pytest.approx(1 / 8)
    assert lvl3["pass@1"] == pytest.approx(0.25) and lvl3["pass@2"] == pytest.approx(0.5)
    assert lvl3["mean_tokens"] == 30
    overall = groups["overall"]["all"]
    assert overall["pass@1"] == pytest.approx((0.5 + 0.0 + 0.25) / 3)  # mean over problems
    assert overall["mean_tokens"] == pytest.approx((8 * 10 + 4 * 30) / 12)  # mean over samples
    assert "maj@2" not in overall  # no votes: maj@k is not reported
    assert groups["subject"]["Geometry"] == lvl3
    assert aggregate([], [1]) == {}


def _sample(
    key: str, index: int, extracted: str | None, passed: bool, reason: str | None = None
) -> EvalSample:
    return EvalSample(
        key=key,
        index=index,
        settings="s",
        task="math",
        prompt="p",
        completion=f"\\boxed{{{extracted}}}" if extracted else "",
        extracted=extracted,
        passed=passed,
        score=float(passed),
        reason=reason or ("correct" if passed else "wrong" if extracted else "no_answer"),
        num_tokens=5 + index,
        finish_reason="stop",
    )


def test_build_report_with_maj_and_groups(math_verifier: MathVerifier) -> None:
    ex = [
        Example("k1", "q1", "7", "math", {"level": 2, "subject": "Algebra"}),
        Example("k2", "q2", "\\frac12", "math", {"level": 5, "subject": "Geometry"}),
        Example("k3", "q3", "3", "math", {"level": 5, "subject": "Geometry"}),  # has no samples: left out
    ]
    samples = [
        *(_sample("k1", i, a, a == "7") for i, a in enumerate(["0.5", "7", "\\frac12", "7"])),
        *(_sample("k2", i, a, a != "2") for i, a in enumerate(["0.5", "2", "2", "1/2"])),
        _sample("other", 0, "1", False),  # not an evaluated example: ignored
    ]
    report = build_report(
        ex,
        samples[::-1],
        [1, 2, 4],
        group_by=["level", "subject"],
        settings={"env": "t"},
        template={},
        verifier=math_verifier,
    )
    assert [(s.key, s.index) for s in report.samples] == [("k1", i) for i in range(4)] + [
        ("k2", i) for i in range(4)
    ]
    s = report.summary
    assert s["problems"] == 2 and s["pass@1"] == pytest.approx(0.5)
    # k1: votes {1/2: 2, 7: 2} -> tie 0.5; k2: {1/2: 2, 2: 2} -> tie 0.5
    assert s["maj@4"] == pytest.approx(0.5)
    # maj@2 blocks: k1 [0.5, 7] tie .5, [\frac12, 7] tie .5; k2 [0.5, 2] .5, [2, 1/2] .5
    assert s["maj@2"] == pytest.approx(0.5)
    assert s["maj@1"] == pytest.approx(s["pass@1"])
    assert s["level/2/pass@1"] == pytest.approx(0.5) and s["level/5/pass@4"] == 1.0
    assert s["subject/Geometry/maj@4"] == pytest.approx(0.5)
    assert "| level 5 |" in report.markdown() and "maj@4" in report.markdown()
