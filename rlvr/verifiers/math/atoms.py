"""The atoms of answer extraction: what an `Extraction` is, and how a number, a number word, a math span
and a run of prose look in a reply (shared by the answer-phrase, box-context and last-value readers)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.verifiers.math.vocab import (
    NUMBER_WORDS,
    PROSE_MATH_NAMES,
)

#: Extraction methods in the order they are tried.
METHODS = ("boxed", "gsm8k", "final_answer", "last_math")


# (a `\(` span ends before the next `\(`, a `\[` span before the next `\[`: so unclosed openers cost a scan to the
# next opener each, not to the end of the text, which was quadratic: 100,000 characters of `\(` took 95 s)
_MATH_SPAN_RE = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\(((?:(?!\\\().)+?)\\\)|\\\[((?:(?!\\\[).)+?)\\\]",
    re.S,
)


_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074-\u207b"
_VULGAR = "\u00bc-\u00be\u2150-\u215e"
# a number not glued to a preceding letter (`AZYUK2A` has none): thousands groups, decimals, a/b, %. Unicode
# glued to it is part of it, as chat UIs write math without LaTeX: a root sign before it (`√15`, `3√2`), a
# vulgar fraction (`1¾`, `½`), a superscript power (`2¹⁰`, `5²`), pi (`π/3`, `2π`): it is that whole value,
# never the digits alone (`√15 cm` is not 15, `1¾ cups` not 1)
# (nor glued to a root sign or a fraction slash before it: `√√49` is a nested root, never 49 nor √49; `5⁄2` is
# one fraction, as is `2∕15` with a division slash); a sign before it is its own, `±2` included (both signs,
# never 2 alone)
_NOT_AFTER = r"(?<![A-Za-z\d.,\u221a\u221b\u221c\u2044\u2215])"
_NUMBER_RE = re.compile(
    r"\\frac\{\d+\}\{\d+\}"  # a plain LaTeX fraction is one number, not its denominator
    rf"|{_NOT_AFTER}-?(?:\d+[ \t]*)?[\u221a\u221b\u221c]\d+(?:\.\d+)?[{_SUPERSCRIPTS}]*"  # `√15`, `3√2`
    rf"|{_NOT_AFTER}-?\d*[{_VULGAR}]"  # `1¾`, `½`
    rf"|{_NOT_AFTER}-?\d*\u03c0(?![^\W\d_])(?:[ \t]*/[ \t]*\d+)?"  # `π/3`, `2π`, `2π/3`; `πr²` is no π
    r"|"
    + _NOT_AFTER
    + r"[-\u00b1\u2213]?\$?(?:\d{1,3}(?:(?:,|\s)\d{3})+(?!\d)|\d+)(?:\.\d+|,\d{1,2}(?![\d,]))?"
    rf"(?:[{_SUPERSCRIPTS}]+|\u03c0(?![^\W\d_]))?(?![\u03c0\u221a])(?:\s*[/\u2044\u2215]\s*\d+)?%?"
    r"|(?<![\w.])-?\.\d+"
)


_PROSE_RE = re.compile(r"[A-Za-z]{3,}")


# letters of any script (Chinese, Arabic, Devanagari ...): a run of them is prose in any language
_FOREIGN_WORD_RE = re.compile(r"[^\W\d_A-Za-z]{2,}")


@dataclass(frozen=True)
class Extraction:
    """The answer text found in a completion and how it was found (`boxed`, `gsm8k`, ...)."""

    answer: str
    method: str


def _is_prose(text: str) -> bool:
    stripped = re.sub(r"\\[a-zA-Z]+", " ", text)
    if _FOREIGN_WORD_RE.search(stripped):
        return True
    return any(w.lower() not in PROSE_MATH_NAMES for w in _PROSE_RE.findall(stripped))


# (a word joined to another by a hyphen is part of a compound: `twenty-one` is no `one`; `one` after a
# determiner is a pronoun: `this one`, `which one`, `the right one` name no number)
_PRONOUN_ONE = "".join(
    rf"(?<!\b{d}\s)"
    for d in ("this", "that", "the", "each", "which", "every", "any", "no", "another", "right", "wrong", "same",
              "other", "last", "first", "next", "only", "correct", "such", "a")
)  # fmt: skip
_NUMBER_WORD_RE = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w and w != "one"), key=len, reverse=True))
    + r"|"
    + _PRONOUN_ONE
    + r"one)(?![\w-])",
    re.IGNORECASE,
)


_PLAIN_NUMBER_RE = re.compile(r"^-?\d+(?:\.\d+)?$")


_BASE_NAMES = {"decimal": "10", "binary": "2", "octal": "8", "hexadecimal": "16", "hex": "16", "ternary": "3"}
# a base named after a value: `in base 10`, `(base 3)`, `in decimal`, `in binary notation`, `base-two`
_NAMED_BASE_RE = re.compile(
    r"^[ \t]*+(?:\$[ \t]*+)?(?P<open>\(\s*)?(?:(?:written|expressed)\s+)?(?:in\s+)?(?:the\s+)?"
    r"(?:base[\s-]*(?:(?P<digits>\d+)|\{(?P<braced>\d+)\}|(?P<word>[a-z]+))"
    r"|(?P<name>" + "|".join(_BASE_NAMES) + r")(?:\s+(?:notation|form|system|numerals?))?)\b"
    r"(?(open)\s*\))",
    re.IGNORECASE,
)


def named_base(after: str) -> tuple[str, int] | None:
    """The base a value is said to be written in by the words right after it (`$12$ in base 10`, `12 (base 3)`,
    `12 in decimal`): (its digits, the length of those words), or None. The value is then that base's numeral."""
    m = _NAMED_BASE_RE.match(after[:80])  # the words stand right after the value: a bounded look
    if m is None:
        return None
    base = m.group("digits") or m.group("braced")
    if m.group("word"):
        base = NUMBER_WORDS.get(m.group("word").lower())
    if m.group("name"):
        base = _BASE_NAMES[m.group("name").lower()]
    return (base, m.end()) if base is not None and base.isdigit() and int(base) >= 2 else None


