"""A reply that answers and then leaves the question's reading open: no answer.

`The count is **33**. Which reading the problem intends is not clear to me: | neither 2 nor 3 | 33 | | not both |
84 |` offers one value per reading and picks none; the first value is not committed to, whatever comes first. The
rule is by structure, not by the wording of the doubt alone: a sentence after a stated value that calls the
question's reading unresolved (`not clear`, `unclear`, `ambiguous`, `not sure`, with what it is about: which
reading, whether, what is meant), followed by two or more different values and no later commitment (a box, an
answer phrase, `I'll go with`), leaves the answer open between them. A doubt settled before the answer (`The
problem is ambiguous; I take the usual reading. So 33.`) is not this: the values after it are one.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.phrase_words import FOREIGN_HEDGES
from rlvr.verifiers.math.phrases import _PHRASE_RE

_OPEN_RE = re.compile(
    r"\b(?:not\s+(?:(?:entirely|quite|fully|totally)\s+)?(?:clear|sure|certain|obvious)|unclear|ambiguous|uncertain"
    r"|unsure|can(?:no|')t\s+tell)\b[^.!?\n]{0,80}?(?:\b(?:reading|interpretation|interpret|intend|intended|meant"
    r"|means?|which|whether)\b)"
    r"|\b(?:which|what)\s+(?:reading|interpretation|the\s+problem\s+(?:means|intends|wants))\b[^.!?\n]{0,60}?"
    r"\b(?:not\s+(?:(?:entirely|quite)\s+)?(?:clear|sure|certain|obvious)|unclear|ambiguous)\b"
    # (`The problem does not say whether ...`, `Two readings are possible`, `both readings are defensible`; es)
    r"|\b(?:does\s+not|doesn't|did\s+not|didn't)\s+(?:say|specify|state|make\s+clear)\s+(?:whether|if|which)\b"
    r"|\b(?:two|both)\s+(?:readings|interpretations)\b[^.!?\n]{0,40}?\b(?:possible|defensible|valid|reasonable"
    r"|plausible)\b"
    # (`There are two natural interpretations of ... here:`: the readings listed next)
    r"|\bthere\s+are\s+two\s+(?:[a-z]+\s+)?(?:readings|interpretations|ways\s+to\s+read)\b"
    r"|\bno\s+(?:queda|está)\s+claro\b|\bdepending\s+on\s+the\s+(?:reading|interpretation)\b"
    # (the problem called ambiguous in another language: de fr it es pt pl ru uk tr nl da/no sv, zh ja ko)
    r"|(?<![^\W\d_])(?:mehrdeutig|zweideutig|nicht\s+eindeutig|ambigu[eë]s?|ambigu[oa]|amb[íi]gu[oa]|niejednoznaczn\w*"
    r"|dwuznaczn\w*|неоднозначн\w*|двусмысленн\w*|belirsiz|dubbelzinnig|meerduidig|flertydig|tvetydig)(?![^\W\d_])"
    # (`niet duidelijk welke ...`, `Nie jestem pewien, czy ...`: nl pl)
    r"|\bniet\s+duidelijk\b|\bnie\s+jestem\s+pewn[ya]\b|\bnie\s+wiadomo\b"
    r"|题意不明|有歧义|存在歧义|歧義|曖昧|모호",
    re.IGNORECASE,
)
# what settles the doubt after it: a box, an answer phrase, a choice between the readings
_SETTLED_RE = re.compile(
    r"\\(?:boxed|fbox)\s*\{|\b(?:answer\s*(?:is|:)|I(?:'ll|\s+will)\s+(?:go|take|use|assume)|I\s+(?:assume|take)"
    r"|(?:assuming|taking)\s+the\s+(?:usual|standard|natural|first|intended)"
    # (the readings agree: `either way`, `dans les deux cas`, `in beiden Fällen`, `en ambos casos`)
    r"|either\s+way|in\s+both\s+cases|in\s+either\s+case|dans\s+les\s+deux\s+cas|in\s+beiden\s+F\u00e4llen"
    r"|in\s+jedem\s+Fall|en\s+ambos\s+casos|in\s+entrambi\s+i\s+casi|em\s+ambos\s+os\s+casos)\b",
    re.IGNORECASE,
)
_VALUE_RE = re.compile(
    r"(?<![\w.^_])(?<!\^\{)(?<!_\{)-?\d+(?:\.\d+)?(?!\w|\.\d|\^)"
)  # (not an exponent, index)
_RESULT_BEFORE_RE = re.compile(r"(?:=|\\boxed\{)[ \t$]*\Z")  # a value arrived at (read in a window of 12)
_REACH = 4000  # (the doubt is looked for near the reply's end only: a linear, bounded scan)


def left_open(text: str) -> bool:
    """Whether the reply, after stating a value, calls the question's reading unresolved and lists two or more
    different values with nothing settling between them (see the module docstring)."""
    tail = text[-_REACH:]
    doubts = list(_OPEN_RE.finditer(tail))
    if not doubts:
        return False
    doubt = doubts[-1]
    before = list(_VALUE_RE.finditer(tail, 0, doubt.start()))
    if not before:
        return False  # the doubt comes before any value: the reply goes on to settle it
    after = tail[doubt.end() :]
    if _SETTLED_RE.search(after):
        return False
    # (the givens the working used before, values no `=` arrived at, describe the readings: `si « entre » inclut 10
    # et 50, on obtient 6 ; sinon, c'est aussi 6` offers one value)
    given = {
        float(m.group())
        for m in before
        if not _RESULT_BEFORE_RE.search(tail, max(0, m.start() - 12), m.start())
    } - {float(before[-1].group())}  # (the answer is never a given)
    return len({float(v) for v in _VALUE_RE.findall(after)} - given) >= 2


# a `maybe` of any language (`vielleicht`, `quizás`, `可能是`, `たぶん`), and English's
_MAYBE_RE = re.compile(
    r"(?<![^\W\d_])(?:maybe|perhaps|possibly|probably)(?![^\W\d_])|" + "|".join(FOREIGN_HEDGES), re.IGNORECASE
)
_ANSWER_LABEL_RE = re.compile(r"^[ \t*_#>]*[^\W\d_]{2,12}[ \t*_]*[:\uff1a][ \t*_]*", re.MULTILINE)


def hedged_last_line(text: str) -> bool:
    """Whether the reply's last line offers its answer as a possibility: an answer label then `maybe` (`Antwort:
    vielleicht 9?`, `Respuesta: quizás 12.`), or `maybe` with two different values (`答案可能是 20，也可能是 16。`)."""
    line = text.rstrip()[-400:].rsplit("\n", 1)[-1]
    maybe = _MAYBE_RE.search(line)
    if maybe is None:
        return False
    label = _ANSWER_LABEL_RE.match(line)
    if label is not None and maybe.start() <= label.end() + 2:
        return True  # the answer itself comes as a possibility
    if any(0 <= maybe.start() - m.end() <= 2 for m in _PHRASE_RE.finditer(line)):
        return True  # `答えはたぶん 70° です。`: the answer phrase, then `maybe`
    if "\\boxed" in line or "\\fbox" in line or _PHRASE_RE.search(line, maybe.end()):
        return False  # (a box or an answer phrase on the line commits; the other rules weigh the rest)
    return len({float(v) for v in _VALUE_RE.findall(line)}) >= 2
