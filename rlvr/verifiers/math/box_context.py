"""The words around the last box: a bound or denial (`at least \\boxed{12}`), an operator attached to it
(`\\boxed{7}^2`), a question (`\\boxed{odd}?`), an alternative box, and what the reply says after it that
changes the answer (a later phrase, a conclusion, a correction, a hedge)."""

from __future__ import annotations

import re

from rlvr.verifiers.math.answer_words import (
    ADDENDUM_TITLES,
    QUALIFIERS_AFTER_BOX,
    QUALIFIERS_BEFORE_BOX,
    REMARK_TITLES,
)
from rlvr.verifiers.math.assertion import revised_after_withdrawal, withdrawal_end
from rlvr.verifiers.math.atoms import _MATH_SPAN_RE, _PLAIN_NUMBER_RE, Extraction
from rlvr.verifiers.math.boxes import (
    _unbox,
    outer_boxes,
)
from rlvr.verifiers.math.checks import refuted_by_check
from rlvr.verifiers.math.commitment import (
    offers_another,
    same_value,
    screen,
)
from rlvr.verifiers.math.contested import _EXPLICIT_REVISION_RE, revised_between
from rlvr.verifiers.math.phrases import (
    _SIGNED_OFF_RE,
    _concluding_number,
    _hedge,
)
from rlvr.verifiers.math.revisions import _phrase_answer_after, _revised_value
from rlvr.verifiers.math.vocab import APPROXIMATORS, CORRECT_VALUE_PHRASE, NUMBER_WORDS
from rlvr.verifiers.math.withdrawal import withdraws

# the words that end the box's own sentence, no value among them (`$ façons.`, ` ways to do it.`)
_SENTENCE_TAIL_RE = re.compile(
    r"[\s$)\]}]*[^\d$\\.!?\n\u3002\uff01\uff1f\u0964]{1,80}[.!?\u3002\uff01\uff1f\u0964](?=\s|$)"
)


_ASSIGNED_RE = re.compile(r"^[A-Za-z]\s*=\s*")
_CONCLUDES_RE = re.compile(r"\b(?:so|thus|hence|therefore)\b", re.IGNORECASE)


def _revised_formula(rest: str) -> str | None:
    """The formula that an explicit revision after a box concludes with (`Wait, I used 13 for the second draw;
    ..., so the probability is $\\frac{1}{17}$.`): the last math span after the revision, in a concluding
    sentence that ends the reply and checks nothing; None when there is none."""
    revision = _EXPLICIT_REVISION_RE.search(rest)
    if revision is None:
        return None
    spans = list(_MATH_SPAN_RE.finditer(rest, revision.end()))
    if not spans:
        return None
    last = spans[-1]
    opening = max(rest.rfind(". ", 0, last.start()), rest.rfind("\n", 0, last.start()), revision.end())
    closing = rest[last.end() :]
    if not _CONCLUDES_RE.search(rest, opening, last.start()) or not re.fullmatch(r"[\s.!]*", closing):
        return None
    return next(g for g in last.groups() if g is not None).strip()


# the reply's last sentence (what a refuting check concludes: `So $x = 9$ is the one.`)
_LAST_SENTENCE_RE = re.compile(r"[^.!?\n]*(?:[.!?](?:(?<=\d\.)\d+[^.!?\n]*[.!?])?)?\s*\Z")


# a summary section after the answer and the bold values it states (`### Summary\n- Time to fill: **25 minutes**`)
_SUMMARY_RE = re.compile(
    r"^#{1,4}[ \t]*(?:summary|recap|tl;?dr|in\s+short)\b[^\n]*\n(.*)",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)
_BOLD_VALUE_RE = re.compile(r"\*\*\$?(-?\d+(?:\.\d+)?)(?![\d.])")


# a one-line summary after the answer (`**TL;DR:** the area is 56.`, `Short answer: 56`): its numbers restate it
_TLDR_RE = re.compile(
    r"^[ \t>*_#]*(?:tl;?\s?dr|in\s+short|bottom\s+line|short\s+answer|in\s+summary|to\s+summari[sz]e|summary|recap"
    r"|answer\s+in\s+words)\b"
    r"[ \t*_]*[:\-\u2014]([^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_NUMBER_RE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")
