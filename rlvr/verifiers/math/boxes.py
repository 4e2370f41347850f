"""Finding `\\boxed{}`/`\\fbox{}` answers: the outermost boxes of a text in one linear pass, nested boxes, and
the last box of a reply (several boxes at its end that are one answer are joined)."""

from __future__ import annotations

import functools
import re

from rlvr.verifiers.math.vocab import CONTRASTS

_BOX_RE = re.compile(r"\\(?:boxed|fbox)\b")


def braced_group(text: str, start: int) -> tuple[str, int] | None:
    """The content of the `{...}` group opening at or after `start` (skipping spaces), and its end index."""
    i = start
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2  # `\{` and `\}` do not group
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return None


def _brace_pairs(text: str) -> dict[int, int]:
    """Index of each `{` -> index of its matching `}` (unmatched ones absent), in one linear pass."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACE_TOKEN_RE.finditer(
        text
    ):  # (only braces and escapes are visited: a long text of prose is cheap)
        token = m.group()
        if token == "{":
            stack.append(m.start())
        elif token == "}" and stack:
            pairs[stack.pop()] = m.start()
    return pairs


# a brace, or an escape with the character it escapes (`\{` and `\}` do not group)
_BRACE_TOKEN_RE = re.compile(r"\\[\s\S]|[{}]")


@functools.lru_cache(maxsize=16)
def outer_boxes(text: str) -> tuple[tuple[int, int, str | None], ...]:
    """Every outermost `\\boxed{}`/`\\fbox{}` as (start, end, content); content None if unterminated.

    Linear in the text (one brace pass), so thousands of unterminated boxes cost no more than one. One grading
    asks for the boxes of the same text several times (last box, hedges, qualifiers), so the last few texts'
    answers are kept (a pure function of the text; the result is immutable).
    """
    return tuple(_findouter_boxes(text))


def _findouter_boxes(text: str) -> list[tuple[int, int, str | None]]:
    matches = list(_BOX_RE.finditer(text))
    if not matches:
        return []
    pairs = _brace_pairs(text)
    boxes: list[tuple[int, int, str | None]] = []
    covered = -1  # end of the last closed outer box: boxes before it are nested
    for m in matches:
        if m.start() < covered:
            continue
        i = m.end()
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "{":
            close = pairs.get(i)
            if close is None:
                boxes.append((m.start(), len(text), None))
                continue
            boxes.append((m.start(), close + 1, text[i + 1 : close].strip()))
            covered = close + 1
        else:
            bare = re.match(r"\s+([^\s$]+)", text[m.end() :])  # `\boxed 5`
            boxes.append((m.start(), m.end() + (bare.end() if bare else 0), bare.group(1) if bare else ""))
    return boxes


def _unbox(content: str) -> str:
    """`\\boxed{\\boxed{5}}` -> `5`: a box whose whole content is another box."""
    for _ in range(20):
        inner = outer_boxes(content)
        if len(inner) != 1 or inner[0][2] is None or inner[0][0] != 0 or inner[0][1] != len(content):
            break
        content = inner[0][2]
    return content


# What may stand between the boxes of one answer (`\boxed{1}, \boxed{2}`, `x = \boxed{1} and x = \boxed{-2}`)
_BOX_GAP_PARTS = (
    r"[\s$,;.&]",
    r"\\[()\[\]]",
    r"\\(?:quad|qquad|,|;|:)(?![a-zA-Z])",
    r"\\text\s*\{\s*(?:and|or|,)?\s*\}",
    r"\band\b",
    r"\bor\b",
    # a short text between boxes that is not a contrast (`\text{ for }`, never `\text{ but not }`)
    r"\\(?:text|mathrm)\s*\{(?![a-z ]*\b(?:" + "|".join(CONTRASTS) + r")\b)\s*[a-z ]{0,12}\}",
    r"[A-Za-z](?:_\{?\w+\}?)?(?:\([a-z]\))?\s*=",  # `x = \boxed{1} and x = \boxed{-2}`
    r"\\text\s*\{\s*(?:for|in)\s+part\s*\(?[a-z0-9]\)?\s*(?:,|and)?\s*\}",  # `\text{ for part (a) and }`
    r"\(\s*(?:for|in)\s+part\s*\(?[a-z0-9]\)?\s*\)\s*(?:,|and)?",
    # markup that hides a box or sets two side by side (a comment, code, text, a row break, a relation)
    r"%|<!--|-->|`{3}|\\iffalse|\\fi\b|\\(?:begin|end)\s*\{comment\}|\\text\s*\{\s*\(?|[()/=]|[\^_]\s*\{?|\\(?:hfill|neq?|\\)(?![a-zA-Z])|\b(?:vs|versus)\b\.?",
)
_BOX_GAP_RE = re.compile(r"^(?:" + "|".join(_BOX_GAP_PARTS) + r")*$")


def box_groups(text: str) -> list[tuple[int, int, str]]:
    """The closed boxes of `text` as answers: (start, end, content), the boxes of one answer split over several
    (`\\boxed{1} and \\boxed{2}`, nothing but connectives between them) joined as `last_boxed` joins them."""
    groups: list[tuple[int, int, str]] = []
    prev_end = None
    for start, end, content in outer_boxes(text):
        if content is None:
            prev_end = None
            continue
        part = _unbox(content)
        if prev_end is not None and groups and _BOX_GAP_RE.match(text[prev_end:start]):
            first, _, joined = groups[-1]
            groups[-1] = (first, end, ", ".join(p for p in (joined, part) if p))
        else:
            groups.append((start, end, part))
        prev_end = end
    return groups


def last_boxed(text: str) -> str | None:
    """Content of the last `\\boxed{}`/`\\fbox{}`; '' if it is empty or unterminated; None if there is none.

    Boxes at the end that are one answer split over several boxes (`\\boxed{1} and \\boxed{2}`, one box per
    root, nothing but connectives between them) are joined with commas: `1, 2`.
    """
    boxes = outer_boxes(text)
    if not boxes:
        return None
    last = boxes[-1]
    if last[2] is None:
        return ""
    parts = [_unbox(last[2])]
    for prev, nxt in zip(reversed(boxes[:-1]), reversed(boxes[1:])):
        if prev[2] is None or not _BOX_GAP_RE.match(text[prev[1] : nxt[0]]) or len(parts) >= 50:
            break
        parts.append(_unbox(prev[2]))
    if len(parts) == 1:
        return parts[0]
    return ", ".join(p for p in reversed(parts) if p)
