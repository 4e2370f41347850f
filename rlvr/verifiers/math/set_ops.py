"""Set operations between literal sets, intervals and points, taken exactly so the result compares as one set:

- a union of intervals merges the ones that overlap or touch at a closed end (`(0, 1] \\cup [1, 2)` is (0, 2));
- a union of finite sets of numbers is one set (`\\{1, 2\\} \\cup \\{3\\}` is {1, 2, 3}), each value once;
- a difference of finite sets of numbers keeps the left's elements not on the right (`\\{2, 3, 4\\} \\setminus
  \\{4\\}` is {2, 3});
- an interval's integers are listed when there are few (`[1, 3] \\cap \\mathbb{Z}` is {1, 2, 3}), two intervals
  meet in an interval (`[0, 2] \\cap [1, 3]` is [1, 2]);
- an interval (`\\R` among them) without points is the pieces between the points that lie in it
  (`(0, 2) \\setminus \\{1\\}` is (0, 1) ∪ (1, 2); `(0, 2) \\setminus \\{3\\}` is (0, 2); `[0, 2] \\setminus
  \\{0\\}` is (0, 2]); without an interval or a union of them, it is what lies below and above each
  (`\\R \\setminus [2, 3]` is (-∞, 2) ∪ (3, ∞): a closed end removed leaves an open one).

The reals of one sign (`\\R^+`, `\\R_{\\ge 0}`) are that half-line. A set written by its condition on one variable,
`\\{x \\mid x < 2 \\text{ or } x > 3\\}` (`|`, `:` and `x \\in \\R` alike), is the set of reals its condition
denotes, when the condition names no other variable.

Only exact real values are compared (an element or point without one leaves the expression as written, or, for
points removed from `\\R`, unparsable), so no rounding can make two different sets equal.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.inequalities import end_value, merged_intervals, set_difference
from rlvr.verifiers.math.shapes import Answer, AnswerParseError, Interval, Scalar, Seq, Union


def as_interval(part: Answer) -> Interval | None:
    """An interval, or a pair in brackets that reads as one (`(0, 2)`, `[1, 3)`), or None."""
    if isinstance(part, Interval):
        return part
    if (
        isinstance(part, Seq)
        and len(part.items) == 2
        and part.left in ("(", "[")
        and part.right in (")", "]")
    ):
        lo, hi = part.items
        if isinstance(lo, Scalar) and isinstance(hi, Scalar):
            return Interval(lo, hi, part.left == "(", part.right == ")")
    return None


def _finite_set(part: Answer) -> list[Scalar] | None:
    """The elements of a literal set of scalars (`\\{1, 2\\}`), or None."""
    if isinstance(part, Seq) and part.left == "\\{" and all(isinstance(i, Scalar) for i in part.items):
        return list(part.items)  # type: ignore[arg-type]
    return None


def _points(part: Answer) -> list[tuple[Fraction, Scalar]]:
    """Exact real points, sorted and each once (`\\{1, 2\\}` or a lone `1`); raises when one has no such value."""
    items = part.items if isinstance(part, Seq) and not part.ordered else [part]
    points: dict[Fraction, Scalar] = {}
    for item in items:
        if not isinstance(item, Scalar):
            raise AnswerParseError("only points can be removed from an interval")
        try:
            value = ev.exact_value(item.node, {})
        except (ev.NotExact, ev.TooBig, ArithmeticError) as exc:
            raise AnswerParseError("removed points must be exact real numbers") from exc
        if value[1]:
            raise AnswerParseError("removed points must be real")
        points.setdefault(value[0], item)
    return sorted(points.items(), key=lambda p: p[0])


_INF = Scalar(("const", "oo"), "\\infty")
_NINF = Scalar(("neg", ("const", "oo")), "-\\infty")


def _removed_intervals(removed: Answer) -> list[Interval] | None:
    """The intervals a removed set is made of (`[2, 3]`, `(0, 1) \\cup [2, 3]`), or None when it is no interval
    (points: `\\{1, 2\\}`, a lone `1`)."""
    parts = removed.parts if isinstance(removed, Union) else [removed]
    spans = [as_interval(p) for p in parts]
    return None if any(s is None for s in spans) else [s for s in spans if s is not None]


def _minus_intervals(interval: Interval, removed: list[Interval]) -> Answer:
    """`interval` without each interval of `removed`: what of it lies below and above each one."""
    pieces: list[Answer] = [interval]
    for cut in removed:
        below = Interval(_NINF, cut.lo, True, not cut.lo_open)  # a closed end removed leaves an open one
        above = Interval(cut.hi, _INF, not cut.hi_open, True)
        kept: list[Answer] = []
        for piece in pieces:
            if isinstance(piece, Seq):  # a point left over (`[0, 2] \\setminus (0, 2]` is {0}): [p, p]
                piece = Interval(piece.items[0], piece.items[0], False, False)  # type: ignore[arg-type]
            for side in (below, above):
                part = intersection(piece, side) if isinstance(piece, Interval) else None
                if part is None:
                    raise AnswerParseError("an interval end has no exact value")
                if not (isinstance(part, Seq) and not part.items):  # the empty set adds nothing
                    kept.append(part)
        pieces = kept
    if not pieces:
        return Seq([], ordered=False, left="\\{", right="\\}")
    return pieces[0] if len(pieces) == 1 else merged_union(pieces)


def interval_without(interval: Interval, removed: Answer) -> Answer:
    """`interval` with exact real points, or intervals, removed: the pieces left (see the module docstring)."""
    spans = _removed_intervals(removed)
    if spans is not None:
        return _minus_intervals(interval, spans)
    lo, hi = end_value(interval.lo.node), end_value(interval.hi.node)
    if lo is None or hi is None:
        raise AnswerParseError("an interval end has no exact value")
    points = _points(removed)
    lo_open = interval.lo_open or any(v == lo for v, _ in points)  # `[0, 2] \setminus \{0\}` is (0, 2]
    hi_open = interval.hi_open or any(v == hi for v, _ in points)
    inside = [p for v, p in points if lo < v < hi]
    bounds = [interval.lo, *inside, interval.hi]
    last = len(inside)
    parts: list[Answer] = [
        Interval(bounds[k], bounds[k + 1], lo_open if k == 0 else True, hi_open if k == last else True)
        for k in range(last + 1)
    ]
    return parts[0] if len(parts) == 1 else Union(parts)


def set_minus(left: Answer, right: Answer) -> Answer | None:
    """`left \\setminus right` for literal sets of numbers or an interval without points; None for other sets."""
    elements = _finite_set(left)
    if elements is not None and (removed := _finite_set(right)) is not None:
        remain = set_difference([i.node for i in elements], [i.node for i in removed])
        return (
            None
            if remain is None
            else Seq([elements[i] for i in remain], ordered=False, left="\\{", right="\\}")
        )
    interval = as_interval(left)
    return None if interval is None else interval_without(interval, right)


def merged_union(parts: list[Answer]) -> Answer:
    """A union of intervals with overlapping or touching ones merged (`[1, 2] \\cup [2, 3]` is `[1, 3]`), or of
    finite sets of numbers as one set; any other union stays as written."""
    sets = [_finite_set(p) for p in parts]
    if all(s is not None for s in sets):
        distinct: dict[tuple[Fraction, Fraction], Scalar] = {}
        try:
            for item in (i for s in sets for i in s or []):
                distinct.setdefault(ev.exact_value(item.node), item)
        except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
            return Union(parts)
        return Seq(list(distinct.values()), ordered=False, left="\\{", right="\\}")
    spans = [as_interval(p) for p in parts]
    if any(s is None for s in spans):
        return Union(parts)
    ends = [(s.lo, s.hi, s.lo_open, s.hi_open) for s in spans if s is not None]
    runs = merged_intervals([(lo.node, hi.node, a, b) for lo, hi, a, b in ends])
    if runs is None:
        return Union(parts)
    out = [Interval(ends[i][0], ends[j][1], ends[i][2], ends[j][3]) for i, j in runs]
    return out[0] if len(out) == 1 else Union(list(out))


_MAX_LISTED = 1000  # integers listed for an interval's integers; more is no answer anyone writes out


def intersection(left: Answer, right: Answer | None) -> Answer | None:
    """`left \\cap right` for an interval with the integers (`right` None) or two intervals with exact ends; None for
    anything else (the expression then stays unparsable)."""
    a = as_interval(left)
    if a is None:
        return None
    alo, ahi = end_value(a.lo.node), end_value(a.hi.node)
    if alo is None or ahi is None:
        return None
    if right is None:  # the integers in an interval
        if math.isinf(alo) or math.isinf(ahi) or ahi - alo > _MAX_LISTED:
            return None
        first = math.floor(alo) + 1 if a.lo_open or alo != math.floor(alo) else int(alo)
        last = math.ceil(ahi) - 1 if a.hi_open or ahi != math.ceil(ahi) else int(ahi)
        items: list[Answer] = [
            Scalar(("num", Fraction(n), None, None), str(n)) for n in range(first, last + 1)
        ]
        return Seq(items, ordered=False, left="\\{", right="\\}")
    b = as_interval(right)
    blo, bhi = (end_value(b.lo.node), end_value(b.hi.node)) if b is not None else (None, None)
    if b is None or blo is None or bhi is None:
        return None
    lo_side = a if alo > blo or (alo == blo and a.lo_open) else b
    hi_side = a if ahi < bhi or (ahi == bhi and a.hi_open) else b
    lo_v, hi_v = max(alo, blo), min(ahi, bhi)
    if lo_v > hi_v or (lo_v == hi_v and (lo_side.lo_open or hi_side.hi_open)):
        return Seq([], ordered=False, left="\\{", right="\\}")  # disjoint: the empty set
    if lo_v == hi_v:  # `[0, 1] \\cap [1, 3]` meet in one point
        return Seq([lo_side.lo], ordered=False, left="\\{", right="\\}")
    return Interval(lo_side.lo, hi_side.hi, lo_side.lo_open, hi_side.hi_open)


# set-builder notation's inside: one variable (of the reals), `|` or `:`, then its condition
_SET_BUILDER_RE = re.compile(r"^\s*([A-Za-z])\s*(?:\\in\s*\\R\s*)?(?:\||:)\s*(\S.*)$", re.S)
_NAME_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])")
_CONNECTIVE_RE = re.compile(
    r"\\(?:text|mathrm)\s*\{[^{}]*\}|\b(?:or|and)\b|\\(?:lor|land|vee|wedge)(?![a-zA-Z])"
)


def set_builder_condition(inner: str) -> str | None:
    """The condition of a set written in set-builder notation (`x | x < 2 or x > 3`, inside `\\{...\\}`) when it
    names only the set's variable, or None (`x | y > 2` is no set of x's values this grader can read)."""
    m = _SET_BUILDER_RE.match(inner)
    if m is None:
        return None
    condition = m.group(2)
    names = set(_NAME_RE.findall(_CONNECTIVE_RE.sub(" ", condition)))
    return condition if names == {m.group(1)} else None


# the reals of one sign: `\R^+`, `\R^{-}` (positive, negative), `\R_{>0}`, `\R_{\ge 0}`, `\R_{<0}`, `\R_{\le 0}`;
# a bare `\R_+` is left alone (it is [0, ∞) in French texts, (0, ∞) in others)
_SIGNED_REALS_RE = re.compile(
    r"^\\R\s*(?:\^\s*(?:\{\s*([+-])\s*\}|([+-]))|_\s*\{\s*(>|<|\\ge|\\le)\s*0\s*\})\s*$"
)
_ZERO = Scalar(("num", Fraction(0), None, None), "0")


def signed_reals(text: str) -> Interval | None:
    """The interval that `\\R^+`, `\\R_{\\ge 0}` and their kin name (see above), or None."""
    m = _SIGNED_REALS_RE.match(text)
    if m is None:
        return None
    sign = m.group(1) or m.group(2)
    bound = m.group(3)
    if sign == "+" or bound in (">", "\\ge"):
        return Interval(_ZERO, _INF, bound != "\\ge", True)
    return Interval(_NINF, _ZERO, True, bound != "\\le")