# a table row that states an answer-like quantity (`| Number of solutions | 6 |`, `| Total | 12 |`)
_ANSWER_ROW_RE = re.compile(
    r"[ \t]*\|[ \t]*(?:\*\*)?(?:number\s+of|answer|final|result|total|count|how\s+many)\b", re.IGNORECASE
)
# a summary table: a header whose last column is the value (`| Quantity | Value |`), and its rows
_SUMMARY_TABLE_RE = re.compile(
    r"^[ \t]*\|[^\n]*\|[ \t]*(?:final\s+)?(?:values?|results?|answers?)[ \t]*\|[ \t]*\n"
    r"((?:[ \t]*\|[^\n]*(?:\n|$))*)",
    re.IGNORECASE | re.MULTILINE,
)


def _never_states(values: list[str], box: str) -> bool:
    """Whether `values` (what a summary states) are some, and none of them is the box's value."""
    return bool(values) and not any(same_value(v, box) for v in values)


def _summary_disagrees(rest: str, box: str) -> bool:
    """Whether a summary section after the box states bold values and never the box's value, or a one-line
    summary (`**TL;DR:** ...`) states numbers and never the box's value."""
    summary = _SUMMARY_RE.search(rest)
    if summary is not None:
        bold = [m.group(1) for m in _BOLD_VALUE_RE.finditer(summary.group(1))]
        # (the box's value stated anywhere in the summary agrees with it, bold or not)
        if bold and _never_states(bold + _NUMBER_RE.findall(summary.group(1)), box):
            return True
    table = _SUMMARY_TABLE_RE.search(rest)
    # `| Number of solutions | 6 |` after `\\boxed{7}`, the box's value nowhere: two answers (a table of other
    # quantities, `| width | 8 |`, names no answer: only a row that counts or totals does)
    if (
        table is not None
        and any(_ANSWER_ROW_RE.match(row) for row in table.group(1).splitlines())
        and _never_states(_NUMBER_RE.findall(table.group(1)), box)
    ):
        return True
    for line in _TLDR_RE.finditer(rest):
        words = [w.lower() for w in re.findall(r"[A-Za-z]+", line.group(1))]
        numbers = _NUMBER_RE.findall(line.group(1)) + [
            str(NUMBER_WORDS[w]) for w in words if w in NUMBER_WORDS
        ]
        if _never_states(numbers, box):  # (`Answer in words: fourteen.` counts as 14)
            return True  # `\\boxed{54}` then `**TL;DR:** the rectangle's area is 56.`: two answers
    return False


# a postscript's or an addendum's label (`P.S.`, `N.B.`, `Nachtrag:`, `补充：`), or a remark's (`Note:`, `注：`):
# no sentence of its own
_POSTSCRIPT_RE = re.compile(
    r"^([\s$.)\]]*)(?:P\.\s?S\.|PS:|N\.\s?B\.|(?:(?P<remark>"
    + "|".join(REMARK_TITLES)
    + r")|"
    + "|".join(ADDENDUM_TITLES)
    + r")s?\.?[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a])[ \t]*",
    re.IGNORECASE,
)
_FIRST_CLAUSE_RE = re.compile(r"[^.!?;,\n\u3002\uff0c\uff1b]*")


def _unlabelled(rest: str) -> str:
    """`rest` without the label of a postscript or addendum it opens with, or of a remark whose first clause
    withdraws (`Note: I miscalculated, ...`); a remark that explains (`Note: this is actually ...`) keeps it."""
    m = _POSTSCRIPT_RE.match(rest)
    if m is None:
        return rest
    # (or one whose first sentence calls another value the true one: `Note: ..., so the true value is $17387$.`)
    revises = _TRUE_VALUE_RE.match(rest, m.end(), m.end() + 400) is not None
    if m.group("remark") and not revises and not withdraws(_FIRST_CLAUSE_RE.match(rest, m.end()).group()):  # type: ignore[union-attr]
        return rest
    return m.group(1) + rest[m.end() :]


_TRUE_VALUE_RE = re.compile(r"[^\n]*?\bthe\s+" + CORRECT_VALUE_PHRASE, re.IGNORECASE)


_SENTENCE_STOP_RE = re.compile(r"[.!?](?=\s|$)|\n")


