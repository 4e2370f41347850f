"""Findings of red-team rounds 22a and 22b (tests/data/math/external/round22a.yaml, round22b.yaml, written against
4674c0f and held out until graded once on it: 22a 20 false positives / 18 false negatives of 452 graded, 22b 30 / 7
of 302), and the open false positives of round 21 fixed with them, each as a rule with its counterpart, in wording
of our own. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.contested import contested

from grading import assert_linear, never_correct, read_correct

_NOTE = "Counting: there are $\\gcd(12,30) + 1 = 7$ of them.\n\nThe answer is $\\boxed{7}$.[^1]\n\n[^1]: "

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # a one-value gloss after the answer, in any script or in words, bracketed or after `that is` / `i.e.`
    ("المساحة = 32 (٤٨ وحدة مربعة)", "32"),
    ("The frame's area is ３２ (that is, 48 square units).", "32"),
    ("The frame's area is 32 (that is, 48 square units).", "32"),
    ("Total refund: $\\boxed{32}$ yuan (大写：肆拾捌元整).", "32"),
    ("There are 14 valid pairs, so $\\boxed{14}$ — that is, XVI.", "14"),
    ("$\\boxed{60}$ — i.e. five dozen and one.", "60"),
    ("$\\boxed{60}$, i.e. 61.", "60"),
    ("The total is 60, i.e. sixty-one.", "60"),
    ("The rope is $\\boxed{300}$ cm (310 cm).", "300"),
    # a markdown footnote on the box that offers another reading
    (_NOTE + "If the endpoints are excluded, 5.", "7"),
    (_NOTE + "If the endpoints are excluded, 5.", "5"),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_22_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    ("المساحة = 32 (٣٢ وحدة مربعة)", "32"),
    ("Total refund: $\\boxed{32}$ yuan (大写：叁拾贰元整).", "32"),
    ("There are 14 valid pairs, so $\\boxed{14}$ — that is, XIV.", "14"),
    ("$\\boxed{60}$ — i.e. five dozen.", "60"),
    ("$\\boxed{60}$, i.e. sixty arrangements.", "60"),
    ("$\\boxed{60}$, that is, the number of arrangements.", "60"),
    ("$\\boxed{0.5}$, i.e. 50%.", "0.5"),
    ("So there are $\\boxed{24}$ eggs (2 dozen).", "24"),
    ("She travels $\\boxed{2.5}$ hours, i.e. 150 minutes.", "2.5"),  # (the value in another unit)
    ("The rope is $\\boxed{300}$ cm (3 m).", "300"),
    (_NOTE + "Both endpoints count.", "7"),
    (_NOTE + "Here $\\gcd(12, 30) = 6$, by the Euclidean algorithm: $30 = 2\\cdot 12 + 6$.", "7"),
    # a failed check that names another candidate before its colon does not test the box
    ("Solving gives $x = 0$.\n\n$\\boxed{0}$\n\nCheck 7: left = 2, right = -2. ✗", "0"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_22_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_a_gloss_after_spaces_stays_linear() -> None:
    """A box and thousands of spaces: the gloss pattern reads the spaces once (three space runs in a row were
    cubic, and `\\boxed{7}` with 20,000 spaces held the verifier for minutes)."""
    assert_linear(lambda n: contested("\\boxed{7}" + " " * n + "x"), 2_000)
