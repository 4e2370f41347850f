"""Red-team round 7 (issue 13): how values are written. A unicode minus before a radical, pi or infinity, `+∞` as an
interval's end, colour around a box, text struck out by combining overlays, single tildes or LaTeX's strike commands, an unclosed money `$`
that ends a reply, a block-quoted answer, repeating decimals (a dot over the period's first and last digit,
combining overlines and dots, `repeating` / `recurring` written after the digits), the reals without an interval
and set-builder notation. Each rule with its wrong counterpart (the gold is another value of the same text), and
the reason asserted."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.atoms import minus_signs
from rlvr.verifiers.math.markup import money_dollars, struck_out
from rlvr.verifiers.math.repeating import rewrite_repeating
from rlvr.verifiers.math.set_ops import set_builder_condition


def _grade(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert verdict.reason == reason, dict(verdict.details)
    assert verdict.passed is (reason == "correct")


# ---- a minus sign (U+2212) before whatever starts a number: a radical, pi, infinity, as well as a digit
@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        ("So the minimum value is \u2212\u221a3.", "-\\sqrt{3}", "correct"),
        ("So the minimum value is \u2212\u221a3.", "\\sqrt{3}", "wrong"),
        ("So the minimum value is \u22122\u221a3.", "-2\\sqrt{3}", "correct"),
        ("So the angle is \u2212\u03c0/2.", "-\\frac{\\pi}{2}", "correct"),
        ("So the angle is \u2212\u03c0/2.", "\\frac{\\pi}{2}", "wrong"),
        ("So the root is \u2212\u221b2.", "-\\sqrt[3]{2}", "correct"),
    ],
)
def test_a_unicode_minus_before_a_radical_or_pi(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    _grade(verifier, pred, gold, reason)


def test_minus_signs_before_what_starts_a_number() -> None:
    assert minus_signs("\u2212\u221a3, \u2212\u03c0, (\u2212\u221e, 2)") == "-\u221a3, -\u03c0, (-\u221e, 2)"
    assert minus_signs("a \u2212 b") == "a \u2212 b"  # a binary minus between names is left to the parser


# ---- `+∞` is an interval's end, so the pair is the value, never its `0` alone
@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        ("So f is increasing on (0, +\u221e).", "(0,\\infty)", "correct"),
        ("So f is increasing on (0, +\u221e).", "[0,\\infty)", "wrong"),
        ("So f is increasing on (0, +\u221e).", "0", "wrong"),
        ("So g is decreasing on (\u22121, +\u221e).", "(-1,\\infty)", "correct"),
        ("So g is decreasing on (\u22121, +\u221e).", "(1,\\infty)", "wrong"),
    ],
)
def test_a_plus_infinity_endpoint(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _grade(verifier, pred, gold, reason)


# ---- colour only highlights: a coloured box is a box
_CRT = "The residue is $23 \\pmod{105}$ and $n > 100$, so $n = 23 + 105 = 128$.\n\n"


@pytest.mark.parametrize(
    "boxed",
    [
        "$\\color{red}\\boxed{128}$",
        "$\\textcolor{red}{\\boxed{128}}$",
        "$\\color{blue}{\\boxed{128}}$",
        "\\colorbox{yellow}{$\\boxed{128}$}",
        "$\\boxed{\\textcolor{red}{128}}$",
    ],
)
@pytest.mark.parametrize(("gold", "reason"), [("128", "correct"), ("23", "wrong")])
def test_a_coloured_box_is_a_box(verifier: MathVerifier, boxed: str, gold: str, reason: str) -> None:
    _grade(verifier, _CRT + boxed, gold, reason)


def test_colour_commands_are_unwrapped() -> None:
    assert struck_out("$\\textcolor{red}{\\frac{1}{2}}$ and \\color{blue} 5") == "${\\frac{1}{2}}$ and 5"
    assert struck_out("$\\textcolor{red}{\\boxed{7}}$") == "$\\boxed{7}$"  # a box groups itself
    assert struck_out("\\boxed{2\\color{red}{x+1}}") == "\\boxed{2{x+1}}"  # the group still groups: 2(x+1)


# ---- struck-out text states nothing: combining overlays on each character, GFM's single tilde
@pytest.mark.parametrize("overlay", ["\u0336", "\u0335", "\u0334", "\u0338", "\u20d2"])
@pytest.mark.parametrize(("gold", "reason"), [("48", "correct"), ("42", "wrong")])
def test_overlay_struck_digits_are_withdrawn(
    verifier: MathVerifier, overlay: str, gold: str, reason: str
) -> None:
    _grade(verifier, f"The answer is 4{overlay}2{overlay} 48.", gold, reason)


@pytest.mark.parametrize(
    "pred",
    [
        "The answer is $\\xcancel{42}$ $48$.",
        "The answer is $\\st{42}$ 48.",
        "The answer is $\\bcancel{42}$ 48.",
        "The answer is \\sout{42} 48.",
        "The answer is $\\cancel{42}\\ 48$.",
        "$$\\boxed{\\cancel{42}}\\quad\\boxed{48}$$",
    ],
)
@pytest.mark.parametrize(("gold", "reason"), [("48", "correct"), ("42", "wrong")])
def test_latex_strike_commands_are_withdrawn(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    _grade(verifier, pred, gold, reason)


def test_latex_strike_commands_take_their_group() -> None:
    assert struck_out("is $\\xcancel{42}$ $48$.") == "is   $48$."  # a formula wholly struck goes with it
    assert struck_out("$\\stackrel{?}{=}$ and \\cancelto{0}{x}") == "$\\stackrel{?}{=}$ and \\cancelto{0}{x}"


@pytest.mark.parametrize(("gold", "reason"), [("48", "correct"), ("42", "wrong")])
def test_a_single_tilde_strike_is_withdrawn(verifier: MathVerifier, gold: str, reason: str) -> None:
    _grade(verifier, "The answer is ~42~ 48.", gold, reason)


@pytest.mark.parametrize(
    "text", ["$a~=~b$", "$x~\\text{cm}$", "about ~18 to ~20", "between ~5-~10 km", "x~y~z", "~~42~~"]
)
def test_a_tilde_that_strikes_nothing(text: str) -> None:
    # LaTeX's unbreakable space and an approximate `~18` are no single-tilde strike (`~~` is the double one)
    assert struck_out(text) == (text if text != "~~42~~" else " ")


# ---- an unclosed `$` before an amount that ends the reply is money, not a formula cut off
@pytest.mark.parametrize(("gold", "reason"), [("180", "correct"), ("320", "wrong")])
def test_a_bold_money_amount_at_the_end(verifier: MathVerifier, gold: str, reason: str) -> None:
    _grade(verifier, "Profit = $500 - $320 = $180.\n\n**$180**", gold, reason)


def test_money_dollars_at_the_end() -> None:
    assert money_dollars("**$180**") == "**\\$180**"
    assert money_dollars("so one costs US$15.") == "so one costs US\\$15."
    assert money_dollars("so $2 + 6 + 18 = 2") == "so $2 + 6 + 18 = 2"  # a formula cut off: still open
    assert money_dollars("the total is $12") == "the total is $12"  # ends on digits: may be a cut formula


# ---- a reply written wholly as a quote still states its answer (nothing outside the quote commits)
@pytest.mark.parametrize(("gold", "reason"), [("-7", "correct"), ("7", "wrong")])
def test_a_block_quoted_answer(verifier: MathVerifier, gold: str, reason: str) -> None:
    _grade(verifier, "> **Step 3.** 3 \u2212 10 = \u22127\n>\n> **Answer:** \u22127", gold, reason)


# ---- repeating decimals in every notation are the exact fraction they denote
@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        ("\\boxed{0.\\dot{1}\\dot{2}}", "\\frac{4}{33}", "correct"),
        ("\\boxed{0.\\dot{1}\\dot{2}}", "0.12", "wrong"),
        ("\\boxed{0.\\dot{1}4\\dot{2}}", "\\frac{142}{999}", "correct"),
        ("\\boxed{0.\\dot{1}4\\dot{2}}", "\\frac{1}{7}", "wrong"),
        ("The answer is 0.3\u0305.", "\\frac{1}{3}", "correct"),
        ("The answer is 0.3\u0305.", "0.3", "wrong"),
        ("The answer is 0.1\u03052\u0305.", "\\frac{4}{33}", "correct"),
        ("The answer is 0.58\u0304.", "\\frac{53}{90}", "correct"),
        ("The answer is 0.58\u0304.", "0.58", "wrong"),
        ("The answer is 0.1\u03072\u0307.", "\\frac{4}{33}", "correct"),
        ("The answer is 0.142857 repeating.", "\\frac{1}{7}", "correct"),
        ("The answer is 0.142857 repeating.", "0.142857", "wrong"),
        ("The answer is 0.1666 recurring.", "\\frac{1}{6}", "correct"),
        ("The answer is 0.1666 recurring.", "\\frac{1666}{9999}", "wrong"),
        ("The answer is 0.3 (repeating).", "\\frac{1}{3}", "correct"),
        ("The answer is $0.\\bar{3}$.", "\\frac{1}{3}", "correct"),
        ("The answer is $0.\\bar{3}$.", "0.3", "wrong"),
    ],
)
def test_repeating_decimal_notations(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _grade(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    ("text", "fraction"),
    [
        ("0.\\dot{1}\\dot{2}", "\\frac{4}{33}"),
        ("1.\\dot{6}", "\\frac{5}{3}"),
        ("0.1\u03052\u0305", "\\frac{4}{33}"),
        ("1.2\u0307", "\\frac{11}{9}"),
        ("0.142857 repeating", "\\frac{1}{7}"),
        ("0.1666 recurring", "\\frac{1}{6}"),
        ("0.33 repeats", "\\frac{1}{3}"),
        ("0.16 repeating", "\\frac{16}{99}"),  # no tail shown twice: every digit after the point repeats
        ("0.100 repeating", "\\frac{100}{999}"),  # a tail of zeros is no period
    ],
)
def test_rewrite_repeating(text: str, fraction: str) -> None:
    assert rewrite_repeating(text) == fraction


# ---- the reals without an interval, and a set written by its condition, are the sets they denote
_OUTSIDE = "(-\\infty,2)\\cup(3,\\infty)"


@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        ("\\boxed{\\mathbb{R}\\setminus[2,3]}", _OUTSIDE, "correct"),
        ("\\boxed{\\mathbb{R}\\setminus(2,3)}", _OUTSIDE, "wrong"),
        ("\\boxed{\\mathbb{R}\\setminus(2,3)}", "(-\\infty,2]\\cup[3,\\infty)", "correct"),
        ("\\boxed{[0,5]\\setminus[1,2)}", "[0,1)\\cup[2,5]", "correct"),
        ("\\boxed{[0,5]\\setminus[1,2)}", "[0,1]\\cup(2,5]", "wrong"),
        ("\\boxed{\\{x \\mid x<2 \\text{ or } x>3\\}}", _OUTSIDE, "correct"),
        ("\\boxed{\\{x \\mid x\\le 2 \\text{ or } x>3\\}}", _OUTSIDE, "wrong"),
        ("\\boxed{\\{x : 1 \\le x < 4\\}}", "[1,4)", "correct"),
        ("\\boxed{\\{x \\in \\mathbb{R} \\mid x > 0\\}}", "(0,\\infty)", "correct"),
        ("\\boxed{\\{x \\mid y > 0\\}}", "(0,\\infty)", "wrong"),
        ("\\boxed{\\mathbb{R} \\backslash [2,3]}", _OUTSIDE, "correct"),
        ("\\boxed{\\mathbb{R} \\backslash [2,3)}", _OUTSIDE, "wrong"),
        ("\\boxed{\\mathbb{R} - \\{2\\}}", "(-\\infty,2)\\cup(2,\\infty)", "correct"),
        ("\\boxed{\\mathbb{R} - \\{2\\}}", "(-\\infty,2]\\cup(2,\\infty)", "wrong"),
    ],
)
def test_set_differences_and_set_builder(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _grade(verifier, pred, gold, reason)


def test_set_builder_condition() -> None:
    assert set_builder_condition("x | x<2 or x>3") == "x<2 or x>3"
    assert set_builder_condition("x | y > 2") is None  # names another variable
    assert set_builder_condition("1, 2") is None


# ---- every dash that is a minus sign before a number: hyphens, modifier-letter and heavy minus (round 6b's kin)
@pytest.mark.parametrize("dash", ["\u2010", "\u2011", "\u02d7", "\u2796", "\u2212"])
@pytest.mark.parametrize(("gold", "reason"), [("-5", "correct"), ("5", "wrong")])
def test_minus_like_dashes(verifier: MathVerifier, dash: str, gold: str, reason: str) -> None:
    _grade(verifier, f"The answer is {dash}5.", gold, reason)


def test_a_hyphen_between_numbers_is_a_range() -> None:
    assert minus_signs("pages 3\u20105") == "pages 3 to 5"


# ---- the reals of one sign are a half-line; `\R_+` alone is left unread ([0, ∞) in French texts)
@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        ("\\boxed{\\mathbb{R}^+}", "(0,\\infty)", "correct"),
        ("\\boxed{\\mathbb{R}^+}", "[0,\\infty)", "wrong"),
        ("\\boxed{\\mathbb{R}_{\\geq 0}}", "[0,\\infty)", "correct"),
        ("\\boxed{\\mathbb{R}_{\\geq 0}}", "(0,\\infty)", "wrong"),
        ("\\boxed{\\mathbb{R}^{-}}", "(-\\infty,0)", "correct"),
        ("\\boxed{\\mathbb{R}_{\\le 0}}", "(-\\infty,0)", "wrong"),
        ("\\boxed{\u211d\u207a}", "(0,\\infty)", "correct"),
        ("\\boxed{\\mathbb{R}_+}", "(0,\\infty)", "wrong"),
    ],
)
def test_the_reals_of_one_sign(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _grade(verifier, pred, gold, reason)