# a dash that is a minus sign: U+2212 (the minus sign itself), an en dash, a figure dash, a hyphen (U+2010,
# U+2011), a modifier-letter minus (U+02D7), a heavy minus (U+2796), a small or full-width hyphen-minus, right
# before what starts a number: a digit, a decimal point, a vulgar fraction, a radical, pi or infinity (`−5`,
# `–1/3`, `‐5`, `−½`, `−√3`, `−π/2`, `−∞`); a dash glued to a letter or digit before it joins a range or a compound
# (`pages 3–5`), so only U+2212 may follow one
_MINUS_SIGN_RE = re.compile(
    "(?:\u2212|(?<![^\\W_])[\u2013\u2012\u2010\u2011\u02d7\u2796\ufe63\uff0d])"
    "(?=\\.?\\d|[\u00bc-\u00be\u2150-\u215e\u221a\u221b\u221c\u03c0\u221e])"
)


# an en dash or a hyphen glued between two numbers joins a range (`5–7 apples`, `pages 3‐5`), never a subtraction
# (also in a text group: `12\text{–}15`)
_RANGE_DASH_RE = re.compile(
    "(?<=\\d)(?:[\u2013\u2010\u2011]|\\\\text\\s*\\{\\s*[\u2013\u2010\u2011]\\s*\\})(?=\\d)"
)


def minus_signs(text: str) -> str:
    """`text` with each dash that is a minus sign before a number written `-` (`−5` is -5, never 5), and each
    en dash between two numbers written ` to ` (`5–7` is a range, never 5 - 7 = -2)."""
    return _RANGE_DASH_RE.sub(" to ", _MINUS_SIGN_RE.sub("-", text))


_ENDPOINT = r"[-+\u2212]?[ \t]*(?:\d+(?:\.\d+)?(?:[ \t]*/[ \t]*\d+)?|\u221e|\\infty\b|inf(?:inity)?\b)"
# values in brackets, written in prose: an interval, a point or a tuple (`(-2, 2)`, `[0, 4]`, `(3, ∞)`,
# `(1, 2, 3)`), a set (`{2, 3}`, `{5}`); a bracket glued to a name or a closing bracket holds arguments
# (`f(3, 4)`, `C(6, 2)`, `gcd(12, 18)`)
_BRACKETED_RE = re.compile(
    rf"(?<![\w)\]])(?:[(\[][ \t]*{_ENDPOINT}(?:[ \t]*,[ \t]*{_ENDPOINT})+[ \t]*[)\]]"
    rf"|\{{[ \t]*{_ENDPOINT}(?:[ \t]*,[ \t]*{_ENDPOINT})*[ \t]*\}})"
)


def bracketed_values(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each run of values in brackets in prose: `(-2, 2)`, `[0, 4)`, `(3, ∞)`, `{2, 3}`."""
    return [(m.start(), m.end()) for m in _BRACKETED_RE.finditer(text)]


# what makes a number in prose part of an expression, not a value stated alone: a relation other than `=`
# before it (a bound: `x ≥ 2`, `n < 7`), a binary operator before or after it (an operand: `3 + 4`, `7 × 10³`,
# `x/3`), a function name before it (an argument: `log₂ 8`, `sin 30°`)
_BOUND_RE = re.compile(
    r"(?:[<>\u2264\u2265\u2260\u2248\u2272\u2273]|\\(?:le|ge|leq|geq|ne|neq|lt|gt))[ \t]*\Z"
)
_OPERAND_BEFORE_RE = re.compile(
    r"[\w)\]}|!\u00b2\u00b3\u00b9\u2070-\u2079][ \t]*[-+\u00d7\u00b7\u22c5\u00f7*/^\u2212][ \t]*\Z"
)
_OPERAND_AFTER_RE = re.compile(
    r"[ \t]*(?:[+\u00d7\u00b7\u22c5\u00f7*/^][ \t]*[\w(\u221a\u03c0]|[-\u2212][ \t]*\d)"
)
_ARGUMENT_RE = re.compile(
    r"\b(?:sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|log|ln|lg|exp|sqrt)[\u2080-\u2089_\d{}]*[ \t]*\(?[ \t]*\Z"
)


def in_expression(text: str, start: int, end: int) -> bool:
    """Whether the number at text[start:end] is a bound, an operand or an argument (see above), not a value."""
    before = text[max(0, start - 24) : start]
    return bool(
        _BOUND_RE.search(before) or _OPERAND_BEFORE_RE.search(before) or _ARGUMENT_RE.search(before)
    ) or bool(_OPERAND_AFTER_RE.match(text, end))
