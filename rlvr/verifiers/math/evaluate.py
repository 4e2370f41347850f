"""Bounded evaluation of expression trees: exact (Gaussian) rationals and high-precision numerics, no sympy.

These are the cheap paths that decide most comparisons in microseconds and that can run in the calling
process because their cost is bounded: every integer power, factorial or binomial is size-checked before it
is computed (`TooBig` beyond `MAX_BITS`), numeric magnitudes are tracked in log space and trig/exp
arguments are range-checked, so `10^{10^{10}}` or a power tower raises `TooBig` at once instead of hanging.
Numerics use a private mpmath context per thread (mpmath's global precision is not thread-safe).
"""

from __future__ import annotations

import hashlib
import math
import threading
from fractions import Fraction

import mpmath

from rlvr.verifiers.math.deadline import check as check_deadline
from rlvr.verifiers.math.roots import exact_root as _exact_root
from rlvr.verifiers.math.sums import constant_product, polynomial_sum
from rlvr.verifiers.math.tree import Node, substitute

#: Largest exact integer/rational component (bits) the exact evaluator will build (~40k decimal digits).
MAX_BITS = 1 << 17
#: Total bits the exact evaluator may build for one tree before giving up.
MAX_TOTAL_BITS = 1 << 23
#: Numeric values beyond 2**MAX_LOG2 in magnitude are "too big" for bounded evaluation.
MAX_LOG2 = 1e15
#: Working precision (decimal digits) of the numeric evaluator.
NUMERIC_DPS = 40

Exact = tuple[Fraction, Fraction]  # (real, imaginary)
_ZERO = Fraction(0)
_ONE = Fraction(1)


class TooBig(ArithmeticError):
    """The value is too large to evaluate within the bounds (power towers, huge factorials)."""


class NotExact(ValueError):
    """The tree has no exact rational value (irrational, symbolic, undefined)."""


class NotNumeric(ValueError):
    """The tree has no finite numeric value at the requested point (infinity, division by zero, ...)."""


def _bits(q: Fraction) -> int:
    return max(q.numerator.bit_length(), q.denominator.bit_length())


class _Budget:
    def __init__(self, env: dict[str, Fraction] | None = None) -> None:
        self.used = 0
        self.env = env or {}

    def charge(self, value: Exact) -> Exact:
        bits = _bits(value[0]) + _bits(value[1])
        if bits > MAX_BITS:
            raise TooBig("exact value exceeds the size bound")
        self.used += bits
        if self.used > MAX_TOTAL_BITS:
            raise TooBig("exact evaluation exceeds its work budget")
        return value


def _real_int(v: Exact, what: str) -> int:
    if v[1] != 0 or v[0].denominator != 1:
        raise NotExact(f"{what} is not an integer")
    return v[0].numerator


def _mul(a: Exact, b: Exact) -> Exact:
    if a[1] == 0 and b[1] == 0:
        return (a[0] * b[0], _ZERO)
    return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


def _inv(a: Exact) -> Exact:
    if a[1] == 0:
        if a[0] == 0:
            raise NotExact("division by zero")
        return (1 / a[0], _ZERO)
    d = a[0] * a[0] + a[1] * a[1]
    return (a[0] / d, -a[1] / d)


def _int_power(base: Exact, e: int, budget: _Budget) -> Exact:
    if e == 0:
        return (_ONE, _ZERO)
    size = max(_bits(base[0]), _bits(base[1]), 1)
    if abs(base[0]) in (0, 1) and base[1] == 0:
        size = 0
    if size and abs(e) * size > MAX_BITS:
        raise TooBig("power too large to evaluate exactly")
    if base[1] == 0:
        if base[0] == 0 and e < 0:
            raise NotExact("division by zero")
        return budget.charge((base[0] ** e, _ZERO))
    result, acc, k = (_ONE, _ZERO), base, abs(e)
    while k:
        if k & 1:
            result = _mul(result, acc)
        acc = _mul(acc, acc)
        k >>= 1
    return budget.charge(result if e > 0 else _inv(result))


def exact_value(node: Node, env: dict[str, Fraction] | None = None) -> Exact:
    """The exact value of a tree as (real, imaginary) rationals (free symbols from `env`).

    Raises `NotExact` (irrational, symbolic, undefined) or `TooBig` (beyond the size bounds).
    """
    return _exact(node, _Budget(env))


