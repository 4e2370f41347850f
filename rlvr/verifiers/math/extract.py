"""Finding the final answer in free-form model output.

Tried in order, first hit wins: the last `\\boxed{...}` / `\\fbox{...}` (nested braces; an unterminated or
empty last box is *no answer*, not a reason to fall back to an earlier box), GSM8K's `#### 42`, a phrase
such as "the final answer is ..." / "Answer: ..." (last occurrence), and finally the last math span
(`$...$`, `\\(...\\)`, `\\[...\\]`) or, failing that, the last number in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Extraction methods in the order they are tried.
METHODS = ("boxed", "gsm8k", "final_answer", "last_math")

_BOX_RE = re.compile(r"\\(?:boxed|fbox)\b")
_GSM8K_RE = re.compile(r"####\s*([^\n]+)")
_PHRASE_RE = re.compile(
    r"(?:final\s+answer\s*(?:is|:|=)?|the\s+answer\s+is|\banswer\s*(?:is|:|=)|\bans\s*:)\s*:?\s*",
    re.IGNORECASE,
)
_MATH_SPAN_RE = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S
)
# a number not glued to a preceding letter (`AZYUK2A` has none): thousands groups, decimals, a/b, %
_NUMBER_RE = re.compile(
    r"(?<![A-Za-z\d.,])-?\$?(?:\d{1,3}(?:(?:,|\s)\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\s*/\s*\d+)?%?|(?<![\w.])-?\.\d+"
)
_PROSE_RE = re.compile(r"[A-Za-z]{3,}")
_MATH_NAMES = frozenset(
    [
        "frac",
        "dfrac",
        "tfrac",
        "cfrac",
        "sqrt",
        "cdot",
        "times",
        "div",
        "pi",
        "infty",
        "left",
        "right",
        "sin",
        "cos",
        "tan",
        "log",
        "ln",
        "exp",
        "text",
        "mathrm",
        "begin",
        "end",
        "pmatrix",
        "bmatrix",
        "matrix",
        "array",
        "binom",
        "circ",
        "pm",
        "le",
        "ge",
        "ne",
        "cup",
        "cap",
        "emptyset",
        "ldots",
        "dots",
    ]
)
#: Only the tail of very long outputs is searched for a trailing math span or number.
_TAIL = 8000


@dataclass(frozen=True)
class Extraction:
    """The answer text found in a completion and how it was found (`boxed`, `gsm8k`, ...)."""

    answer: str
    method: str


def braced_group(text: str, start: int) -> tuple[str, int] | None:
    """The content of the `{...}` group opening at or after `start` (skipping spaces), and its end index."""
    i = start
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2  # `\{` and `\}` do not group
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return None


def last_boxed(text: str) -> str | None:
    """Content of the last `\\boxed{}`/`\\fbox{}`; '' if it is empty or unterminated; None if there is none."""
    matches = list(_BOX_RE.finditer(text))
    if not matches:
        return None
    m = matches[-1]
    # the last *outermost* box: a box inside another box is part of the outer answer
    for outer in reversed(matches[:-1]):
        group = braced_group(text, outer.end())
        if group is not None and group[1] > m.start():
            m = outer
    group = braced_group(text, m.end())
    if group is None:
        rest = text[m.end() :]
        bare = re.match(r"\s+([^\s$]+)", rest)  # `\boxed 5`
        return bare.group(1) if bare else ""
    return group[0].strip()


def _is_prose(text: str) -> bool:
    words = _PROSE_RE.findall(re.sub(r"\\[a-zA-Z]+", " ", text))
    return any(w.lower() not in _MATH_NAMES for w in words)


def _clean_phrase_answer(rest: str) -> str:
    rest = rest.split("\n", 1)[0].strip().strip("*").strip()
    span = _MATH_SPAN_RE.search(rest)
    if span and span.start() < 3:
        return next(g for g in span.groups() if g is not None)
    rest = re.split(r"(?<!\d)\.(?:\s|$)|\.\s+(?=[A-Z])", rest, maxsplit=1)[0]
    rest = rest.strip().rstrip(".").strip("*").strip()
    if _is_prose(rest):
        # "Final Answer: The largest $n$ is 34." -> what follows the last "is", else the last number
        tail = re.split(r"\b(?:is|are|equals|=)\s+", rest)[-1]
        if tail != rest and not _is_prose(tail):
            return tail.strip()
        numbers = _NUMBER_RE.findall(rest)
        if numbers:
            return numbers[-1].strip()
    return rest


def extract_answer(text: str, methods: tuple[str, ...] = METHODS) -> Extraction | None:
    """Find the final answer of a completion; None if there is none (an empty box gives answer '')."""
    if not isinstance(text, str) or not text.strip():
        return None
    for method in methods:
        if method == "boxed":
            boxed = last_boxed(text)
            if boxed is not None:
                return Extraction(boxed, "boxed")
        elif method == "gsm8k":
            found = _GSM8K_RE.findall(text)
            if found:
                return Extraction(found[-1].strip(), "gsm8k")
        elif method == "final_answer":
            matches = list(_PHRASE_RE.finditer(text))
            if matches:
                answer = _clean_phrase_answer(text[matches[-1].end() :])
                if answer:
                    return Extraction(answer, "final_answer")
        elif method == "last_math":
            bare = text.strip()
            if len(bare) <= 300 and "$" not in bare and not _is_prose(bare):  # the whole reply is the answer
                return Extraction(bare, "whole")
            tail = text[-_TAIL:]
            spans = list(_MATH_SPAN_RE.finditer(tail))
            if spans:
                content = next(g for g in spans[-1].groups() if g is not None).strip()
                if content:
                    return Extraction(content, "last_math")
            numbers = _NUMBER_RE.findall(tail)
            if numbers:
                return Extraction(numbers[-1].strip().rstrip(","), "last_number")
        else:
            raise ValueError(f"unknown extraction method {method!r}; choose from {METHODS}")
    return None


def extract_gold(text: str) -> str:
    """The answer part of a reference: its last box or `####` answer if it has one, else all of it."""
    boxed = last_boxed(text)
    if boxed:
        return boxed
    found = _GSM8K_RE.findall(text)
    if found:
        return found[-1].strip()
    return text.strip()
