"""Two different final values with nothing ordering them: the reply has no answer.

Which of two boxes is "the answer" and which an aside (`(Note: the perimeter is \\boxed{9})`), a pitfall
(`A typical error is to write \\boxed{9}`) or a value that was not asked cannot be read off word lists: every
red-team round found phrasings outside them. So the rule is by construction: in the answering part of a reply
(after `</think>`, as `turns.tagged_reply` cut it), when two committed values differ -- boxes, or the plain
numbers answer phrases state (`The answer is 12.`) -- and no explicit revision (`Wait, ... actually`, `Correction:`,
`I made an error`) stands between the earlier and the later one, the reply committed to no answer.

Left alone: the same value boxed (or stated) twice; boxes joined as one answer (`\\boxed{2} and \\boxed{3}`,
one box per root: `boxes.box_groups`); an explicit revision, after which only the later values count; a
progression that ends at the later value (`\\boxed{8} \\Rightarrow \\boxed{7}`, `Then $8 + 1 = \\boxed{9}$`);
a last sentence that does nothing but commit to its value (`Final Answer: The final answer is $10,455$.`) after
values that no such sentence committed to; a box denied where it stands (`not \\boxed{5}`).
"""

from __future__ import annotations

import bisect
import re
from fractions import Fraction

from rlvr.verifiers.math.assertion import negated_frame, unasserted
from rlvr.verifiers.math.boxes import box_groups
from rlvr.verifiers.math.cards import card_answers
from rlvr.verifiers.math.commitment import rejected_after, same_value
from rlvr.verifiers.math.foreign_words import foreign_number
from rlvr.verifiers.math.number_words import number_from_words
from rlvr.verifiers.math.numeral_systems import numeral_value, roman_value
from rlvr.verifiers.math.numerals import cjk_number
from rlvr.verifiers.math.phrases import _NEGATED_RE, _PHRASE_RE, _clean_phrase_answer
from rlvr.verifiers.math.remarks import format_example
from rlvr.verifiers.math.vocab import EXPLICIT_REVISIONS, SCALE_WORD_RE
from rlvr.verifiers.math.withdrawal import withdraws

_EXPLICIT_REVISION_RE = re.compile(r"\b(?:" + "|".join(EXPLICIT_REVISIONS) + r")\b", re.IGNORECASE)
# between two values, a progression that makes the later the result of the earlier (`\\boxed{8} \\Rightarrow
# \\boxed{7}`, `\\boxed{8}. Finally \\boxed{7}.`, `$2^3 = \\boxed{8}$. Then $8 + 1 = \\boxed{9}$`): nothing but
# punctuation, one progression marker and a formula that computes the later value
_PROGRESSION_RE = re.compile(
    r"^[\s$.,;:*]*(?:\\(?:Rightarrow|Longrightarrow|longrightarrow|implies|to)(?![a-zA-Z])|\u2192|\u21d2"
    r"|\b(?:then|finally)\b)[\s$.,:*]*+"
    # possessive, and no character two ways (a `\\` only opens a command): linear on any gap
    r"(?:(?:\\[a-zA-Z]++|\\[^a-zA-Z]|[^$\nA-Za-z\\=]|\b[A-Za-z]{1,2}\b)*+=)*+[\s$]*$",
    re.IGNORECASE,
)
_LATEX_NOISE_RE = re.compile(r"\\[dt]frac")


def _key(value: str) -> str:
    """A value as compared here: `\\dfrac`/`\\tfrac` are `\\frac`, spaces and `$` do not count."""
    return _LATEX_NOISE_RE.sub(r"\\frac", value).replace("$", "").replace(" ", "").strip(".")


def _same(a: str, b: str) -> bool:
    return same_value(_key(a), _key(b))


