"""The closed form of a long sum of a polynomial (`\\sum_{k=1}^{10^{12}} k`) or a long product of a constant
(`\\prod_{k=1}^{100000} \\frac{k}{k}` is 1), so it is compared exactly instead of timing out: a polynomial of
degree d summed from `lo` to n is a polynomial of degree d + 1 in n, fixed by its values at d + 2 points, which
are summed term by term and interpolated at n = `hi` in exact rationals.

Only a body that is a polynomial in the index with rational coefficients is read (sums, products, quotients by a
nonzero constant or by a linear factor of their own that vanishes at no index, whole powers up to `_MAX_DEGREE`):
`\\frac{k}{k}` from k = 1 is 1, from k = 0 it is 0/0 and no closed form. Anything else (`2^{-k}`, `\\frac{1}{k}`,
another name) has no closed form here and the sum stays too big to evaluate.
"""

from __future__ import annotations

from fractions import Fraction

from rlvr.verifiers.math.tree import Node

_MAX_DEGREE = 20

Poly = list[Fraction]  # coefficients, lowest degree first


def _trim(p: Poly) -> Poly:
    while len(p) > 1 and p[-1] == 0:
        p = p[:-1]
    return p


def _times(a: Poly, b: Poly) -> Poly:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return _trim(out)


def _plus(a: Poly, b: Poly) -> Poly:
    n = max(len(a), len(b))
    zero = Fraction(0)
    return _trim([(a[i] if i < len(a) else zero) + (b[i] if i < len(b) else zero) for i in range(n)])


def polynomial(node: Node, var: str, span: tuple[int, int] = (1, 0)) -> Poly | None:
    """`node` as a polynomial in `var` with rational coefficients, or None when it is not one; `var` ranges over
    the integers of `span`, where no divisor may vanish."""
    kind = node[0]
    result: Poly | None
    if kind == "num":
        return [node[1]]
    if kind == "sym":
        return [Fraction(0), Fraction(1)] if node[1] == var else None
    if kind == "neg":
        inner = polynomial(node[1], var, span)
        return None if inner is None else [-c for c in inner]
    if kind in ("add", "mul"):
        result = [Fraction(0 if kind == "add" else 1)]
        for part in node[1]:
            p = polynomial(part, var, span)
            if p is None:
                return None
            result = _plus(result, p) if kind == "add" else _times(result, p)
            if len(result) > _MAX_DEGREE + 1:
                return None
        return result
    if kind == "div":
        top, bottom = polynomial(node[1], var, span), polynomial(node[2], var, span)
        if top is None or bottom is None or bottom == [0]:
            return None
        if len(bottom) > 1:  # `\\frac{k}{k}`, `\\frac{2k+2}{k+1}`: a multiple of itself over a linear factor
            root = -bottom[0] / bottom[-1]
            if len(bottom) > 2 or (root.denominator == 1 and span[0] <= root <= span[1]):
                return None  # a divisor that vanishes at an index: that term is undefined
            ratio = top[-1] / bottom[-1]
            return (
                [ratio]
                if len(top) == len(bottom) and all(t == ratio * b for t, b in zip(top, bottom))
                else None
            )
        return [c / bottom[0] for c in top]
    if kind == "pow":
        base, exp = polynomial(node[1], var, span), polynomial(node[2], var, span)
        if base is None or exp is None or len(exp) != 1 or exp[0].denominator != 1 or exp[0] < 0:
            return None
        if (len(base) - 1) * int(exp[0]) > _MAX_DEGREE:
            return None
        result = [Fraction(1)]
        for _ in range(int(exp[0])):
            result = _times(result, base)
        return result
    return None


def _at(p: Poly, x: Fraction) -> Fraction:
    total = Fraction(0)
    for c in reversed(p):
        total = total * x + c
    return total


def polynomial_sum(body: Node, var: str, lo: int, hi: int) -> Fraction | None:
    """`sum_{var=lo}^{hi} body` exactly when `body` is a polynomial in `var` (see the docstring), else None."""
    p = polynomial(body, var, (lo, hi))
    if p is None:
        return None
    points = len(p) + 1  # the sum's degree is one more than the body's
    xs, ys, total = [], [], Fraction(0)
    for n in range(lo, lo + points):
        total += _at(p, Fraction(n))
        xs.append(n)
        ys.append(total)
    value = Fraction(0)
    for i, (xi, yi) in enumerate(zip(xs, ys, strict=True)):  # Lagrange's form at n = hi
        term = yi
        for j, xj in enumerate(xs):
            if j != i:
                term *= Fraction(hi - xj, xi - xj)
        value += term
    return value


_MAX_BITS = 1 << 17  # a constant product's size, as evaluate.MAX_BITS bounds a power


def constant_product(body: Node, var: str, lo: int, hi: int) -> Fraction | None:
    """`prod_{var=lo}^{hi} body` when `body` is a constant in `var` (`\\frac{k}{k}`), within the size bound; else None."""
    p = polynomial(body, var, (lo, hi))
    if p is None or len(p) != 1:
        return None
    c, count = p[0], hi - lo + 1
    if (
        abs(c) not in (0, 1)
        and count * max(abs(c.numerator).bit_length(), c.denominator.bit_length()) > _MAX_BITS
    ):
        return None
    return c**count
