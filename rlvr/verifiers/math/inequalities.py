"""Inequalities in one variable rewritten as the intervals they denote: linear ones solved for the variable,
`|u| < c` as `-c < u < c`, and `a \\le |u| \\le b` as the two intervals `[-b, -a] \\cup [a, b]`."""

from __future__ import annotations

import math
from fractions import Fraction

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.tree import Node, free_symbols, to_text

# points on both sides of 0 and off the integers: `|x| - 3` is linear on 0, 1, 2 but not on -1 or -7/3
_POINTS = [Fraction(k) for k in (0, 1, 2, -1, -2, 5)] + [Fraction(1, 2), Fraction(-7, 3), Fraction(13, 7)]


def _sampled_difference(left: Node, right: Node) -> tuple[list[Fraction], list[Fraction]] | None:
    """`left - right` of one variable at `_POINTS`, exact and real: (points, values); None otherwise."""
    names = free_symbols(left) | free_symbols(right)
    if len(names) != 1:
        return None
    (name,) = names
    diff: Node = ("add", (left, ("neg", right)))
    try:
        values = [ev.exact_value(diff, {name: k}) for k in _POINTS]
    except (ev.NotExact, ev.TooBig, ArithmeticError):
        return None
    if any(v[1] for v in values):
        return None
    return _POINTS, [v[0] for v in values]


def linear_bound(left: Node, right: Node, op: str) -> tuple[str, Node, str] | None:
    """Solve `left op right` for its one variable if it is linear with an exact coefficient: (var, bound, op)."""
    sampled = _sampled_difference(left, right)
    if sampled is None:
        return None
    points, values = sampled
    (name,) = free_symbols(left) | free_symbols(right)
    b, a = values[0], values[1] - values[0]
    if a == 0 or any(v != a * k + b for k, v in zip(points, values)):
        return None
    bound = -b / a
    if a < 0:
        op = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}[op]
    return name, ("num", bound, None, None), op


def linear_between(nodes: list[Node], ops: list[str]) -> str | None:
    """`a op u op b` with constants a, b and u linear in one variable, as the text of that variable's interval
    (`-2 < x - 1 < 2` -> `(-1, 3)`); None when a link is not linear or one side is bounded twice."""
    solved = [linear_bound(nodes[j], nodes[j + 1], ops[j]) for j in (0, 1)]
    if solved[0] is None or solved[1] is None or solved[0][0] != solved[1][0]:
        return None
    upper = [s for s in solved if s is not None and s[2] in ("lt", "le")]
    lower = [s for s in solved if s is not None and s[2] in ("gt", "ge")]
    if len(upper) != 1 or len(lower) != 1:
        return None  # `1 < u > 2` bounds one side twice: no interval
    (_, lo, lo_op), (_, hi, hi_op) = lower[0], upper[0]
    return f"{'(' if lo_op == 'gt' else '['}{to_text(lo)}, {to_text(hi)}{')' if hi_op == 'lt' else ']'}"


def abs_chain(left: Node, right: Node, op: str) -> str | None:
    """`|u| < c` (or `c > |u|`) with a constant c as the chain `-c < u < c`; None for any other shape."""
    if op in ("gt", "ge"):
        left, right, op = right, left, {"gt": "lt", "ge": "le"}[op]
    if left[0] != "func" or left[1] != "Abs" or len(left[2]) != 1 or free_symbols(right):
        return None
    try:
        bound = ev.exact_value(right, {})
    except (ev.NotExact, ev.TooBig, ArithmeticError):
        return None
    if bound[1] or bound[0] <= 0:
        return None  # `|x| < 0` is empty and `|x| < -1` too: not an interval this parser builds
    rel = "<" if op == "lt" else "\\le"
    c = to_text(right)
    return f"-({c}) {rel} {to_text(left[2][0])} {rel} {c}"


def abs_band(nodes: list[Node], ops: list[str]) -> str | None:
    """`a < |u| < b` (any mix of < and \\le) with constants 0 < a < b as the union of its two intervals, as
    text; None for any other shape (a <= 0 or a >= b is not a two-interval band)."""
    if any(op not in ("lt", "le") for op in ops) or nodes[1][0] != "func" or nodes[1][1] != "Abs":
        return None
    if len(nodes[1][2]) != 1 or free_symbols(nodes[0]) or free_symbols(nodes[2]):
        return None
    try:
        lo, hi = ev.exact_value(nodes[0], {}), ev.exact_value(nodes[2], {})
    except (ev.NotExact, ev.TooBig, ArithmeticError):
        return None
    if lo[1] or hi[1] or not 0 < lo[0] < hi[0]:
        return None
    a, b, u = to_text(nodes[0]), to_text(nodes[2]), to_text(nodes[1][2][0])
    inner_open, outer_open = ops[0] == "lt", ops[1] == "lt"
    if u[0] == "-" or not u.replace("_", "").isalnum():
        return None  # only a plain variable: `|x - 1|` would shift the intervals
    left = f"{'(' if outer_open else '['}-({b}), -({a}){')' if inner_open else ']'}"
    right = f"{'(' if inner_open else '['}{a}, {b}{')' if outer_open else ']'}"
    return f"{left} \\cup {right}"


