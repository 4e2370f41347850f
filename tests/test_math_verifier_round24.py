"""Open false positives of earlier rounds closed by rule this session, and the findings of red-team rounds 24a and
24b (tests/data/math/external/round24a.yaml, round24b.yaml), each as a rule with its counterpart, in wording of our
own. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_SUM = "Their sum is $3n = 84$, so $n = 28$ and the largest is $30$.\n\nThe largest integer is $\\boxed{30}$.\n\n"
_SHIFTS = (
    "Each of the 7 days has 2 shifts, so there are $2 \\cdot 7 = 14$ shifts.\n\nAnswer: $\\boxed{14}$, i.e. "
)
_PAIRS = "Handshakes among 12 people: $\\binom{12}{2} = 66$.\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # an XML record after the answer: its attributes and short elements are fields (HTML's own tags keep theirs
    # hidden), so a status that rejects the answer withdraws it and another answer value is a second answer
    (_SUM + '<result answer="30" valid="false"/>', "30"),
    (_SUM + "```\n<answer value='30' verified=no/>\n```", "30"),
    (_SUM + '<result answer="31"/>', "30"),
    (_SUM + '<result answer="31"/>', "31"),
    (_PAIRS + "<answer>66</answer>\n<self_check>inconsistent</self_check>", "66"),
    (_PAIRS + "<answer>66</answer>\n<status>failed</status>", "66"),
    # LaTeX's drawn crosses are the marks they draw
    ("So $E = \\boxed{30}$ \\ding{55}", "30"),
    ("So $E = \\boxed{30}$ \\xmark", "30"),
    ("So $E = \\boxed{30}$ \\XSolidBrush", "30"),
    # number words of more languages, Greek numerals with their keraia and the old CJK tens in a gloss
    (_SHIFTS + "kumi na tano.", "14"),
    (_SHIFTS + "viisitoista.", "14"),
    (_SHIFTS + "tizenöt.", "14"),
    (_SHIFTS + "fimmtán.", "14"),
    (_SHIFTS + "vijftien.", "14"),
    (_SHIFTS + "piętnaście.", "14"),
    (_SHIFTS + "δεκαπέντε.", "14"),
    (_SHIFTS + "lima belas.", "14"),
    ("Answer: $\\boxed{30}$ (tri deg a dau)", "30"),
    ("Answer: $\\boxed{14}$ (ιεʹ)", "14"),
    ("Number of edges: $\\boxed{30}$ 〔卅二〕", "30"),
    ("Number of edges: $\\boxed{25}$ 【廿四】", "25"),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_24_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


# (reply, the value it commits to)
_COMMITTED = [
    (_SUM + '<result answer="30" valid="true"/>', "30"),
    (_SUM + '<span title="wrong">shown text</span>', "30"),
    (_SUM + '```\n<answer value="30" verified="yes"/>\n```', "30"),
    (_PAIRS + "<answer>66</answer>\n<self_check>consistent</self_check>", "66"),
    ("Check each root: $x=3$ \\ding{55}, $x=5$ \\ding{51}. So $\\boxed{5}$", "5"),
    ("So $\\boxed{5}$ \\cmark", "5"),
    ("So $\\boxed{5}$ \\ding{51}", "5"),
    (_SHIFTS + "kumi na nne.", "14"),
    (_SHIFTS + "neljätoista.", "14"),
    (_SHIFTS + "tizennégy.", "14"),
    (_SHIFTS + "fjórtán.", "14"),
    (_SHIFTS + "veertien.", "14"),
    (_SHIFTS + "czternaście.", "14"),
    (_SHIFTS + "δεκατέσσερα.", "14"),
    (_SHIFTS + "empat belas.", "14"),
    ("Answer: $\\boxed{32}$ (tri deg a dau)", "32"),
    ("Answer: $\\boxed{14}$ (ιδʹ)", "14"),
    ("Answer: $\\boxed{25}$ 【廿五】", "25"),
    # (a word alone that is a word of another language too is no number: `moja` is Polish `my`, `het` Dutch `the`;
    # Danish `tres` (60) alone stays Spanish three)
    ("Odpowiedź: moja odpowiedź to $\\boxed{25}$.", "25"),
    ("Het antwoord is $\\boxed{7}$.", "7"),
    ("La mayor es tres.\n\nRespuesta: tres", "3"),
    ("Antwoord: twintig diagonalen.", "20"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_24_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
