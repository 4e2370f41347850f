"""Replies cut off before they committed to an answer: at the token limit mid-sentence, or inside a `<think>`
block that was never closed. Such a reply has no answer unless a box or an answer phrase already stated one:
the last number of unfinished reasoning is a draft (`... $60 \\times 2 = 120$ km. Then it slows to`), and
rewarding it would reward stopping anywhere after any right-looking intermediate value. A reply that says it
did not finish (`I ran out of time before finishing.`) has no answer either (`declared_unfinished`).
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.checks import check_line
from rlvr.verifiers.math.vocab import ERROR_WORDS
from rlvr.verifiers.math.withdrawal import _SENTENCES_RE, _VALUE_RE

_THINK_OPEN_RE = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE_RE = re.compile(r"</think>", re.IGNORECASE)

# how an unfinished reply ends: on a word (not a unit right after its number: `28 percent`, `$5$ apples`), a
# connective operator, a comma or an open bracket. Other scripts and symbols (`4000千克`, `।`, `✓`) end nothing
# for certain, so they count as finished: no answer is withheld on a guess.
_CLOSING_EMPHASIS_RE = re.compile(r"(?<=[.!?)\]$\w])(?:\*{1,2}|_{1,2})\s*\Z")
_UNIT_AFTER_NUMBER_RE = re.compile(r"(?:\d|\$|%)\s*\Z")
_OPEN_END_RE = re.compile(r"(?:[=+\-/^_,({\[&]|\\[a-zA-Z]*)\Z")


def drop_unclosed_think(text: str) -> str:
    """`text` up to a `<think>` that is never closed: what follows it is an unfinished draft, not an answer."""
    opens = list(_THINK_OPEN_RE.finditer(text))
    if not opens:
        return text
    last = opens[-1]
    if _THINK_CLOSE_RE.search(text, last.end()):
        return text
    return text[: last.start()]


# an inline formula opened and never closed at the reply's end, with an operator in it and no sentence end after
# it: `再验证一下：$2 + 6 + 18 + 54 + 162 = 2` was cut inside a check (money, `$12 x 3 = 36 dollars.`, ends its
# sentence)
_SINGLE_DOLLAR_RE = re.compile(r"(?<![\\$])\$(?!\$)")
_FORMULA_OPERATOR_RE = re.compile(r"[=+\-*/^<>]|\\[a-zA-Z]")
_FINISHED_RE = re.compile(r"[.!?\u3002\uff01\uff1f)\]]\s*\Z")


def _inside_open_formula(stripped: str) -> bool:
    """Whether `stripped` ends inside an inline formula that its last single `$` opened (see above)."""
    tail = stripped[-300:]
    dollars = list(_SINGLE_DOLLAR_RE.finditer(tail))
    if not dollars or len(_SINGLE_DOLLAR_RE.findall(stripped)) % 2 == 0:
        return False
    formula = tail[dollars[-1].end() :]
    return (
        bool(
            re.match(r"[^\s.,;:!?]", formula)
        )  # a formula opens on its content (`30 $. Le coût`: a currency)
        and "\n\n" not in formula
        and bool(_FORMULA_OPERATOR_RE.search(formula))
        and not _FINISHED_RE.search(formula)
    )


def cut_off(text: str) -> bool:
    """Whether a reply stops mid-sentence: it ends on a word that is no unit of a number before it
    (`... for the remaining`), on an operator, a comma or an open bracket (`... = f(7) =`, `\\frac{abc}{`), or
    inside an inline formula it opened (`$2 + 6 + 18 = 2`)."""
    # (a closing emphasis ends nothing open: `**The school raised $4,500 in total.**`)
    stripped = _CLOSING_EMPHASIS_RE.sub("", text.rstrip())
    if _OPEN_END_RE.search(stripped) or _inside_open_formula(stripped):
        return True
    start = len(stripped)
    while start > 0 and stripped[start - 1].isascii() and stripped[start - 1].isalpha():
        start -= 1  # the last word, found from the end (a regex search would rescan every run of letters)
    return start < len(stripped) and not _UNIT_AFTER_NUMBER_RE.search(stripped[max(0, start - 200) : start])


# words that withdraw what was said before them (`Wait, I misread`, `that's not right`, `Let me redo this`); a
# plain check (`let me check`) withdraws nothing
_WITHDRAWING_RE = re.compile(
    r"\b(?:wait|actually|oops|sorry|correction|misread|redo|start\s+over|"
    + "|".join(ERROR_WORDS)
    + r")\b|\bno,",
    re.IGNORECASE,
)


# a later part opening (`**Part (b).**`, `(b)`, `Now for the second part`): what follows answers another part
_NEXT_PART_RE = re.compile(
    r"^[ \t>#*_]*(?:part[ \t]*\(?(?:[b-h]|ii|iii|iv|[2-9])\b|\((?:[b-h]|ii|iii|iv)\)|[b-h]\)(?=\s))"
    r"|\b(?:now\s+)?for\s+the\s+(?:second|next|third|last)\s+part\b",
    re.IGNORECASE | re.MULTILINE,
)


def revising_when_cut(text: str) -> bool:
    """Whether a reply was cut off (see `cut_off`) in a last paragraph that withdraws what came before it
    (`\\boxed{12}. Wait, I misread the problem: it asks for odd divisors, so`): whatever it committed to
    earlier was being revised, and the revision never arrived; or in a part that opened after its last box
    (`\\boxed{\\frac{5}{12}}. **Part (b).** ... = `): the box answers an earlier part, the last was never answered."""
    if not cut_off(text):
        return False
    last = re.split(r"\n\s*\n", text.rstrip())[-1]
    box = text.rfind("\\boxed")
    return bool(_WITHDRAWING_RE.search(last)) or (box >= 0 and _NEXT_PART_RE.search(text, box) is not None)


def cut_in_check(text: str) -> str | None:
    """The reply before its last line when it was cut off inside a line a check label opens, while writing the
    value it stated before again (`所以概率为 $\\frac{5}{12}$。\\n\\n验算：... 所以概率确实是 $\\frac{5}{1`): the check had
    come back to the answer, which stands; None otherwise. A check cut before it arrived anywhere
    (`所以 $a^3+b^3=91$。\\n\\n验证：$3^3+4^3=27+`) might still have found an error: no answer."""
    if not cut_off(text):
        return None
    start = text.rstrip().rfind("\n") + 1
    before = text[:start].rstrip()
    if not start or not check_line(text[start:], labelled_only=True) or cut_off(before):
        return None
    formulas = re.findall(r"(?<![\\$])\$([^$]+)\$", before)
    if not formulas or len(_SINGLE_DOLLAR_RE.findall(text)) % 2 == 0:
        return None  # nothing stated before, or the cut fell outside a formula
    opened = _SINGLE_DOLLAR_RE.split(text.rstrip())[-1].replace(" ", "")  # the formula the cut fell in
    value = formulas[-1].replace(" ", "")  # the last one stated before the check, or its right side
    restating = opened != value and any(v.startswith(opened) for v in {value, value.rsplit("=", 1)[-1]})
    return before if opened and restating else None


_FORMULA_RE = re.compile(r"\\(?:boxed|fbox)\b|\$[^$]+\$|\\\(|\\\[")
# a declaration that the reply has no answer: it ran out of time, could not solve, has not derived or computed it
_UNABLE = (
    r"could\s+not|couldn't|cannot|can't|can\s+not|was\s+unable\s+to|am\s+unable\s+to|were\s+unable\s+to"
    r"|(?:was|am|were)\s+not\s+able\s+to|wasn't\s+able\s+to|weren't\s+able\s+to|failed\s+to"
    r"|(?:have\s+not|haven't)\s+been\s+able\s+to|did\s+not\s+manage\s+to|didn't\s+manage\s+to|did\s+not|didn't"
)
_UNFINISHED_RE = re.compile(
    r"\b(?:i|we)\s+(?:have\s+|had\s+)?r[au]n\s+out\s+of\s+(?:time|space|tokens|room)"
    r"|\b(?:i|we)\s+(?:"
    + _UNABLE
    + r")\s+(?:fully\s+|yet\s+)?(?:solve|finish|complete|determine|derive|compute"
    r"|calculate|work\s+(?:it\s+)?out|figure\s+(?:it\s+)?out)\b"
    r"|\b(?:i|we)\s+(?:have\s+not|haven't|had\s+not|hadn't)\s+(?:yet\s+)?(?:solved|finished|completed|derived"
    r"|computed|calculated|determined|worked\s+(?:it\s+)?out|figured\s+(?:it\s+)?out)\b"
    r"|\bbefore\s+(?:finishing|completing)\b|\b(?:i|we)\s+give\s+up\b"
    r"|\b(?:my|this|the)\s+(?:solution|computation|answer|work)\s+is\s+(?:incomplete|unfinished)\b"
    r"|\bnot\s+(?:yet\s+)?attempted\b|\bunattempted\b|\bleft\s+blank\b|\bno\s+answer\s+given\b",  # `**Q4.** (not attempted)`
    re.IGNORECASE,
)


def declared_unfinished(text: str) -> bool:
    """Whether a sentence after the reply's last value declares that it has no answer (`I ran out of time
    before finishing.`, `I could not solve this problem.`, `I have not derived it.`): then no value answers.
    (Not being able to check, `I could not verify it`, is doubt: it withdraws nothing.)"""
    declared = stated = -1
    for i, m in enumerate(_SENTENCES_RE.finditer(text)):
        sentence = m.group()
        said = _UNFINISHED_RE.search(sentence)
        if said is None:
            stated = i if _VALUE_RE.search(sentence) else stated
        elif _FORMULA_RE.search(sentence, said.end()):
            stated = i  # `I could not solve it by factoring, so the formula gives $\\boxed{7}$.`
        else:
            declared = i  # (a bare number in it names a step: `before finishing step 3`)
    return declared > stated
