"""Boxes in asides: a value boxed in a remark about something else is not the reply's answer.

An aside is a bracketed sentence (`(The sum of the roots is \\boxed{6}.)`), a sentence opened by a remark
label (`Note that`, `For comparison`, `For reference`, `Remark:`, `By the way`, `A common mistake ...`) or
one that says its value was not asked (`..., which was not asked`), and another's claim: a clause whose subject is
another person reporting it (`My classmate claimed the answer is \\boxed{30}`). When a box outside the asides exists, the
asides' boxes are read as plain text (the last box outside them answers); when only asides hold boxes the
reply committed to no answer. An aside that offers its value as another answer (`(Alternatively \\boxed{7}.)`)
is a hedge, not an aside, and one that names its value the answer (`(Final answer: \\boxed{7})`) answers.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.answer_words import ASIDE_OPENERS, HEDGE_MARKERS, PITFALL_WORDS, REMARK_TITLES
from rlvr.verifiers.math.boxes import outer_boxes
from rlvr.verifiers.math.commitment import offers_another
from rlvr.verifiers.math.vocab import REVISION_WORDS

_LABELS = (
    *ASIDE_OPENERS,
    *(rf"{title}s?" for title in REMARK_TITLES),  # `Note that`, `Remarks:`
    r"(?:an?\s+|the\s+)?(?:common\s+|typical\s+)?(?:" + "|".join(PITFALL_WORDS) + ")",
)
# the start of a sentence: after a sentence end, a line break or an opening bracket
_SENTENCE_START_RE = re.compile(r"(?:^|(?<=[.!?])\s+|\n\s*|\(\s*)", re.M)
_LABEL_RE = re.compile(r"^[\s(*_]*(?:" + "|".join(_LABELS) + r")\b", re.IGNORECASE)
_NOT_ASKED_RE = re.compile(
    r"^[^.!?\n]*?\b(?:(?:was|is|were|are)\s+not|wasn't|isn't|not)\s+(?:what\s+(?:was|is)\s+)?asked\b",
    re.IGNORECASE,
)
#: How far before a box its aside may open: a sentence or bracket longer than this is no aside (and the
#: look-back stays bounded however many boxes a reply holds)
_REACH = 600
_SENTENCE_END_RE = re.compile(r"(?<!\d)[.!?]\)?(?=\s|$)|\n")
_ANSWER_WORD_RE = re.compile(r"\banswer\b", re.IGNORECASE)
# a revision in the aside replaces the answer (`Remark: ... so it is actually \boxed{7}`); `mistake` and
# `instead` name a pitfall or a counterfactual there, not a correction
_REVISION_RE = re.compile(
    r"\b(?:" + "|".join(w for w in REVISION_WORDS if w not in ("mistake", "instead")) + r")\b", re.IGNORECASE
)
# a counterfactual (`with replacement it would be`, `if it were ..., we would get`) describes another problem;
# a genuine hedge offers another answer to this one
_COUNTERFACTUAL_RE = re.compile(r"\bwould\b|\bwere\b", re.IGNORECASE)
# ... unless it offers another answer too (a hedge marker other than `would be`, a leading `or`, a question)
_GENUINE_HEDGE_RE = re.compile(
    r"\b(?:" + "|".join(w for w in HEDGE_MARKERS if w != r"would\s+be") + r"|or)\b|\?", re.IGNORECASE
)


def _bracketed(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies in a bracketed sentence: a `(` that opens a sentence before it, in the
    same paragraph, is closed only after it."""
    para = max(text.rfind("\n\n", max(0, start - _REACH), start) + 1, start - _REACH, 0)
    depth = 0
    for i in range(start - 1, para - 1, -1):
        ch = text[i]
        depth += ch == ")"
        depth -= ch == "("
        if depth < 0:  # the bracket that holds the box: does it open a sentence, and close after the box?
            before = text[para:i].rstrip()
            opens = not before or before.rstrip(")")[-1:] in (".", "!", "?", ":", "")
            close_depth = 0
            for j in range(end, min(len(text), end + 400)):
                close_depth += text[j] == "("
                close_depth -= text[j] == ")"
                if close_depth < 0:
                    return opens
                if text[j : j + 2] == "\n\n":
                    return False
            return False
    return False


def _lead(text: str, start: int, ends: str = ".!?;") -> str:
    """The words of the clause before position `start` (from the clause's start: one of `ends` or a line)."""
    para = max(text.rfind("\n", max(0, start - _REACH), start) + 1, start - _REACH, 0)
    lead = text[para:start]
    cut = re.compile(r"(?<!\d)[" + ends + r"]\)?(?:\s+|$)")
    # the last cut: looked for near the end first (a line of 5,000 boxes asks this once per box), then in the rest
    near = max(0, len(lead) - 120)
    cuts = [m.end() for m in cut.finditer(lead, near)] or (
        [m.end() for m in cut.finditer(lead)] if near else []
    )
    return lead[cuts[-1] :] if cuts else lead


