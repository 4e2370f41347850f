"""Open false positives of earlier rounds closed by rule this session, and the findings of red-team rounds 24a and
24b (tests/data/math/external/round24a.yaml, round24b.yaml), each as a rule with its counterpart, in wording of our
own. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_SUM = "Their sum is $3n = 84$, so $n = 28$ and the largest is $30$.\n\nThe largest integer is $\\boxed{30}$.\n\n"
_SHIFTS = (
    "Each of the 7 days has 2 shifts, so there are $2 \\cdot 7 = 14$ shifts.\n\nAnswer: $\\boxed{14}$, i.e. "
)
_BOX_132 = "Then $x^2 - x = 144 - 12 = 132$.\n\n**Final answer:** $\\boxed{132}$"
_BOX_500 = "The count is $1000 - 500 = 500$.\n\nSo $\\boxed{500}$. "
_PROFIT = "The weekly profit is 546 - 105 = $441.\n\n#### 441\n\n"
_BOX_24 = "Three boxes weigh $72$ kg, so $3w = 72$ and $w = 24$.\n\nThe answer is $\\boxed{24}$.\n\n"
_AREA = "The legs are $6$ and $8$, so the area is $\\frac{1}{2}\\cdot 6\\cdot 8 = 24$.\n\nSo the area is $24$ square units.\n\n"
_TILES = "The floor is $24$ m² and a tile is $0.25$ m², so $\\frac{24}{0.25} = 96$ tiles.\n\n"
_WALLS = "The wall area is $4 \\cdot 15 = 60$ m², less $5$ m² of door and windows.\n\nSo we must paint $55$ m².\n\n"
_PAIRS = "Handshakes among 12 people: $\\binom{12}{2} = 66$.\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # an XML record after the answer: its attributes and short elements are fields (HTML's own tags keep theirs
    # hidden), so a status that rejects the answer withdraws it and another answer value is a second answer
    (_SUM + '<result answer="30" valid="false"/>', "30"),
    (_SUM + "```\n<answer value='30' verified=no/>\n```", "30"),
    (_SUM + '<result answer="31"/>', "30"),
    (_SUM + '<result answer="31"/>', "31"),
    (_PAIRS + "<answer>66</answer>\n<self_check>inconsistent</self_check>", "66"),
    (_PAIRS + "<answer>66</answer>\n<status>failed</status>", "66"),
    # LaTeX's drawn crosses are the marks they draw
    ("So $E = \\boxed{30}$ \\ding{55}", "30"),
    ("So $E = \\boxed{30}$ \\xmark", "30"),
    ("So $E = \\boxed{30}$ \\XSolidBrush", "30"),
    # number words of more languages, Greek numerals with their keraia and the old CJK tens in a gloss
    (_SHIFTS + "kumi na tano.", "14"),
    (_SHIFTS + "viisitoista.", "14"),
    (_SHIFTS + "tizenöt.", "14"),
    (_SHIFTS + "fimmtán.", "14"),
    (_SHIFTS + "vijftien.", "14"),
    (_SHIFTS + "piętnaście.", "14"),
    (_SHIFTS + "δεκαπέντε.", "14"),
    (_SHIFTS + "lima belas.", "14"),
    ("Answer: $\\boxed{30}$ (tri deg a dau)", "30"),
    ("Answer: $\\boxed{14}$ (ιεʹ)", "14"),
    ("Number of edges: $\\boxed{30}$ 〔卅二〕", "30"),
    ("Number of edges: $\\boxed{25}$ 【廿四】", "25"),
    # two values apart by less than 1% are two values: a rounding is told by its written decimals alone
    ("**Answer:** $2024$, or $2025$ if the doubling happens at the end of the year.", "2024"),
    ("Odgovor: $\\boxed{500}$ ili $501$.", "500"),
    # withdrawals: more languages and words, a sentence naming the value it denies, the work `above` called
    # wrong, a fix promised in a later reply, an introduction that calls the value below wrong
    (_BOX_132 + " Le mpendulo ayilungile.", "132"),
    (_BOX_132 + "\n\n> Ev bersiv şaş e.", "132"),
    (_BOX_132 + "\n\nИн ҷавоб нодуруст аст.", "132"),
    (_BOX_132 + "\n\nlol jk, ignore me", "132"),
    (_BOX_132 + "\n\nRetracted pending a recount.", "132"),
    (_BOX_500 + "On reflection, $500$ can't be right: I forgot that $2$ itself counts twice.", "500"),
    (_BOX_500 + "On reflection, $500$ can't be right: I forgot that $2$ itself counts twice.", "2"),
    (_BOX_500 + "That can't be right: I forgot that $2$ itself counts twice.", "2"),
    (_BOX_500 + "The answer cannot be 500.", "500"),
    (
        _BOX_500 + "**Proof that the answer cannot be 500.** Two counts twice, so fewer than $500$ remain.",
        "500",
    ),
    (_PROFIT + "_Update: the profit above is wrong — I'll post the fixed figure in a reply below._", "441"),
    (_PROFIT + "The weekly profit above is wrong.", "441"),
    (_PROFIT + "I'll post the corrected value in a reply below.", "441"),
    # a counterfactual holding the only box, its conditional verb before or after the box (verb-final languages)
    (_AREA + "لو كان الضلعان $6$ و$10$ لكانت المساحة $\\boxed{30}$.", "30"),
    (_AREA + "اگر ساق‌ها $6$ و $10$ بودند، مساحت $\\boxed{30}$ می‌شد.", "30"),
    (_AREA + "ถ้าด้านประกอบมุมฉากยาว $6$ และ $10$ พื้นที่ก็คงจะเป็น $\\boxed{30}$", "30"),
    (_AREA + "Dik kenarlar $6$ ve $10$ olsaydı alan $\\boxed{30}$ olurdu.", "30"),
    (_AREA + "Ha a befogók $6$ és $10$ lennének, a terület $\\boxed{30}$ lenne.", "30"),
    (_AREA + "Kama pande zingekuwa $6$ na $10$, eneo lingekuwa $\\boxed{30}$.", "30"),
    ("주사위가 공정하다면 확률은 $\\boxed{\\frac{1}{6}}$이었을 것이다.", "\\frac{1}{6}"),
    # a note marked on the box past its unit (`tiles.[^1]`) or by `‡` that sets another value in its place
    (
        _TILES
        + "We need $\\boxed{96}$ tiles.[^1]\n\n[^1]: If cut tiles cannot be reused, order 104 instead.",
        "96",
    ),
    (_TILES + "We need $\\boxed{96}$‡ tiles.\n\n‡ 100 if you include the usual 4% breakage allowance.", "96"),
    # a run-on into a task the reply set itself: a numbered heading, or a new question after a `####` line
    ("So $x = 5$.\n\n## Instruction 2 (More Difficult)\n\nSolve $2y + 2 = 3y + 1$.\n\nHence $y = 1$.", "1"),
    (
        "48 + 24 = 72 clips.\n#### 72\n\nTom has 5 apples and buys 3 more. How many apples does he have?\n"
        "Tom has 5 + 3 = 8 apples.\n#### 8",
        "8",
    ),
    # a struck-out last box with nothing after it: withdrawn (the working's value does not stand in for it)
    ("So the largest is $52$.\n\nThe answer is <strike>$\\boxed{52}$</strike>.", "52"),
    ("So the largest is $52$.\n\nSo $\\xcancel{\\boxed{52}}$ — I mis-set the middle term.", "52"),
    # a box the line labels a wrong answer, a box put in a note to an auto-grader
    (_WALLS + "> ⚠️ **Common wrong answer:** $\\boxed{60}$ (forgetting the door and windows).", "60"),
    # a note whose sentence calls another value the true one; a revision after a prose conclusion
    ("$$\\boxed{17389}$$\n\nNote: some tables list $17387$ here, so the true value is $17387$.", "17389"),
    (
        "Distance $= 60 \\times 8.35 = 501$ km.\n\nSo they travel **501 km**. Actually it is 500 km — the 8.35 h "
        "includes a 1-minute stop.",
        "501",
    ),
    # the last formula of a closing line whose bold value is the answer
    ("### Answer\nThe maximum height of the ball is **35 m**, reached $2$ seconds after launch.", "2"),
    # an `Update:` that recomputes, a Polish `wait` before a revision
    (
        _TILES
        + "So the answer is $\\boxed{96}$.\n\n**Update:** the tiles are 0.4 m on a side, so we need 150 tiles.",
        "96",
    ),
    (
        "Odpowiedź: 24 m².\n\nChwileczkę — pomyliłem długość z obwodem. Długość wynosi 6,5 m, więc pole to 26 m².",
        "24",
    ),
    # an answer label called the correct one, in other languages, after the box
    (
        "The circumradius is $\\boxed{\\dfrac{65}{8}}$.\n\nĐáp số chính xác: $\\dfrac{65}{4}$.",
        "\\frac{65}{8}",
    ),
    ("Also $\\boxed{12}$.\n\nRichtige Antwort: 13.", "12"),
    # `or` of more languages beside the answer; a check run after the box reported failed
    ("Odpowiedź: 48 km/h, wzgl. 50 km/h przy liczeniu średniej arytmetycznej.", "48"),
    ("Odgovor: $\\boxed{500}$ ili $501$.", "501"),
    (_BOX_24 + "```python\n>>> 3 * 24 == 70\nFalse\n```", "24"),
    (
        _BOX_24
        + "```\n$ pytest -q\nF\nFAILED test_answer.py::test_box - assert 72 == 70\n1 failed in 0.02s\n```",
        "24",
    ),
    (_BOX_24 + "Expected 70, got 72.", "24"),
    (_BOX_24 + "| check | expected | got | result |\n|---|---|---|---|\n| 3w | 70 | 72 | ✗ |", "24"),
    (_BOX_24 + "Self-check: 3·24 → 72; target 70; Δ = 2 ⇒ mismatch.", "24"),
    (_BOX_24 + "w = 24 ⟹ 3w = 72 ⊭ total (70)", "24"),
    (
        "For the record, here is what my first method gave, although the second shows it cannot be right:\n\n"
        "$$\\boxed{126}$$",
        "126",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_24_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


# (reply, the value it commits to)
_COMMITTED = [
    (_SUM + '<result answer="30" valid="true"/>', "30"),
    (_SUM + '<span title="wrong">shown text</span>', "30"),
    (_SUM + '```\n<answer value="30" verified="yes"/>\n```', "30"),
    (_PAIRS + "<answer>66</answer>\n<self_check>consistent</self_check>", "66"),
    ("Check each root: $x=3$ \\ding{55}, $x=5$ \\ding{51}. So $\\boxed{5}$", "5"),
    ("So $\\boxed{5}$ \\cmark", "5"),
    ("So $\\boxed{5}$ \\ding{51}", "5"),
    (_SHIFTS + "kumi na nne.", "14"),
    (_SHIFTS + "neljätoista.", "14"),
    (_SHIFTS + "tizennégy.", "14"),
    (_SHIFTS + "fjórtán.", "14"),
    (_SHIFTS + "veertien.", "14"),
    (_SHIFTS + "czternaście.", "14"),
    (_SHIFTS + "δεκατέσσερα.", "14"),
    (_SHIFTS + "empat belas.", "14"),
    ("Answer: $\\boxed{32}$ (tri deg a dau)", "32"),
    ("Answer: $\\boxed{14}$ (ιδʹ)", "14"),
    ("Answer: $\\boxed{25}$ 【廿五】", "25"),
    # (a word alone that is a word of another language too is no number: `moja` is Polish `my`, `het` Dutch `the`;
    # Danish `tres` (60) alone stays Spanish three)
    ("Odpowiedź: moja odpowiedź to $\\boxed{25}$.", "25"),
    ("Het antwoord is $\\boxed{7}$.", "7"),
    ("La mayor es tres.\n\nRespuesta: tres", "3"),
    ("Antwoord: twintig diagonalen.", "20"),
    ("Year: $2024$.", "2024"),
    ("The mean is $\\frac{1}{3}$, i.e. about $0.333$.", "\\frac{1}{3}"),
    (_BOX_132 + " Le mpendulo ilungile.", "132"),
    (_BOX_500 + "On reflection, that can't be right: it is 499.", "499"),
    (_BOX_500 + "The answer cannot be smaller, since every such $m$ is counted.", "500"),
    (_PROFIT + "The estimate above was rough, but the profit is exact.", "441"),
    ("Here is the value, which the second method confirms:\n\n$$\\boxed{126}$$", "126"),
    ("The pillar takes $1$ m², so the answer is $95$, fewer than $96$.", "95"),
    ("The answer is 7 o'clock.", "7"),
    # (after a sentence that stated the answer, a counterfactual box is a closing remark)
    (_AREA + "Ha a befogók $6$ és $10$ lennének, a terület $\\boxed{30}$ lenne.", "24"),
    (_AREA + "Dik kenarlar $6$ ve $10$ olsaydı alan $\\boxed{30}$ olurdu.", "24"),
    (_AREA + "Kama pande zingekuwa $6$ na $10$, eneo lingekuwa $\\boxed{30}$.", "24"),
    ("Ha $x = 3$, akkor a terület $\\boxed{12}$.", "12"),
    (
        _TILES
        + "We need $\\boxed{96}$ tiles.[^1]\n\n[^1]: The room is a plain rectangle, so no tile is cut.",
        "96",
    ),
    ("So $x = 5$.\n\n## Instruction 2 (More Difficult)\n\nSolve $2y + 2 = 3y + 1$.\n\nHence $y = 1$.", "5"),
    (
        "48 + 24 = 72 clips.\n#### 72\n\nTom has 5 apples and buys 3 more. How many apples does he have?\n"
        "Tom has 5 + 3 = 8 apples.\n#### 8",
        "72",
    ),
    ("She sold 48 + 24 = 72 clips.\n#### 72", "72"),
    (_WALLS + "> ⚠️ **Common wrong answer:** $\\boxed{60}$ (forgetting the door and windows).", "55"),
    ("So the largest is $52$.\n\nThe answer is <strike>$\\boxed{50}$</strike> $\\boxed{52}$.", "52"),
    ("So the largest is ~~$\\boxed{50}$~~ $52$.", "52"),
    ("$$\\boxed{17389}$$\n\nNote: some tables list $17387$ here, so the true value is $17387$.", "17387"),
    ("### Answer\nThe maximum height of the ball is **35 m**, reached $2$ seconds after launch.", "35"),
    (
        _TILES
        + "So the answer is $\\boxed{96}$.\n\n**Update:** the tiles are 0.4 m on a side, so we need 150 tiles.",
        "150",
    ),
    (
        "Odpowiedź: 24 m².\n\nChwileczkę — pomyliłem długość z obwodem. Długość wynosi 6,5 m, więc pole to 26 m².",
        "26",
    ),
    ("At that moment, the train has travelled **300 km**.", "300"),
    # (found in review: words of prose near the new rules that judge nothing)
    ("Of 40 students, 12 failed, so $40-12=\\boxed{28}$ passed.\n\nCheck: 28 passed + 12 failed = 40.", "28"),
    ("$\\boxed{12}$\n\nAll 3 tests passed, 0 failed.", "12"),
    ("The estimate is $\\boxed{3.14}$.\n\nRelative error: 0.05%, well within tolerance.", "3.14"),
    ("She needs $20 - 8 = \\boxed{12}$ more stamps. She was 12 short of her goal.", "12"),
    (
        "Answer: $\\boxed{12}$\n\nWith the wrong formula n(n-1): expected 12, got 6 — a mismatch, so we did not use it.",
        "12",
    ),
    ("Het antwoord is $\\boxed{12}$ (een dozijn).", "12"),
    ("Az eredmény $\\boxed{12}$ (egy tucat).", "12"),
    ("**Step 3.** Multiply: the total is $3 \\times 4 = 12$.", "12"),
    ("For the auto-grader, my final answer is $\\boxed{8}$.", "8"),
    ("$\\boxed{\\frac{1}{7}}$ (or about 0.142).", "\\frac{1}{7}"),
    ("The answer is $\\boxed{7}$.\n\nThe figure above is wrong in scale but the numbers are right.", "7"),
    (
        "The answer is $\\boxed{7}$.\n\nI'll post the fixed figure in a reply below; the answer doesn't change.",
        "7",
    ),
    ("The answer is $\\boxed{7}$. I was just kidding about the trick question earlier; it really is 7.", "7"),
    ("The answer is $\\boxed{7}$. The answer cannot be 7.5, since people are whole.", "7"),
    (
        "$\\boxed{96}$ tiles.[^1]\n\n[^1]: If the border were included it would be 120, but the problem excludes it.",
        "96",
    ),
    ("Odgovor je $\\boxed{12}$ ali 13 bi bilo da brojimo i nulu, što ne radimo.", "12"),
    ("The answer is 7.\n\n~~$\\boxed{8}$~~", "7"),
    (
        "The circumradius is $\\boxed{\\dfrac{65}{8}}$.\n\nĐáp số chính xác: $\\dfrac{65}{4}$.",
        "\\frac{65}{4}",
    ),
    ("$$\\boxed{17389}$$\n\nNote: some tables list $17387$ here, which is the 1999th prime.", "17389"),
    (
        "Distance $= 60 \\times 8.35 = 501$ km.\n\nSo they travel **501 km**. Actually it is 500 km — the 8.35 h "
        "includes a 1-minute stop.",
        "500",
    ),
    (_BOX_24 + "```python\n>>> 3 * 24 == 72\nTrue\n```", "24"),
    (_BOX_24 + "```\n$ pytest -q\n.\n1 passed in 0.01s\n```", "24"),
    (_BOX_24 + "Expected 72, got 72.", "24"),
    (
        "$c = 18$.\n\n$\\boxed{18}$\n\nCheck: 18 × 2 + 12 × 4 = 84 ✓ — 4 short of the 88 of one more cow, as expected.",
        "18",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_24_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
