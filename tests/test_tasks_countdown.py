"""The Countdown verifier (safe parsing, exact arithmetic, number usage) and the goal-conditioned task."""

from __future__ import annotations

import pytest

from rlvr.core import ConfigError, DataError
from rlvr.tasks.countdown import CountdownTask
from rlvr.verifiers import make_verifier
from rlvr.verifiers.countdown import CountdownConfig, CountdownProblem, CountdownVerifier, extract_expression

P = CountdownProblem((25, 50, 3, 7), 175)


@pytest.mark.parametrize(
    ("completion", "reason"),
    [
        ("<answer>25 * 7</answer>", "correct"),
        ("I think (50 / 3 + 25 - 3) ... no. <answer>7 * 25</answer>", "correct"),
        ("<answer>25 * 7 = 175</answer>", "correct"),
        ("<answer>175 = 7 * 25</answer>", "correct"),
        ("Final: $\\boxed{25 \\times 7}$", "correct"),
        ("work...\n7 × 25", "correct"),
        ("<answer>(50 + 25) \\div 3 * 7</answer>", "correct"),  # 75/3*7 = 175 with \div
        ("<answer>\\frac{50 + 25}{3} * 7</answer>", "correct"),
        ("<answer>175</answer>", "wrong"),  # 175 is not one of the numbers
        ("<answer>25 * 7 + 0</answer>", "wrong"),  # 0 is not given
        ("<answer>25 * 7 * 1</answer>", "wrong"),
        ("<answer>25 * 25 / 25 * 7</answer>", "wrong"),  # 25 used three times, given once
        ("<answer>50 + 50 + 75</answer>", "wrong"),
        ("<answer>(3 - 3) / (7 - 7)</answer>", "wrong"),  # reuse, and would divide by zero
        ("", "no_answer"),
        ("<answer></answer>", "no_answer"),
        ("<answer>25 ** 7</answer>", "no_answer"),  # powers are not Countdown operations
        ("<answer>2.5 * 70</answer>", "no_answer"),  # decimals are not given numbers
        ("<answer>-25 * -7</answer>", "no_answer"),  # unary minus is off by default
        ("<answer>__import__('os').system('echo pwned')</answer>", "no_answer"),
        ("<answer>(lambda: 175)()</answer>", "no_answer"),
        ("<answer>[x for x in (25, 7)]</answer>", "no_answer"),
        ("<answer>True * 175</answer>", "no_answer"),
    ],
)
def test_verdicts(completion: str, reason: str) -> None:
    verdict = CountdownVerifier().verify(completion, P)
    assert verdict.reason == reason, verdict
    assert verdict.passed == (reason == "correct")
    assert verdict.score == (1.0 if reason == "correct" else 0.0)


def test_value_is_reported_for_wrong_answers() -> None:
    # (25 + 50) * 7 / 3 = 175 exactly: right for target 175, wrong (with its value reported) for 176
    v = CountdownVerifier().verify(
        "<answer>(25 + 50) * 7 / 3</answer>", CountdownProblem((25, 50, 3, 7), 176)
    )
    assert v.details["value"] == "175" and v.reason == "wrong"
    assert CountdownVerifier().verify("<answer>(25 + 50) * 7 / 3</answer>", P).passed


def test_division_is_exact_not_floating_point() -> None:
    problem = CountdownProblem((1, 3, 3), 1)
    assert CountdownVerifier().verify("<answer>1 / 3 * 3</answer>", problem).passed
    near = CountdownProblem((10, 3, 3), 10)
    assert CountdownVerifier().verify("<answer>10 / 3 * 3</answer>", near).passed
    # 0.1 + 0.2 style float error cannot make a wrong answer right: 7/3 is not 2
    assert not CountdownVerifier().verify("<answer>7 / 3</answer>", CountdownProblem((7, 3), 2)).passed


def test_division_by_zero_and_nesting_do_not_crash() -> None:
    v = CountdownVerifier().verify("<answer>7 / (3 - 3)</answer>", CountdownProblem((7, 3, 3), 1))
    assert v.reason == "wrong" and "division by zero" in v.details["error"]
    deep = "<answer>" + "(" * 300 + "7" + ")" * 300 + "</answer>"  # past the parser's nesting limit
    assert CountdownVerifier().verify(deep, CountdownProblem((7,), 7)).reason in {"correct", "no_answer"}
    unary = CountdownVerifier(allow_unary_minus=True).verify(
        "<answer>" + "-" * 900 + "7</answer>", CountdownProblem((7,), 7)
    )
    assert unary.reason in {"correct", "wrong", "no_answer"}


