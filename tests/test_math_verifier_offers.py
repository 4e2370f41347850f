"""A box that is offered rather than committed to: qualified after it (`or something close`, `— roughly`,
`(tentative)`), followed by another reading's value (`If order does not matter, it is 6.`, `15 is also
possible`), or someone else's (`GPT-4 says`, `Bob thinks`, `The textbook's answer is`). Each with the reply
that commits, which still passes."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier


@pytest.mark.parametrize(
    "reply",
    [
        "The answer is either $\\boxed{12}$ or something close to it.",
        "Answer: $\\boxed{12}$ — roughly.",
        "Answer: $\\boxed{12}$, give or take one.",
        "Answer: $\\boxed{12}$ (tentative)",
        "Answer: $\\boxed{12}$ (draft)",
        "Answer: $\\boxed{12}$ (to be checked)",
        "$\\boxed{12}$. But $15$ is also possible.",
        "$\\boxed{12}$, though $15$ is just as likely.",
        "The answer is $\\boxed{12}$. If order does not matter, it is $6$.",
        "The answer is $\\boxed{12}$. When order does not matter, the count is $6$.",
        "The answer is $\\boxed{12}$. Assuming unordered pairs, it is $6$.",
        "GPT-4 says $\\boxed{12}$.",
        "Bob thinks it is $\\boxed{12}$.",
        "The textbook's answer is $\\boxed{12}$.",
    ],
)
def test_an_offered_box_answers_nothing(verifier: MathVerifier, reply: str) -> None:
    assert not verifier.verify(reply, "12").passed, reply


@pytest.mark.parametrize(
    "reply",
    [
        "The answer is $\\boxed{12}$.",
        "Answer: $\\boxed{12}$ — final.",
        "$\\boxed{12}$. But $12$ is also the number of edges of a cube.",  # the same value again
        "So $x = \\boxed{12}$. If $x = 12$, then $2x + 6 = 30$, as required.",  # a check of it
        "So $x = \\boxed{12}$. When $x = 12$, both sides equal $30$.",
        "Theorem 2 says the sum is $\\boxed{12}$.",  # a theorem is no one's opinion
        "Bob thinks it is $\\boxed{15}$, but he is wrong: it is $\\boxed{12}$.",  # the reply's own after another's
    ],
)
def test_a_committed_box_still_answers(verifier: MathVerifier, reply: str) -> None:
    assert verifier.verify(reply, "12").reason == "correct", reply
