"""Red-team round 6b's value-side false positives and the classes behind them: repeating decimals with the period
in parentheses are their exact fraction (never a product), a chain of `=` whose middle member is no value is an
unknown relation (no answer), and words after a separator or a word are no counted label (`no, yes` names two
answers). Each rule with its wrong counterparts and the reason asserted."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.normalize import normalize_answer
from rlvr.verifiers.math.number_words import number_from_words
from rlvr.verifiers.math.repeating import rewrite_repeating
from rlvr.verifiers.math.sums import polynomial_sum

from grading import expect_verdict


# ---- a repeating decimal, whatever marks its period, is the rational number it denotes
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{0.(3)}$", r"\frac13", "correct"),
        (r"$\boxed{0.(3)}$", "0", "wrong"),  # not the product 0*3
        (r"$\boxed{0.(3)}$", "0.33", "wrong"),
        (r"$\boxed{0.2(7)}$", r"\frac{5}{18}", "correct"),
        (r"$\boxed{0.2(7)}$", "1.4", "wrong"),  # not 0.2*7
        (r"$\boxed{0.05(7)}$", r"\frac{13}{225}", "correct"),
        (r"$\boxed{0.05(7)}$", "0.35", "wrong"),
        (r"$\boxed{0.(142857)}$", r"\frac17", "correct"),
        (r"$\boxed{0.(142857)}$", "0", "wrong"),
        (r"$\boxed{0.\,(3)}$", r"\frac13", "correct"),
        (r"$\boxed{0.\,(3)}$", "0", "wrong"),
        (r"$\boxed{0.1(6)}$", r"\frac16", "correct"),
        (r"$\boxed{0.1(6)}$", "0.6", "wrong"),
        (r"$\boxed{0.(7)}$", r"\frac79", "correct"),
        (r"$\boxed{2.(3)}$", r"\frac73", "correct"),
        ("The answer is 0.(3).", r"\frac13", "correct"),
        (r"$\boxed{(0.(3), 1)}$", r"(\frac13, 1)", "correct"),
        (r"$\boxed{1.\dot{6}}$", r"\frac53", "correct"),  # the other notations still read the same
        (r"$\boxed{0.\overline{3}}$", r"\frac13", "correct"),
        (r"$\boxed{0.1666\ldots}$", r"\frac16", "correct"),
        (r"$\boxed{2(3)}$", "6", "correct"),  # no decimal point: a product stays a product
    ],
)
def test_repeating_decimal_in_parentheses(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if "." in pred:
        assert "*" not in details.get("parsed", "")  # never read as a product of the digits


def test_repeating_rewrite_is_the_exact_fraction() -> None:
    assert rewrite_repeating("0.(3)") == r"\frac{1}{3}"
    assert rewrite_repeating("0.2(7)") == r"\frac{5}{18}"
    assert rewrite_repeating(r"0.\,(142857)") == r"\frac{1}{7}"
    assert rewrite_repeating(".(3)") == ".(3)"  # no digit at the point: nothing to continue
    assert rewrite_repeating("0.(3)4") == "0.(3)4"  # digits after the period: not a repeating decimal
    assert rewrite_repeating("x.(3)") == "x.(3)"
    assert rewrite_repeating(r"0.1\dot{6}") == r"\frac{1}{6}"  # a dot over the digit (moved from notation.py)
    assert normalize_answer("0.(3)").text == r"\frac{1}{3}"


# ---- a chain of `=` is read only when every member is a value: `=\=` (Prolog's not-equal) is no `=`
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{x =\= 7}$", "7", "wrong"),
        (r"$\boxed{x =\= 7}$", r"(-\infty, 7) \cup (7, \infty)", "wrong"),
        (r"$\boxed{x = 3 + 4 = 7}$", "7", "correct"),  # a chain of steps still ends in its value
        (r"$\boxed{x = \frac{14}{2} = 7}$", "7", "correct"),
    ],
)
def test_unknown_relation_is_no_equality(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if "=\\=" in pred:
        assert details["error"] == "the answer could not be parsed"


# ---- a counted label follows a value; words after a separator or a word name another answer
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\text{no, yes}}$", "no", "wrong"),
        (r"$\boxed{\text{no yes}}$", "no", "wrong"),
        (r"$\boxed{\text{yes, no}}$", "yes", "wrong"),
        (r"$\boxed{\text{no}}$", "no", "correct"),
        (r"$\boxed{5 \text{ apples}}$", "5", "correct"),  # a label after a number is still dropped
        (r"$\boxed{\frac{1}{2} \text{ cups}}$", r"\frac12", "correct"),
        ("The answer is seven apples.", "7", "correct"),  # a number in words has no free name: still a value
    ],
)
def test_words_after_a_separator_are_no_label(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if reason == "wrong":
        assert details["parsed"] in ("no yes", "yes no")  # read as the text it is, both words kept


# ---- the searched tail of a long reply never starts inside a math span (round 5 #450)
_LONG_SUM = " + ".join(["1"] * 5001)


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (f"The sum is ${_LONG_SUM} = 7$", "7", "no_answer"),  # not the `7` of a chain cut in its middle
        (f"The sum is \\({_LONG_SUM} = 7\\)", "7", "no_answer"),
        (f"The sum is $${_LONG_SUM} = 7$$", "7", "no_answer"),
        (f"${_LONG_SUM}$ is long. The answer is $7$.", "7", "correct"),  # a whole span after the cut
        ("x" * 9000 + " so the answer is $7$.", "7", "correct"),
    ],
)
def test_tail_never_starts_inside_a_span(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert details.get("extracted", "7") == "7"


# ---- numbers in words: a sign word, a fraction of an ordinal, a mixed number; an operation in words is none
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\text{seven-eighths}}$", r"\frac78", "correct"),
        (r"$\boxed{\text{seven-eighths}}$", "7", "wrong"),
        (r"$\boxed{\text{seven eighth}}$", r"\frac78", "wrong"),  # number disagreement: no fraction
        (r"$\boxed{\text{one eighth}}$", r"\frac18", "correct"),
        (r"$\boxed{\text{one twentieth}}$", r"\frac1{20}", "correct"),
        ("The answer is three hundredths.", "0.03", "correct"),
        (r"$\boxed{\text{minus seven}}$", "-7", "correct"),
        (r"$\boxed{\text{minus seven}}$", "7", "wrong"),
        (r"$\boxed{\text{negative seven}}$", "-7", "correct"),
        (r"$\boxed{\text{minus one half}}$", r"-\frac12", "correct"),
        (r"$\boxed{\text{seven and a half}}$", "7.5", "correct"),
        (r"$\boxed{\text{seven and a half}}$", "7", "wrong"),
        (r"$\boxed{\text{two and three quarters}}$", r"\frac{11}4", "correct"),
        (r"$\boxed{\text{two hundred and five}}$", "205", "correct"),  # `and` inside a cardinal still reads
        (r"$\boxed{\text{seven squared}}$", "49", "wrong"),
        (r"$\boxed{\text{seven squared}}$", "7", "wrong"),
    ],
)
def test_signed_fractional_and_mixed_number_words(
    verifier: MathVerifier, pred: str, gold: str, reason: str
) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if "squared" in pred or "seven eighth}" in pred:
        assert details["parsed"] in ("seven squared", "seven eighth")  # left as text, not a number


def test_number_words_values() -> None:
    assert number_from_words("seven and a half", "seven and half") == r"\frac{15}{2}"
    assert number_from_words("seven and half", "seven and half") is None  # no article: no `one half` to read
    assert number_from_words("one eighths", "one eighths") is None
    assert number_from_words("minus", "minus") is None
    assert number_from_words("two seconds", "two seconds") is None  # `second` is no denominator here


# ---- an option letter written with its value, against a gold value: the value is the answer (round 6a #369 #390)
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("**Answer: (D) 25**", "25", "correct"),
        (r"$\boxed{\textbf{(E)}\ 512}$", "512", "correct"),
        (r"$\boxed{\textbf{(E)}\ 500}$", "512", "wrong"),
        (r"$\boxed{(C)\ 13}$", "12", "wrong"),
        ("The answer is (C) 12 or (D) 13.", "12", "wrong"),  # two options: no value of one option
    ],
)
def test_option_with_value_against_a_value(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if " or " not in pred:
        assert details["parsed"] in ("25", "512", "500", "13")  # the value, not the letter times it


# ---- set operations taken exactly (set_ops.py): unions of finite sets, intervals without points
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\{1,2\}\cup\{3\}}$", r"\{1,2,3\}", "correct"),
        (r"$\boxed{\{1,2\}\cup\{2,3\}}$", r"\{1,2,3\}", "correct"),  # a shared element counts once
        (r"$\boxed{\{1,2\}\cup\{4\}}$", r"\{1,2,3\}", "wrong"),
        (r"$\boxed{(0,2)\setminus\{3\}}$", "(0,2)", "correct"),  # a point outside removes nothing
        (r"$\boxed{(0,2)\setminus\{1\}}$", "(0,2)", "wrong"),
        (r"$\boxed{(0,2)\setminus\{1\}}$", r"(0,1)\cup(1,2)", "correct"),
        (r"$\boxed{[0,2]\setminus\{0\}}$", "(0,2]", "correct"),  # a removed closed end opens it
        (r"$\boxed{[0,2]\setminus\{0\}}$", "[0,2]", "wrong"),
        (r"$\boxed{\mathbb{R}\setminus\{1, 1\}}$", r"(-\infty,1)\cup(1,\infty)", "correct"),
        (r"$\boxed{(0,1]\cup[1,2)}$", "(0,2)", "correct"),
        (r"$\boxed{(0,1)\cup(1,2)}$", "(0,2)", "wrong"),
    ],
)
def test_set_operations(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert (
        "\\cup" not in details["parsed"] and "\\setminus" not in details["parsed"]
    )  # taken, not kept as written


# ---- a long sum of a polynomial is its closed form (sums.py), not a timeout; other long sums stay too big
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\sum_{k=1}^{1000000} k}$", "500000500000", "correct"),
        (r"$\boxed{\sum_{k=1}^{1000000} k}$", "500000500001", "wrong"),
        (r"$\boxed{\sum_{k=1}^{10^{12}} k}$", "500000000000500000000000", "correct"),
        (r"$\boxed{\sum_{k=1}^{10000} k^2}$", "333383335000", "correct"),
        (r"$\boxed{\sum_{k=5}^{2000} (2k+1)}$", str(sum(2 * k + 1 for k in range(5, 2001))), "correct"),
        (r"$\boxed{\sum_{k=1}^{10000} \frac{k}{2}}$", "25002500", "correct"),
        (r"$\boxed{\sum_{k=1}^{10000} \frac{1}{k}}$", "1", "wrong"),  # no polynomial: no closed form here
    ],
)
def test_long_polynomial_sums(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


def test_polynomial_sum_reads_only_polynomials() -> None:
    k = ("sym", "k")
    assert polynomial_sum(k, "k", 1, 10**12) == 10**12 * (10**12 + 1) // 2
    assert polynomial_sum(("pow", k, ("num", Fraction(-1), None, None)), "k", 1, 5000) is None
    assert polynomial_sum(("mul", (k, ("sym", "n"))), "k", 1, 5000) is None  # another name: not in k alone


# ---- amssymb's negated and strict orders are orders on the reals (`\nleq` is `>`, `\lneq` is `<`)
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{x \nleq 7}$", r"(7,\infty)", "correct"),
        (r"$\boxed{x \nleq 7}$", r"[7,\infty)", "wrong"),
        (r"$\boxed{x \nless 7}$", r"[7,\infty)", "correct"),
        (r"$\boxed{x \nless 7}$", r"(7,\infty)", "wrong"),
        (r"$\boxed{x \lneq 7}$", "x < 7", "correct"),
        (r"$\boxed{x \lneq 7}$", r"x \le 7", "wrong"),
        (r"$\boxed{x \ngeq 7}$", r"(-\infty,7)", "correct"),
    ],
)
def test_negated_order_commands(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert "parsed" in details  # read as an order, not left unparsable


# ---- a literal square matrix to a large whole power, by squaring with bounded entries
_I2 = r"\begin{pmatrix}1&0\\0&1\end{pmatrix}"
_SHEAR = r"\begin{pmatrix}1&1\\0&1\end{pmatrix}"


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (rf"$\boxed{{{_I2}^{{100}}}}$", _I2, "correct"),
        (rf"$\boxed{{{_SHEAR}^{{1000}}}}$", r"\begin{pmatrix}1&1000\\0&1\end{pmatrix}", "correct"),
        (rf"$\boxed{{{_SHEAR}^{{1000}}}}$", r"\begin{pmatrix}1&999\\0&1\end{pmatrix}", "wrong"),
        (
            r"$\boxed{\begin{pmatrix}1&1\\1&0\end{pmatrix}^{10}}$",
            r"\begin{pmatrix}89&55\\55&34\end{pmatrix}",
            "correct",
        ),
        (
            r"$\boxed{\begin{pmatrix}2&1\\1&1\end{pmatrix}^{9999999}}$",
            _I2,
            "wrong",
        ),  # entries too large: no value
    ],
)
def test_matrix_powers(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    if "9999999" in pred:
        assert details["error"] == "the answer could not be parsed"


# ---- intersections: an interval's integers listed, two intervals meeting in an interval, a point or nothing
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{[1,3]\cap\mathbb{Z}}$", r"\{1,2,3\}", "correct"),
        (r"$\boxed{\mathbb{Z}\cap[1,3]}$", r"\{1,2,3\}", "correct"),
        (r"$\boxed{[1,3)\cap\mathbb{Z}}$", r"\{1,2\}", "correct"),
        (r"$\boxed{(1,3)\cap\mathbb{Z}}$", r"\{1,2,3\}", "wrong"),  # open ends leave their integers out
        (r"$\boxed{(1,3]\cap\mathbb{Z}}$", r"\{2,3\}", "correct"),
        (r"$\boxed{(0.5,3.5)\cap\mathbb{Z}}$", r"\{1,2,3\}", "correct"),
        (r"$\boxed{[0,2]\cap[1,3]}$", "[1,2]", "correct"),
        (r"$\boxed{[0,2]\cap[1,3]}$", "[1,2)", "wrong"),
        (r"$\boxed{[0,1)\cap[1,3]}$", r"\emptyset", "correct"),
        (r"$\boxed{[0,1]\cap[1,3]}$", r"\{1\}", "correct"),
        (r"$\boxed{(0,\infty)\cap\mathbb{Z}}$", r"\{1,2,3\}", "wrong"),  # no end: nothing listed
    ],
)
def test_intersections(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert "\\cap" not in details.get("parsed", "")


# ---- the answer `no` is the word, never the product n*o (so `on` is not `no`, and `No.` is)
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\text{No.}}$", "no", "correct"),
        ("No", "no", "correct"),
        (r"$\boxed{no}$", "No", "correct"),
        (r"$\boxed{on}$", "no", "wrong"),  # as a product, o*n would equal n*o
        (r"$\boxed{n \cdot o}$", "no", "wrong"),
        (r"$\boxed{\text{yes}}$", "no", "wrong"),
    ],
)
def test_no_is_a_word(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert "gold_parsed" not in details  # a text gold: compared as words, not parsed as math


# ---- a compound unit written in pieces (`5\text{ m}/\text{s}^2`) is one unit
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{5\text{ m}/\text{s}^2}$", "5", "correct"),
        (r"$\boxed{5\text{ m}/\text{s}^2}$", "6", "wrong"),
        (r"$\boxed{5\text{ m}/\text{s}^2}$", r"5\text{ m/s}", "wrong"),  # another unit: not converted
    ],
)
def test_compound_unit_in_pieces(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)
    assert normalize_answer(r"5\text{ m}/\text{s}^2") == normalize_answer(r"5 \text{ m/s}^2")
    assert normalize_answer("x / y").text == "x / y"  # a quotient of names is no unit


# ---- a percent or degree sign after a mixed number marks the whole number (33 1/3 % is never 33 * (1/3)% = 11%)
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{11\%}$", r"33\frac{1}{3}\%", "wrong"),
        (r"$\boxed{0.11}$", r"33\frac{1}{3}\%", "wrong"),
        (r"$\boxed{\frac{1}{3}}$", r"33\frac{1}{3}\%", "correct"),
        (r"$\boxed{33\frac{1}{3}\%}$", r"\frac{100}{3}\%", "correct"),
        (r"$\boxed{2.5^\circ}$", r"2\frac{1}{2}^\circ", "correct"),
        (r"$\boxed{1^\circ}$", r"2\frac{1}{2}^\circ", "wrong"),
    ],
)
def test_mixed_number_with_a_sign(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert "33*" not in details["gold_parsed"] and "2*" not in details["gold_parsed"]  # a sum, not a product


# ---- a long product of a constant (a quotient by a linear factor of itself that vanishes at no index)
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$\boxed{\prod_{k=1}^{100000} \frac{k}{k}}$", "1", "correct"),
        (r"$\boxed{\prod_{k=1}^{100000} \frac{k}{k}}$", "2", "wrong"),
        (r"$\boxed{\prod_{k=1}^{5000} \frac{2k+2}{k+1}}$", "2^{5000}", "correct"),
        (r"$\boxed{\prod_{k=0}^{100000} \frac{k}{k}}$", "1", "timeout"),  # 0/0 at k = 0: no closed form
        (r"$\boxed{\sum_{k=-5}^{5000} \frac{2k}{k}}$", "10012", "timeout"),
        (r"$\boxed{\prod_{k=1}^{10^9} 2}$", "1", "timeout"),  # too large to write out
    ],
)
def test_long_constant_products(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.timeout(30)  # a hang guard: 10^9 factors would not end
def test_huge_constant_product_is_refused_fast(verifier: MathVerifier) -> None:
    verdict = verifier.verify(r"$\boxed{\prod_{k=1}^{10^9} 2}$", "1")
    # refused by size, never computed (a deadline's timeout would name the deadline)
    assert verdict.reason == "timeout" and "too large" in verdict.details["error"], dict(verdict.details)


def test_tail_after_an_unclosed_dollar_keeps_its_window(verifier: MathVerifier) -> None:
    # an unescaped currency sign before the window opens no span: the last value after it is still read
    pred = "It costs $5 to start. " + "We keep adding the numbers. " * 400 + "So the total is 12"
    details = expect_verdict(verifier, pred, "12", "correct")
    assert details["extracted"] == "12"


# ---- the asked quantity with its sides swapped (`7 = m + n`) is read as `m + n = 7`; a condition never is
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"The answer is $\boxed{7 = m+n}$.", "7", "correct"),
        (r"The answer is $\boxed{7 = m+n}$.", "8", "wrong"),
        (r"$\boxed{0 = x - 7}$", "0", "wrong"),  # a condition on x: not the value 0
        (r"$\boxed{0 = x - 7}$", "7", "wrong"),
        (r"$\boxed{7 = 2x}$", "7", "wrong"),  # one unknown: a condition to solve
    ],
)
def test_swapped_asked_quantity(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- an assignment arrow after one name (`x \leftarrow 7`) assigns; any other arrow is no answer
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"The answer is $\boxed{x \leftarrow 7}$.", "7", "correct"),
        (r"The answer is $\boxed{x \leftarrow 7}$.", "8", "wrong"),
        (r"$\boxed{x \gets 7}$", "7", "correct"),
        (r"$\boxed{7 \leftarrow x}$", "7", "wrong"),
    ],
)
def test_assignment_arrow(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = expect_verdict(verifier, pred, gold, reason)
    assert details.get("parsed", "x = 7") == "x = 7"


# ---- an infinite series is the value sympy sums it to; a divergent one is no finite value
@pytest.mark.parametrize(
    ("pred", "gold", "want"),
    [
        (r"\boxed{\sum_{k=0}^{\infty} 2^{-k}}", "2", True),
        (r"\boxed{\sum_{k=0}^{\infty} 2^{-k}}", "3", False),
        (r"\boxed{\sum_{k=1}^{\infty} \frac{1}{k^2}}", r"\frac{\pi^2}{6}", True),
        (r"\boxed{\sum_{k=1}^{\infty} \frac{1}{k^2}}", r"\frac{\pi^2}{5}", False),
        (r"\boxed{\sum_{k=1}^{\infty} k}", "2", False),  # divergent: never a finite gold
    ],
)
def test_an_infinite_series_is_its_sum(verifier: MathVerifier, pred: str, gold: str, want: bool) -> None:
    verdict = verifier.verify(pred, gold)  # summed by sympy (the killable stage outside in-process mode)
    assert verdict.passed is want and verdict.reason == ("correct" if want else "wrong"), verdict
