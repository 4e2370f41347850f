"""Red-team round 5, the value side: every link of a chain between constants is proved (decimals as the writer's
rounding), true denial links, and notations (a unicode minus under a radical, `¹⁄₂`, lower-case hex digits, a
braced decimal comma, a yes with its sentence, a function's rule declared for all reals); each rule with its
wrong counterparts and the reason asserted."""

from __future__ import annotations

import time

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.normalize import canonical_text
from rlvr.verifiers.math.notation import rewrite_notation
from rlvr.verifiers.math.number_words import cjk_number, number_from_words
from rlvr.verifiers.math.structure import false_equality
from rlvr.verifiers.math.unicode_math import rewrite_unicode_math

FALSE_CHAIN = "a false equality (`3 = 4`) answers nothing"


@pytest.fixture(scope="module")
def verifier() -> MathVerifier:
    return MathVerifier(in_process=True)


def _verdict(verifier: MathVerifier, pred: str, gold: str, reason: str) -> dict:
    verdict = verifier.verify(pred, gold)
    assert verdict.reason == reason, dict(verdict.details)
    assert verdict.passed is (reason == "correct")
    return dict(verdict.details)


# ---- a decimal link is the exact value rounded to its own places; any other decimal link makes the chain false
@pytest.mark.parametrize(
    "pred, gold, reason, error",
    [
        (r"$P = \frac{3}{6} = 0.6 = \frac12$", r"\frac{1}{2}", "wrong", FALSE_CHAIN),
        (r"$P = \frac{3}{6} = 0.5 = \frac12$", r"\frac{1}{2}", "correct", None),
        (r"$d = \sqrt{1+1} = 1.5 = \sqrt{2}$", r"\sqrt{2}", "wrong", FALSE_CHAIN),
        (r"$d = \sqrt{1+1} = 1.414 = \sqrt{2}$", r"\sqrt{2}", "correct", None),
        (r"$d = \sqrt{1+1} = \sqrt{2}$", r"\sqrt{2}", "correct", None),  # folded: the root of 2 both times
        (r"$d = \sqrt{1+1} = \sqrt{3}$", r"\sqrt{3}", "wrong", FALSE_CHAIN),
        (r"$x = \frac{2}{3} = 0.666$", r"\frac{2}{3}", "wrong", FALSE_CHAIN),  # truncated, not rounded
        (r"$A = 4\pi = 3.14 \cdot 4 = 12.56$", "12.56", "correct", None),  # rounds the computation it follows
    ],
)
def test_a_decimal_link_must_round_the_exact_value(
    verifier: MathVerifier, pred: str, gold: str, reason: str, error: str | None
) -> None:
    assert _verdict(verifier, pred, gold, reason).get("error") == error


@pytest.mark.parametrize(
    "chain, false",
    [
        (r"x = \frac13 = 0.333", False),
        (r"x = \frac13 = 0.334", True),
        (r"x = \pi = 3.14", False),
        (r"x = \pi = 3.15", True),
        (r"x = -0.6 = -\frac35", False),
        ("x = 0.333 = 0.33", False),  # decimals alone: consistent roundings
        ("x = 0.333 = 0.4", True),
    ],
)
def test_decimal_links_alone(chain: str, false: bool) -> None:
    assert false_equality(chain) is false


def test_a_long_false_sum_is_checked_in_linear_time() -> None:
    # 5001 ones are not 7: the value is computed, not skipped, and quickly
    chain = "x = " + " + ".join(["1"] * 5001)
    start = time.perf_counter()
    assert false_equality(chain + " = 7") is True
    assert false_equality(chain + " = 5001") is False
    assert time.perf_counter() - start < 2.0


