"""The links of a chain of equalities between constants (`x = \\frac36 = 0.5 = \\frac12`), each proved or the chain
is false: exact members must have equal values (or be alike once their exact parts are computed: `\\sqrt{1+1}` is
`\\sqrt{2}`); a decimal member is the writer's rounding of the exact value, so it must be that value rounded to its
own places (`0.6` is not 1/2, `1.5` is not the root of 2). Every check is linear in the size of the chain."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.scalars import decimal_literal, rounds_to
from rlvr.verifiers.math.shapes import Scalar
from rlvr.verifiers.math.tree import Node, free_symbols


def false_link(members: list[Scalar]) -> bool:
    """Whether the parsed members of a chain `a = b = c` have a false link between two constants."""
    # the constant links of the chain must agree: `x = 5 = 3`, `n = 2 + 2 = 3` are false whatever `x`, `n` are.
    # A decimal literal is the writer's rounding of the exact value (`\\frac13 = 0.333`): it must be that value
    # rounded to its own places. A computation with decimals in it (`3.14 \\cdot 4`) is left unjudged: its
    # rounding error is the writer's, and no rule says how far it may go; a decimal may round its value instead.
    constants = [m for m in members if not free_symbols(m.node)]
    decimals = [info for m in constants if (info := decimal_literal(m.node)) is not None]
    exact = [m.node for m in constants if "." not in m.text]
    if exact:
        if any(constants_differ(n, exact[-1]) for n in exact[:-1]):
            return True
        computed = [m.node for m in constants if "." in m.text and decimal_literal(m.node) is None]
        references = [v for n in [exact[-1], *computed] if (v := real_value(n)) is not None]
        return bool(references) and any(
            not any(rounds_to(v, d, r) for r in references) for v, d, _ in decimals
        )
    # decimals alone (`0.333 = 0.33`): each is some value rounded, so two differ only past both roundings
    return any(
        abs(a - b) > Fraction(1, 2 * 10**da) + Fraction(1, 2 * 10**db)
        for (a, da, _), (b, db, _) in itertools.pairwise(decimals)
    )


def real_value(node: Node) -> Fraction | Any | None:
    """A constant's real value, exact where it can be, else numeric; None if it has none (complex, too big)."""
    try:
        re_part, im_part = ev.exact_value(node)
        return re_part if im_part == 0 else None
    except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
        pass
    try:
        z = ev.numeric_value(node)
    except (ev.NotNumeric, ev.TooBig, ArithmeticError, ValueError):
        return None
    return z.real if abs(z.imag) <= abs(z) * 1e-30 else None


def constants_differ(a: Node, b: Node) -> bool:
    """Whether two constant expressions have provably different values (exactly, else far apart numerically)."""
    try:
        return ev.exact_value(a) != ev.exact_value(b)
    except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
        pass
    # closeness is no proof (`3 + e^{-1000}` is close to 3): a link not proved equal exactly or written alike is
    # not taken as true, unless neither side has a numeric value to compare
    try:
        ev.numeric_value(a), ev.numeric_value(b)
    except (ev.NotNumeric, ev.TooBig, ArithmeticError, ValueError):
        return False
    try:  # alike once their exact parts are computed (`\\sqrt{1+1} = \\sqrt{2}`), or as products of radicals
        if _folded(a) == _folded(b):
            return False
        form = radical_form(a)
        return form is None or form != radical_form(b)
    except RecursionError:
        return True


#: A product of rational powers of positive integers: (coefficient, {base: exponent in (0, 1)}).
RadicalForm = tuple[Fraction, frozenset[tuple[int, Fraction]]]
_MAX_RADICAL_BITS = 4096


def radical_form(node: Node) -> RadicalForm | None:
    """The value of a product of roots and rational powers of numbers (`5\\sqrt{3}`, `\\sqrt{2} \\cdot \\sqrt{3}`,
    `2^{1/2}`, `\\frac{1}{\\sqrt2}`) as coefficient times primes to exponents in (0, 1), so equal values have equal
    forms when their radicands factor over the small primes (`\\sqrt{75}` and `5\\sqrt{3}`); None for anything else.
    Two equal forms always denote one value; different forms may still be equal (a large prime factor)."""
    raw = _radical(node)
    if raw is None:
        return None
    coeff, exps = raw
    kept: list[tuple[int, Fraction]] = []
    for base, e in exps.items():
        whole = e.numerator // e.denominator
        if abs(whole) * base.bit_length() > _MAX_RADICAL_BITS:
            return None
        coeff *= Fraction(base) ** whole
        if e != whole:
            kept.append((base, e - whole))
    return coeff, frozenset(kept)


