"""Equality of two scalar answers, cheapest test first (see `compare.py` for the order and guarantees)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.deadline import check as check_deadline
from rlvr.verifiers.math.shapes import Scalar
from rlvr.verifiers.math.tree import Node, constants, free_symbols, has_kind, substitute


class NeedsSympy(Exception):
    """Only the sympy stage can decide this comparison."""


class Undecidable(Exception):
    """The values are too large to compare within the evaluation bounds."""


@dataclass(frozen=True)
class CompareOptions:
    """The comparison knobs of `MathVerifierConfig` (see there for their meaning)."""

    rel_tol: float = 1e-9
    min_significant_digits: int = 3
    percent: bool = True
    degrees: bool = True
    allow_sympy: bool = True


_ZERO_NODE: Node = ("num", Fraction(0), None, None)
TEST_POINTS = (0, 1, 2)
#: Points where some variables are negative (`evaluate.point_value`); they only refute (see `_real_refuted`).
SIGNED_POINTS = (3, 4, 5)


# --------------------------------------------------------------------------------------------- scalars
def _strip(node: Node, kind: str, to_radians: bool = False) -> Node:
    """Remove `°`/`%` markers (optionally turning degrees into radians)."""
    if node[0] == kind:
        inner = _strip(node[1], kind, to_radians)
        if to_radians:
            return (
                "mul",
                (
                    inner,
                    ("const", "pi"),
                    ("div", ("num", Fraction(1), None, None), ("num", Fraction(180), None, None)),
                ),
            )
        return inner
    out: list[Any] = []
    for child in node:
        if isinstance(child, tuple) and child and isinstance(child[0], str):
            out.append(_strip(child, kind, to_radians))
        elif isinstance(child, tuple) and child and isinstance(child[0], tuple):
            out.append(tuple(_strip(c, kind, to_radians) for c in child))
        else:
            out.append(child)
    return tuple(out)


def _variants(sc: Scalar, opts: CompareOptions) -> list[tuple[str, Node]]:
    node = sc.node
    if has_kind(node, {"deg"}):
        if opts.degrees and ("const", "pi") in constants(_strip(node, "deg")):
            return [("rad", _strip(node, "deg", True))]  # `\\frac{\\pi}{3}^\\circ` is no angle in degrees
        if opts.degrees:
            return [("deg", _strip(node, "deg")), ("rad", _strip(node, "deg", True))]
        return [("deg", _strip(node, "deg"))]
    if has_kind(node, {"pct"}):
        if opts.percent:
            return [("pct", node), ("pctnum", _strip(node, "pct"))]
        return [("pctnum", _strip(node, "pct"))]
    return [("plain", node)]


def scalars_equal(gold: Scalar, pred: Scalar, opts: CompareOptions) -> bool:
    """Whether two scalar answers are equal (trying degree/percent readings where they are marked)."""
    g_vars, p_vars = _variants(gold, opts), _variants(pred, opts)
    if (g_vars[0][0] in ("deg", "rad") and p_vars[0][0] in ("deg", "rad")) or (
        g_vars[0][0].startswith("pct") and p_vars[0][0].startswith("pct")
    ):
        pairs = [(g_vars[0], p_vars[0])]
    else:
        pairs = [(g, p) for g in g_vars for p in p_vars]
    pending: Exception | None = None
    for (gk, gn), (pk, pn) in pairs:
        try:
            if _nodes_equal(gold, gk, gn, pred, pk, pn, opts):
                return True
        except (NeedsSympy, Undecidable) as exc:
            pending = exc if pending is None or isinstance(exc, Undecidable) else pending
    if pending is not None:
        raise pending
    return False


def _cached(sc: Scalar, key: str, what: str, compute: Any) -> Any:
    """Memoise a value (or the exception it raised) on the scalar; golds are parsed once and reused."""
    k = (key, what)
    if k not in sc.cache:
        try:
            sc.cache[k] = (True, compute())
        except (ev.NotExact, ev.NotNumeric, ev.TooBig, ArithmeticError, ValueError, RecursionError) as exc:
            sc.cache[k] = (False, exc)
    return sc.cache[k][1]


def decimal_literal(node: Node) -> tuple[Fraction, int, int] | None:
    """(value, decimals, significant digits) if the tree is one decimal literal (a decimal approximation)."""
    sign = 1
    if node[0] == "neg":
        node, sign = node[1], -1
    if node[0] == "pct" and node[1][0] == "num" and node[1][2] is not None:
        return (sign * node[1][1] / 100, node[1][2] + 2, node[1][3])
    if node[0] == "num" and node[2] is not None:
        return (sign * node[1], node[2], node[3])
    return None


def _approx_matches(
    approx: tuple[Fraction, int, int], other: Any, opts: CompareOptions, *, is_pred: bool
) -> bool:
    """A completion's decimal counts only if it is `other` correctly rounded to its own digits.

    Only rounding, never truncation: `0.7853` is not pi/4 to four places (`0.7854` is), `0.666` is not 2/3.
    No tolerance on top: `123456789012.0` is not 123456789013, `1.0000000001` is not 1, `3.1415926535` is not
    pi (each is within 1e-9 of it, and each states a digit that is wrong).
    """
    value, decimals, sig = approx
    if (sig >= opts.min_significant_digits or not is_pred) and rounds_to(value, decimals, other):
        return True
    if is_pred:
        return False
    if opts.rel_tol > 0:
        ctx = ev.numeric_context(80)
        exact = (
            ctx.mpf(other.numerator) / other.denominator if isinstance(other, Fraction) else ctx.mpf(other)
        )
        approx_value = ctx.mpf(value.numerator) / value.denominator
        return bool(abs(approx_value - exact) <= opts.rel_tol * abs(exact))
    return False


def rounds_to(value: Fraction, decimals: int, other: Any) -> bool:
    """Whether the decimal `value`, written with `decimals` places, is the real `other` (a Fraction or an mpmath
    number) correctly rounded to them: `0.333` is 1/3, `1.5` is not sqrt 2, `0.6` is not 1/2 (a tie either way)."""
    ctx = ev.numeric_context(80)
    exact = ctx.mpf(other.numerator) / other.denominator if isinstance(other, Fraction) else ctx.mpf(other)
    scaled = exact * ctx.mpf(10) ** decimals
    target = value * 10**decimals
    if target.denominator != 1:
        return False
    floor = int(ctx.floor(scaled))
    frac = scaled - floor
    allowed = {floor + (1 if frac > 0.5 else 0)}
    if abs(frac - ctx.mpf(0.5)) < ctx.mpf(10) ** -30:  # a tie rounds either way
        allowed |= {floor, floor + 1}
    return target.numerator in allowed


def _decimal_rule(g: Node, p: Node, gv: Any, pv: Any, opts: CompareOptions) -> bool | None:
    """Apply the approximation rule if exactly one side is a decimal literal; None if neither is.

    Two decimal literals are both taken as exact (a gold `2.5` is not an approximation of `2.51`); they
    match only when equal.
    """
    ga, pa = decimal_literal(g), decimal_literal(p)
    if ga is None and pa is None:
        return None
    if ga is not None and pa is not None:  # equal values were accepted above; `1.0` is not `1.0000000001`
        return False
    if isinstance(gv, tuple):  # exact complex pair
        gv = gv[0] if gv[1] == 0 else None
    if isinstance(pv, tuple):
        pv = pv[0] if pv[1] == 0 else None
    if pa is not None:
        return gv is not None and _approx_matches(pa, gv, opts, is_pred=True)
    # A decimal gold is a value, not a rounding interval: `0.5` is not matched by 5/11, nor 33.3 by 100/3.
    # Only an exactly equal value (1/2 for 0.5) matches it.
    return isinstance(pv, Fraction) and pv == ga[0]  # type: ignore[index]


def _rational_function(node: Node) -> bool:
    kind = node[0]
    if kind in ("num", "sym"):
        return True
    if kind == "const":
        return node[1] == "I"
    if kind in ("add", "mul"):
        return all(_rational_function(c) for c in node[1])
    if kind == "neg":
        return _rational_function(node[1])
    if kind == "div":
        return _rational_function(node[1]) and _rational_function(node[2])
    if kind == "pow":
        e = node[2][1] if node[2][0] == "neg" else node[2]
        return _rational_function(node[1]) and e[0] == "num" and e[1].denominator == 1 and abs(e[1]) <= 64
    if kind == "func" and not free_symbols(node):  # `\\binom{10}{3}`: a rational constant if it evaluates so
        try:
            value = ev.exact_value(node)
        except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
            return False
        return value[1] == 0
    return not free_symbols(node) and not has_kind(node, {"const", "func", "sum", "prod", "apply", "lim"})


#: A finite sum or product with at most this many terms is expanded before comparing (`\\sum_{k=0}^{10}`).
MAX_EXPANDED_TERMS = 200


def _expand_finite(node: Node) -> Node:
    """The tree with every sum/product over integer bounds (at most `MAX_EXPANDED_TERMS` terms) written out, so
    `\\sum_{k=0}^{10}\\binom{10}{k}x^k` becomes a polynomial that exact evaluation compares with `(x+1)^{10}`."""
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        return node
    if node[0] in ("sum", "prod") and not (free_symbols(node[3]) or free_symbols(node[4])):
        try:
            lo, hi = ev.exact_value(node[3]), ev.exact_value(node[4])
        except (ev.NotExact, ev.TooBig, ArithmeticError):
            return node
        if lo[1] or hi[1] or lo[0].denominator != 1 or hi[0].denominator != 1:
            return node
        a, b = int(lo[0]), int(hi[0])
        if b - a + 1 > MAX_EXPANDED_TERMS:
            return node
        body = _expand_finite(node[1])
        terms = tuple(substitute(body, node[2], ("num", Fraction(k), None, None)) for k in range(a, b + 1))
        if not terms:
            return ("num", Fraction(0 if node[0] == "sum" else 1), None, None)
        return ("add" if node[0] == "sum" else "mul", terms)
    return tuple(
        _expand_finite(c)
        if isinstance(c, tuple) and c and isinstance(c[0], str)
        else tuple(_expand_finite(x) for x in c)
        if isinstance(c, tuple) and c and isinstance(c[0], tuple)
        else c
        for c in node
    )


def _big_power(node: Node) -> tuple[int, int] | None:
    """`b^n` with integer b > 1, n > 0 as (minimal root of b, matching exponent), for huge exact powers."""
    if node[0] != "pow":
        return None
    try:
        base = ev.exact_value(node[1])
        exp = ev.exact_value(node[2])
    except (ev.NotExact, ev.TooBig):
        return None
    if (
        base[1]
        or exp[1]
        or base[0].denominator != 1
        or exp[0].denominator != 1
        or base[0] <= 1
        or exp[0] <= 0
    ):
        return None
    b, n = base[0].numerator, exp[0].numerator
    for k in range(b.bit_length(), 1, -1):
        r = round(b ** (1 / k))
        for cand in (r - 1, r, r + 1):
            if cand > 1 and cand**k == b:
                return (cand, n * k)
    return (b, n)


_NOISY = frozenset(["add", "func"])
_FINITE = frozenset(["sum", "prod"])


def _numeric_relation(g: Node, p: Node, point: int) -> str:
    """'close', 'far' or 'unsure' (tiny values or unstable digits, where cancellation may mislead)."""
    gv, pv = ev.numeric_value(g, point), ev.numeric_value(p, point)
    if ev.numerically_close(gv, pv, 25):
        return "close"
    tiny = mpmath.mpf(10) ** -20
    if (abs(gv) < tiny and has_kind(g, _NOISY)) or (abs(pv) < tiny and has_kind(p, _NOISY)):
        return "unsure"  # a tiny sum or function value may be an exact zero seen through rounding (sin(pi))
    if has_kind(g, {"add"}) or has_kind(p, {"add"}):  # re-check at double precision against cancellation
        gv2, pv2 = (
            ev.numeric_value(g, point, 2 * ev.NUMERIC_DPS),
            ev.numeric_value(p, point, 2 * ev.NUMERIC_DPS),
        )
        if not (ev.numerically_close(gv, gv2, 20) and ev.numerically_close(pv, pv2, 20)):
            return "unsure"
    return "far"


def _nodes_equal(gs: Scalar, gk: str, g: Node, ps: Scalar, pk: str, p: Node, opts: CompareOptions) -> bool:
    check_deadline()
    if g == p:
        return True
    if g[0] == "ellipsis" or p[0] == "ellipsis":
        return False
    gv = _cached(gs, gk, "exact", lambda: ev.exact_value(g))
    pv = _cached(ps, pk, "exact", lambda: ev.exact_value(p))
    if isinstance(gv, tuple) and isinstance(pv, tuple):
        if gv == pv:
            return True
        rule = _decimal_rule(g, p, gv, pv, opts)
        return bool(rule)
    if isinstance(gv, ev.TooBig) or isinstance(pv, ev.TooBig):
        gb, pb = _big_power(g), _big_power(p)
        if gb is not None and pb is not None:
            return gb == pb
        try:
            if _numeric_relation(g, p, 0) == "far":
                return False
        except (ev.NotNumeric, ev.TooBig):
            pass
        raise Undecidable("values too large to compare within the evaluation bounds")
    # a limit at infinity (`\\lim_{n \\to \\infty}`) or a series to infinity has a value of its own, decided by
    # sympy below (which sums the series; a divergent one stays infinite and is no value)
    bounded = {"lim", "sum", "prod"}
    if ("const", "oo") in constants(g) | constants(p) and not (has_kind(g, bounded) or has_kind(p, bounded)):
        return False  # infinities only equal when written the same (checked above)
    free = free_symbols(g) | free_symbols(p)
    if free and (has_kind(g, _FINITE) or has_kind(p, _FINITE)):
        g, p = _expand_finite(g), _expand_finite(p)  # a finite sum is a polynomial: no sympy needed
    if free and _rational_function(g) and _rational_function(p):
        return _rational_functions_equal(g, p, free)
    if (has_kind(g, {"apply", "sum", "prod"}) or has_kind(p, {"apply", "sum", "prod"})) and free:
        if _generic_refuted(g, p):
            return False
        if not opts.allow_sympy:
            raise NeedsSympy("symbolic sums or function applications")
        from rlvr.verifiers.math import symbolic

        return bool(symbolic.sympy_equal(g, p))
    close_everywhere = True
    for point in TEST_POINTS if free else (0,):
        try:
            relation = _numeric_relation(g, p, point)
        except ev.TooBig as exc:
            raise Undecidable(str(exc)) from exc
        except ev.NotNumeric:
            close_everywhere = False
            continue
        if relation == "far":
            if not free:
                rule = _decimal_rule(g, p, _value_for_rule(gv, g), _value_for_rule(pv, p), opts)
                if rule is not None:
                    return rule
            return False
        if relation == "close" and not free:
            rule = _decimal_rule(g, p, _value_for_rule(gv, g), _value_for_rule(pv, p), opts)
            if rule is not None:
                return rule
        close_everywhere = close_everywhere and relation == "close"
    if free and _real_refuted(g, p):
        return False
    if not opts.allow_sympy:
        raise NeedsSympy("symbolic equality")
    from rlvr.verifiers.math import symbolic

    try:
        proved = symbolic.sympy_equal(g, p)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError, RecursionError):
        proved = None
    # Agreement at test points is evidence, not proof (`|x|` and `x` agree on every positive point): an
    # equality sympy cannot prove is not an equality, whatever the numbers say.
    return proved is True


def _real_refuted(g: Node, p: Node) -> bool:
    """Whether the two sides differ at a point with negative variables where both are real (`|x|` and `x`,
    `\\arccos(\\cos x)` and `x`): they are then different real functions, which sympy (real symbols) could
    never prove equal, so no sympy call is spent on them. A side that is not real there (`2\\ln x`, `\\sqrt{x}`
    at x < 0) is outside its real domain, where identities such as ln(x^2) = 2 ln x need not hold: no verdict.
    """
    for point in SIGNED_POINTS:
        try:
            gv, pv = ev.numeric_value(g, point), ev.numeric_value(p, point)
            if not (_real(gv) and _real(pv)):
                continue
            if _numeric_relation(g, p, point) == "far":
                return True
        except (ev.NotNumeric, ev.TooBig):
            continue
    return False


def _generic_refuted(g: Node, p: Node) -> bool:
    """Whether two sides with undefined functions (`f(x)`, `f(y)`) differ at a test point when every undefined
    function is a generic one (pseudo-random values): then no identity makes them equal and sympy, which knows
    nothing of `f` either, could not prove them equal. Agreement proves nothing (sympy still must)."""
    for point in TEST_POINTS:
        try:
            gv = ev.numeric_value(g, point, opaque_functions=True)
            pv = ev.numeric_value(p, point, opaque_functions=True)
        except (ev.NotNumeric, ev.TooBig):
            continue
        if not ev.numerically_close(gv, pv, 20) and not _cancelling(g, p, gv, pv):
            return True
    return False


def _cancelling(g: Node, p: Node, gv: Any, pv: Any) -> bool:
    """Whether a difference may be cancellation noise (a tiny value of a sum), as `_numeric_relation` fears."""
    tiny = mpmath.mpf(10) ** -20
    return (abs(gv) < tiny and has_kind(g, _NOISY)) or (abs(pv) < tiny and has_kind(p, _NOISY))


def _real(z: Any) -> bool:
    return bool(abs(z.imag) <= mpmath.mpf(10) ** -40 * max(1, abs(z.real)))


def _value_for_rule(value: Any, node: Node) -> Any:
    """The value the decimal rule compares against: exact if known, else a high-precision real."""
    if isinstance(value, tuple):
        return value
    try:
        v = ev.numeric_value(node, 0, 2 * ev.NUMERIC_DPS)
    except (ev.NotNumeric, ev.TooBig):
        return None
    return v.real if v.imag == 0 else None


def _rational_functions_equal(g: Node, p: Node, free: set[str]) -> bool:
    """Exact evaluation at two random rational points (Schwartz-Zippel); a pole at a point tries the next."""
    agreed = 0
    for point in range(8):
        env = {name: ev.point_value(name, point) for name in free}
        try:
            gv = ev.exact_value(g, env)
            pv = ev.exact_value(p, env)
        except ev.NotExact:
            continue
        except ev.TooBig as exc:
            raise Undecidable(str(exc)) from exc
        if gv != pv:
            return False
        agreed += 1
        if agreed == 2:
            return True
    return False
