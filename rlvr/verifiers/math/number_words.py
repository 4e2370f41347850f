"""A number written in English words, as a whole answer: `forty-two`, `one million`, `two hundred and five`,
`three-quarters`. Only words that name numbers (and `and` between them) are read; anything else is no number."""

from __future__ import annotations

import re

from rlvr.verifiers.math.vocab import NUMBER_WORDS

_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
# a whole answer of number words, hyphens between them allowed (`forty-two`, not `-seven` or `forty-`)
_WORDS_RE = re.compile(r"[A-Za-z]+(?:[ -][A-Za-z]+)*")


def number_from_words(text: str, key: str) -> str | None:
    """The value (as LaTeX) that `text` names in words, `key` being its canonical text, or None."""
    if not _WORDS_RE.fullmatch(text.strip()):
        return None
    if key in NUMBER_WORDS:
        return NUMBER_WORDS[key]
    value = _cardinal([w for w in key.split() if w != "and"])
    return None if value is None else str(value)


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
