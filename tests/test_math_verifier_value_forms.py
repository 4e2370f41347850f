"""Red-team round 5 and the external set's false negatives, the value side continued: numbers in words and in
other scripts, sets, intervals and inequalities, currencies and units, matrices; each rule with its wrong
counterparts and the reason asserted (the first part is tests/test_math_verifier_values.py)."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.normalize import canonical_text
from rlvr.verifiers.math.notation import rewrite_notation
from rlvr.verifiers.math.number_words import cjk_number, number_from_words

from grading import expect_verdict


# ---- numbers in words, weekday abbreviations, sets with repeats, solved double inequalities, merged unions
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("The answer is forty-two.", "42", "correct"),
        ("The answer is forty-two.", "40", "wrong"),
        ("The answer is three-quarters.", r"\frac34", "correct"),
        ("The answer is two-thirds.", r"\frac23", "correct"),
        ("The answer is one-half.", r"\frac12", "correct"),
        ("The answer is one million.", "1000000", "correct"),
        (r"\boxed{\text{two hundred and five}}", "205", "correct"),
        ("The answer is a dozen.", "12", "correct"),
        ("The answer is a dozen.", "13", "wrong"),
        ("The answer is a quarter.", r"\frac14", "correct"),
        (r"\boxed{\text{quarter}}", r"\frac14", "wrong"),  # without an article it may name something else
        (r"\boxed{\text{two hundred and five}}", "250", "wrong"),
        (r"\boxed{\text{Tue}}", r"\text{Tuesday}", "correct"),
        (r"\boxed{\text{Tuesday}}", r"\text{Tue}", "correct"),
        (r"\boxed{\text{Tue}}", r"\text{Wednesday}", "wrong"),
        (r"\boxed{\{1,2,2,3\}}", r"\{1,2,3\}", "correct"),  # a set lists each element once however written
        (r"\boxed{\{1,2,2\}}", r"\{1,2,3\}", "wrong"),
        (r"\boxed{\{2, 3, 4\} \setminus \{4\}}", "2, 3", "correct"),  # a difference of literal sets
        (r"\boxed{\{1,2,3,4\} \setminus \{3\}}", r"\{1,2,3\}", "wrong"),
        (r"\boxed{\{1,2,3\} \setminus \{5\}}", r"\{1,2,3\}", "correct"),
        (r"\boxed{7 \approx 8}", "7", "wrong"),  # plain numbers: 8 is no rounding of 7
        (r"\boxed{3.14159 \approx 3.14}", "3.14159", "correct"),
        (r"\boxed{2, 3, 3}", "2, 3", "wrong"),  # a list of solutions may count a double root: left alone
        (r"\boxed{|x-1|<2}", "(-1,3)", "correct"),
        (r"\boxed{|x-1|<2}", "[-1,3]", "wrong"),
        (r"\boxed{|2x+1|\le 5}", "[-3,2]", "correct"),
        (r"\boxed{-2 < 1 - x \le 2}", "[-1,3)", "correct"),
        (r"\boxed{-2 < 1 - x \le 2}", "(-1,3)", "wrong"),
        (r"\boxed{[1,2]\cup[2,3]}", "[1,3]", "correct"),
        (r"\boxed{[1,3] \cup [3,3]}", "[1,3]", "correct"),
        (r"\boxed{[1,2)\cup(2,3]}", "[1,3]", "wrong"),  # 2 is in neither part
        (r"\boxed{[1,2)\cup[2,3]}", "[1,3]", "correct"),
        (r"\boxed{(0,5)\cup(1,2)}", "(0,5)", "correct"),
        (r"\boxed{(0,2)\cup(1,3)\cup(5,6)}", r"(0,3)\cup(5,6)", "correct"),
        (r"\boxed{(0,2)\cup(1,3)\cup(5,6)}", "(0,6)", "wrong"),
        (r"\boxed{(-\infty,2]\cup[2,\infty)}", r"(-\infty,\infty)", "correct"),
    ],
)
def test_words_sets_and_intervals(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "words, value",
    [
        ("forty-two", "42"),
        ("twelve million five hundred thousand", "12500000"),
        ("one million one thousand one", "1001001"),
        ("-seven", None),
        ("forty-", None),
        ("two forty", None),
        ("twenty ten", None),
        ("two three", None),
        ("one hundred hundred", None),
        ("one thousand two million", None),  # scales come largest first
        ("seven apples", None),
    ],
)
def test_number_words(words: str, value: str | None) -> None:
    assert number_from_words(words, canonical_text(words)) == value


# ---- currency after the amount, units after closed forms, boxes inside the answer, repeating dots, ordinals,
# `3 \pm 0`, residues, Chinese numerals
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("Par conséquent, la réponse est 42 €.", "42", "correct"),
        ("Par conséquent, la réponse est 42 €.", "43", "wrong"),
        (r"\boxed{\frac{\pi}{3}\text{ rad}}", r"\frac{\pi}{3}", "correct"),
        (r"\boxed{\frac{\pi}{4}\text{ rad}}", r"\frac{\pi}{3}", "wrong"),
        (r"\boxed{3\sqrt{2}\text{ cm}}", r"3\sqrt2", "correct"),
        (r"\boxed{3\sqrt{2}\text{ cm}}", r"3\sqrt2\text{ m}", "wrong"),  # the unit is kept and compared
        (r"\boxed{\frac{\pi}{2}+\pi m}", r"\frac{\pi}{2}+\pi m", "correct"),  # m: a variable, not metres
        (r"\boxed{\frac{\pi}{2}+\pi m}", r"\frac{\pi}{2}+\pi", "wrong"),
        ("$\\boxed{\\boxed{3}+5}$", "8", "correct"),
        ("$\\boxed{\\boxed{3}+5}$", "3", "wrong"),
        (r"\boxed{\fbox{7}}", "7", "correct"),
        (r"\boxed{1.\dot{6}}", r"\frac53", "correct"),
        (r"\boxed{1.\dot{6}}", "1.6", "wrong"),
        (r"\boxed{7^{\text{th}}}", "7", "correct"),
        (r"\boxed{7\text{th}}", "8", "wrong"),
        (r"\boxed{3 \pm 0}", "3", "correct"),
        (r"\boxed{3 \pm 1}", "3", "wrong"),
        (r"\boxed{17 \bmod 10}", "7", "correct"),
        (r"\boxed{17 \bmod 10}", "17", "wrong"),
        (r"\boxed{7 \pmod{10}}", "7", "correct"),
        (r"\boxed{7 \pmod{10}}", "17", "wrong"),
        ("答案是四十二。", "42", "correct"),
        ("答案是四十二。", "24", "wrong"),
    ],
)
def test_more_notations(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, out",
    [
        (r"\text{7th}", r"\text{7}"),  # the suffix goes, the braces stay balanced
        ("21st", "21"),
        (r"x_{th}", r"x_{th}"),  # no number before it
        ("5 the", "5 the"),  # a word, not a suffix
    ],
)
def test_rewritten_ordinals(text: str, out: str) -> None:
    assert rewrite_notation(text) == out


@pytest.mark.parametrize(
    "text, value",
    [
        ("十二", "12"),
        ("一百零五", "105"),
        ("三万五千", "35000"),
        ("两百", "200"),
        ("四二", None),
        ("二十二十", None),
    ],
)
def test_chinese_numerals(text: str, value: str | None) -> None:
    assert cjk_number(text) == value


# ---- small and circled numerals, empty atoms, plain TeX and transposed-tuple matrices, siunitx, a value twice
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"\boxed{⁷}", "7", "correct"),
        (r"\boxed{₇}", "7", "correct"),
        (r"\boxed{x⁷}", "7", "wrong"),  # a power of x, not a small 7
        (r"\boxed{⑦}", "7", "correct"),
        (r"\boxed{⑦}", "6", "wrong"),
        (r"\boxed{ⅶ}", "7", "correct"),
        (r"\framebox{3}", "3", "correct"),
        (r"\boxed{7\mathbin{}}", "7", "correct"),
        (r"\boxed{\pmatrix{1&2\cr 3&4}}", r"\begin{pmatrix}1&2\\3&4\end{pmatrix}", "correct"),
        (r"\boxed{\matrix{1&2\cr 3&4}}", r"\begin{pmatrix}1&2\\3&5\end{pmatrix}", "wrong"),
        (r"\boxed{(1,2,3)^T}", r"\begin{pmatrix} 1 \\ 2 \\ 3 \end{pmatrix}", "correct"),
        (r"\boxed{(1,2,3)^T}", r"\begin{pmatrix} 1 & 2 & 3 \end{pmatrix}", "wrong"),  # a column, not a row
        (r"\boxed{\SI{7}{\meter}}", "7", "correct"),
        (r"\boxed{\SI{7}{\percent}}", "7", "wrong"),  # a percentage is left to the percent rules
        (r"\boxed{\qty{7}{\kilo\meter}}", r"7\text{ m}", "wrong"),  # the unit is kept: kilometres, not metres
        (r"\boxed{3}\boxed{3}", "3", "correct"),
        (r"\boxed{3}\boxed{\frac{6}{2}}", "3", "correct"),
        (r"\boxed{3}\boxed{4}", "3", "wrong"),
    ],
)
def test_numerals_matrices_and_repeats(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- other languages' small numbers; determinant, trace, rank and powers of literal matrices; a 1x1 matrix
_M = r"\begin{pmatrix}1&2\\3&4\end{pmatrix}"


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("Die Antwort ist sieben.", "7", "correct"),
        ("La réponse est sept.", "7", "correct"),
        ("La respuesta es siete.", "6", "wrong"),
        (r"\boxed{\text{três}}", "3", "correct"),
        (r"\boxed{\text{once}}", "11", "wrong"),  # an English word first
        (rf"\boxed{{\det{_M}}}", "-2", "correct"),
        (rf"\boxed{{\det{_M}}}", "2", "wrong"),
        (r"\boxed{\det\begin{pmatrix}0&1\\1&0\end{pmatrix}}", "-1", "correct"),  # a row swap flips the sign
        (r"\boxed{\det\begin{pmatrix}1&2\\2&4\end{pmatrix}}", "0", "correct"),
        (rf"\boxed{{\operatorname{{tr}}{_M}}}", "5", "correct"),
        (rf"\boxed{{\operatorname{{rank}}{_M}}}", "2", "correct"),
        (r"\boxed{\operatorname{rank}\begin{pmatrix}1&2\\2&4\end{pmatrix}}", "2", "wrong"),
        (rf"\boxed{{{_M}^1}}", _M, "correct"),
        (rf"\boxed{{{_M}^0}}", r"\begin{pmatrix}1&0\\0&1\end{pmatrix}", "correct"),
        (rf"\boxed{{{_M}^0}}", _M, "wrong"),
        (rf"\boxed{{{_M}^2}}", r"\begin{pmatrix}7&10\\15&22\end{pmatrix}", "correct"),
        (r"\boxed{\begin{pmatrix}3\end{pmatrix}}", "3", "correct"),
        (r"\boxed{\begin{pmatrix}3\end{pmatrix}}", "4", "wrong"),
        (r"\boxed{\begin{pmatrix}3&0\end{pmatrix}}", "3", "wrong"),
    ],
)
def test_languages_and_matrix_values(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


# ---- a value in another size of the gold's unit is converted exactly; other kinds of unit never convert
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"\boxed{5000\text{ m}}", r"5\text{ km}", "correct"),
        (r"\boxed{500\text{ m}}", r"5\text{ km}", "wrong"),
        (r"\boxed{300 \text{ minutes}}", r"5 \text{ hours}", "correct"),
        (r"\boxed{5 \text{ minutes}}", r"5 \text{ hours}", "wrong"),
        (r"\boxed{500\text{ cents}}", r"\$5", "correct"),
        (r"\boxed{5\text{ cents}}", r"\$5", "wrong"),
        (r"\boxed{5 \text{ in}}", r"5\text{ inches}", "correct"),
        (r"\boxed{12\text{ inches}}", r"1\text{ ft}", "correct"),  # an inch is 0.0254 m, a foot 0.3048 m
        (r"\boxed{1.5\text{ km}}", r"1500\text{ m}", "correct"),
    ],
)
def test_unit_conversions(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


def test_units_of_another_kind_never_convert(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, r"\boxed{5 \text{ kg}}", r"5\text{ km}", "wrong")
    assert details["error"] == "unit 'kg' differs from the gold's 'km'"


# ---- a quadratic inequality in one variable is the set it denotes; a bound holding the variable is no interval
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"\boxed{x^2<4}", "(-2,2)", "correct"),
        (r"\boxed{x^2<4}", "[-2,2]", "wrong"),
        (r"\boxed{x^2\le 4}", "[-2,2]", "correct"),
        (r"\boxed{-x^2 > -4}", "(-2,2)", "correct"),  # a negative leading coefficient turns the order
        (r"\boxed{4x^2 < 1}", r"(-\frac12,\frac12)", "correct"),
        (r"\boxed{x(x-1)<0}", "(0,1)", "correct"),
        (r"\boxed{x(x-1)>0}", r"(-\infty,0)\cup(1,\infty)", "correct"),
        (r"\boxed{x(x-1)\ge 0}", r"(-\infty,0]\cup[1,\infty)", "correct"),
        (r"\boxed{x(x-1)\ge 0}", r"(-\infty,0)\cup(1,\infty)", "wrong"),
        (r"\boxed{x^2<x}", "(0,1)", "correct"),
        (r"\boxed{x^2+1>0}", r"(-\infty,\infty)", "correct"),
        (r"\boxed{x^2+1<0}", r"\emptyset", "correct"),
        (r"\boxed{(x-1)^2 \le 0}", r"\{1\}", "correct"),
        (r"\boxed{(x-1)^2 > 0}", r"(-\infty,1)\cup(1,\infty)", "correct"),
        (r"\boxed{(x-1)^2 < 0}", r"\{1\}", "wrong"),
        (r"\boxed{x^2 < 2}", r"(-\sqrt2,\sqrt2)", "correct"),
        (r"\boxed{x^2 < 2}", r"(-\sqrt3,\sqrt3)", "wrong"),
        (r"\boxed{\frac{1}{x} > 1}", "(0,1)", "wrong"),  # not a quadratic: left as written
        (r"\boxed{x^3 < 8}", r"(-\frac43, 2)", "wrong"),  # a cubic is checked, not fitted as a quadratic
        (r"\boxed{x < x^3}", r"(-\infty, x^3)", "wrong"),  # x bounded by itself is no interval
    ],
)
def test_quadratic_inequalities(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "reply", ["Which one is larger? This one.", "I would pick the right one.", "Take each one."]
)
def test_one_after_a_determiner_is_a_pronoun(verifier: MathVerifier, reply: str) -> None:
    """`this one`, `the right one` name no number: no answer, never 1."""
    assert verifier.verify(reply, "1").reason == "no_answer"


def test_one_as_a_number_is_still_read(verifier: MathVerifier) -> None:
    assert verifier.verify("So there is exactly one.", "1").passed
