"""Unicode math as chat models write it without LaTeX, rewritten to LaTeX before anything else reads it.

A radical takes its whole radicand: `√15` is the root of 15 (never `√1` times 5), `2√15` is 2 times it,
`√(x+1)` takes the bracket, `√x` the letter, `∛2` / `∜2` are the cube / fourth root. Vulgar fractions are
fractions (`½`, `2½` is two and a half), superscripts are powers (`x²`, `10⁻³`), subscripts are indices (`x₁`).
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.numerals import script_digits

_ROOTS = {"√": "", "∛": "[3]", "∜": "[4]"}

# the radicand right after a radical: a number (`15`, `2.5`), a name with its digits (`x`, `x₁`) or a brace
# (a minus right after a radical can only be the radicand's sign: `∛−8` is the cube root of -8)
_RADICAND_RE = re.compile(r"\s*([-\u2212]?\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z])|\\[a-zA-Z]+)")

_VULGAR = {
    "½": (1, 2),
    "⅓": (1, 3),
    "⅔": (2, 3),
    "¼": (1, 4),
    "¾": (3, 4),
    "⅕": (1, 5),
    "⅖": (2, 5),
    "⅗": (3, 5),
    "⅘": (4, 5),
    "⅙": (1, 6),
    "⅚": (5, 6),
    "⅐": (1, 7),
    "⅛": (1, 8),
    "⅜": (3, 8),
    "⅝": (5, 8),
    "⅞": (7, 8),
    "⅑": (1, 9),
    "⅒": (1, 10),
}
_VULGAR_RE = re.compile(r"(\d+)?\s*([" + "".join(_VULGAR) + "])")

_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿ", "0123456789-+n"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₋₊ₙᵢⱼₖₘ", "0123456789-+nijkm"))
_SUPER_RE = re.compile("[" + "".join(_SUPER) + "]+")
# `¹⁄₂`, `1⁄2`: a fraction slash (U+2044) between numerals, superscript over subscript, is one fraction; a whole
# number before it makes a mixed number (`2¹⁄₂` is two and a half)
_SLASH_FRACTION_RE = re.compile("(\\d+)?([⁰¹²³⁴⁵⁶⁷⁸⁹]+|\\d+)\u2044([₀₁₂₃₄₅₆₇₈₉]+|\\d+)")
_SUB_RE = re.compile("[" + "".join(_SUB) + "]+")
# symbols written as the LaTeX command they stand for (after the radicals, fractions and scripts above)
_UNICODE = {
    "−": "-",
    "–": "-",
    "—": "-",
    "\u2010": "-",  # a hyphen, a non-breaking hyphen, a figure dash, a modifier-letter, heavy, small and wide minus
    "\u2011": "-",
    "\u2012": "-",
    "\u02d7": "-",
    "\u2796": "-",
    "\ufe63": "-",
    "\uff0d": "-",
    "\uff05": "%",  # full-width percent, plus, equals, slash and brackets, as CJK replies write them
    "\uff0b": "+",
    "\uff1d": "=",
    "\uff0f": "/",
    "\uff08": "(",
    "\uff09": ")",
    "×": r"\times ",
    "·": r"\cdot ",
    "⋅": r"\cdot ",
    "÷": r"\div ",
    "π": r"\pi ",
    "√": r"\sqrt",
    "∞": r"\infty ",
    "ℝ": r"\R ",
    "≤": r"\le ",
    "≥": r"\ge ",
    "≠": r"\ne ",
    "≈": r"\approx ",
    "∪": r"\cup ",
    "∩": r"\cap ",
    "∅": r"\emptyset ",
    "±": r"\pm ",
    "∓": r"\mp ",
    "…": r"\ldots ",
    "⁄": "/",
    "\u2215": "/",  # a division slash (`2∕15`), a ratio colon (`2∶3`), primes (`f′(2)`, `f″(x)`)
    "\u2236": ":",
    "\u2032": "'",
    "\u2033": "''",
    "∈": r"\in ",
    "ⅈ": "i",
    "\u00a0": " ",
    "\u200b": "",  # a zero-width space and a soft hyphen show nothing
    "\u00ad": "",
    "\u2009": " ",
    "\u202f": " ",
}
# circled numbers (①..⑳) and roman numerals (Ⅰ..Ⅻ, ⅰ..ⅻ) as written in CJK and list-style replies
_UNICODE.update({chr(0x2460 + k): str(k + 1) for k in range(20)})
_UNICODE.update(
    {chr(0x2160 + k): str(k + 1) for k in range(12)} | {chr(0x2170 + k): str(k + 1) for k in range(12)}
)
_UNICODE_RE = re.compile("|".join(map(re.escape, _UNICODE)))
_ROOT_RE = re.compile("[" + "".join(_ROOTS) + "]")


def _closing(s: str, start: int, opener: str, closer: str) -> int | None:
    """Index of the bracket that closes the one at s[start], or None if it is never closed."""
    depth = 0
    for i in range(start, len(s)):
        depth += s[i] == opener
        depth -= s[i] == closer
        if depth == 0:
            return i
    return None


def _radicals(s: str) -> str:
    """Each unicode radical written as `\\sqrt{...}` over its whole radicand (see the module docstring)."""
    out: list[str] = []
    pos = 0
    for m in _ROOT_RE.finditer(s):
        if m.start() < pos:
            continue
        out.append(s[pos : m.start()])
        index = _ROOTS[m.group()]
        rest = m.end()
        while rest < len(s) and s[rest] == " ":
            rest += 1
        if rest < len(s) and s[rest] in "({":
            close = _closing(s, rest, s[rest], ")" if s[rest] == "(" else "}")
            if close is not None:
                out.append(f"\\sqrt{index}{{{s[rest + 1 : close]}}}")
                pos = close + 1
                continue
        radicand = _RADICAND_RE.match(s, m.end())
        if radicand is None:  # `√` alone or before an operator: the command, as LaTeX would read it
            out.append(f"\\sqrt{index}")
            pos = m.end()
            continue
        out.append(f"\\sqrt{index}{{{radicand.group(1)}}}")
        pos = radicand.end()
    out.append(s[pos:])
    return "".join(out)


def _vulgar(m: re.Match[str]) -> str:
    num, den = _VULGAR[m.group(2)]
    if m.group(1):  # `2½`: a mixed number, two and a half
        return f"({m.group(1)}+\\frac{{{num}}}{{{den}}})"
    return f"\\frac{{{num}}}{{{den}}}"


def _slash_fraction(m: re.Match[str]) -> str:
    num = "".join(_SUPER.get(c, c) for c in m.group(2))
    den = "".join(_SUB.get(c, c) for c in m.group(3))
    if m.group(1) and m.group(2).isascii():  # `12⁄5` is twelve fifths: digits before it are its numerator
        return f"\\frac{{{m.group(1)}{num}}}{{{den}}}"
    if m.group(1):
        return f"({m.group(1)}+\\frac{{{num}}}{{{den}}})"
    return f"\\frac{{{num}}}{{{den}}}"


def rewrite_unicode_math(s: str) -> str:
    """`s` with unicode radicals, vulgar fractions, superscripts and subscripts written in LaTeX."""
    if s.isascii():
        return s
    s = script_digits(s)  # `๖๐`, `١٢`: digits of other scripts are digits
    if s.strip() and all(c in _SUPER or c in _SUB for c in s.strip()):
        # `⁷` or `₇` alone: a number written small, with no base to raise or index
        return "".join(_SUPER.get(c, _SUB.get(c, c)) for c in s.strip())
    s = _SLASH_FRACTION_RE.sub(_slash_fraction, s)
    s = _SUPER_RE.sub(lambda m: "^{" + "".join(_SUPER[c] for c in m.group()) + "}", s)
    s = _SUB_RE.sub(lambda m: "_{" + "".join(_SUB[c] for c in m.group()) + "}", s)
    s = _VULGAR_RE.sub(_vulgar, s)
    return _radicals(s)


def unicode_symbols(s: str) -> str:
    """`s` with unicode operators, relations and constants (`≥`, `π`, `∞`, `≈`, `∅`) as LaTeX commands."""
    return s if s.isascii() else _UNICODE_RE.sub(lambda m: _UNICODE[m.group(0)], s)
