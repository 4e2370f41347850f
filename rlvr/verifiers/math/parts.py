"""A reply written in labelled parts (`**(a)** ... **(b)** ...`, `Part 1`, `(ii)`): its answer is each part's
answer, in the order of the parts, as a tuple `(5, 14)` (a gold listing the parts is read in that order).

A part's answer is its one box, or, in a part with no box, what the extractor reads in the part alone (its
answer phrase or final formula). (A worked part with no box answers only where the gold lists the parts: `loose`.) The parts are the last run of markers counted from the first (`a, b, c`,
`1, 2, 3`, `i, ii, iii`), so a closing `Answers:` block that lists them again (`(a) $24$ cm²\\n(b) $8$ cm³`) is
the answer, not the worked parts before it. Upper-case letters are options of a choice (`(A) 5`), not parts; a
reply with boxes before its parts, a box in no part, or a part with two different boxes, has no part answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rlvr.verifiers.math.boxes import outer_boxes

# a part marker opening a line: `**(a)**`, `(b)`, `b)`, `(ii)`, `Part (b):`, `**Part 2.**`, `### Part 3`
_PART_NAME = r"[a-h]|i{1,3}|iv|vi{0,3}"
_PART_RE = re.compile(
    r"^[ \t>#*_]*(?:\(?(" + _PART_NAME + r")\)(?=[\s*_:.,])"
    r"|(?i:part)[ \t]*\(?(" + _PART_NAME + r"|[1-9]|[A-H])\)?(?=[ \t*_:.\n]))",
    re.MULTILINE,
)
# the parts in order, in each way they are counted (a bare `i)` is the ninth letter only after `h)`)
_LINE = 200  # (the longest part of an `Answers:` block read without `loose`)
_PART_ORDERS = ("abcdefgh", "123456789", ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii"))


def _last_run(markers: list[re.Match[str]]) -> list[re.Match[str]]:
    """The last run of markers that counts the parts from the first (`a, b` after `a, b` of worked parts)."""
    names = [next(g for g in m.groups() if g is not None).lower() for m in markers]
    for start in range(len(names) - 2, -1, -1):
        run = names[start:]
        if any(run == list(order[: len(run)]) for order in _PART_ORDERS):
            return markers[start:]
    return []


def part_answers(text: str, answer_of: Callable[[str], str | None], loose: bool = False) -> str | None:
    """The answer of a reply written in labelled parts (see the module docstring), or None; `answer_of` reads
    the answer of a part that boxes nothing. Unless `loose`, such a part must be one short line (a closing
    `Answers:` block): a worked part with no box ends on its last value, which may be a step, so it answers only
    where the gold lists the parts (`decide`)."""
    if "(" not in text and ")" not in text and "art" not in text:
        return None
    markers = _last_run(list(_PART_RE.finditer(text)))
    if len(markers) < 2:
        return None
    boxes = outer_boxes(text)
    if any(b[2] is None for b in boxes) or any(b[0] < markers[0].start() for b in boxes):
        return (
            None  # a box before the parts (or one left open): the parts are not what the reply answers with
        )
    boxed = any(b[0] >= markers[0].start() for b in boxes)
    values = []
    for k, marker in enumerate(markers):
        end = markers[k + 1].start() if k + 1 < len(markers) else len(text)
        inside = {(b[2] or "").replace(" ", "") for b in boxes if marker.start() <= b[0] < end}
        if len(inside) > 1 or "" in inside:
            return None  # two different boxes in one part: no answer of its own
        region = text[marker.end() : end].strip()
        if not inside and not loose and (boxed or "\n" in region or len(region) > _LINE):
            return None  # a worked part with no box (see above), or one beside boxed parts
        value = inside.pop() if inside else answer_of(region)
        if not value or not value.strip():
            return None  # a part with no answer
        values.append(value.strip())
    if boxed and _restated_otherwise(text[boxes[-1][1] :], markers, values):
        return None  # boxed parts, then `Final answers: (a) 2/9, (b) 5/9` with another value: two answers
    if _PARTS_WITHDRAWN_RE.search(text, boxes[-1][1] if boxed else markers[-1].end()):
        return None  # `... so treat (a) and (b) as unverified.`: parts withdrawn by name, none redone
    if boxed:
        _revise_parts(text[boxes[-1][1] :], markers, values)
    return "(" + ", ".join(values) + ")"


# parts withdrawn by name after their boxes (`treat (a) and (b) as unverified`, `parts (a) and (b) are wrong`)
_NAMED_PARTS = (
    r"(?:parts?[ \t]*)?\(?(?:"
    + _PART_NAME
    + r")\)?(?:[ \t]*(?:,|and|&)[ \t]*(?:part[ \t]*)?\(?(?:"
    + _PART_NAME
    + r")\)?)*"
)
_PARTS_WITHDRAWN_RE = re.compile(
    # (`Scratch part (b) — ...`, `Correction to part (b): ...`: a part taken back or corrected by name)
    r"\b(?:scratch|ignore|disregard|strike|withdraw|retract)[ \t]+"
    + _NAMED_PARTS
    + r"(?![\w(])|\b(?:correction|erratum|fix|update)[ \t]+(?:to|for|of|on)[ \t]+"
    + _NAMED_PARTS
    + r"(?![\w(])|\b(?:treat|consider|mark|regard)[ \t]+"
    + _NAMED_PARTS
    + r"[ \t]+as[ \t]+(?:unverified|wrong|invalid|incorrect"
    r"|unreliable|withdrawn|void|provisional)\b"
    r"|\bparts?[ \t]*\(?(?:"
    + _PART_NAME
    + r")\)?(?:[ \t]*(?:,|and|&)[ \t]*\(?(?:"
    + _PART_NAME
    + r")\)?)*[ \t]+"
    r"(?:is|are)[ \t]+(?:both[ \t]+)?(?:wrong|invalid|incorrect|unverified|unreliable)\b",
    re.IGNORECASE,
)
# a closing line that lists the parts' answers inline: `Final answers: (a) $\frac29$, (b) $\frac{5}{9}$`
# (a bracket inside a value is its own, unless it names the next part: `(a) 7 (b) 6` lists two)
_INLINE_PART_RE = re.compile(
    r"\(("
    + _PART_NAME
    + r"|[1-9])\)[ \t]*([^,;\n()]+(?:\((?!(?:"
    + _PART_NAME
    + r"|[1-9])\))[^()\n]*\)[^,;\n()]*)*)"
)
_FRACTION_RE = re.compile(r"^(-?)\\[dt]?frac\s*(?:\{(\d+)\}|(\d))\s*(?:\{(\d+)\}|(\d))$")


def _simple_value(text: str) -> Fraction | None:
    """The value of a plain number or fraction (`3`, `-0.5`, `5/9`, `\\frac{5}{9}`, `\\frac29`), else None."""
    text = text.strip().strip("$*_ .").replace(" ", "")
    m = _FRACTION_RE.match(text)
    if m is not None:
        num, den = m.group(2) or m.group(3), m.group(4) or m.group(5)
        return None if int(den) == 0 else Fraction(int(num), int(den)) * (-1 if m.group(1) else 1)
    try:
        return Fraction(text) if re.fullmatch(r"-?\d+(?:\.\d+)?(?:/[1-9]\d*)?", text) else None
    except (ValueError, ZeroDivisionError):
        return None


def _restated_otherwise(after: str, markers: list[re.Match[str]], values: list[str]) -> bool:
    """Whether a line after the last box restates a part's answer inline with another value (see above)."""
    names = [next(g for g in m.groups() if g is not None).lower() for m in markers]
    for line in after.split("\n"):
        if "answer" not in line.lower():
            continue
        for m in _INLINE_PART_RE.finditer(line):
            name = m.group(1).lower()
            if name not in names:
                continue
            stated, boxed = _simple_value(m.group(2)), _simple_value(values[names.index(name)])
            if stated is not None and boxed is not None and stated != boxed:
                return True
    return False


