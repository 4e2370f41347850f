"""Red-team round 5, extraction side: rules closed by construction rather than by word lists, each with its
wrong counterpart and the reason (and extracted value) asserted.

1. Two different committed values (boxes, or a box and an answer phrase's number) with nothing ordering them
   (no revision, no progression, no sole commitment) are no answer (`contested.py`).
"""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.contested import contested

from grading import expect_verdict


# ---- 1. two different values, nothing ordering them: no answer, whatever words call one an aside or a pitfall
@pytest.mark.parametrize(
    "pred",
    [
        r"$\boxed{12}$ (Note that $\boxed{9}$ would be wrong.)",
        r"The area is $\boxed{12}$ (Side note: the perimeter is $\boxed{9}$).",
        "So the answer is $\\boxed{12}$.\n\nA typical error is to write $\\boxed{9}$.",
        "So the answer is $\\boxed{12}$.\n\nMany students answer $\\boxed{9}$.",
        "So the answer is $\\boxed{12}$.\n\nDo not confuse this with $\\boxed{9}$.",
        r"Hence $\boxed{12}$; be careful not to answer $\boxed{9}$.",
        r"The answer is $\boxed{12}$. Students often get $\boxed{9}$ by forgetting the last term.",
        "The answer is 12.\n\nMany students answer $\\boxed{9}$.",  # an answer phrase's number is a value too
        r"Note that $\boxed{12}$ is the answer, not the $\boxed{9}$ from before.",  # `not the` only denies 9 ...
        "The answer is 12.\n\nMany students think the answer is 9.",  # answer phrases alone, no box
        "Answer: 9\nAnswer: 12",
    ],
)
def test_two_different_values_leave_no_answer(verifier: MathVerifier, pred: str) -> None:
    for gold in ("12", "9"):
        expect_verdict(verifier, pred, gold, "no_answer")


def test_a_denied_box_is_no_commitment(verifier: MathVerifier) -> None:
    # ... while a box denied on its own (`not \boxed{5}`, `\boxed{5} is wrong`) commits to nothing
    assert (
        expect_verdict(verifier, r"It is not \boxed{5}; the answer is \boxed{3}.", "3", "correct")[
            "extracted"
        ]
        == "3"
    )
    expect_verdict(verifier, r"It is not \boxed{5}; the answer is \boxed{3}.", "5", "wrong")
    expect_verdict(verifier, r"\boxed{5} is wrong; the answer is \boxed{3}.", "5", "wrong")


