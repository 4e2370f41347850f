"""Findings of red-team round 12 (tests/data/math/external/round12.yaml, held out until graded once on
ac93b93: 15 false positives), each as a rule with its counterpart."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # answer labels of more languages (cy, sq): the label's value, not a check's or a passing value
        ("Mae gennym $3x + 4 = 19$, felly $x = 5$.\n\nAteb: $x = 5$\n\nGwirio: $3 \\cdot 5 + 4 = 19$", "5", "19"),
        ("Rrënjët janë $2$ dhe $3$; prodhimi i tyre është $6$.\n\nPërgjigjja: $5$", "5", "6"),
        # a struck box at the reply's start, then the revised value
        ("<s>$\\boxed{1/6}$</s> Revised: the probability is $\\frac{5}{36}$.", "\\frac{5}{36}", "\\frac{1}{6}"),
        # a counterfactual in another language gives way to the value stated after it
        ("Если бы $a = 2$, то ответ был бы $\\boxed{8}$. Но $a = 3$, значит ответ $27$.", "27", "8"),
    ],
)  # fmt: skip
def test_round_12_answers(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    assert verifier.verify(reply, right).reason == "correct", reply
    assert verifier.verify(reply, other).reason == "wrong", reply


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        ("$\\boxed{42}$ ← placeholder, to be confirmed once I finish the casework.", "42"),
        ("所以答案是 $\\boxed{8}$，或者 $9$（如果把端点也算上）。", "8"),
        ("La réponse est $\\boxed{18}$, ou peut-être $20$ si on compte aussi les carrés.", "18"),
        ("Suppose for contradiction that the minimum is $\\boxed{4}$. Then $a + b = 4$ and $ab = 5$, impossible.", "4"),
        ("For example, if $n = 3$ the formula would give $\\boxed{10}$; in general the count is $\\binom{n+2}{2}$.", "10"),
        ("Если бы $a = 2$, то ответ был бы $\\boxed{8}$. Но значение $a$ в условии не указано.", "8"),
        ("Resposta: $\\boxed{72}$\n\nDesconsidere a resposta acima; usei o raio no lugar do diâmetro.", "72"),
        ("Cevap: $\\boxed{9}$\n\nBu cevap yanlış, çünkü negatif kök de sağlıyor.", "9"),
        ("Đáp án: $\\boxed{9}$\n\nKhoan, đáp án trên sai vì quên trường hợp âm.", "9"),
    ],
)  # fmt: skip
def test_round_12_replies_that_do_not_commit_to_the_gold(
    verifier: MathVerifier, reply: str, gold: str
) -> None:
    assert verifier.verify(reply, gold).reason in ("wrong", "no_answer"), reply


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        ("$\\boxed{42}$ ← confirmed by the casework below.", "42"),
        ("所以答案是 $\\boxed{8}$，即 $8$ 种。", "8"),
        ("La réponse est $\\boxed{18}$, ou $18$ au total.", "18"),
        ("Suppose the side is $3$. Then the area is $\\boxed{9}$.", "9"),
        ("Cevap: $\\boxed{9}$\n\nBu cevap doğru, çünkü iki kök de sağlıyor.", "9"),
        ("<s> The answer is $\\boxed{7}$.</s>", "7"),
    ],
)
def test_round_12_counterparts_stay_right(verifier: MathVerifier, reply: str, gold: str) -> None:
    assert verifier.verify(reply, gold).reason == "correct", reply


CAVEAT = (
    "So the volume is $\\frac{500\\pi}{3}$ cubic units.\n\n"
    "One caveat: if the problem intended the diameter to be 5, the volume would be $\\frac{125\\pi}{6}$ instead."
)


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # a closing counterfactual remark after the answer: the answer stands before it
        (CAVEAT, "\\frac{500\\pi}{3}", "\\frac{125\\pi}{6}"),
        ("The answer is 12. If order mattered, it would be 24.", "12", "24"),
        # a later answer line saying there is no single value overrides the box
        ("From the equations, $x = \\boxed{2}$.\n\nHmm, the equations are dependent.\n\nAnswer: undetermined", "\\text{undetermined}", "2"),
    ],
)  # fmt: skip
def test_closing_remarks_and_later_no_value_answers(
    verifier: MathVerifier, reply: str, right: str, other: str
) -> None:
    assert verifier.verify(reply, other).reason in ("wrong", "no_answer"), reply
    assert verifier.verify(reply, right).reason == "correct", reply


def test_a_later_answer_line_restating_the_box_keeps_it(verifier: MathVerifier) -> None:
    assert verifier.verify("From the equations, $x = \\boxed{2}$.\n\nAnswer: 2", "2").reason == "correct"


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # an angle's name is its label (`\angle A = ...` reads as `A = ...`), also in a chain with a `t` link
        ("$\\therefore \\angle A = 4t = \\dfrac{720^\\circ}{7}$", "\\frac{720}{7}", "\\frac{180}{7}"),
        ("$\\angle ABC = 30^\\circ$", "30", "60"),
    ],
)
def test_an_angle_name_is_a_label(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    assert verifier.verify(reply, right).reason == "correct"
    assert verifier.verify(reply, other).reason == "wrong"