_INLINE_ORDERS = (tuple("abcdefgh"), ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii"), tuple("123456789"))


def inline_parts(line: str) -> str | None:
    """The parts an answer line lists inline, in order (`Answers: (i) $3x^2 - 3$; (ii) $x = \\pm 1$; (iii) $2$.`
    is `(3x^2 - 3, \\pm 1, 2)`, never its last part alone); None unless two parts or more are listed from the first."""
    found = list(_INLINE_PART_RE.finditer(line))
    names = [m.group(1).lower() for m in found]
    if len(found) < 2 or not any(tuple(names) == order[: len(names)] for order in _INLINE_ORDERS):
        return None
    values = [re.sub(r"^[A-Za-z]\s*=\s*", "", m.group(2).strip().strip("$*_ .;:").strip()) for m in found]
    return "(" + ", ".join(values) + ")" if all(values) else None


# a part's answer stated anew by name after a revision (`Actually, rereading part (b), ... and part (b) is $10$.`)
_PART_RESTATED_RE = re.compile(
    r"\bpart[ \t]*\(?("
    + _PART_NAME
    + r"|[1-9])\)?[ \t]*(?:is|=|:|equals)[ \t]*\$?([^$\s,;]+?)\$?[ \t]*(?:[.,;]|$)",
    re.IGNORECASE | re.MULTILINE,
)
_REVISION_OPENER_RE = re.compile(
    r"\b(?:actually|wait|correction|rereading|re-reading|oops|I\s+copied)\b", re.I
)


def _revise_parts(after: str, markers: list[re.Match[str]], values: list[str]) -> None:
    """Replace in `values` the parts that an explicit revision after the last box states anew by name."""
    revision = _REVISION_OPENER_RE.search(after)
    if revision is None:
        return
    names = [next(g for g in m.groups() if g is not None).lower() for m in markers]
    for m in _PART_RESTATED_RE.finditer(after, revision.start()):
        if m.group(1).lower() in names:
            values[names.index(m.group(1).lower())] = m.group(2)