@pytest.mark.timeout(30)  # a hang guard: the size check refuses before any parsing
def test_huge_input_is_bounded() -> None:
    text = "<answer>" + "+".join(["7"] * 100_000) + "</answer>"
    v = CountdownVerifier().verify(text, CountdownProblem((7,), 7))
    assert v.reason == "wrong" and "longer than" in v.details["error"]


def test_use_all_numbers_and_unary_minus_options() -> None:
    p = CountdownProblem((2, 3, 4), 6)
    assert CountdownVerifier().verify("<answer>2 * 3</answer>", p).passed
    strict = make_verifier("countdown", use_all_numbers=True)
    v = strict.verify("<answer>2 * 3</answer>", p)
    assert not v.passed and "does not use [4]" in v.details["error"]
    assert strict.verify("<answer>4 * 3 / 2</answer>", p).passed
    assert (
        CountdownVerifier(CountdownConfig(allow_unary_minus=True))
        .verify("<answer>-2 + 4 * 2</answer>", CountdownProblem((2, 4, 2), 6))
        .passed
    )
    with pytest.raises(ConfigError, match="max_chars"):
        CountdownConfig(max_chars=0)


def test_references_are_validated() -> None:
    v = CountdownVerifier()
    v.validate_reference({"numbers": [1, 2], "target": 3})
    for bad in (
        {"numbers": [], "target": 3},
        {"numbers": [1.5], "target": 3},
        {"target": 3},
        "1 2 3",
        {"numbers": [1], "target": "x"},
    ):
        with pytest.raises(DataError):
            v.validate_reference(bad)
    assert v.verify("<answer>1 + 2</answer>", {"numbers": [1, 2], "target": 3}).passed
    assert v.verify("<answer>1 + 2</answer>", "garbage").reason == "unparsable_gold"


def test_extract_expression_rules() -> None:
    assert extract_expression("a\n<answer>1+2</answer>\nb <answer> 3*4 </answer>") == "3*4"
    assert extract_expression("so \\boxed{\\left(3 + 4\\right) \\cdot 2} done") == "(3 + 4) * 2"
    assert extract_expression("steps\n\n  (3 − 1) × 4 = 8.  \n") == "(3 - 1) * 4"
    assert extract_expression("   \n  ") is None


def test_generator_is_deterministic_and_every_gold_passes() -> None:
    a, b = CountdownTask(size=200, seed=7), CountdownTask(size=200, seed=7)
    assert a.keys() == b.keys()
    assert a.keys() != CountdownTask(size=200, seed=8).keys()
    assert a[123] == b[123]  # random access gives the same example as sequential access
    a.validate()  # every reference is well formed and every constructed solution reaches its target
    for ex in a:
        assert (
            1 <= ex.goal <= 1000 and ex.goal == ex.reference.target and ex.goal not in ex.metadata["numbers"]
        )
        assert len(ex.metadata["numbers"]) == 4


def test_use_all_numbers_generator() -> None:
    t = CountdownTask(size=50, seed=0, num_numbers=3, use_all_numbers=True)
    t.validate()
    assert t.make_verifier().config.use_all_numbers
    for ex in t:
        used = sorted(
            int(tok)
            for tok in ex.metadata["solution"].replace("(", " ").replace(")", " ").split()
            if tok.isdigit()
        )
        assert used == sorted(ex.metadata["numbers"])
    with pytest.raises(ConfigError, match="num_numbers"):
        CountdownTask(num_numbers=1)


def test_hindsight_relabeling() -> None:
    t = CountdownTask(size=10, seed=3)
    ex = t[0]
    n = ex.metadata["numbers"]
    completion = f"<answer>{n[0]} + {n[1]}</answer>"
    reached = n[0] + n[1]
    assert t.achieved_goal(ex, completion) == reached
    verifier = t.make_verifier()
    assert verifier.verify(completion, ex.reference).passed == (reached == ex.goal)
    relabeled, verdict = t.hindsight(ex, completion)
    assert relabeled.goal == reached and relabeled.reference == CountdownProblem(tuple(n), reached)
    assert verdict.passed and relabeled.key != ex.key
    assert f"equals {reached}." in relabeled.prompt and relabeled.metadata["original_target"] == ex.goal
    assert relabeled.metadata["relabeled_from"] == ex.key
    # relabeling is deterministic and content-addressed
    assert t.relabel(ex, reached) == relabeled
    # no valid expression, a fraction, or a non-positive value: nothing to relabel with
    assert t.achieved_goal(ex, "no idea") is None
    assert t.achieved_goal(ex, "<answer>999 + 1</answer>") is None
    assert t.achieved_goal(ex, f"<answer>{n[0]} - {n[0]}</answer>") is None
    assert t.hindsight(ex, "no idea") is None
    with pytest.raises(TypeError, match="int target"):
        t.relabel(ex, "12")
    with pytest.raises(ValueError, match="no stored solution"):
        t.gold_completion(relabeled)