_NUMBER_VALUE_RE = re.compile(r"^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")  # `12`, `10,455`, `-0.5`
_UNIT_AFTER_RE = re.compile(
    r"^(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*(?:[^\W\d_]{1,5}(?:/[^\W\d_]{1,3})?|%)\.?$"
)
# a sentence that does nothing but commit to the value it ends on: `So the answer is \\boxed{7}.`,
# `Final Answer: The final answer is $10,455$.` (no `(`: a bracket is a remark, not a commitment)
_COMMITTING_LEAD_RE = re.compile(
    r"^[\s*#_>]*(?:(?:therefore|thus|hence|so|in\s+conclusion|finally)\s*,?\s*)?"
    r"(?:(?:the\s+)?(?:final\s+)?answer\s*(?:is|:|=)?\s*:?[\s*_$]*)+$"
    # `The correct value is \\boxed{11}.`: a sentence naming its value the correct one, against what came before
    r"|^[\s*#_>]*(?:(?:therefore|thus|hence|so|in\s+conclusion|finally)\s*,?\s*)?(?:the\s+)?(?:correct|right|actual"
    r"|true)\s+(?:final\s+)?(?:answer|value|result|count|total|number)\s*(?:is|:|=)\s*:?[\s*_$]*$",
    re.IGNORECASE,
)
# `$10,455. Final answer: ...`: a number may end one; `\\fbox{23}, so the answer is \\fbox{128}`: a concluding
# `so`/`therefore` after a comma opens a sentence of its own
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)|\n|[,;]\s*(?=(?:so|therefore|thus|hence)\b)", re.IGNORECASE)
_ENDS_SENTENCE_RE = re.compile(r"^[\s$*_]*(?:[.!](?:\s|$)|\n|$)")


def _committed(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] (a value) ends a sentence that only commits to it: an answer phrase (after at
    most a concluding `So`/`Therefore`), the value, the sentence's end."""
    lead = text[max(0, start - 200) : start]
    cuts = [m.end() for m in _SENTENCE_END_RE.finditer(lead)]
    lead = lead[cuts[-1] :] if cuts else lead
    return bool(_COMMITTING_LEAD_RE.match(lead) and _ENDS_SENTENCE_RE.match(text[end : end + 40]))


_NOT_BEFORE_RE = re.compile(r"\bnot\s+(?:the\s+)?[\s$]*\Z", re.IGNORECASE)


def _denied(text: str, start: int, end: int) -> bool:
    """Whether a value is denied right where it stands (`not \\boxed{5}`, `\\boxed{5} is wrong`): no commitment."""
    return bool(
        _NOT_BEFORE_RE.search(text[max(0, start - 20) : start]) or rejected_after(text[end : end + 300])
    )