def _exact(node: Node, budget: _Budget) -> Exact:
    check_deadline()
    kind = node[0]
    if kind == "num":
        return (node[1], _ZERO)
    if kind == "const":
        if node[1] == "I":
            return (_ZERO, _ONE)
        raise NotExact(node[1])
    if kind == "sym":
        if node[1] in budget.env:
            return (budget.env[node[1]], _ZERO)
        raise NotExact(node[1])
    if kind == "add":
        re = im = _ZERO
        for term in node[1]:
            v = _exact(term, budget)
            re += v[0]
            im += v[1]
        return budget.charge((re, im))
    if kind == "neg":
        v = _exact(node[1], budget)
        return (-v[0], -v[1])
    if kind == "mul":
        acc: Exact = (_ONE, _ZERO)
        for factor in node[1]:
            acc = budget.charge(_mul(acc, _exact(factor, budget)))
        return acc
    if kind == "div":
        return budget.charge(_mul(_exact(node[1], budget), _inv(_exact(node[2], budget))))
    if kind == "pow":
        base = _exact(node[1], budget)
        exp = _exact(node[2], budget)
        if exp[1] != 0:
            raise NotExact("complex exponent")
        if exp[0].denominator == 1:
            return _int_power(base, exp[0].numerator, budget)
        if base[1] != 0 or base[0] < 0 or exp[0].denominator > 64:
            raise NotExact("irrational power")
        root = _exact_root(base[0], exp[0].denominator)
        if root is None:
            raise NotExact("irrational power")
        return _int_power((root, _ZERO), exp[0].numerator, budget)
    if kind in ("fact", "fact2"):
        n = _real_int(_exact(node[1], budget), "factorial argument")
        if n < 0:
            raise NotExact("factorial of a negative integer")
        if n > 2 and n * math.log2(n) > MAX_BITS * (2 if kind == "fact2" else 1):
            raise TooBig("factorial too large to evaluate exactly")
        value = math.factorial(n) if kind == "fact" else math.prod(range(n, 0, -2))
        return budget.charge((Fraction(value), _ZERO))
    if kind == "pct":
        v = _exact(node[1], budget)
        return (v[0] / 100, v[1] / 100)
    if kind == "func":
        return _exact_func(node[1], [_exact(a, budget) for a in node[2]], budget)
    if kind in ("sum", "prod"):
        lo = _real_int(_exact(node[3], budget), "lower bound")
        hi = _real_int(_exact(node[4], budget), "upper bound")
        if (
            hi - lo > 1000
        ):  # a polynomial summed, a constant multiplied: closed forms (sums.py); others too big
            closed = polynomial_sum if kind == "sum" else constant_product
            total = closed(node[1], node[2], lo, hi)
            if total is None:
                raise TooBig("too many terms")
            return budget.charge((total, _ZERO))
        acc = (_ZERO, _ZERO) if kind == "sum" else (_ONE, _ZERO)
        for k in range(lo, hi + 1):
            v = _exact(substitute(node[1], node[2], ("num", Fraction(k), None, None)), budget)
            acc = budget.charge((acc[0] + v[0], acc[1] + v[1]) if kind == "sum" else _mul(acc, v))
        return acc
    raise NotExact(kind)


