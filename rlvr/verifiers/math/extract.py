"""Finding the final answer in free-form model output.

Tried in order, first hit wins: the last `\\boxed{...}` / `\\fbox{...}` (nested braces; an unterminated or
empty last box is *no answer*, not a reason to fall back to an earlier box), GSM8K's `#### 42`, a phrase
such as "the final answer is ..." / "Answer: ..." (last occurrence), and finally the last math span
(`$...$`, `\\(...\\)`, `\\[...\\]`) or, failing that, the last number in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.verifiers.math.boxes import (  # noqa: F401  (last_boxed, braced_group: public through this module)
    _BOX_RE,
    _outer_boxes,
    _unbox,
    braced_group,
    last_boxed,
)
from rlvr.verifiers.math.commitment import (
    _SECTION_RE,
    Screened,
    guess_contested,
    offers_another,
    rejected_after,
    same_value,
    screen,
)
from rlvr.verifiers.math.vocab import (
    ALTERNATIVE_HEDGES,
    APPROXIMATORS,
    COPULAS,
    NEGATION_AFTER_PHRASE,
    NUMBER_WORDS,
    PROSE_MATH_NAMES,
    QUALIFIERS_AFTER_BOX,
    QUALIFIERS_BEFORE,
    QUALIFIERS_BEFORE_BOX,
    REVISION_WORDS,
    SUBORDINATORS,
    VALUE_WORDS,
)

#: Extraction methods in the order they are tried.
METHODS = ("boxed", "gsm8k", "final_answer", "last_math")

_GSM8K_RE = re.compile(r"####\s*([^\n]+)")
_PHRASE_RE = re.compile(
    r"(?:final[\s_]+answer[\"']?\s*(?:is|:|=)?|the\s+answer\s+is|\banswer[\"']?\s*(?:is|:|=|\|)|\bans\s*:"
    r"|\b(?:die\s+antwort\s+ist|la\s+r[ée]ponse\s+est|la\s+respuesta\s+es)|答案是|答案为|答案：)\s*:?\s*",
    re.IGNORECASE,
)
_MATH_SPAN_RE = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S
)
# a number not glued to a preceding letter (`AZYUK2A` has none): thousands groups, decimals, a/b, %
_NUMBER_RE = re.compile(
    r"\\frac\{\d+\}\{\d+\}"  # a plain LaTeX fraction is one number, not its denominator
    r"|(?<![A-Za-z\d.,])-?\$?(?:\d{1,3}(?:(?:,|\s)\d{3})+(?!\d)|\d+)(?:\.\d+|,\d{1,2}(?![\d,]))?(?:\s*/\s*\d+)?%?"
    r"|(?<![\w.])-?\.\d+"
)
_PROSE_RE = re.compile(r"[A-Za-z]{3,}")
# letters of any script (Chinese, Arabic, Devanagari ...): a run of them is prose in any language
_FOREIGN_WORD_RE = re.compile(r"[^\W\d_A-Za-z]{2,}")
# the model went on to a new chat turn: nothing after it answers this one
_NEXT_TURN_RE = re.compile(
    r"<\|(?:im_start|im_end|endoftext|eot_id|end_of_turn)\|>|</s>|\[INST\]"
    # a new turn or a new problem written out: `Human:`, `User:`, `Problem 2:`, `### Exercise`
    r"|\n[ \t]*(?:Human|User|Assistant)[ \t]*:|\n[ \t]*(?:#+[ \t]*)?(?:Problem|Exercise|Question)(?:[ \t]+\d+)?[ \t]*[:.\n]"
)
#: Only the tail of very long outputs is searched for a trailing math span or number.
_TAIL = 8000


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


def undouble_backslashes(text: str) -> str:
    """A doubly escaped output (`\\\\frac{1}{2}`, every command written with two backslashes, as JSON-escaped
    text reads) back to LaTeX; text with any single-backslash command is left alone (`\\\\` is a row break)."""
    if "\\\\" not in text or re.search(r"(?<!\\)\\(?![nt])[a-zA-Z{}()\[\]]", text):
        return text
    return text.replace("\\\\", "\\")


# an alternative after an answer: `$3$ or $4$`, `$3$, $4$`, `\\boxed{3}\\text{ or }4`, `\\boxed{3}$ or $x = 4$`
_ALTERNATIVE_RE = re.compile(
    r"^[\s$\\\"'*]*\(?\s*(?:,|;|/|\band\b|\bor\b|\\text\s*\{\s*(?:,|and|or)\s*\})[\s\"'*]*"
    r"(?:(?:" + "|".join(ALTERNATIVE_HEDGES) + r")\s+)?"
    r"(?:\$+([^$]+?)\$+|\\\((.+?)\\\)|(-?\d+(?:\.\d+)?)(?![\d.]*\s*[A-Za-z]{3}))"
)


_SPAN_GAP_RE = re.compile(r"^\s*(?:,|;|/|\band\b|\bor\b)\s*$")
# `$x = 3$, and then $y = 2$`: assignments to different names joined by a conjunction are one answer
_ASSIGNMENT_GAP_RE = re.compile(r"^\s*,?\s*(?:and\s+)?(?:then\s+)?$")
_ASSIGNMENT_RE = re.compile(r"^\s*([A-Za-z](?:_\{?\w+\}?)?)\s*=")
# between two values of one sentence: the later one is subordinate to the earlier (`$60^\circ$, twice the
# $30^\circ$ angle`, `3 when divided by 5`) when the words between subordinate it and none states it
_SUBORDINATE_RE = re.compile(r"\b(?:" + "|".join(SUBORDINATORS) + r")\b", re.IGNORECASE)
_STATES_RE = re.compile(r"\b(?:" + "|".join(COPULAS) + r")\b|=", re.IGNORECASE)
_QED_RE = re.compile(r"\$*\s*\\(?:blacksquare|qed|square|Box)(?![a-zA-Z])\s*\$*|∎|\bQ\.E\.D\.")


def _assignments_joined(text: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two spans assign different names and only a conjunction (`, and then`) stands between them."""
    a = _ASSIGNMENT_RE.match(next(g for g in first.groups() if g is not None))
    b = _ASSIGNMENT_RE.match(next(g for g in second.groups() if g is not None))
    gap = text[first.end() : second.start()]
    return (
        a is not None and b is not None and a.group(1) != b.group(1) and bool(_ASSIGNMENT_GAP_RE.match(gap))
    )


