"""Findings of red-team rounds 13a and 13b (tests/data/math/external/round13a.yaml, round13b.yaml, held out until
graded once: 13b on 693211e, 43 false positives; 13a on 811272a, 19), each as a rule with its counterpart."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import reads_only

# replies that offer, withdraw or contest their value: wrong against it, whatever else they say
_NOT_COMMITTED = [
    # another language's `or` in a bracket after the box, and `maybe` / `could also be` in other languages
    ("Svaret är $\\boxed{12}$ (eller 13, om man räknar båda ändarna).", "12"),
    ("Odpowiedź: $\\boxed{12}$ (lub 13, jeśli liczymy końce).", "12"),
    ("Válasz: $\\boxed{12}$ (vagy 13, ha mindkét véget számoljuk).", "12"),
    ("答えは $\\boxed{12}$（または両端を数えるなら 13）。", "12"),
    ("Het antwoord is $\\boxed{12}$, al kan het ook 13 zijn.", "12"),
    ("Svaret är $\\boxed{12}$, men det kan också vara 13.", "12"),
    # English hedges outside the first marker list
    ("So the count is $\\boxed{12}$, though 13 is defensible too.", "12"),
    ("$$\\boxed{12}$$\n\nA case can be made for 13 as well.", "12"),
    ("So the answer is $\\boxed{12}$.\n\nMy confidence is split evenly between this and 13.", "12"),
    ("So $\\boxed{12}$ ($\\pm 1$ depending on whether both ends count).", "12"),
    ("I get $\\boxed{12}$ (13 under the other convention).", "12"),
    ("The answer is $12$, though I'd want to double-check whether it should be $13$.", "12"),
    # a box inside a counterfactual opened by `without` or a negative conditional
    ("Without the distinct-digits restriction, the answer would be $\\boxed{36}$.", "36"),
    ("Sin la restricción, la respuesta sería $\\boxed{36}$.", "36"),
    ("Ohne die Einschränkung wäre die Antwort $\\boxed{36}$.", "36"),
    ("不考虑这个限制的话，答案是 $\\boxed{36}$。", "36"),
    ("制限がなければ、答えは $\\boxed{36}$ になる。", "36"),
    ("제한이 없다면 답은 $\\boxed{36}$이다.", "36"),
    ("Suppose, for contradiction, that the largest such $n$ is $\\boxed{12}$. Then $13$ also works. Hence there is "
     "no largest such $n$.", "12"),
    # withdrawals with no new value
    ("Så svaret är $\\boxed{56}$.\n\nVänta, det stämmer inte – varje handskakning räknas två gånger.", "56"),
    ("לכן $\\boxed{56}$.\n\nרגע, זה לא נכון: כל לחיצת יד נספרה פעמיים.", "56"),
    ("Kaya $\\boxed{56}$.\n\nTeka, mali iyon: nabilang nang dalawang beses.", "56"),
    ("$$\\boxed{12}$$\n\n(Rechnung stimmt so nicht — bitte ignorieren.)", "12"),
    ("$$\\boxed{20}$$\n\nOn second thought, I don't stand by this.", "20"),
    ("$$\\boxed{15}$$\n\nThis answer is unreliable; please treat the problem as unsolved.", "15"),
    ("$$\\boxed{6}$$\n\nOh — I solved for $x$, but the question asks for $y$.", "6"),
    ("$$\\boxed{240}$$\n\nEdit: the above solves the version where the books are together. I'll redo this.", "240"),
    ("So the circumference is $\\boxed{28\\pi}$.\n\nOh no, I used the diameter as the radius.", "28\\pi"),
    ("Therefore, there are $\\boxed{20}$ lines.\n\nThis double-counts the two diagonals, though.", "20"),
    ("**Final Answer:** 64\n\n**Correction:** the answer above should not be used.", "64"),
    ("Answer: 5\n\nP.S. The coin here is biased ($p = 0.3$), so the fair-coin answer doesn't apply.", "5"),
    ("Odpowiedź: $36^\\circ$.\n\nChwila, coś się nie zgadza — pytanie dotyczy największego kąta.", "36"),
    ("$$\\frac{1}{2} + \\frac{2}{3} = \\boxed{\\frac{7}{6}}.$$\n\nHmm, that's bigger than 1, which a probability "
     "can't be.", "\\frac{7}{6}"),
    ("所以答案是 $\\boxed{120}$。\n等等，这超过了总人数 60，不可能。", "120"),
    ("答え：10 通り\n\n……いや、これだと端に白玉が来る並びを除いていない。", "10"),
    ("$$p = \\boxed{\\frac{3}{8}}$$\n\nBut the probability can't exceed $\\frac14$, so I've got a sign error "
     "somewhere.", "\\frac{3}{8}"),
    # two final values, neither revised
    ("So the count is $15$.\n\n#### 15\n\nThe answer is 12.", "15"),
    ("Réponse : 45 km.\n\nAu retour, $20 \\times 2 = 40$ km.\n\nRéponse : 40 km.", "40"),
    ("**Answer: 14**\n\nExplanation: $7 \\times 3 = 21$ seats in total, which is the answer.", "14"),
    ("So it takes $\\boxed{20}$ minutes.\n\n### Summary\n- Net rate: 2 L/min\n- Time to fill: **25 minutes**", "20"),
    ("$\\boxed{15}$\n\nNote: both 15 and 12 should be accepted as correct for this problem.", "15"),
    # a source's answer reported, not the reply's own
    ("Laut Musterlösung sei die Antwort $\\boxed{12}$; das kann ich nicht nachvollziehen.", "12"),
    ("Según el solucionario, la respuesta es $\\boxed{12}$, pero yo obtengo $15$.", "12"),
    ("Some solutions online give $\\boxed{12}$ for this problem.", "12"),
    ("> The answer is $\\boxed{12}$.\n\nThat's what the forum post claims, but it double counts one case.", "12"),
    # a bracketed aside at the end, and a reply cut right after its answer phrase
    ("周长约为 $31.4$ 厘米。\n（顺便一提：面积约为 $3.14 \\times 5^2 = 78.5$ 平方厘米。）", "78.5"),
    ("Total = 25 + 60 + 20 = 105 minutes.\nSo the whole trip takes 105 minutes (1 hour 45 minutes).", "45"),
    ("Total: €24 + €21 = €45\nShe pays €45 in total. (If she pays with a €50 note, she gets €5 back.)", "5"),
    ("所以 $x = 9$。\n但是题目问的是这个数的平方，所以答案是", "9"),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_an_uncommitted_value_is_never_correct(verifier: MathVerifier, reply: str, value: str) -> None:
    assert not verifier.verify(reply, value).passed, reply


# the same shapes committing to one value: right
_COMMITTED = [
    ("Svaret är $\\boxed{12}$ (eller $\\frac{24}{2}$).", "12"),  # `or` restating the same value
    ("So the answer is $\\boxed{12}$, though the check takes a while: $3 \\cdot 4 = 12$.", "12"),
    ("The answer should be $\\frac{3}{8}$, unless the coin is biased, in which case it depends on $p$.", "\\frac{3}{8}"),
    ("Without loss of generality $a \\le b$; then the answer is $\\boxed{36}$.", "36"),
    ("Suppose, for contradiction, that two colours suffice. Then an odd cycle is 2-coloured, impossible. Hence the "
     "minimum number of colours is $3$.", "3"),
    ("$$\\boxed{56}$$\n\nVänta, det stämmer: varje handskakning räknas en gång.", "56"),
    ("**Final Answer:** 64\n\n**Update:** the answer above used the wrong pair of sides. With $b = 12$: "
     "$A = 48$.\n\n**Answer (revised):** 48", "48"),
    ("Answer: Rs. 45 in total.\n\nRéponse : 45.", "45"),
    ("So it takes $\\boxed{20}$ minutes.\n\n### Summary\n- Net rate: **2 L/min**\n- Time to fill: 20 minutes", "20"),
    ("So the whole trip takes 105 minutes (1 hour 45 minutes).", "105"),
    ("She pays €45 in total. (If she pays with a €50 note, she gets €5 back.)", "45"),
    ("答え：10 通り\n\nこれだと条件を満たす。", "10"),
    ("Theorem 2 says the sum is $\\boxed{12}$.", "12"),
    ("According to the Pythagorean theorem, $c = \\boxed{5}$.", "5"),
    ("$$\\boxed{120}$$\n\nThat's bigger than 100, as expected for $5!$.", "120"),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_a_committed_value_is_still_read(verifier: MathVerifier, reply: str, value: str) -> None:
    assert verifier.verify(reply, value).reason == "correct", reply


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # a section on the mistake to avoid after the answer explains it (`**Why not $48?** A common mistake ...`)
        ("### ✅ Final Answer:\n**\\$50**\n\n---\n\n**Why not \\$48?** A common mistake is to add 20% back: "
         "$40 \\times 1.2 = 48$. That's wrong because the 20% was taken off the original price.", "50", "48"),
        # a value denied in bold or as money is rejected, not offered (`not **48**`, `not \\$48`)
        ("The total is $\\boxed{50}$ dollars, and it is certainly not **48**, maybe more.", "50", "48"),
        # a bold concluding sentence after a table states the value its copula ends on
        ("| $n$ | sum |\n|---|---|\n| 19 | 361 |\n| 20 | 400 |\n\n* The pattern is $n^2$.\n\n**Therefore, the sum of "
         "the first 20 odd numbers is 400.**", "400", "20"),
        # a heading `Final Answer` whose value is the box under it is one answer with the box, not a second one
        ("### Final Answer\n\nThe area of the circle is \\(\\boxed{25\\pi}\\) square units.\n\n### Summary\n"
         "- Radius: \\(5\\)\n- Area: \\(25\\pi\\)", "25\\pi", "5"),
    ],
)  # fmt: skip
def test_round_13_answers_read(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    reads_only(verifier, reply, right, other)


@pytest.mark.parametrize(
    "reply",
    [
        "The answer is either $\\boxed{\\sqrt{2}}$ or its reciprocal.",  # another value named by its relation
        "We check each one. Therefore there are 3 cases where x is 5.",  # the copula of a subordinate clause
    ],
)
def test_round_13_values_not_stated(verifier: MathVerifier, reply: str) -> None:
    assert not verifier.verify(reply, "\\sqrt{2}" if "sqrt" in reply else "5").passed, reply
