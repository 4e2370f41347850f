"""A multiple-choice letter in a reply: where it may stand, and whether the reply names another option too."""

from __future__ import annotations

import re

from rlvr.verifiers.math.boxes import outer_boxes
from rlvr.verifiers.math.phrases import _PHRASE_RE
from rlvr.verifiers.math.revisions import _REVISION_RE
from rlvr.verifiers.math.structure import other_options
from rlvr.verifiers.math.vocab import ALTERNATIVE_HEDGES

# A multiple-choice letter stated in prose (used only when the gold is a letter): after an answer phrase
# (optionally "for sure", "definitely", ...; never after "not"), at the very end ("... it's B"), or leading
# the reply and followed by punctuation or non-Latin text ("D. it can't be A or B", "B。不是 A").
_PHRASE_CHOICE_RE = re.compile(
    r"(?i:answer|r[ée]ponse|respuesta|antwort)\s*(?i:is|est|es|ist)?\s*:?\s*"
    r"(?:(?i:for sure|definitely|clearly|probably|likely|surely|option|choice)\s+)?\(?([A-J])\)?(?![\w'])"
)
_MORE_OPTIONS_RE = re.compile(r"\(\s*[A-J]\s*\)|^\s*(?:,|;|&|\band\b|\bor\b)\s*\(?\s*[A-J]\b")
_END_CHOICE_RE = re.compile(r"\b(?:is|it's|be)\s+\(?([A-J])\)?\s*[.!]?\s*$")
_LEAD_CHOICE_RE = re.compile(r"^\s*\(?([A-J])\)?(?=[.):\uff1a\u3002]|[^\x00-\x7f]|\s*$)")


def stated_choice(text: str) -> str | None:
    """The option letter a prose reply states, or None (see the patterns above for where it may stand)."""
    if not isinstance(text, str):
        return None
    phrases = list(_PHRASE_CHOICE_RE.finditer(text))
    found = phrases[-1] if phrases else _END_CHOICE_RE.search(text) or _LEAD_CHOICE_RE.search(text)
    if found is None or _MORE_OPTIONS_RE.search(text[found.end() :]):
        return None  # `(B) and (D)` names two options: it is neither
    letter = found.group(1)
    return None if choice_hedged(text[found.start() :], letter) else letter


_HEDGE_ALTS = "|".join(ALTERNATIVE_HEDGES)


def choice_hedged(text: str, letter: str) -> bool:
    """Whether `text`, which states option `letter`, also offers another: `A and maybe B`, `A (or B)`, `A/B`,
    `so B or D`, `B (50%), C (50%)`, a list `A. B. C. D.`, or a correction naming another option ("A. Hmm, actually B.")."""
    hedge = (
        rf"(?<![\w'])\(?{letter}\)?\s*(?:\((?!\s*or\b)[^()]{{0,20}}\)\s*)?(?:/|,|\bor\b|\band\b|\(\s*or\b)\s*"
        rf"(?:(?:{_HEDGE_ALTS})\s+)?(?:option\s+|choice\s+)?\(?[A-J](?![\w'])"
        rf"|(?<![\w'])\(?{letter}[.)]\s*\(?[A-J][.)]"
    )
    if re.search(hedge, text):
        return True
    mention = re.search(rf"(?<![\w']){letter}(?![\w'])", text)
    revision = _REVISION_RE.search(text, mention.end() if mention else 0)
    return revision is not None and bool(set(other_options(text[revision.end() :])) - {letter})


# `(C) 12` once normalised (`\\textbf{(C)}\\ 12`, `\\mathrm{(C)}~12`): a bracketed letter, then one value
_OPTION_VALUE_RE = re.compile(r"^\s*\(\s*([A-J])\s*\)\s*(\S.*?)\s*$")


def option_with_value(plain: str) -> tuple[str, str] | None:
    """The letter and the value text of an option written with its value (`(C) 12`), or None; a text that
    names another option after the letter (`(C) 12 or (D) 13`) is not one option with its value."""
    m = _OPTION_VALUE_RE.match(plain)
    if m is None or other_options(m.group(2)):
        return None
    return m.group(1), m.group(2)


def answer_start(text: str) -> int:
    """Where the final answer statement starts: the last box, else the last answer phrase, else 0."""
    boxes = outer_boxes(text)
    if boxes:
        return boxes[-1][0]
    phrases = list(_PHRASE_RE.finditer(text))
    return phrases[-1].start() if phrases else 0