_TEXT_LABEL_RE = re.compile(r"^\s*\\(?:text|mathrm)\s*\{[^{}]*\}\s*=\s*([^=]+)$")


def _labelled_beside(tail: str, spans: list[re.Match[str]]) -> bool:
    """Whether the last formula and the one right before it (only space between) label different values."""
    if len(spans) < 2 or tail[spans[-2].end() : spans[-1].start()].strip():
        return False
    last, prev = (
        _TEXT_LABEL_RE.match(next(g for g in sp.groups() if g is not None)) for sp in spans[-2:][::-1]
    )
    return last is not None and prev is not None and last.group(1).strip() != prev.group(1).strip()


def _principal(text: str, values: list[tuple[int, int]]) -> int:
    """Index of the value that a reply's last sentence states: the last one, unless the words before it in
    the same sentence subordinate it to an earlier one (`twice the`, `compared to`, `not`, `when divided by`)."""
    k = len(values) - 1
    while k > 0:
        gap = text[values[k - 1][1] : values[k][0]]
        if re.search(r"[.!?](?:\s|$)|\n", gap) or _STATES_RE.search(gap) or not _SUBORDINATE_RE.search(gap):
            break
        k -= 1
    return k


def _closing_remarks_dropped(tail: str) -> str:
    """A reply's end without what closes it after the answer: end-of-proof marks and a last remark section
    (`Remark:`, `Note:`) that follows a value; they comment on the answer, they do not give it."""
    tail = _QED_RE.sub(" ", tail)
    sections = list(_SECTION_RE.finditer(tail))
    if not sections or not _NUMBER_RE.search(tail[: sections[-1].start()]):
        return tail
    remark = tail[sections[-1].start() :].lstrip(".!?,{( \t\n")
    if re.search(r"\n\s*\n\s*\S", remark) or _CONCLUSION_RE.search(remark) or _PHRASE_RE.search(remark):
        return tail  # not a closing remark: a paragraph or a conclusion follows it ("Note: ... So 12.")
    return tail[: sections[-1].start()]


