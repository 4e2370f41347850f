"""How the last two formulas of a reply relate, when no box or answer phrase names its answer: assignments to
different names joined by a conjunction are one answer (`$x = 3$, and then $y = 2$`), the same name assigned
again after `Also` is two answers (`$x = 4$. Also $x = 9$.`), and two labelled values side by side
(`$$\\text{Total} = 8$$ $$\\text{Rows} = 7$$`) are no answer."""

from __future__ import annotations

import re

# `$x = 3$, and then $y = 2$`: assignments to different names joined by a conjunction are one answer
_ASSIGNMENT_GAP_RE = re.compile(r"^\s*,?\s*(?:and\s+)?(?:then\s+)?$")


_ASSIGNMENT_RE = re.compile(r"^\s*([A-Za-z](?:_\{?\w+\}?)?)\s*=")


def assignments_joined(text: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two spans assign different names and only a conjunction (`, and then`) stands between them."""
    a = _ASSIGNMENT_RE.match(next(g for g in first.groups() if g is not None))
    b = _ASSIGNMENT_RE.match(next(g for g in second.groups() if g is not None))
    gap = text[first.end() : second.start()]
    return (
        a is not None and b is not None and a.group(1) != b.group(1) and bool(_ASSIGNMENT_GAP_RE.match(gap))
    )


# `$x = 4$. Also $x = 9$.`: the same name assigned again after `also`, `or`, `another ... is`: two answers
_ALSO_GAP_RE = re.compile(
    r"^[\s$.,;]*(?:and\s+)?(?:also|additionally|or|another(?:\s+\w+)?\s+is|as\s+well)\b[\s,:]*$",
    re.IGNORECASE,
)


def also_assigned(text: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two spans assign the same name, joined by `Also` (see above)."""
    a = _ASSIGNMENT_RE.match(next(g for g in first.groups() if g is not None))
    b = _ASSIGNMENT_RE.match(next(g for g in second.groups() if g is not None))
    gap = text[first.end() : second.start()]
    return a is not None and b is not None and a.group(1) == b.group(1) and bool(_ALSO_GAP_RE.match(gap))


_TEXT_LABEL_RE = re.compile(r"^\s*\\(?:text|mathrm)\s*\{[^{}]*\}\s*=\s*([^=]+)$")


def labelled_beside(tail: str, spans: list[re.Match[str]]) -> bool:
    """Whether the last formula and the one right before it (only space between) label different values."""
    if len(spans) < 2 or tail[spans[-2].end() : spans[-1].start()].strip():
        return False
    last, prev = (
        _TEXT_LABEL_RE.match(next(g for g in sp.groups() if g is not None)) for sp in spans[-2:][::-1]
    )
    return last is not None and prev is not None and last.group(1).strip() != prev.group(1).strip()