def _after_last_box(text: str) -> Extraction | None:
    """What a reply says after its last box, if it changes the answer (the last commitment wins): a "final
    answer is ..." phrase; after a box holding one number, a concluding sentence with one other number
    ("Therefore, there are 7 ways") or a correction ("Wait, ... it's 7"); a hedge ("Hmm, or 7"), which makes
    the answer all its values. Checks, explanations and values said to be wrong change nothing."""
    boxes = outer_boxes(text)
    if not boxes or boxes[-1][2] is None:
        return None
    # (a postscript's `P.S.` is no sentence of its own: `P.S. Ignore the box — I mistyped; it should be $32$.`)
    rest = _unlabelled(text[boxes[-1][1] :])
    box = _unbox(boxes[-1][2]).strip()
    screened = screen(rest, box)
    later = None
    if _PLAIN_NUMBER_RE.match(box) and not _SIGNED_OFF_RE.match(rest.lstrip(" .$\\])")):
        later = (
            _concluding_number(screened.text)
            or _revised_value(screened.text)
            or revised_after_withdrawal(rest)  # `\\boxed{7}. Just kidding, it is 8.`
            # (or after the words that end the box's own sentence: `$\\boxed{12}$ façons. Non, ..., donc $24$.`)
            or ((tail := _SENTENCE_TAIL_RE.match(rest)) and revised_after_withdrawal(rest[tail.end() :]))
            or None
        )
        if later is not None and same_value(later, box):
            later = None
        # (the sentences after the revision's own judge it)
        at = rest.rfind(later) if later is not None else -1
        stop = _SENTENCE_STOP_RE.search(rest, at + len(later)) if later is not None and at >= 0 else None
        if stop is not None and withdrawal_end(rest, stop.end(), later) is not None:
            # `\\boxed{14}. Hmm, actually it's 15. No wait, that's wrong too.`: the revision is withdrawn in turn
            return Extraction("", "withdrawn")
    value = _ASSIGNED_RE.sub("", box)  # (`\\boxed{x = 2}` checked as `x = 2`)
    formula = _revised_formula(rest) if box and not _PLAIN_NUMBER_RE.match(value) else None
    if formula is not None and formula.replace(" ", "") != box.replace(" ", ""):
        return Extraction(
            formula, "revised"
        )  # `\\boxed{\\frac{13}{204}}. Wait, ... so it is $\\frac{1}{17}$.`
    if (
        formula is None
        and box
        and not _PLAIN_NUMBER_RE.match(box)
        and revised_after_withdrawal(rest) is not None
    ):
        # `\\boxed{110^\\circ}. Hmm, that's wrong: the base angles are 35°.`: a box no plain number can restate is
        # withdrawn, and a number the withdrawing sentence names is no answer in its place
        return Extraction("", "withdrawn")
    refuted = refuted_by_check(rest, value, same_value) if _PLAIN_NUMBER_RE.match(value) else None
    if refuted is not None and later is None:
        # `So $x = \\boxed{2}$. Check: ... These two sides do not agree. [With $x = 9$: ...] So the solution is 9.`
        last = _LAST_SENTENCE_RE.search(rest, refuted)
        concluded = _concluding_number(last.group()) if last is not None else None
        phrased = _phrase_answer_after(rest[refuted:])  # (`... So the answer is $x = 6$.`)
        concluded = _ASSIGNED_RE.sub("", phrased.strip("$ ")) if phrased is not None else concluded
        if concluded is None or same_value(concluded, value):
            return Extraction("", "withdrawn")
        return Extraction(concluded, "final_answer")
    if _PLAIN_NUMBER_RE.match(box) and _summary_disagrees(rest, box):
        return Extraction("", "contested")  # `\\boxed{20}` then `### Summary ... **25 minutes**`: two answers
    answer = _phrase_answer_after(screened.text) or later
    hedge = _hedge(answer or box, screened)
    if hedge is not None:
        return Extraction(hedge, "hedge")
    if answer is None and screened.withdrawn and _PLAIN_NUMBER_RE.match(box):
        return Extraction("", "withdrawn")  # "\\boxed{8}. Hmm, 8 is wrong.": no answer is left
    return Extraction(answer, "final_answer") if answer else None


_BEFORE_BOX_RE = re.compile(
    r"\b(?:" + "|".join(QUALIFIERS_BEFORE_BOX) + r")\s*[$(\[]*\s*(?:[A-Za-z]\s*(?:=|\\geq?|\\leq?|<|>)\s*)?$",
    re.IGNORECASE,
)


_AFTER_BOX_RE = re.compile(
    r"^(?:[\s$,\u2014\u2013]|\\[ ,;])*\(?\s*(?:\\text\s*\{\s*)?\(?\s*(?:(?:is|are)\s+(?:only\s+)?(?:an?\s+|the\s+)?)?(?:"
    + "|".join(QUALIFIERS_AFTER_BOX)
    + r")\b",
    re.IGNORECASE,
)