def alternatives_after(text: str, first: str) -> list[str]:
    """Further values offered right after an answer (`$3$ or $4$`): a hedge, so the answer is all of them."""
    found: list[str] = []
    while len(found) < 20:
        m = _ALTERNATIVE_RE.match(text)
        if m is None:
            return found
        value = re.sub(r"^[A-Za-z]\s*=\s*", "", next(g for g in m.groups() if g is not None).strip())
        if value not in found and value != first:  # `\\boxed{2}$ and $x = 2$` restates, offers nothing
            found.append(value)
        text = text[m.end() :]
    return found


_PROSE_SCALE_RE = re.compile(r"^(-?\$?\d+(?:\.\d+)?)(k|K|M|bn)$")
_PROSE_SCALES = {"k": "thousand", "K": "thousand", "M": "million", "bn": "billion"}


def prose_scale(answer: str) -> str:
    """`5k` written in prose (outside math) is 5 thousand: `5 thousand` (`2.5M` -> `2.5 million`).

    Only prose answers are read this way: in math (`$5k$`, `\\boxed{5k}`) `k` is a variable and `5k` is 5k.
    """
    m = _PROSE_SCALE_RE.match(answer.strip())
    return f"{m.group(1)} {_PROSE_SCALES[m.group(2)]}" if m else answer


# the end of a value in a table row (`| answer | 8 |`) or a JSON object (`{"answer": 8, "note": ...}`)
_CELL_END_RE = re.compile(r"\s+\|(?:\s|$)|(?<![\\}])\}\s*$|,\s*\"")


_SPAN_QUALIFIED_RE = re.compile(
    r"\s*(?:(?:less|more|fewer|greater|smaller)\s+than|times|of|plus|minus|if|when|unless|provided|assuming"
    r"|for\s+(?:\$|n\b|x\b|k\b|some|all|each|every|part))\b",
    re.IGNORECASE,
)


def _clean_phrase_answer(rest: str) -> str:
    first = rest.split("\n", 1)[0].strip()
    if first.startswith("**") and "**" in first[2:]:  # `Answer: **6** (not 12)`: the bold is the answer
        first = first[2:].split("**", 1)[0]
    elif closed := re.match(
        r"^\**([^*]*?\S)\*\*(?=\s|$|[(.,;])", first
    ):  # `**Answer: 6** (not 12)`: bold closes it
        first = closed.group(1)
    rest = first.strip().strip("*").strip()
    rest = _CELL_END_RE.split(rest, maxsplit=1)[0] if _CELL_END_RE.search(rest) and "$" not in rest else rest
    span = _MATH_SPAN_RE.search(rest)
    if span and span.start() < 3 and _SPAN_QUALIFIED_RE.match(rest[span.end() :]):
        return rest  # `$7$ less than $15$`, `$7$ if $n$ is odd`: the span is not stated as the answer
    if span and span.start() < 3:
        first = next(g for g in span.groups() if g is not None)
        more = alternatives_after(rest[span.end() :], first.strip())
        return ", ".join([first.strip(), *more]) if more else first
    rest = re.split(r"(?<!\d)(?<!\bi\.e)(?<!\be\.g)\.(?:\s|$)|\.\s+(?=[A-Z])", rest, maxsplit=1)[
        0
    ]  # not `i.e.`
    # `7 (not 8)`: a bracket that denies another value leaves the answer as it is (a later clause might not)
    rest = re.sub(r"^(-?\d+(?:\.\d+)?)\s*\(\s*not\s+-?\d+(?:\.\d+)?\s*\)$", r"\1", rest.strip())
    rest = prose_scale(rest.strip().rstrip(".\u3002").strip("*").strip())
    if _is_prose(rest) and _NUMBER_RE.search(rest) and _NUMBER_WORD_RE.search(rest):
        return rest  # "six rolls on average, though the median is 4": two values, neither is the answer
    if _is_prose(rest):
        # "Final Answer: The largest $n$ is 34." -> what follows the last "is", else the last number
        tail = re.split(r"\b(?:is|are|equals|=)\s+", rest)[-1]
        if tail != rest and not _is_prose(tail):
            return tail.strip()
        found = list(_NUMBER_RE.finditer(rest))
        numbers = {m.group().strip() for m in found}
        if len(numbers) == 1 and _plain_number_in_prose(rest, found[-1]):
            # several numbers in prose: which one is the answer is a guess, so none is
            return numbers.pop()
    return rest


