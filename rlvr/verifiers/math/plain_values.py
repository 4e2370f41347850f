"""Plain values a reply states (`8`, `-0.5`, `\\frac{1}{3}`, `1/3`) read as exact numbers, and whether two are
different numbers: the withdrawal and hedge rules compare a revision's value with the answer's by them (split from
`withdrawal.py`)."""

from __future__ import annotations

import functools
import re
from fractions import Fraction

_SIMPLE_VALUE_RE = re.compile(r"^-?\d+(?:\.\d+)?$|^(-?)\\[dt]?frac\{(-?\d+)\}\{(\d+)\}$|^(-?\d+)/(\d+)$")


@functools.lru_cache(maxsize=1024)
def plain_value(text: str) -> Fraction | None:
    """The number a plain value states (`8`, `-0.5`, `\\frac{1}{3}`, `1/3`), or None for anything else."""
    text = text.strip().strip("$").strip()
    m = _SIMPLE_VALUE_RE.match(text)
    if m is None:
        return None
    if m.group(2) is not None:
        return (-1 if m.group(1) else 1) * Fraction(int(m.group(2)), int(m.group(3)) or 1)
    if m.group(4) is not None:
        return Fraction(int(m.group(4)), int(m.group(5)) or 1)
    return Fraction(text)


def different_values(a: str, b: str) -> bool:
    """Whether two plain values are different numbers (`7`, `8`), not one restated (`\\frac13`, `0.333`)."""
    x, y = plain_value(a), plain_value(b)
    return x is not None and y is not None and abs(x - y) > Fraction(1, 100) * max(Fraction(1), abs(x))
