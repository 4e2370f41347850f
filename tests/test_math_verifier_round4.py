"""Red-team round 4a classes, one rule each with its wrong counterparts and the reason asserted: unicode
radicals take their whole radicand, boxes in asides, replies cut off mid-sentence or inside `<think>`, a closing
sentence that states its answer after restating the question in math, and code blocks."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.extract import extract_answer
from rlvr.verifiers.math.unicode_math import rewrite_unicode_math

from grading import expect_verdict


# ---- a unicode radical takes its whole radicand: `√15` is the root of 15, never √1 times 5
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("The answer is √15.", r"\sqrt{15}", "correct"),
        ("The answer is √15.", "5", "wrong"),  # √1 * 5
        (r"\boxed{√16}", "4", "correct"),
        (r"\boxed{√16}", "6", "wrong"),
        ("The answer is 2√15.", r"2\sqrt{15}", "correct"),
        ("The answer is 2√15.", "10", "wrong"),
        ("The answer is √75.", r"5\sqrt{3}", "correct"),
        ("The answer is (1 + √17)/2.", r"\frac{1+\sqrt{17}}{2}", "correct"),
        ("The answer is (1 + √17)/2.", "4", "wrong"),
        ("The answer is √(x+1).", r"\sqrt{x+1}", "correct"),
        ("The answer is √(x+1).", r"\sqrt{x}+1", "wrong"),
        ("The answer is ∛16.", r"2\sqrt[3]{2}", "correct"),
        ("The answer is ∛27.", "3", "correct"),
        ("The answer is ∛27.", r"\sqrt{27}", "wrong"),
    ],
)
def test_unicode_radical_takes_the_whole_radicand(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, latex",
    [
        ("√15", r"\sqrt{15}"),
        ("2√15", r"2\sqrt{15}"),
        ("√(x+1)", r"\sqrt{x+1}"),
        ("∛2", r"\sqrt[3]{2}"),
        ("x²", "x^{2}"),
        ("10⁻³", "10^{-3}"),
        ("x₁", "x_{1}"),
        ("½", r"\frac{1}{2}"),
        ("2½", r"(2+\frac{1}{2})"),
    ],
)
def test_unicode_math_is_rewritten_to_latex(text: str, latex: str) -> None:
    assert rewrite_unicode_math(text) == latex


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("The answer is 2½.", r"\frac{5}{2}", "correct"),
        ("The answer is 2½.", r"\frac{2}{2}", "wrong"),  # not 2 * 1/2
        ("The answer is 10⁻³.", "0.001", "correct"),
        ("The answer is 10⁻³.", "-30", "wrong"),
    ],
)
def test_unicode_fractions_and_powers(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- a box in an aside next to the answer's box: two different values with no revision between them are no
# answer (round 5: which box is the aside cannot be read off word lists; `contested.py`); asides alone commit
# nothing
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        (r"The area is $\boxed{40}$. (For comparison, the perimeter is $\boxed{26}$.)", "40", "26"),
        (r"The sum of the squares is $\boxed{26}$. (The sum of the roots is $\boxed{6}$.)", "26", "6"),
        (r"Hence $\boxed{252}$ is the lcm. Note that the gcd is $\boxed{42}$.", "252", "42"),
        (
            r"The distance is $\boxed{180}$ km; the speed is $\boxed{51.4}$ km/h, which was not asked.",
            "180",
            "51.4",
        ),
        ("The remainder is $\\boxed{2}$.\n\n(A common mistake gives $\\boxed{4}$ here.)", "2", "4"),
        (
            "So $\\boxed{-\\frac45}$.\n\n(If it were acute, we would get $\\boxed{\\frac45}$ instead.)",
            r"-\frac45",
            r"\frac45",
        ),
    ],
)
def test_a_box_in_an_aside_beside_the_answer_leaves_no_answer(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    expect_verdict(verifier, pred, right, "no_answer")
    expect_verdict(verifier, pred, wrong, "no_answer")


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        # a revision in the aside replaces the answer
        (
            r"The sum is $\boxed{26}$. (Correction: I added wrongly; the sum is $\boxed{25}$.)",
            "25",
            "correct",
        ),
        (r"The sum is $\boxed{26}$. (Correction: I added wrongly; the sum is $\boxed{25}$.)", "26", "wrong"),
        # a hedge in brackets offers two values: no answer (round 5: two different boxes, no revision)
        (r"The answer is $\boxed{8}$. (Alternatively $\boxed{7}$.)", "8", "no_answer"),
        # only asides hold boxes: nothing was committed
        (r"The area is 40. (For comparison, the perimeter is $\boxed{26}$.)", "26", "no_answer"),
    ],
)
def test_asides_that_revise_hedge_or_stand_alone(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- a reply cut off mid-sentence (or inside an unclosed <think>) without a box or answer phrase: no answer
@pytest.mark.parametrize(
    "pred, gold",
    [
        (r"The train covers $60 \times 2 = 120$ km. Then it slows to 40 km/h for the remaining", "120"),
        (r"So $x^2 = 49$, which gives $x = 7$. However, we also need the negative root $x =", "7"),
        (r"Let me compute $f(2) = 2^2 + 3 = 7$. Then $f(f(2)) = f(7) =", "7"),
        (r"The area is $\frac{1}{2} \cdot 14 \cdot 12 = 84$. The circumradius is $R = \frac{abc}{", "84"),
        ("<think>\nThe perimeter is $2(8 + 5) = 26$. So the answer is 26.", "26"),  # never closed: a draft
    ],
)
def test_a_reply_cut_off_before_committing_has_no_answer(
    verifier: MathVerifier, pred: str, gold: str
) -> None:
    assert "extracted" not in expect_verdict(verifier, pred, gold, "no_answer")


@pytest.mark.parametrize(
    "pred, gold",
    [
        ("The total is 120 km", "120"),  # a number and its unit end a statement
        ("28 percent", "28"),
        (r"So she has $18 + 5 = 23$ apples", "23"),
        ("So the answer is $\\boxed{26}$.\n\nTo double-check, the area is", "26"),  # committed, then a check
        ("<think>\nmaybe 7</think>\nThe answer is 26.", "26"),  # the think block was closed
    ],
)
def test_a_finished_or_committed_reply_keeps_its_answer(verifier: MathVerifier, pred: str, gold: str) -> None:
    expect_verdict(verifier, pred, gold, "correct")


# ---- a closing sentence restating the question in math states its answer after the formula
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        ("So the number of ways to arrange $3$ books is **12**.", "12", "3"),
        ("Hence, when $2^{100}$ is divided by $7$, the remainder is **2**.", "2", "7"),
        ("Therefore, the remainder when $2^{100}$ is divided by 7 is **2**.", "2", "2^{100}"),
        ("The value of $f(3)$ is **10**.", "10", "f(3)"),
        ('The answer to the question "how many primes are less than $20$" is 8.', "8", "20"),
        (
            "So the area of the triangle with vertices $(0,0)$, $(4,0)$ and $(0,3)$ is **6** square units.",
            "6",
            "3",
        ),
    ],
)
def test_a_closing_sentence_states_its_answer_after_the_formula(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    details = expect_verdict(verifier, pred, right, "correct")
    assert (details["extracted"], details["method"]) == (right, "conclusion")
    expect_verdict(verifier, pred, wrong, "wrong")


def test_a_qualified_value_after_the_formula_states_no_answer() -> None:
    found = extract_answer("So $x = 3$ is 2 more than the other root.")
    assert found is not None and found.answer != "2"


# ---- code: a program states no answer; output blocks and inline code show one
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("```python\nanswer = 17\nprint(answer + 1)\n```", "17", "no_answer"),
        ("The answer is `17`.", "17", "correct"),
        ("The answer is `17`.", "18", "wrong"),
        ("**Answer:** `17`", "17", "correct"),
        ("The answer is:\n```\n17\n```", "17", "correct"),
        ("The answer is `1/2`.", r"\frac{1}{2}", "correct"),
    ],
)
def test_code_blocks(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- round 4b: a value a tiny term away from the gold is not the gold (only a proof makes two values equal)
@pytest.mark.parametrize(
    "pred, gold",
    [
        (r"\boxed{3 + e^{-1000}}", "3"),
        (r"\boxed{3 - e^{-1000}}", "3"),
        (r"\boxed{\arctan(10^{100})}", r"\frac{\pi}{2}"),
        (r"\boxed{3 + \sin^2(10^{-300})}", "3"),
        (r"\boxed{2 + \tanh(1000)}", "3"),
        (r"\boxed{3 + \ln(1 + 10^{-100})}", "3"),  # nsimplify rounds this to zero: it proves nothing
        (r"\boxed{\tanh(e^{10})}", "1"),  # below any precision evalf reaches: unproven, so not equal
        (r"\boxed{x + 1 + e^{-1000}}", "x+1"),
    ],
)
def test_a_tiny_term_away_is_not_equal(verifier: MathVerifier, pred: str, gold: str) -> None:
    assert not verifier.verify(pred, gold).passed


@pytest.mark.parametrize(
    "pred, gold",
    [
        (r"\boxed{\sin^2(\pi/7) + \cos^2(\pi/7)}", "1"),
        (r"\boxed{\log_2 8}", "3"),
        (r"\boxed{\sqrt{5 + 2\sqrt{6}}}", r"\sqrt{2} + \sqrt{3}"),
        (r"\boxed{\cos(\pi/5)}", r"\frac{1+\sqrt{5}}{4}"),
        (r"\boxed{e^{\ln 3}}", "3"),
    ],
)
def test_values_equal_by_proof_stay_equal(verifier: MathVerifier, pred: str, gold: str) -> None:
    expect_verdict(verifier, pred, gold, "correct")


# ---- a box that is one term of a formula: no answer; a box led up to (`x = `, `\equiv`) stands
@pytest.mark.parametrize(
    "pred, gold",
    [
        (r"The answer is $\boxed{3}\sqrt{2}$.", "3"),
        (r"$5 + \boxed{3}$", "3"),
        (r"$5 + \boxed{3}$", "8"),
        (r"$\sqrt{\boxed{3}}$", "3"),
        (r"So $n = 1\boxed{3}$.", "3"),
        (r"So $n = \boxed{3}.14$.", "3"),
        (r"The answer is $-\boxed{5}$.", "5"),
        (r"Hence $x = \frac{\boxed{2}}{3}$.", "2"),
        (r"The answer is $\boxed{8} - 5 = 3$.", "3"),
        (r"\boxed{3} = 5", "3"),
    ],
)
def test_a_box_inside_a_formula_answers_nothing(verifier: MathVerifier, pred: str, gold: str) -> None:
    expect_verdict(verifier, pred, gold, "no_answer")


@pytest.mark.parametrize(
    "pred, gold",
    [
        (r"So $x = \boxed{3}$.", "3"),
        (r"$p(8) = \frac{q(8) + 8}{63} = \boxed{\frac{3}{56}}.$", r"\frac{3}{56}"),
        (r"Then $129^{34}+96^{38} \equiv \boxed{9} \pmod{11}.$", "9"),
        (r"$\boxed{3} \neq 5$", "3"),
        (r"$\boxed{3} = n$", "3"),
        (r"The length is $\boxed{12}\text{ cm}$.", "12"),
        (r"\frac{\frac{\frac{\boxed{7}", "7"),  # a formula never closed: the box is all there is
    ],
)
def test_a_box_led_up_to_stands(verifier: MathVerifier, pred: str, gold: str) -> None:
    expect_verdict(verifier, pred, gold, "correct")


# ---- a chain of equalities with a false constant link is false, whatever its last member
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"\boxed{x = 5 = 3}", "3", "wrong"),
        (r"\boxed{n = 2 + 2 = 3}", "3", "wrong"),
        (r"\boxed{a + b = 7 = 12}", "12", "wrong"),
        (r"\boxed{n = 2 + 2 = 4}", "4", "correct"),
        (r"\boxed{x = 2 \cdot 3 = 6}", "6", "correct"),
    ],
)
def test_a_false_link_makes_a_chain_false(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert verdict.passed is (reason == "correct"), dict(verdict.details)


def test_an_alternative_in_bracketed_text_after_a_box_is_a_hedge(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, r"\boxed{1,2,3} \text{ (and } 4)", "1,2,3", "wrong")
    assert details["method"] == "boxed" and details["extracted"] == "1,2,3, 4"


def test_evalf_proves_a_tiny_difference_nonzero_before_any_rewrite() -> None:
    """The difference `3 + e^{-1000} - 3` is settled by adaptive-precision evaluation (no slow simplify), and a
    true zero is never called nonzero by it."""
    import sympy

    from rlvr.verifiers.math.symbolic import _certainly_nonzero

    assert _certainly_nonzero(sympy.exp(-1000))
    assert _certainly_nonzero(sympy.sin(sympy.Rational(1, 10**300)) ** 2)
    assert not _certainly_nonzero(sympy.sin(sympy.pi / 7) ** 2 + sympy.cos(sympy.pi / 7) ** 2 - 1)
    assert not _certainly_nonzero(sympy.sqrt(5 + 2 * sympy.sqrt(6)) - sympy.sqrt(2) - sympy.sqrt(3))


# ---- a reply cut off while withdrawing its answer, a hallucinated next few-shot question, a hidden `or`
@pytest.mark.parametrize(
    "pred",
    [
        "So the answer is $\\boxed{12}$.\n\nWait, I think I misread the problem: it asks for *odd* divisors, so",
        "Therefore the final answer is 12.\n\nHmm, actually, that's not right. The boxes are identical, so we",
        "Answer: 12\n\nWait, no. Let me redo this. The",
    ],
)
def test_a_reply_cut_while_withdrawing_its_answer_has_none(verifier: MathVerifier, pred: str) -> None:
    expect_verdict(verifier, pred, "12", "no_answer")


def test_a_finished_withdrawal_is_a_revision_not_a_cut(verifier: MathVerifier) -> None:
    pred = "So the answer is $\\boxed{12}$.\n\nWait, I misread: it asks for odd divisors, so the answer is 4."
    expect_verdict(verifier, pred, "4", "correct")


def test_a_next_few_shot_question_ends_the_reply(verifier: MathVerifier) -> None:
    pred = "A: 3 + 5 = 8. The answer is 8.\n\nQ: Tom has 10 pens and gives away 4. How many?\nA: The answer is 6."
    assert expect_verdict(verifier, pred, "8", "correct")["extracted"] == "8"
    expect_verdict(verifier, pred, "6", "wrong")


@pytest.mark.parametrize("pred", [r"\boxed{3}{\text{ or }5}", r"\boxed{3}_{\text{or }5}"])
def test_an_or_attached_to_a_box_is_a_hedge(verifier: MathVerifier, pred: str) -> None:
    assert expect_verdict(verifier, pred, "3", "wrong")["extracted"] == "3, 5"


# ---- every stage answers within its deadline on large inputs (round 4b robust:size): a verdict, or `timeout`
# under load, never a hang. Not a speed target (benchmarks/math_verifier.py times them: well under a second on an
# idle machine); the bound is the deadlines' (fast stage 1 s, then the worker's), far below the hangs they had.
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (
            "\\boxed{7}" + " " * 20_000,
            "7",
            "correct",
        ),  # the alternative reader backtracked over the spaces (12 s)
        (
            "(For comparison, \\boxed{2}.) " * 5_000,
            "2",
            "no_answer",
        ),  # each aside box read its line back (80 s)
        ("x" * 1_000_000 + "\\boxed{5}", "5", "correct"),  # the cut-off check rescanned each run of letters
    ],
)
def test_large_inputs_are_answered_within_the_deadline(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    import time

    start = time.perf_counter()
    verdict = verifier.verify(pred, gold)
    assert time.perf_counter() - start < 10.0
    assert verdict.reason in (reason, "timeout"), dict(verdict.details)


# ---- a box labelled with the asked quantity (`m + n = 7`): the value on the right answers a bare gold
@pytest.mark.parametrize(
    "pred, gold, reason, error",
    [
        (r"\boxed{m+n = 7}", "7", "correct", None),
        (r"\boxed{r_1^2+r_2^2 = 26}", "26", "correct", None),
        (r"\boxed{a+b+c = 12}", "12", "correct", None),
        (r"\boxed{p+q = \frac{5}{2}}", r"\frac{5}{2}", "correct", None),
        (r"\boxed{\text{Area} = 12}", "12", "correct", None),
        (r"\boxed{\angle ABC = 40^\circ}", r"40^\circ", "correct", None),
        (r"\boxed{\text{Total cost} = \$45}", r"\$45", "correct", None),
        (r"\boxed{x+y=7}", "8", "wrong", None),  # the label is read, the value is not the gold's
        (r"\boxed{r_1^2+r_2^2 = 36}", "26", "wrong", None),
        (r"\boxed{\text{Area} = 13}", "12", "wrong", None),
        (r"\boxed{2x = 4}", "4", "wrong", None),  # a number on the left: a condition to solve, not a label
        (r"\boxed{m+2n = 7}", "7", "wrong", None),
        (r"\boxed{x^2 = 4}", "4", "wrong", None),  # one unknown: a condition, whose solution is 2 or -2
        (r"\boxed{(r_1+r_2)^2 = 36}", "36", "wrong", None),  # a power of a bracket: a step, not the quantity
        (r"\boxed{m+n = x}", "x", "wrong", None),  # the right side is no constant: a relation, not a value
        (r"\boxed{m+n=7}", "m+n=8", "wrong", None),  # a gold equation is compared as an equation
        (r"\boxed{m + n = 7 + 1}", "7", "wrong", None),
        (r"\boxed{m + n = 3 + 4 = 8}", "8", "wrong", "a false equality (`3 = 4`) answers nothing"),
        (r"\boxed{\text{Area} = 3 + 4 = 8}", "8", "wrong", None),  # a worded label takes one value only
    ],
)
def test_a_box_labelled_with_the_asked_quantity(
    verifier: MathVerifier, pred: str, gold: str, reason: str, error: str | None
) -> None:
    details = expect_verdict(verifier, f"Therefore ${pred}$.", gold, reason)
    assert details.get("error") == error
    if reason == "wrong" and error is None and "=" in gold:
        assert details["parsed"] == "m + n = 7"


def test_a_gold_condition_is_not_a_label(verifier: MathVerifier) -> None:
    # the reading is the reply's alone: a gold `x + y = 7` is a line, which a bare 7 does not answer
    expect_verdict(verifier, r"\boxed{7}", "x+y=7", "wrong")
    expect_verdict(verifier, r"\boxed{x+y=7}", "x+y=7", "correct")


# ---- an AMC gold written with its option's value (`\textbf{(C)}\ 12`): the letter or the value answers it
_AMC_GOLDS = [
    r"\textbf{(C)}\ 12",
    r"\textbf{(C) }12",
    r"\mathrm{(C)}\ 12",
    r"\text{(C) }12",
    r"\qquad\textbf{(C)}\ 12",
]


@pytest.mark.parametrize("gold", _AMC_GOLDS)
@pytest.mark.parametrize(
    "pred, reason, error",
    [
        (r"\boxed{C}", "correct", None),
        (r"\boxed{(C)}", "correct", None),
        (r"\boxed{\textbf{(C)}}", "correct", None),
        (r"\boxed{\text{(C)}}", "correct", None),
        (r"\boxed{12}", "correct", None),
        (r"The answer is $\textbf{(C)}\ 12$.", "correct", None),
        (r"The answer is $\textbf{(C)}$.", "correct", None),
        (r"\boxed{D}", "wrong", None),
        (r"\boxed{13}", "wrong", None),
        (r"\boxed{(C)\ 13}", "wrong", "option C is written with the value '13', not the gold's"),
        (r"\boxed{\textbf{(D)}\ 12}", "wrong", None),  # the value of C under another letter
        (r"\boxed{(C) and (D)}", "wrong", None),
        (r"\boxed{C, D}", "wrong", None),
    ],
)
def test_an_amc_gold_with_its_value(
    verifier: MathVerifier, gold: str, pred: str, reason: str, error: str | None
) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert details.get("error") == error


def test_an_amc_gold_keeps_its_letter_and_value() -> None:
    from rlvr.verifiers.math.config import MathVerifierConfig
    from rlvr.verifiers.math.gold import parse_gold
    from rlvr.verifiers.math.shapes import Choice

    answer = parse_gold(r"\textbf{(C)}\ \frac{5}{2}", MathVerifierConfig()).answer
    assert isinstance(answer, Choice) and answer.letter == "C" and answer.value is not None
    assert answer.value.show() == "5/2"
    named = parse_gold("(D) Alina", MathVerifierConfig()).answer  # option text, not a value: the letter alone
    assert isinstance(named, Choice) and named.letter == "D" and named.value is None
