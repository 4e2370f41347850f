"""The tokens of a LaTeX / plain-text answer for `latex.py`'s parser: commands, numbers, words, operators
(spacing commands dropped), and a number literal as a tree node that remembers the digits it was written with."""

from __future__ import annotations

import re
from fractions import Fraction

from rlvr.verifiers.math.tree import Node
from rlvr.verifiers.math.vocab import _IGNORED_COMMANDS


class LatexParseError(ValueError):
    """The text is not an expression this grammar understands."""


_TOKEN_RE = re.compile(
    r"""(?P<ws>\s+)
    |(?P<cmd>\\[a-zA-Z]+)
    |(?P<esc>\\[{}|,;:!%$#&_\\ ])
    |(?P<sci>\d+(?:\.\d+)?[eE][-+]?\d+(?![a-zA-Z\d]))
    |(?P<num>\d+\.\d+|\d+\.(?![\d.])|\.\d+|\d+)
    |(?P<word>[a-zA-Z]+)
    |(?P<op>\*\*|!!|[-+*/^_()\[\]{}|,=<>!'&:;%°])""",
    re.VERBOSE,
)


def tokenize(s: str) -> list[tuple[str, str]]:
    """Split into (kind, text) tokens: cmd, num, word, op (escapes like `\\{` are ops)."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if not m:
            raise LatexParseError(f"unexpected character {s[pos]!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup
        text = m.group(0)
        if kind == "ws":
            continue
        if kind == "esc":
            if text in ("\\,", "\\;", "\\:", "\\!", "\\ "):
                continue
            kind = "op"
        elif kind == "cmd" and text[1:] in _IGNORED_COMMANDS:
            continue
        tokens.append((kind or "op", text))
    return tokens


def _digits_value(digits: str) -> int:
    """The integer a string of decimal digits writes, of any length: Python's `int()` refuses more than 4300
    digits (a guard against quadratic conversion), so long literals are read in chunks under that limit."""
    if len(digits) <= 4000:
        return int(digits)
    value = 0
    for at in range(0, len(digits), 4000):
        chunk = digits[at : at + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def number_node(text: str) -> Node:
    """A literal as a node, remembering how many digits it was written with."""
    if "e" in text.lower() and not text.replace(".", "").isdigit():
        mantissa, _, exp = text.lower().partition("e")
        if len(exp.lstrip("+-")) > 3:  # `1e9999999`: keep 10^exp symbolic, the evaluators size-check powers
            power: Node = ("pow", ("num", Fraction(10), None, None), ("num", Fraction(int(exp)), None, None))
            return ("mul", (("num", Fraction(mantissa), None, None), power))
        value = Fraction(mantissa) * Fraction(10) ** int(exp)
        return ("num", value, None, None)
    if text.endswith("."):
        text = text[:-1]
    if "." in text:
        whole, frac = text.split(".")
        digits = (whole + frac).lstrip("0")
        sig = len(digits) if digits else 0
        value = Fraction(_digits_value(whole + frac or "0"), 10 ** len(frac))
        return ("num", value, len(frac), sig)
    return ("num", Fraction(_digits_value(text)), None, None)
