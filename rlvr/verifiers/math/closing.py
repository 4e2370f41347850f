"""A closing sentence that restates the question in inline math and then states the answer after it:
`So the number of ways to arrange $3$ books is **12**.`, `the remainder when $2^{100}$ is divided by $7$ is 2.`

The last formula of such a sentence is part of the question, not the answer: the value the sentence ends
by stating (after `is`/`are`/`equals`, plain or bold, with at most a few words naming what it counts) is.
A value with commas (`1,000`, `1,0`) is that whole value, read by the value rules, never a number before a comma.
A value followed by a word that changes or qualifies it (`vocab.VALUE_WORDS`: `is 3 more than`, `is 12 squared`,
`is 12 dozen`, `is 12 percent`, `is 7 twelfths`, `is 12 in base 10`) states no answer. A result label on the
reply's closing line answers too (`closing_result`: `Résultat : 2`, `Total distance: 25 km`).
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.atoms import _NUMBER_RE, _NUMBER_WORD_RE
from rlvr.verifiers.math.phrase_words import RESULT_LABELS, RESULT_LABELS_GLUED
from rlvr.verifiers.math.phrases import _clean_phrase_answer, _sentence_rest
from rlvr.verifiers.math.truncation import cut_off
from rlvr.verifiers.math.vocab import SCALE_PATTERN, SCALE_WORD_RE, VALUE_WORDS

_UNIT_ADJECTIVES = frozenset({"square", "cubic", "cube"})
_STATED_RE = re.compile(
    r"\b(?:is|are|equals|was|were)\s+(?P<bold>\*\*|__)?\s*(?:\\?\$)?(?P<value>-?\d+(?:,\d+)*(?:\.\d+)?(?:/\d+)?)\s*(?P=bold)?"
    r"(?P<words>(?:\s+[A-Za-z]+(?:/[A-Za-z]+)?[\u00b2\u00b3]?){0,3})\s*[.!]?\s*\Z"  # (units: `km/h`, `cm²`)
)
_SENTENCE_END_RE = re.compile(r"(?<!\d)[.!?](?:\s|\Z)|\n")


def stated_after_formula(after: str) -> str | None:
    """The value the closing sentence states after its last formula (`after` is the text that follows the
    formula, to the end of the reply), or None when the sentence ends without stating one."""
    m = _STATED_RE.search(after)
    if m is None or _SENTENCE_END_RE.search(after, 0, m.start()):
        return None  # no value ends it, or the formula's sentence ended before the value's began
    words = [w.lower() for w in m.group("words").split()]
    # `square`/`cubic` before another word names a unit (`6 square units`); as the last word it is an operation
    words = [w for i, w in enumerate(words) if not (w in _UNIT_ADJECTIVES and i < len(words) - 1)]
    if any(w in VALUE_WORDS for w in words):
        return None  # `is 12 squared`, `is 12 dozen`, `is 12 percent`, `is 3 more than`: not the value 12
    return m.group("value")


# a blockquote marker, a list bullet or a heading before a closing line; a bold that wraps all of it
# (a numbered list's marker too: `4. **The average speed is 72 km/h.**` closes a list of steps)
_LINE_MARKUP_RE = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:[-*+][ \t]+|#+[ \t]+|\d{1,2}[.)][ \t]+)?")
_WRAPPED_BOLD_RE = re.compile(r"^(\*\*|__)(?=\S)(.+?)(?<=\S)\1[ \t]*\Z")
_COLON_BOLD_RE = re.compile(r":[ \t]*(\*\*|__)(-?\d+(?:,\d{3})*(?:\.\d+)?)\1[ \t]*[.!]?[ \t]*\Z")
_TRAILING_FOOTNOTES_RE = re.compile(r"(?:\n[ \t]*\[\^[^\]\n]+\]:[^\n]*)+\s*\Z")
_TRAILING_TABLE_RE = re.compile(r"(?:\n[ \t]*\|[^\n]*\|[ \t]*)+\Z")
_DIGITS_RE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def closing_statement(after: str) -> str | None:
    """The value the reply's closing line states when the line stands after its last formula, on a line of its
    own, as one sentence ending on that value (`The sum of the first five squares is **55**.` after a table
    of formulas, `> **There are 7 such integers.**`): the conclusion, not the last formula. `after` is the text
    after the last formula. The value must be the line's only number; a blockquoted line (a quote as often as
    the reply's own conclusion) states it only in bold, the emphasis that marks its own answer."""
    after = _TRAILING_FOOTNOTES_RE.sub("", after.rstrip()).rstrip()  # (a footnote comments on its line)
    table = _TRAILING_TABLE_RE.search(after)
    if (
        table is not None
    ):  # `... is **\\$1157.63**.` then a table of what was computed: the line before it closes
        after = after[: table.start()].rstrip()
    lines = after.rsplit("\n", 1)
    if len(lines) < 2:
        return None  # the formula's own line: `stated_after_formula` reads it
    line = lines[-1]
    markup = _LINE_MARKUP_RE.match(line)
    body = line[markup.end() if markup else 0 :].rstrip()
    wrapped = _WRAPPED_BOLD_RE.match(body)
    bold = wrapped is not None
    body = wrapped.group(2) if wrapped else body
    if (">" in (markup.group() if markup else "") or table is not None) and not (
        bold or re.search(r"(\*\*|__)\\?\$?\d", body)
    ):
        return None  # (a quoted line, or one before a table, states its value only in bold)
    if len(_DIGITS_RE.findall(body)) != 1 or _SENTENCE_END_RE.search(body.rstrip(".! \t")):
        return None  # another number, or more than one sentence
    colon = _COLON_BOLD_RE.search(body)
    if colon is not None:  # `The question asks for the number of real zeros: **3**.`: bold after a colon
        return colon.group(2)
    return stated_after_formula(body)


