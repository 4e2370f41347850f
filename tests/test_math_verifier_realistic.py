"""Red-team round 6a (realistic model outputs): minus signs written as dashes, answer lines in other languages,
intervals and money in plain text, struck-out and quoted text. Each rule with its wrong counterpart, and the
reason (how the answer was found) asserted."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.atoms import minus_signs
from rlvr.verifiers.math.markup import money_dollars, struck_out, table_total
from rlvr.verifiers.math.phrases import _concluding_number

from grading import expect_verdict


# ---- a dash that is a minus sign before a number is a minus: `−5` is -5, never 5
@pytest.mark.parametrize(
    "pred, value",
    [
        ("The vertex is at x = 3, and f(3) = 9 − 18 + 4 = −5.\n\nSo the minimum value is −5.", "-5"),
        ("8 − 15 = −7\nThe temperature at midnight was −7 degrees.", "-7"),
        ("4 − 15 = −11, so the temperature at 11 am was −11°C.", "-11"),
        ("the sum is −b/a = −7/2.\n\nSo the sum of the roots is −7/2.", "-7/2"),
        ("the sixth term is 81 · (−1/3)⁵ = −1/3.\n\nSo the sixth term is –1/3.", "-1/3"),  # an en dash
        ("Hence det(A) = −10.", "-10"),
        ("Значит, значение выражения равно −7.", "-7"),
        ("所以结果是 −10。", "-10"),
    ],
)
def test_a_dash_before_a_number_is_its_minus_sign(verifier: MathVerifier, pred: str, value: str) -> None:
    details = expect_verdict(verifier, pred, value, "correct")
    assert details["extracted"] == value
    expect_verdict(verifier, pred, value.lstrip("-"), "wrong")  # the absolute value is another number


def test_an_en_dash_between_numbers_is_a_range_not_a_sign(verifier: MathVerifier) -> None:
    assert minus_signs("pages 3–5 and x–1") == "pages 3 to 5 and x–1"  # glued to what precedes it: no sign
    assert minus_signs("3 − 2 = 1, so −1 and –½") == "3 − 2 = 1, so -1 and -½"  # a spaced operator stays
    assert (
        expect_verdict(verifier, "The answer is 5–7.", "-2", "wrong")["extracted"] == "5 to 7"
    )  # never 5 - 7


# ---- answer lines in other languages (a closed vocabulary, `phrase_words.ANSWER_LABELS`), full-width colons too
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        ("Проверка: $24/12 + 24/8 = 2 + 3 = 5$ ✓.\nОтвет: 10 км/ч.", "10", "5"),
        ("Проверка: $12 + 16 = 28$ ✓.\nОтвет: 16 девочек.", "16", "28"),
        ("Найдём площадь: $S = 12$.\nПериметр: $P = 6 + 5 + 5 = 16$.\nОтвет: 12", "12", "16"),
        ("检验：$3 \\times 7 + 5 = 26$，正确。\n答：这个数是 7。", "7", "26"),
        (
            "合作每小时做 $\\frac{1}{10} + \\frac{1}{15} = \\frac{1}{6}$。\n答：两人合作需要 6 小时完成。",
            "6",
            "\\frac{1}{6}",
        ),
        ("全体は $15 + 10 = 25$ 人、割合は $\\frac{10}{25}$ となる。\n答え：40%", "40", "25"),
        ("검산: 둘레는 $6 + 8 + 10 = 24$ 로 같다.\n답: 10", "10", "24"),
        ("Parmi eux, $\\frac{1}{3}$ prennent le dessert, soit $30$ élèves.\nRéponse : 30 élèves", "30", "3"),
        ("La longitud es $2\\pi r = 6\\pi$, y $r = 3$.\nRespuesta: 6π", "6\\pi", "3"),
        ("Temos $\\binom{6}{2} = 15$ e $\\binom{4}{2} = 6$.\nResposta: 21", "21", "6"),
        ("la verifica dà $16 + 24 = 40$.\nRisposta: 16 studenti", "16", "40"),
        ("Kontrol: $10.5 \\cdot 20 = 210$.\nCevap: 10.5", "10.5", "210"),
        ("nên $x = 1$ hoặc $x = 3$.\nĐáp số: 4", "4", "3"),
        ("Проверка: $a_1 + a_{10} = 3 + 39 = 42$.\n**Ответ:** 210", "210", "42"),
        ("Sprawdzenie: $2 \\cdot 9 = 18$.\nOdpowiedź：9", "9", "18"),  # a full-width colon
    ],
)
def test_an_answer_line_in_another_language(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["method"] == "final_answer"
    assert expect_verdict(verifier, pred, wrong, "wrong")["method"] == "final_answer"


@pytest.mark.parametrize(
    "pred",
    [
        "Проверка: $2 + 8 = 10$.\nОтвет: около 10 км.",  # qualified in that language: about 10
        "检验：$4 + 6 = 10$。\n答：约 10 人。",
        "Cálculo: $4 + 6 = 10$.\nRespuesta: unos 10 libros.",
    ],
)
def test_a_qualified_answer_line_states_no_plain_value(verifier: MathVerifier, pred: str) -> None:
    details = expect_verdict(verifier, pred, "10", "wrong")
    assert details["method"] == "final_answer" and details["extracted"] != "10"


def test_a_label_ending_another_word_opens_no_answer_line(verifier: MathVerifier) -> None:
    # `回答` (a reply) ends in `答`: no answer line, the last number is only a guess
    assert expect_verdict(verifier, "回答：$3 + 4 = 7$，共 7 个", "7", "correct")["method"] != "final_answer"


def test_a_semicolon_list_in_an_answer_line_is_all_its_values(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, "Ответ: 5; 7", "5, 7", "correct")["extracted"] == "5, 7"
    expect_verdict(verifier, "Ответ: 5; 7", "5", "wrong")  # a list is never its first value


def test_a_concluding_sentence_in_another_language(verifier: MathVerifier) -> None:
    pred = "Найдём: 3 − 2·5 = 3 − 10 = −7.\nЗначит, значение выражения равно −7."
    assert expect_verdict(verifier, pred, "-7", "correct")["method"] == "conclusion"
    pred = "计算：2 × 4 = 8，8 + 2 = 10。\n所以结果是 10。"
    assert expect_verdict(verifier, pred, "10", "correct")["method"] == "conclusion"
    expect_verdict(verifier, pred, "8", "wrong")


# ---- a pair of endpoints in plain text is the interval (or point), never its upper endpoint
@pytest.mark.parametrize(
    "pred, right, endpoint",
    [
        (
            "so f'(x) < 0 exactly when -2 < x < 2.\n\nTherefore f is decreasing on the interval (-2, 2).",
            "(-2,2)",
            "2",
        ),
        ("which holds for 0 ≤ x ≤ 4.\n\nThe solution set is [0, 4].", "[0,4]", "4"),
        ("so $x > 3$.\n\nSo the domain of the function is (3, ∞).", "(3,\\infty)", "3"),
        ("x² < 1 ⇔ −1 < x < 1.\n\nSo f is decreasing on (−1, 1).", "(-1,1)", "1"),
    ],
)
def test_a_plain_text_interval(verifier: MathVerifier, pred: str, right: str, endpoint: str) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["extracted"].startswith(("(", "["))
    expect_verdict(verifier, pred, endpoint, "wrong")


@pytest.mark.parametrize(
    "pred",
    ["So f is decreasing on (−∞, −1) and (1, ∞).", "f decreases on (−∞, −1) ∪ (1, ∞)"],
)
def test_two_intervals_in_a_sentence_are_no_answer(verifier: MathVerifier, pred: str) -> None:
    expect_verdict(verifier, pred, "(1,\\infty)", "no_answer")  # one of two sets named is no answer
    expect_verdict(verifier, pred, "1", "no_answer")


def test_arguments_in_brackets_are_no_interval(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, "We get gcd(12, 18) = 6.", "6", "correct")["extracted"] == "6"
    verdict = verifier.verify("Count them with C(6, 2).", "(6,2)")  # a function's arguments, no point
    assert not verdict.passed and verdict.details.get("extracted") != "(6, 2)"


# ---- a bare `$` before a number in prose is money, not the start of a formula
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        (
            "She had $200 and earned $45, so she had $245.\nAfter buying the $180 bike, she had $65 left.",
            "65",
            "245",
        ),
        ("He pays with a $20 bill, so his change is $20 - $12 - $3 = $5.", "5", "3"),
        ("The shirt costs $25.\nWith the 20% discount, he pays 0.8 * $65 = $52.", "52", "65"),
    ],
)
def test_dollar_amounts_in_prose(verifier: MathVerifier, pred: str, right: str, wrong: str) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["method"] == "last_number"
    expect_verdict(verifier, pred, wrong, "wrong")


def test_a_formula_opened_by_a_number_stays_a_formula() -> None:
    text = r"Cost: $3 \times \$2.50 = \$7.50$ and $2 \text{ apples}$; then $12$."
    assert money_dollars(text) == text
    display = "$2 \\times 3\n= 6$ apples"  # a formula across a line: its command makes it one
    assert money_dollars(display) == display
    assert money_dollars("costs $5 each. Then $x = 3$.") == r"costs \$5 each. Then $x = 3$."


# ---- struck-out text states nothing; quotes, footnotes and collapsed sections are asides to a committed answer
@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        ("The answer is ~~12~~ 13.\n\n(I initially forgot the person at the head of the table.)", "13", "12"),
        (
            "- **Subtotal:** $\\$12.50$\n\n~~**Total: $12.50**~~ — I forgot the tax.\n\n**Total: $\\$13.50$**",
            "13.50",
            "12.50",
        ),
        ("$\\boxed{8}$ <s>$\\boxed{7}$</s>", "8", "7"),
        ("$\\boxed{8}$ <del>$\\boxed{7}$</del>", "8", "7"),
        ("$\\boxed{8}$ <strike>$\\boxed{7}$</strike>", "8", "7"),
        ("$\\boxed{8}$[^1]\n\n[^1]: Some books give $\\boxed{7}$.", "8", "7"),
        ("$\\boxed{8}$\n\n> Quoted from the forum: the answer is $\\boxed{7}$.", "8", "7"),
        ("$\\boxed{8}$\n\n<details><summary>Old attempt</summary>$\\boxed{7}$</details>", "8", "7"),
    ],
)
def test_struck_out_and_quoted_text_states_nothing(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    assert expect_verdict(verifier, pred, right, "correct")["extracted"].replace("\\$", "") == right
    expect_verdict(verifier, pred, wrong, "wrong")


def test_an_answer_only_in_a_quote_is_not_replaced_by_a_draft(verifier: MathVerifier) -> None:
    # without a committed answer outside it, the quote is kept: 4 (a step) must never become the answer
    verdict = verifier.verify("Let me compute 3 + 4.\n> Answer: 7", "4")
    assert not verdict.passed and verdict.details.get("extracted") != "4"


def test_a_chat_template_start_token_is_no_strike_out() -> None:
    assert struck_out("<s>The answer is 5.</s>") == "<s>The answer is 5.</s>"
    assert struck_out("It is 5 <s>6</s>.") == "It is 5  ."


def test_a_comment_is_no_strike_out(verifier: MathVerifier) -> None:
    # a box in a comment still joins the answer as a hedge (tests/test_math_verifier_rules.py)
    assert expect_verdict(verifier, "\\boxed{8}\n<!-- \\boxed{7} -->", "8", "wrong")["method"] == "boxed"


# ---- an equivalent in brackets after the answer restates it
def test_a_formula_after_i_e_restates_the_answer(verifier: MathVerifier) -> None:
    pred = "The Catalan number $C_3 = 5$ counts them.\n\nThe answer is 5 (i.e. $C_3 = \\frac{1}{4}\\binom{6}{3}$)."
    assert expect_verdict(verifier, pred, "5", "correct")["extracted"] == "5"
    assert (
        expect_verdict(verifier, "The answer is 5 (i.e. 6).", "5", "wrong")["extracted"] != "5"
    )  # two values


# ---- a concluding sentence that evaluates one expression states the value after its `=`
_STEPS = "We work it out step by step, as the problem asks.\n\n"


def test_a_concluding_evaluation_states_its_right_side(verifier: MathVerifier) -> None:
    pred = "cos(2π/3) = −1/2, and sin(2π/3) = √3/2.\n\nSo cos(2π/3) = −½."
    assert expect_verdict(verifier, pred, "-\\frac{1}{2}", "correct")["method"] == "conclusion"
    expect_verdict(verifier, pred, "3", "wrong")  # never a number inside the evaluated expression
    assert expect_verdict(verifier, _STEPS + "So 12 - 5 = 7.", "7", "correct")["method"] == "conclusion"
    expect_verdict(verifier, _STEPS + "So 12 - 5 = 7.", "5", "wrong")


def test_a_concluding_sentence_with_alternatives_evaluates_nothing() -> None:
    assert _concluding_number(". So, cos(2π/3) = -½.") == "-½"
    assert _concluding_number(". So f(2) = 3 or f(2) = 4.") is None  # two values offered
    assert _concluding_number(". So 3 + 4 = 7, 7 + 1 = 8.") is None  # a list of steps


@pytest.mark.parametrize("pred", ["所以答案是七。", "最终答案：7", "计算得 $3 + 4 = 7$。\n**答案：** 7"])
def test_a_cjk_answer_phrase_after_other_letters(verifier: MathVerifier, pred: str) -> None:
    # Chinese and Japanese write no spaces: `答案` is an answer phrase right after `所以` or `最终`
    assert expect_verdict(verifier, pred, "7", "correct")["method"] == "final_answer"


# ---- unicode glued to a number in prose is part of it (chat UIs write math without LaTeX)
@pytest.mark.parametrize(
    "pred, right, digits",
    [
        ("The answer is 1¾ cups.", "\\frac{7}{4}", "1"),
        ("The answer is 2¹⁰.", "1024", "2"),
        ("The length of the diagonal is √15 cm.", "\\sqrt{15}", "15"),
        ("The angle is π/3.", "\\frac{\\pi}{3}", "3"),
        ("So the area is 3√2.", "3\\sqrt{2}", "3"),
        ("The answer is ½.", "\\frac{1}{2}", "1"),
    ],
)
def test_a_glued_symbol_is_part_of_the_number(
    verifier: MathVerifier, pred: str, right: str, digits: str
) -> None:
    expect_verdict(verifier, pred, right, "correct")
    assert expect_verdict(verifier, pred, digits, "wrong")["extracted"] != digits


@pytest.mark.parametrize(
    "pred, gold",
    [
        ("√" * 2000 + "49", "7"),  # a nested root is never its innermost root nor its radicand
        ("√" * 2000 + "49", "49"),
        ("The area is πr².", "\\pi"),  # pi times a variable is no pi
        ("The area is 2πr.", "2"),
        ("The solution is x ≥ 2.", "2"),  # a bound is no value
        ("Therefore x > 3.", "3"),
        ("There are twenty-one ways.", "1"),  # a compound number word is not its last part
    ],
)
def test_a_number_inside_an_expression_is_no_answer(verifier: MathVerifier, pred: str, gold: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert not verdict.passed and verdict.reason in ("no_answer", "wrong"), verdict.details


def test_a_set_in_braces_in_prose(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, "The solution set is {2, 3}.", "2, 3", "correct")["extracted"] == "{2, 3}"
    expect_verdict(verifier, "The solution set is {2, 3}.", "3", "wrong")
    expect_verdict(
        verifier, "The answer is the triple (1, 2, 3).", "3", "wrong"
    )  # a tuple is never its last entry


@pytest.mark.parametrize(
    "pred, gold",
    [
        ("Result: 7 × 10³", "1000"),  # an operand of a product
        ("The total is 3 + 4.", "4"),
        ("So the product is 6 × 7", "7"),
        ("The value is log₂ 8.", "8"),  # a function's argument
        ("The ratio is x/3.", "3"),
        ("The ratio is x⁄3.", "3"),  # a fraction slash (U+2044)
        ("The total is 4 + x.", "4"),  # an operand before its operator
    ],
)
def test_an_operand_or_argument_is_no_answer(verifier: MathVerifier, pred: str, gold: str) -> None:
    verdict = verifier.verify(_STEPS + pred, gold)
    assert not verdict.passed and verdict.reason in ("no_answer", "wrong"), verdict.details


def test_a_value_after_an_operation_is_stated(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, _STEPS + "There are 5 - 2 = 3 left.", "3", "correct")["extracted"] == "3"
    pred = "8 − 15 = −7\nThe temperature at midnight was −7 degrees."
    assert expect_verdict(verifier, pred, "-7", "correct")["extracted"] == "-7"  # a minus sign, no operator


# ---- another language's `or` / `and` in an answer line: a hedge or a list, as in English
@pytest.mark.parametrize(
    "pred",
    [
        "Ответ: x = 3 или x = 5",
        "答：x = 3 或 x = 5",
        "Réponse : x = 3 ou x = 5",
        "Antwort: 3 oder 5",
        "Ответ: 3 и 5",
    ],
)
def test_a_foreign_connective_joins_values(verifier: MathVerifier, pred: str) -> None:
    assert (
        expect_verdict(verifier, _STEPS + pred, "5", "wrong")["extracted"] != "5"
    )  # never its last value alone
    expect_verdict(verifier, _STEPS + pred, "3, 5", "correct")


# ---- two values assigned in one sentence offer two answers: never the last one alone
@pytest.mark.parametrize(
    "pred",
    ["So x = 3 or x = 5.", "So x = 3 and x = 5.", "So n = 3, or possibly n = 5.", "So a = 3 and b = 5."],
)
def test_a_second_assignment_is_no_answer(verifier: MathVerifier, pred: str) -> None:
    expect_verdict(verifier, _STEPS + pred, "5", "no_answer")


def test_a_chain_of_equalities_is_one_value(verifier: MathVerifier) -> None:
    assert expect_verdict(verifier, _STEPS + "Thus x = 2³ = 8.", "8", "correct")["extracted"] == "8"


def test_a_number_not_assigned_before_an_assignment_offers_nothing(verifier: MathVerifier) -> None:
    # `After step 3, x = 5.`: 3 numbers a step, it is no value assigned, so x = 5 stands alone
    assert expect_verdict(verifier, _STEPS + "After step 3, x = 5.", "5", "correct")["extracted"] == "5"


def test_a_fraction_slash_and_a_plus_minus_belong_to_the_number(verifier: MathVerifier) -> None:
    expect_verdict(verifier, _STEPS + "So we get 5⁄2.", "\\frac{5}{2}", "correct")
    assert (
        expect_verdict(verifier, _STEPS + "So we get 5⁄2.", "2", "wrong")["extracted"] == "5⁄2"
    )  # never the 2
    expect_verdict(verifier, _STEPS + "So x = ±2.", "2, -2", "correct")
    assert (
        expect_verdict(verifier, _STEPS + "So x = ±2.", "2", "wrong")["extracted"] == "±2"
    )  # both signs, not 2


@pytest.mark.parametrize(
    "line",
    [
        "Ответ — 10 км/ч.",
        "Die Antwort lautet 10.",
        "よって、答えは 10 です。",
        "Итак, ответ равен 10.",
        "La réponse finale est 10.",
    ],
)
def test_more_answer_phrases_in_other_languages(verifier: MathVerifier, line: str) -> None:
    pred = "Проверка: $2 + 3 = 5$.\n" + line
    assert expect_verdict(verifier, pred, "10", "correct")["method"] == "final_answer"
    expect_verdict(verifier, pred, "5", "wrong")


# ---- a markdown table that ends the reply with a total row states that total
_TABLE = "| Quantity | Value |\n|---|---|\n| Apples | $3 \\times \\$2 = \\$6$ |\n| Pears | $4 \\times \\$1.50 = \\$6$ |\n"


def test_a_table_total_row(verifier: MathVerifier) -> None:
    pred = _TABLE + "| ~~Total~~ | ~~\\$10~~ |\n| **Total** | **\\$12** |"
    assert expect_verdict(verifier, pred, "12", "correct")["method"] == "conclusion"
    expect_verdict(verifier, pred, "6", "wrong")  # a row's formula is a step
    expect_verdict(verifier, pred, "10", "wrong")  # the struck-out total states nothing


def test_a_table_without_a_total_row_states_no_total(verifier: MathVerifier) -> None:
    pred = _TABLE + "| Plums | 12 |"  # the last row is one more item, not the answer
    assert table_total(pred) is None
    assert verifier.verify(pred, "12").details.get("method") != "conclusion"
