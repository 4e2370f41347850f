"""Findings of red-team rounds 17a and 17b (tests/data/math/external/round17a.yaml, round17b.yaml, held out until
graded once on 6f925da: 17a 7 false positives / 21 false negatives of 296, 17b 27 / 19 of 290), each as a rule with
its counterpart. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import expect_verdict, never_correct, read_correct

_BOX = "Treat Alice and Bob as one block: $4! = 24$ arrangements of the 4 units.\nAnswer: $\\boxed{24}$\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # clock times: a bare time against a gold that says the half of the day (the reply's prose said the morning)
    ("From 8:30 PM, 8 hours later it is 4:30 in the morning.\n\n$\\boxed{4:30}$", "4:30 PM"),
    # a part that offers another value; two answer fields; candidates with probabilities
    ("Answers:\n(a) 12\n(b) 35 (or 36 if the endpoints count)", "12, 35"),
    ('$\\binom{8}{3} = 56$.\n\n```json\n{"answer": 56, "answer_int": 65}\n```', "56"),
    ("So the remainder is 4.\n\nConfidence by candidate:\n- 4 — 70%\n- 1 — 30%", "4"),
    # chat corrections after the answer
    ("The answer is 12.\n\n*15\n\n(typo above)", "12"),
    ("So $\\boxed{24}$\n\ns/24/48/ — forgot the order inside the block", "24"),
    # the true value said to lie elsewhere; a second answer line qualified as simplified
    (_BOX + "\nOn second thought, reflections are identical, so the true count is smaller than 24.", "24"),
    ("$24 \\times 2 = 48$.\n\n**Answer: 48**\n**Answer (simplified): 24**", "48"),
    # words of error in be ceb la ro ckb; suppositions in tr
    (_BOX + "Не, гэта памылкова — я забыў пра парадак унутры блока.", "24"),
    (_BOX + "Dili, sayop kana — nakalimtan nako ang han-ay.", "24"),
    (_BOX + "Immo hoc falsum est: ordinem intra truncum oblitus sum.", "24"),
    ("Deci numărul căutat este $\\boxed{144}$.\n\nStai, calculul de mai sus este greșit.", "144"),
    ("کۆی گشتی ژمارەکان $\\boxed{35}$ە.\n\nنا، ئەمە هەڵەیە.", "35"),
    ("Diyelim ki cevap $\\boxed{24}$ olsun; o zaman her gruba 6 öğrenci düşer, ama en az 7 olmalı.", "24"),
    # an open alternative reading after the answer, though the clause restates the answer
    (
        "The final answer is: $\\boxed{240}$\n\nI'm fairly confident in 240, though if the table is round the "
        "answer would be $48$ instead, and the problem is ambiguous on this point.",
        "240",
    ),
    # structure after the answer (the open false positives of 17b, fixed in the next session): a changelog that
    # states a new final count, a collapsed answer key with another value, a table of readings left open, a
    # quoted solution the line before it gives to someone else, a value denied by what names it
    (
        "So $100 - 67 = 33$ numbers.\n\n**Answer: 33**\n\n### Changelog\n- v1: first count\n"
        "- v2: fixed the multiples of 3; the final count is now **32**",
        "33",
    ),
    (
        "The larger root is $\\boxed{5}$.\n\n<details><summary>Show the answer key</summary>\n"
        "Answer key: 2\n</details>",
        "5",
    ),
    (
        "So $100 - 67 = 33$ are left. The count is **33**.\n\nWhich reading the problem intends is unclear to me:\n\n"
        "| Reading | Count |\n|---|---|\n| neither 2 nor 3 | 33 |\n| not both | 84 |",
        "33",
    ),
    (
        "My tutor's solution ends with:\n\n> So the probability is $\\boxed{\\frac{5}{18}}$.\n\n"
        "I'm not convinced: a sum of 7 has 6 outcomes of 36.",
        "\\frac{5}{18}",
    ),
    ("Average speed $= 48$ km/h.\n\nThis is the harmonic mean, not the arithmetic mean $50$.", "50"),
    # a supposition labelled `Ansatz:` that fails its check; an answer left depending on a reading; parts withdrawn
    # by name after their boxes
    ("Ansatz: the answer is $\\boxed{7}$. Then $3 \\cdot 7 + 4 = 25 \\neq 22$. The ansatz fails.", "7"),
    (
        "Lattice points: $\\gcd(12, 15) + 1 = 4$.\n\nThe answer is 12/15 (depending on whether the ends count).",
        "\\frac{4}{5}",
    ),
    (
        "**(a)** $2\\pi r = \\boxed{14\\pi}$.\n\n**(b)** $\\pi r^2 = \\boxed{49\\pi}$.\n\nThe diameter is 7, not the "
        "radius, and I have no time to redo them, so treat (a) and (b) as unverified.",
        "14\\pi, 49\\pi",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_17_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    ("From 8:30 PM, 8 hours later it is 4:30 in the morning.\n\n$\\boxed{4:30 \\text{ AM}}$", "4:30 AM"),
    ("It arrives at $\\boxed{4:30}$.", "4:30"),  # a gold with no meridiem: either half of the day
    ("Answers:\n(a) 12\n(b) 35", "12, 35"),
    ('$\\binom{8}{3} = 56$.\n\n```json\n{"answer": 56, "answer_int": 56}\n```', "56"),
    ("So the remainder is 4.\n\nConfidence: 95%.", "4"),
    (_BOX + "\nThe true count is 24, as the check confirms.", "24"),
    ("$24 \\times 2 = 48$.\n\n**Answer: 48**\n**Answer (simplified): 48**", "48"),
    (
        "So $100 - 67 = 33$ numbers.\n\n**Answer: 33**\n\n### Changelog\n- v2: fixed a typo; the count is "
        "unchanged",
        "33",
    ),
    (
        "The larger root is $\\boxed{5}$.\n\n<details><summary>Show the answer key</summary>\n"
        "Answer key: 5\n</details>",
        "5",
    ),
    ("Factor and compare the roots.\n\n<details><summary>Show answer</summary>\n42\n</details>", "42"),
    (
        "It is not clear whether 0 counts; I take the usual reading, so the count is $33$ (0 and 84 are out).",
        "33",
    ),
    ("Bob wrote:\n> the answer is 12\n\nHe is right: $3 \\cdot 4 = 12$.", "12"),
    ("Average speed $= 48$ km/h.\n\nThis is the harmonic mean, not the arithmetic mean $50$.", "48"),
    ("Ansatz: $n = 6$. Then $3 \\cdot 6 + 4 = 22$ ✓. So $n = \\boxed{6}$.", "6"),
    ("The answer is 12/15, the ratio of the legs.", "\\frac{4}{5}"),
    (
        "**(a)** $2\\pi r = \\boxed{14\\pi}$.\n\n**(b)** $\\pi r^2 = \\boxed{49\\pi}$.\n\nBoth parts use $r = 7$.",
        "14\\pi, 49\\pi",
    ),
    ("Average speed $= \\dfrac{96}{2} = 48$ km/h.", "48"),
    ("Giả sử đáp án là $12$. Khi đó chu vi là $16$, mâu thuẫn. Vậy đáp án là $\\boxed{9}$.", "9"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_17_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_an_en_dash_in_a_text_group_joins_a_range(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, "So the answer is $\\boxed{12\\text{–}15}$.", "-3", "wrong")
    assert details["extracted"] == "12 to 15"


def test_a_bare_time_against_a_gold_with_a_meridiem_names_the_reason(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, "$\\boxed{10:26}$", "10:26 PM", "wrong")
    assert details["error"] == "a different time of day"


def test_an_echoed_alpaca_prompt_opens_the_reply_at_its_response_heading(verifier: MathVerifier) -> None:
    prompt = (
        "Below is an instruction that describes a task.\n\n### Instruction:\nTom has 3 times 14 apples.\n\n"
    )
    reply = (
        prompt + "### Response: Let's think step by step.\nTom has 3 * 14 = 42 apples.\n\nThe answer is: 42."
    )
    expect_verdict(verifier, reply, "42", "correct")
    # a heading after the reply's own answer is a run-on into another turn: what follows it answers nothing
    run_on = "The answer is $\\boxed{128}$.\n\n### Instruction:\nWithout the condition?\n\n### Response:\n$\\boxed{23}$"
    expect_verdict(verifier, run_on, "128", "correct")
    expect_verdict(verifier, run_on, "23", "wrong")
