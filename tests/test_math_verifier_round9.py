"""Findings of the held-out red-team round 9 (tests/data/math/external/round9.yaml), each as a rule with
its counterpart: withdrawals in words outside the earlier vocabulary, a later value that names itself the
correct one, gpt-oss's harmony format, `The answer is: <latex>` lines and equation tags in answer phrases."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

BOXED = r"Adding the two cases, the answer is $\boxed{12}$. "
REDONE = r" Redoing the count with both cases weighted correctly gives $\boxed{18}$."

WITHDRAWALS = [
    "(void — see below)",
    "Erratum: the step from (2) to (3) drops a factor of 2.",
    "[RETRACTED]",
    "\u2190 mistake",
    "Cancel that.",
    "撤回。",
    "取り消します。",
    "Отставить.",
    "Je me rétracte.",
    "Nieważne, pomyłka.",
]


@pytest.mark.parametrize("withdrawal", WITHDRAWALS)
def test_a_withdrawn_box_is_no_answer_and_the_value_after_it_answers(
    verifier: MathVerifier, withdrawal: str
) -> None:
    alone = verifier.verify(BOXED + withdrawal, "12")
    assert not alone.passed, (withdrawal, alone)
    assert verifier.verify(BOXED + withdrawal + REDONE, "18").reason == "correct", withdrawal
    assert verifier.verify(BOXED + withdrawal + REDONE, "12").reason == "wrong", withdrawal


@pytest.mark.parametrize(
    "remark",
    [
        "(see below for the check)",  # a pointer, no judgement
        "Next, the two cases are weighted.",
        "ここで確認します。",  # "here we check"
        "Это ответ.",  # "this is the answer"
        "Je vérifie.",
    ],
)
def test_a_remark_without_a_word_of_error_keeps_the_box(verifier: MathVerifier, remark: str) -> None:
    assert verifier.verify(BOXED + remark, "12").reason == "correct", remark


@pytest.mark.parametrize(
    ("reply", "gold", "reason"),
    [
        # a value framed as a hypothesis or a plausible trap is not asserted; a test of it that fails judges it
        (r"Working hypothesis: $\boxed{12}$. Testing it against the second condition shows it fails.", "12", "no_answer"),
        (r"Working hypothesis: $\boxed{12}$. Testing it against the second condition shows it fails. The correct value is $\boxed{11}$.", "11", "correct"),
        (r"Working hypothesis: $\boxed{12}$. Testing it against the second condition shows it fails. The correct value is $\boxed{11}$.", "12", "wrong"),
        (r"A plausible-looking answer is $\boxed{12}$, which is exactly the trap: it counts the empty selection.", "12", "no_answer"),
        (r"So the answer is $\boxed{12}$. Testing it against the second condition shows it holds.", "12", "correct"),
        (r"Working hypothesis: $\boxed{12}$.", "12", "no_answer"),
        (r"A plausible-looking answer is $\boxed{12}$.", "12", "no_answer"),
        (r"By the induction hypothesis the claim holds, so the answer is $\boxed{12}$.", "12", "correct"),
        (r"The hypothesis is satisfied. The answer is $\boxed{12}$.", "12", "correct"),
        # a later sentence that names its value the correct one settles two boxes; without it they stay two
        (r"Students often write $\boxed{12}$ here. The correct value is $\boxed{11}$.", "11", "correct"),
        (r"Students often write $\boxed{12}$ here. The correct value is $\boxed{11}$.", "12", "wrong"),
        (r"One count gives $\boxed{12}$. Another count gives $\boxed{11}$.", "11", "no_answer"),
        (r"So the answer is $\boxed{12}$. If the order mattered, the correct value is $\boxed{24}$.", "24", "no_answer"),
    ],
)  # fmt: skip
def test_suppositions_and_named_corrections(
    verifier: MathVerifier, reply: str, gold: str, reason: str
) -> None:
    assert verifier.verify(reply, gold).reason == reason


HARMONY = (
    "<|channel|>analysis<|message|>We need the positive difference of the roots of $x^2-7x+10=0$. Roots 2 and 5; "
    "at first I wrote the sum 7, but the difference is 5 - 2 = 3. Provide answer.<|end|>"
    "<|start|>assistant<|channel|>final<|message|>The roots are $x=2$ and $x=5$.\n\n"
    "Their positive difference is $5-2=3$.\n\n**Answer:** $3$<|return|>"
)


def test_gpt_oss_harmony_reply_is_read_from_its_final_channel(verifier: MathVerifier) -> None:
    verdict = verifier.verify(HARMONY, "3")
    assert verdict.reason == "correct" and verdict.details["extracted"] == "3", verdict
    assert verifier.verify(HARMONY, "7").reason == "wrong"  # the analysis channel's draft is not the answer
    # an analysis channel cut before any final channel ends at its `<|end|>`: nothing after a turn answers
    cut = HARMONY.split("<|start|>")[0] + "<|start|>user<|message|>The answer is 7."
    assert verifier.verify(cut, "7").reason != "correct"


@pytest.mark.parametrize(
    ("reply", "gold", "extracted"),
    [
        ("so $\\cos 120^\\circ=-\\frac12$.\nThe answer is: -\\frac{1}{2}", "-\\frac{1}{2}", "-\\frac{1}{2}"),
        ("The answer is: \\sqrt{3}", "\\sqrt{3}", "\\sqrt{3}"),
        ('{"answer": 7}', "7", "7"),  # a record's closing brace is not the answer's
    ],
)
def test_an_answer_line_keeps_its_closing_brace(
    verifier: MathVerifier, reply: str, gold: str, extracted: str
) -> None:
    verdict = verifier.verify(reply, gold)
    assert verdict.reason == "correct" and verdict.details["extracted"] == extracted, verdict
    assert verifier.verify(reply, "-1").reason == "wrong"


def test_an_equation_tag_in_an_answer_phrase_is_no_value(verifier: MathVerifier) -> None:
    reply = "Hence the answer is given by (1):\n$$\\boxed{8\\sqrt{2}}$$"
    assert verifier.verify(reply, "8\\sqrt{2}").reason == "correct"
    assert verifier.verify(reply, "1").reason == "wrong"
    # a value in prose that is not a tag still contests the box
    assert verifier.verify("The answer is 5.\n$$\\boxed{8}$$", "8").reason == "no_answer"


@pytest.mark.parametrize(
    ("reply", "gold", "reason"),
    [
        # a value supposed where it stands, then a turn to what holds: the later value answers
        (r"Were the die fair, the answer would be $\boxed{12}$. But the die is loaded as stated, which gives $\boxed{18}$.", "18", "correct"),
        (r"Were the die fair, the answer would be $\boxed{12}$. But the die is loaded as stated, which gives $\boxed{18}$.", "12", "wrong"),
        (r"If $n$ is even the answer would be $\boxed{8}$, but $n$ is odd, so it is $\boxed{7}$.", "7", "correct"),
        # without a turn the two are parallel cases or two questions: no answer
        (r"If $n$ is even the answer would be $\boxed{8}$, and for odd $n$ it is $\boxed{7}$.", "7", "no_answer"),
        (r"Suppose the answer is $\boxed{7}$. Then the sum is $\boxed{9}$.", "9", "no_answer"),
        (r"Is it $\boxed{12}$? Or is it $\boxed{18}$?", "18", "no_answer"),
        # a stated value before the turn still contests the later one
        (r"The answer is $\boxed{12}$. But the problem asks for pairs, which gives $\boxed{18}$.", "18", "no_answer"),
    ],
)  # fmt: skip
def test_a_supposed_value_before_a_turn_does_not_contest(
    verifier: MathVerifier, reply: str, gold: str, reason: str
) -> None:
    assert verifier.verify(reply, gold).reason == reason


@pytest.mark.parametrize(
    ("reply", "gold", "reason"),
    [
        # `\smash` shows its content; `\cancelto{12}{18}` states 12 (18 struck with an arrow to it)
        (r"The answer is $\boxed{\smash{18}}$.", "18", "correct"),
        (r"The answer is $\boxed{\smash[b]{18}}$.", "1", "wrong"),
        (r"The total is $\boxed{\cancelto{12}{18}}$, since the corners were counted twice.", "12", "correct"),
        (r"The total is $\boxed{\cancelto{12}{18}}$, since the corners were counted twice.", "18", "wrong"),
    ],
)
def test_layout_and_strike_commands(verifier: MathVerifier, reply: str, gold: str, reason: str) -> None:
    assert verifier.verify(reply, gold).reason == reason


DIFF = "Here is the correction as a diff:\n\n```diff\n--- a/answer.md\n+++ b/answer.md\n@@ -1 +1 @@\n- Therefore the answer is $\\boxed{12}$.\n+ Therefore the answer is $\\boxed{18}$.\n```"


def test_a_diff_states_what_it_adds_not_what_it_removes(verifier: MathVerifier) -> None:
    assert verifier.verify(DIFF, "18").reason == "correct"
    assert verifier.verify(DIFF, "12").reason == "wrong"
    # a program block still states nothing
    program = "```python\nanswer = 18\n```"
    assert verifier.verify(program, "18").reason == "no_answer"
