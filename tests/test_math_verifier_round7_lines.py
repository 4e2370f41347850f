"""Red-team round 7 (issue 13): answer lines and labels. A result label on the closing line (`Résultat : 2`,
`Ergebnis: Das Integral hat den Wert 2.`, `Total distance: 10 km + 15 km = 25 km`), a label in brackets (`【答案】128`),
a bold value inside an answer line's words, a number word in brackets that restates the value, a dash clause that
denies another one. Each rule with its wrong counterpart (the gold is another value of the same text), and the
reason asserted."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.closing import closing_result
from rlvr.verifiers.math.decide import _one_unit_chain
from rlvr.verifiers.math.extract import extract_answer

from grading import assert_linear, expect_verdict

# ---- a result label that opens the closing line states the answer, read before the formulas argued for it
_FR = (
    "Soit $f(x) = x^3 - 3x$. $f'(x) = 3x^2 - 3 = 0 \\iff x = \\pm 1$. $f(1) = -2$ et $f(-1) = 2$.\n"
    "Le maximum local vaut donc $2$, atteint en $x = -1$.\nRésultat : 2"
)
_DE = (
    "$$\\int_0^1 (3x^2 + 2x)\\,dx = \\left[x^3 + x^2\\right]_0^1 = 1 + 1 = 2.$$\n"
    "Die Stammfunktion ist $F(x) = x^3 + x^2$.\nErgebnis: Das Integral hat den Wert 2."
)


@pytest.mark.parametrize(
    "pred, right, wrongs",
    [
        (_FR, "2", ["-1", "-2"]),  # the value, not where it is attained (the last formula)
        (_DE, "2", ["x^3+x^2", "1"]),  # a sentence after the label whose value comes last
        ("We add both legs: $a = 10$, $b = 15$.\n\n**Final result:** 25", "25", ["15"]),
        ("Los pasos dan $x = 4$ y $y = 3$.\nResultado: 7", "7", ["3"]),
        ("Risolvendo, $a = 6$ e $b = 2$.\nRisultato: 3", "3", ["2"]),
        ("Получаем $a = 6$, $b = 5$.\nИтог: 11", "11", ["5"]),
        ("先求得 $a = 6$，再得 $b = 9$。\n最终结果：15", "15", ["9"]),
        ("> **Step 3.** 3 − 10 = −7\n>\n> **Result:** −7", "-7", ["7", "10"]),
    ],
)
def test_a_result_label_on_the_closing_line_answers(
    verifier: MathVerifier, pred: str, right: str, wrongs: list[str]
) -> None:
    details = expect_verdict(verifier, pred, right, "correct")
    assert details["method"] == "final_answer"
    for wrong in wrongs:
        expect_verdict(verifier, pred, wrong, "wrong")


@pytest.mark.parametrize(
    "pred",
    [
        "Total: 10 apples.\nShe gives 2 away, so she has $8$ left.",  # a step's total, then the answer
        "Result: 8\nRuntime: 7 ms",
        "Ergebnis: 10.\n\nDavon ziehen wir $2$ ab und erhalten $8$.",
        "We add the legs.\n\nTotal distance: 8 km + 2 km +",  # cut off: no line closes the reply
        "Legs of 8 km and 2 km.\n\nTotal: 8 km + 2 km = 10 km. Hmm, or maybe 8 km.",  # a hedge on the line
    ],
)
def test_a_result_label_elsewhere_is_no_answer_line(verifier: MathVerifier, pred: str) -> None:
    assert closing_result(pred) is None
    verdict = verifier.verify(pred, "10" if "8" in pred else "8")
    assert not verdict.passed and verdict.details.get("extracted") not in ("10",), verdict.details


# ---- a computation in one unit on a result line: its result in that unit is the answer
@pytest.mark.parametrize(
    "pred, right, wrongs",
    [
        (
            "The first leg is 10 km and the second 15 km.\n\nTotal distance: 10 km + 15 km = 25 km",
            "25",
            ["10", "15"],
        ),
        ("She had 12 apples and ate 5.\n\nTotal left: 12 - 5 = 7 apples", "7", ["5", "12"]),
    ],
)
def test_a_computation_in_one_unit_is_its_result(
    verifier: MathVerifier, pred: str, right: str, wrongs: list[str]
) -> None:
    expect_verdict(verifier, pred, right, "correct")
    for wrong in wrongs:
        expect_verdict(verifier, pred, wrong, "wrong")


def test_only_a_computation_in_one_unit_is_read_so() -> None:
    assert _one_unit_chain("10 km + 15 km = 25 km") is not None
    assert _one_unit_chain("3 + 4 = 8 km") is not None  # read, and judged a false chain when graded
    assert _one_unit_chain("2 m × 3 m = 6 m") is None  # a product of lengths is an area
    assert _one_unit_chain("5 x + 2 x = 7 x") is None  # `x` is no unit
    assert _one_unit_chain("25 km") is None  # no chain: the unit is read as ever


def test_a_false_computation_in_one_unit_answers_nothing(verifier: MathVerifier) -> None:
    pred = "Legs of 3 km and 4 km.\n\nTotal: 3 km + 4 km = 8 km"
    for gold in ("8", "7"):
        expect_verdict(verifier, pred, gold, "wrong")


# ---- a label in brackets is an answer line's label: the exam format `【解析】…【答案】128`
@pytest.mark.parametrize(
    "pred",
    [
        "【解析】余数为 23，加 105 得 128。【答案】128",
        "［解析］余数为 23，加 105 得 128。［答案］128",
        "The residue is 23; adding the period 105 gives 128.\n\n**[Answer]** 128",
    ],
)
def test_a_bracketed_label_opens_the_answer(verifier: MathVerifier, pred: str) -> None:
    details = expect_verdict(verifier, pred, "128", "correct")
    assert details["method"] == "final_answer" and details["extracted"] == "128"
    expect_verdict(verifier, pred, "23", "wrong")


# ---- the one bold number of an answer line that opens with words is its answer
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        (
            "luego $y = 8$ y $x = 12$.\n\nComprobación: $12 + 8 = 20$ ✓.\n\n"
            "Respuesta: hay **12** monedas de 5 céntimos.",
            "12",
            "8",
        ),
        ("So $x = 4$.\n\nAnswer: there are **12** coins of 5 cents.", "12", "5"),
    ],
)
def test_a_bold_number_in_an_answer_line(verifier: MathVerifier, pred: str, right: str, wrong: str) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["extracted"] == right
    expect_verdict(verifier, pred, wrong, "wrong")


@pytest.mark.parametrize(
    "pred, gold",
    [
        ("Answer: not **8**, the count is 7.", "8"),  # denied
        ("Answer: about **12** coins.", "12"),  # qualified
        ("Answer: there are **12** coins and **5** cents.", "12"),  # two bold values
    ],
)
def test_a_qualified_or_second_bold_is_not_the_answer(verifier: MathVerifier, pred: str, gold: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert not verdict.passed, verdict.details


# ---- `7 (seven)` restates 7; `7 — not 8` denies 8
@pytest.mark.parametrize(
    "pred",
    ["Answer: 7 (seven)", "Answer: 7 (seven) — not 8.", "Answer: 7, not 8.", "Answer: 21 (twenty-one)"],
)
def test_a_restatement_in_words_or_a_denial_leaves_the_answer(verifier: MathVerifier, pred: str) -> None:
    value = pred.split()[1].rstrip(",")
    assert expect_verdict(verifier, pred, value, "correct")["extracted"] == value
    expect_verdict(verifier, pred, "8", "wrong")


def test_a_bracketed_other_number_word_is_a_second_value(verifier: MathVerifier) -> None:
    for gold in ("7", "8"):
        expect_verdict(verifier, "Answer: 7 (eight)", gold, "wrong")


# ---- a chat template's next turn, in every family's spelling, ends the reply: a box after it answers nothing
_SOLVED = "So $n = 23 + 105 = 128$.\n\nThe answer is $\\boxed{128}$."


@pytest.mark.parametrize(
    "turn",
    [
        "<end_of_turn>\n<start_of_turn>user\nWithout the condition?<end_of_turn>\n<start_of_turn>model\n",  # Gemma
        "<|end|><|user|>Without the condition?<|end|><|assistant|>",  # Phi-3
        "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWithout the condition?<|eot_id|>",  # Llama 3
        "\n\n### Instruction:\nWithout the condition?\n\n### Response:\n",  # Alpaca
        "</s><s>[INST] Without the condition? [/INST] ",  # Mistral
    ],
)
def test_a_next_chat_turn_ends_the_reply(verifier: MathVerifier, turn: str) -> None:
    pred = _SOLVED + turn + "$\\boxed{23}$"
    assert expect_verdict(verifier, pred, "128", "correct")["extracted"] == "128"
    expect_verdict(verifier, pred, "23", "wrong")


@pytest.mark.parametrize(
    "opening",
    ["<start_of_turn>model\n", "<|assistant|>", "<|start_header_id|>assistant<|end_header_id|>\n\n"],
)
def test_an_opening_turn_marker_ends_nothing(verifier: MathVerifier, opening: str) -> None:
    assert expect_verdict(verifier, opening + _SOLVED, "128", "correct")["extracted"] == "128"


# ---- an answer phrase that restates the boxed value as a sum offers no other value (its first operand)
def test_an_answer_restated_as_a_sum_is_no_second_answer(verifier: MathVerifier) -> None:
    pred = (
        "So $n = 23 + 105 = 128$.\n\n$\\boxed{128}$\n\nLet me verify with the smallest case: $n = 23$ satisfies all "
        "three, and adding the period keeps them. The answer is $23 + 105$."
    )
    assert expect_verdict(verifier, pred, "128", "correct")["extracted"] == "128"
    expect_verdict(verifier, pred, "23", "wrong")
    # a whole other value stated as the answer after the box is still a second answer
    expect_verdict(verifier, pred.replace("$23 + 105$", "$23$"), "128", "wrong")


# ---- a guessed last value offered as a possibility (`or maybe`, a question) is no answer
@pytest.mark.parametrize(
    "pred",
    [
        "The total is 25 km. Hmm, or maybe 26 km.",
        "Legs of 10 km and 15 km.\n\nTotal: 10 km + 15 km = 25 km. Hmm, or maybe 26 km.",
        "The total is 25 km. Perhaps 26 km.",
        "The total is 25 km. Is it 26 km?",
    ],
)
def test_a_hedged_last_value_is_no_guess(verifier: MathVerifier, pred: str) -> None:
    for gold in ("25", "26"):
        verdict = verifier.verify(pred, gold)
        assert not verdict.passed, verdict.details


def test_a_plain_last_value_is_still_guessed(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, "The total is 26 km.", "26", "correct")["extracted"] == "26"


# ---- a long run of spaces in an answer line is read in linear time (each was quadratic: 12 s and 3 s)
@pytest.mark.parametrize("tail", ["12 coins", "or 12"])
def test_a_long_run_of_spaces_in_an_answer_line_is_fast(tail: str) -> None:
    assert_linear(lambda n: extract_answer("Answer: x " + " " * n + tail), 12_500)