# someone else's claim: a clause whose subject is another person or source and whose verb reports what they said
# (`My classmate claimed the answer is \\boxed{30}`); it states nothing of the reply's own, unless the reply turns
# to its own conclusion before the box (`He said so, hence \\boxed{5}`)
# (a named one too: a source, `The textbook says`, `GPT-4 says`, `Bob thinks`; or its answer, `The key's answer is`)
_SOURCES = (
    r"(?:answer\s+)?key|(?:text)?book|teacher|professor|tutor|instructor|manual|website|forum|internet|author"
)
_NOT_NAMES = (
    r"I|We|So|Thus|Then|Hence|Therefore|This|That|It|The|Now|Finally|Here|Our|Let|Theorem|Lemma|Corollary"
    r"|Proposition|Equation|Formula|Rule|Law|Definition|Step|Part|Case|Problem|Question|Hint|Note|Answer|Method"
)
_REPORTED_RE = re.compile(
    r"^[\s(*_]*(?:(?:(?i:my|our|your|his|her|their|a|an|one|some|another)\s+(?:[\w'-]+\s+){0,3}?"
    r"|(?i:someone|somebody|others?|people|he|she|they)\s+"
    rf"|(?i:the\s+)?(?i:{_SOURCES})\s+|(?!(?:{_NOT_NAMES})\b)[A-Z][\w.-]*(?:\s+[A-Z0-9][\w.-]*)?\s+)"
    r"(?i:(?:claim|say|think|believe|argue|suggest|insist|assert|post|guess)(?:s|ed)?|said|thought|wr[io]tes?)\b"
    rf"|(?i:the\s+)?(?i:{_SOURCES})(?:'s|s')\s+(?i:(?:final\s+)?(?:answer|solution|result|value))\s+(?i:is|was)"
    # (a source's word reported: `According to the answer key, ...`, `Laut Musterlösung ...`, `Según el
    # solucionario, ...`, `Some solutions online give ...`)
    rf"|(?i:according\s+to|per|laut|gem\u00e4\u00df|seg\u00fan|selon|d'apr\u00e8s|secondo|segundo)\s+(?:[\w'-]+\s+){{0,2}}?"
    rf"(?i:{_SOURCES}|solutions?(?:\s+manual)?|musterl\u00f6sung|l\u00f6sung(?:sschl\u00fcssel)?|solucionario|corrig\u00e9"
    r"|soluzion[ei]|gabarito|libro|livre|buch)\b"
    r"|(?i:some|other|several|many|most)\s+(?:[\w'-]+\s+)?(?i:solutions|sources|websites|books|answer\s+keys|people"
    r"|students|models)\s+(?:online\s+)?(?i:give|list|state|report|get|got))",
)
_OWN_TURN_RE = re.compile(
    r"\b(?:so|thus|therefore|hence|but|however|which\s+means|I|we)\b|[;:]", re.IGNORECASE
)


def _reported(lead: str) -> bool:
    """Whether `lead`, a clause before a box, reports another's claim (see `_REPORTED_RE`)."""
    m = _REPORTED_RE.match(lead)
    return m is not None and _OWN_TURN_RE.search(lead, m.end()) is None


def _in_aside(text: str, start: int, end: int) -> bool:
    """Whether the box at text[start:end] is in an aside (see the module docstring)."""
    lead = _lead(text, start)
    if _reported(lead):
        return True  # `My classmate claimed the answer is \\boxed{30}`: another's claim, not the reply's
    if _REVISION_RE.search(_lead(text, start, ".!?")):
        return False  # `Remark: ..., so it is actually \\boxed{7}`: a correction, the new answer
    counterfactual = _COUNTERFACTUAL_RE.search(lead) and not _GENUINE_HEDGE_RE.search(lead)
    if offers_another(lead.lstrip("( ")) and not counterfactual:
        return False  # `(Alternatively \\boxed{7}.)`: a hedge offers it as another answer
    pitfall = re.search(r"\b(?:" + "|".join(PITFALL_WORDS) + r")\b", lead, re.IGNORECASE)
    if _ANSWER_WORD_RE.search(lead) and not pitfall:
        return False  # `(So the answer is \\boxed{7}.)`: it names its value the answer
    return bool(
        _LABEL_RE.match(lead) or _bracketed(text, start, end) or _NOT_ASKED_RE.match(text[end : end + 200])
    )


def asides_unboxed(text: str) -> str | None:
    """`text` with the boxes of its asides read as plain text when a box outside them exists; None when every
    box is in an aside (no answer was committed), unless every one is another's claim: then the reply's own words
    are the rest, without the claims; `text` itself when the last box is not in an aside."""
    boxes = list(outer_boxes(text))
    if not boxes or boxes[-1][2] is None or not _in_aside(text, boxes[-1][0], boxes[-1][1]):
        return text
    boxes = [b for b in boxes if b[2] is not None]
    # from the last box back to the first one outside an aside: only the asides after it need reading
    asides: list[tuple[int, int, str | None]] = []
    for box in reversed(boxes):
        if not _in_aside(text, box[0], box[1]):
            break
        asides.append(box)
    else:
        if not all(_reported(_lead(text, b[0])) for b in boxes):
            return None
    out, pos = [], 0
    for s, e, _ in reversed(asides):
        if s >= pos:
            # the whole aside goes: what it says (a counterfactual, a pitfall) must not read as a hedge later
            begin = s - len(_lead(text, s))
            stop = _SENTENCE_END_RE.search(text, e)
            out.append(text[pos:begin] + " ")
            pos = stop.end() if stop else len(text)
    return "".join(out) + text[pos:]