# ---- a true denial link between constants adds nothing; a false one states nothing
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"$x = 5 \neq 6$", "5", "correct"),
        (r"$\boxed{x = 5 \ne 4}$", "5", "correct"),
        (r"$x = 5 \neq 6$", "6", "wrong"),
        (r"$\boxed{x = 5 \ne 5}$", "5", "wrong"),
        (r"\boxed{3 \neq 5}", "3", "wrong"),  # a denial alone answers nothing
    ],
)
def test_a_denial_link(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = _verdict(verifier, pred, gold, reason)
    if pred.endswith(r"x = 5 \ne 5}$"):
        assert details["error"] == "the answer could not be parsed"


# ---- notations
@pytest.mark.parametrize(
    "text, latex",
    [
        ("∛−8", r"\sqrt[3]{−8}"),
        ("√−4", r"\sqrt{−4}"),
        ("¹⁄₂", r"\frac{1}{2}"),
        ("2¹⁄₂", r"(2+\frac{1}{2})"),
        ("12⁄5", r"\frac{12}{5}"),
        ("3 − √2", r"3 − \sqrt{2}"),  # a minus before the radical is an operator, not the radicand's sign
    ],
)
def test_unicode_minus_and_slash_fractions(text: str, latex: str) -> None:
    assert rewrite_unicode_math(text) == latex


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("Final answer: ∛−8", "-2", "correct"),
        ("Final answer: ∛−8", "2", "wrong"),
        ("Final answer: ¹⁄₂", r"\frac{1}{2}", "correct"),
        ("Final answer: ¹⁄₂", "12", "wrong"),
        (r"\boxed{2a_{16}}", "2A_{16}", "correct"),
        (r"\boxed{2b_{16}}", "2A_{16}", "wrong"),
        (r"\boxed{2a}", "2A_{16}", "wrong"),  # no base: `2a` is 2 times a
        ("Portanto, a resposta é $0{,}5$.", r"\frac{1}{2}", "correct"),
        ("Portanto, a resposta é $0{,}6$.", r"\frac{1}{2}", "wrong"),
        (r"$\boxed{1{,}000}$", "1000", "correct"),  # three digits after it: thousands
        (r"\boxed{\text{Yes, it is possible.}}", r"\text{yes}", "correct"),
        (r"\boxed{\text{Yes, it is not possible.}}", r"\text{yes}", "wrong"),
        (r"\boxed{\text{Yes, but only if n is even.}}", r"\text{yes}", "wrong"),
        (r"$\boxed{f(x) = x \text{ for all } x \in \mathbb{R}}$", "f(x)=x", "correct"),
        (r"$\boxed{f(x) = x \text{ for all } x \in \mathbb{R}}$", "f(x)=2x", "wrong"),
        (r"$\boxed{f(x) = x \text{ for all } x > 0}$", "f(x)=x", "wrong"),  # a narrower domain stays
    ],
)
def test_notations(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, out",
    [
        ("0{,}5", "0.5"),
        ("3{,}14", "3.14"),
        ("0{,}500", "0.500"),  # a first group 0 never groups thousands
        ("1{,}000", "1{,}000"),  # thousands: left to `normalize`
        ("1{,}5{,}2", "1{,}5{,}2"),  # a list of three, not a number
        (r"f(x) = x, \forall x \in \mathbb{R}", "f(x) = x"),
        (r"f(x)=x \text{ for all real } x", "f(x)=x"),
        (r"f(x) = x \text{ for all } x \in \mathbb{Q}", r"f(x) = x \text{ for all } x \in \mathbb{Q}"),
        (r"f(x) = x \text{ for all } y \in \mathbb{R}", r"f(x) = x \text{ for all } y \in \mathbb{R}"),
        (r"f(x)=x \text{ for all } x", "f(x)=x"),  # all its arguments, whatever the domain
        (r"f(x) = x \text{ for all } x > 0", r"f(x) = x \text{ for all } x > 0"),  # a narrower domain stays
    ],
)
def test_rewritten_notations(text: str, out: str) -> None:
    assert rewrite_notation(text) == out


