"""Findings of red-team rounds 23a and 23b (tests/data/math/external/round23a.yaml, round23b.yaml, written against
30bc759 and held out until graded once on it: 23a 19 false positives / 17 false negatives of 333 graded, 23b 59 / 22
of 379), each as a rule with its counterpart, in wording of our own. The ones still open are listed in
tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_SUM = "Also ist die Summe $\\boxed{225}$.\n\n"
_DIAGONALS = "A decagon has $\\frac{10 \\cdot 7}{2} = 35$ diagonals.\n\n$\\boxed{35}$\n\n"

_DIVISORS = "The number of divisors of $360 = 2^3 \\cdot 3^2 \\cdot 5$ is $4 \\cdot 3 \\cdot 2 = 24$.\n\nSo the answer is $\\boxed{24}$.\n\n"
_DIE = "Expected value of a fair die: $\\frac{21}{6} = 3.5$.\n\n\\boxed{3.5}\n\n"
_LOADED = "The die is loaded: face 6 comes up with probability $p$, which is not given.\n\n"
_LATTICE = "Lattice points on the segment from (0,0) to (12,12): $\\gcd(12,12)+1 = 13$.\n\n**Answer:** "

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # a clause of error that opens the sentence, before one that says why; a one-word label before it
    (_SUM + "Das obige Ergebnis ist falsch, ich habe die Aufgabe falsch gelesen.", "225"),
    (_SUM + "Anm.: Das obige Ergebnis ist falsch, ich habe die Aufgabe falsch gelesen.", "225"),
    (_SUM + "Zastrzeżenie: powyższy wynik jest błędny.", "225"),
    (_SUM + "Предупреждение: ответ выше неверен.", "225"),
    (_SUM + "Забележка: този отговор не е верен.", "225"),
    # `disregard this result` in more languages and words
    (_DIAGONALS + "Ne upoštevajte tega rezultata.", "35"),
    (_DIAGONALS + "Занемарите овај резултат.", "35"),
    (_DIAGONALS + "No tingueu en compte aquest resultat.", "35"),
    (_DIAGONALS + "Huwag pansinin ang sagot na ito.", "35"),
    (_DIAGONALS + "Abaikan jawapan ini.", "35"),
    (_DIAGONALS + "Don't go by this number.", "35"),
    (_DIAGONALS + "Pay no attention to the boxed value.", "35"),
    (_DIAGONALS + "The step above has a slip, so this value should not be trusted.", "35"),
    # a check's inequality in a program's or plain text's spelling; two values side by side `off by`
    (_DIVISORS + "24 != 30", "24"),
    (_DIVISORS + "Verification: count from the listing = 30; formula = 24. 24 =/= 30.", "24"),
    (_DIVISORS + "Cross-check with the listing: $24 <> 30$.", "24"),
    (_DIVISORS + "Let me double check with a direct count: 30 entries, so 24 vs 30 - off by 6.", "24"),
    (_DIAGONALS + "Check: $45 - 10 = 35$ but my listing gave 30: $35 \\not= 30$.", "35"),
    # `if ... would` of el he id vi uk is hi ja
    (_LOADED + "Αν το ζάρι ήταν δίκαιο, η πιθανότητα θα ήταν $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "אילו הקובייה הייתה הוגנת, ההסתברות הייתה $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "Seandainya dadu itu adil, peluangnya akan menjadi $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "Giá như con xúc xắc cân đối thì xác suất sẽ là $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "Якби кубик був чесним, ймовірність була б $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "Ef teningurinn væri sanngjarn, væru líkurnar $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    (_LOADED + "यदि पासा निष्पक्ष होता, तो प्रायिकता $\\boxed{\\frac{1}{6}}$ होती।", "\\frac{1}{6}"),
    (_LOADED + "もしサイコロが公正だったら、確率は $\\boxed{\\frac{1}{6}}$ だっただろう。", "\\frac{1}{6}"),
    # `resp.`, `illetve`, `vel`, `o sea`, `plus or minus one` beside the box
    (_LATTICE + "$\\boxed{13}$ resp. 14", "13"),
    (_LATTICE + "$\\boxed{13}$ illetve 14", "13"),
    (_LATTICE + "$\\boxed{13}$ vel 14", "13"),
    (_LATTICE + "$\\boxed{13}$ o sea, 14", "13"),
    ("So the count is $\\boxed{31}$, plus or minus one.", "31"),
    # counting idioms in a gloss; more gloss markers
    ("Two dozen eggs minus four broken ones leaves $24 - 4 = 20$.\n\n$\\boxed{20}$ (a gross)", "20"),
    ("Two dozen eggs minus four broken ones leaves $24 - 4 = 20$.\n\n$\\boxed{20}$ (a baker's dozen)", "20"),
    ("$5 \\times 12 = 60$.\n\n$\\boxed{60}$; in other words, half a gross.", "60"),
    ("$5 \\times 12 = 60$.\n\n$\\boxed{60}$, viz. three score and ten.", "60"),
    ("There are $6 \\cdot 12 = \\boxed{72}$ pencils, i.e. half a gross and a dozen.", "72"),
    # a correction pointed to that never comes
    ("The answer is $\\boxed{8}$. (See the erratum at the end.)", "8"),
    ("Paths on the grid... I get $\\boxed{24}$. (corrected below)", "24"),
    (_DIAGONALS + "I spotted a slip above; the corrected solution is in my next message.", "35"),
    # a note on the box marked by a sign (`†`, `¹`, `(*)`) that opens another reading
    ("Lattice points: x runs over 0..12.\n\n$\\boxed{13}$†\n\n† or 11, if the endpoints do not count.", "13"),
    ("Lattice points: x runs over 0..12.\n\n$\\boxed{13}$¹\n\n¹ Excluding the endpoints gives 11.", "13"),
    (
        "Posts: $24 + 1 = 25$.\n\nSo there are $\\boxed{25}$ (*).\n\n"
        "(*) Some textbooks don't count the starting post, which would give 24 — it's ambiguous.",
        "25",
    ),
    # cards: a dotenv flag, an HTTP status, a cross or a `wrong answer` of ja/ko, a failing grade
    (_DIE + "```env\nANSWER=3.5\nANSWER_OK=0\n```", "3.5"),
    (_DIE + "X-Answer-Status: 410 Gone", "3.5"),
    (_DIE + "判定：×", "3.5"),
    (_DIE + "결과: 오답", "3.5"),
    (_DIE + "Grade: F (answer does not match the check)", "3.5"),
    # refutations in id and vi; a review's withdrawal
    ("Jadi $x = \\boxed{1}$.\n\nCek: $3 \\ne 2{,}83$, tidak memenuhi.", "1"),
    ("Đáp số: $\\boxed{1}$\n\nKiểm tra: $1 > 2$? Không thỏa mãn.", "1"),
    (
        "$\\boxed{42}$\n\n> **Review:** The final answer does not follow from step 3.\n\n**Author:** Agreed, withdrawing.",
        "42",
    ),
    # glosses in other brackets and lower-case Roman numerals; a Portuguese `Obs.:` that withdraws
    ("Therefore the count is $\\boxed{14}$ ‹XVI›.", "14"),
    ("Answer: $\\boxed{14}$ (xv)", "14"),
    (
        "Resposta: $\\boxed{43}$\n\nObs.: esta resposta está incorreta; o enunciado pedia $3 \\cdot 4^3 - 5 = 187$.",
        "43",
    ),
    ("$\\boxed{60}$\n\n訂正：正しくは 61 です。", "60"),
    # a value called the true, real or accurate one
    ("Answer: $\\boxed{12}$.\n\nThe real answer, of course, is 14.", "12"),
    (
        "$\\boxed{24}$\n\nRecounting by cases, the accurate count comes to 30 (the centre paths were missed).",
        "24",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_23_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    (_SUM + "Ein häufiger Fehler ist, das Vorzeichen zu vergessen.", "225"),
    (_SUM + "Status: alles richtig.", "225"),
    (_DIAGONALS + "Note: this is the standard formula $n(n-3)/2$.", "35"),
    (_DIAGONALS + "You can trust this value: the formula is standard.", "35"),
    (_DIVISORS + "Check: $2^3 \\cdot 3^2 \\cdot 5 = 360$ ✓, and 360 != 0.", "24"),
    (_LOADED + "Αν το ζάρι είναι δίκαιο, η πιθανότητα είναι $\\boxed{\\frac{1}{6}}$.", "\\frac{1}{6}"),
    ("Two dozen eggs minus four broken ones leaves $24 - 4 = 20$.\n\n$\\boxed{20}$ (a score)", "20"),
    ("$5 \\times 12 = 60$.\n\n$\\boxed{60}$, namely three score.", "60"),
    ("There are $6 \\cdot 12 = \\boxed{72}$ pencils, i.e. half a gross.", "72"),
    ("Answer: $\\boxed{12}$.\n\nThe real answer, of course, is 14.", "14"),
    ("$\\boxed{8}$[^1]\n\n[^1]: Some books give $\\boxed{7}$.", "8"),  # (others' value, no reading left open)
    (
        "Lattice points: x runs over 0..12.\n\n$\\boxed{13}$†\n\n† Endpoints included, as the problem says.",
        "13",
    ),
    ("Minsta värdet är $\\boxed{4}$.\n\nKontroll: $f(x) = (x-3)^2 + 4 \\ge 4$, med likhet för $x = 3$.", "4"),
    (_DIE + "```env\nANSWER=3.5\nANSWER_OK=1\n```", "3.5"),
    (_DIE + "X-Answer-Status: 200 OK", "3.5"),
    (_DIE + "결과: 정답", "3.5"),
    (
        "Resposta: $\\boxed{43}$\n\nObs.: esta resposta está incorreta; o enunciado pedia $3 \\cdot 4^3 - 5 = 187$.",
        "187",
    ),
    ("Therefore the count is $\\boxed{14}$ ‹XIV›.", "14"),
    ("Thus the answer is $\\boxed{12}$!", "12"),
    ("Ergo: $\\boxed{12}$ — da bin ich mir sicher.", "12"),
    # (an inequality that does not close its sentence judges no value; a judgement under a condition is none)
    (_DIVISORS + "Verification: 24 != 25, so the other candidate 25 is excluded.", "24"),
    (_DIVISORS + "Note that 24 != 0, so the division is fine.", "24"),
    (_SUM + "Hinweis: Die Summe ist falsch, wenn man die Eins nicht mitzählt.", "225"),
    # found in review: a gloss that restates the value as an expression or in other units is no second value;
    # a denied refutation; `off by` beside an estimate
    ("The answer is $\\boxed{64}$ (2⁶).", "64"),
    ("So $\\boxed{120}$, i.e. 5!.", "120"),
    ("The answer is $\\boxed{16}$, i.e. 4 squared.", "16"),
    ("So $\\boxed{60}$ minutes — that is, one hour.", "60"),
    ("The answer is $\\boxed{8}$, i.e. 4 pairs of socks.", "8"),
    ("The answer is $\\boxed{0.5}$, i.e. 50 percent.", "0.5"),
    ("La respuesta es $\\boxed{18}$ kilómetros, o sea, 18000 metros.", "18"),
    (
        "$\\boxed{5}$\n\nVerification: we must check for extraneous solutions. $x=5$: LHS=3, RHS=3 ✓. "
        "So no solution must be thrown out.",
        "5",
    ),
    ("$\\boxed{12}$\n\nCheck: 12 vs the estimate 10 — off by 2, within the estimate's rounding.", "12"),
    # a zh/ja correction label before the revised value (found in review): the box is revised
    ("$\\boxed{60}$\n\n訂正：正しくは 61 です。", "61"),
    # (doubt alone offers no other value and withdraws nothing: the documented policy)
    ("Thus the answer is $\\boxed{12}$‽", "12"),
    ("Ergo: $\\boxed{12}$ — glaube ich zumindest, sicher bin ich nicht.", "12"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_23_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
