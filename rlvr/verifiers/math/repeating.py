"""Repeating decimals, in every notation, rewritten to the exact fraction they denote.

A repeating decimal is a rational number, so it is rewritten as `\\frac{p}{q}` before parsing and compared
exactly (`0.(3)` is 1/3, never 0.333 and never a product):

- a bar over the period: `1.2\\overline{34}`, `0.\\bar{3}`;
- a dot over the repeating digit, or over the first and the last digit of a longer period, as UK texts write
  it: `1.\\dot{6}`, `0.\\dot{1}\\dot{2}` (0.1212...), `0.\\dot{1}4\\dot{2}` (0.142142...);
- combining marks over the digits, as chat UIs write it without LaTeX: an overline (U+0305, a macron U+0304, a
  double overline U+033F) over each digit of the period (`0.3̅`, `0.1̅2̅`), or a dot above (U+0307) as `\\dot`;
- a word that says the digits repeat, after them (`0.142857 repeating`, `0.3 recurring`, `0.1666 (repeating)`):
  the shortest tail the digits show twice when they show one (`0.1666` repeats 6, not 1666), else every digit
  after the point (`0.142857` repeats 142857);
- the period in parentheses right after the decimal point or its digits, as most of Europe and Asia write it:
  `0.(3)`, `0.2(7)`, `0.05(7)`, `0.(142857)`, `0.\\,(3)`. Without this rule the parser reads `0.(3)` as the
  product 0*3 (0) and `0.2(7)` as 1.4, values the writer never meant;
- dots that continue a tail the digits visibly repeat: `0.333\\ldots`, `0.1666\\ldots` (`3.14159\\ldots` shows
  no period and stays a plain decimal).
"""

from __future__ import annotations

import re
from fractions import Fraction

# (each number is read from its first digit: `(?<!\d)` keeps a long run of digits from being tried at every one)
_OVERLINE_RE = re.compile(r"(?<!\d)(\d*)\.(\d*)\\(?:overline|bar)\s*\{(\d+)\}")
_DOT = r"\\dot\s*\{?\s*(\d)\s*\}?"
_DOT_RE = re.compile(r"(?<!\d)(\d*\.\d*)" + _DOT + r"(?!\d)")
_DOTS_PAIR_RE = re.compile(
    r"(?<!\d)(\d*\.\d*)" + _DOT + r"(\d*)" + _DOT
)  # first and last digit of the period
_COMBINING_DOT_RE = re.compile("(\\d)\u0307")
_COMBINING_BAR_RE = re.compile(
    "(?<!\\d)(\\d*)\\.(\\d*)((?:\\d[\u0304\u0305\u033f])+)(?![\\d\u0304\u0305\u033f])"
)
_REPEAT_WORD_RE = re.compile(
    r"(?<![\d.])(\d*)\.(\d+)\s*(\()?\s*(?:repeating|recurring|repeated|repeats|recurs)\b(?(3)\s*\))",
    re.IGNORECASE,
)
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


def _worded(m: re.Match[str]) -> str:
    """`0.142857 repeating` -> 1/7, `0.1666 recurring` -> 1/6 (see the module docstring)."""
    whole, digits = m.group(1) or "0", m.group(2)
    for period in range(1, len(digits) // 2 + 1):
        rep = digits[-period:]
        if digits.endswith(rep * 2) and rep.strip("0"):
            fixed = digits[: len(digits) - 2 * period]
            while fixed.endswith(rep):
                fixed = fixed[:-period]
            return repeating_fraction(whole, fixed, rep)
    return repeating_fraction(whole, "", digits)


def rewrite_repeating(s: str) -> str:
    """`s` with every repeating decimal (see the module docstring) written as its exact fraction."""
    if "." not in s:
        return s
    if not s.isascii():
        s = _COMBINING_DOT_RE.sub(r"\\dot{\1}", s)
        s = _COMBINING_BAR_RE.sub(
            lambda m: repeating_fraction(m.group(1) or "0", m.group(2), re.sub(r"\D", "", m.group(3))), s
        )
    if "dot" in s:
        s = _DOTS_PAIR_RE.sub(r"\1\\overline{\2\3\4}", s)
        s = _DOT_RE.sub(r"\1\\overline{\2}", s)
    if "overline" in s or "bar" in s:
        s = _OVERLINE_RE.sub(lambda m: repeating_fraction(m.group(1) or "0", m.group(2), m.group(3)), s)
    if "(" in s:
        s = _PAREN_RE.sub(_parenthesised, s)
    if "ldots" in s:
        s = _DOTS_RE.sub(_dots, s)
    if "rep" in s.lower() or "recur" in s.lower():
        s = _REPEAT_WORD_RE.sub(_worded, s)
    return s