def _exact_func(name: str, args: list[Exact], budget: _Budget) -> Exact:
    real = all(a[1] == 0 for a in args)
    if name == "sqrt" or name == "root":
        n = 2 if name == "sqrt" else _real_int(args[1], "root index")
        x = args[0]
        if not real or n <= 0:
            raise NotExact("root of a complex number")
        if x[0] < 0:
            if n != 2:
                raise NotExact("odd root of a negative number")
            r = _exact_root(-x[0], 2)
            if r is None:
                raise NotExact("irrational root")
            return (_ZERO, r)
        r = _exact_root(x[0], n)
        if r is None:
            raise NotExact("irrational root")
        return (r, _ZERO)
    if name in ("re", "im"):
        return (args[0][0] if name == "re" else args[0][1], _ZERO)
    if not real:
        if name == "conjugate":
            return (args[0][0], -args[0][1])
        raise NotExact(f"{name} of a complex number")
    xs = [a[0] for a in args]
    if name == "binomial":
        n = _real_int(args[0], "binomial n")
        k = _real_int(args[1], "binomial k")
        if n < 0 or k < 0:
            raise NotExact("binomial of a negative integer")
        if n > MAX_BITS:
            raise TooBig("binomial too large")
        return budget.charge((Fraction(math.comb(n, k)), _ZERO))
    if name == "Abs":
        return (abs(xs[0]), _ZERO)
    if name == "floor":
        return (Fraction(math.floor(xs[0])), _ZERO)
    if name == "ceiling":
        return (Fraction(math.ceil(xs[0])), _ZERO)
    if name == "conjugate":
        return (xs[0], _ZERO)
    if name == "Max":
        return (max(xs), _ZERO)
    if name == "Min":
        return (min(xs), _ZERO)
    if name in ("gcd", "lcm") and all(x.denominator == 1 for x in xs):
        ints = [x.numerator for x in xs]
        return (Fraction(math.gcd(*ints) if name == "gcd" else math.lcm(*ints)), _ZERO)
    if name == "log" and len(xs) == 2:
        arg, base = xs
        if arg > 0 and base > 0 and base != 1:
            power = (
                round(math.log(float(arg)) / math.log(float(base)))
                if 0 < _bits(arg) < 1000 and _bits(base) < 1000
                else None
            )
            if power is not None and abs(power) * _bits(base) <= MAX_BITS and base**power == arg:
                return (Fraction(power), _ZERO)
        raise NotExact("irrational logarithm")
    if name == "log" and xs[0] == 1:
        return (_ZERO, _ZERO)
    if name in ("sin", "tan", "asin", "atan", "sinh", "tanh") and xs[0] == 0:
        return (_ZERO, _ZERO)
    if name in ("cos", "cosh", "exp") and xs[0] == 0:
        return (_ONE, _ZERO)
    raise NotExact(name)


# ---------------------------------------------------------------------------------------------- numerics
_local = threading.local()


def numeric_context(dps: int = NUMERIC_DPS) -> mpmath.ctx_mp.MPContext:
    """This thread's private mpmath context at `dps` digits."""
    contexts = getattr(_local, "contexts", None)
    if contexts is None:
        contexts = _local.contexts = {}
    ctx = contexts.get(dps)
    if ctx is None:
        ctx = contexts[dps] = mpmath.MPContext()
        ctx.dps = dps
    return ctx


def point_value(name: str, point: int) -> Fraction:
    """The value a free symbol takes at test point `point`: a stable pseudo-random rational in (0.3, 2.3);
    at the signed points (`scalars.SIGNED_POINTS`) negative: all names (3), names ending in an odd character
    code (4: `a` but not `b`, so `|ab|` and `ab` differ there), or names picked by the hash (5 and up)."""
    digest = hashlib.blake2b(f"{name}|{point}".encode(), digest_size=8).digest()
    value = Fraction(3, 10) + Fraction(int.from_bytes(digest, "big") % 10**12, 5 * 10**11)
    negative = point == 3 or (point == 4 and ord(name[-1]) % 2 == 1) or (point > 4 and digest[0] % 2 == 1)
    return -value if negative else value


def _log2_abs(ctx: mpmath.ctx_mp.MPContext, z: mpmath.mpc) -> float:
    a = abs(z)
    return -math.inf if a == 0 else float(ctx.log(a, 2))


def _check(ctx: mpmath.ctx_mp.MPContext, z: mpmath.mpc) -> mpmath.mpc:
    if not ctx.isfinite(z.real) or not ctx.isfinite(z.imag):
        raise NotNumeric("not finite")
    # `mag` is log2|z| to within a couple of units, at a thirtieth of a logarithm's cost; the bound is 1e15
    if z != 0 and abs(ctx.mag(z)) > MAX_LOG2:
        raise TooBig("numeric value out of range")
    return z


_OPAQUE = " opaque"  # an env key no variable can have: undefined functions take pseudo-random values


