"""Numeral systems other than positional digits: Roman (`XVI`), Ethiopic (`፷፩`) and Greek alphabetic numerals with
their keraia (`ιεʹ`), read where a reply restates its answer in them (`contested.py`)."""

from __future__ import annotations

import re

_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ETHIOPIC_RE = re.compile(r"[\u1369-\u137c]{1,6}")
# Greek letters as numbers: units, tens and hundreds, the obsolete stigma (6), koppa (90) and sampi (900) included;
# the keraia (`ʹ`, or a prime or apostrophe in its place) marks a numeral, so that a word is never read as one
_GREEK_VALUES = dict(
    zip(
        "αβγδεϛζηθικλμνξοπϟρστυφχψωϡ",
        [*range(1, 10), *range(10, 100, 10), *range(100, 1000, 100)],
        strict=True,
    )
)
_GREEK_RE = re.compile("([" + "".join(_GREEK_VALUES) + r"ϝς]{1,4})[\u0374\u02b9'\u2032]")


def roman_value(numeral: str) -> int:
    """The value of an upper-case Roman numeral (`XVI` is 16)."""
    digits = [_ROMAN_DIGITS[c] for c in numeral]
    return sum(-d if d < e else d for d, e in zip(digits, [*digits[1:], 0], strict=True))


def ethiopic_value(numeral: str) -> int:
    """The value of an Ethiopic numeral (`፷፩` is 61): units and tens add, `፻` multiplies by a hundred."""
    total = current = 0
    for char in numeral:
        code = ord(char)
        if code <= 0x1371:
            current += code - 0x1368
        elif code <= 0x137A:
            current += 10 * (code - 0x1371)
        else:  # ፻ (100), ፼ (10,000)
            total = (total + max(current, 1)) * (100 if code == 0x137B else 10_000)
            current = 0
    return total + current


def greek_value(numeral: str) -> int | None:
    """The value of a Greek alphabetic numeral with its keraia (`ιεʹ` is 15, `ρκγʹ` 123), or None."""
    m = _GREEK_RE.fullmatch(numeral.strip().lower())
    if m is None:
        return None
    # (digamma and final sigma stand for stigma, 6, as the numeral is often typed)
    values = [_GREEK_VALUES.get(c, 6) for c in m.group(1)]
    return sum(values) if values == sorted(values, reverse=True) else None


def numeral_value(text: str) -> str | None:
    """The value `text` names in Ethiopic or Greek numerals, as decimal digits, or None."""
    if _ETHIOPIC_RE.fullmatch(text):
        return str(ethiopic_value(text))
    greek = greek_value(text) if not text.isascii() else None
    return None if greek is None else str(greek)
