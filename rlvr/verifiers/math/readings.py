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

_OPEN_RE = re.compile(
    r"\b(?:not\s+(?:(?:entirely|quite|fully|totally)\s+)?(?:clear|sure|certain|obvious)|unclear|ambiguous|uncertain"
    r"|unsure|can(?:no|')t\s+tell)\b[^.!?\n]{0,80}?(?:\b(?:reading|interpretation|interpret|intend|intended|meant"
    r"|means?|which|whether)\b)"
    r"|\b(?:which|what)\s+(?:reading|interpretation|the\s+problem\s+(?:means|intends|wants))\b[^.!?\n]{0,60}?"
    r"\b(?:not\s+(?:(?:entirely|quite)\s+)?(?:clear|sure|certain|obvious)|unclear|ambiguous)\b",
    re.IGNORECASE,
)
# what settles the doubt after it: a box, an answer phrase, a choice between the readings
_SETTLED_RE = re.compile(
    r"\\(?:boxed|fbox)\s*\{|\b(?:answer\s*(?:is|:)|I(?:'ll|\s+will)\s+(?:go|take|use|assume)|I\s+(?:assume|take)"
    r"|(?:assuming|taking)\s+the\s+(?:usual|standard|natural|first|intended))\b",
    re.IGNORECASE,
)
_VALUE_RE = re.compile(r"(?<![\w.^_{])-?\d+(?:\.\d+)?(?![\w.]|\^)")
_REACH = 1500  # (the doubt is looked for near the reply's end only: a linear, bounded scan)


def left_open(text: str) -> bool:
    """Whether the reply, after stating a value, calls the question's reading unresolved and lists two or more
    different values with nothing settling between them (see the module docstring)."""
    tail = text[-_REACH:]
    doubts = list(_OPEN_RE.finditer(tail))
    if not doubts:
        return False
    doubt = doubts[-1]
    if not _VALUE_RE.search(tail, 0, doubt.start()):
        return False  # the doubt comes before any value: the reply goes on to settle it
    after = tail[doubt.end() :]
    if _SETTLED_RE.search(after):
        return False
    return len({float(v) for v in _VALUE_RE.findall(after)}) >= 2
