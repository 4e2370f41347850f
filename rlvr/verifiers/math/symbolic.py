"""The sympy stage: expression trees to sympy, and proofs of equality that the cheap paths cannot give.

This is the only module that imports sympy. It runs where a hard deadline is enforced (a killable worker
process, see `verifier.py`), because simplification has no useful time bound. Symbols are real, so
`\\sqrt{x^2}` is `|x|`. Equality is decided by, in order: sympy's canonical forms, `expand`, `simplify`,
the combinatorial/log/trig rewrites (`gammasimp`, `expand_func`, `expand_log`, `trigsimp`), then
`Expr.equals` (which uses minimal polynomials for algebraic numbers and high-precision numerics).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import sympy
import sympy.core.random as sympy_random

from rlvr.verifiers.math.tree import Node

_FUNCS = {
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "sec": sympy.sec,
    "csc": sympy.csc,
    "cot": sympy.cot,
    "asin": sympy.asin,
    "acos": sympy.acos,
    "atan": sympy.atan,
    "acot": sympy.acot,
    "asec": sympy.asec,
    "acsc": sympy.acsc,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
    "tanh": sympy.tanh,
    "coth": sympy.coth,
    "asinh": sympy.asinh,
    "acosh": sympy.acosh,
    "atanh": sympy.atanh,
    "exp": sympy.exp,
    "sqrt": sympy.sqrt,
    "Abs": sympy.Abs,
    "floor": sympy.floor,
    "ceiling": sympy.ceiling,
    "conjugate": sympy.conjugate,
    "re": sympy.re,
    "im": sympy.im,
    "binomial": sympy.binomial,
    "Max": sympy.Max,
    "Min": sympy.Min,
    "gcd": sympy.gcd,
    "lcm": sympy.lcm,
}
#: Integer powers and factorials beyond these stay unevaluated (sympy would otherwise compute them).
_MAX_EXP_BITS = 1 << 17


@functools.lru_cache(maxsize=4096)
def _symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, real=True)


def to_sympy(node: Node) -> sympy.Expr:
    """Convert a tree (without `±`, `°`, ellipses) into a sympy expression."""
    kind = node[0]
    if kind == "num":
        q: Fraction = node[1]
        return sympy.Rational(q.numerator, q.denominator)
    if kind == "sym":
        return _symbol(node[1])
    if kind == "const":
        return {"pi": sympy.pi, "E": sympy.E, "I": sympy.I, "oo": sympy.oo}[node[1]]
    if kind == "add":
        return sympy.Add(*(to_sympy(t) for t in node[1]))
    if kind == "neg":
        return -to_sympy(node[1])
    if kind == "mul":
        return sympy.Mul(*(to_sympy(f) for f in node[1]))
    if kind == "div":
        return to_sympy(node[1]) / to_sympy(node[2])
    if kind == "pow":
        base, exp = to_sympy(node[1]), to_sympy(node[2])
        if base.is_number and exp.is_Integer and base.is_Rational:
            size = max(abs(base.p).bit_length(), base.q.bit_length())
            if size > 1 and abs(int(exp)) * size > _MAX_EXP_BITS:
                return sympy.Pow(base, exp, evaluate=False)
        if exp.is_number and not exp.is_Rational and abs(sympy.N(exp, 15)) > 10**6:
            return sympy.Pow(base, exp, evaluate=False)
        return sympy.Pow(base, exp)
    if kind == "fact":
        arg = to_sympy(node[1])
        if arg.is_Integer and int(arg) > 20000:
            return sympy.factorial(arg, evaluate=False)
        return sympy.factorial(arg)
    if kind == "fact2":
        return sympy.factorial2(to_sympy(node[1]))
    if kind == "pct":
        return to_sympy(node[1]) / 100
    if kind == "func":
        name, args = node[1], [to_sympy(a) for a in node[2]]
        if name == "log":
            return sympy.log(args[0]) if len(args) == 1 else sympy.log(args[0]) / sympy.log(args[1])
        if name == "root":
            n = args[1]
            if args[0].is_number and args[0].is_negative and n.is_Integer and int(n) % 2 == 1:
                return -sympy.root(-args[0], n)  # the real odd root
            return sympy.root(args[0], n)
        if name == "det":
            raise ValueError("det of a non-matrix")
        return _FUNCS[name](*args)
    if kind == "apply":
        return sympy.Function(node[1])(*(to_sympy(a) for a in node[2]))
    if kind in ("sum", "prod"):
        op = sympy.Sum if kind == "sum" else sympy.Product
        series = op(to_sympy(node[1]), (_symbol(node[2]), to_sympy(node[3]), to_sympy(node[4])))
        # an infinite series is a value only once summed (2^{-k} from 0 is 2); a divergent or unsummable one
        # keeps its oo, which `sympy_equal` then refuses as no value
        return series.doit() if series.has(sympy.oo, -sympy.oo) else series
    if kind == "lim":
        point = to_sympy(node[3])
        # two-sided where the point is finite: a limit that differs from the left and right does not exist
        return sympy.limit(to_sympy(node[1]), _symbol(node[2]), point, "+-" if point.is_finite else "+")
    raise ValueError(f"cannot convert {kind} to sympy")


#: How deep (in bits) evalf may look for a nonzero difference: e^{-1000} (2^-1443) and sin^2(10^-300) are found.
_EVALF_MAXN = 8000


def _certainly_nonzero(d: sympy.Expr) -> bool:
    """Whether adaptive-precision evaluation finds `d` nonzero with its digits guaranteed: a true zero comes
    back as 0 or as a precision-less `0.e-N`, a tiny nonzero value (`e^{-1000}`) with full precision."""
    try:
        value = sympy.N(d, 15, maxn=_EVALF_MAXN)
    except (TypeError, ValueError, NotImplementedError, ZeroDivisionError, RecursionError, OverflowError):
        return False
    if not isinstance(value, (sympy.Float, sympy.Add)) or value == 0:
        return False
    parts = [value] if isinstance(value, sympy.Float) else list(value.as_real_imag())
    return any(isinstance(x, sympy.Float) and x != 0 and x._prec > 10 for x in parts)


def _is_zero(d: sympy.Expr) -> bool | None:
    """True/False when sympy can decide whether `d` is zero, None when it cannot."""
    if d == 0:
        return True
    if d.is_Rational:  # an exact nonzero rational (`-10^{-50}`) is no rounding of zero
        return False
    if d.is_number and _certainly_nonzero(d):
        return False  # `3 + e^{-1000}` is not 3: evalf proves a nonzero difference however small
    rewrites = (
        sympy.expand,
        sympy.simplify,
        lambda e: sympy.simplify(sympy.gammasimp(sympy.expand_func(e))),
        lambda e: sympy.simplify(sympy.expand_log(e, force=True)),
        sympy.trigsimp,
        # (no nsimplify: it rounds any value below its tolerance to zero, `\\ln(1 + 10^{-100})` included)
    )
    for rewrite in rewrites:
        try:
            d2 = rewrite(d)
        except (TypeError, ValueError, NotImplementedError, ZeroDivisionError, RecursionError):
            continue
        if d2 == 0:
            return True
    try:
        verdict = d.equals(0)
    except (TypeError, ValueError, NotImplementedError, ZeroDivisionError, RecursionError):
        verdict = None
    if verdict is not None:
        return bool(verdict)
    if d.is_number:
        value = sympy.N(d, 60)
        if value.is_number and abs(value) > sympy.Float(10) ** -50:
            return False
    return None


def sympy_equal(a: Node, b: Node) -> bool | None:
    """Whether two trees are provably equal (True), provably different (False) or undecided (None)."""
    x, y = to_sympy(a), to_sympy(b)
    if x == y:
        return True
    sympy_random.seed(0)  # `Expr.equals` samples random points: same pair, same verdict, in any call order
    if x.has(sympy.oo, -sympy.oo, sympy.zoo) or y.has(sympy.oo, -sympy.oo, sympy.zoo):
        return False
    return _is_zero(x - y)


def proportional(a: Node, b: Node) -> bool | None:
    """Whether `a = c*b` for a nonzero constant c (two equations `a = 0`, `b = 0` are then equivalent)."""
    x, y = to_sympy(a), to_sympy(b)
    if y == 0 or x == 0:
        return x == y
    ratio = sympy.simplify(x / y)
    if not ratio.free_symbols:
        return ratio != 0 and ratio.is_finite is not False
    return False