def _phrase_values(text: str, boxes: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """(start, end, value) of the numbers answer phrases state outside any box (`The answer is 12.`); a
    phrase whose answer is a box is that box, already counted."""
    found = []
    cleaned: dict[str, str] = {}  # (a reply repeating one answer sentence 5,000 times cleans it once)
    starts = [s for s, _, _ in boxes]  # (in order and apart: the box holding a phrase is found by bisection)
    for m in _PHRASE_RE.finditer(text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < boxes[k][1]:
            continue
        after = text[m.end() : m.end() + 200]
        if _NEGATED_RE.match(after) or re.match(r"[\s$]*\\(?:boxed|fbox)\b", after):
            continue
        if negated_frame(text[max(0, m.start() - 200) : m.start()]):  # `It is false that the answer is 8`
            continue
        if after not in cleaned:
            cleaned[after] = _clean_phrase_answer(after).strip()
        answer = cleaned[after]
        at = after.find(answer)
        if at > 0 and after[at - 1] == "(" and after[at + len(answer) : at + len(answer) + 1] == ")":
            continue  # `the answer is given by (1):` names an equation's tag, not a value
        if at >= 0 and _ASKED_AFTER_RE.match(after, at + len(answer)):
            continue  # `So maybe the answer is $10$? No — ...`: a question commits to nothing
        unit = _UNIT_AFTER_RE.match(answer)
        answer = (
            unit.group(1) if unit is not None else answer
        )  # `Réponse : 45 km.`: the number, its unit aside
        if not _NUMBER_VALUE_RE.match(answer) and (worded := _in_words(answer)) is not None:
            answer = worded  # `答案：九`, `Answer: nine`: a number in words is a value too
        inside = (
            bisect.bisect_right(starts, m.end() + at) - 1
        )  # (`### Final Answer\n\nThe area is \\boxed{25\\pi}`)
        if (
            _NUMBER_VALUE_RE.match(answer)
            and at >= 0
            and not (inside >= 0 and m.end() + at < boxes[inside][1])
        ):
            found.append((m.end() + at, m.end() + at + len(answer), answer))
    for m in _ANSWER_AFTER_RE.finditer(text) if "hich" in text else ():  # `..., which is the answer`
        k = bisect.bisect_right(starts, m.start(1)) - 1
        if not (k >= 0 and m.start(1) < boxes[k][1]):
            found.append((m.start(1), m.end(1), m.group(1)))
    return found


_ASKED_AFTER_RE = re.compile(r"[ \t$)]*\?")


# a line after the last box that is a value and nothing else (`60`, `**60**`, a bare code block's `60`): the
# answer shown again, so a different one is a second final value
_BARE_LINE_RE = re.compile(r"^[ \t*_$`]*(-?\d+(?:\.\d+)?)[ \t*_$`.]*$", re.M)
# a chat correction of the value before it, after a box or an answer phrase: `*15` alone, `s/24/48/`
_CORRECTION_LINE_RE = re.compile(
    r"^[ \t]*(?:\*|s/[^/\n]{1,20}/|-?\d+(?:\.\d+)?[ \t]*(?:\u2192|->|=>|\u27f6))[ \t]*(-?\d+(?:\.\d+)?)/?[ \t]*(?:[-\u2014\u2013(][^\n]*)?$",
    re.M,
)
_BARE_LINES = 20  # (a reply ending in a long table of numbers reads a bounded number)


def _bare_lines_after(text: str, boxes: list[tuple[int, int, str]], last: int) -> list[tuple[int, int, str]]:
    """(start, end, value) of the lines after `last`, where the last box or the last value an answer phrase states
    ends, that are a bare value or a correction to one (see above)."""
    if last < 0:
        return []
    start = text.find("\n", last) + 1 if "\n" in text[last:] else len(text)
    lines = _BARE_LINE_RE.finditer(text, start) if boxes and last == boxes[-1][1] else iter(())
    found = [(m.start(1), m.end(1), m.group(1)) for m in _CORRECTION_LINE_RE.finditer(text, start)][
        :_BARE_LINES
    ]
    for m in lines:
        found.append((m.start(1), m.end(1), m.group(1)))
        if len(found) == _BARE_LINES:
            break
    return found


# a LaTeX footnote on the answer (`$\\boxed{130}$\\footnote{... since 7 is excluded, giving 129.}`) and the value it
# arrives at: a second final value beside the box, as the summary of a footnote's text
_FOOTNOTE_RE = re.compile(
    r"[ \t$.*]*(?:[^\W\d_]{1,12}[ \t.]{0,3})?\\footnote\s*\{((?:[^{}\n]|\{[^{}\n]*\}){0,600})\}"
)  # (a unit may stand between: `$\\boxed{96}$ tiles.\\footnote{...}`)
_ARRIVES_RE = re.compile(
    r"\b(?:giving|gives?|yields?|so|thus|hence|making|is|are|be)\s+(?:it\s+|the\s+answer\s+)?\$?(-?\d+(?:\.\d+)?)\$?(?![\w.]*\d)"
    r"|=\s*\$?(-?\d+(?:\.\d+)?)\$?(?![\w.]*\d)"
    # (a conditional reading and its value: `If the endpoints are excluded, 5.`)
    r"|^\s*(?:if|when|for|with)\b[^,{}]{1,80},\s*\$?(-?\d+(?:\.\d+)?)\$?\.?\s*$"
    # (an alternative the note opens with: `or 11, if the endpoints do not count`)
    r"|^\s*or\s+\$?(-?\d+(?:\.\d+)?)\$?(?![\w.]*\d)"
    # (a value set in the answer's place, or one under a condition: `order 104 instead`, `100 if you include ...`)
    r"|(?<![\w.])(-?\d+(?:\.\d+)?)\$?(?:\s+[^\W\d_]+){0,2}\s+instead\b"
    r"|^\s*\$?(-?\d+(?:\.\d+)?)\$?(?:\s+[^\W\d_]+){0,2}\s+(?:if|when|unless|counting|including)\b",
    re.IGNORECASE,
)


# the answer restated in Roman numerals after it (`In Roman numerals, $x = \\mathrm{VII}$.`): its value is compared
_ROMAN_RE = re.compile(r"\b(?i:roman\s+numerals?)\b([^.\n]{0,80})")
_NUMERAL_RE = re.compile(r"\b[IVXLCDM]{1,12}\b")  # (upper case: `$x = \\mathrm{VII}$` names x, then VII)


def _roman(text: str, answered: int) -> list[tuple[int, int, str]]:
    """(start, end, value) of a restatement in Roman numerals after the answer (see above)."""
    m = _ROMAN_RE.search(text, answered) if answered >= 0 and "oman" in text[answered:] else None
    numerals = list(_NUMERAL_RE.finditer(m.group(1))) if m is not None else []
    if m is None or not numerals:
        return []
    value = roman_value(numerals[-1].group())
    return [(m.start(1) + numerals[-1].start(), m.start(1) + numerals[-1].end(), str(value))]


# a bracket right after the answer that restates it in another script or in words (`\\boxed{32} yuan (大写：肆拾捌元整)`,
# `\\boxed{32} (achtundvierzig Quadrateinheiten)`): one value and its unit, read as a second value if it differs
_GLOSS_MARK = (
    r"(?:that\s+is|i\.\s?e\.|namely|in\s+(?:other\s+)?words|viz\.?|o\s+sea|es\s+decir|c'est-à-dire|d\.\s?h\."
    r"|das\s+hei(?:ß|ss)t|то\s+есть|\u5927\u5199)"
)
_GLOSS_RE = re.compile(
    r"[ \t$]*+(?:(?P<unit>[^\W\d_]{1,12})[ \t]*+)?(?:(?P<open>[(\uff08\[\u2039\u3014\u3010])[ \t]*(?:"
    + _GLOSS_MARK
    + r"[ \t]*[,:\uff1a]?[ \t]*)?"
    # (an approximate gloss is a value too: `\boxed{60} minutes [≈ 61]`)
    r"(?P<approx>(?:\u2248|~|about|approximately|circa|ca\.)[ \t]*)?(?P<bracketed>[^()\uff08\uff09\[\]\u2039\u203a\u3014\u3015\u3010\u3011\n]{1,60})[)\uff09\]\u203a\u3015\u3011]"
    # (or with no bracket, after a dash or comma and a word that restates: `\boxed{14} — that is, XVI.`)
    r"|[.,;]?[ \t]*+(?:[\u2014\u2013]|--?)?[ \t]*+"
    + _GLOSS_MARK
    + r"[ \t]*[,:]?[ \t]*(?P<dashed>[^.;\n]{1,40}?)[ \t]*(?:[.;!](?=\s|$)|$))",
    re.IGNORECASE | re.MULTILINE,
)
_DOZENS_RE = re.compile(r"^(\w+)\s+dozen(?:\s+and\s+(\w+))?$", re.IGNORECASE)
_CJK_RUN_RE = re.compile(
    r"^[\u96f6\u3007\u4e00\u4e8c\u4e24\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u767e\u5343\u4e07"
    r"\u58f9\u8d30\u53c1\u8086\u4f0d\u9646\u67d2\u634c\u7396\u62fe\u4f70\u4edf\u842c\u5eff\u5345\u534c]+"
)


# a number in a gloss followed by another unit or an operation: a conversion or an expression, not a second value
_CONVERTED_RE = re.compile(
    r"^\S+(?:[ \-]\S+)?\s+(?:squared|cubed|factorial|percent|per\s*cent|pairs?|hours?|days?|weeks?|months?|years?"
    r"|minutes?|seconds?|met(?:er|re)s?|kilomet(?:er|re)s?|centimet(?:er|re)s?|millimet(?:er|re)s?|grams?"
    r"|kilograms?|lit(?:er|re)s?|in\s+\S+)\b",
    re.IGNORECASE,
)
_GLOSS_FRACTION_RE = re.compile(r"\\[dt]?frac\{(\d+)\}\{(\d+)\}|(\d+)/(\d+)")
_IDIOM_UNITS = {"gross": 144, "score": 20, "baker's dozen": 13, "dozen": 12}
_IDIOM_TERM_RE = re.compile(
    r"(?:(half\s+a)|(an?)|([a-z]+))\s+(gross|score|baker's\s+dozen|dozen)s?$|([a-z\-]+)$"
)


def _idiom_value(words: str) -> int | None:
    """The number an English counting idiom names (`a gross` 144, `half a gross and a dozen` 84, `three score and
    ten` 70), when at least one term counts in grosses, scores or dozens; None otherwise."""
    total, counted = 0, False
    for term in re.split(r"\s+and\s+", words.lower().strip().rstrip(".")):
        m = _IDIOM_TERM_RE.match(term.strip())
        if m is None:
            return None
        if m.group(4):
            unit = _IDIOM_UNITS[" ".join(m.group(4).split())]
            count = 0.5 if m.group(1) else 1 if m.group(2) else _in_words(m.group(3))
            if count is None:
                return None
            total, counted = total + int(float(count) * unit), True
        else:
            plain = _in_words(m.group(5))
            if plain is None or not plain.isdigit():
                return None
            total += int(plain)
    return total if counted else None


def _glossed(text: str, answered: int) -> list[tuple[int, int, str]]:
    """(start, end, value) of a one-value gloss in a bracket after the answer (see above), if any."""
    m = _GLOSS_RE.match(text, answered) if answered >= 0 else None
    group = "bracketed" if m is not None and m.group("bracketed") is not None else "dashed"
    inner = m.group(group).strip() if m is not None else ""
    dozens = _DOZENS_RE.match(inner)
    if m is not None and m.group("open") == "[" and not m.group("approx"):
        return []  # (`\\boxed{5} [1]`: a reference mark; a square bracket glosses only with `≈`)
    # (a gloss all in words with a scale word is read whole: `\\boxed{1.000} euros, i.e. one thousand`)
    if m is not None and _CONVERTED_RE.search(inner):
        return []  # (`i.e. one hour`, `(2 pairs)`, `4 squared`, `50 percent`: the value in other units or an expression)
    worded = (
        _in_words(inner)
        if m is not None and re.fullmatch(r"[^\W\d_]+(?:[ \-][^\W\d_]+){0,4}", inner)
        else None
    )
    if worded is not None and m is not None:
        return [(m.start(group), m.end(group), worded)]
    stated = re.search(r"\b(?:is|equals|=)\s*\$?(-?\d+)\$?$", inner)  # (`i.e. the remainder is 11`)
    if stated is not None and m is not None and group == "dashed":
        return [(m.start(group) + stated.start(1), m.start(group) + stated.end(1), stated.group(1))]
    idiom = _idiom_value(inner) if m is not None else None
    if (
        idiom is not None and m is not None
    ):  # (`(a gross)`, `half a gross and a dozen`, `three score and ten`)
        return [(m.start(group), m.end(group), str(idiom))]
    if m is None or (SCALE_WORD_RE.search(inner) and dozens is None):
        return []  # (`\\boxed{24} (2 dozen)`: a value and its scale, read by the scale rules)
    words = inner.split()
    first = words[0] if words else ""
    value: str | None = None
    fraction = _GLOSS_FRACTION_RE.fullmatch(inner.strip("$ "))
    digits = re.match(r"\d+(?![\d.,/%\u2030\u00b0\u00b9\u00b2\u00b3\u2070-\u2079!^])", inner)
    unit = re.match(r"\s*([A-Za-z\u00c0-\u024f]+)", inner[digits.end() :]) if digits is not None else None
    latin = (
        m.group("unit") is not None and re.fullmatch(r"[A-Za-z\u00c0-\u024f]+", m.group("unit")) is not None
    )
    if unit is not None and latin and unit.group(1) != m.group("unit"):
        return []  # (`\\boxed{2.5} hours, i.e. 150 minutes`: the value in another unit)
    if dozens is not None:  # (`— i.e. five dozen and one`)
        count, extra = _in_words(dozens.group(1)), _in_words(dozens.group(2)) if dozens.group(2) else "0"
        value = str(int(count) * 12 + int(extra)) if count and extra and (count + extra).isdigit() else None
    elif digits is not None and not re.search(r"\d", inner[digits.end() :]) and digits.group().isdecimal():
        value = str(int(digits.group()))  # (`٤٨`, `３２`: any script's digits; `48元整`: a unit glued on)
    elif fraction is not None:  # (`(i.e. $\\tfrac{1}{3}$)`, `(1/3)`)
        ratio = Fraction(
            int(fraction.group(1) or fraction.group(3)), int(fraction.group(2) or fraction.group(4)) or 1
        )
        # (a decimal answer is compared with the fraction's decimal: `0.5 (1/2)` restates it)
        exact = (
            ratio.denominator == 2 ** (ratio.denominator.bit_length() - 1) or 10**6 % ratio.denominator == 0
        )
        value = (
            str(ratio.numerator / ratio.denominator)
            if exact
            else f"\\frac{{{ratio.numerator}}}{{{ratio.denominator}}}"
        )
    elif (run := _CJK_RUN_RE.match(inner)) is not None:
        value = cjk_number(run.group())
    elif (other := numeral_value(inner)) is not None:
        value = other  # (`፷፩`, Greek `ιεʹ`)
    elif _NUMERAL_RE.fullmatch(inner) or re.fullmatch(r"[ivxlc]{2,8}", inner):
        value = str(roman_value(inner.upper()))  # (`— that is, XVI`, `(xv)`)
    elif first.replace("-", "").isalpha() and not re.search(r"\d", inner):
        # (the number's words, up to three, then what it counts: `altmış bir`, `sixty-one with the pause`; a
        # longer gloss only after `that is` / `i.e.`, so that `(one of the two roots)` states no value)
        marked = re.search(_GLOSS_MARK, text[m.start() : m.start(group)], re.IGNORECASE) is not None
        if len(words) <= 3 or marked:
            value = next((v for k in (3, 2, 1) if (v := _in_words(" ".join(words[:k])))), None)
    return [] if value is None else [(m.start(group), m.end(group), value)]


def gloss_differs(text: str, end: int, value: str) -> bool:
    """Whether a one-value gloss in a bracket right after a number ending at `end` states another value
    (`المساحة = 32 (٤٨ وحدة مربعة)`): the number is not the reply's one answer."""
    return any(not _same(glossed, value) for _, _, glossed in _glossed(text, end))


def _footnoted(text: str, answered: int) -> list[tuple[int, int, str]]:
    """(start, end, value) of the value a footnote attached to the answer arrives at (see above), if any."""
    note = _FOOTNOTE_RE.match(text, answered) if answered >= 0 and "footnote" in text else None
    found = list(_ARRIVES_RE.finditer(note.group(1))) if note is not None else []
    if note is None or not found:
        return []
    last = found[-1]
    group = next(k for k in range(1, 7) if last.group(k) is not None)
    return [(note.start(1) + last.start(group), note.start(1) + last.end(group), last.group(group))]


def _in_words(answer: str) -> str | None:
    """The number an answer names in words (`nine`, `九`, `neun`), or None."""
    key = " ".join(answer.lower().replace("-", " ").split())
    return cjk_number(answer) or foreign_number(answer) or number_from_words(answer, key)


# a value the sentence calls the answer after it (`7 × 3 = 21 seats in total, which is the answer`)
_ANSWER_AFTER_RE = re.compile(
    r"(?<![\w.])(-?\d+(?:\.\d+)?)(?![\d.])\$?(?:[ \t]+[^\W\d_]{1,12}){0,4}[ \t]*,?[ \t]*which\s+is\s+(?:the|our|my)"
    r"\s+(?:final\s+answer|answer|value\s+(?:asked\s+for|requested|sought)|requested\s+value)\b",
    re.IGNORECASE,
)


# between two values, clauses end at punctuation, brackets, an arrow pointing back (`\\boxed{12} ← mistake`),
# CJK stops, and a capital after a lower-case word (`[RETRACTED] Redoing ...`, `← mistake Redoing ...`: a
# remark glued to the next sentence)
_GAP_CUT_RE = re.compile(r"[.!?:;,\n()\[\]\u3002\uff01\uff1f\u2190]|(?<=[a-z])\s+(?=[A-Z][a-z])")


def _withdrawal_between(text: str, end: int, next_start: int) -> bool:
    """Whether a clause with no value between two values withdraws the earlier one (`Just kidding`, `Nope`)."""
    gap = text[end:next_start]
    return len(gap) < 400 and any(withdraws(part) for part in _GAP_CUT_RE.split(gap) if part.strip())


def revised_between(text: str, end: int, next_start: int) -> bool:
    """Whether an explicit revision (`Wait, actually`) or a withdrawing clause (`I made an error above:`)
    stands between a value ending at `end` and the next one at `next_start`: the later replaces the earlier."""
    return bool(_EXPLICIT_REVISION_RE.search(text, end, next_start)) or _withdrawal_between(
        text, end, next_start
    )


_UNCOMMITTED = frozenset({"supposed", "template", "counterfactual", "remark", "asked", "denied", "rejected"})
_STANDING_CHECKS = 8  # (each reads the text before it: a bounded number keeps a reply of many boxes linear)


# a turn from what was supposed to what holds (`But the die is loaded as stated`): without one, a supposed value
# and a stated one are parallel cases (`If n is even the answer would be 8, and for odd n it is 7`)
_TURN_RE = re.compile(
    r"\b(?:but|however|actually|in\s+fact|instead|in\s+reality|as\s+stated)\b", re.IGNORECASE
)


def _uncommitted(text: str, end: int, next_start: int) -> bool:
    """Whether the value ending at `end` is not asserted where it stands (a supposition `Were the die fair, the
    answer would be \\boxed{12}.`, a question, a denial, a rejection) and a turn leads to the next value."""
    return bool(_TURN_RE.search(text, end, next_start)) and unasserted(text[:next_start]) in _UNCOMMITTED


def contested(text: str) -> bool:
    """Whether the answering part `text` commits to two different values with no explicit revision between
    the earlier and the later one (see the module docstring): then it has no answer."""
    boxes = [g for g in box_groups(text) if g[2]]
    # a box denied where it stands commits to nothing, unless it is the last one (which `extract` would read)
    boxes = [g for g in boxes[:-1] if not _denied(text, g[0], g[1])] + boxes[-1:]
    boxes = [
        g for g in boxes if not format_example(text, g[0])
    ]  # `For example: \\boxed{42}.`: the prompt's template
    phrased = _phrase_values(text, boxes)
    # where the answer ends: the last box or the last value an answer phrase states
    answered = max(boxes[-1][1] if boxes else -1, max((end for _, end, _ in phrased), default=-1))
    stated = [v for _, end, v in boxes + phrased if end == answered]
    # (with no card syntax after the answer, `card_answers` finds no field: it needs no gate of its own here)
    carded = card_answers(text, answered, stated[0] if stated else None, _same) if answered >= 0 else []
    values = sorted(
        set(
            boxes
            + phrased
            + _bare_lines_after(text, boxes, answered)
            + carded
            + _footnoted(text, answered)
            + _roman(text, answered)
            + (_glossed(text, answered) if stated and _NUMBER_VALUE_RE.match(_key(stated[0])) else [])
        )
    )
    if len(values) < 2:
        return False
    last_start, last_end, last = values[-1]
    final = (
        _committed(text, last_start, last_end) and values[-1] not in carded
    )  # (a card row restates, never revises)
    checks = _STANDING_CHECKS
    for (start, end, value), (next_start, _, _) in zip(reversed(values[:-1]), reversed(values[1:])):
        if revised_between(text, end, next_start):
            # `\\boxed{8}. Wait, actually \\boxed{7}`, `\\boxed{8}. Scratch that. \\boxed{7}`: the earlier is withdrawn
            return False
        if _PROGRESSION_RE.match(text[end:next_start]):
            return False  # `\\boxed{8} \\Rightarrow \\boxed{7}`: the earlier led to the later
        if _same(value, last):
            continue
        checks -= 1
        if checks >= 0 and _uncommitted(text, end, next_start):
            continue  # `Were the die fair, the answer would be \\boxed{12}. But ... \\boxed{18}.`: 12 was never stated
        if not final or _committed(text, start, end):
            return True  # two values, neither ordered after the other by a revision or a sole commitment
    return False