# ---- an `\approx` link: the number after it is the constant rounded or truncated to its own places
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("The answer is 3√2 ≈ 4.24.", r"3\sqrt{2}", "correct"),
        ("The answer is 3√2 ≈ 4.25.", r"3\sqrt{2}", "wrong"),
        (r"\boxed{\pi \approx 3.1415}", r"\pi", "correct"),  # truncated: still an approximation
        (r"\boxed{\pi \approx 3.15}", r"\pi", "wrong"),
        (r"\boxed{3\sqrt2 \approx 4}", r"3\sqrt2", "correct"),
        (r"\boxed{3\sqrt2 \approx 5}", r"3\sqrt2", "wrong"),
        (r"\boxed{-\sqrt2 \approx -1.41}", r"-\sqrt2", "correct"),
        (r"\boxed{-\sqrt2 \approx -1.42}", r"-\sqrt2", "wrong"),
        (r"$x\approx11$", "11", "correct"),  # a name is not judged
    ],
)
def test_an_approximation_link(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    details = _verdict(verifier, pred, gold, reason)
    if reason == "wrong":
        assert details["error"] == "the answer could not be parsed"  # a false approximation states nothing


def test_links_before_an_approximation_still_count(verifier: MathVerifier) -> None:
    details = _verdict(verifier, r"$x = 5+5+1 = 1/3 \approx 11$", "$x = 1/3$", "wrong")
    assert details["error"] == FALSE_CHAIN
    _verdict(verifier, r"$x = 5+5+1 = 11 \approx 11.0$", "11", "correct")


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("The answer is aₙ = 2n + 1.", "a_n = 2n+1", "correct"),
        ("The answer is aₙ = 2n + 1.", "a_n = 2n", "wrong"),
        (r"\boxed{\{1, 2\} ∪ ∅}", r"\{1,2\}", "correct"),
        (r"\boxed{\{1, 2\} ∪ ∅}", r"\{1\}", "wrong"),
        (r"\boxed{(0,1) \cup \emptyset}", "(0,1)", "correct"),
        (r"\boxed{\emptyset \cup \emptyset}", r"\emptyset", "correct"),
        (r"\boxed{\emptyset \cup (0,1)}", "(0,1)", "correct"),
        (r"\boxed{(0,1) \cup \emptyset}", "(0,2)", "wrong"),
        ("\\boxed{\u200b7}", "7", "correct"),  # a zero-width space shows nothing
        ("\\boxed{\u00ad7}", "7", "correct"),  # nor does a soft hyphen
        ("\\boxed{\u200b7}", "8", "wrong"),
    ],
)
def test_unicode_symbols(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _verdict(verifier, pred, gold, reason)


# ---- decorations that show their argument, struck-out content and tags, switches, negated orders
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        (r"\boxed{\underline{7}}", "7", "correct"),
        (r"\boxed{\overbrace{7}}", "8", "wrong"),
        (r"\boxed{\operatorname{7}}", "7", "correct"),
        (r"\boxed{\num{7}}", "7", "correct"),
        (r"\boxed{\ensuremath{3}}", "3", "correct"),
        (r"\boxed{\bf 7}", "7", "correct"),
        (r"\boxed{\large 7}", "7", "correct"),
        (r"\boxed{\mathstrut 7}", "7", "correct"),
        (r"\boxed{\relax 3}", "3", "correct"),
        (r"\boxed{\cancel{8} 7}", "7", "correct"),
        (r"\boxed{\cancel{8} 7}", "8", "wrong"),  # the struck-out value is not stated
        (r"\boxed{\cancel{7}}", "7", "wrong"),
        (r"\boxed{\tag{8} 7}", "7", "correct"),
        (r"\boxed{\tag{8} 7}", "8", "wrong"),  # a tag labels an equation
        (r"\boxed{x \not\le 0}", r"(0,\infty)", "correct"),
        (r"\boxed{x \not\le 0}", r"[0,\infty)", "wrong"),
        (r"\boxed{x \not\ge 0}", r"(-\infty,0)", "correct"),
        (r"\boxed{x:=2}", "x=2", "correct"),
        (r"\boxed{x:=3}", "x=2", "wrong"),
        (r"\boxed{\sqrt[]{9}}", "3", "correct"),
        (r"\boxed{3{:}2}", "3:2", "correct"),
        (r"\boxed{3{:}2}", "2:3", "wrong"),
    ],
)
def test_decorations_and_plain_forms(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    _verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, out",
    [
        (r"\operatorname{tr}(A)", r"\operatorname{tr}(A)"),  # a real operator name stays
        (r"\item", r"\item"),  # `\it` only as a whole command
        (r"x\not<3", r"x\ge 3"),
        (r"x \not= 3", r"x \ne  3"),
    ],
)
def test_rewritten_decorations(text: str, out: str) -> None:
    assert rewrite_notation(text) == out


