"""Findings of red-team round 11 (tests/data/math/external/round11.yaml, held out until graded once on 22255d5:
12 false positives), each as a rule with its counterpart."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

ZEROS = (
    "3. Sum of the zeros: $-1 + 0 + 1 = 0$\n\n- **Number of real zeros:** 3\n- **Sum of zeros:** 0\n\n"
    "The question asks for the number of real zeros: **3**."
)


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # a closing line with a bold number after a colon states the answer
        (ZEROS, "3", "0"),
        # a correction label after the box revises it to the value that follows
        ("$$\\boxed{\\frac{\\pi}{4}}$$\n\nCorrection: the arcsine of $\\frac{\\sqrt{3}}{2}$ is not $\\frac{\\pi}{4}$; it is $\\frac{\\pi}{3}$.", "\\frac{\\pi}{3}", "\\frac{\\pi}{4}"),
        # a counterfactual box (an example, a hypothesis) gives way to the value stated after it
        ("For example, if the side were $4$, the area would be $\\boxed{16}$. In our problem the side is $6$, so the area is $36$.", "36", "16"),
        ("Hypothetically, if we ignored the restriction, the count would be $\\boxed{720}$. With it, the count is $720 - 240 = 480$.", "480", "720"),
        # a LaTeX source listing is code; the value stated after it answers
        ("```latex\n\\boxed{17}\n```\nThat's the LaTeX you asked for. The actual value of the sum is $2+3+5+7+11+13+17+19 = 77$.", "77", "17"),
    ],
)  # fmt: skip
def test_round_11_answers(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    assert verifier.verify(reply, right).reason == "correct", reply
    assert verifier.verify(reply, other).reason == "wrong", reply


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        # a correction that revises to a value in another script's words: no answer rather than the old box
        ("答案是 $\\boxed{36}$。\n\n不对，我把 $6 \\times 6$ 当成了 $6 + 6$ 的情况……上面的 $36$ 作废。", "36"),
        # another candidate named as possibly the intended one, in a bracket after the answer line
        ("Answer: $x = 2$ (I could not verify this; the other candidate $x = -2$ may be the intended one).", "2"),
        # the same name assigned again after `Also`: two answers
        ("$x = 4$. Also $x = 9$.", "9"),
        ("$x = 4$. Also $x = 9$.", "4"),
    ],
)  # fmt: skip
def test_round_11_replies_without_one_answer(verifier: MathVerifier, reply: str, gold: str) -> None:
    assert verifier.verify(reply, gold).reason in ("wrong", "no_answer"), reply


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        ("So $\\boxed{5}$.\n\nCorrection: no change is needed; $5$ stands.", "5"),
        ("If $n = 2$, then the sum is $\\boxed{5}$. Check: $2 + 3 = 5$.", "5"),
        (
            "If it were isosceles, the angle would be $\\boxed{45}$. It is isosceles, so the angle is $45$.",
            "45",
        ),
        ("Answer: $x = 2$ (which could also be written as $\\frac{4}{2}$).", "2"),
        ("$x = 4$. Then $x = 9$.", "9"),
        ("$x = 4$, and also $y = 9$.", "9"),
        ("```math\n\\boxed{17}\n```", "17"),
    ],
)
def test_round_11_counterparts_stay_right(verifier: MathVerifier, reply: str, gold: str) -> None:
    assert verifier.verify(reply, gold).reason == "correct", reply


NOTE = r"Thus, the coefficient of $x^3$ is $\boxed{80}$. (Note the coefficient of $x^2$ would be $\binom{5}{2}\cdot 4 \cdot (-1)^3 = -40$.)"


def test_a_remark_on_another_quantity_offers_no_second_answer(verifier: MathVerifier) -> None:
    assert verifier.verify(NOTE, "80").reason == "correct"
    assert verifier.verify(NOTE, "-40").reason == "wrong"
    # a remark that offers a choice still hedges
    hedged = r"Thus $\boxed{80}$. (Note the coefficient would be $-40$, or maybe $40$.)"
    assert verifier.verify(hedged, "80").reason == "wrong"


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # the closing line's one bold value among its numbers, with its unit
        ("At the same speed, in 3.5 hours it travels 90 × 3.5 = 315 km.\n\nSo, the train will travel **315 km** in 3.5 hours.", "315", "3.5"),
        ("The probability of drawing a marble that is not green is 15/20, which simplifies to **3/4**.", "\\frac{3}{4}", "20"),
        # an answer line's bold run may hold its count's label
        ("So $n = 21$.\n\n**Answer:** Sam has **21 nickels** (and 9 dimes).", "21", "9"),
    ],
)  # fmt: skip
def test_a_bold_value_marks_the_answer(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    assert verifier.verify(reply, right).reason == "correct", reply
    assert verifier.verify(reply, other).reason == "wrong", reply


@pytest.mark.parametrize(
    "reply",
    [
        "So the total is not **5** apples.",  # denied
        "The total is about **5** apples.",  # approximated
        "So **5** apples, or maybe 6.",  # two sentences' worth: a hedge follows
        "**Answer:** Sam has **5 dozen** eggs.",  # a scale word, not a label
    ],
)
def test_a_qualified_bold_value_is_not_the_answer(verifier: MathVerifier, reply: str) -> None:
    assert verifier.verify(reply, "5").reason != "correct", reply