def abs_outside(left: Node, right: Node, op: str) -> str | None:
    """`|x| > c` (or `c < |x|`, any mix with \\ge) with a constant c > 0 and a plain variable x as the union
    `(-\\infty, -c) \\cup (c, \\infty)`, as text; None for any other shape."""
    if op in ("lt", "le"):
        left, right, op = right, left, {"lt": "gt", "le": "ge"}[op]
    if left[0] != "func" or left[1] != "Abs" or len(left[2]) != 1 or free_symbols(right):
        return None
    u = to_text(left[2][0])
    if u[0] == "-" or not u.replace("_", "").isalnum():
        return None  # only a plain variable: `|x - 1| > 2` would shift the intervals
    try:
        bound = ev.exact_value(right, {})
    except (ev.NotExact, ev.TooBig, ArithmeticError):
        return None
    if bound[1] or bound[0] <= 0:
        return None  # `|x| > 0` is all but one point and `|x| > -1` everything: not this union
    c = to_text(right)
    lo, hi = (")", "(") if op == "gt" else ("]", "[")
    return f"(-\\infty, -({c}){lo} \\cup {hi}{c}, \\infty)"


def end_value(node: Node) -> Fraction | float | None:
    """An interval end's exact value, `\\infty` as inf; None when it has none."""
    if node in (("const", "oo"), ("neg", ("const", "oo"))):
        return float("-inf") if node[0] == "neg" else float("inf")
    try:
        re_part, im_part = ev.exact_value(node)
    except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
        return None
    return re_part if im_part == 0 else None


def merged_intervals(parts: list[tuple[Node, Node, bool, bool]]) -> list[tuple[int, int]] | None:
    """A union of intervals (lo, hi, lo_open, hi_open) with the ones that overlap or touch at a closed end merged:
    for each merged interval, (the part giving its lower end, the part giving its upper end), by lower end; None
    when nothing merges, an end has no exact value, or an interval is empty (the union then stays as written)."""
    ends = [(end_value(lo), end_value(hi), lo_open, hi_open) for lo, hi, lo_open, hi_open in parts]
    if any(lo is None or hi is None or lo > hi or (lo == hi and (a or b)) for lo, hi, a, b in ends):
        return None
    order = sorted(range(len(parts)), key=lambda k: (ends[k][0], ends[k][2]))
    runs, merged = [[order[0], order[0]]], False
    for k in order[1:]:
        top = runs[-1][1]
        reach, reach_open = ends[top][1], ends[top][3]
        lo, hi, lo_open, hi_open = ends[k]
        if lo < reach or (lo == reach and not (lo_open and reach_open)):  # type: ignore[operator]
            merged = True
            if hi > reach or (hi == reach and not hi_open):  # type: ignore[operator]
                runs[-1][1] = k
        else:
            runs.append([k, k])
    return [(a, b) for a, b in runs] if merged else None


def _tex(q: Fraction) -> str:
    """A rational as TeX (`-\\frac{1}{2}`, `3`)."""
    sign, q = ("-" if q < 0 else ""), abs(q)
    return (
        f"{sign}{q.numerator}" if q.denominator == 1 else f"{sign}\\frac{{{q.numerator}}}{{{q.denominator}}}"
    )


def _rational_sqrt(q: Fraction) -> Fraction | None:
    root_n, root_d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return (
        Fraction(root_n, root_d)
        if root_n * root_n == q.numerator and root_d * root_d == q.denominator
        else None
    )


def quadratic_set(left: Node, right: Node, op: str) -> str | None:
    """`left op right` as the set of its one variable, as text, when `left - right` is a quadratic with exact
    coefficients and rational roots (`x^2 < 4` -> `(-2, 2)`, `x(x-1) > 0` -> two rays); None otherwise."""
    sampled = _sampled_difference(left, right) if op in ("lt", "le", "gt", "ge") else None
    if sampled is None:
        return None
    points, values = sampled
    f0, f1, f2 = values[:3]
    a = (f2 - 2 * f1 + f0) / 2
    b, c = f1 - f0 - a, f0
    if a == 0 or any(v != a * k * k + b * k + c for k, v in zip(points, values)):
        return None  # linear (solved elsewhere) or no quadratic at all (`1/x`, `e^x`)
    if a < 0:  # make the leading coefficient positive: `-x^2 > -4` is `x^2 < 4`
        a, b, c, op = -a, -b, -c, {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}[op]
    disc = b * b - 4 * a * c
    root = _rational_sqrt(disc) if disc >= 0 else None
    if disc < 0:
        return "(-\\infty, \\infty)" if op in ("gt", "ge") else "\\emptyset"
    if root is None:  # irrational roots: (-b -+ sqrt(disc)) / 2a, written out
        lo, hi = (f"\\frac{{{_tex(-b)} {sign} \\sqrt{{{_tex(disc)}}}}}{{{_tex(2 * a)}}}" for sign in "-+")
    else:
        lo, hi = _tex((-b - root) / (2 * a)), _tex((-b + root) / (2 * a))
    if disc == 0:  # a (x - r)^2 op 0
        return {
            "gt": f"(-\\infty, {lo}) \\cup ({lo}, \\infty)", "ge": "(-\\infty, \\infty)",
            "lt": "\\emptyset", "le": f"\\{{{lo}\\}}",
        }[op]  # fmt: skip
    if op in ("lt", "le"):
        return f"({lo}, {hi})" if op == "lt" else f"[{lo}, {hi}]"
    left_end, right_end = (")", "(") if op == "gt" else ("]", "[")
    return f"(-\\infty, {lo}{left_end} \\cup {right_end}{hi}, \\infty)"


def set_difference(left: list[Node], right: list[Node]) -> list[int] | None:
    """The positions of `left`'s elements that are not in `right`, by exact value (`\\{2, 3, 4\\} \\setminus
    \\{4\\}` keeps 0 and 1); None when an element has no exact value (then the difference is not taken)."""
    try:
        removed = {ev.exact_value(n) for n in right}
        return [k for k, n in enumerate(left) if ev.exact_value(n) not in removed]
    except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
        return None
