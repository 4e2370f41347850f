"""Findings of red-team rounds 16a and 16b (tests/data/math/external/round16a.yaml, round16b.yaml, held out until
graded once on 7aea15a: 16a 5 false positives / 34 false negatives of 305, 16b 21 / 27 of 316), each as a rule with
its counterpart: the same reply read correct against what it commits to."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.clock import clocks_equal, parse_clock
from rlvr.verifiers.math.parts import part_answers

from grading import expect_verdict, never_correct, read_correct

_BOX = "The count is $\\frac{10 \\cdot 7}{2} = 35$.\n\n**Answer:** $\\boxed{35}$\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # `not correct` as one phrase, and words of error of languages not read before (`languages.NOT_CORRECT_*`)
    (_BOX + "เดี๋ยวก่อน คำตอบนี้ไม่ถูกต้อง", "35"),  # th
    (_BOX + "Čekaj, to nije točno.", "35"),  # hr
    (_BOX + "Не, ово није тачно.", "35"),  # sr
    (_BOX + "Počakaj, to ni prav.", "35"),  # sl
    (_BOX + "ഇല്ല, ഇത് തെറ്റാണ്.", "35"),  # ml: the stem before its vowel sign
    (_BOX + "Diso izany.", "35"),  # mg
    # disowned by structure: a badge, a callout, a superseded tag, a failed verification, the boxed number judged
    (_BOX + "![answer status](https://img.shields.io/badge/answer-retracted-red)", "35"),
    (_BOX + "> [!CAUTION]\n> This result is invalid: the flips were treated as independent.", "35"),
    (
        "Final answer: $\\boxed{35}$ <sub>(superseded — see revision 2 below, which I never finished)</sub>",
        "35",
    ),
    (_BOX + "- [ ] Verify with a brute-force list — **failed**: the listing gives another count.", "35"),
    (
        _BOX
        + "### Known issues\n- The count above treats rotations as distinct, so the boxed number is too large.",
        "35",
    ),
    (_BOX + "35 cannot be trusted.", "35"),
    # a second final value: bare code blocks after the box, an answer line in another language's numerals
    (_BOX + "```\n35\n```\n```\n45\n```", "35"),
    ("Final answer: 8\n\nFinal answer (Chinese): 答案：九", "9"),
    ("Final answer: 8\n\nFinal answer (Chinese): 答案：九", "8"),
    # a supposition refuted (vi), a toy case's check, a format example of an echoed prompt, a part not attempted
    ("Giả sử đáp án là $\\boxed{12}$. Khi đó mỗi cạnh dài $3$, nhưng chu vi phải là $16$, mâu thuẫn.", "12"),
    ("A sanity check on a toy case, $n = 3$: the formula gives $\\boxed{4}$, as a direct count does.", "4"),
    (
        "I could not complete the computation in time.\n\nFormat reminder from the prompt: put your final answer "
        "in the form `Final Answer: $\\boxed{17}$` (replace 17 with your answer).",
        "17",
    ),
    ("(You asked about Q4 only.)\n\n**Q3.** Final answer: 64\n\n**Q4.** (not attempted)", "64"),
    # a tolerance in words; someone else's quoted answer, neither derived nor endorsed
    (
        _BOX.replace("**Answer:** $\\boxed{35}$", "So there are $\\boxed{35}$ diagonals, give or take one."),
        "35",
    ),
    (
        "> **Accepted answer** (★ 312): The expected number of rolls is $\\boxed{42}$.\n\nI can't verify it.",
        "42",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_16_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    # the counterparts: a withdrawal followed by a recount, a note that only explains, a callout that does not judge
    (
        "Broj je $\\boxed{70}$.\n\nČekaj, to nije točno: svaku dijagonalu brojim dvaput. Odgovor je $\\boxed{35}$.",
        "35",
    ),
    (_BOX + "![answer status](https://img.shields.io/badge/answer-verified-green)", "35"),
    (_BOX + "> [!NOTE]\n> This result uses the formula for diagonals.", "35"),
    (_BOX + "```\n35\n```", "35"),  # the box shown again
    ("Final answer: 8\n\n答案：八", "8"),
    ("Giả sử đáp án là $12$. Khi đó chu vi là $16$, mâu thuẫn. Vậy đáp án là $\\boxed{9}$.", "9"),
    (
        "Please put your final answer within \\boxed{}. For example: \\boxed{42}.\n\n$36 - 18 = \\boxed{18}$",
        "18",
    ),
    (
        "$$\\boxed{6}$$ ordered pairs. (If order did not matter there would be only 3.)",  # contrary to the problem
        "6",
    ),
    # a bold closing clause with one value, a clock time in it
    (
        "$$t = \\frac{60}{30} = 2 \\text{ hours}.$$\n\n**The second train catches up at 4:00 PM**, 180 miles on.",
        "4 PM",
    ),
    ("$$t = 2$$\n\n**So the train needs 2 hours to catch up.**", "2"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_16_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_a_bold_clause_is_the_answer_not_the_formula_before_it(verifier: MathVerifier) -> None:
    reply = "$$t = \\frac{60}{30} = 2 \\text{ hours}.$$\n\n**The second train catches up at 4:00 PM**, 180 miles on."
    details = expect_verdict(verifier, reply, "2", "wrong")
    assert details["extracted"] == "4:00 PM"


@pytest.mark.parametrize(
    ("gold", "pred", "same"),
    [
        ("4:00 PM", "16:00", True),
        ("4:00 PM", "4 p.m.", True),
        ("4:00 PM", "4:00 AM", False),  # the unit stripper once dropped the meridiem and graded these equal
        ("12:15 PM", "12:15 AM", False),
        ("12:00 PM", "12 noon", True),
        ("4:30", "4:30 PM", True),  # no meridiem: either half of the day
        ("4:30", "16:30", True),
        ("4:30", "4:40 PM", False),
        ("3:2", "3:2", None),  # two bare `H:M` may be ratios: the value comparison grades them
        ("4", "4 PM", None),  # a bare number is no clock time
    ],
)
def test_clock_times_are_times_of_day(gold: str, pred: str, same: bool | None) -> None:
    assert clocks_equal(gold, pred) is same


def test_a_clock_time_is_read_with_its_markup() -> None:
    parsed = parse_clock("4:00\\text{ p.m.}")
    assert parsed is not None and parsed[0].minutes == 16 * 60 and parsed[1]
    assert parse_clock("25:00") is None and parse_clock("13:00 PM") is None and parse_clock("4:75") is None


def test_clock_verdicts_name_the_reason(verifier: MathVerifier) -> None:
    details = expect_verdict(verifier, "The answer is 4:00 AM", "4:00 PM", "wrong")
    assert details["error"] == "a different time of day"
    expect_verdict(verifier, "The answer is $\\boxed{4{:}00\\text{ PM}}$", "16:00", "correct")


def test_percent_after_a_braced_exponent_marks_the_power(verifier: MathVerifier) -> None:
    # `10^{-2}\%` is drawn as 10⁻²%: a hundredth of a percent (and, the sign being optional, 0.01); never 10^(-0.02)
    expect_verdict(verifier, "$\\boxed{10^{-2}\\%}$", "0.0001", "correct")
    expect_verdict(verifier, "$\\boxed{2^{2}\\%}$", "0.04", "correct")
    expect_verdict(verifier, "$\\boxed{10^{-2}\\%}$", "0.001", "wrong")


def test_an_answers_block_of_labelled_parts_is_all_of_them(verifier: MathVerifier) -> None:
    reply = (
        "**Part (a).** The surface area is $6 \\cdot 2^2 = 24$.\n\n**Part (b).** The volume is $2^3 = 8$.\n\n"
        "**Answers:**\n(a) $24$ cm²\n(b) $8$ cm³"
    )
    details = expect_verdict(verifier, reply, "24, 8", "correct")
    assert details["method"] == "parts"
    expect_verdict(verifier, reply, "8, 24", "wrong")  # the parts are ordered
    expect_verdict(verifier, reply, "8", "wrong")  # one part is not the answer


def test_worked_parts_answer_only_against_a_gold_listing_them(verifier: MathVerifier) -> None:
    reply = (
        "(a) The mean of the data is $\\frac{40}{8} = 5$, as the sum is 40.\nWe check it against the median.\n\n"
        "(b) The variance is $4$, so the standard deviation is $\\sqrt{4} = \\boxed{2}$."
    )
    expect_verdict(verifier, reply, "5, 2", "correct")
    expect_verdict(verifier, reply, "2, 5", "wrong")
    expect_verdict(verifier, reply, "2", "correct")  # read alone, the reply boxes 2


def test_part_answers_needs_markers_counted_from_the_first() -> None:
    def read(part: str) -> str | None:
        return part.strip().rstrip(".") or None

    assert part_answers("(a) 5.\n(b) 7.", read) == "(5, 7)"
    assert part_answers("(b) 5.\n(c) 7.", read) is None  # the parts start late
    assert part_answers("(A) 5.\n(B) 7.", read) is None  # options of a choice, not parts
    assert part_answers("(a) 5.\nWe see that\n(b) 7.", read) is None  # a worked part with no box
    assert part_answers("(a) 5.\nWe see that\n(b) 7.", read, loose=True) == "(5.\nWe see that, 7)"


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        ("Azịza: ₦400\n\nNlele: $600 + 400 = 1000$ ✓", "400"),  # ig answer and check labels, naira
        ("Wangsulan: Rp170.000\n\nPriksa: $170.000 + 30.000 = 200.000$ ✓", "170000"),  # jv, rupiah thousands
        ("Jawaabta: 54 cm²\n\nHubin: $2(9 + 6) = 30$ ✓, ballaca waa 6 cm.", "54"),  # so
        ("Pane: $25\\pi$ cm²\n\nHōʻoia: $2\\pi r = 10\\pi$.", "25\\pi"),  # haw
    ],
)
def test_answer_lines_of_more_languages_and_currencies(verifier: MathVerifier, reply: str, gold: str) -> None:
    read_correct(verifier, reply, gold)