def numeric_value(
    node: Node, point: int = 0, dps: int = NUMERIC_DPS, *, opaque_functions: bool = False
) -> mpmath.mpc:
    """A `dps`-digit complex value of the tree, free symbols set to `point_value(name, point)`.

    With `opaque_functions`, an undefined function applied to an argument (`f(x)`) takes a pseudo-random value
    of its name and argument (a generic function), so `f(x)` and `f(y)` differ; such values can only refute,
    never match a number. Raises `NotNumeric` (no finite value) or `TooBig` (beyond the magnitude bounds).
    """
    ctx = numeric_context(dps)
    try:
        return _num(node, ctx, point, {_OPAQUE: ctx.mpc(1)} if opaque_functions else {})
    except (ZeroDivisionError, OverflowError) as exc:
        raise NotNumeric(str(exc)) from exc


def _num(node: Node, ctx: mpmath.ctx_mp.MPContext, point: int, env: dict[str, mpmath.mpc]) -> mpmath.mpc:
    check_deadline()
    kind = node[0]
    if kind == "num":
        q = node[1]
        return ctx.mpc(ctx.mpf(q.numerator) / q.denominator)
    if kind == "sym":
        name = node[1]
        if name not in env:
            q = point_value(name, point)
            env[name] = ctx.mpc(ctx.mpf(q.numerator) / q.denominator)
        return env[name]
    if kind == "const":
        if node[1] == "oo":
            raise NotNumeric("infinity")
        return {"pi": ctx.mpc(ctx.pi), "E": ctx.mpc(ctx.e), "I": ctx.mpc(0, 1)}[node[1]]
    if kind == "add":
        return _check(ctx, ctx.fsum(_num(t, ctx, point, env) for t in node[1]))
    if kind == "neg":
        return -_num(node[1], ctx, point, env)
    if kind == "mul":
        acc = ctx.mpc(1)
        for f in node[1]:
            acc = _check(ctx, acc * _num(f, ctx, point, env))
        return acc
    if kind == "div":
        den = _num(node[2], ctx, point, env)
        if den == 0:
            raise NotNumeric("division by zero")
        return _check(ctx, _num(node[1], ctx, point, env) / den)
    if kind == "pow":
        base = _num(node[1], ctx, point, env)
        exp = _num(node[2], ctx, point, env)
        if base == 0:
            if exp.real > 0:
                return ctx.mpc(0)
            raise NotNumeric("0 to a non-positive power")
        if abs(exp) * abs(_log2_abs(ctx, base)) > MAX_LOG2 or abs(exp.imag) > 1e6:
            raise TooBig("power out of range")
        if exp.imag == 0 and exp.real == int(exp.real) and base.imag == 0:
            return _check(ctx, ctx.mpc(ctx.power(base.real, int(exp.real))))
        return _check(ctx, ctx.power(base, exp))
    if kind in ("fact", "fact2"):
        n = _num(node[1], ctx, point, env)
        if n.imag != 0 or n.real > 1e7:
            raise TooBig("factorial out of range") if n.real > 1e7 else NotNumeric("complex factorial")
        if n.real < 0 and n.real == int(n.real):
            raise NotNumeric("factorial of a negative integer")
        if kind == "fact2":
            k = int(n.real)
            if k != n.real or k > 10**5:
                raise NotNumeric("double factorial of a non-integer")
            return ctx.mpc(ctx.fprod(ctx.mpf(j) for j in range(k, 0, -2)))
        return _check(ctx, ctx.mpc(ctx.factorial(n.real)))
    if kind == "pct":
        return _num(node[1], ctx, point, env) / 100
    if kind == "func":
        args = [_num(a, ctx, point, env) for a in node[2]]
        return _check(ctx, _num_func(node[1], args, ctx))
    if kind == "apply" and _OPAQUE in env:
        args = [_num(a, ctx, point, env) for a in node[2]]
        # the arguments rounded far above the working noise: equal arguments, equal values
        key = "|".join([node[1], *(ctx.nstr(a, 25) for a in args)])
        digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
        return ctx.mpc(ctx.mpf(3) / 10 + ctx.mpf(int.from_bytes(digest, "big") % 10**12) / (5 * 10**11))
    if kind in ("sum", "prod"):
        lo = _num(node[3], ctx, point, env)
        hi = _num(node[4], ctx, point, env)
        if lo.imag or hi.imag or lo.real != int(lo.real) or hi.real != int(hi.real):
            raise NotNumeric("non-integer summation bounds")
        if hi.real - lo.real > 10000:
            raise TooBig("too many terms")
        total = ctx.mpc(0) if kind == "sum" else ctx.mpc(1)
        for k in range(int(lo.real), int(hi.real) + 1):
            inner = dict(env)
            inner[node[2]] = ctx.mpc(k)
            v = _num(node[1], ctx, point, inner)
            total = total + v if kind == "sum" else total * v
        return _check(ctx, total)
    raise NotNumeric(f"cannot evaluate {kind}")