# a reply's last line written as a formula in plain unicode, as chat UIs do (`x ∈ (−∞, −1] ∪ [3, ∞)`,
# `➡️ f′(2) = 5`): an opening arrow or `∴` leads it; a relation or a set operation is in it; no word but a
# one-letter name (prose states its value in words: the sentence rules read it) and no check mark after it
_FORMULA_LEAD_RE = re.compile(r"^[ \t]*(?:[-*+>][ \t]+)?(?:[\u2234\u21d2\u2192\u27a1]\ufe0f?[ \t]*)?")
_RELATION_RE = re.compile(r"[=\u2208\u2264\u2265<>\u222a]")
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_CHECKED_RE = re.compile(r"[\u2713\u2714\u2705]\ufe0f?\s*$")


def formula_line(tail: str) -> str | None:
    """The reply's last line when it is a formula written without `$` (see above), else None."""
    line = tail.rstrip().rsplit("\n", 1)[-1]
    line = line[_FORMULA_LEAD_RE.match(line).end() :].strip().rstrip(".")  # type: ignore[union-attr]
    line = re.sub(r"^(\*\*|__)(.+)\1$", r"\2", line).strip()  # `→ **θ = 60°**`: a bold line
    if (
        not line
        or len(line) > 200
        or "$" in line
        or not _RELATION_RE.search(line)
        or not re.search(r"[\d\u221e]", line)
        or _WORD_RE.search(line.replace("\u221e", ""))
        or _CHECKED_RE.search(line)
    ):
        return None
    # a one-letter name of any script is the answer's label (`θ = 60°`, `x ∈ ...` keeps its relation)
    return re.sub(r"^[^\W\d_]\s*=\s*", "", line) if not line.isascii() else line


# a value a bold run may hold: a clock time (`4:00 PM`, `16:30`) or a number (`1,250`, `-0.5`, `3/4`)
_BOLD_NUMBER = r"\d{1,2}:\d{2}(?:[ \t]*[AaPp]\.?[Mm]\b\.?)?|-?\d+(?:,\d{3})*(?:\.\d+)?(?:/\d+)?"
# the closing line's one bold value among its numbers (`So, the train will travel **315 km** in 3.5 hours.`,
# `15/20, which simplifies to **3/4**.`): the emphasis marks the answer, unless a word qualifies or denies it
# (a currency sign before the value, a scale glued after it: `**\\$1.4bn**`)
_BOLD_VALUE_RE = re.compile(
    r"(\*\*|__)(?:\\?\$|[\u20ac\u00a3\u00a5])?(?P<value>"
    + _BOLD_NUMBER
    + r")(?P<unit>(?:"
    + SCALE_PATTERN
    + r")?(?:[ \t]+[^\W\d_]+){0,2})\1",
    re.IGNORECASE,
)
_BOLD_RUN_RE = re.compile(r"(\*\*|__)(?=\S).+?(?<=\S)\1")
# a bold clause with one value in it (`**The second train catches up at 4:00 PM**`): the emphasis marks the
# sentence that answers, and its one value (a number or a clock time) is the answer; words only before the value
_BOLD_CLAUSE_RE = re.compile(
    r"(\*\*|__)(?P<lead>[A-Za-z][A-Za-z' ,]*?[ \t])\$?(?P<value>" + _BOLD_NUMBER + r")\$?"
    r"(?P<unit>(?:[ \t]+[A-Za-z]+)*)[.!]?\1"
)
_QUALIFIED_BEFORE_RE = re.compile(
    r"\b(?:not|never|no|about|around|approximately|roughly|nearly|almost|least|most|over|under|than|exceeds?"
    r"|between|per|times|if|when)\W*\Z|n't\W*\Z",
    re.IGNORECASE,
)


