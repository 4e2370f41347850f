"""References: the answer part of a gold text (`extract_gold`), parsed once into its text, unit and shape (or why
it cannot be graded)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rlvr.verifiers.math.atoms import _is_prose
from rlvr.verifiers.math.boxes import last_boxed, outer_boxes
from rlvr.verifiers.math.choice import option_with_value
from rlvr.verifiers.math.config import MathVerifierConfig
from rlvr.verifiers.math.extract import _GSM8K_RE, extract_answer, undouble_backslashes
from rlvr.verifiers.math.normalize import currency_unit, normalize_answer
from rlvr.verifiers.math.shapes import Answer, AnswerParseError, Choice, Text
from rlvr.verifiers.math.structure import parse_answer, parse_choice

# what may stand between two boxes of a reference that are its parts: `and`, a comma, a word (`papers and`)
_GOLD_BOX_GAP_RE = re.compile(r"^\s*(?:[A-Za-z]+\s+)?(?:and|,)\s*$|^[^\w\\$]+$")
# a short prose reference that ends by stating its answer in math: `... is $x$.`
_STATED_GOLD_RE = re.compile(r"\b(?:is|are|equals)\s*:?\s*(?<!\\)\$[^$]+(?<!\\)\$\s*\.?\s*$")


def extract_gold(text: str) -> str:
    """The answer part of a reference: its last box or `####` answer if it has one, else all of it."""
    text = undouble_backslashes(text)
    boxes = outer_boxes(text)
    if boxes and boxes[-1][2] is None:  # a reference cut off inside its box: the rest of it is the answer
        return text[text.index("{", boxes[-1][0]) + 1 :].strip()
    parts = [b[2] for b in boxes[-1:]]
    for prev, nxt in zip(reversed(boxes[:-1]), reversed(boxes[1:])):
        # `\boxed{1} papers and \boxed{2} bins`: a reference's parts, one box each, may name what they count
        if prev[2] is None or not _GOLD_BOX_GAP_RE.match(text[prev[1] : nxt[0]]):
            break
        parts.append(prev[2])
    boxed = last_boxed(text)
    if len(parts) > 1 and boxed is not None and boxed.count(",") < len(parts) - 1:
        return "(" + ", ".join(p for p in reversed(parts) if p) + ")"  # named parts keep their order
    if boxed:
        return boxed
    found = _GSM8K_RE.findall(text)
    if found:
        return found[-1].strip()
    if _STATED_GOLD_RE.search(text) and _is_prose(text):  # "the solution is $m \\in [\\sqrt2, \\infty)$"
        answer = extract_answer(text)
        if answer is not None and answer.answer.strip():
            return answer.answer
    if len(text) > 200 and _is_prose(text):  # a whole worked solution: its answer, found as in a completion
        answer = extract_answer(text)
        if answer is not None and answer.answer.strip():
            return answer.answer
    return text.strip()


@dataclass(frozen=True)
class Gold:
    """A parsed reference: its answer text and shape, or why it could not be parsed."""

    text: str
    unit: str | None
    answer: Answer | None
    error: str | None
    plain: str = ""  # the text normalised without units (for the comma-decimal reading), computed once


def parse_gold(gold: Any, config: MathVerifierConfig) -> Gold:
    """A reference parsed once: its answer text, unit and shape, or why it cannot be graded."""
    if isinstance(gold, int | float) and not isinstance(gold, bool):
        gold = repr(gold) if isinstance(gold, float) else str(gold)
    if not isinstance(gold, str) or not gold.strip():
        return Gold("", None, None, f"gold answer must be a non-empty string, got {gold!r}")
    text = extract_gold(gold)
    if len(text) > 20 * config.max_answer_chars:
        return Gold(text, None, None, "gold answer is too long to be an answer")
    plain = normalize_answer(text, units=False).text
    valued = _valued_option(plain, config)
    if valued is not None:
        return Gold(text, None, valued, None)
    choice = parse_choice(plain)
    if choice is not None and len(text.strip().strip("()$").replace("\\text", "").strip("{}()")) == 1:
        return Gold(text, None, choice, None)
    option = _gold_option(text)
    if option is not None:
        return Gold(text, None, Choice(option), None)
    norm = normalize_answer(text, units=config.strip_units)
    unit = norm.unit or (currency_unit(text) if config.strip_units else None)
    try:
        return Gold(text, unit, parse_answer(norm.text), None, plain)
    except AnswerParseError as exc:
        return Gold(text, norm.unit, None, str(exc))
    except RecursionError:
        return Gold(text, norm.unit, None, "gold answer nested too deeply")


def _valued_option(plain: str, config: MathVerifierConfig) -> Choice | None:
    """A choice gold with its option's value (`\\textbf{(C)}\\ 12`, `\\text{(C) }12`, normalised to `(C) 12`): the
    letter and the value, or None when what follows the letter is no single math value (a name, more options)."""
    m = option_with_value(plain)
    if m is None:
        return None
    letter, rest = m
    try:
        value = parse_answer(normalize_answer(rest, units=config.strip_units).text)
    except (AnswerParseError, RecursionError):
        return None
    return None if isinstance(value, Text | Choice) else Choice(letter, value)


# An option with its text (`(D) Alina`, `C Cecile`): a letter, then a capitalised word (a name or a sentence),
# not a formula (`A = 3`), a single letter (`A B`) or an article before lower case (`A circle`).
_GOLD_OPTION_RE = re.compile(r"^\s*(?:\(([A-J])\)\s+\S|([A-J])[.:)]?\s+[A-Z][a-z])")
_GOLD_ANSWER_PHRASE_RE = re.compile(r"\bthe\s+answer\s+is\s*:?\s*(?=\S)", re.IGNORECASE)


def _gold_option(text: str) -> str | None:
    """The option letter a multiple-choice gold written with its option text states, or None.

    The option line is the gold's first line, or what follows its last "the answer is" (lighteval's golds
    `A Peter\nCelina bum`, `Alina and the answer is\n(C) Cecile`); the rest of the gold is the option's text.
    """
    phrases = list(_GOLD_ANSWER_PHRASE_RE.finditer(text))
    line = (text[phrases[-1].end() :] if phrases else text).strip().split("\n", 1)[0]
    m = _GOLD_OPTION_RE.match(line)
    return (m.group(1) or m.group(2)) if m else None
