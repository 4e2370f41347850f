"""An answer offered as one of several, or disowned by the structure around it.

Read by `extract.py` before and while it picks the final answer: other values offered beside the answer by
structure (a data field or a table of candidates, two different answer fields, candidates listed with their
probabilities, another reading's value), an answer card after the answer whose status field rejects it, an answer
left to a reading (`(depending on ...)`), an answers line that lists the parts inline, a second assignment in the
last value's sentence (`x = 3 or x = 5`), a pair of endpoints with another number in its sentence, an aside closing
the reply or leading the answer's line, and a number inside reported speech (`...25だと言っていました`).
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.answer_words import ASIDE_OPENERS, ASIDE_TAILS
from rlvr.verifiers.math.atoms import Extraction
from rlvr.verifiers.math.boxes import outer_boxes
from rlvr.verifiers.math.cards import card_rejects
from rlvr.verifiers.math.commitment import guess_contested
from rlvr.verifiers.math.phrases import _PHRASE_RE

# an answer stated as depending on something left open (`12/15 (depending on whether the ends count)`)
_DEPENDING_RE = re.compile(r"[(,;\u2014]\s*(?:depending|depends|dependent)\s+(?:on|upon)\b", re.IGNORECASE)


# a last sentence in brackets (`... 45 km. (By the way, the area is 78.5.)`, full-width `（顺便一提：…）`), or a
# bracketed remark in words closing the last sentence (`105 minutes (1 hour 45 minutes).`): an aside
_ASIDE_RE = re.compile(
    r"(?:(?<=[.!?\u3002])|(?<=\n))\s*(?:\(\s*[A-Z][^()]*\)|\uff08[^\uff08\uff09]*\uff09)\s*$"
    r"|(?<=[\w$])[ \t]*\((?=[^()\n]*[^\W\d_]{3})[^()\n]*\)[ \t]*[.\u3002]?\s*$"
)


_SENTENCE_END_RE = re.compile(r"(?<!\d)[.!?](?=\s|$)|\n")
# a line opened or led by an aside (`- Product of the roots, for completeness: $6$`, `By the way, ...`)
_ASIDE_LINE_RE = re.compile(r"\b(?:" + "|".join(ASIDE_OPENERS + ASIDE_TAILS) + r")\b", re.IGNORECASE)
# other values offered beside the answer, by structure: a data field of alternatives (`"alternatives": [45]`), a
# table of candidates with their confidences, a footnote marked on the answer that gives a value under a condition
# (`\\boxed{10} bits.*` ... `\\* 9 if leading zeros are dropped`)
_ALTERNATIVES_OFFERED_RE = re.compile(
    r"(?<![\w-])[\"']?(?:alternatives?|alternative_answers?|other_answers?|also_possible|candidates|runner_?ups?)[\"']?\s*:\s*"
    r"[\[{(]?\s*[\"']?-?\d"
    r"|^[ \t]*\|[ \t]*(?:candidates?|options?|answers?|values?)[ \t]*\|[ \t]*(?:confidence|probability|likelihood"
    r"|weight|score)[ \t]*\|"
    r"|\}\$*[^\n]{0,30}\*[ \t]*\n(?:[ \t]*\n)*[ \t]*\\?\*[ \t]+[^\n]*\d[^\n]*\b(?:if|when|unless|assuming)\b"
    # a line that gives another reading's value (`Alt. reading 2 → multiples of 7 or 11: 22.`)
    r"|^[ \t*_>-]*(?:alt\.?|alternative|other|another|second)[ \t]+(?:reading|interpretation)\b[^\n]*\d",
    re.IGNORECASE | re.MULTILINE,
)
# an answer field of a data object (`"answer": 56`, `"final_answer_int": 65`)
_ANSWER_FIELD_RE = re.compile(r"[\"'](?:final_)?answer(?:_\w{1,12})?[\"']\s*:\s*[\"']?(-?\d+(?:\.\d+)?)")


# a value with a probability of its own, one per line (`- 4 — 70%`, `1: 30%`): a list of candidates
_CANDIDATE_LINE_RE = re.compile(
    r"^[ \t]*(?:[-*\u2022][ \t]+)?\**-?\d+(?:\.\d+)?\**[ \t]*(?:[\u2014\u2013:(]|-(?=[ \t]))[ \t]*\d{1,3}(?:\.\d+)?[ \t]*%",
    re.MULTILINE,
)


def _alternatives_offered(text: str) -> bool:
    """Whether the reply offers its answer as one of several: by a field or a table of candidates (see above), two
    different answer fields of a data object (`{"answer": 56, "answer_int": 65}`), or candidates listed with their
    probabilities (`- 4 — 70%\n- 1 — 30%`)."""
    if _ALTERNATIVES_OFFERED_RE.search(text):
        return True
    values = {float(v) for v in _ANSWER_FIELD_RE.findall(text)} if "answer" in text else set()
    candidates = len(_CANDIDATE_LINE_RE.findall(text)) if "%" in text else 0
    return len(values) > 1 or candidates > 1


# a number inside reported speech, by the marker after it that closes the quote (ja `...25だと言っていました`,
# `...とのこと`, `...と書いてある`; ko `...25라고 했다`, `...이라고 말했다`)
_REPORTED_AFTER_RE = re.compile(
    r"[^\n\u3002.!?]{0,12}?(?:と(?:言|い)っ|と言う|と言わ|と書|とのこと|と聞|だそう|と主張|と答え"
    r"|(?:이)?라고\s*(?:했|말|하|주장)|다고\s*(?:했|말|하|주장))"
)


def _pair_guess(tail: str, pair: tuple[int, int], numbers: list[tuple[int, int]]) -> Extraction | None:
    """A pair of endpoints in prose (`(-2, 2)`, `(3, ∞)`) as the reply's last value: the answer when no other
    number stands in its sentence (`(-∞, -1) and (1, ∞)` is two sets: no answer) and nothing contests it."""
    ends = [m.end() for m in _SENTENCE_END_RE.finditer(tail, 0, pair[0])]
    stop = _SENTENCE_END_RE.search(tail, pair[1])
    lo, hi = (ends[-1] if ends else 0), (stop.start() if stop else len(tail))
    others = [(a, b) for a, b in numbers if not (pair[0] <= a and b <= pair[1])]
    if any(lo <= a and b <= hi for a, b in others) or guess_contested(tail, *pair, others):
        return None
    return Extraction(tail[pair[0] : pair[1]], "last_number")


# between two values assigned in one sentence: a connective and a name set anew (`x = 3 or x = 5`, `n = 3, or
# possibly n = 5`, `a = 3 and b = 5`): two answers offered, never the last one alone
_ASSIGNED_AGAIN_RE = re.compile(
    r"[ \t]*(?:[,;]|\b(?:or|and|but)\b)[ \t,]*(?:(?:or|possibly|maybe|perhaps|also|even)[ \t]+)*"
    r"[A-Za-z](?:_\{?\w+\}?)?[ \t]*=[ \t]*\Z"
)


def _second_assignment(tail: str, last: re.Match[str], numbers: list[tuple[int, int]]) -> bool:
    """Whether the number `last` is assigned after another number was assigned in its sentence (see above)."""
    before = [(a, b) for a, b in numbers if b <= last.start()]
    if not before:
        return False
    a, b = before[-1]
    return bool(re.search(r"=[ \t]*\Z", tail[max(0, a - 8) : a])) and bool(
        _ASSIGNED_AGAIN_RE.match(tail, b, last.start())
    )


# a closing answer line that lists the parts inline (`Answers: (i) $3x^2 - 3$; (ii) $x = \pm 1$; (iii) $2$.`)
_ANSWERS_LINE_RE = re.compile(
    r"^[ \t*#_]*(?i:final\s+)?(?i:answers?)\b[^:\n]{0,20}:[ \t*_]*(\([^\n]*)\s*\Z", re.MULTILINE
)


def _card_rejects(text: str) -> bool:
    """Whether an answer card after the reply's last box or answer phrase rejects it (`cards.card_rejects`)."""
    boxes = outer_boxes(text)
    tail = text[-3000:]
    phrases = (  # (`| answer | 5/12 |` is a field of the card, not the answer it records)
        [
            m
            for m in _PHRASE_RE.finditer(tail)
            if not tail[tail.rfind("\n", 0, m.start()) + 1 :].lstrip().startswith("|")
        ]
        if not boxes
        else []
    )
    end = boxes[-1][1] if boxes else (len(text) - len(text[-3000:]) + phrases[-1].end() if phrases else -1)
    return end >= 0 and card_rejects(text, end)


