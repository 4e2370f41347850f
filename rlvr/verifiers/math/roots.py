"""Exact roots of rationals: the n-th root of a rational when it is itself rational (`\\sqrt[3]{27/8}` is 3/2),
found by a floating guess checked in exact integer arithmetic (so a near miss is never taken for a root)."""

from __future__ import annotations

from fractions import Fraction

import mpmath


def exact_root(q: Fraction, n: int) -> Fraction | None:
    """The exact n-th root of a non-negative rational, or None if it is irrational."""
    if q < 0 or n <= 0:
        return None
    num = int_root(q.numerator, n)
    den = int_root(q.denominator, n)
    if num is None or den is None:
        return None
    return Fraction(num, den)


def int_root(x: int, n: int) -> int | None:
    """The exact n-th root of a non-negative integer, or None if it is no integer."""
    if x in (0, 1):
        return x
    r = round(x ** (1.0 / n)) if x.bit_length() < 1000 else int(mpmath.root(x, n))
    for cand in (r - 1, r, r + 1):
        if cand >= 0 and cand**n == x:
            return cand
    return None