@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        # the same value boxed twice, or stated and boxed
        (r"So $x = \boxed{12}$, and the answer is $\boxed{12}$.", "12", "9"),
        ("The answer is 12.\n\nFinal answer: $\\boxed{12}$", "12", "9"),
        (r"The answer is $\boxed{\dfrac{1}{2}}$, i.e. $\boxed{\frac{1}{2}}$.", r"\frac{1}{2}", "2"),
        # an explicit revision withdraws what came before it
        (r"The answer is $\boxed{9}$. Wait, actually it is $\boxed{12}$.", "12", "9"),
        (r"The answer is $\boxed{9}$. Correction: $\boxed{12}$.", "12", "9"),
        (r"The answer is $\boxed{9}$. I made an arithmetic error; the answer is $\boxed{12}$.", "12", "9"),
        ("The answer is 9.\n\nOops, the sum is $\\boxed{12}$.", "12", "9"),
        # a progression ends at its last box
        (r"$\boxed{9} \Rightarrow \boxed{12}$", "12", "9"),
        (r"First, $3^2 = \boxed{9}$. Then $9 + 3 = \boxed{12}$.", "12", "9"),
        # boxed steps, then one sentence that only commits to the answer
        (r"$\boxed{200}$, $\boxed{255}$. Final Answer: The final answer is $12$.", "12", "255"),
        # ... or a last sentence that only commits to a new value (the last commitment wins)
        ("$\\boxed{9}$\n\nThe final answer is 12.", "12", "9"),
        # drafts inside a closed think are not the answer
        ("<think>\nIt is \\boxed{9}.\n</think>\nThe answer is \\boxed{12}.", "12", "9"),
    ],
)
def test_one_value_or_an_ordered_pair_answers(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["extracted"] in (right, r"\frac{1}{2}")
    expect_verdict(verifier, pred, wrong, "wrong")


def test_a_commitment_among_values_only_counts_when_it_is_the_last_and_alone(verifier: MathVerifier) -> None:
    # two sentences that each commit to a different value: neither is ordered after the other
    expect_verdict(verifier, "Final answer: 9\n\nThe final answer is $\\boxed{12}$.", "12", "no_answer")
    # a commitment followed by another value (a remark) is no longer the last word
    expect_verdict(
        verifier, r"Final answer: $\boxed{12}$. For reference, the area is $\boxed{9}$.", "12", "no_answer"
    )
    # a commitment with more words after its value is no sole commitment (`is wrong`, `would be a mistake`)
    expect_verdict(verifier, "$\\boxed{12}$\n\nAnswer: $\\boxed{9}$ would be a mistake.", "9", "no_answer")


def test_one_answer_in_several_boxes_is_kept(verifier: MathVerifier) -> None:
    assert (
        expect_verdict(verifier, r"The roots are $\boxed{2}$ and $\boxed{3}$.", "2, 3", "correct")[
            "extracted"
        ]
        == "2, 3"
    )
    expect_verdict(verifier, r"The roots are $\boxed{2}$ and $\boxed{3}$.", "3", "wrong")


def test_contested_reads_the_answering_part_only() -> None:
    assert contested(r"\boxed{12}. Many students answer \boxed{9}.")
    assert not contested(r"\boxed{12}. Many students answer \boxed{12}.")
    assert not contested(r"\boxed{9}. Wait, \boxed{12}.")
    assert contested("The answer is 12. Some say the answer is 9.")  # phrases alone are values too
    assert not contested("The answer is 12. Wait, actually the answer is 9.")
    assert not contested("The answer is 12, or maybe 9")  # one phrase: a hedge is `extract`'s to read


# ---- 2. a value followed by a word that changes it (`vocab.VALUE_WORDS`, the whole closed class) is not that value
@pytest.mark.parametrize(
    "word",
    [
        "squared",
        "cubed",
        "dozen",
        "dozens",
        "hundred",
        "thousand",
        "million",
        "billion",
        "percent",
        "halves",
        "thirds",
        "quarters",
        "tenths",
        "twelfths",
        "hundredths",
        "times",
        "fold",
        "factorial",
        "if",
    ],
)
def test_a_closing_value_with_a_value_word_after_it_states_nothing(verifier: MathVerifier, word: str) -> None:
    pred = f"So the number we want for $n = 5$ is 12 {word}."
    assert verifier.verify(pred, "12").reason != "correct"


def test_a_closing_value_with_only_a_counted_label_is_stated(verifier: MathVerifier) -> None:
    pred = "So the area of the triangle with vertices $(0,0)$ and $(4,3)$ is **6** square units."
    assert (
        expect_verdict(verifier, pred, "6", "correct")["extracted"] == "6"
    )  # `square` before a unit names the unit
    assert verifier.verify("So the number we want for $n = 5$ is 12 square.", "12").reason != "correct"
    assert expect_verdict(verifier, "So the number we want for $n = 5$ is 12 books.", "12", "correct")[
        "method"
    ] == ("conclusion")


@pytest.mark.parametrize(
    "pred, numeral",
    [
        ("The answer is $12$ in base 10.", "12_{10}"),
        ("The answer is $12$ (base 10).", "12_{10}"),
        ("The answer is $12$ in decimal.", "12_{10}"),
        ("The answer is 12 in base ten.", "12_{10}"),
        ("The answer is $101$ in binary.", "101_{2}"),
        (r"\boxed{12} (base 3)", "12_{3}"),
        (r"$\boxed{3}_{10}$", "3_{10}"),
    ],
)
def test_a_base_named_after_a_value_makes_it_that_numeral(
    verifier: MathVerifier, pred: str, numeral: str
) -> None:
    details = expect_verdict(verifier, pred, "12_3", "wrong") if "12_{3}" not in numeral else None
    if details is not None:  # the decimal twelve (or five, or three) is not the base-3 numeral 12
        assert details["extracted"] == numeral
    else:
        assert expect_verdict(verifier, pred, "12_3", "correct")["extracted"] == numeral


# ---- 3. an operator glued to a box from outside states two values (the box's and the whole's): no answer
@pytest.mark.parametrize(
    "pred, box, whole",
    [
        (r"$\boxed{3}!$", "3", "6"),
        (r"$\boxed{3}^2$", "3", "9"),
        (r"$\boxed{2}^3$", "2", "8"),
        (r"$\boxed{10}^0$", "10", "1"),
        (r"$\boxed{3}_5$", "3", "3_5"),
    ],
)
def test_an_operator_glued_to_a_box_leaves_no_answer(
    verifier: MathVerifier, pred: str, box: str, whole: str
) -> None:
    expect_verdict(verifier, pred, box, "no_answer")
    expect_verdict(verifier, pred, whole, "no_answer")


def test_a_percent_or_degree_sign_glued_to_a_box_is_its_unit(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, r"$\boxed{30}^\circ$", "30", "correct")["extracted"] == r"{30}^\circ"
    expect_verdict(verifier, r"$\boxed{30}^{\circ}$", "60", "wrong")
    assert expect_verdict(verifier, r"\boxed{50}\%", "50", "correct")["extracted"] == r"{50}\%"
    expect_verdict(verifier, r"\boxed{50}\%", "40", "wrong")


# ---- 3b. a box inside a true chain, or restated approximately by its own value, still stands
@pytest.mark.parametrize(
    "pred, reason",
    [
        (r"$3 + 2 = \boxed{5} = 6 - 1$", "correct"),
        (r"$\boxed{5} \approx 5.0$", "correct"),
        (r"$\boxed{5} = 2 \cdot 3$", "no_answer"),  # not plain arithmetic: not read as a restatement
        (r"$\boxed{5} = 6 - 2$", "no_answer"),  # a false link: the formula says two things
        (r"$\boxed{5} \approx 4.9$", "no_answer"),
        (r"$\boxed{5} = 5.0000000000000000001$", "no_answer"),  # beyond a float: not compared through one
    ],
)
def test_a_box_restated_after_it_stands(verifier: MathVerifier, pred: str, reason: str) -> None:
    assert expect_verdict(verifier, pred, "5", reason).get("extracted") == (
        "5" if reason == "correct" else None
    )