# two numbers joined by one or two short words of no arithmetic (`900 atau 1080`, `900 vagy 1080`, `900 ya da
# 1080`): the `or` of a language no list names; the English words that relate two numbers are left out
_JOINED_NUMBERS_RE = re.compile(
    r"(?<![\w.,])(-?\d+(?:\.\d+)?)[ \t]+([^\W\d_]{1,6}(?:[ \t]+[^\W\d_]{1,4})?)[ \t]+(-?\d+(?:\.\d+)?)(?![\w.,]*\d)"
)
# (English `or` is read by the hedge rules, which know what settles it: `Either 252 or 126 ... Going with 252`)
_RELATING_WORDS = frozenset(
    [
        "is",
        "are",
        "was",
        "be",
        "equals",
        "times",
        "plus",
        "minus",
        "by",
        "of",
        "per",
        "over",
        "to",
        "from",
        "and",
        "than",
        "out",
        "x",
        "mod",
        "in",
        "on",
        "at",
        "with",
        "for",
        "into",
        "as",
        "the",
        "a",
        "an",
        "or",
        "either",
        "nor",
    ]
)


def offered_beside(after: str, value: str) -> bool:
    """Whether the line closing the reply after its last formula offers the formula's value beside another one
    with a word no list knows (`$$... = 900^\\circ.$$` then `Jawaban akhirnya 900 atau 1080 derajat.`)."""
    last = after.rstrip()[-2000:]
    for m in _JOINED_NUMBERS_RE.finditer(last, last.rfind("\n") + 1):
        words = m.group(2).lower().split()
        if any(w in _RELATING_WORDS for w in words) or m.group(1) == m.group(3):
            continue
        if value in (m.group(1), m.group(3)):
            return True
    return False
