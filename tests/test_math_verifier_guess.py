"""A guessed answer (no box, no answer phrase) must be an uncontested number of its sentence: a denial that
reaches it or another value the sentence states makes the reply answer nothing (round-3 red-team classes)."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier


@pytest.mark.parametrize(
    "pred",
    [
        "Thus we reject 7.",  # a denial before the value
        "7 violates the constraint.",  # a denial after it
        "7 (wrong)",
        "~~7~~",  # struck out
        "Hence n \\neq 7.",
        "Ответ: 8, а не 7.",  # another language's denial
        "答案应为8，而非7。",
        "Therefore the total is 8, and each row has 7.",  # another stated value in the sentence
        "Total: 8 (rows: 7)",
        "Result: 8\nRuntime: 7 ms",  # one line break does not end the statement
        "<output>8</output>\n7",  # a tag states its value; its slash is no operator
        "[ANSWER] 8 [/ANSWER] 7",
        "**8**\n\n_7 steps_",  # a short last line annotates the statement before it
        "Output: 8\n\nLine count: 7",
        "Total = 8 | rows = 7",  # a labelled `=` states a value
        "Therefore the total is **eight**; each row has 7.",  # a number word states one too
        "The final count is eight.\n\n(End of solution to exercise 7.)",
        "Total = 8 / rows = 7",  # a slash between labelled values is no division
        "total 8, rows 7",  # a word before a number at a clause start labels it
        "$$\\text{Total} = 8$$\n$$\\text{Rows} = 7$$",  # two labelled formulas side by side
        "The answer exceeds 7.",  # the sentence names the answer without stating it
        "After 7 iterations the answer converges.",
    ],
)
def test_contested_guess_is_no_answer(verifier: MathVerifier, pred: str) -> None:
    verdict = verifier.verify(pred, "7")
    assert not verdict.passed
    assert verdict.reason in ("no_answer", "wrong"), verdict.details
    assert verdict.details.get("extracted") != "7"


@pytest.mark.parametrize(
    "pred, gold",
    [
        ("It is not 8; it is 7.", "7"),  # the denial is before a turn
        ("x = 8 is extraneous, so x = 7.", "7"),
        ("I think it is 13, no, 11", "11"),  # a correction supersedes the earlier value
        ("My first guess is 10, but counting again, 4 + 5 + 6 = 15, so there are 15 squares.", "15"),
        ("La réduction est de 100 * 0,30 = 30 $. Le coût final est donc de 100 - 30 = 70", "70"),  # a chain
        ("1. First, 55 * 3 = 165 2. Then 165 - 99 = 66, so the result is **66**.", "66"),  # step numbers
        ("the number is not 10 which is 1,000.99", "1000.99"),  # the denial names 10
        ("The remainder is 3 when divided by 5.", "3"),
        ("7 is prime, and it is the answer.", "7"),
        ("多 5页（数学作业） - 2页（阅读作业） = 3页 因此，多 **3页**。", "3"),  # an aside inside a chain
    ],
)
def test_uncontested_guess_is_graded(verifier: MathVerifier, pred: str, gold: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert verdict.reason == "correct", verdict.details


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("So the answer is 7. Nope, 8.", "7", "wrong"),  # a short restatement revises: the last answer wins
        ("So the answer is 7. My bad, 8.", "7", "wrong"),
        ("So the answer is 8. Actually, 7.", "7", "correct"),
        ("So the answer is 8. Correction: 7.", "7", "correct"),
        ("So the answer is 7. Erratum: 8.", "7", "no_answer"),  # a labelled later value: label or correction?
        ("Answer: 8\nSteps: 7", "7", "no_answer"),
        ("The answer is 7. I double-checked: 3 + 4 = 7.", "7", "correct"),
    ],
)
def test_a_later_restated_value_revises_or_voids_the_answer(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    assert verifier.verify(pred, gold).reason == reason


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("\\boxed{60\\text{ turns}}", "60^\\circ", "wrong"),  # another angle unit than the gold's degrees
        ("\\boxed{60\\text{ arcminutes}}", "60^\\circ", "wrong"),
        ("\\boxed{60\\text{ degrees}}", "60^\\circ", "correct"),
        ("\\boxed{1.047^\\circ}", "\\frac{\\pi}{3}", "wrong"),  # radians marked as degrees
        ("\\boxed{\\frac{\\pi}{3}\\text{ degrees}}", "\\frac{\\pi}{3}", "wrong"),
        ("\\boxed{90^\\circ}", "\\frac{\\pi}{2}", "correct"),  # a conversion
    ],
)
def test_angle_units(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    assert verifier.verify(pred, gold).reason == reason


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("\\boxed{7 \\approx 8}", "7", "wrong"),  # a false approximation states nothing
        ("\\boxed{3.14159 \\approx 3.14}", "3.14159", "correct"),
        ("#### ~18", "18", "no_answer"),  # an approximate count is no exact answer
        ("#### 18", "18", "correct"),
    ],
)
def test_approximations(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    assert verifier.verify(pred, gold).reason == reason


@pytest.mark.parametrize(
    "pred, reason",
    [
        ("The answer is 7 (in thousands).", "no_answer"),  # words in brackets after the value qualify it
        ("The answer is 7 repeating.", "no_answer"),
        ("The answer is 7 give or take.", "no_answer"),
        ("The answer is 7 (apples).", "correct"),  # naming what was counted
        ("The answer is 7 apples.", "correct"),
    ],
)
def test_words_after_a_phrase_answer(verifier: MathVerifier, pred: str, reason: str) -> None:
    verdict = verifier.verify(pred, "7")
    assert (verdict.reason == "correct") == (reason == "correct"), verdict.details


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("\\boxed{8}_{\\boxed{7}}", "7", "wrong"),  # a box in another's subscript stands beside it
        ("\\boxed{\\text{odd}}?", "\\text{odd}", "no_answer"),  # a box that asks
        ("\\boxed{\\text{odd}}\\text{?}", "\\text{odd}", "no_answer"),
        ("\\boxed{\\text{odd}}.", "\\text{odd}", "correct"),
        ("\\boxed{\\text{yes}^*}", "\\text{yes}", "wrong"),  # a mark on a text answer
        ("\\boxed{\\text{(B)}^{\\times}}", "B", "wrong"),  # a marked option
        ("Answer: C) E = mc^2", "C", "correct"),  # an exponent in the option's text is no mark
    ],
)
def test_marks_on_boxes_and_options(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    assert verifier.verify(pred, gold).reason == reason


@pytest.mark.parametrize(
    "pred, reason",
    [
        ("\\boxed{(2,3)}", "wrong"),  # an open interval or a tuple is not the set {2, 3}
        ("\\boxed{x\\in(2,3)}", "wrong"),
        ("\\boxed{2, 3}", "correct"),
        ("\\boxed{x=3 \\text{ or } x=2}", "correct"),
    ],
)
def test_one_name_twice_is_a_solution_set(verifier: MathVerifier, pred: str, reason: str) -> None:
    assert verifier.verify(pred, "x=2 \\text{ or } x=3").reason == reason


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (
            "**Answer:** 12 points, excluding the four axis points, i.e. 8.",
            "12",
            "wrong",
        ),  # `i.e.` ends nothing
        ("ANSWER: six rolls on average, though the median is 4.", "4", "wrong"),  # two values: neither
        ("Answer: 12 points.", "12", "correct"),
    ],
)
def test_phrase_answer_with_an_afterthought(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    assert verifier.verify(pred, gold).reason == reason


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("So $x = 7$ is not a solution.", "7", "no_answer"),  # a rejected last formula answers nothing
        ("Each angle measures $120^\\circ$. (The exterior angle is $60^\\circ$.)", "60", "wrong"),  # an aside
        ("Each angle measures $120^\\circ$. (The exterior angle is $60^\\circ$.)", "120", "correct"),
    ],
)
def test_last_formula_rejected_or_aside(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    assert verifier.verify(pred, gold).reason == reason


def test_two_options_with_asides_name_neither(verifier: MathVerifier) -> None:
    assert not verifier.verify("\\boxed{\\text{Answer: B (50\\%), C (50\\%)}}", "B").passed
    assert verifier.verify("\\boxed{\\text{Answer: B (50\\%)}}", "B").passed


def test_an_integer_restriction_is_not_the_interval(verifier: MathVerifier) -> None:
    assert not verifier.verify("\\boxed{x>1, x\\in\\mathbb{Z}}", "(1,\\infty)").passed
    assert verifier.verify("\\boxed{x>1}", "(1,\\infty)").passed
    assert verifier.verify(
        "\\boxed{\\frac{\\pi}{2} + k\\pi, k \\in \\mathbb{Z}}", "\\frac{\\pi}{2} + k\\pi"
    ).passed


def test_a_bracket_denying_another_value_keeps_the_answer(verifier: MathVerifier) -> None:
    assert verifier.verify("The answer is 7 (not 8).", "7").passed
    assert not verifier.verify("The answer is 7 (not 8).", "8").passed
    assert not verifier.verify("For n = 1 the answer is 7; for the given n = 2 it is 8.", "7").passed
