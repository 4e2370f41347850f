"""Equivalence of two parsed answers, cheapest test first.

Scalars: identical trees -> exact (Gaussian) rationals (never float equality: `1/2004!` vs `1/2006!` differ)
-> decimal approximations (a decimal counts when it is the other value correctly rounded to the digits it
gives, with at least `min_significant_digits`; no tolerance, no truncation) -> rational functions by exact
evaluation at random rational points (Schwartz-Zippel: error probability below 1e-20) -> high-precision
numerics at test points, which can only *refute* -> sympy, which must *prove*. Values too large for the
bounded evaluators are compared structurally (or as canonical big powers `b^n`); if that cannot decide,
`Undecidable` is raised and the verdict is `timeout`, never a guess.

Without `allow_sympy` a comparison that needs sympy raises `NeedsSympy`; the verifier then repeats it
where a hard deadline applies.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from fractions import Fraction

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.deadline import check as check_deadline
from rlvr.verifiers.math.scalars import TEST_POINTS, CompareOptions, NeedsSympy, Undecidable, scalars_equal
from rlvr.verifiers.math.shapes import (
    Answer,
    Equation,
    Interval,
    Matrix,
    Relation,
    Scalar,
    Seq,
    Text,
    Union,
)
from rlvr.verifiers.math.tree import Node, constants, free_symbols, has_kind, substitute

__all__ = ["CompareOptions", "NeedsSympy", "Undecidable", "answers_equal", "scalars_equal"]


# --------------------------------------------------------------------------------------------- answers
def answers_equal(gold: Answer, pred: Answer, opts: CompareOptions) -> bool:
    """Whether `pred` is a correct answer for `gold` (gold's shape decides how `pred` is read)."""
    check_deadline()
    if isinstance(pred, Seq) and len(pred.items) == 1 and not isinstance(gold, Seq):
        pred = pred.items[0]
    if isinstance(gold, Seq) and len(gold.items) == 1 and not isinstance(pred, Seq):
        gold = gold.items[0]
    if isinstance(pred, Matrix) and isinstance(gold, Scalar) and [len(r) for r in pred.rows] == [1]:
        pred = pred.rows[0][0]  # a 1x1 matrix `(3)` is the number 3
    if isinstance(pred, Seq) and not isinstance(gold, Seq) and not pred.ordered and not pred.left:
        values = _exact_multiset(pred.items)
        if (
            values is not None and len(values) == 1
        ):  # `3, 3`, `3, \\frac62`: one value stated twice is that value
            pred = pred.items[0]
    if isinstance(gold, Text):
        return isinstance(pred, Text) and pred.key == gold.key
    if isinstance(gold, Equation):
        if isinstance(pred, Equation):
            return _equations_equal(gold, pred, opts)
        named = _named_values(gold)
        if named is not None and (assigned := _assignments(pred)) is not None:
            # `(b, a) = (1, 2)` answered `a = 2, b = 1`: each name gets the gold's value for that name
            return set(named) == set(assigned) and all(
                answers_equal(named[k], assigned[k], opts) for k in named
            )
        # a labelled gold `(p, q) = (3, 2)`, `AB = 4`, `V_1:V_2 = 11:21` is answered by its value
        return is_label(gold.lhs) and answers_equal(gold.rhs, pred, opts)
    if isinstance(pred, Equation):
        # `x = 5` for `5`; `n = 1, 2` for `1, 2`; `\det(A) = -2` for `-2`; `m + n = 7` for `7`
        labelled = is_label(pred.lhs) or asked_quantity(pred)
        swapped = Equation(pred.rhs, pred.lhs)  # `7 = m + n` is `m + n = 7` with its sides swapped
        if not labelled and asked_quantity(swapped):
            return answers_equal(gold, pred.lhs, opts)
        return labelled and answers_equal(gold, _in_name_order(pred), opts)
    if isinstance(gold, Scalar):
        if not isinstance(pred, Scalar):
            return False
        renamed = _renamed_parameter(gold, pred)
        return scalars_equal(gold, pred if renamed is None else Scalar(renamed, pred.text), opts)
    if isinstance(gold, Interval) or isinstance(pred, Interval):
        g, p = _as_interval(gold), _as_interval(pred)
        return g is not None and p is not None and _intervals_equal(g, p, opts)
    if isinstance(gold, Union):
        return isinstance(pred, Union) and _unordered_equal(gold.parts, pred.parts, opts)
    if isinstance(gold, Matrix) or isinstance(pred, Matrix):
        return _matrices_equal(gold, pred, opts)
    if isinstance(gold, Seq):
        return isinstance(pred, Seq) and _seqs_equal(gold, pred, opts)
    if isinstance(gold, Relation):
        return (
            isinstance(pred, Relation)
            and gold.ops == pred.ops
            and all(scalars_equal(a, b, opts) for a, b in zip(gold.parts, pred.parts))
        )
    return False


def _renamed_parameter(gold: Scalar, pred: Scalar) -> Node | None:
    """`pred` with its integer parameter named as the gold's, when both are periodic general solutions.

    `2\\pi n` and `2k\\pi` are one family: the parameter is bound (it ranges over the integers), so its name says
    nothing. A family is recognised by a `\\pi` on both sides and exactly one free name on each, different, both
    usual integer names (`n, k, m, l, j`); a variable of the problem is not renamed (`x^n` is not `x^k`: no `\\pi`).
    A negated parameter (`-2k\\pi`) is the same family too, but is not accepted: with a gold in a problem's own
    variable `n` it would not be.
    """
    g_free, p_free = free_symbols(gold.node), free_symbols(pred.node)
    if len(g_free) != 1 or len(p_free) != 1 or g_free == p_free or not (g_free | p_free) <= _PARAMETERS:
        return None
    if _PI not in constants(gold.node) or _PI not in constants(pred.node):
        return None
    (old,), (new,) = p_free, g_free
    return substitute(pred.node, old, ("sym", new))


_PARAMETERS = frozenset("nkmlj")
_PI = ("const", "pi")


def _is_name(a: Answer) -> bool:
    return isinstance(a, Scalar) and a.node[0] in ("sym", "apply")


def _label_node(node: Node) -> bool:
    """Whether an expression only names a quantity: `x`, `f(x)`, `AB`, `|AB|`, `\\det(A)`, `\\frac{NO}{BO}`,
    `f^{-1}(x)`. Numbers or sums make it a condition (`2x = 4`, `x + y = 5`), never a label."""
    kind = node[0]
    if kind in ("sym", "apply"):
        return True
    if kind == "mul":
        factors = node[1]
        if (
            len(factors) == 2
            and factors[0][0] == "pow"
            and factors[0][1][0] == "sym"
            and factors[1][0] == "sym"
        ):
            return factors[0][2] == ("neg", ("num", Fraction(1), None, None))  # f^{-1}(x)
        return all(f[0] == "sym" for f in factors)
    if kind == "div":
        return _label_node(node[1]) and _label_node(node[2])
    if kind == "func" and node[1] in ("Abs", "det") and len(node[2]) == 1:
        return _label_node(node[2][0])
    return False


def _name_expression(node: Node) -> bool:
    """Whether a tree is built of names only: sums, products, quotients and negations of names, and powers of
    a name to a number or name (`m + n`, `r_1^2 + r_2^2`, `a - b/c`); a number anywhere else (`2x`) is not, nor
    a power of a bracket (`(r_1 + r_2)^2` is a step of a computation, not the quantity asked for)."""
    kind = node[0]
    if kind == "sym":
        return True
    if kind in ("add", "mul"):
        return all(_name_expression(f) for f in node[1])
    if kind == "div":
        return _name_expression(node[1]) and _name_expression(node[2])
    if kind == "neg":
        return _name_expression(node[1])
    if kind == "pow":
        return node[1][0] == "sym" and node[2][0] in ("num", "sym")
    return False


def asked_quantity(pred: Equation) -> bool:
    """Whether a reply's `lhs = constant` names the quantity asked for (AIME's `m + n = 7`, Vieta's
    `r_1^2 + r_2^2 = 26`): the left side is an expression of two or more names and nothing else, the right side
    a constant. One equation cannot fix two unknowns, so it states a value; with one unknown (`x^2 = 4`,
    `2x = 4`) or a number on the left it is a condition to solve, and a gold equation is never read this way."""
    lhs, rhs = pred.lhs, pred.rhs
    return (
        isinstance(lhs, Scalar)
        and isinstance(rhs, Scalar)
        and _name_expression(lhs.node)
        and len(free_symbols(lhs.node)) >= 2
        and not free_symbols(rhs.node)
    )


def _in_name_order(eq: Equation) -> Answer:
    """The values of a labelled tuple in the order of its names (`(y, x) = (2, 3)` is `(3, 2)`): an unlabelled
    gold lists a point's coordinates as `(x, y)`, in the alphabet's order; other right sides as they are."""
    lhs, rhs = eq.lhs, eq.rhs
    if not (isinstance(lhs, Seq) and isinstance(rhs, Seq) and len(lhs.items) == len(rhs.items) > 1):
        return rhs
    names = [i.text.strip() if isinstance(i, Scalar) else "" for i in lhs.items]
    if not all(len(n) == 1 and n.isascii() and n.isalpha() for n in names) or names == sorted(names):
        return rhs
    order = sorted(range(len(names)), key=lambda k: names[k])
    return Seq([rhs.items[k] for k in order], rhs.ordered, rhs.left, rhs.right)


def is_label(a: Answer) -> bool:
    """Whether the left side of `lhs = value` names what the value is (a name, tuple or ratio of names)."""
    if isinstance(a, Scalar):
        return _label_node(a.node)
    if isinstance(a, Seq) and a.ordered and a.left in ("(", ":") and a.items:
        return all(isinstance(i, Scalar) and _label_node(i.node) for i in a.items)
    return False


def _applied(a: Answer) -> tuple[str, str] | None:
    """`f(n)` or `W(n)` written with brackets: (function, argument); the parser reads `W(n)` as `W*n`."""
    if not isinstance(a, Scalar) or "(" not in a.text:
        return None
    node = a.node
    if node[0] == "apply" and len(node[2]) == 1 and node[2][0][0] == "sym":
        return node[1], node[2][0][1]
    written = r"\s*{}\s*\(\s*{}\s*\)\s*"
    if (
        node[0] == "mul"
        and len(node[1]) == 2
        and all(f[0] == "sym" for f in node[1])
        and re.fullmatch(written.format(re.escape(node[1][0][1]), re.escape(node[1][1][1])), a.text)
    ):
        return node[1][0][1], node[1][1][1]
    return None


def _named_values(eq: Equation) -> dict[str, Answer] | None:
    """`(b, a) = (1, 2)` as {b: 1, a: 2}: a tuple of distinct names set equal to a tuple as long; else None."""
    lhs, rhs = eq.lhs, eq.rhs
    if not (isinstance(lhs, Seq) and isinstance(rhs, Seq) and lhs.ordered and rhs.ordered):
        return None
    names = [i.show() for i in lhs.items]
    if len(lhs.items) != len(rhs.items) or len(set(names)) != len(names) or not is_label(lhs):
        return None
    return dict(zip(names, rhs.items))


def _assignments(pred: Answer) -> dict[str, Answer] | None:
    """`a = 2, b = 1` (or `(a, b) = (2, 1)`) as {a: 2, b: 1}; None if it is not one assignment per name."""
    if isinstance(pred, Equation):
        return _named_values(pred)
    if not isinstance(pred, Seq) or not all(isinstance(i, Equation) and _is_name(i.lhs) for i in pred.items):
        return None
    names = [i.lhs.show() for i in pred.items]  # type: ignore[union-attr]
    return dict(zip(names, [i.rhs for i in pred.items])) if len(set(names)) == len(names) else None  # type: ignore[union-attr]


def _equations_equal(gold: Equation, pred: Equation, opts: CompareOptions) -> bool:
    named, assigned = _named_values(gold), _named_values(pred)
    if named is not None and assigned is not None and set(named) == set(assigned):
        return all(answers_equal(named[k], assigned[k], opts) for k in named)  # `(m, n) = (5, 3)`
    if is_label(gold.lhs) and is_label(pred.lhs) and gold.lhs.show() == pred.lhs.show():
        return answers_equal(gold.rhs, pred.rhs, opts)
    g_fn, p_fn = _applied(gold.lhs), _applied(pred.lhs)
    if g_fn and p_fn and g_fn[0] == p_fn[0] and isinstance(pred.rhs, Scalar):
        # `W(x) = 1` defines the same function as `W(n) = 1`: rename the argument (never onto a name in use)
        if g_fn[1] != p_fn[1] and g_fn[1] in free_symbols(pred.rhs.node):
            return False
        rhs = Scalar(substitute(pred.rhs.node, p_fn[1], ("sym", g_fn[1])), pred.rhs.text)
        return answers_equal(gold.rhs, rhs, opts)
    if not all(isinstance(side, Scalar) for side in (gold.lhs, gold.rhs, pred.lhs, pred.rhs)):
        return False
    g: Node = ("add", (gold.lhs.node, ("neg", gold.rhs.node)))  # type: ignore[union-attr]
    p: Node = ("add", (pred.lhs.node, ("neg", pred.rhs.node)))  # type: ignore[union-attr]
    return _proportional(g, p, opts)


def _proportional(g: Node, p: Node, opts: CompareOptions) -> bool:
    """Equations `g = 0` and `p = 0` are equivalent when g = c*p for a constant c != 0."""
    ratios = []
    for point in TEST_POINTS:
        try:
            gv, pv = ev.numeric_value(g, point), ev.numeric_value(p, point)
        except (ev.NotNumeric, ev.TooBig):
            continue
        if pv == 0 or gv == 0:
            if (pv == 0) != (gv == 0):
                return False
            continue
        ratios.append(gv / pv)
    if ratios and any(not ev.numerically_close(r, ratios[0], 20) for r in ratios[1:]):
        return False
    scaled = _exact_ratio(g, p)
    if scaled is not None:
        # g = c*p with the exact c seen at one point: decided by the scalar comparison (rational functions by
        # exact evaluation at random points) before any sympy
        with contextlib.suppress(NeedsSympy):
            return scalars_equal(Scalar(g, ""), Scalar(("mul", (("num", scaled, None, None), p)), ""), opts)
    if not opts.allow_sympy:
        raise NeedsSympy("equation equivalence")
    from rlvr.verifiers.math import symbolic

    return bool(symbolic.proportional(g, p))


def _exact_ratio(g: Node, p: Node) -> Fraction | None:
    """g/p at a test point where both are exact, real and nonzero (the constant of a proportionality)."""
    names = free_symbols(g) | free_symbols(p)
    for point in range(3):
        env = {n: ev.point_value(n, point) for n in names}
        try:
            gv, pv = ev.exact_value(g, env), ev.exact_value(p, env)
        except (ev.NotExact, ev.TooBig, ArithmeticError):
            return None
        if gv[1] or pv[1]:
            return None
        if gv[0] and pv[0]:
            return gv[0] / pv[0]
    return None


def _as_interval(a: Answer) -> Interval | None:
    if isinstance(a, Interval):
        return a
    if isinstance(a, Seq) and len(a.items) == 2 and a.left in "([" and a.right in ")]" and a.left:
        lo, hi = a.items
        if isinstance(lo, Scalar) and isinstance(hi, Scalar):
            return Interval(lo, hi, a.left == "(", a.right == ")")
    return None


def _intervals_equal(g: Interval, p: Interval, opts: CompareOptions) -> bool:
    return (
        g.lo_open == p.lo_open
        and g.hi_open == p.hi_open
        and scalars_equal(g.lo, p.lo, opts)
        and scalars_equal(g.hi, p.hi, opts)
    )


def _matrices_equal(gold: Answer, pred: Answer, opts: CompareOptions) -> bool:
    def rows(a: Answer) -> list[list[Scalar]] | None:
        if isinstance(a, Matrix):
            return a.rows
        if isinstance(a, Seq) and a.ordered and all(isinstance(i, Scalar) for i in a.items):
            return [[i] for i in a.items]  # type: ignore[list-item]
        return None

    g, p = rows(gold), rows(pred)
    if g is None or p is None:
        return False
    # a tuple `(3, -1)` has no orientation, so it may stand for a column; two explicit matrices must agree in
    # shape (a 1x2 row is the transpose of a 2x1 column, not the same answer)
    if len(g) == 1 and len(p) != 1 and not (isinstance(gold, Matrix) and isinstance(pred, Matrix)):
        g = [[c] for c in g[0]]
    if len(p) == 1 and len(g) != 1 and not (isinstance(gold, Matrix) and isinstance(pred, Matrix)):
        p = [[c] for c in p[0]]
    if len(g) != len(p) or any(len(a) != len(b) for a, b in zip(g, p)):
        return False
    return all(scalars_equal(a, b, opts) for ra, rb in zip(g, p) for a, b in zip(ra, rb))


def _interval_shaped(a: Seq) -> bool:
    """Two ends in interval brackets with a square one (`[2, 5]`, `(1, 3]`): never a tuple or a list."""
    return _as_interval(a) is not None and bool({"[", "]"} & {a.left, a.right})


def _seqs_equal(gold: Seq, pred: Seq, opts: CompareOptions) -> bool:
    g_items, p_items = gold.items, pred.items
    if (_interval_shaped(gold) or _interval_shaped(pred)) and (gold.left, gold.right) != (
        pred.left,
        pred.right,
    ):
        return False  # the interval `[2, 5]` is not the solutions `2, 5` / `\\{2, 5\\}`, nor the reverse
    if not gold.ordered and not pred.ordered:
        g_items, p_items = _distinct_tuples(g_items), _distinct_tuples(p_items)
    if gold.left == pred.left == "\\{":  # two sets: `\\{1, 2, 2, 3\\}` is the set `\\{1, 2, 3\\}`
        g_items, p_items = _distinct_numbers(g_items), _distinct_numbers(p_items)
    if len(g_items) != len(p_items):
        return False
    if not any(isinstance(i, Equation) for i in g_items) and all(
        isinstance(i, Equation) and _is_name(i.lhs) for i in p_items
    ):
        names = [i.lhs.show() for i in p_items]  # type: ignore[union-attr]
        if gold.ordered and len(set(names)) == len(names) and all(len(n) == 1 for n in names):
            # `y = -1, x = 3` against the point `(3, -1)`: coordinates in the order of their names
            p_items = [i for _, i in sorted(zip(names, p_items), key=lambda t: t[0])]
        # `x = 1 or x = 2` against `1, 2`: compare the values
        p_items = [i.rhs for i in p_items]  # type: ignore[union-attr]
    labelled = [isinstance(i, Equation) and is_label(i.lhs) for i in g_items]
    distinct = len({i.lhs.show() for i in g_items if isinstance(i, Equation)}) == len(g_items)
    if all(labelled) and distinct and not any(isinstance(i, Equation) for i in p_items):
        # (one name twice, `x = 2 or x = 3`, is a set of solutions, not labels: handled below)
        # `AB = 4, CD = 5` answered `4, 5`: bare values in the order of the gold's labels, never re-matched
        return all(answers_equal(a.rhs, b, opts) for a, b in zip(g_items, p_items))  # type: ignore[union-attr]
    if gold.ordered:
        if gold.left and pred.left and (gold.left, gold.right) != (pred.left, pred.right):
            return False  # `(1, 2)` is not `[1, 2]`
        if any(isinstance(i, Equation) for i in g_items) and not any(
            isinstance(i, Equation) for i in p_items
        ):
            g_items = [i.rhs if isinstance(i, Equation) else i for i in g_items]
        return all(answers_equal(a, b, opts) for a, b in zip(g_items, p_items))
    names = [i.lhs.show() for i in g_items if isinstance(i, Equation)]
    if names and pred.ordered and pred.left and len(set(names)) == len(names):
        # assignments `x = 1, y = 2` against the tuple `(1, 2)`: in the gold's order
        return all(
            answers_equal(a.rhs if isinstance(a, Equation) else a, b, opts) for a, b in zip(g_items, p_items)
        )
    explicit_set = gold.left == "\\{" or (
        len(names) > 1 and len(set(names)) == 1
    )  # `\\{2, 3\\}`, `x=2 or x=3`
    if pred.ordered and pred.left == "(" and not gold.ordered and explicit_set:
        return (
            False  # a tuple `(2, 3)` (or the interval) is not the set of solutions `\\{2, 3\\}`, `x=2 or x=3`
        )
    return _unordered_equal(g_items, p_items, opts)


def _exact_multiset(items: list[Answer]) -> Counter[ev.Exact] | None:
    """The multiset of exact values of a list of plain numbers, or None if any item is not one."""
    values: Counter[ev.Exact] = Counter()
    for item in items:
        if not isinstance(item, Scalar) or has_kind(item.node, {"deg", "pct"}):
            return None
        try:
            values[ev.exact_value(item.node)] += 1
        except (ev.NotExact, ev.TooBig):
            return None
    return values


def _distinct_numbers(items: list[Answer]) -> list[Answer]:
    """A set's plain numbers without repeats (by exact value); a set with anything else is left as written."""
    if _exact_multiset(items) is None:
        return items
    seen: dict[ev.Exact, Answer] = {}
    for item in items:
        seen.setdefault(ev.exact_value(item.node), item)  # type: ignore[union-attr]
    return list(seen.values())


def _distinct_tuples(items: list[Answer]) -> list[Answer]:
    """A list of tuples without repeats: a solution set names each solution once however often it is listed."""
    if not items or not all(isinstance(i, Seq) and i.ordered and i.left == "(" for i in items):
        return items
    seen: dict[str, Answer] = {}
    for item in items:
        seen.setdefault(item.show(), item)
    return list(seen.values())


def _unordered_equal(g_items: list[Answer], p_items: list[Answer], opts: CompareOptions) -> bool:
    """A perfect matching between the two lists under `answers_equal` (small lists: backtracking)."""
    check_deadline()
    if len(g_items) != len(p_items):
        return False
    exact = _exact_multiset(g_items), _exact_multiset(p_items)
    if exact[0] is not None and exact[1] is not None:
        return exact[0] == exact[1]
    if len(g_items) > 40:
        return False  # a matching by pairwise symbolic comparison would be too slow; say no, never guess
    pending: NeedsSympy | None = None
    memo: dict[tuple[int, int], bool] = {}

    def eq(i: int, j: int) -> bool:
        nonlocal pending
        key = (i, j)
        if key not in memo:
            try:
                memo[key] = answers_equal(g_items[i], p_items[j], opts)
            except NeedsSympy as exc:
                pending = exc
                memo[key] = False
        return memo[key]

    used = [False] * len(p_items)

    def match(i: int) -> bool:
        if i == len(g_items):
            return True
        for j in range(len(p_items)):
            if not used[j] and eq(i, j):
                used[j] = True
                if match(i + 1):
                    return True
                used[j] = False
        return False

    if match(0):
        return True
    if pending is not None:
        raise pending
    return False
