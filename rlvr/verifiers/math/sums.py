"""The closed form of a long sum of a polynomial (`\\sum_{k=1}^{10^{12}} k`), so it is compared exactly instead
of timing out: a polynomial of degree d summed from `lo` to n is a polynomial of degree d + 1 in n, fixed by its
values at d + 2 points, which are summed term by term and interpolated at n = `hi` in exact rationals.

Only a body that is a polynomial in the index with rational coefficients is read (sums, products, quotients by a
nonzero constant, whole powers up to `_MAX_DEGREE`); anything else (`2^{-k}`, `\\frac{1}{k}`, another name) has no
closed form here and the sum stays too big to evaluate.
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


def polynomial(node: Node, var: str) -> Poly | None:
    """`node` as a polynomial in `var` with rational coefficients, or None when it is not one."""
    kind = node[0]
    result: Poly | None
    if kind == "num":
        return [node[1]]
    if kind == "sym":
        return [Fraction(0), Fraction(1)] if node[1] == var else None
    if kind == "neg":
        inner = polynomial(node[1], var)
        return None if inner is None else [-c for c in inner]
    if kind in ("add", "mul"):
        result = [Fraction(0 if kind == "add" else 1)]
        for part in node[1]:
            p = polynomial(part, var)
            if p is None:
                return None
            result = _plus(result, p) if kind == "add" else _times(result, p)
            if len(result) > _MAX_DEGREE + 1:
                return None
        return result
    if kind == "div":
        top, bottom = polynomial(node[1], var), polynomial(node[2], var)
        if top is None or bottom is None or len(bottom) != 1 or bottom[0] == 0:
            return None
        return [c / bottom[0] for c in top]
    if kind == "pow":
        base, exp = polynomial(node[1], var), polynomial(node[2], var)
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
    p = polynomial(body, var)
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
