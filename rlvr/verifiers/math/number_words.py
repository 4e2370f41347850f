"""A number written in English words, as a whole answer: `forty-two`, `one million`, `two hundred and five`,
`three-quarters`, `seven-eighths`, `seven and a half`, `minus seven`. Only words that name numbers (`and` between
them, a sign word first) are read; anything else is no number, and an operation in words (`seven squared`) too."""

from __future__ import annotations

import re
from fractions import Fraction

from rlvr.verifiers.math.foreign_words import foreign_number
from rlvr.verifiers.math.numerals import cjk_number
from rlvr.verifiers.math.vocab import NUMBER_WORDS, ORDINALS

__all__ = ["cjk_number", "foreign_number", "number_from_words"]  # numerals of other languages: `numerals.py`

_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
# a quantity named with an article (`a dozen` is 12, `a quarter` 1/4): only after `a`/`an`, since alone these
# words may name other things (`quarter` of a year, `third` place)
_WITH_ARTICLE = {
    "dozen": "12", "quarter": "\\frac{1}{4}", "half": "\\frac{1}{2}", "third": "\\frac{1}{3}",
    "hundred": "100", "thousand": "1000", "million": "1000000",
}  # fmt: skip
# a whole answer of number words, hyphens between them allowed (`forty-two`, not `-seven` or `forty-`)
_WORDS_RE = re.compile(r"[A-Za-z]+(?:[ -][A-Za-z]+)*")


def number_from_words(text: str, key: str) -> str | None:
    """The value (as LaTeX) that `text` names in words, `key` being its canonical text, or None."""
    if not _WORDS_RE.fullmatch(text.strip()):
        return None
    if re.match(r"an?\s", text.strip(), re.I) and key in _WITH_ARTICLE:  # `a dozen`, `a quarter`
        return _WITH_ARTICLE[key]
    if key in NUMBER_WORDS:
        return NUMBER_WORDS[key]
    words = key.split()
    sign = "-" if len(words) > 1 and words[0] in _SIGN_WORDS else ""  # `minus seven`, `negative seven`
    value = _worded_value(words[1:] if sign else words, re.search(r"\band\s+an?\s", text, re.I) is not None)
    if value is None:
        return None
    shown = str(value) if value.denominator == 1 else rf"\frac{{{value.numerator}}}{{{value.denominator}}}"
    return sign + shown


_SIGN_WORDS = ("minus", "negative")
# a fraction's denominator in words: the ordinal (`eighth`), its plural (`eighths`), `half`, `quarter`
_IRREGULAR = {"third": 3, "fifth": 5, "eighth": 8, "ninth": 9, "twelfth": 12, "half": 2, "quarter": 4}


def _ordinal_value(word: str) -> int | None:
    """The number an ordinal names as a denominator (`eighth` 8, `twentieth` 20, `hundredth` 100), or None."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word not in ORDINALS:
        return None
    base = word[:-4] + "y" if word.endswith("ieth") else word[:-2]  # `twentieth` -> twenty, `sixth` -> six
    raw = NUMBER_WORDS.get(base)
    if raw is not None and raw.isdigit():
        return int(raw)
    return 100 if base == "hundred" else _SCALES.get(base)


def _fraction(words: list[str], article: bool) -> Fraction | None:
    """`seven eighths` (7/8), `one eighth`, `three quarters`; the numerator agrees with the denominator's number
    (`one eighths` and `seven eighth` are no fraction); no numerator only where an article stood (`and a half`)."""
    if not words:
        return None
    last = words[-1]
    denominator: int | None
    if last == "halves":
        denominator, plural = 2, True
    elif last.endswith("s") and (last[:-1] in ORDINALS or last[:-1] in _IRREGULAR):
        denominator, plural = _ordinal_value(last[:-1]), True
    else:
        denominator, plural = _ordinal_value(last), False
    if denominator is None:
        return None
    numerator = _cardinal(words[:-1]) if words[:-1] else (1 if article and not plural else None)
    if numerator is None or (numerator == 1) == plural:
        return None
    return Fraction(numerator, denominator)


def _worded_value(words: list[str], article: bool) -> Fraction | None:
    """A cardinal, a fraction or a mixed number (`seven and a half`, `two and three quarters`) in words."""
    whole = _cardinal([w for w in words if w != "and"])
    if whole is not None:
        return Fraction(whole)
    if "and" not in words:
        return _fraction(words, False)
    cut = len(words) - 1 - words[::-1].index("and")  # the last `and` before the fraction
    part = _fraction(words[cut + 1 :], article)
    whole = _cardinal([w for w in words[:cut] if w != "and"])
    return None if part is None or whole is None or part >= 1 else whole + part


def _cardinal(words: list[str]) -> int | None:
    """An English cardinal (`forty two`, `one million`, `two hundred five`); None unless every word is read and
    the words come in the order a number is said (`two forty` and `hundred hundred` are no number)."""
    total, group, last = 0, 0, None  # `last`: what the previous word was, to reject orders no one says
    scale = 10**12  # scales come largest first: `one thousand two million` is no number
    for word in words:
        if word in _SCALES:
            if group == 0 or last == "scale" or _SCALES[word] >= scale:
                return None
            scale = _SCALES[word]
            total, group, last = total + group * scale, 0, "scale"
            continue
        if word == "hundred":
            if group == 0 or group >= 10 or last in ("hundred", "scale"):
                return None
            group, last = group * 100, "hundred"
            continue
        raw = NUMBER_WORDS.get(word)
        if raw is None or not raw.isdigit() or int(raw) >= 100:
            return None
        n = int(raw)
        if last == "ten" and not 0 < n < 10:  # `twenty one`, not `twenty ten`
            return None
        if last in ("unit", "teen"):  # `two three`, `eleven five`
            return None
        group += n
        last = "ten" if n >= 20 else "teen" if n >= 10 else "unit"
    if last is None:
        return None
    return total + group
