"""A reply's final value must be asserted: asked, supposed, denied, judged, hedged, approximate or withdrawn
values answer nothing (rlvr/verifiers/math/assertion.py); each rule beside the right counterpart it must keep."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.assertion import unasserted

from grading import assert_linear

# (reply, why it is not asserted); the gold is 7 for every one, and none may score
UNASSERTED = [
    (r"Is the answer $\boxed{7}$?", "asked"),
    (r"Could it be $\boxed{7}$?", "asked"),
    (r"$\boxed{7}$ (?)", "asked"),
    (r"Suppose the answer is $\boxed{7}$.", "supposed"),
    (r"Assume $x = 7$.", "supposed"),
    (r"Let's assume the answer is $\boxed{7}$ and check.", "supposed"),
    (r"If the answer is $\boxed{7}$, then the sum is even.", "supposed"),
    (r"I'd guess $\boxed{7}$ but can't prove it.", "supposed"),
    (r"It is false that the answer is $\boxed{7}$.", "denied"),
    ("It's not the case that the answer is 7.", "denied"),
    (r"I cannot conclude that the answer is $\boxed{7}$.", "denied"),
    (r"Nobody should answer $\boxed{7}$ here.", "denied"),
    (r"We cannot have $x = 7$.", "denied"),
    (r"$\boxed{7}$ is ruled out.", "rejected"),
    (r"$\boxed{7}$ fails.", "rejected"),
    (r"$\boxed{7}$ doesn't work.", "rejected"),
    (r"$\boxed{7}$ is too large.", "rejected"),
    (r"$\boxed{7}$ is not the answer.", "rejected"),
    (r"$\boxed{7}$ is what the naive method gives.", "rejected"),
    (r"The wrong answer $\boxed{7}$ comes from double counting.", "rejected"),
    (r"$\boxed{7}$ (8 if inclusive)", "hedged"),
    (r"$\boxed{7}$; alt: $8$", "hedged"),
    (r"$\boxed{7}$ [alt. 8]", "hedged"),
    ("The answer is close to 7.", "approximate"),
    ("The answer is on the order of 7.", "approximate"),
    ("The answer is 7 asymptotically.", "approximate"),
    (r"So the answer is $\boxed{7}$. Just kidding.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Scratch that.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Hmm, no.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. I take that back.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Hmm, I messed up somewhere.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. (wrong)", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Hmm, that can't be right.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. But this violates the constraint, so it's invalid.", "withdrawn"),
    # the same shapes in other words: a retraction verb on it, an admission of error, a judgement of it
    (r"So the answer is $\boxed{7}$. Disregard that.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Sorry, my bad.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. The above is wrong.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. That doesn't seem right.", "withdrawn"),
    (r"So the answer is $\boxed{7}$. Let me reconsider.", "withdrawn"),  # announced and never made
    (r"So the answer is $\boxed{7}$, just kidding.", "withdrawn"),  # in the value's own sentence
    (r"The answer is $\boxed{7}$, which is wrong.", "withdrawn"),
    (
        r"So the answer is $\boxed{7}$. Nope, it is 8 or 9.",
        "withdrawn",
    ),  # withdrawn, and no one value instead
    (r"Hypothetically, the answer is $\boxed{7}$.", "supposed"),
    (r"Were the answer $\boxed{7}$, the sum would be even.", "supposed"),
    (r"Plug in $x = 7$.", "supposed"),
    (r"I doubt that the answer is $\boxed{7}$.", "denied"),
    (r"There is no way the answer is $\boxed{7}$.", "denied"),
    (r"Students often answer $\boxed{7}$.", "rejected"),
    (r"$\boxed{7}$ is a trap.", "rejected"),
    (r"$\boxed{7}$ would be the answer if we counted rotations.", "rejected"),
    (r"The answer is likely 7.", "hedged"),
    (r"The answer is in the ballpark of 7.", "approximate"),
    (r"$\boxed{7}$ (give or take)", "approximate"),
    # the same shapes in other scripts and marks: CJK full stops end a sentence, `？`/`吗` ask
    ("$\\boxed{7}$。不对。", "withdrawn"),
    ("答案是 $\\boxed{7}$。不对，我算错了。", "withdrawn"),
    ("Ответ: $\\boxed{7}$. Неверно.", "withdrawn"),
    ("$\\boxed{7}$. Non, c'est faux.", "withdrawn"),
    ("$\\boxed{7}$。いいえ、違います。", "withdrawn"),
    ("$\\boxed{7}$ \u274c", "withdrawn"),
    ("$\\boxed{7}$\n\nEdit: this is wrong.", "withdrawn"),
    ("假设答案是 $\\boxed{7}$。", "supposed"),
    ("如果答案是 $\\boxed{7}$，那么和是偶数。", "supposed"),
    ("Angenommen, die Antwort ist $\\boxed{7}$.", "supposed"),
    ("答案是 $\\boxed{7}$ 吗？", "asked"),
    ("答案是 $\\boxed{7}$ 吗", "asked"),  # the particle asks without a question mark
]


@pytest.mark.parametrize(("reply", "why"), UNASSERTED)
def test_an_unasserted_final_value_answers_nothing(verifier: MathVerifier, reply: str, why: str) -> None:
    assert unasserted(reply) == why
    verdict = verifier.verify(reply, "7")
    assert not verdict.passed and verdict.reason == "no_answer"


def test_an_approximation_word_before_a_decimal_restatement_is_no_approximate_answer() -> None:
    # `(approximately 0.333)` restates the box as a decimal (the value rules judge that restatement)
    assert unasserted(r"The answer is $\boxed{\frac{1}{3}}$ (approximately 0.333).") is None
    assert unasserted(r"The answer is $\boxed{7}$ (approximately).") == "approximate"


def test_text_answers_hedged_after_the_box_answer_nothing(verifier: MathVerifier) -> None:
    for reply in (
        r"$\boxed{\text{odd}}$ (possibly even)",
        r"$\boxed{\text{odd}}$, or perhaps even",
        r"$\boxed{\text{odd}}$ (or even)",  # `or` and another word beside a one-word box
    ):
        assert unasserted(reply) == "hedged"
        assert verifier.verify(reply, "odd").reason == "no_answer"


# the counterparts: the same words around a value that is asserted, or around another value; each must score
ASSERTED = [
    (r"If we add $3$ and $4$, we get $\boxed{7}$.", "7"),  # the consequent of a condition is asserted
    (r"Perhaps surprisingly, the answer is $\boxed{7}$.", "7"),
    (r"Suppose the answer is $8$. Then the sum is odd, a contradiction. So the answer is $\boxed{7}$.", "7"),
    (r"Is it $7$? Yes. The answer is $\boxed{7}$.", "7"),
    (r"It is false that the answer is $8$; the answer is $\boxed{7}$.", "7"),
    (r"$8$ is ruled out, so the answer is $\boxed{7}$.", "7"),
    (r"The naive method gives $8$, which double counts; the answer is $\boxed{7}$.", "7"),
    (r"So there are $\boxed{7}$ integers not divisible by 3.", "7"),  # a negation inside a noun phrase
    (r"The answer is $\boxed{7}$, or equivalently $\frac{14}{2}$.", "7"),
    (r"The probability is $\boxed{\frac{1}{3}}$, or about 33.3%.", r"\frac13"),  # `or` restating the value
    (r"The answer is $\boxed{\frac{1}{2}}$ (or 0.5).", r"\frac12"),
    (r"$\boxed{\text{odd}}$, or equivalently not even", "odd"),
    ("所以答案是 $\\boxed{7}$。不难验证。", "7"),  # 不 opens a word here, no interjection
    ("如果把它们加起来，就得到 $\\boxed{7}$。", "7"),  # the consequent of a condition
    ("La réponse est $\\boxed{7}$. Non négligeable.", "7"),
    ("Se obtiene $\\boxed{7}$.", "7"),  # Spanish `se` is a pronoun, not Portuguese `if`
    (r"So the answer is $\boxed{7}$. Let me double-check: $3 + 4 = 7$. Yes.", "7"),
    (r"So the answer is $\boxed{7}$. Never mind the units, they cancel.", "7"),
    (r"So the answer is $\boxed{7}$. I hope it is correct.", "7"),
    (r"So the answer is $\boxed{7}$. This matches the constraint.", "7"),
    (r"So the answer is $\boxed{7}$. This is not a coincidence.", "7"),
    (r"Hmm, is it maybe $\boxed{20}$? No: $4 \cdot 3 \cdot 2$ is 24. Yes, the answer is 24.", "24"),
    ("The area is approximately 3.14.", "3.14"),  # a decimal is an approximation by nature
    (r"It is not hard to see that the answer is $\boxed{7}$.", "7"),  # the negation is of `hard`
    (r"Since we don't have a remainder the answer is $\boxed{7}$.", "7"),  # `have` takes `a remainder`
    (r"So $x = 7$ is the only solution that is not extraneous.", "7"),  # the relative clause judges another
    (r"The answer cannot be 8, so it is $\boxed{7}$.", "7"),
    (r"Let me compute: $3 + 4 = \boxed{7}$.", "7"),
    (r"Assuming the coins are fair, the count is $\boxed{7}$.", "7"),
    (r"$\boxed{7}$ apples, not counting the 2 rotten ones.", "7"),
    (r"The answer is $\boxed{7}$, which is not divisible by 2.", "7"),
    (r"$\boxed{7}$. No other value works.", "7"),
    (r"So the answer is $\boxed{7}$. That's right.", "7"),
    (r"So the answer is $\boxed{7}$. I might be wrong.", "7"),  # doubt alone offers no other value: policy
    (r"$\boxed{7}$ (I'm not sure)", "7"),  # disagreements.yaml, round-2 hedge#11
    (r"So the answer is $\boxed{7}$. Let me double-check. $3 + 4 = 7$. Yes.", "7"),
    (r"So the answer is $\boxed{7}$. Just kidding, it is 8.", "8"),  # a withdrawal that revises to one value
    (r"So the answer is $\boxed{7}$. Scratch that: the answer is $\frac{1}{2}$.", "1/2"),
]


@pytest.mark.parametrize(("reply", "gold"), ASSERTED)
def test_an_asserted_final_value_answers(verifier: MathVerifier, reply: str, gold: str) -> None:
    verdict = verifier.verify(reply, gold)
    assert verdict.passed, (reply, verdict.reason)


# a withdrawal between two values is a revision: the later one answers (round 6b's counterparts)
@pytest.mark.parametrize(
    "withdrawal",
    ["Just kidding.", "Scratch that.", "Never mind,", "Nope.", "Hmm, that can't be right.", "Wrong!"],
)
def test_a_withdrawal_between_two_values_revises(verifier: MathVerifier, withdrawal: str) -> None:
    reply = rf"So the answer is $\boxed{{7}}$. {withdrawal} The answer is $\boxed{{8}}$."
    assert verifier.verify(reply, "8").passed
    assert not verifier.verify(reply, "7").passed


def test_a_sentence_that_is_no_withdrawal_leaves_two_values_contested(verifier: MathVerifier) -> None:
    reply = r"So the answer is $\boxed{7}$. Let us see. The answer is $\boxed{8}$."
    assert verifier.verify(reply, "8").reason == "no_answer"


def test_a_withdrawal_far_from_the_start_of_a_long_reply_still_counts(verifier: MathVerifier) -> None:
    reply = "The answer is 7.\n" + "Nope\n" * 50_000  # the value lies 250,000 characters before the end
    assert unasserted(reply) == "withdrawn"
    assert verifier.verify(reply, "7").reason == "no_answer"


def test_long_replies_are_read_in_linear_time() -> None:
    for build in (
        lambda n: r"So the answer is $\boxed{7}$." + " Just kidding." * n,
        lambda n: "Suppose " * n + r"the answer is $\boxed{7}$.",
        lambda n: r"$\boxed{7}$." + " I hope it is correct." * n,
    ):
        reply = build(20_000)
        assert unasserted(reply) is not None or reply.endswith("correct.")
        assert_linear(lambda n, build=build: unasserted(build(n)), 5_000)


@pytest.mark.parametrize(
    ("reply", "right", "wrong"),
    [
        (r"So the number of ways to arrange $3$ books is 1,000.", "1000", "3"),
        (r"Hence the value of $\binom{5}{2}$ is 1,0.", "1", "10"),  # round 5 #431: never the restated formula
    ],
)
def test_a_closing_value_with_commas_is_that_value(
    verifier: MathVerifier, reply: str, right: str, wrong: str
) -> None:
    assert verifier.verify(reply, right).details["method"] == "conclusion"
    assert verifier.verify(reply, right).passed
    assert not verifier.verify(reply, wrong).passed


def test_a_reply_cut_inside_an_inline_formula_has_no_answer(verifier: MathVerifier) -> None:
    cut = "接下来求前 5 项和：$S_5 = 3^5 - 1 = 242$。\n\n再验证一下：$2 + 6 + 18 + 54 + 162 = 2"  # round 6a #182
    assert verifier.verify(cut, "242").reason == "no_answer"
    assert verifier.verify(cut, "2").reason == "no_answer"
    # a formula closed, or money in a finished sentence, is no cut
    assert verifier.verify("So the sum is $3 + 4 = 7$", "7").passed
    assert verifier.verify("So he earns $12 x 3 = 36 dollars.", "36").passed
    assert verifier.verify("Le coût est de 30 $. Le coût final est donc de 100 - 30 = 70", "70").passed


@pytest.mark.parametrize(
    "reply, right, wrong",
    [
        # a concluding `so` after a comma commits the later box: the earlier one was a partial result
        (r"The remainder is \fbox{4}, so the answer is \fbox{19}.", "19", "4"),
        # a summary section of partial values after the answer restates steps, it answers nothing new
        ("Thus the answer is $19$.\n\n**Summary**\n- remainder: $4$\n- period: $15$", "19", "15"),
    ],
)
def test_a_committed_answer_beside_partial_values(
    verifier: MathVerifier, reply: str, right: str, wrong: str
) -> None:
    assert verifier.verify(reply, right).passed
    assert not verifier.verify(reply, wrong).passed
