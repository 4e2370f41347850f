"""Notations of one answer (`notation.py`, the base and text rules of `decide.py`, `\\Re`/`\\Im`/`\\lim` in the
parser): each rule with the answers it must accept and the wrong answers next to them it must still reject."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.latex import parse_latex
from rlvr.verifiers.math.tree import free_symbols

M = r"\begin{pmatrix}1&2\\3&4\end{pmatrix}"
COLUMN = r"\begin{pmatrix}1\\2\end{pmatrix}"


def _check(verifier: MathVerifier, pred: str, gold: str, ok: bool, parsed: str | None = None) -> None:
    verdict = verifier.verify(pred, gold)
    assert verdict.passed is ok, (pred, gold, verdict)
    assert verdict.reason == ("correct" if ok else "wrong"), verdict
    if parsed is not None:
        assert verdict.details["parsed"] == parsed, verdict


@pytest.mark.parametrize(
    ("pred", "gold", "ok", "parsed"),
    [
        (r"\boxed{7^{\phantom{2}}}", "7", True, "7"),  # invisible content, then an empty exponent
        (r"\boxed{7\phantom{0}}", "7", True, "7"),
        (r"\boxed{\hphantom{1}7}", "7", True, "7"),
        (r"\boxed{{\color{red}7}}", "7", True, "7"),  # a colour switch
        (r"\boxed{\color{red}{7}}", "7", True, "7"),
        (r"\boxed{\textcolor{blue}{7}}", "7", True, "7"),
        (r"\boxed{\colorbox{yellow}{7}}", "7", True, "7"),
        (r"\boxed{2\color{red}{x+1}}", "2x+2", True, "2*(x + 1)"),  # the coloured group stays one group
        (r"\boxed{7_{}}", "7", True, "7"),
        (r"\boxed{\phantom{7}8}", "7", False, "8"),  # the phantom 7 is not shown: the answer is 8
        (r"\boxed{\vphantom{7}1}", "7", False, "1"),
        (r"\boxed{{\color{white}7}8}", "7", False, "7*8"),  # a colour hides nothing: 78 is shown
        (r"\boxed{\textcolor{red}{8}}", "7", False, "8"),
        (r"\boxed{\colorbox{yellow}{8}}", "7", False, "8"),
    ],
)
def test_decorations_show_their_content(
    verifier: MathVerifier, pred: str, gold: str, ok: bool, parsed: str
) -> None:
    _check(verifier, pred, gold, ok, parsed)


@pytest.mark.parametrize(
    ("pred", "gold", "ok", "parsed"),
    [
        (r"\boxed{[[1,2],[3,4]]}", M, True, "[1, 2; 3, 4]"),
        (r"\boxed{[[1, 3], [2, 4]]}", M, False, "[1, 3; 2, 4]"),  # the transpose, written as lists
        (r"\boxed{\begin{pmatrix}1&2\cr 3&4\end{pmatrix}}", M, True, "[1, 2; 3, 4]"),
        (r"\boxed{\begin{pmatrix}1&3\cr 2&4\end{pmatrix}}", M, False, "[1, 3; 2, 4]"),
        (r"\boxed{\begin{pmatrix}1&2\\[4pt]3&4\end{pmatrix}}", M, True, "[1, 2; 3, 4]"),
        (r"\boxed{\begin{pmatrix}1&3\\[4pt]2&4\end{pmatrix}}", M, False, "[1, 3; 2, 4]"),
        (r"\boxed{{\begin{pmatrix}1&3\\2&4\end{pmatrix}}^T}", M, True, "[1, 2; 3, 4]"),
        (r"\boxed{\begin{pmatrix}1&3\\2&4\end{pmatrix}^{T}}", M, True, "[1, 2; 3, 4]"),
        (r"\boxed{\begin{pmatrix}1&3\\2&4\end{pmatrix}^\top}", M, True, "[1, 2; 3, 4]"),
        (rf"\boxed{{{M}^T}}", M, False, "[1, 3; 2, 4]"),  # a non-symmetric matrix is not its transpose
        (rf"\boxed{{{M}^{{\top}}}}", M, False, "[1, 3; 2, 4]"),
        (r"\boxed{\begin{pmatrix}1&2\end{pmatrix}^T}", COLUMN, True, "[1; 2]"),  # a row transposed: a column
        (r"\boxed{\begin{pmatrix}1&2\end{pmatrix}}", COLUMN, False, "[1, 2]"),  # the row itself is not
        (r"\boxed{\begin{pmatrix}2&1\end{pmatrix}^T}", COLUMN, False, "[2; 1]"),
    ],
)
def test_matrix_notations(verifier: MathVerifier, pred: str, gold: str, ok: bool, parsed: str) -> None:
    _check(verifier, pred, gold, ok, parsed)


@pytest.mark.parametrize(
    ("pred", "gold", "ok"),
    [
        (r"\boxed{12_3}", "5", True),  # 12 in base 3 is five
        (r"\boxed{12_3}", "12", False),
        (r"\boxed{1011_2}", "11", True),
        (r"\boxed{1011_2}", "1011", False),
        (r"\boxed{(101)_2}", "5", True),
        (r"\boxed{101_{(2)}}", "5", True),
        (r"\boxed{5_{(6)}}", "5", True),
        (r"\boxed{101_{\text{two}}}", "5", True),
        (r"\boxed{11_2}", "5", False),
        (r"\boxed{7_{8}}", "7", True),
        (r"\boxed{7_{2}}", "7", False),  # 7 is no digit of base 2: not a numeral
        # a gold in base b: the question asked for base-b digits (with or without the subscript), not the value
        (r"\boxed{2}", "10_2", False),  # the decimal value
        (r"\boxed{10}", "10_2", True),  # the gold's digits without the subscript
        (r"\boxed{1010}", "1010_2", True),
        (r"\boxed{1011}", "1010_2", False),
        (r"\boxed{26}", "1A_{16}", False),
        (r"\boxed{12}", "12_3", True),
        (r"\boxed{12_{3}}", "12_3", True),
        (r"\boxed{5}", "12_3", False),
        (r"\boxed{21}", "12_3", False),
        (r"\boxed{4}", "4_7", True),
        (r"\boxed{11}", "1011_2", False),
        (r"\boxed{1A}", "1A_{16}", True),  # digits with a letter are no decimal: read in the gold's base
        (r"\boxed{1B}", "1A_{16}", False),
        (r"\boxed{1A_{12}}", "1A_{16}", False),
        (r"\boxed{204_5}", "204_5", True),
        (r"\boxed{1112122_3}", "1112112_3", False),
        (r"\boxed{3_4}", "11_2", False),  # the same value in another base than the gold's
        (r"\boxed{x_3}", "3", False),  # a subscripted name
        (r"\boxed{C_7}", "12", False),  # a letter is a digit only in base 16
        (r"\boxed{F_{20}}", "15", False),  # F is a digit of base 20, but `F_{20}` is a name there
        (r"\boxed{10^2_{3}}", "100", False),
    ],
)
def test_base_numerals(verifier: MathVerifier, pred: str, gold: str, ok: bool) -> None:
    _check(verifier, pred, gold, ok)


def test_a_numeral_in_another_base_than_the_gold_says_why(verifier: MathVerifier) -> None:
    verdict = verifier.verify(r"\boxed{3_4}", "11_2")
    assert not verdict.passed and "base [4]" in verdict.details["error"]
    verdict = verifier.verify(r"\boxed{5}", "12_3")  # the decimal value where base-3 digits are asked
    assert verdict.reason == "wrong" and "no numeral of base 3" in verdict.details["error"]


@pytest.mark.parametrize(
    ("pred", "gold", "ok"),
    [
        (r"\boxed{\Re(7+2i)}", "7", True),
        (r"\boxed{\Re(2+7i)}", "7", False),
        (r"\boxed{\Im(2+7i)}", "7", True),
        (r"\boxed{\Im(7+2i)}", "7", False),
        (r"\boxed{\text{Re}(7)}", "7", True),
        (r"\boxed{\operatorname{Im}(7+3i)}", "3", True),
        (r"\boxed{\lim_{x\to 7} x}", "7", True),
        (r"\boxed{\lim_{x\to 7} x^2}", "7", False),
        (r"\boxed{\lim_{x\to0}\frac{\sin 2x}{x}}", "2", True),
        (r"\boxed{\lim_{x\to0}\frac{\sin 3x}{x}}", "2", False),
        (r"\boxed{\lim_{n\to\infty}(1+1/n)^n}", "e", True),
        (r"\boxed{\lim_{n\to\infty}(1+1/n)^n}", "3", False),
        (r"\boxed{\lim_{n\to\infty} (1+1/n)^{n^{2}}}", "7", False),
        (r"\boxed{\lim_{x\to 0}\frac{|x|}{x}}", "1", False),  # the one-sided limit is not the limit
        (r"\boxed{\lim_{x\to 0}\frac{1}{x}}", r"\infty", False),  # no two-sided limit
        (r"\boxed{\lim_{x\to 7} y}", "x", False),  # the bound variable is not free
    ],
)
def test_parts_and_limits_are_evaluated(verifier: MathVerifier, pred: str, gold: str, ok: bool) -> None:
    _check(verifier, pred, gold, ok)


@pytest.mark.parametrize(
    ("pred", "gold", "ok"),
    [
        ("evelyn", r"\text{Evelyn}", True),  # a bare name as the whole reply
        ("Evelina", r"\text{Evelyn}", False),
        ("not evelyn", r"\text{Evelyn}", False),
        (r"\boxed{\text{EVELYN}}", r"\text{Evelyn}", True),
        (r"\boxed{\text{a circle}}", r"\text{circle}", True),
        (r"\boxed{\text{circles}}", r"\text{circle}", True),
        (r"\boxed{\text{circle}}", r"\text{circles}", True),
        (r"\boxed{\text{circless}}", r"\text{circle}", False),
        (r"\boxed{\text{odds}}", r"\text{odd}", False),  # too short a word: `odds` is another word
        (r"\boxed{\text{evens}}", r"\text{even}", False),  # a plural that is another word
        (r"\boxed{\text{semicircles}}", r"\text{circle}", False),
    ],
)
def test_text_answers(verifier: MathVerifier, pred: str, gold: str, ok: bool) -> None:
    _check(verifier, pred, gold, ok)


def test_a_limit_binds_its_variable() -> None:
    assert free_symbols(parse_latex(r"\lim_{x\to a} xy")) == {"a", "y"}