def _radical(node: Node) -> tuple[Fraction, dict[int, Fraction]] | None:
    kind = node[0]
    if kind == "num":
        return node[1], {}
    if kind == "neg":
        inner = _radical(node[1])
        return None if inner is None else (-inner[0], inner[1])
    if kind in ("mul", "div"):
        factors = node[1] if kind == "mul" else (node[1], node[2])
        acc: tuple[Fraction, dict[int, Fraction]] | None = (Fraction(1), {})
        for i, factor in enumerate(factors):
            part = _radical(factor)
            if part is None or acc is None:
                return None
            acc = _times(acc, part if kind == "mul" or i == 0 else _power(part, Fraction(-1)))
        return acc
    if kind == "pow":
        base = _radical(node[1])
        exp = real_value(node[2])
        return None if base is None or not isinstance(exp, Fraction) else _power(base, exp)
    if kind == "func" and node[1] in ("sqrt", "root"):
        index = Fraction(2) if node[1] == "sqrt" else real_value(node[2][1])
        base = _radical(node[2][0])
        if base is None or not isinstance(index, Fraction) or index.denominator != 1 or index < 2:
            return None
        return _power(base, 1 / index)
    return None


def _times(
    a: tuple[Fraction, dict[int, Fraction]] | None, b: tuple[Fraction, dict[int, Fraction]] | None
) -> tuple[Fraction, dict[int, Fraction]] | None:
    if a is None or b is None:
        return None
    exps = dict(a[1])
    for base, e in b[1].items():
        exps[base] = exps.get(base, Fraction(0)) + e
    return a[0] * b[0], {k: v for k, v in exps.items() if v}


def _power(
    m: tuple[Fraction, dict[int, Fraction]], e: Fraction
) -> tuple[Fraction, dict[int, Fraction]] | None:
    coeff, exps = m
    if abs(e.numerator) > 64 or e.denominator > 64 or (coeff == 0 and e < 0):
        return None
    scaled = {k: v * e for k, v in exps.items()}
    bits = max(coeff.numerator.bit_length(), coeff.denominator.bit_length())
    if bits * abs(e) > _MAX_RADICAL_BITS:
        return None  # a power too large to build, or a radicand too large to factor
    if e.denominator == 1:
        return coeff ** int(e), scaled
    if coeff <= 0:
        return None  # a root of a negative number is no real power here
    out: tuple[Fraction, dict[int, Fraction]] | None = (Fraction(1), scaled)
    for n, sign in ((coeff.numerator, 1), (coeff.denominator, -1)):
        out = _times(out, (Fraction(1), {p: k * e * sign for p, k in _factor(n).items()}))
    return out


def _factor(n: int) -> dict[int, int]:
    """`n` over the primes below 1000, the rest (1 or a number with larger factors only) kept as one base."""
    out: dict[int, int] = {}
    for p in range(2, 1000):
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        if p * p > n:
            break
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def _folded(x: Any) -> Any:
    """A tree with each subtree whose children are exact rationals replaced by its value, bottom-up (each node
    is evaluated once over number leaves, so the cost is linear): `\\sqrt{1+1}` folds to `\\sqrt{2}`."""
    if not isinstance(x, tuple):
        return x
    if not x or not isinstance(x[0], str):  # a tuple of children
        return tuple(_folded(c) for c in x)
    if x[0] == "num":
        return ("num", x[1], None, None)
    node = (x[0], *(_folded(c) for c in x[1:]))
    if x[0] in ("sym", "const") or not _number_leaves(node):
        return node
    try:
        value, imag = ev.exact_value(node)
    except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
        return node
    return ("num", value, None, None) if imag == 0 else node


def _number_leaves(node: tuple) -> bool:
    """Whether every child of a node is a number (or a tuple of numbers, or a plain value such as a name)."""
    for c in node[1:]:
        items = c if isinstance(c, tuple) and c and not isinstance(c[0], str) else (c,)
        if any(isinstance(i, tuple) and i[0] != "num" for i in items):
            return False
    return True


def approximates(exact: Scalar, approx: Scalar) -> bool:
    """Whether `exact \\approx approx` can be true: a number written after `\\approx` is the constant rounded or
    truncated to its own places (`3\\sqrt{2} \\approx 4.24`, `\\pi \\approx 3.1415`; not `4.25`, not `5`); a side
    with a variable or without a real value passes."""
    info = decimal_literal(approx.node)
    node = approx.node[1] if approx.node[0] == "neg" else approx.node
    if info is None and node[0] == "num" and node[1].denominator == 1:  # an integer: no places
        info = (-node[1] if approx.node[0] == "neg" else node[1], 0, 0)
    if info is None or free_symbols(exact.node):
        return True
    reference = real_value(exact.node)
    if reference is None:
        return True
    value, places, _ = info
    if rounds_to(value, places, reference):
        return True
    ctx = ev.numeric_context(80)
    ref = (
        ctx.mpf(reference.numerator) / reference.denominator if isinstance(reference, Fraction) else reference
    )
    scaled = abs(ref) * ctx.mpf(10) ** places
    truncated = Fraction(int(ctx.floor(scaled)), 10**places) * (1 if ref >= 0 else -1)
    return truncated == value
