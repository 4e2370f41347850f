"""Red-team round 8 (issue 13): answer lines and check lines. An answer sentence or label in every language the
answer-label vocabulary has (`Răspuns:`, `Vastaus:`, `따라서 답은 ...입니다`, `Het antwoord is`, `Jadi, jawabannya
adalah`); a check line after the answer (labelled as a check in any language, or a statement marked ✓) states no
new answer, also when the reply was cut inside it; a bold value inside an answer line's sentence after a bold
label; a closing line after the last formula that states a value (after a table, in a bold blockquote); a
paragraph that derives the answer again another way. Each rule with its wrong counterpart (the gold is another
value of the same text), and the reason asserted."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.checks import check_line, checks_at_end_dropped
from rlvr.verifiers.math.closing import closing_statement
from rlvr.verifiers.math.commitment import rederivations
from rlvr.verifiers.math.extract import extract_answer
from rlvr.verifiers.math.truncation import cut_in_check

from grading import assert_linear, expect_verdict


# ---- an answer sentence or label of every language the labels are read in
@pytest.mark.parametrize(
    "line, right",
    [
        ("Răspuns: $1275$", "1275"),
        ("Răspunsul este $1275$.", "1275"),
        ("Vastaus: $128$", "128"),
        ("Vastaus on $128$.", "128"),
        ("따라서 답은 $4$입니다.", "4"),
        ("Het antwoord is $\\frac{3}{4}$.", "\\frac{3}{4}"),
        ("Jadi, jawabannya adalah $\\frac{17}{12}$.", "\\frac{17}{12}"),
        ("Jadi jawapannya ialah $12$.", "12"),
        ("Svaret er $24$.", "24"),
        ("Svaret är $24$.", "24"),
        ("Odpowiedź to $14$.", "14"),
        ("Odpověď je $10$.", "10"),
        ("Η απάντηση είναι $108$.", "108"),
        ("Vậy đáp án là $36$.", "36"),
        ("Per tant, la resposta és $3$.", "3"),
        ("Kwa hiyo jibu ni $12$.", "12"),
        ("Válasz: $5$", "5"),
        ("Jibu: $12$", "12"),
        ("উত্তর হল $27$।", "27"),
        ("الجواب هو $42$.", "42"),
        ("התשובה היא $3$.", "3"),
        ("คำตอบคือ $9$", "9"),
        ("Yani cevap $5$'tir.", "5"),  # verb-final: the formula right after the noun, then the copula
        ("अतः उत्तर $6$ है।", "6"),
        ("بنابراین پاسخ $5$ است.", "5"),
    ],
)
def test_an_answer_sentence_or_label_of_another_language_answers(
    verifier: MathVerifier, line: str, right: str
) -> None:
    # the last formula before it is an intermediate: only the answer line gives the right value
    pred = f"$$a = 2550$$\n$$b = 7$$\n\n{line}\n\n$c = 99$"
    details = expect_verdict(verifier, pred, right, "correct")
    assert details["method"] == "final_answer"
    for wrong in ("2550", "7", "99"):
        expect_verdict(verifier, pred, wrong, "wrong")


@pytest.mark.parametrize(
    "text",
    [
        "Het antwoordis $5$.",  # a sentence's words are whole: no glued copula
        "Svaret erhålls ur $5$.",  # `er` is not the start of another word
        "Tämä vastaus onnistuu, kun $x = 5$.",  # `on` is not the start of another word
        "대답은 $5$입니다.",  # `대답` is a reply, not the answer: `답은` is a word of its own
        "Bu cevap doğru, çünkü $x = 5$.",  # a verb-final noun with no formula and copula after it
        "Bu cevap $x = 5$ için doğru.",
    ],
)
def test_a_sentence_word_inside_another_word_is_no_answer_phrase(text: str) -> None:
    found = extract_answer(text)
    assert found is None or found.method != "final_answer", found


# ---- a check line after the answer states no new answer
_RO = (
    "Rezolvare: Calculăm pas cu pas.\n\n$\\frac{50\\cdot 51}{2}$\n$50\\cdot 51 = 2550$\n$$2550/2 = 1275$$\n\n"
    "Deci:\n\n{answer}\n\n{check}"
)


@pytest.mark.parametrize(
    "answer, check",
    [
        ("Răspuns: $1275$", "Verificare: $50\\cdot 51 = 2550$ ✓"),  # a label of both
        (
            "Deci suma este $1275$.",
            "Verificare: $50\\cdot 51 = 2550$ ✓",
        ),  # no answer label: the check still drops
        ("Deci suma este $1275$.", "Verificare: $50\\cdot 51 = 2550$"),  # a check label alone
        ("Deci suma este $1275$.", "$50\\cdot 51 = 2550$ ✓"),  # a mark alone, on a value stated before
        ("Deci suma este $1275$.", "$50\\cdot 51 = 2550$ \u2714\ufe0f"),  # the emoji form of the mark
        ("Deci suma este $1275$.", "**Probe:** $50\\cdot 51 = 2550$ ✔"),
        ("Deci suma este $1275$.", "검산: $50\\cdot 51 = 2550$ ✓"),
        ("Deci suma este $1275$.", "验算：$50\\cdot 51 = 2550$"),
        ("Deci suma este $1275$.", "Sanity check: $50\\cdot 51 = 2550$ ✅"),
    ],
)
def test_a_check_line_after_the_answer_states_no_new_answer(
    verifier: MathVerifier, answer: str, check: str
) -> None:
    pred = _RO.replace("{answer}", answer).replace("{check}", check)
    expect_verdict(verifier, pred, "1275", "correct")
    expect_verdict(verifier, pred, "2550", "wrong")


def test_a_check_line_before_a_sign_off_or_after_a_box_states_no_new_answer(verifier: MathVerifier) -> None:
    signed = _RO.replace("{answer}", "Deci suma este $1275$.").replace(
        "{check}", "Verificare: $50\\cdot 51 = 2550$ ✓\n\nSper că ajută!"
    )
    expect_verdict(verifier, signed, "1275", "correct")
    expect_verdict(verifier, signed, "2550", "wrong")
    boxed = "$50\\cdot 51 = 2550$, so the sum is $\\boxed{1275}$.\n\nVerificare: $50\\cdot 51 = 2550$ ✓"
    expect_verdict(verifier, boxed, "1275", "correct")
    expect_verdict(verifier, boxed, "2550", "wrong")
    # no check: a sign-off alone drops nothing (the reply's last value answers, as before)
    assert checks_at_end_dropped("$x = 4$\n\nHope this helps!") == "$x = 4$\n\nHope this helps!"


@pytest.mark.parametrize(
    "section",
    [
        "### Verificare\n\n$50\\cdot 51 = 2550$, iar $2550/2 = 1275$.\n\nTotul se potrivește.",
        "**Проверка**\n$50\\cdot 51 = 2550$",
        "**Tarkistus:**\n\n$50\\cdot 51 = 2550$",
        "## 검산\n$50\\cdot 51 = 2550$",
    ],
)
def test_a_check_section_under_a_heading_states_no_new_answer(verifier: MathVerifier, section: str) -> None:
    pred = _RO.replace("{answer}", "Deci suma este $1275$.").replace("{check}", section)
    expect_verdict(verifier, pred, "1275", "correct")
    expect_verdict(verifier, pred, "2550", "wrong")


def test_a_check_section_that_finds_an_error_may_revise(verifier: MathVerifier) -> None:
    pred = _RO.replace("{answer}", "Deci suma este $1275$.").replace(
        "{check}", "### Verificare\n\n$50\\cdot 51 = 2550$, wait, that is wrong: the sum is $1300$."
    )
    expect_verdict(verifier, pred, "1275", "wrong")


def test_a_marked_line_that_states_a_value_first_is_the_answer(verifier: MathVerifier) -> None:
    # `x = 4 ✓`: 4 was not stated before, so the marked line is the answer, marked (no check of an earlier one)
    pred = "$2x + 3 = 11$\n$2x = 8$\n$x = 4$ ✓"
    expect_verdict(verifier, pred, "4", "correct")
    expect_verdict(verifier, pred, "8", "wrong")
    assert checks_at_end_dropped(pred) == pred


@pytest.mark.parametrize(
    "line, want",
    [
        ("Verificare: $50\\cdot 51 = 2550$ ✓", True),
        ("Tarkistus: $994 = 7\\cdot 142$", True),
        ("**Controle:** $\\cos^2 45^\\circ = \\frac12$", True),
        ("$2x = 12$ ✓", True),
        ("Check: $3 + 5 = 8$ ✗", False),  # failed
        ("Check: $3 + 5 = 8$, wait, that is wrong", False),  # finds an error: may revise
        ("Check: the answer is $8$ ✓", False),  # names the answer: a commitment of its own
        ("Check: $\\boxed{8}$", False),
        ("Checking the table gives $8$.", False),  # no label: a sentence about checking
        ("Answer: $8$", False),
    ],
)
def test_what_a_check_line_is(line: str, want: bool) -> None:
    assert check_line(line) is want


def test_a_check_line_after_a_box_or_answer_phrase_revises_nothing(verifier: MathVerifier) -> None:
    # a concluding `so` inside the check would otherwise read as a revision of the answer line
    pred = "$a = 3$, $b = 4$.\n\nAnswer: $7$\n\nCheck: so $3 + 4 = 7$ ✓"
    expect_verdict(verifier, pred, "7", "correct")
    expect_verdict(verifier, pred, "4", "wrong")
    wrong_check = "$a = 3$, $b = 4$.\n\nAnswer: $7$\n\nCheck: so $3 + 4 = 8$ ✗, wait, the answer is $8$."
    expect_verdict(verifier, wrong_check, "8", "correct")  # a failed check that revises is no check line
    expect_verdict(verifier, wrong_check, "7", "wrong")


# ---- a reply cut off inside a check line after a finished answer sentence: the answer stands
_CUT = "所以概率为 $\\frac{5}{12}$。\n\n验算：总情况数为 $12$，有利情况数为 $5$，所以概率确实是 $\\frac{5}{1"


def test_a_reply_cut_inside_a_check_keeps_its_answer(verifier: MathVerifier) -> None:
    expect_verdict(verifier, _CUT, "\\frac{5}{12}", "correct")
    expect_verdict(verifier, _CUT, "\\frac{5}{1}", "wrong")
    expect_verdict(verifier, _CUT, "12", "wrong")
    english = "So the probability is $\\frac{5}{12}$.\n\nCheck: there are $12$ cases, $5$ favourable, so $\\frac{5}{1"
    expect_verdict(verifier, english, "\\frac{5}{12}", "correct")
    # a check cut before it came back to the answer (round 7 #303) might still find an error: no answer
    early = "所以 $a^3+b^3=91$。\n\n验证：$3^3+4^3=27+"
    expect_verdict(verifier, early, "91", "no_answer")
    assert cut_in_check(early) is None
    # cut inside a line that is no check: a draft, no answer (as before)
    draft = "So the probability is $\\frac{5}{12}$.\n\nNext we count the cases: there are $12$ cases, so $\\frac{5}{1"
    expect_verdict(verifier, draft, "\\frac{5}{12}", "no_answer")
    assert cut_in_check(draft) is None


# ---- a bold value in an answer line's sentence after a bold label
@pytest.mark.parametrize(
    "line, right, wrong",
    [
        ("**Answer:** Sam has **27** marbles left.", "27", "30"),
        ("**Answer:** There are **12** coins.", "12", "5"),
        ("**Respuesta:** Sam tiene **27** canicas.", "27", "30"),
        (
            "**Answer**: Sam has **27** marbles left.",
            "27",
            "30",
        ),  # the label's emphasis closes before its colon
        ("**Final Answer**: The total is **27** dollars.", "27", "30"),
    ],
)
def test_a_bold_value_after_a_bold_answer_label(
    verifier: MathVerifier, line: str, right: str, wrong: str
) -> None:
    pred = f"He has 45 - 15 = 30 left, then 5 fewer.\n\n{line}"
    details = expect_verdict(verifier, pred, right, "correct")
    assert details["method"] == "final_answer"
    expect_verdict(verifier, pred, wrong, "wrong")


# ---- a closing line after the last formula that states a value
_TABLE = (
    "| $k$ | $k^2$ | running total |\n|---|---|---|\n| 1 | 1 | 1 |\n| 2 | 4 | 5 |\n| 3 | 9 | 14 |\n"
    "| 4 | 16 | 30 |\n| 5 | 25 | 55 |\n\n"
)
_QUOTE = "Since $7^2 = 49 \\le 50 < 64 = 8^2$, these are $n = 1, 2, \\ldots, 7$.\n\n"


@pytest.mark.parametrize(
    "pred, right, wrong",
    [
        (_TABLE + "The sum of the first five squares is **55**.", "55", "30"),
        (_TABLE + "The sum of the first five squares is 55.", "55", "25"),
        (_QUOTE + "> **There are 7 such integers.**", "7", "49"),
        (_QUOTE + "> There are **7** such integers.", "7", "49"),
    ],
)
def test_a_closing_line_after_the_last_formula_states_the_answer(
    verifier: MathVerifier, pred: str, right: str, wrong: str
) -> None:
    details = expect_verdict(verifier, pred, right, "correct")
    assert details["method"] == "conclusion"
    expect_verdict(verifier, pred, wrong, "wrong")


@pytest.mark.parametrize(
    "after",
    [
        "\n\n> The book says there are 8 such integers.",  # a plain blockquote may quote someone else
        "\n\nThe sum is 55, and the largest square is 25.",  # two numbers: which one?
        "\n\nThe sum is 55. The count is 5.",  # two sentences
        "\n\nThe sum is 55 more than expected.",  # qualified (`more than`)
        " The sum is 55.",  # on the formula's own line: not this rule's
    ],
)
def test_what_no_closing_statement_is(after: str) -> None:
    assert closing_statement(after) is None


# ---- a paragraph that derives the answer again another way
_ALT = (
    "Let the integers be $n - 2$, $n$, $n + 2$. Their sum is $3n = 78$, so $n = 26$.\n\n"
    "The largest of the three is $n + 2 = 28$.\n\n**Final answer:** $28$\n\n"
)


def test_an_alternative_approach_that_arrives_at_the_answer_offers_no_other(verifier: MathVerifier) -> None:
    same = _ALT + (
        "**Alternative approach:** Divide the sum by $3$ to get the middle integer $78 / 3 = 26$; the largest is "
        "two more, $28$. Both approaches agree."
    )
    expect_verdict(verifier, same, "28", "correct")
    expect_verdict(verifier, same, "26", "wrong")
    # one that arrives elsewhere offers a second answer: a hedge, right for no gold
    other = _ALT + "**Alternative approach:** Divide the sum by $3$: the middle one, $78 / 3 = 26$, is it."
    expect_verdict(verifier, other, "28", "wrong")
    rest, offered = rederivations("\n\nAnother method: $3 + 4 = 7$.", "8")
    assert not rest.strip() and offered == ["7"]


@pytest.mark.parametrize(
    "opener",
    ["**Alternative approach:**", "Alternatively:", "Another way:", "**Method 2:**", "### Second method\n"],
)
def test_every_opener_of_a_rederivation(verifier: MathVerifier, opener: str) -> None:
    same = (
        _ALT
        + f"{opener} divide the sum by $3$: the middle one is $78 / 3 = 26$. The largest is two more, $28$."
    )
    expect_verdict(verifier, same, "28", "correct")
    expect_verdict(verifier, same, "26", "wrong")
    other = _ALT + f"{opener} divide the sum by $3$: the middle one is $78 / 3 = 26$. The largest is $27$."
    expect_verdict(verifier, other, "28", "wrong")
    expect_verdict(verifier, other, "27", "wrong")


def test_check_lines_stay_linear() -> None:
    for pad in ("Check: 7 ✓\n", "7 ✓\n", "✓\n", "8 ✓\n"):
        assert_linear(
            lambda n, pad=pad: extract_answer("x" * n + " 8\n\nThe sum is $7$.\n" + pad * (n // len(pad))),
            25_000,
        )


# ---- a reply in labelled parts with a box each: one answer per part, in the order of the parts
_PARTS = (
    "**(a)** The minimum of $f(x) = x^2 - 4x + 9$ is $f(2) = 5$, so the answer to (a) is $\\boxed{5}$.\n\n"
    "**(b)** On $[0, 5]$ the maximum is $f(5) = 25 - 20 + 9 = 14$, so (b) is $\\boxed{14}$."
)


@pytest.mark.parametrize(
    "pred",
    [
        _PARTS,
        "Part 1: $\\gcd(48, 18) = \\boxed{5}$.\nPart 2: the other one is $\\boxed{14}$.",
        "a) We get $\\boxed{5}$.\nb) Then $9 + 5 = \\boxed{14}$.",
        "**(i)** We get $\\boxed{5}$.\n\n**(ii)** Then $9 + 5 = \\boxed{14}$.",
        "### Part 1\nWe get $\\boxed{5}$.\n### Part 2\nThen $\\boxed{14}$.",
    ],
)
def test_boxes_of_labelled_parts_answer_in_order(verifier: MathVerifier, pred: str) -> None:
    details = expect_verdict(verifier, pred, "5, 14", "correct")
    assert details["method"] == "parts"
    expect_verdict(verifier, pred, "14, 5", "wrong")  # the parts are ordered
    expect_verdict(verifier, pred, "5", "wrong")  # one part is not the answer
    expect_verdict(verifier, pred, "(5, 14)", "correct")


@pytest.mark.parametrize(
    "pred",
    [
        "(a) We get $\\boxed{5}$.\n(c) Then $\\boxed{14}$.",  # the markers skip a part
        "(b) We get $\\boxed{5}$.\n(c) Then $\\boxed{14}$.",  # ... or start late
        "(ii) We get $\\boxed{5}$.\n(iii) Then $\\boxed{14}$.",
        "(i) We get $\\boxed{5}$.\n(iii) Then $\\boxed{14}$.",
        "So $\\boxed{3}$.\n(a) We get $\\boxed{5}$.\n(b) Then $\\boxed{14}$.",  # a box before the first part
        "(a) We get $\\boxed{5}$, or $\\boxed{6}$.\n(b) Then $\\boxed{14}$.",  # a part with two values
    ],
)
def test_what_no_answer_in_parts_is(verifier: MathVerifier, pred: str) -> None:
    found = extract_answer(pred)
    assert found is None or found.method != "parts", found
    assert not verifier.verify(pred, "5, 14").passed


def test_a_part_with_no_box_answers_only_against_a_gold_listing_the_parts(verifier: MathVerifier) -> None:
    pred = "(a) We get $5$.\n(b) Then $\\boxed{14}$."
    found = extract_answer(pred)
    assert found is not None and found.method == "boxed"  # read alone, the reply boxes 14
    expect_verdict(verifier, pred, "14", "correct")
    expect_verdict(verifier, pred, "5, 14", "correct")  # (round 16: a gold listing the parts reads them all)
    expect_verdict(verifier, pred, "14, 5", "wrong")
