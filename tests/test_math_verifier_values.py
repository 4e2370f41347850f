"""Red-team round 5, the value side: every link of a chain between constants is proved (decimals as the writer's
rounding), true denial links, and notations (a unicode minus under a radical, `¹⁄₂`, lower-case hex digits, a
braced decimal comma, a yes with its sentence, a function's rule declared for all reals); each rule with its
wrong counterparts and the reason asserted."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.notation import rewrite_notation
from rlvr.verifiers.math.structure import false_equality
from rlvr.verifiers.math.unicode_math import rewrite_unicode_math

from grading import assert_linear, expect_verdict

FALSE_CHAIN = "a false equality (`3 = 4`) answers nothing"


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
    assert expect_verdict(verifier, pred, gold, reason).get("error") == error


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
    assert false_equality(chain + " = 7") is True
    assert false_equality(chain + " = 5001") is False
    assert_linear(lambda n: false_equality("x = " + " + ".join(["1"] * n) + " = 7"), 1250)


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
    details = expect_verdict(verifier, pred, gold, reason)
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
    expect_verdict(verifier, pred, gold, reason)


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
    details = expect_verdict(verifier, pred, gold, reason)
    if reason == "wrong":
        assert details["error"] == "the answer could not be parsed"  # a false approximation states nothing


def test_links_before_an_approximation_still_count(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, r"$x = 5+5+1 = 1/3 \approx 11$", "$x = 1/3$", "wrong")
    assert details["error"] == FALSE_CHAIN
    expect_verdict(verifier, r"$x = 5+5+1 = 11 \approx 11.0$", "11", "correct")


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
    expect_verdict(verifier, pred, gold, reason)


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
    expect_verdict(verifier, pred, gold, reason)


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
    expect_verdict(verifier, "The answer is √75 = 5√3.", r"5\sqrt{3}", "correct")
    expect_verdict(verifier, "The answer is √2·√3 = √6.", r"\sqrt{6}", "correct")
    assert expect_verdict(verifier, "The answer is √2·√3 = √5.", r"\sqrt{5}", "wrong")["error"] == FALSE_CHAIN


@pytest.mark.timeout(30)  # a hang guard: building 7^(64^5) would not end
def test_a_power_tower_in_a_chain_is_not_built() -> None:
    # 7^(64^5) has billions of bits: the radical form gives up at once instead of building it
    assert false_equality(r"x = ((((7^{64})^{64})^{64})^{64})^{64} = 5\sqrt{3}") is True
