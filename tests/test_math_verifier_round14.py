"""Findings of red-team rounds 14a and 14b (tests/data/math/external/round14a.yaml, round14b.yaml, held out until
graded once on f65d819: 14a 9 false positives of 280, 14b 23 of 240 and one input held 171 s), each as a rule
with its counterpart."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.commitment import drop_checks, drop_sections

from grading import assert_linear, reads_only


# ---- a scan per check cue reread the rest of the reply: 10,000 `Check n:` lines after a box took 171 s
def test_checks_after_an_answer_are_dropped_in_linear_time() -> None:
    assert_linear(
        lambda n: drop_checks("".join(f"Check {i}: row {i} sums correctly.\n" for i in range(n))), 500
    )


# ---- an explaining section no longer hides what the reply says after it: a later paragraph that revises or calls
# something wrong is read (the section used to run to the reply's end, so any withdrawal after `Check 1:` was lost)
@pytest.mark.parametrize(
    "reply",
    [
        "The number of valid grids is $\\boxed{13}$.\n\nCheck 1: row 1 sums correctly.\nCheck 2: row 2 sums "
        "correctly.\n\nScratch all that; 13 is wrong, and I haven't found the right count.",
        "So $\\boxed{13}$.\n\n## Verification\nEach row sums to 15.\n\nHmm, 13 is wrong: I missed the rotations.",
        "So $\\boxed{13}$.\n\nNote: rows were counted once.\n\nActually 13 is not right either.",
    ],
)
def test_a_withdrawal_after_a_check_section_is_read(verifier: MathVerifier, reply: str) -> None:
    assert not verifier.verify(reply, "13").passed, reply


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # a section whose later paragraph says nothing is wrong stays a section: its values answer nothing
        ("So $\\boxed{13}$.\n\n## Verification\nRow 1: 15.\n\nRow 2: 15, as it should be.", "13", "15"),
        (
            "So $\\boxed{13}$.\n\nNote: counting one row twice gives 12.\n\nThat slip is the usual one.",
            "13",
            "12",
        ),
    ],
)
def test_a_section_without_a_later_withdrawal_still_explains(
    verifier: MathVerifier, reply: str, right: str, other: str
) -> None:
    reads_only(verifier, reply, right, other)


def test_sections_are_dropped_in_linear_time() -> None:
    assert_linear(lambda n: drop_sections("Note: x.\n\nWait, wrong.\n\n" * n), 500)
