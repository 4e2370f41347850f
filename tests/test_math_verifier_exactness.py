"""Exactness and speed of the math verifier's comparison (red-team round 4b, classes adv:epsilon and robust:size).

An exact answer equals an exact gold only when the equality is proved; a value off by a term below any working
precision (`3 + e^{-1000}`) is not the gold. Numeric closeness decides only when one side is a written decimal,
by the rounding rule. Long padded replies are answered within the in-process deadline (no `timeout`).
"""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

# tiny terms of every kind: exponential, power of pi, irrational power of 2, trig and log of a tiny argument
_TINY = [r"e^{-1000}", r"\pi^{-700}", r"2^{-1000\sqrt{2}}", r"\sin^2(10^{-300})", r"\ln(1 + 10^{-200})"]
_GOLDS = ["3", r"\frac{1}{2}", r"\sqrt{2}", r"\pi", r"\ln 2", "x+1"]


@pytest.mark.parametrize("gold", _GOLDS)
@pytest.mark.parametrize("tiny", _TINY)
def test_a_tiny_term_away_is_not_the_gold(verifier: MathVerifier, gold: str, tiny: str) -> None:
    wrong = verifier.verify(rf"\boxed{{{gold} + {tiny}}}", gold)
    assert not wrong.passed and wrong.reason == "wrong", (gold, tiny, wrong)
    # the right counterpart: the same term added and taken away again is proved equal
    right = verifier.verify(rf"\boxed{{{gold} + {tiny} - {tiny}}}", gold)
    assert right.passed and right.reason == "correct", (gold, tiny, right)


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (r"\frac{\pi}{2}", r"\arctan(10^{100})", False),  # pi/2 - 1e-100
        ("1", r"\tanh(e^{10})", False),  # 1 - 2e^{-2e^{10}}, far below any precision
        ("1", r"\cos(e^{-500})", False),
        ("3", r"\log_2(8 + e^{-1000})", False),
        ("3", r"3 + e^{-10^{5}}", False),  # too small for evalf to refute: unproved, so not correct
        (r"\frac{\pi}{2}", r"2\arctan 1", True),
        (r"\frac{\sqrt{6}+\sqrt{2}}{4}", r"\cos\frac{\pi}{12}", True),
        (r"\ln 6", r"\ln 2 + \ln 3", True),
        ("1", r"\sin^2(e^{-1000}) + \cos^2(e^{-1000})", True),
    ],
)
def test_exact_values_are_equal_only_when_proved(
    verifier: MathVerifier, gold: str, pred: str, want: bool
) -> None:
    verdict = verifier.verify(rf"\boxed{{{pred}}}", gold)
    assert verdict.passed is want and verdict.reason == ("correct" if want else "wrong"), verdict


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        (r"\pi", "3.1416", True),  # a written decimal is the exact value correctly rounded
        (r"\pi", "3.1415", False),  # truncated, not rounded
        ("3", "3.000", True),
        (r"3 + e^{-1000}", "3.000", True),  # a decimal of a gold that is 3 plus a tiny term, rounded: 3.000
        ("3", "3.001", False),
    ],
)
def test_a_written_decimal_is_judged_by_rounding(
    verifier: MathVerifier, gold: str, pred: str, want: bool
) -> None:
    verdict = verifier.verify(rf"\boxed{{{pred}}}", gold)
    assert verdict.passed is want and verdict.reason == ("correct" if want else "wrong"), verdict


@pytest.mark.parametrize(
    ("gold", "pred", "want"),
    [
        ("4", r"\lceil 3 + e^{-1000} \rceil", True),  # just above 3: the ceiling is 4
        ("3", r"\lceil 3 + e^{-1000} \rceil", False),
        ("2", r"\lfloor 3 - e^{-1000} \rfloor", True),
        ("3", r"\lfloor 3 - e^{-1000} \rfloor", False),
        ("3", r"\lfloor 3 + e^{-1000} \rfloor", True),
    ],
)
def test_floor_at_a_tiny_distance_from_an_integer(
    verifier: MathVerifier, gold: str, pred: str, want: bool
) -> None:
    # 40 digits cannot tell which side of 3 the argument lies: numerics must not refute, sympy decides
    verdict = verifier.verify(rf"\boxed{{{pred}}}", gold)
    assert verdict.passed is want and verdict.reason == ("correct" if want else "wrong"), verdict


_PADDING = [
    " ",
    "\n",
    "\t",
    "~",
    r"\quad ",
    ".",
    r"\ldots ",
    "$",
    "$7$ ",
    "not 7 ",
    "Answer: 7\n",
    r"\(",
    r"\[",
]


@pytest.mark.parametrize("pad", _PADDING)
def test_a_long_padded_reply_is_answered_within_the_deadline(pad: str) -> None:
    # a slow reply turns into `timeout`: every padding must stay linear. A quadratic path over 200,000 characters
    # takes minutes, a linear one ~0.7 s here; the 5 s deadline separates the two without timing a loaded machine
    verifier = MathVerifier(in_process=True, fast_timeout_s=5.0)
    text = r"\boxed{7}" + pad * (200_000 // len(pad))
    verdict = verifier.verify(text, "7")
    assert verdict.reason != "timeout", (pad, verdict)
    if pad.isspace() or pad in ("~", r"\quad ", "."):  # (a trailing `\ldots` is extraction policy)
        assert verdict.passed and verdict.reason == "correct", (pad, verdict)


@pytest.mark.parametrize(
    ("pred", "want"),
    [(r"x = 3 + e^{-1000} = 3", False), (r"x = \sqrt{9} = 3", True), (r"x = 6/2 = 3", True)],
)
def test_a_chain_link_is_true_only_when_proved(verifier: MathVerifier, pred: str, want: bool) -> None:
    verdict = verifier.verify(rf"\boxed{{{pred}}}", "3")
    assert verdict.passed is want and verdict.reason == ("correct" if want else "wrong"), verdict
