"""Findings of red-team rounds 19a and 19b (tests/data/math/external/round19a.yaml, round19b.yaml, written against
4e6a1c6 and held out until graded once on 66c173e: 19a 20 false positives / 25 false negatives of 254, 19b 40 / 24
of 347), each as a rule with its counterpart, in wording of our own. The ones still open are listed in
tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import assert_linear, never_correct, read_correct

_ANSWER = "Each of the 6 guests shakes 5 hands, halved: $15$.\n\n**Answer: 15**\n\n"
_REFUTED = (
    "$(x - 2)^2 = 16$, so $x = 4$.\n\n$\\boxed{4}$\n\nVerification: with $x = 6$ the left side is $12$ ✓, but with "
    "our boxed $x = 4$ it is $0 \\neq 12$. I forgot to add the 2 back: $x = 6$.\n\nSo the answer is $x = 6$."
)
_CARD = '$$\\boxed{\\frac{5}{2}}$$\n\n{"answer": "5/2", "is_correct": FLAG, "confidence": 0.4}'

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # scale words of more languages, glued ones too: the bare number is not the value
    ("Vậy tổng số tiền là **15 triệu** đồng.", "15"),
    ("所以答案是 $\\boxed{3.5}$ 亿元。", "3.5"),
    ("คำตอบ: 2.5 ล้านบาท", "2.5"),
    ("Cevap: **4 milyar** lira.", "4"),
    # idioms of failure and romanised words of error withdraw
    ("Il y a $\\boxed{64}$ sous-ensembles.\n\nHmm, ça tient pas la route.", "64"),
    ("**Answer: 96**\n\nRuko, yeh galat hai.", "96"),
    ("答えは $\\boxed{36}$ です。\n\n…あ、machigaeta.", "36"),
    # chat corrections in more forms
    (_ANSWER + "UPD: 21, the host shakes hands too.", "15"),
    (_ANSWER + "15 → 21 (forgot the host)", "15"),
    (_ANSWER + "(brain fart: the host is included, it's 21)", "15"),
    # readings left open in other words; an answer line offered as a possibility
    (
        "$\\boxed{32}$\n\nThe problem does not say whether the empty set counts. With it 32; without it, 31.",
        "32",
    ),
    (
        "$\\boxed{210}$\n\nBoth readings of 'select' are defensible: a committee gives 35, ranked prizes 210.",
        "210",
    ),
    ("Die Anzahl der Diagonalen ist $9$.\n\nAntwort: vielleicht 9?", "9"),
    ("三角形的个数为 $\\binom{6}{3} = 20$。\n\n答案可能是 20，也可能是 16。", "20"),
    # answer cards on one line; a refuting check ending on `≠`, then a corrected phrase
    (_CARD.replace("FLAG", "false"), "\\frac{5}{2}"),
    (_REFUTED, "4"),
    # a part taken back by name; a question the reply poses itself is another turn
    (
        "(a) The mean is $5$.\n(b) The median is $4$.\n\n**Answers:** (a) $5$ (b) $4$\n\nScratch part (b).",
        "5, 4",
    ),
    (
        "The gcd of 84 and 126 is 42.\n\n## Follow-up question 1:\nWhat is their lcm?\n\n"
        "The least common multiple of 84 and 126 is 252.",
        "252",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_19_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    ("Vậy tổng số tiền là **15 triệu** đồng.", "15000000"),
    ("所以答案是 $\\boxed{3.5}$ 亿元。", "350000000"),
    ("คำตอบ: 2.5 ล้านบาท", "2500000"),
    ("La respuesta es 12 mil millones.", "12000000000"),
    ("Il y a $\\boxed{64}$ sous-ensembles.\n\nÇa tient la route.", "64"),
    (_ANSWER + "(brain fart: the host is included, it's 21)", "21"),
    ("$\\boxed{32}$\n\nThe problem says the empty set counts, so 32, not 31.", "32"),
    ("Die Anzahl der Diagonalen ist $9$.\n\nAntwort: 9", "9"),
    (_CARD.replace("FLAG", "true"), "\\frac{5}{2}"),
    (_REFUTED, "6"),
    ("(a) The mean is $5$.\n(b) The median is $4$.\n\n**Answers:** (a) $5$ (b) $4$", "5, 4"),
    ("The gcd of 84 and 126 is 42.\n\n## Follow-up question 1:\nWhat is their lcm?\n\nIt is 252.", "42"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_19_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_the_rules_of_rounds_18_and_19_read_large_inputs_in_linear_time(verifier: MathVerifier) -> None:
    """20,000 collapsed sections left open, modal `instead`s, quote blocks after attributing lines: each grows
    linearly (20,000 open `<details>` took 24 s with a section body read to the end from every opening)."""
    assert_linear(
        lambda n: verifier.verify("$\\boxed{8}$ " + "<details>" * n + "</details> $\\boxed{7}$", "7"), 500
    )
    assert_linear(lambda n: verifier.verify("The answer is 7. " + "It would instead be 9. " * n, "7"), 200)
    assert_linear(lambda n: verifier.verify("Bob says:\n> the answer is 5\n\n" * n + "So 5.", "5"), 200)