_TRIG_LIMIT = 1e6


def _num_func(name: str, args: list[mpmath.mpc], ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
    x = args[0]
    if (
        name in ("sin", "cos", "tan", "sec", "csc", "cot", "sinh", "cosh", "tanh", "coth", "exp")
        and abs(x) > _TRIG_LIMIT
    ):
        raise TooBig(f"{name} argument out of range")
    simple = {
        "sin": ctx.sin,
        "cos": ctx.cos,
        "tan": ctx.tan,
        "sec": ctx.sec,
        "csc": ctx.csc,
        "cot": ctx.cot,
        "asin": ctx.asin,
        "acos": ctx.acos,
        "atan": ctx.atan,
        "acot": ctx.acot,
        "asec": ctx.asec,
        "acsc": ctx.acsc,
        "sinh": ctx.sinh,
        "cosh": ctx.cosh,
        "tanh": ctx.tanh,
        "coth": ctx.coth,
        "asinh": ctx.asinh,
        "acosh": ctx.acosh,
        "atanh": ctx.atanh,
        "exp": ctx.exp,
        "sqrt": ctx.sqrt,
        "conjugate": ctx.conj,
        "re": lambda z: ctx.mpc(z.real),
        "im": lambda z: ctx.mpc(z.imag),
    }
    try:
        if name in simple:
            return ctx.mpc(simple[name](x))
        if name == "log":
            if x == 0:
                raise NotNumeric("log(0)")
            if len(args) == 2:
                base = args[1]
                if base == 0 or base == 1:
                    raise NotNumeric("bad log base")
                return ctx.log(x) / ctx.log(base)
            return ctx.mpc(ctx.log(x))
        if name == "root":
            n = args[1]
            if x.imag == 0 and x.real < 0 and n.imag == 0 and n.real == int(n.real) and int(n.real) % 2 == 1:
                return ctx.mpc(-ctx.root(-x.real, int(n.real)))  # real odd root of a negative number
            return ctx.mpc(ctx.power(x, 1 / n))
        if name == "Abs":
            return ctx.mpc(abs(x))
        if name in ("floor", "ceiling"):
            if x.imag:
                raise NotNumeric("floor of a complex number")
            if abs(x.real - ctx.nint(x.real)) <= ctx.mpf(10) ** (10 - ctx.dps) * max(1, abs(x.real)):
                # at an integer the digits cannot tell the side: `\lceil 3 + e^{-1000} \rceil` is 4, not 3
                raise NotNumeric("floor of a value within rounding of an integer")
            return ctx.mpc(ctx.floor(x.real) if name == "floor" else ctx.ceil(x.real))
        if name == "binomial":
            n, k = args
            if abs(n) > 1e7 or abs(k) > 1e7:
                raise TooBig("binomial out of range")
            return ctx.mpc(ctx.binomial(n, k))
        if name in ("Max", "Min"):
            if any(a.imag for a in args):
                raise NotNumeric("max of complex numbers")
            reals = [a.real for a in args]
            return ctx.mpc(max(reals) if name == "Max" else min(reals))
    except (ZeroDivisionError, ValueError) as exc:
        raise NotNumeric(str(exc)) from exc
    raise NotNumeric(f"cannot evaluate {name}")


def numerically_close(a: mpmath.mpc, b: mpmath.mpc, digits: int = NUMERIC_DPS - 10) -> bool:
    """Whether two values agree to `digits` significant digits (zero only matches near-zero)."""
    ctx = numeric_context()
    scale = max(abs(a), abs(b))
    if scale == 0:
        return True
    return abs(a - b) <= scale * ctx.mpf(10) ** (-digits)