_CLAUSE_START_RE = re.compile(r"[.!?;:\n]")


# an operator attached to a box from outside: a power, a factorial, a percent sign
_BOX_SUFFIX_RE = re.compile(r"^[ \t]*(\^\s*(?:\{[^{}]*\}|[\w\\]+)|!(?!=)|\\%)")


_ASKED_RE = re.compile(r"[ \t]*(?:\?|\\text\s*\{\s*\?)")


_SENTENCE_START_RE = re.compile(r"[.!?\n]")


_APPROXIMATOR_RE = re.compile(r"\b(?:" + "|".join(APPROXIMATORS) + r")\b", re.IGNORECASE)


# an answer label called not final, on the box's line (`Final answer (provisional): \\boxed{24}`, `Tentative answer:`)
_NOT_FINAL_LABEL_RE = re.compile(
    r"(?:\b(?:answer|result)\b[^\n]{0,12}?\(?\s*|\b)(?:tentative|provisional|preliminary|draft|unverified)\b"
    r"(?:\s+(?:final\s+)?answer)?[^\n\w]{0,12}$",
    re.IGNORECASE,
)


# a negation after the value, in languages that put it there (ja `$\\boxed{12}$ ではありません`, ko `이 아닙니다`, tr
# `değildir`, hi `नहीं है`, fa `نیست`, ta `அல்ல`, ur `نہیں`, bn `নয়`, ar `ليس`): the box is denied
_NEGATED_AFTER_BOX_RE = re.compile(
    r"[\s$.)}]*(?:では(?:あり|ない|なか)|じゃ(?:あり|ない|なか)|(?:이|가)?\s*아[니닙님닌]|değil|नहीं|नही|نیست|نمی\s*باشد|அல்ல|இல்லை"
    r"|نہیں|নয়|নহে|ليس|ليست)"
)


def _qualified_box(text: str) -> str | None:
    """The last box's value with the words that make it a bound or a denial, if they stand right around it
    (`the answer is at least \\boxed{12}`, `not \\boxed{12}`, `\\boxed{12} (upper bound)`): such a value is
    not stated as the answer, and the qualified text answers nothing."""
    start, end, content = outer_boxes(text)[-1]
    before = text[max(0, start - 40) : start]
    before = before[max((m.end() for m in _CLAUSE_START_RE.finditer(before)), default=0) :]
    lead = _BEFORE_BOX_RE.search(before) or _NOT_FINAL_LABEL_RE.search(text, max(0, start - 60), start)
    trail = _AFTER_BOX_RE.match(text[end : end + 60])
    if lead is None and trail is None and _NEGATED_AFTER_BOX_RE.match(text, end, end + 60):
        return f"not {content}"  # (read as the English denial `not \\boxed{12}`)
    words = lead.group() if lead is not None else trail.group() if trail is not None else ""
    if not words or (_APPROXIMATOR_RE.search(words) and re.search(r"\d\.\d", content or "")):
        return (
            None  # a decimal is an approximation by nature: `about \\boxed{0.7854}` (its digits are checked)
        )
    return f"{words.strip()} {content}" if lead is not None else f"{content} {words.strip()}"


# someone else's answer: a revision before it (`ignore the box above; the official answer key says`) adopts nothing
_THIRD_PARTY_RE = re.compile(
    r"\b(?:expected|reference|official|textbook|book'?s?|given|key|teacher'?s?|grader'?s?)\b", re.IGNORECASE
)


def _hedged_last_box(text: str) -> str | None:
    """Two boxed values where the clause of the last one offers it as an alternative (`\\boxed{8}.
    (Alternatively \\boxed{7}.)`, `... if repetition is allowed, the answer is \\boxed{13}`): both, a hedge."""
    boxes = [(start, end, content) for start, end, content in outer_boxes(text) if content is not None]
    if len(boxes) < 2:
        return None
    (_, prev_end, prev), (start, _, last) = boxes[-2], boxes[-1]
    lead = text[prev_end:start]
    lead = lead[max((m.end() for m in _SENTENCE_START_RE.finditer(lead)), default=0) :]
    if same_value(_unbox(prev).strip(), _unbox(last).strip()) or not offers_another(lead):
        return None
    if revised_between(text, prev_end, start) and not _THIRD_PARTY_RE.search(lead):
        return None  # `\\boxed{45}. I made an error above: ... The correct answer is \\boxed{35}.`
    return f"{_unbox(prev).strip()}, {_unbox(last).strip()}"
