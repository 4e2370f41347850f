"""Findings of red-team rounds 15a and 15b (tests/data/math/external/round15a.yaml, round15b.yaml, held out until
graded once on 0356a97: 15a 6 false positives of 281, 15b 30 of 278), each as a rule with its counterpart. The ones
still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_NOT_COMMITTED = [
    # retraction idioms with no word of error, in English and other languages (`languages.RETRACT_WORDS_*`)
    ("So there are $\\boxed{4}$ ordered pairs.\n\nHmm, I spoke too soon.", "4"),
    ("So there are $\\boxed{4}$ ordered pairs.\n\nBelay that.", "4"),
    ("**Answer: 15**\n\nI jumped the gun there. Let me redo this more carefully later.", "15"),
    (
        "Donc la probabilité vaut $\\boxed{\\dfrac{3}{8}}$.\n\nOublie ça, je retire ce que j'ai dit.",
        "\\frac{3}{8}",
    ),
    (
        "Por lo tanto, la probabilidad es $\\boxed{\\dfrac{3}{8}}$.\n\nOlvida eso; retiro lo dicho.",
        "\\frac{3}{8}",
    ),
    (
        "Also ist die Wahrscheinlichkeit $\\boxed{\\dfrac{3}{8}}$.\n\nKommando zurück – vergiss das.",
        "\\frac{3}{8}",
    ),
    ("따라서 확률은 $\\boxed{\\dfrac{3}{8}}$.\n\n방금 답은 취소하겠습니다.", "\\frac{3}{8}"),
    ("Dolayısıyla olasılık $\\boxed{\\dfrac{3}{8}}$.\n\nBunu geri alıyorum.", "\\frac{3}{8}"),
    ("Vậy xác suất là $\\boxed{\\dfrac{3}{8}}$.\n\nTôi rút lại câu trả lời này.", "\\frac{3}{8}"),
    (
        'My computation gives $m+n = \\boxed{107}$.\n\nOfficial solution: "...hence $\\boxed{109}$."\n\n'
        "I can't reconcile the two.",
        "107",
    ),
    # a negation after the value, in languages that put it there
    ("答えは $\\boxed{12}$ ではありません。", "12"),
    ("답은 $\\boxed{12}$이 아닙니다.", "12"),
    ("Cevap $\\boxed{12}$ değildir.", "12"),
    ("उत्तर $\\boxed{12}$ नहीं है।", "12"),
    ("پاسخ $\\boxed{12}$ نیست.", "12"),
    # a one-line summary or the answer in words stating another value; a doubt left open
    ("So $\\boxed{34650}$\n\n**In summary:** 34560 distinct arrangements.", "34650"),
    ("Final answer: $\\boxed{16}$\n\nAnswer in words: fourteen.", "16"),
    ("So $20+4 = 24$.\n\n$\\boxed{24}$\n\nOr is it?", "24"),
    # other values offered by structure: a data field, a table of candidates, a footnote on the answer
    ('```json\n{"final_answer": 40, "alternatives": [45]}\n```', "40"),
    (
        "So $n=9$.\n\n| candidate | confidence |\n|---|---|\n| **9** | 0.55 |\n| 10 | 0.45 |\n\nFinal: **9**",
        "9",
    ),
    ("So $\\boxed{10}$ bits.*\n\n\\* 9 if leading zeros are dropped differently.", "10"),
    # a verdict after a table of checks; a withdrawal whose reason names a bound; an answer struck by its class
    (
        "So.\n$$\\boxed{24}$$\n\n| Check | Status |\n|---|---|\n| $n = 3$: 2 | ✅ |\n| reflections | ❌ |\n\n"
        "**Result: ❌ — the boxed value does not answer it. Do not use it.**",
        "24",
    ),
    (
        "Atbilde: $\\boxed{210^\\circ}$\n\nTas ir nepareizi — trijstūra leņķis nevar būt lielāks par 180°.",
        "210",
    ),
    (
        "So the third angle is $\\boxed{210^\\circ}$.\n\nThat is wrong — an angle cannot be larger than 180°.",
        "210",
    ),
    ('The perimeter is $2(7+5)=24$.\n\nAnswer: <span class="line-through">24</span>', "24"),
    # a euro amount with dotted thousands is not a decimal; reported speech; an aside's value
    ("**Antwort:** Das Auto verliert insgesamt 12.500 €.", "12.5"),
    ("The sum would be $\\frac{23(7+95)}{2} = 1173$, in case that's useful.", "1173"),
    # a check line after a dash (my), a supposition in Italian
    ("မိန်းကလေး = ၄၀ − ၁၅ = ၂၅\n\nအဖြေ - မိန်းကလေး ၂၅ ဦး\n\nစစ်ဆေးချက် - ၂၅ + ၁၅ = ၄၀", "40"),
    (
        "Ammettiamo per assurdo che il massimo sia $\\boxed{9}$. Allora $f(2)=9$, nessuna contraddizione. Ritento.",
        "9",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_an_uncommitted_value_is_never_correct(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("Donc $\\boxed{7}$. Je retire 5 de 12 pour vérifier : 12 - 5 = 7.", "7"),  # `retirer`: to subtract
        ("So the answer is $\\boxed{4}$. I'll double-check: $2 \\cdot 2 = 4$.", "4"),
        ("答えは $\\boxed{12}$ です。", "12"),
        ("Cevap $\\boxed{12}$ olur.", "12"),
        ("So $\\boxed{34650}$\n\n**In summary:** 34650 distinct arrangements.", "34650"),
        ("Final answer: $\\boxed{16}$\n\nAnswer in words: sixteen.", "16"),
        ("Is it 24? Yes: $\\boxed{24}$.", "24"),
        # an answer phrase in a question commits to nothing (round 14b #184: it contested the box)
        (
            "Hmm, wait. So maybe the answer is $10$? No — two fives only give $100 \\mid 10!$.\n\nSo the smallest $n$ is "
            "$\\boxed{15}$.",
            "15",
        ),
        ('```json\n{"final_answer": 40, "alternatives": []}\n```', "40"),
        ("```yaml\nanswer: 18\nrejected_candidates: [12, 24]\n```", "18"),
        (
            "So.\n$$\\boxed{24}$$\n\n| n | count |\n|---|---|\n| 3 | 2 |\n| 4 | 6 |\n\nThe table agrees with $(n-1)!$.",
            "24",
        ),
        ('The perimeter is $2(7+5)=24$.\n\nAnswer: <span class="font-bold">24</span>', "24"),
        ("**Antwort:** Das Auto verliert insgesamt 12.500 €.", "12500"),
        ("**Antwort:** 3,50 €", "3.5"),
        ("The answer is \\$12.50.", "12.5"),
        (
            "Adding, $2r = 28$, so $r = 14$, and $b = 12$.\n\nThe question asks for the red marbles.\n\n∴ 14",
            "14",
        ),
    ],
)
def test_a_committed_value_is_still_read(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
