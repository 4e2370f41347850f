"""Findings of red-team rounds 21a and 21b (tests/data/math/external/round21a.yaml, round21b.yaml, written against
93a41ea and held out until graded once on it: 21a 20 false positives / 21 false negatives of 294, 21b 24 / 24 of
255), each as a rule with its counterpart, in wording of our own. The ones still open are listed in
tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_ROOTS = "$x^2 - 11x + 18 = 0$, so $x = 2$ or $x = 9$.\n\nSo $x = \\boxed{2}$.\n\nCheck: $\\sqrt{9} = 3$ while $2 - 5 = -3$. "
_BOX = "Their sum is $3n = 84$, so $n = 28$ and the largest is $30$.\n\nThe largest is $\\boxed{30}$.\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # status lines of more languages; `no`, `wait` and words of error of more languages
    ("**Válasz:** $x = \\boxed{12}$\n\nEllenőrzés: sikertelen ❌", "12"),
    ("Vastaus: $\\boxed{210}$\n\nTarkistuksen tila: hylätty", "210"),
    (_BOX + "Jo, kjo është e gabuar.", "30"),
    (_BOX + "Arhoswch, camgymeriad oedd hynny: yr ateb yw 32.", "30"),
    (_BOX + "Teka, nagkamali ako: ang sagot ay 32.", "30"),
    # a reading left open in Dutch; an `or` of Georgian and Yoruba
    (
        "Het antwoord is 12.\n\nHet is niet duidelijk welke interpretatie bedoeld wordt: met 42 erbij is het 13.",
        "12",
    ),
    ("So $20 - 8 = 12$ are long.\n\nპასუხი: $12$ ან $13$", "12"),
    ("So $20 - 8 = 12$ are long.\n\nÌdáhùn: $\\boxed{12}$ tàbí $13$", "12"),
    # scale words written first (Swahili) or abbreviated (Polish), and one more of English
    ("Jumla = milioni 3 + milioni 4.5.\n\nJibu: shilingi milioni 7.5", "7.5"),
    ("Razem 1500 zł.\n\nOdpowiedź: 1,5 tys. zł", "1.5"),
    ("The total comes to $\\boxed{2.5}$ quadrillion dollars.", "2.5"),
    # a supposition whose consequent is in the conditional mood; a TODO; a format template in Chinese
    ("Supponiamo che la risposta sia 12: con 12 gettoni ciascuno, i 5 bambini ne avrebbero 60.", "60"),
    ("Price: $30 - 5 = 25$.\n\nTODO: verify \\boxed{25} against the coupon rules.", "25"),
    ("所以兔有 8 只。\n\n（按要求的格式：答案写成 \\boxed{5} 这样的形式。）", "5"),
    # a revision withdrawn in turn leaves nothing; BBCode strikes
    ("So $\\boxed{14}$.\n\nHmm, actually it's 15. No wait, that's wrong too.", "15"),
    ("So $\\boxed{14}$.\n\nHmm, actually it's 15. No wait, that's wrong too.", "14"),
    ("After the coupon: $30 - 5 = 25$.\n\nThe final price is [s]$30[/s] $25.", "30"),
    # a check whose refuting clause names the boxed value itself, then the other root confirmed
    (
        _ROOTS
        + "These differ, so $x = 2$ is extraneous. Check $x = 9$: $\\sqrt{16} = 4 = 9 - 5$. Hence $x = 9$.",
        "2",
    ),
    # a one-value gloss in a bracket after the box, in words or digits, that states another value
    ("So the frame's area is $\\boxed{32}$ (achtundvierzig Quadrateinheiten).", "32"),
    ("The answer is $\\boxed{60}$ (i.e. 61).", "60"),
    # a postscript or a one-line note that revises the box is no remark
    (_BOX + "P.S. Ignore the box — I mistyped; it should be $32$.", "30"),
    (_BOX + "Note: box should read 32 (I boxed the wrong area).", "30"),
    # cards: tab-separated, a table of statuses whose answer row fails, a row keyed by the answer's symbol
    ("The frame's area is $80 - 48 = \\boxed{32}$.\n\nanswer\t48\nunits\tsquare units", "32"),
    (_BOX + "| Step | Status |\n|---|---|\n| Algebra | ✔ |\n| Final answer | ✘ fails the condition |", "30"),
    (
        "So $A_{\\text{frame}} = \\boxed{32}$.\n\n| Quantity | Value |\n|---|---|\n| $A_{\\text{frame}}$ | 48 |",
        "32",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_21_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    ("**Válasz:** $x = \\boxed{12}$\n\nEllenőrzés: sikeres ✅", "12"),
    (_BOX + "Arhoswch, camgymeriad oedd hynny: yr ateb yw 32.", "32"),
    (_BOX + "Teka, nagkamali ako: ang sagot ay 32.", "32"),
    ("Het antwoord is 12.\n\nHet is duidelijk dat 5 en 40 niet meetellen.", "12"),
    ("Jumla = milioni 3 + milioni 4.5.\n\nJibu: shilingi milioni 7.5", "7500000"),
    ("Razem 1500 zł.\n\nOdpowiedź: 1,5 tys. zł", "1500"),
    ("The total comes to $\\boxed{2.5}$ quadrillion dollars.", "2500000000000000"),
    ("所以兔有 8 只。\n\n（按要求的格式：答案写成 \\boxed{5} 这样的形式。）", "8"),
    ("So $\\boxed{14}$.\n\nHmm, actually it's 15.", "15"),
    (
        "Each shakes 6 hands: $21$.\n\nThe answer is $\\boxed{12}$.\n\nCorrection to the line above: that should be $21$, I mistyped the box.",
        "21",
    ),
    ("After the coupon: $30 - 5 = 25$.\n\nThe final price is [s]$30[/s] $25.", "25"),
    ("The frame's area is $80 - 48 = \\boxed{32}$.\n\nanswer\t32\nunits\tsquare units", "32"),
    (_BOX + "P.S. Ignore the box — I mistyped; it should be $32$.", "32"),
    ("So the frame's area is $\\boxed{32}$ (zweiunddreißig Quadrateinheiten).", "32"),
    ("So the area is $\\boxed{32}$ (8 × 4).", "32"),
    ("So there are $\\boxed{24}$ eggs (2 dozen).", "24"),
    ("$\\boxed{C}$ (12)", "\\textbf{(C)}\\ 12"),
    (
        _ROOTS
        + "These differ, so $x = 2$ is extraneous. Check $x = 9$: $\\sqrt{16} = 4 = 9 - 5$. Hence $x = 9$.",
        "9",
    ),
    (_BOX + "Note: box should read 32 (I boxed the wrong area).", "32"),
    (_BOX + "P.S. The smallest of the three is 26.", "30"),
    (_BOX + "Note: the smallest of the three is 26.", "30"),
    (_BOX + "| Step | Status |\n|---|---|\n| Algebra | ✔ |\n| Final answer | ✔ |", "30"),
    (
        "So $A_{\\text{frame}} = \\boxed{32}$.\n\n| Quantity | Value |\n|---|---|\n| $A_{\\text{frame}}$ | 32 |",
        "32",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_21_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
