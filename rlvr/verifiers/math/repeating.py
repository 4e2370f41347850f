"""Repeating decimals, in every notation, rewritten to the exact fraction they denote.

A repeating decimal is a rational number, so it is rewritten as `\\frac{p}{q}` before parsing and compared
exactly (`0.(3)` is 1/3, never 0.333 and never a product):

- a bar over the period: `1.2\\overline{34}`;
- a dot over the repeating digit, as UK texts write it: `1.\\dot{6}`;
- the period in parentheses right after the decimal point or its digits, as most of Europe and Asia write it:
  `0.(3)`, `0.2(7)`, `0.05(7)`, `0.(142857)`, `0.\\,(3)`. Without this rule the parser reads `0.(3)` as the
  product 0*3 (0) and `0.2(7)` as 1.4, values the writer never meant;
- dots that continue a tail the digits visibly repeat: `0.333\\ldots`, `0.1666\\ldots` (`3.14159\\ldots` shows
  no period and stays a plain decimal).
"""

from __future__ import annotations

import re
from fractions import Fraction

_OVERLINE_RE = re.compile(r"(\d*)\.(\d*)\\overline\s*\{(\d+)\}")
_DOT_RE = re.compile(r"(\d*\.\d*)\\dot\s*\{?\s*(\d)\s*\}?(?!\d)")
# the period in parentheses: digits or a point before it (`0.(3)`, `.(3)` needs a digit on one side), only
# spacing between the point's digits and the parenthesis, and nothing numeric glued after it (`0.(3)4`)
_PAREN_RE = re.compile(r"(?<![\w.\\])(\d*)\.(\d*)(?:\s|\\[,;:! ]|~)*\((\d+)\)(?![\d.(])")
_DOTS_RE = re.compile(r"(?<![\d.])(\d*)\.(\d+)\s*\\ldots(?:\s|$)")


def repeating_fraction(whole: str, fixed: str, rep: str) -> str:
    """`whole.fixed` followed by `rep` repeated forever, as an exact TeX fraction."""
    base = Fraction(int(whole + fixed or "0"), 10 ** len(fixed))
    value = base + Fraction(int(rep), (10 ** len(rep) - 1) * 10 ** len(fixed))
    return rf"\frac{{{value.numerator}}}{{{value.denominator}}}"


def _parenthesised(m: re.Match[str]) -> str:
    whole, fixed, rep = m.groups()
    if not (whole or fixed):
        return m.group(0)  # `.(3)`: no digit at the point, so no decimal to continue
    return repeating_fraction(whole or "0", fixed, rep)


def _dots(m: re.Match[str]) -> str:
    """`0.333\\ldots` -> 1/3: the shortest period that the digits repeat at least three times (or the last
    digit three times); digits that show no repetition (`3.14159\\ldots`) stay a plain decimal."""
    whole, digits = m.group(1) or "0", m.group(2)
    for period in range(1, len(digits) // 3 + 1):
        rep = digits[-period:]
        if digits.endswith(rep * 3):
            fixed = digits[: len(digits) - 3 * period]
            while fixed.endswith(rep):
                fixed = fixed[:-period]
            return repeating_fraction(whole, fixed, rep) + " "
    return f"{whole}.{digits} "


def rewrite_repeating(s: str) -> str:
    """`s` with every repeating decimal (see the module docstring) written as its exact fraction."""
    if "." not in s:
        return s
    if "dot" in s:
        s = _DOT_RE.sub(r"\1\\overline{\2}", s)
    if "overline" in s:
        s = _OVERLINE_RE.sub(lambda m: repeating_fraction(m.group(1) or "0", m.group(2), m.group(3)), s)
    if "(" in s:
        s = _PAREN_RE.sub(_parenthesised, s)
    if "ldots" in s:
        s = _DOTS_RE.sub(_dots, s)
    return s
