"""The math verifier's layers on their own: extraction, normalisation, the LaTeX parser, bounded evaluation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.extract import extract_answer, last_boxed
from rlvr.verifiers.math.gold import extract_gold
from rlvr.verifiers.math.latex import LatexParseError, parse_latex
from rlvr.verifiers.math.normalize import canonical_text, normalize_answer
from rlvr.verifiers.math.shapes import Equation, Interval, Relation, Seq, Text
from rlvr.verifiers.math.structure import parse_answer
from rlvr.verifiers.math.tree import expand_pm, free_symbols, to_text


@pytest.mark.parametrize(
    "text, answer, method",
    [
        (r"a \boxed{1}. Wait, actually \boxed{2}", "2", "boxed"),  # the last box after a revision
        (r"a \boxed{1} b \boxed{2}", None, None),  # two different boxes, nothing orders them (contested.py)
        (r"\boxed{\frac{a}{\sqrt{b}}}", r"\frac{a}{\sqrt{b}}", "boxed"),
        (r"\boxed{\boxed{3}+1}", r"\boxed{3}+1", "boxed"),  # the outermost last box
        (r"\fbox{x}", "x", "boxed"),
        (r"so \boxed 5", "5", "boxed"),
        (r"\boxed{\{1, 2\}}", r"\{1, 2\}", "boxed"),
        (r"\boxed{}", "", "boxed"),
        (r"\boxed{1} then \boxed{2", "", "boxed"),
        ("step\n#### 1,234", "1,234", "gsm8k"),
        ("The final answer is $x=3$. Done", "x=3", "final_answer"),
        ("Final Answer: The largest $n$ is 34.", "34", "final_answer"),
        ("answer: 12 apples", "12", "final_answer"),  # prose after the phrase: its number
        ("we get $a$ and then $b+1$", "b+1", "last_math"),
        (r"-\frac{10}{9}", r"-\frac{10}{9}", "whole"),
        ("it costs 15 dollars, or 1,500 cents", "1,500", "last_number"),
        ("AZYUK2A", None, None),
        ("", None, None),
    ],
)
def test_extract_answer(text: str, answer: str | None, method: str | None) -> None:
    found = extract_answer(text)
    if answer is None:
        assert found is None
    else:
        assert found is not None and (found.answer, found.method) == (answer, method)


def test_extract_methods_are_configurable_and_checked() -> None:
    assert extract_answer("#### 4", ("boxed",)) is None
    with pytest.raises(ValueError, match="unknown extraction method"):
        extract_answer("x", ("nope",))
    assert last_boxed("no box") is None
    assert extract_gold(r"Solution... so $\boxed{7}$.") == "7"
    assert extract_gold("reasoning\n#### 42") == "42"
    assert extract_gold(r" \frac{1}{2} ") == r"\frac{1}{2}"


@pytest.mark.parametrize(
    "raw, text, unit",
    [
        (r"$\left( \dfrac{1}{2} \right)$", r"( \frac{1}{2} )", None),
        ("1{,}000", "1000", None),
        (r"1\,000\,000", "1000000", None),
        ("12,345.5", "12345.5", None),
        ("1,234, 5", "1,234, 5", None),  # another comma: a list, not thousands
        ("[1,100]", "[1,100]", None),  # brackets: an interval
        (r"5\text{ cm}^2", "5", "cm^2"),
        (r"\$18.90", "18.90", None),
        ("24 square units", "24", "square unit"),
        (r"30^\circ", "30°", None),
        ("30 degrees", "30°", None),
        ("28 percent", "28%", None),
        (r"0.\overline{3}", r"\frac{1}{3}", None),
        ("2 2/3", r"(2+\frac{2}{3})", None),
        ("2 5/3", "2 5/3", None),  # improper: not a mixed number
        (r"x \in [0, 1)", "[0, 1)", None),
        (r"\mathrm{e}^{\pi \mathrm{i}}", r"e^{\pi i}", None),
    ],
)
def test_normalize(raw: str, text: str, unit: str | None) -> None:
    norm = normalize_answer(raw)
    assert (norm.text, norm.unit) == (text, unit)


def test_canonical_text() -> None:
    assert canonical_text(r"\text{The Monday}") == canonical_text("monday.") == "monday"


@pytest.mark.parametrize(
    "latex, text",
    [
        (r"\frac59", "5/9"),
        (r"\frac{1}{2}x", "(1/2)*x"),
        (r"2\frac{1}{2}", "2 + 1/2"),  # a mixed number
        (r"2\cdot\frac{1}{2}", "2*(1/2)"),
        ("2x^2y", "2*x^2*y"),
        (r"\sin^2 x + \cos^2 x", "sin(x)^2 + cos(x)^2"),
        (r"\sin x \cos x", "sin(x)*cos(x)"),
        (r"\log_2 8", "log(8, 2)"),
        (r"\sqrt[3]{x}", "root(x, 3)"),
        ("sqrt(2)*pi", "sqrt(2)*pi"),
        (r"e^{i\pi}", "E^(I*pi)"),
        (r"\tan^{-1} x", "atan(x)"),
        (r"|x - 1|", "Abs(x - 1)"),
        (r"\binom{n}{2}", "binomial(n, 2)"),
        ("n!!", "n!!"),
        ("a_{n+1} - a_n", "a_{n+1} - a_n"),
        ("204_5", "204_5"),
        ("0.50", "0.50"),
        ("1.5e-3", "3/2000"),
    ],
)
def test_parse_latex(latex: str, text: str) -> None:
    assert to_text(parse_latex(latex)) == text


@pytest.mark.parametrize(
    "bad", ["", r"\frac{1}{", "x +", r"\unknowncommand{1}", "banana", "(" * 500 + "1" + ")" * 500, "1 @ 2"]
)
def test_parse_latex_rejects(bad: str) -> None:
    with pytest.raises(LatexParseError):
        parse_latex(bad)


def test_tree_helpers() -> None:
    node = parse_latex(r"\frac{-b \pm \sqrt{b^2-4ac}}{2a}")
    variants = expand_pm(node)
    assert len(variants) == 2 and all("±" not in to_text(v) for v in variants)
    assert free_symbols(node) == {"a", "b", "c"}
    assert free_symbols(parse_latex(r"\sum_{k=1}^{n} k x")) == {"n", "x"}


def test_answer_shapes() -> None:
    assert isinstance(parse_answer("y = 2x + 3"), Equation)
    assert isinstance(parse_answer(r"x \ge 2"), Interval)
    assert isinstance(parse_answer("x + y > 2"), Relation)
    tup = parse_answer("(1, 2)")
    assert isinstance(tup, Seq) and tup.ordered and (tup.left, tup.right) == ("(", ")")
    sols = parse_answer("1 and 2")
    assert isinstance(sols, Seq) and not sols.ordered
    pm = parse_answer(r"\pm 3")
    assert isinstance(pm, Seq) and len(pm.items) == 2
    assert isinstance(parse_answer(r"\text{Evelyn}"), Text)
    solved = parse_answer("-2x + 1 > 5")  # linear inequality solved for x: x < -2
    assert isinstance(solved, Interval) and solved.hi.show() == "-2" and solved.hi_open


def test_exact_evaluation() -> None:
    assert ev.exact_value(parse_latex(r"\frac{1}{2004!} - \frac{1}{2006!}"))[0] > 0
    assert ev.exact_value(parse_latex("(1+i)^2")) == (Fraction(0), Fraction(2))
    assert ev.exact_value(parse_latex(r"\sqrt{\frac{9}{4}}")) == (Fraction(3, 2), Fraction(0))
    assert ev.exact_value(parse_latex(r"\log_2 32")) == (Fraction(5), Fraction(0))
    for irrational in (r"\sqrt{2}", r"\pi", "x", r"\log_2 3"):
        with pytest.raises(ev.NotExact):
            ev.exact_value(parse_latex(irrational))
    for huge in ("2^{10^{7}}", "100000!", r"\binom{10^{9}}{2}"):
        with pytest.raises(ev.TooBig):
            ev.exact_value(parse_latex(huge))


def test_numeric_evaluation_is_bounded() -> None:
    value = ev.numeric_value(parse_latex("10^{10^{10}}"))
    assert value.real > 0  # big, but representable in log space
    for tower in ("10^{10^{10^{10}}}", r"\sin(10^{100})", "e^{10^{20}}"):
        with pytest.raises(ev.TooBig):
            ev.numeric_value(parse_latex(tower))
    with pytest.raises(ev.NotNumeric):
        ev.numeric_value(parse_latex(r"\frac{1}{0}"))
    assert ev.point_value("x", 0) == ev.point_value("x", 0) != ev.point_value("x", 1)
