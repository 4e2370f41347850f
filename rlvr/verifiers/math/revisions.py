"""What revises an answer phrase after it: a correction ("... is 5. Wait, it's 7"), a concluding sentence, a
later box or answer phrase, or a sentence that only restates a value (`Correction: 8.`, `Nope, 8.`); and the
answer of a later answer phrase that commits to one. The answer phrases themselves are `phrases.py`.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.atoms import _NUMBER_RE, _NUMBER_WORD_RE, _is_prose
from rlvr.verifiers.math.commitment import screen
from rlvr.verifiers.math.phrases import (
    _BOILERPLATE_RE,
    _CONCLUSION_RE,
    _NEGATED_RE,
    _PHRASE_RE,
    _clean_phrase_answer,
    _sentence_rest,
)
from rlvr.verifiers.math.vocab import NUMBER_WORDS, REVISION_WORDS


def _revises(rest: str) -> bool:
    """Whether `rest` (screened: no checks, rejected values or hedges) may correct the phrase before it: math
    after a revision word or a concluding "Therefore/So/Thus/Hence" ("... is 5. Wait, it's 7"), or a later box
    or answer phrase. Other prose with numbers (an aside, "The train would need 2.5 more hours") commits to
    nothing, as after a box: the answer phrase stands."""
    rest = _BOILERPLATE_RE.sub(" ", rest)
    rest = re.sub(r"\$\s*[A-Za-z]\s*\$", " ", rest)  # `$A$`, `$n$`: naming a letter revises no answer
    if re.search(r"\\boxed|\\fbox", rest) or _PHRASE_RE.search(rest):
        return True
    # (`if the seats were numbered, the answer would instead be 432`: a modal `instead` is a remark, no revision)
    revision = next(
        (
            m
            for m in _REVISION_RE.finditer(rest)
            if not _MODAL_INSTEAD_RE.search(rest, max(0, m.start() - 40), m.end())
        ),
        None,
    )
    opener = revision or _CONCLUSION_RE.search(rest)
    return opener is not None and bool(re.search(r"\d|\$", rest[opener.start() :]))


_MODAL_INSTEAD_RE = re.compile(r"\b(?:would|could|might)\s+(?:\w+\s+)?instead\Z", re.IGNORECASE)


_REVISION_RE = re.compile(r"\b(?:" + "|".join(REVISION_WORDS) + r")\b|\bno,", re.IGNORECASE)


# a sentence that only restates a value after a short opener: `Correction: 8.`, `Nope, 8.`, `Edit: it is 8.`
_RESTATED_RE = re.compile(
    r"^\W*(?:[A-Za-z']+[ \t]+){0,3}[A-Za-z']+\s*([,:])\s*(?:it\s+is\s+|it's\s+)?\$?(-?\d+(?:\.\d+)?)\$?\s*[.!]?\s*$"
)


def _restated_value(after: str) -> tuple[str, str] | None:
    """(value, `,` or `:`) of the last sentence after an answer that is a short opener and a value, or None."""
    found = None
    for sentence in re.split(r"(?<!\d)[.!?](?:\s+|$)|\n|\.{3}", _BOILERPLATE_RE.sub(" ", after)):
        m = _RESTATED_RE.match(sentence)
        if m is not None:
            found = (m.group(2), m.group(1))
    return found


# an edit that says it changes no value (`formatting only`, `the numbers are unchanged`, `edited for clarity`)
_UNCHANGED_RE = re.compile(
    r"\b(?:formatting|typesetting|rendering|wording|spelling|grammar|layout|markdown|latex)\s+(?:only|fix(?:es|ed)?)\b"
    r"|\bonly\s+(?:the\s+)?(?:formatting|typesetting|rendering|wording|layout)\b"
    r"|\b(?:numbers?|values?|answer|result)s?\s+(?:is\s+|are\s+)?(?:unchanged|the\s+same|not\s+changed)\b"
    r"|\bno\s+change\s+to\s+the\s+(?:answer|result|value|numbers?)\b|\bedited\s+for\s+(?:clarity|formatting|typos?)\b",
    re.IGNORECASE,
)


def _revised_value(after: str) -> str | None:
    """The value a correction states after an answer ("... \\boxed{3}. Hmm, actually it's four."): the last
    number or number word after a revision word ("wait", "actually", "no,", ...), or None."""
    revision = _REVISION_RE.search(_BOILERPLATE_RE.sub(" ", after))
    if revision is None:
        return None
    rest = _BOILERPLATE_RE.sub(" ", after)[revision.end() :]
    if _UNCHANGED_RE.search(rest[: rest.find("\n") if "\n" in rest else len(rest)]):
        return (
            None  # `EDIT: formatting only — fixed the LaTeX in the line with 3·4 (it was rendering as 34).`
        )
    found = [  # (`I meant 11/26, not 11/62`: a value denied is not the one meant)
        (m.start(), m.group().strip().rstrip(","))
        for m in _NUMBER_RE.finditer(rest)
        # (nor one set aside: `it's actually 32 rather than the 48 I boxed`)
        if not re.search(
            r"\b(?:not|rather\s+than(?:\s+the)?|instead\s+of(?:\s+the)?)\s*\$?\Z",
            rest[max(0, m.start() - 20) : m.start()],
        )
    ]
    found += [(m.start(), NUMBER_WORDS[m.group().lower()]) for m in _NUMBER_WORD_RE.finditer(rest)]
    return max(found)[1] if found else None


# an answer that says there is no single value (`Answer: undetermined` after a box): a later commitment too
_NO_VALUE_RE = re.compile(
    r"undetermined|indeterminate|undefined|none|no\s+solutions?|no\s+such\s+\w+|does\s+not\s+exist|doesn't\s+exist"
    r"|infinitely\s+many(?:\s+solutions)?|not\s+unique|cannot\s+be\s+determined",
    re.IGNORECASE,
)


def _phrase_answer_after(rest: str) -> str | None:
    """The answer of the last answer phrase in `rest`, if it commits to one (not negated, revised, prose)."""
    matches = list(_PHRASE_RE.finditer(rest))
    if not matches or _NEGATED_RE.match(rest[matches[-1].end() :]):
        return None
    after = rest[matches[-1].end() :]
    answer = _clean_phrase_answer(after)
    if not answer or (_is_prose(answer) and not _NO_VALUE_RE.fullmatch(answer.strip(" .*_"))):
        return None  # (prose states no answer; words that say there is no single value do: `undetermined`)
    later = _sentence_rest(after)
    return None if later is not None and _revises(screen(later, answer).text) else answer
