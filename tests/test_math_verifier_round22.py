"""Findings of red-team rounds 22a and 22b (tests/data/math/external/round22a.yaml, round22b.yaml, written against
4674c0f and held out until graded once on it: 22a 20 false positives / 18 false negatives of 452 graded, 22b 30 / 7
of 302), and the open false positives of round 21 fixed with them, each as a rule with its counterpart, in wording
of our own. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.contested import contested

from grading import assert_linear, never_correct, read_correct

_NOTE = "Counting: there are $\\gcd(12,30) + 1 = 7$ of them.\n\nThe answer is $\\boxed{7}$.[^1]\n\n[^1]: "

_MAX = "The maximum value is $\\boxed{11}$.\n\n"
_CHECKED = "$$\\boxed{4}$$\n\nCheck: $\\sqrt{9} = 3$ and $4 - 1 = 3$.\n\n"
_ROOT = (
    "Squaring: $(x-2)(x-9) = 0$.\n\nThe smaller root is the one I'll take: $\\boxed{2}$.\n\n"
    "Plugging back in: $\\sqrt{2+7} = 3$ while $2 - 5 = -3$. "
)
_DIAGONALS = "A decagon has $\\frac{10 \\cdot 7}{2} = 35$ diagonals.\n\n$\\boxed{35}$\n\n"
_ANGLE = "Each angle is $\\frac{180^\\circ}{3}$.\n\nSo each angle measures $\\boxed{60}$ degrees "
_WALK = "Walking 4 km at 4 km/h takes 1 hour = 60 minutes.\n\nSo the walk takes $\\boxed{60}$ minutes "
_HALVED = "Since the two groups are unordered, we divide by 2: $48 / 2 = 24$.\n\n"
_LARGER = "We have $a + b = 19$ and $ab = 84$, giving $\\{7, 12\\}$. The larger is $\\boxed{12}$.\n\n"
_AREA = "Its area is $\\frac12 \\cdot 5 \\cdot 12 = 30$ and its perimeter is $30$ as well.\n\n"
_ODD = "The sum of the first 20 odd numbers is $20^2 = 400$.\n\n$$\\boxed{400}$$\n\n"
_REVENUE = "Revenue grew from \\$3.1bn to \\$4.5bn, an increase of **\\$1.4bn**."
_FRAME = "The outer rectangle is $8 \\times 10 = 80$.\n\nThe area of the frame is $\\boxed{48}$.\n\n"
_READINGS = (
    "With at least one woman: $84 - 4 = 80$. There are two natural interpretations here:\n\n"
    "- unordered committees: **80**\n- committees with a designated chair: **240**\n\n"
)
_EST = (
    "Arvutame: $7 \\cdot 8 - 5 = 51$.\n\nVastus: $\\boxed{51}$\n\nKontroll:\n"
    "vasak pool $= 7 \\cdot 8 - 5 = 51$\nparem pool $= 6 \\cdot 9 - 1 = 53$\nEi klapi.\n"
)
_SQRT = "So $x = 0$ or $x = 4$; since $x - 1 \\ge 0$, $x = 4$.\n\n$$\\boxed{4}$$\n\n"
_TAKEN = "Solve $3x - 2 = 11$: I'll take $x = 4$.\n\n$\\boxed{4}$\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # a one-value gloss after the answer, in any script or in words, bracketed or after `that is` / `i.e.`
    ("المساحة = 32 (٤٨ وحدة مربعة)", "32"),
    ("The frame's area is ３２ (that is, 48 square units).", "32"),
    ("The frame's area is 32 (that is, 48 square units).", "32"),
    ("Total refund: $\\boxed{32}$ yuan (大写：肆拾捌元整).", "32"),
    ("There are 14 valid pairs, so $\\boxed{14}$ — that is, XVI.", "14"),
    ("$\\boxed{60}$ — i.e. five dozen and one.", "60"),
    ("$\\boxed{60}$, i.e. 61.", "60"),
    ("The total is 60, i.e. sixty-one.", "60"),
    ("The rope is $\\boxed{300}$ cm (310 cm).", "300"),
    # a markdown footnote on the box that offers another reading
    (_NOTE + "If the endpoints are excluded, 5.", "7"),
    (_NOTE + "If the endpoints are excluded, 5.", "5"),
    # a note or addendum whose first clause withdraws the box, in any language, revises it
    (_MAX + "Nachtrag: Ich habe mich verrechnet, richtig ist $f(3) = 12$.", "11"),
    (_MAX + "补充：上面算错了，最大值应为 12。", "11"),
    (_MAX + "Примечание: тут ошибка, правильный ответ 12.", "11"),
    (_MAX + "Note: I miscalculated, the right value is 12.", "11"),
    (_MAX + "N.B. the box above is off by one; it should be 12.", "11"),
    (_MAX + "Počkať, táto odpoveď je nesprávna.", "11"),
    # a withdrawal after a check judges the answer the check tested, in any language
    (_CHECKED + "Mali ito.", "4"),
    (_CHECKED + "ይህ ትክክል አይደለም።", "4"),
    (_CHECKED + "This is not correct.", "4"),
    # refutations of the boxed root in more words and languages; a mismatch in Japanese; a failed mark mid-line
    (_ROOT + "So $x = 2$ is an artifact of squaring.", "2"),
    (_ROOT + "Hence $x=2$ must be thrown out.", "2"),
    (_ROOT + "Also ist $x = 2$ eine Scheinlösung.", "2"),
    (_ROOT + "Por lo tanto, $x = 2$ es una solución extraña.", "2"),
    (_ROOT + "Donc $x = 2$ est une solution parasite.", "2"),
    (_TAKEN + "検算：$3 \\times 4 - 2 = 10$、11 と合わない。", "4"),
    (_TAKEN + "Plug-back: $3(4) - 2 = 10 \\neq 11$ ❌. So the right value is $x = \\frac{13}{3}$.", "4"),
    # answer cards of more syntaxes: semicolon rows, TOML and INI fields, a red light, a LaTeX cross, a zero grade
    (_DIAGONALS + "Answer;45\nMethod;n(n-3)/2", "35"),
    (_DIAGONALS + "Answer: 35 🔴 (failed self-check)", "35"),
    (_DIAGONALS + "```toml\n[result]\nanswer = 45\nverified = true\n```", "35"),
    (_DIAGONALS + "```toml\n[result]\nanswer = 35\nverified = false\n```", "35"),
    (_DIAGONALS + "```ini\n[result]\nanswer=35\ncorrect=no\n```", "35"),
    (_DIAGONALS + '```toml\nanswer = 35\nself_check = "FAIL"\n```', "35"),
    (
        _DIAGONALS
        + "\\begin{tabular}{ll}\nAnswer & 35 \\\\\nCheck & \\texttimes{} (mismatch) \\\\\n\\end{tabular}",
        "35",
    ),
    (_DIAGONALS + "Self-grade: 0/10", "35"),
    (_DIAGONALS + "Status: 🔴", "35"),
    # glosses in Ethiopic numerals, Turkish words, long worded glosses, approximate and fraction glosses
    (_ANGLE + "(፷፩).", "60"),
    (_ANGLE + "(altmış bir).", "60"),
    (_WALK + "(that is, sixty-one with the one-minute pause at the gate).", "60"),
    (_WALK + "[≈ 61].", "60"),
    ("So $x = \\boxed{0.5}$ (i.e. $\\tfrac{1}{3}$).", "\\frac{1}{2}"),
    # `if ... would` in Dutch, Polish, Czech, Swedish; German `bzw.`; `disregard this result` in French and Chinese
    (_HALVED + "Als de volgorde ertoe deed, zou het antwoord $\\boxed{48}$ zijn.", "48"),
    (_HALVED + "Gdyby kolejność miała znaczenie, odpowiedź byłaby $\\boxed{48}$.", "48"),
    (_HALVED + "Kdyby na pořadí záleželo, odpověď by byla $\\boxed{48}$.", "48"),
    (_HALVED + "Om ordningen spelade roll skulle svaret vara $\\boxed{48}$.", "48"),
    ("Antwort: 24 bzw. 25.", "24"),
    (_LARGER + "Ne tenez pas compte de ce résultat.", "12"),
    (_LARGER + "请忽略上面的答案。", "12"),
    # `or about thirty-one`; a German `Tsd.`; a value called the correct one; a FIXME; a check's `24 \\ne 30`
    (_AREA + "The area is $\\boxed{30}$, or about thirty-one once the rounding is accounted for.", "30"),
    ("Kosten: $18 \\times 2500 = 45000$ Euro.\n\nAntwort: 45 Tsd. €", "45"),
    (_ODD + "The correct value is 420.", "400"),
    (_ODD + "FIXME: off by one somewhere, recheck before submitting.", "400"),
    (_ODD + "(see correction below)", "400"),
    # a scale after the last number (`45 tys.`, `$1.8bn`); a leading tilde on an answer line; a bold total in dollars
    ("Zysk wyniesie 45 tys. zł.", "45"),
    ("The company is now worth $1.8bn.", "1.8"),
    ("By Pick's theorem, $I = 24 - 10 + 1 = 15$.\n\n**Answer:** ~15", "15"),
    (_REVENUE, "4500000000"),
    # a revision inside a closing offer; readings listed and both called defensible; a disclaimer before the box
    (_FRAME + "I'd be happy to explain why it's actually 32 rather than the 48 I boxed.", "48"),
    (_READINGS + "Both are defensible.", "80"),
    (_READINGS + "Both are defensible.", "240"),
    # a refutation of more languages under a check label of any language; a trailing status field; `our $x$`
    (_EST, "51"),
    (_SQRT + "Check: $\\sqrt{9} = 3$ and $4 - 1 = 3$. 判定：NG", "4"),
    (_SQRT + "Check: $\\sqrt{9} = 3$ and $4 - 1 = 2$. These differ, so our $x$ is extraneous.", "4"),
    (
        "(Heads-up: the boxed value below is wrong — I ran out of time.)\n\nThe largest is $\\boxed{30}$.",
        "30",
    ),
    ("The answer is $\\boxed{1.000}$ euros, i.e. one thousand.", "1"),
    (
        "The distance is **5 units**.\n\n*Bonus:* the midpoint is $\\left(\\frac{5}{2}, 4\\right)$.",
        "(\\frac{5}{2}, 4)",
    ),
    (
        "> **Final Answer:** $\\boxed{30}$\n\nThe reference claims this. Let me check: $6 \\times 4 = 24 \\ne 30$.",
        "30",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_22_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    ("المساحة = 32 (٣٢ وحدة مربعة)", "32"),
    ("Total refund: $\\boxed{32}$ yuan (大写：叁拾贰元整).", "32"),
    ("There are 14 valid pairs, so $\\boxed{14}$ — that is, XIV.", "14"),
    ("$\\boxed{60}$ — i.e. five dozen.", "60"),
    ("$\\boxed{60}$, i.e. sixty arrangements.", "60"),
    ("$\\boxed{60}$, that is, the number of arrangements.", "60"),
    ("$\\boxed{0.5}$, i.e. 50%.", "0.5"),
    ("So there are $\\boxed{24}$ eggs (2 dozen).", "24"),
    ("She travels $\\boxed{2.5}$ hours, i.e. 150 minutes.", "2.5"),  # (the value in another unit)
    ("The rope is $\\boxed{300}$ cm (3 m).", "300"),
    (_NOTE + "Both endpoints count.", "7"),
    (_NOTE + "Here $\\gcd(12, 30) = 6$, by the Euclidean algorithm: $30 = 2\\cdot 12 + 6$.", "7"),
    (_MAX + "Nachtrag: Ich habe mich verrechnet, richtig ist $f(3) = 12$.", "12"),
    (_MAX + "补充：上面算错了，最大值应为 12。", "12"),
    (_MAX + "Note: this is actually the formula $n(n-3)/2$ at $n = 10$.", "11"),  # (a remark that explains)
    (_MAX + "Note: the smallest of the three values is 2.", "11"),
    (_CHECKED + "So the check passes.", "4"),
    ("Solve $3x - 2 = 10$.\n\n$\\boxed{4}$\n\n検算：$3 \\times 4 - 2 = 10$、合っている。", "4"),
    (
        "The roots are 2 and 9.\n\n$\\boxed{9}$\n\nCheck $x = 2$: $3 \\neq -3$ ❌, so 2 must be thrown out. "
        "Check $x = 9$: $4 = 4$ ✓.",
        "9",
    ),
    (_DIAGONALS + "Answer;35\nMethod;n(n-3)/2", "35"),
    (_DIAGONALS + "Answer: 35 ✅ (self-check passed)", "35"),
    (_DIAGONALS + "```toml\n[result]\nanswer = 35\nverified = true\n```", "35"),
    (_DIAGONALS + "```ini\n[result]\nanswer=35\ncorrect=yes\n```", "35"),
    (_DIAGONALS + "\\begin{tabular}{ll}\nAnswer & 35 \\\\\nCheck & \\checkmark \\\\\n\\end{tabular}", "35"),
    (_DIAGONALS + "Self-grade: 10/10", "35"),
    (_DIAGONALS + "Status: 🟢", "35"),
    (_DIAGONALS + "Perimeter = 30\nArea = 45", "35"),  # (equations are no card: another quantity's value)
    (_ANGLE + "(፷).", "60"),
    (_ANGLE + "(altmış).", "60"),
    (_WALK + "(that is, sixty minutes of walking at a steady pace).", "60"),
    (_WALK + "(one of the two legs of the trip).", "60"),
    (_WALK + "[≈ 60].", "60"),
    ("So $x = \\boxed{0.5}$ (i.e. $\\tfrac{1}{2}$).", "\\frac{1}{2}"),
    ("The answer is $\\boxed{5}$ [1].", "5"),  # (a reference mark)
    (_HALVED + "Als we delen door 2, is het antwoord $\\boxed{24}$.", "24"),
    (_HALVED + "Om vi delar med 2 blir svaret $\\boxed{24}$.", "24"),
    (_LARGER + "上面的答案是对的。", "12"),
    ("Wir ignorieren die Reihenfolge, also gibt es $\\boxed{12}$ Paare.", "12"),
    (_AREA + "The area is $\\boxed{30}$, or thirty square units.", "30"),
    ("Kosten: $18 \\times 2500 = 45000$ Euro.\n\nAntwort: 45 Tsd. €", "45000"),
    ("Harga satu buku Rp 9.000, jadi $5 \\times 9.000 = 45.000$.\n\nJawaban: Rp 45 rb", "45000"),
    (_ODD + "The value is correct.", "400"),
    (_ODD + "The correct value is 420.", "420"),
    (
        "**Answer: 11**\n\nSo $7 + 7 = 14$, not 11: I miscounted at the top. The correct count is **14**.",
        "14",
    ),
    (_ODD + "(see the correction below) The sum is 400 as computed.", "400"),
    ("The answer is $\\boxed{1000}$ euros, i.e. one thousand.", "1000"),
    ("The distance is **5 units**.\n\n*Bonus:* the midpoint is $\\left(\\frac{5}{2}, 4\\right)$.", "5"),
    ("Zysk wyniesie 45 tys. zł.", "45000"),
    ("The company is now worth 1.8 billion dollars.", "1800000000"),
    ("Answer: $x =~15$", "15"),  # (in math a tilde is a space)
    (_REVENUE, "1400000000"),
    ("Revenue grew from $3.1 to $4.5, an increase of **$1.4**.", "1.4"),
    (_FRAME + "I'd be happy to explain why it's actually 32 rather than the 48 I boxed.", "32"),
    (_FRAME + "I'd be happy to explain more.", "48"),
    (_READINGS + "The first is the standard reading, so the answer is **80**.", "80"),
    ("(Heads-up: the boxed value below is the largest one.)\n\nThe largest is $\\boxed{30}$.", "30"),
    (_SQRT + "Check: $\\sqrt{9} = 3$ and $4 - 1 = 3$. 判定：OK", "4"),
    (_SQRT + "Check: $\\sqrt{9} = 3$ and $4 - 1 = 3$. These agree, so our $x$ is valid.", "4"),
    (_SQRT + "Check $x = 0$: $\\sqrt{1} = 1$ and $0 - 1 = -1$. These differ, so $x = 0$ is extraneous.", "4"),
    (
        "So the answer is $\\boxed{54}$.\n\nHmm, but only the long diagonals count: 6.\n\nSo the correct answer is $\\boxed{6}$.",
        "6",
    ),
    # a failed check that names another candidate before its colon does not test the box
    ("Solving gives $x = 0$.\n\n$\\boxed{0}$\n\nCheck 7: left = 2, right = -2. ✗", "0"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_22_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_a_gloss_after_spaces_stays_linear() -> None:
    """A box and thousands of spaces: the gloss pattern reads the spaces once (three space runs in a row were
    cubic, and `\\boxed{7}` with 20,000 spaces held the verifier for minutes)."""
    assert_linear(lambda n: contested("\\boxed{7}" + " " * n + "x"), 2_000)