def bold_closing(tail: str) -> str | None:
    """The one bold value of the reply's last line, one sentence with no other bold run (see above), else None."""
    line = tail.rstrip().rsplit("\n", 1)[-1]
    runs = list(_BOLD_RUN_RE.finditer(line))
    if len(runs) != 1 or _SENTENCE_END_RE.search(line.strip().rstrip(".! \t")):
        return None
    m = _BOLD_VALUE_RE.fullmatch(runs[0].group()) or _BOLD_CLAUSE_RE.fullmatch(runs[0].group())
    if m is None or "?" in line:
        return None
    # (the words before the value, outside the run and inside it, may qualify or deny it: `not **12**`)
    if _QUALIFIED_BEFORE_RE.search(line[: runs[0].start()] + (m.groupdict().get("lead") or "")):
        return None
    if any(w.lower() in VALUE_WORDS for w in m.group("unit").split()[:2]):
        return None  # `**12 dozen**`, `**5 percent**`: not the value 12
    scale = SCALE_WORD_RE.match(m.group("unit").strip())
    if scale is not None and ":" not in m.group("value"):  # `**15 triệu** đồng`: 15 million, the scale kept
        return m.group("value").replace(",", "") + " " + scale.group()
    return m.group("value").rstrip(".") if ":" in m.group("value") else m.group("value").replace(",", "")


# a reply's closing line that a result label opens (`Résultat : 2`, `**Total distance:** 25 km`, `最终结果：7`):
# at most one word before the label (`Final result:`), two after it (`Total distance:`), then a colon or an
# arrow (`Result ⟶ 6.4 hours`)
_RESULT_LINE_RE = re.compile(
    r"^[ \t>*#_-]*(?:(?:[^\W\d_]+[ \t]+)?(?<![^\W\d_])(?:" + "|".join(RESULT_LABELS) + r")(?![^\W\d_])"
    r"|[^\W\d_]*(?:" + "|".join(RESULT_LABELS_GLUED) + r"))"
    r"(?:[ \t]+[^\W\d_]+){0,2}[ \t]*(?:\*\*|__)?[ \t]*(?:[:\uff1a]|\u2192|\u27f6|\u21d2|->|=>)"
    r"(?:[ \t]*(?:\*\*|__))?[ \t]*(\S.*)$",
    re.IGNORECASE,
)


def closing_result(text: str) -> str | None:
    """The answer that a result label states on the closing line of `text` (`...\\nRésultat : 2`), or None.

    A result label (`Result:`, `Total:`, `Ergebnis:`) labels a step's result as often as the answer, so it is
    no commitment where it stands (answer phrases are: `phrases.py`); only the line that closes the reply states the
    result of it all, and then it is read as an answer line, before the formulas that argued for it (a line cut
    off mid-computation, `Total: 8 km + 2 km +`, closes nothing; nor does a line that goes on to another value
    after its first sentence, which may hedge or revise it)."""
    m = _RESULT_LINE_RE.match(text.rstrip().rsplit("\n", 1)[-1]) if not cut_off(text) else None
    if m is None:
        return None
    rest = _sentence_rest(m.group(1))
    if rest is not None and (_NUMBER_RE.search(rest) or _NUMBER_WORD_RE.search(rest)):
        return None  # `Total: 25 km. Hmm, or maybe 26 km.`: a later sentence of the line offers another value
    return _clean_phrase_answer(m.group(1)) or None