def _plain_number_in_prose(rest: str, number: re.Match[str]) -> bool:
    """Whether the one number of a prose answer is stated plainly: not qualified by the words around it
    (`at least 3`, `3 or more`, `3 times x`, `5 thousand`); what follows it may only name what it counts."""
    before = re.findall(r"[A-Za-z']+", rest[: number.start()])[-2:]
    after = re.findall(r"\\?[A-Za-z']+|[^\sA-Za-z.,;:!?]", rest[number.end() :])
    if after[:1] in (["("], ["["]):
        after = after[1:]  # `7 (in thousands)`: the words in brackets qualify it as well
    if any(w.lower() in QUALIFIERS_BEFORE for w in before) or [w.lower() for w in before] == ["to", "the"]:
        return False  # `at least 3`, `the square root of 7`, `negative 7`, `e to the 7`
    if re.match(r"\s*(?:[*^/+\u00d7!]|-[A-Za-z])", rest[number.end() :]) or _REJECTED_MARK_RE.match(
        rest[number.end() :]
    ):
        return False  # `7 ** 2`, `7!`, `7-ish`, `7 ✗`
    if any(w.lower() in ("below", "under", "negative", "minus") for w in after[:4]):
        return False  # `7 degrees Celsius below zero`
    return not after or (
        after[0].lower() not in VALUE_WORDS and (len(after[0]) > 1 or not after[0].isalpha())
    )


_REJECTED_MARK_RE = re.compile(r"\s*[\u2717\u2718\u274c]")  # ✗ ✘ ❌ after a value: marked wrong
_GOLD_BOX_GAP_RE = re.compile(r"^\s*(?:[A-Za-z]+\s+)?(?:and|,)\s*$|^[^\w\\$]+$")
_GLUED_OR_RE = re.compile(r"(?<=[)\]\d])or(?=[(\[A-Z])")
_OPENING_TURN_RE = re.compile(
    r"(?:\s*<\|(?:im_start|im_end|endoftext|eot_id|end_of_turn)\|>(?:assistant|model)?)+"
)
_SIGNED_OFF_RE = re.compile(r"\s*I hope it is correct\b", re.IGNORECASE)
_NEGATED_RE = re.compile(r"\s*(?:" + "|".join(NEGATION_AFTER_PHRASE) + ")", re.IGNORECASE)
_BOILERPLATE_RE = re.compile(r"I hope it is correct\.?|<\|im_(?:start|end)\|>\w*|</?\w+>", re.IGNORECASE)


def _sentence_rest(after: str) -> str | None:
    """What follows the sentence of an answer phrase (`after` starts with its answer), or None when nothing
    can revise it: no further sentence, or "... is $X$. I hope it is correct." (the Minerva format closes the
    answer; a later box or answer phrase is found as the later answer by itself)."""
    first_line = after.split("\n", 1)[0]
    span = _MATH_SPAN_RE.match(first_line.strip().strip("*").strip())
    sentence_end = re.search(r"(?<!\d)\.(?:\s|$)|\.\s+(?=[A-Z])|\n", after[span.end() if span else 0 :])
    if sentence_end is None:
        return None
    rest = after[(span.end() if span else 0) + sentence_end.end() :]
    return None if _SIGNED_OFF_RE.match(rest) else rest


def _revises(rest: str) -> bool:
    """Whether `rest` (screened: no checks, rejected values or hedges) may correct the phrase before it: math
    after a revision word or a concluding "Therefore/So/Thus/Hence" ("... is 5. Wait, it's 7"), or a later box
    or answer phrase. Other prose with numbers (an aside, "The train would need 2.5 more hours") commits to
    nothing, as after a box: the answer phrase stands."""
    rest = _BOILERPLATE_RE.sub(" ", rest)
    rest = re.sub(r"\$\s*[A-Za-z]\s*\$", " ", rest)  # `$A$`, `$n$`: naming a letter revises no answer
    if re.search(r"\\boxed|\\fbox", rest) or _PHRASE_RE.search(rest):
        return True
    opener = _REVISION_RE.search(rest) or _CONCLUSION_RE.search(rest)
    return opener is not None and bool(re.search(r"\d|\$", rest[opener.start() :]))