# ---- products of radicals are proved equal by their prime factorisation, so such a chain link is true
@pytest.mark.parametrize(
    "chain, false",
    [
        (r"x = \sqrt{75} = 5\sqrt{3}", False),
        (r"x = \sqrt{75} = 4\sqrt{3}", True),
        (r"x = \sqrt2 \cdot \sqrt3 = \sqrt6", False),
        (r"x = \sqrt2 \cdot \sqrt3 = \sqrt5", True),
        (r"x = \frac{1}{\sqrt2} = \frac{\sqrt2}{2}", False),
        (r"x = 2^{1/2} = \sqrt2", False),
        (r"x = \sqrt[3]{16} = 2\sqrt[3]{2}", False),
        (r"x = \sqrt[3]{16} = 2\sqrt{2}", True),
        (r"x = -\sqrt{8} = -2\sqrt2", False),
        (r"x = -\sqrt{8} = 2\sqrt2", True),
        (r"x = \sqrt{2}^{64} = 2^{32}", False),
        (r"x = ((7^{64})^{64})^{64} = 5\sqrt{3}", True),  # too large to build: not proved, so not taken
    ],
)
def test_radical_links(chain: str, false: bool) -> None:
    assert false_equality(chain) is false


def test_radical_chains_in_replies(verifier: MathVerifier) -> None:
    _verdict(verifier, "The answer is √75 = 5√3.", r"5\sqrt{3}", "correct")
    _verdict(verifier, "The answer is √2·√3 = √6.", r"\sqrt{6}", "correct")
    assert _verdict(verifier, "The answer is √2·√3 = √5.", r"\sqrt{5}", "wrong")["error"] == FALSE_CHAIN


def test_a_power_tower_in_a_chain_is_not_built() -> None:
    # 7^(64^5) has billions of bits: the radical form gives up at once instead of building it
    start = time.perf_counter()
    assert false_equality(r"x = ((((7^{64})^{64})^{64})^{64})^{64} = 5\sqrt{3}") is True
    assert time.perf_counter() - start < 1.0


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
    _verdict(verifier, pred, gold, reason)


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
    _verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, out",
    [
        (r"\text{7th}", r"\text{7}"),  # the suffix goes, the braces stay balanced
        ("21st", "21"),
        (r"x_{th}", r"x_{th}"),  # no number before it
        ("5 the", "5 the"),  # a word, not a suffix
        (r"0.1\dot{6}", r"0.1\overline{6}"),
    ],
)
def test_rewritten_ordinals_and_dots(text: str, out: str) -> None:
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
    _verdict(verifier, pred, gold, reason)


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
    _verdict(verifier, pred, gold, reason)


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
    _verdict(verifier, pred, gold, reason)


def test_units_of_another_kind_never_convert(verifier: MathVerifier) -> None:
    details = _verdict(verifier, r"\boxed{5 \text{ kg}}", r"5\text{ km}", "wrong")
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
    _verdict(verifier, pred, gold, reason)
