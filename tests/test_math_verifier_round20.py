"""Findings of red-team rounds 20a and 20b (tests/data/math/external/round20a.yaml, round20b.yaml, written against
e26dc78 and held out until graded once on it: 20a 10 false positives / 24 false negatives of 287, 20b 23 / 21 of
285), and of the open false positives of rounds 15-19 fixed with them, each as a rule with its counterpart, in
wording of our own. The ones still open are listed in tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import assert_linear, never_correct, read_correct

_AREA = "By Heron's formula the area is $\\sqrt{21 \\cdot 8 \\cdot 7 \\cdot 6} = 84$.\n\n$\\boxed{84}$\n\n"
_PROBABILITY = "So the probability is $\\frac{3}{8}$.\n\n$$\\boxed{\\frac{3}{8}}$$\n\n"
_ANGLE = "The apex angle is $180^\\circ - 2 \\cdot 35^\\circ = 110^\\circ$.\n\n$\\boxed{110^\\circ}$\n\n"
_ROOT = "Squaring gives $x^2 - 7x = 0$, so $x = 0$ or $x = 7$.\n\nSo $x = \\boxed{0}$.\n\n"
_HEPTAGON = "For $n = 7$:\n$$(7-2) \\cdot 180^\\circ = 900^\\circ.$$\n\n"
_LOG = "\n".join(f"  - step {k}: a_{k} = {k * k + 1}" for k in range(1, 120))


def _table(key: str, value: str, form: str) -> str:
    """A closing table of two rows, the second keyed `key`, in one of four syntaxes."""
    if form == "markdown":
        return f"| Quantity | Value | Note |\n|---|---|---|\n| Total | 8 | ✅ |\n| **{key}** | {value} | ✅ |"
    if form == "html":
        return f"<table>\n<tr><td>Total</td><td>8</td></tr>\n<tr><td><b>{key}</b></td><td>{value}</td></tr>\n</table>"
    if form == "dl":
        return f"<dl><dt>Total</dt><dd>8</dd><dt>{key}</dt><dd>{value}</dd></dl>"
    return f"\\begin{{tabular}}{{ll}}\nTotal & 8 \\\\\n\\textbf{{{key}}} & {value}\n\\end{{tabular}}"


_FORMS = ("markdown", "html", "dl", "latex")

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # a closing row that states the answer again, in any table syntax, with another value: two final values
    *[(_AREA + _table("Answer", "42", form), "84") for form in _FORMS],
    (_PROBABILITY + _table("Final answer", "$\\tfrac{1}{2}$", "markdown"), "\\frac{3}{8}"),
    (
        _PROBABILITY + _table("Probability", "5/8", "markdown"),
        "\\frac{3}{8}",
    ),  # keyed by the name it was given
    (_ANGLE + "| | |\n|---|---|\n| **Final answer** | $120^\\circ$ |", "110^\\circ"),
    # a status that rejects the answer: one line of any language, a card's field, a card far above the end
    (_AREA + "Audit: ❌ failed (wrong side used)", "84"),
    (_AREA + "Estado de la revisión: **incorrecto**", "84"),
    (_AREA + "Статус проверки: не пройдена.", "84"),
    (_AREA + "验算结果：失败", "84"),
    (_PROBABILITY + "- answer: 3/8\n- sanity: ❎", "\\frac{3}{8}"),
    (_PROBABILITY + "- answer: 3/8\n- outcome: refuted by listing the cases", "\\frac{3}{8}"),
    (_AREA + "```yaml\nstatus: superseded\nlog:\n" + _LOG + "\n```", "84"),
    # a withdrawal whose revision is withdrawn in turn, or gives only a reason: nothing is left
    (_ANGLE + "Hmm, that's wrong: the base angles are 35°.", "110^\\circ"),
    (_ANGLE + "Hmm, that's wrong: the base angles are 35°.", "35^\\circ"),
    (_ANGLE + "Nee, dat klopt niet: de basishoek is 35°, dus... nee, dat klopt ook niet.", "110^\\circ"),
    # a check that refutes the box: its verdict lines after the value it checks, or a failed mark on a plug-back
    ("$$\\boxed{x = 5}$$\n\n**Check** ($x = 5$):\n- left: $3$\n- right: $4$\nThese do not agree.", "5"),
    (_ROOT + "Plugging back in: left $= 2$, right $= -2$. ✗", "0"),
    # a scale word after a decimal comma, several in a row, before the number, slang; not a hyphenated adjective
    ("**Đáp số:** 2,4 tỷ đồng.", "2.4"),
    ("**Svar:** 3,6 miljoner invånare.", "3.6"),
    ("Le budget est de $\\boxed{2{,}4}$ milliards d'euros.", "2.4"),
    ("Đáp số: 2,4 nghìn tỷ đồng.", "2400000000"),
    ("Jibu: shilingi elfu 5", "5"),
    ("So he has **5 grand** saved.", "5"),
    ("**Answer:** 4 thousand-piece puzzles.", "4000"),
    # suppositions: a German one with a particle, a placeholder, an unproven conjecture, a bet
    ("Nehmen wir mal an, die Seite wäre $\\boxed{12}$. Dann ist der Umfang $48$.", "12"),
    ("Placeholder until the count is finished: $\\boxed{0}$.", "0"),
    ("Conjecture (unproven): there are $\\boxed{24}$ of them.", "24"),
    ("If I had to bet, I'd say $\\boxed{24}$, but I have not checked.", "24"),
    # two values offered with an `or` of a language no list names, after the last formula
    (_HEPTAGON + "Jawaban akhirnya 900 atau 1080 derajat.", "900"),
    (_HEPTAGON + "A végeredmény 900 vagy 1080 fok.", "900"),
    # `no` of more languages opens a withdrawal; the problem called ambiguous in German, two values, no choice
    ("The count is $\\boxed{6}$.\n\nNē, tas ir nepareizi; pareizā atbilde ir 24.", "6"),
    (
        "The count is $\\boxed{51}$.\n\nDie Aufgabe ist mehrdeutig: einschließend wären es 67, ausschließend 51.",
        "51",
    ),
    # an edit that says it changes nothing names no new answer; help offered at the end states nothing
    ("$\\boxed{12}$\n\nEDIT: formatting only, the line with 3·4 rendered as 34.", "34"),
    (
        "The y-intercept is **9**.\n\nLet me know if you'd like the x-intercept too (it is $\\frac{27}{4}$)!",
        "\\frac{27}{4}",
    ),
    # a box whose text and look differ: invisible ink inside it
    ("$$\\boxed{\\textcolor{transparent}{84}}$$", "84"),
    ("$$\\boxed{\\textcolor{white}{5}3}$$", "3"),
    # a footnote on the box that arrives at another value; a GSM8K line shown as the format to use
    ("There are $\\boxed{130}$\\footnote{Strictly, 7 is excluded, giving 129.} of them.", "130"),
    ("6 boxes of 8 is 48, minus 12 broken: 36.\n\n#### 36\n\nFormat reminder for next time: `#### 72`", "72"),
    # the answer restated in Roman numerals with another value: two values
    ("So $x = \\boxed{6}$. In Roman numerals, $x = \\mathrm{VII}$.", "6"),
    # a check section that goes on with prose after its bullets does not close the reply
    (
        "So $x = 3$ and $y = 2$.\n\n**Verification:**\n- (1) $6 + 6 = 12$ ✓\n- (2) $3 - 2 = 1$ ✓\n\n"
        "The problem asks for the product.\n\nThe value of $xy$ is **6**.",
        "3",
    ),
    # an answers line listing two parts with no separator is the pair, never its last part
    ("(a) The mean is $7$.\n(b) The median is $6$.\n\n**Answers:** (a) 7 (b) 6", "6"),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_20_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    *[(_AREA + _table("Answer", "84", form), "84") for form in _FORMS],
    (_PROBABILITY + _table("Final answer", "0.375", "markdown"), "\\frac{3}{8}"),  # a rounding of it
    (_PROBABILITY + _table("Total", "8", "markdown"), "\\frac{3}{8}"),  # a row the answer was not named by
    (_ANGLE + "| | |\n|---|---|\n| **Final answer** | $110^\\circ$ |", "110^\\circ"),
    (_AREA + "Audit: ✅ passed", "84"),
    (_AREA + "Check: $x = 3$ fails, $x = 5$ works.", "84"),  # a sentence, not a verdict on the answer
    (
        "So $x = -3$ or $x = 5$.\n\n$\\boxed{5}$\n\nCheck x = -3: ✗ (extraneous)\nCheck x = 5: ✓",
        "5",
    ),  # a candidate
    (_AREA + "```yaml\nstatus: verified\nlog:\n" + _LOG + "\n```", "84"),
    (_ANGLE + "Hmm, that's right: the base angles are 35°.", "110^\\circ"),
    ("$$\\boxed{x = 5}$$\n\n**Check** ($x = 5$):\n- left: $3$\n- right: $3$\nThese agree.", "5"),
    (
        _ROOT
        + "Check 7: left $= 5$, right $= 5$; check 0: left $= 2$, right $= -2$. ✗\n\nSo $x = \\boxed{7}$.",
        "7",
    ),
    ("**Đáp số:** 2,4 tỷ đồng.", "2400000000"),
    ("**Svar:** 3,6 miljoner invånare.", "3600000"),
    ("Le budget est de $\\boxed{2{,}4}$ milliards d'euros.", "2400000000"),
    ("Đáp số: 2,4 nghìn tỷ đồng.", "2400000000000"),
    ("Jibu: shilingi elfu 5", "5000"),
    ("So he has **5 grand** saved.", "5000"),
    ("La deuda es de **2 billones** de pesos.", "2000000000000"),
    ("Nehmen wir mal an, die Seite wäre 12. Dann ist der Umfang $48$, also die Seite $\\boxed{12}$.", "12"),
    (_HEPTAGON + "So the sum is 900 degrees.", "900"),
    ("The count is $\\boxed{6}$.\n\nNē, tas ir nepareizi; pareizā atbilde ir 24.", "24"),
    (
        "$\\boxed{6}$\n\nLa question est ambiguë (bornes 10 et 50 incluses ou non), mais dans les deux cas on a 6.",
        "6",
    ),
    ("$\\boxed{12}$\n\nEDIT: formatting only, the line with 3·4 rendered as 34.", "12"),
    (
        "The y-intercept is **9**.\n\nLet me know if you'd like the x-intercept too (it is $\\frac{27}{4}$)!",
        "9",
    ),
    ("(a) The mean is $7$.\n(b) The median is $6$.\n\n**Answers:** (a) 7 (b) 6", "7, 6"),
    ("There are $\\boxed{130}$\\footnote{Multiples of 77 are removed once.} of them.", "130"),
    ("So $x = \\boxed{6}$. In Roman numerals, $x = \\mathrm{VI}$.", "6"),
    ("6 boxes of 8 is 48, minus 12 broken: 36.\n\n#### 36\n\nFormat reminder for next time: `#### 72`", "36"),
    (
        "Please put the final answer within \\boxed{}. For example: \\boxed{42}.\n\n$2x = 14$.\n\nSo $x = 7$.",
        "7",
    ),
    (
        "So $x = 3$ and $y = 2$.\n\n**Verification:**\n- (1) $6 + 6 = 12$ ✓\n- (2) $3 - 2 = 1$ ✓\n\n"
        "The problem asks for the product.\n\nThe value of $xy$ is **6**.",
        "6",
    ),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_20_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)


def test_the_rules_of_round_20_read_large_inputs_in_linear_time(verifier: MathVerifier) -> None:
    """A closing table of many rows in each syntax, a closing line of many number pairs, a reply of table rows
    with no answer phrase: each grows linearly."""
    rows = {
        "markdown": "| step {k} | {k} |\n",
        "html": "<tr><td>step {k}</td><td>{k}</td></tr>\n",
        "latex": "step {k} & {k} \\\\\n",
    }
    for row in rows.values():
        assert_linear(
            lambda n, r=row: verifier.verify(_AREA + "".join(r.format(k=k) for k in range(n)), "84"), 200
        )
    assert_linear(lambda n: verifier.verify(_HEPTAGON + "900 atau 1080 " * n, "900"), 200)
    assert_linear(
        lambda n: verifier.verify("| 0 | 1:00 PM |\n" * n + "The last bus leaves at 11:45 PM.", "11:45 PM"),
        500,
    )