def _hedge(answer: str, screened: Screened) -> str | None:
    """`answer` and the other values a later hedge offered, joined (a hedge is all its values), or None."""
    if screened.settled:
        return None
    others = [h for h in screened.hedged if not same_value(h, answer)]
    return ", ".join([answer, *others]) if others else None


_CONCLUSION_RE = re.compile(
    r"(?:^\s*|[.!?:]\s+|\n)((?:Therefore|Thus|Hence|So)\b[^.!?;\n]*(?:\.\d[^.!?;\n]*)*)"  # to `;`: "8; each row has 7"
)


def _concluding_number(after: str) -> str | None:
    """The one number of a concluding sentence ("Therefore, there are 12 ...") after the last formula."""
    found = list(_CONCLUSION_RE.finditer(_BOILERPLATE_RE.sub(" ", after)))
    if not found:
        return None
    sentence = found[-1].group(1)
    kept = [m for m in _NUMBER_RE.finditer(sentence) if not rejected_after(sentence[m.end() :])]
    numbers = {m.group().strip().rstrip(",") for m in kept}  # "Hence n = 7 does not work." concludes nothing
    if len(numbers) != 1:
        return None
    spans = [(m.start(), m.end()) for m in _NUMBER_RE.finditer(sentence)]
    return None if guess_contested(sentence, kept[-1].start(), kept[-1].end(), spans) else numbers.pop()


