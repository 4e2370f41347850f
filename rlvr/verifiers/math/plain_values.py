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


def _decimals(text: str) -> int | None:
    """The count of decimals a plain decimal is written with (`0.333` has 3), or None for an integer or fraction."""
    text = text.strip().strip("$").strip()
    return len(text.split(".")[1]) if re.fullmatch(r"-?\d+\.\d+", text) else None


def different_values(a: str, b: str) -> bool:
    """Whether two plain values are different numbers (`7`, `8`; `500`, `501`), not one restated: the same number,
    or a decimal that is the other rounded or cut to its decimals (`\\frac13` and `0.333`)."""
    x, y = plain_value(a), plain_value(b)
    if x is None or y is None or x == y:
        return False
    # (a rounding is told by its written decimals, never by a relative tolerance: 500 and 501 are two answers)
    digits = [d for d in (_decimals(a), _decimals(b)) if d is not None]
    # (a truncation too: `\\frac{1}{7}` and `about 0.142`)
    return not digits or abs(x - y) >= Fraction(1, 10 ** min(digits))