_REVISION_RE = re.compile(r"\b(?:" + "|".join(REVISION_WORDS) + r")\b|\bno,", re.IGNORECASE)
_NUMBER_WORD_RE = re.compile(
    r"\b(?:" + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_PLAIN_NUMBER_RE = re.compile(r"^-?\d+(?:\.\d+)?$")


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


def _revised_value(after: str) -> str | None:
    """The value a correction states after an answer ("... \\boxed{3}. Hmm, actually it's four."): the last
    number or number word after a revision word ("wait", "actually", "no,", ...), or None."""
    revision = _REVISION_RE.search(_BOILERPLATE_RE.sub(" ", after))
    if revision is None:
        return None
    rest = _BOILERPLATE_RE.sub(" ", after)[revision.end() :]
    found = [(m.start(), m.group().strip().rstrip(",")) for m in _NUMBER_RE.finditer(rest)]
    found += [(m.start(), NUMBER_WORDS[m.group().lower()]) for m in _NUMBER_WORD_RE.finditer(rest)]
    return max(found)[1] if found else None


def _after_last_box(text: str) -> Extraction | None:
    """What a reply says after its last box, if it changes the answer (the last commitment wins): a "final
    answer is ..." phrase; after a box holding one number, a concluding sentence with one other number
    ("Therefore, there are 7 ways") or a correction ("Wait, ... it's 7"); a hedge ("Hmm, or 7"), which makes
    the answer all its values. Checks, explanations and values said to be wrong change nothing."""
    boxes = _outer_boxes(text)
    if not boxes or boxes[-1][2] is None:
        return None
    rest = text[boxes[-1][1] :]
    box = _unbox(boxes[-1][2]).strip()
    screened = screen(rest, box)
    later = None
    if _PLAIN_NUMBER_RE.match(box) and not _SIGNED_OFF_RE.match(rest.lstrip(" .$\\])")):
        later = _concluding_number(screened.text) or _revised_value(screened.text)
        if later is not None and same_value(later, box):
            later = None
    answer = _phrase_answer_after(screened.text) or later
    hedge = _hedge(answer or box, screened)
    if hedge is not None:
        return Extraction(hedge, "hedge")
    if answer is None and screened.withdrawn and _PLAIN_NUMBER_RE.match(box):
        return Extraction("", "withdrawn")  # "\\boxed{8}. Hmm, 8 is wrong.": no answer is left
    return Extraction(answer, "final_answer") if answer else None


_BEFORE_BOX_RE = re.compile(
    r"\b(?:" + "|".join(QUALIFIERS_BEFORE_BOX) + r")\s*[$(\[]*\s*(?:[A-Za-z]\s*(?:=|\\geq?|\\leq?|<|>)\s*)?$",
    re.IGNORECASE,
)
_AFTER_BOX_RE = re.compile(
    r"^(?:[\s$]|\\[ ,;])*\(?\s*(?:\\text\s*\{\s*)?\(?\s*(?:(?:is|are)\s+(?:only\s+)?(?:an?\s+|the\s+)?)?(?:"
    + "|".join(QUALIFIERS_AFTER_BOX)
    + r")\b",
    re.IGNORECASE,
)
_CLAUSE_START_RE = re.compile(r"[.!?;:\n]")
# an operator attached to a box from outside: a power, a factorial, a percent sign
_BOX_SUFFIX_RE = re.compile(r"^[ \t]*(\^\s*(?:\{[^{}]*\}|[\w\\]+)|!(?!=)|\\%)")
_ASIDE_RE = re.compile(r"(?<=[.!?])\s*\(\s*[A-Z][^()]*\)\s*$")  # a last sentence in brackets
_ASKED_RE = re.compile(r"[ \t]*(?:\?|\\text\s*\{\s*\?)")
_SENTENCE_START_RE = re.compile(r"[.!?\n]")
_APPROXIMATOR_RE = re.compile(r"\b(?:" + "|".join(APPROXIMATORS) + r")\b", re.IGNORECASE)


def _qualified_box(text: str) -> str | None:
    """The last box's value with the words that make it a bound or a denial, if they stand right around it
    (`the answer is at least \\boxed{12}`, `not \\boxed{12}`, `\\boxed{12} (upper bound)`): such a value is
    not stated as the answer, and the qualified text answers nothing."""
    start, end, content = _outer_boxes(text)[-1]
    before = text[max(0, start - 40) : start]
    before = before[max((m.end() for m in _CLAUSE_START_RE.finditer(before)), default=0) :]
    lead = _BEFORE_BOX_RE.search(before)
    trail = _AFTER_BOX_RE.match(text[end : end + 60])
    words = lead.group() if lead is not None else trail.group() if trail is not None else ""
    if not words or (_APPROXIMATOR_RE.search(words) and re.search(r"\d\.\d", content or "")):
        return (
            None  # a decimal is an approximation by nature: `about \\boxed{0.7854}` (its digits are checked)
        )
    return f"{words.strip()} {content}" if lead is not None else f"{content} {words.strip()}"


def _hedged_last_box(text: str) -> str | None:
    """Two boxed values where the clause of the last one offers it as an alternative (`\\boxed{8}.
    (Alternatively \\boxed{7}.)`, `... if repetition is allowed, the answer is \\boxed{13}`): both, a hedge."""
    boxes = [(start, end, content) for start, end, content in _outer_boxes(text) if content is not None]
    if len(boxes) < 2:
        return None
    (_, prev_end, prev), (start, _, last) = boxes[-2], boxes[-1]
    lead = text[prev_end:start]
    lead = lead[max((m.end() for m in _SENTENCE_START_RE.finditer(lead)), default=0) :]
    if same_value(_unbox(prev).strip(), _unbox(last).strip()) or not offers_another(lead):
        return None
    return f"{_unbox(prev).strip()}, {_unbox(last).strip()}"


def _phrase_answer_after(rest: str) -> str | None:
    """The answer of the last answer phrase in `rest`, if it commits to one (not negated, revised, prose)."""
    matches = list(_PHRASE_RE.finditer(rest))
    if not matches or _NEGATED_RE.match(rest[matches[-1].end() :]):
        return None
    after = rest[matches[-1].end() :]
    answer = _clean_phrase_answer(after)
    if not answer or _is_prose(answer):
        return None
    later = _sentence_rest(after)
    return None if later is not None and _revises(screen(later, answer).text) else answer


_THINK_END_RE = re.compile(r"</think>", re.IGNORECASE)
_ANSWER_TAG_RE = re.compile(r"<(answer|solution)>(.*?)</\1>", re.IGNORECASE | re.S)


def _tagged_reply(text: str) -> str:
    """The part of a tagged reply that answers: after `</think>` when anything follows it (the thinking is a
    draft: its boxes and phrases are not the answer), with an `<answer>...</answer>` tag read as a box."""
    ends = list(_THINK_END_RE.finditer(text))
    if ends and text[ends[-1].end() :].strip():
        text = text[ends[-1].end() :]
    tags = list(_ANSWER_TAG_RE.finditer(text))
    if tags:
        last = tags[-1]
        text = text[: last.start()] + "\\boxed{" + last.group(2).strip() + "}" + text[last.end() :]
    return text


def extract_answer(text: str, methods: tuple[str, ...] = METHODS) -> Extraction | None:
    """Find the final answer of a completion; None if there is none (an empty box gives answer '')."""
    if not isinstance(text, str) or not text.strip():
        return None
    opening = _OPENING_TURN_RE.match(text)  # `<|im_start|>assistant` before the reply opens it, ends nothing
    text = text[opening.end() :] if opening else text
    turn = _NEXT_TURN_RE.search(text)
    if turn is not None:
        text = text[: turn.start()]
    text = _tagged_reply(undouble_backslashes(text))
    for method in methods:
        if method == "boxed":
            boxed = last_boxed(text)
            if boxed is not None:
                more = alternatives_after(text[_outer_boxes(text)[-1][1] :], boxed) if boxed else []
                if more:  # `\\boxed{3} or 4`: a hedge between values is all of them, never the first
                    return Extraction(", ".join([boxed, *more]), "boxed")
                if boxed and _ASKED_RE.match(text[_outer_boxes(text)[-1][1] :]):
                    return None  # `\\boxed{\\text{odd}}?`: a box that asks answers nothing
                suffix = _BOX_SUFFIX_RE.match(text[_outer_boxes(text)[-1][1] :]) if boxed else None
                if suffix is not None:  # `\\boxed{7}^2` states 7^2: what is attached to the box belongs to it
                    return Extraction(f"{{{boxed}}}{suffix.group(1)}", "boxed")
                qualified = _qualified_box(text) if boxed else None
                if qualified is not None:  # `at least \\boxed{12}`, `\\boxed{12} is a lower bound`
                    return Extraction(qualified, "qualified")
                hedged = _hedged_last_box(text) if boxed else None
                if hedged is not None:  # `\\boxed{8}. (Alternatively \\boxed{7}.)`
                    return Extraction(hedged, "hedge")
                after_box = _after_last_box(text) if "final_answer" in methods else None
                return after_box or Extraction(boxed, "boxed")
        elif method == "gsm8k":
            found = _GSM8K_RE.findall(text)
            if found:
                if re.match(r"\s*(?:~|\u2248|\\approx)", found[-1]):
                    return None  # `#### ~18`: an approximate count is no exact answer
                return Extraction(prose_scale(found[-1].strip()), "gsm8k")
        elif method == "final_answer":
            matches = list(_PHRASE_RE.finditer(text))
            if matches:
                after = text[matches[-1].end() :]
                if _NEGATED_RE.match(after):  # "the answer is not 12": only what follows may answer
                    text = re.split(r"\.(?:\s|$)", after, maxsplit=1)[-1] if "." in after else ""
                    if not text.strip():
                        return None
                    continue
                answer = _clean_phrase_answer(after)
                rest = _sentence_rest(after) if answer else None
                screened = screen(rest, answer) if rest is not None else None
                hedge = _hedge(answer, screened) if screened is not None else None
                if hedge is not None:  # "Final answer: 8. Hmm, or 7."
                    return Extraction(hedge, "hedge")
                if answer and screened is not None and _PLAIN_NUMBER_RE.match(answer):
                    later = _revised_value(screened.text) if _revises(screened.text) else None
                    restated = _restated_value(screened.text)
                    if later is None and restated is not None and restated[1] == ",":
                        later = restated[0]  # "is 7. Nope, 8.": the last committed answer wins
                    if later is not None and not same_value(later, answer):  # "is 7. Correction: 8."
                        return Extraction(later, "revised")
                    if later is None and restated is not None and not same_value(restated[0], answer):
                        return None  # "Answer: 8\nSteps: 7", "is 7. Erratum: 8": a label or a correction?
                if answer and not (screened is not None and _revises(screened.text)):
                    checked = screened.text if screened is not None else after
                    revised = _revised_value(checked) if _PLAIN_NUMBER_RE.match(answer) else None
                    return Extraction(revised or answer, "final_answer")  # "is 3. Wait, no, seven."
        elif method == "last_math":
            bare = text.strip()
            unglued = _GLUED_OR_RE.sub(" or ", bare)  # `W(x)=1orW(x)=-1`: a connective, not a word
            latex_only = re.sub(r"\\text\s*\{[^{}]{0,30}\}", " ", unglued)  # `2 \text{ million}`: LaTeX
            if (
                len(bare) <= 300 and "$" not in bare and "~~" not in bare and not _is_prose(latex_only)
            ):  # `~~7~~` is struck out, not stated  # the whole reply is the answer
                return Extraction(re.sub(r"^(\*\*|__)(.+)\1$", r"\2", bare), "whole")  # `**7**`: bold
            tail = _closing_remarks_dropped(text[-_TAIL:])
            aside = _ASIDE_RE.search(tail)
            if aside is not None and _MATH_SPAN_RE.search(tail[: aside.start()]):
                tail = tail[
                    : aside.start()
                ]  # `... $120^\\circ$. (The exterior angle is $60^\\circ$.)`: an aside
            spans = list(_MATH_SPAN_RE.finditer(tail))
            concluded = _concluding_number(tail[spans[-1].end() :] if spans else tail)
            if concluded is not None:
                return Extraction(concluded, "conclusion")
            if spans:
                spans = spans[: _principal(tail, [(m.start(), m.end()) for m in spans]) + 1]
                content = next(g for g in spans[-1].groups() if g is not None).strip()
                k = len(spans) - 1
                while k > 0 and (
                    _SPAN_GAP_RE.match(tail[spans[k - 1].end() : spans[k].start()])
                    or _assignments_joined(tail, spans[k - 1], spans[k])
                ):
                    k -= 1  # `$3$ and $4$`: the answer is both, never the last one alone
                if k < len(spans) - 1:
                    joined = [next(g for g in sp.groups() if g is not None).strip() for sp in spans[k:]]
                    if not any(_is_prose(part) for part in joined):
                        return Extraction(", ".join(joined), "last_math")
                if content and _labelled_beside(tail, spans):
                    return (
                        None  # `$$\\text{Total} = 8$$ $$\\text{Rows} = 7$$`: two labelled values, no answer
                    )
                if content and _is_prose(content):  # `$? just about 1$`: a stray `$` opened the span
                    numbers = {n.strip().rstrip(",") for n in _NUMBER_RE.findall(content)}
                    if len(numbers) == 1:
                        return Extraction(numbers.pop(), "last_math")
                if content and rejected_after(tail[spans[-1].end() :]):
                    return None  # `So $x = 7$ is not a solution.`
                if content:
                    return Extraction(content, "last_math")
            found = [m for m in _NUMBER_RE.finditer(tail) if not rejected_after(tail[m.end() :])]
            if not found and (words := list(_NUMBER_WORD_RE.finditer(tail))):
                return Extraction(
                    NUMBER_WORDS[words[-1].group().lower()], "last_number"
                )  # "the count is eight"
            if found:
                last = found[_principal(tail, [(m.start(), m.end()) for m in found])]
                spans_all = [(m.start(), m.end()) for m in _NUMBER_RE.finditer(tail)]
                if guess_contested(tail, last.start(), last.end(), spans_all):
                    return None  # a guess needs an uncontested number: no answer rather than a wrong one
                return Extraction(last.group().strip().rstrip(","), "last_number")
        else:
            raise ValueError(f"unknown extraction method {method!r}; choose from {METHODS}")
    return None


# a short prose reference that ends by stating its answer in math: `... is $x$.`
_STATED_GOLD_RE = re.compile(r"\b(?:is|are|equals)\s*:?\s*(?<!\\)\$[^$]+(?<!\\)\$\s*\.?\s*$")


def extract_gold(text: str) -> str:
    """The answer part of a reference: its last box or `####` answer if it has one, else all of it."""
    text = undouble_backslashes(text)
    boxes = _outer_boxes(text)
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
