"""Answer phrases ("the final answer is ...", "Answer: ...") and what may revise them afterwards: the
value a phrase states, alternatives offered right after it, a concluding sentence, and hedges (all of their
values); a correction ("Wait, it's 7") or a restated value after one is read by `revisions.py`."""

from __future__ import annotations

import re

from rlvr.verifiers.math.atoms import (
    _MATH_SPAN_RE,
    _NUMBER_RE,
    _NUMBER_WORD_RE,
    _is_prose,
    bracketed_values,
    in_expression,
    named_base,
)
from rlvr.verifiers.math.commitment import (
    Screened,
    guess_contested,
    is_hedge,
    rejected_after,
    same_value,
    screen,
)
from rlvr.verifiers.math.number_words import number_from_words
from rlvr.verifiers.math.phrase_words import (
    ANSWER_LABELS,
    ANSWER_LABELS_GLUED,
    ANSWER_SENTENCES,
    ANSWER_SENTENCES_GLUED,
    CONCLUSION_OPENERS,
    CONCLUSION_OPENERS_GLUED,
    CONCLUSION_OPENERS_OTHER,
    FOREIGN_AND,
    FOREIGN_HEDGES,
    FOREIGN_OR,
    FOREIGN_QUALIFIERS,
)
from rlvr.verifiers.math.vocab import (
    ALTERNATIVE_HEDGES,
    CORRECT_VALUE_PHRASE,
    NEGATION_AFTER_PHRASE,
    QUALIFIERS_BEFORE,
    SCALE_FIRST_RE,
    SCALED_NUMBER_PATTERN,
    SCALES_PATTERN,
    VALUE_WORDS,
    counted_label,
)

# an answer phrase: English, a sentence of another language (`phrase_words.ANSWER_SENTENCES`), or a label of any
# language followed by a colon, full-width too, or a dash (`phrase_words.ANSWER_LABELS`: `Ответ: 10`, `**答：** 7`,
# `Ответ — 10`, `အဖြေ - ၂၅`); a label is a word of its own, not the end of another (`回答：` is a reply, not an answer
# line), except the few of scripts written without spaces (`phrase_words.ANSWER_LABELS_GLUED`: `最终答案：7`);
# a label in brackets is a section heading of its own, no colon needed (exam format `【解析】…【答案】128`, `[Answer] 7`)
_OTHER_SENTENCES = (
    r"(?<![^\W\d_])(?:" + "|".join(ANSWER_SENTENCES) + r")(?![^\W\d_])|" + "|".join(ANSWER_SENTENCES_GLUED)
)  # a sentence's last word is whole: `svaret er` is no `svaret erhålls`
_ANY_LABEL = "|".join(ANSWER_LABELS + ANSWER_LABELS_GLUED)
_OTHER_LABELS = (
    r"(?:(?:(?<![^\W\d_])(?:" + "|".join(ANSWER_LABELS) + r")|" + "|".join(ANSWER_LABELS_GLUED) + r")"
    r"(?![^\W\d_])[ \t]*(?:\*\*|__)?[ \t]*(?:[:\uff1a]|[\u2014\u2013](?=[ \t])|(?<=[ \t])-(?=[ \t]))(?:[ \t]*(?:\*\*|__))?"
    r"|[\[\u3010\u3016\uff3b][ \t]*(?:"
    + _ANY_LABEL
    + r"|(?:final[ \t]+)?answer)[ \t]*[\]\u3011\u3017\uff3d])"
)
_PHRASE_RE = re.compile(
    # (every phrase opens with a letter or a bracket: the lookahead skips the other positions at once, which
    # makes the scan of a reply of tables or formulas several times faster)
    r"(?=[^\W\d_]|[\[\u3010\u3016\uff3b])(?:"
    # (`**Answer**: 27`: the emphasis of a label may close before its colon)
    # (`answer should be 15`, `must be`: not `would be`, a conditional; `Answer → 64`: an arrow as the label's colon)
    r"(?:final[\s_]+answer[\"']?\s*(?:is|(?:\*\*|__)?:|=)?|the\s+answer\s+is"
    r"|\banswer[\"']?\s*(?:is|(?:should|must)\s+be|(?:\*\*|__)?:|=|\||\u2192|->|=>)"
    # (`**Answer (revised):** 48`: a bracketed qualifier between the label and its colon)
    r"|\banswer\s*\((?:revised|corrected|updated|new|final|amended|simplified|alternative|alternate|other|second)\)"
    r"\s*(?:\*\*|__)?:"
    r"|\bans\s*:"
    # (`the final count is now **32**`: a final count or total stated is an answer stated, as in a changelog)
    r"|\bfinal\s+(?:count|total|tally|result|value|number|sum|amount)\s+(?:is|=)(?:\s+now)?"
    # (`The correct value is 420.`: a value called the correct one is an answer stated, after a box a revision)
    r"|\b" + CORRECT_VALUE_PHRASE + rf"|{_OTHER_SENTENCES}|{_OTHER_LABELS}))\s*[:\uff1a]?\s*",
    re.IGNORECASE,
)


# an alternative after an answer: `$3$ or $4$`, `$3$, $4$`, `\\boxed{3}\\text{ or }4`, `\\text{ (and } 4)`, `\\boxed{3}$ or $x = 4$`
# (no two adjacent parts may match the same run of text, and the number is possessive: a long run of spaces
# or digits must not be split in every way before the match fails, which took time quadratic in its length)
_ALTERNATIVE_RE = re.compile(
    r"^[\s$\\\"'*]*(?:_?\{)?[(\uff08]?\s*(?:,|;|/|\band\b|\bor\b|\\text\s*\{\s*\(?\s*(?:,|and|or)\s*\}"
    # (`\\boxed{12} (eller 13, ...)`, `(lub 13)`, `(या 13)`: the `or` of the other languages too)
    + r"|(?<![^\W\d_])(?:"
    + "|".join(FOREIGN_OR)
    + r")(?![^\W\d_]))[\s\"'*]*"
    r"(?:(?:" + "|".join(ALTERNATIVE_HEDGES) + r"|" + "|".join(FOREIGN_HEDGES) + r")\s+)?"
    r"(?:\$+([^$]+?)\$+|\\\((.+?)\\\)|(-?\d++(?:\.\d++)?+)(?![\d.]*\s*[A-Za-z]{3}))"
)


#: An alternative is offered right after an answer: only this many characters after it are read (the pattern
#: backtracks over whitespace, so an unbounded tail of 20,000 spaces would cost seconds)
_ALTERNATIVE_REACH = 400


def alternatives_after(text: str, first: str) -> list[str]:
    """Further values offered right after an answer (`$3$ or $4$`): a hedge, so the answer is all of them."""
    found: list[str] = []
    while len(found) < 20:
        m = _ALTERNATIVE_RE.match(text[:_ALTERNATIVE_REACH])  # bounded: runs of spaces backtrack
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
# (a run of spaces is read from its start only, once: from each of its spaces the search was quadratic)
_CELL_END_RE = re.compile(r"(?<!\s)\s++\|(?:\s|$)|(?<![\\}])\}\s*$|,\s*\"")


_SPAN_QUALIFIED_RE = re.compile(
    r"\s*(?:(?:less|more|fewer|greater|smaller)\s+than|times|of|plus|minus|if|when|unless|provided|assuming"
    r"|for\s+(?:\$|n\b|x\b|k\b|some|all|each|every|part))\b",
    re.IGNORECASE,
)


_EQUIVALENT_RE = re.compile(
    r"^(-?\d+(?:\.\d+)?)\s*\(\s*(?:i\.\s*e\.|that\s+is|namely)\s*,?\s*(?<!\\)\$[^$]*=[^$]*(?<!\\)\$\s*\)$",
    re.IGNORECASE,
)


_BRACKETED_REMARK_RE = re.compile(r"\s*\(([^()]{1,300})\)")
_ASSIGNED_NAME_RE = re.compile(r"^\s*[A-Za-z]\s*=\s*")
_BRACKETED_EQUAL_RE = re.compile(r"^([^()=]{1,80}?)\s*\(\s*=\s*([^()=]{1,80}?)\s*\)\.?$")
_SEMICOLON_LIST_RE = re.compile(r"-?\d+(?:\.\d+)?(?:[ \t]*;[ \t]*-?\d+(?:\.\d+)?)+")


# another language's `or` / `and` between values (a word of its own; CJK ones glue to what is around them)
_FOREIGN_OR_RE = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(w for w in FOREIGN_OR if w.isascii() or w[0] < "\u2e80") + r")(?![^\W\d_])"
    r"|" + "|".join(w for w in FOREIGN_OR if not w.isascii() and w[0] >= "\u2e80"),
    re.IGNORECASE,
)
_FOREIGN_AND_RE = re.compile(
    r"(?<![^\W\d_])(?:"
    + "|".join(w for w in FOREIGN_AND if w.isascii() or w[0] < "\u2e80")
    + r")(?![^\W\d_])"
    r"|" + "|".join(w for w in FOREIGN_AND if not w.isascii() and w[0] >= "\u2e80"),
    re.IGNORECASE,
)


def _english_connectives(text: str) -> str:
    """`text` with other languages' `or` / `and` written in English (`x = 3 или x = 5` -> `x = 3 or x = 5`), so
    a hedge or a list between values reads the same in every language."""
    text = _FOREIGN_AND_RE.sub(" and ", _FOREIGN_OR_RE.sub(" or ", text))
    # (a run of spaces is matched from its start only, once: from each of its spaces it was quadratic, 12 s for
    # 50,000 spaces in an answer line)
    return re.sub(r"(?<![ \t])[ \t]++(or|and)[ \t]+", r" \1 ", text)


_SCALED_RE = re.compile(r"^-?" + SCALED_NUMBER_PATTERN + r"\s*" + SCALES_PATTERN, re.IGNORECASE)


def _clean_phrase_answer(rest: str) -> str:
    first = _english_connectives(rest.split("\n", 1)[0].strip())
    # `**Answer:** Sam has **27** marbles left.`: a bold before a space closes the label's emphasis, it opens none
    first = re.sub(r"^(?:\*\*|__)(?=\s)", "", first).strip()
    if first.startswith("**") and "**" in first[2:]:  # `Answer: **6** (not 12)`: the bold is the answer
        first = first[2:].split("**", 1)[0]
    elif closed := re.match(
        r"^\**([^*]*?\S)\*\*(?=\s|$|[(.,;])", first
    ):  # `**Answer: 6** (not 12)`: bold closes it
        first = closed.group(1)
    elif (bold := _bold_in_words(first)) is not None:  # `Respuesta: hay **12** monedas de 5 céntimos.`
        first = bold
    rest = first.strip().strip("*").strip()
    # (`**Answer:** ~15`: outside math a leading tilde means `approximately`, as in `#### ~18`)
    rest = re.sub(r"^~[ \t]*(?=\d)", "approximately ", rest)
    cell = _CELL_END_RE.search(rest) if "$" not in rest else None
    # (a `}` closes a record only when it has no `{` of its own: `\\frac{1}{2}` ends in its own brace)
    if cell and not (cell.group().strip() == "}" and rest.count("{") >= rest.count("}")):
        rest = rest[: cell.start()]
    span = _MATH_SPAN_RE.search(rest)
    based = (
        _numeral_in_named_base(rest, span.end(), next(g for g in span.groups() if g is not None))
        if span and span.start() < 3
        else None
    )
    if based is not None:  # `$12$ in base 10`: the numeral of that base, `12_{10}`
        return based
    if span and span.start() < 3 and _SPAN_QUALIFIED_RE.match(rest[span.end() :]):
        return rest  # `$7$ less than $15$`, `$7$ if $n$ is odd`: the span is not stated as the answer
    if span and span.start() < 3:
        first = next(g for g in span.groups() if g is not None)
        more = alternatives_after(rest[span.end() :], first.strip())
        remark = _BRACKETED_REMARK_RE.match(rest[span.end() :])
        if not more and remark is not None and is_hedge(remark.group(1)):
            # `$x = 2$ (... the other candidate $x = -2$ may be the intended one)`: offered beside it
            more = [
                v
                for v in (g for m in _MATH_SPAN_RE.finditer(remark.group(1)) for g in m.groups() if g)
                if not same_value(_ASSIGNED_NAME_RE.sub("", v), _ASSIGNED_NAME_RE.sub("", first))
            ][:1]
        return ", ".join([first.strip(), *more]) if more else first
    rest = re.split(r"(?<!\d)(?<!\bi\.e)(?<!\be\.g)\.(?:\s|$)|\.\s+(?=[A-Z])", rest, maxsplit=1)[
        0
    ]  # not `i.e.`
    rest = _restated_in_words(rest.strip())  # `7 (seven)`: the number word in brackets restates it
    # `7 (not 8)`, `7 — not 8`: a bracket or a dash clause that denies another value leaves the answer as it is
    # (a later clause might not)
    rest = re.sub(
        r"^(-?\d+(?:\.\d+)?)\s*(?:\(\s*not\s+-?\d+(?:\.\d+)?\s*\)|[,;\u2014\u2013]\s*not\s+-?\d+(?:\.\d+)?)\.?$",
        r"\1",
        rest,
    )
    # `5 (i.e. $C_3 = \frac{1}{4}\binom{6}{3}$)`: a formula in brackets that says where the number comes from
    # restates it; a bare other value there (`5 (i.e. 6)`) is left in, so the answer reads as two values
    rest = _EQUIVALENT_RE.sub(r"\1", rest)
    # `½ (= 0.5)`: a bracketed `=` continues the value as a chain, whose links are then checked (`1/2 (= 0.6)` is false)
    rest = _BRACKETED_EQUAL_RE.sub(r"\1 = \2", rest)
    rest = prose_scale(rest.strip().rstrip(".\u3002").strip("*").strip())
    rest = SCALE_FIRST_RE.sub(r"\2 \1", rest)  # (Swahili `shilingi elfu 5` is `shilingi 5 elfu`)
    if _SEMICOLON_LIST_RE.fullmatch(rest):  # `Ответ: 5; 7`: a plain list of numbers, all of them the answer
        return re.sub(r"\s*;\s*", ", ", rest)
    number = re.match(r"-?[0-9A-Za-z]+(?=[ \t(])", rest)
    based = _numeral_in_named_base(rest, number.end(), number.group()) if number else None
    if based is not None:  # `12 in decimal`
        return based
    scaled = _SCALED_RE.match(rest)
    if (
        scaled is not None
    ):  # `۶۵ هزار تومان`, `3 Millionen Euro`: the number and its scale word, its unit aside
        return scaled.group()
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
            scale = _SCALE_AFTER_RE.match(rest, found[-1].end())  # (`shilingi 5 elfu`: 5,000)
            return numbers.pop() + (" " + scale.group(1) if scale is not None else "")
    return rest


# a bold run inside a line (`hay **12** monedas`): emphasis marks what the line states
_BOLD_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")


def _bold_in_words(line: str) -> str | None:
    """The one bold number of an answer line that opens with words (`hay **12** monedas de 5 céntimos`): the
    emphasis marks the answer among the line's numbers; None when the line bolds more or other than one number,
    a number comes before it (`7 (not **8**)`) or the words qualify it (`not **8**`, `about **12** coins`)."""
    bolds = list(_BOLD_RE.finditer(line))
    if len(bolds) != 1 or re.search(r"\d", line[: bolds[0].start()]):
        return None
    value = bolds[0].group(2).strip()
    # (a bold run may hold its count's label: `Sam has **21 nickels** (and 9 dimes)`)
    counted = re.fullmatch(r"(-?\d+(?:[.,]\d+)?)((?:[ \t]+[A-Za-z]+){1,2})", value)
    if counted is not None and counted_label(counted.group(2).split()):
        value = counted.group(1)
    if not re.fullmatch(r"-?\d+(?:[.,]\d+)?", value):
        return None
    plain = line[: bolds[0].start()] + bolds[0].group(2).strip() + line[bolds[0].end() :]  # emphasis dropped
    number = _NUMBER_RE.match(plain, bolds[0].start())
    return value if number is not None and _plain_number_in_prose(plain, number) else None


# a number followed by a word or two in brackets (`7 (seven)`, `21 (twenty-one)`)
_BRACKETED_WORDS_RE = re.compile(r"^(-?\d+)\s*[(\uff08]\s*([A-Za-z]+(?:[ -][A-Za-z]+)*)\s*[)\uff09]")


def _restated_in_words(rest: str) -> str:
    """`rest` without a bracket right after its leading number that names the same number in words (`7 (seven)`
    restates 7); a bracket naming another number (`7 (eight)`) or anything else is left in."""
    m = _BRACKETED_WORDS_RE.match(rest)
    if m is None or number_from_words(m.group(2), m.group(2).lower().replace("-", " ")) != m.group(1):
        return rest
    return m.group(1) + rest[m.end() :]


def _numeral_in_named_base(rest: str, end: int, value: str) -> str | None:
    """`value` (ending at rest[end]) as the numeral of the base the words after it name (`$12$ in base 10` ->
    `12_{10}`); the whole text if the value is no numeral (so no plain value); None when no base is named."""
    base = named_base(rest[end:])
    if base is None:
        return None
    value = value.strip()
    return f"{value}_{{{base[0]}}}" if re.fullmatch(r"[0-9A-Za-z]+", value) else rest


def _plain_number_in_prose(rest: str, number: re.Match[str]) -> bool:
    """Whether the one number of a prose answer is stated plainly: not qualified by the words around it
    (`at least 3`, `3 or more`, `3 times x`, `5 thousand`); what follows it may only name what it counts."""
    before = re.findall(r"[A-Za-z']+", rest[: number.start()])[-2:]
    # a word is a run of letters of any script (`16 studenti`, `30 élèves`, `10 км/ч`), not each letter alone
    after = re.findall(r"\\?(?:[^\W\d_]|')+|[^\s\w.,;:!?]|\d", rest[number.end() :])
    if after[:1] in (["("], ["["]):
        after = after[1:]  # `7 (in thousands)`: the words in brackets qualify it as well
    if any(w.lower() in QUALIFIERS_BEFORE for w in before) or [w.lower() for w in before] == ["to", "the"]:
        return False  # `at least 3`, `the square root of 7`, `negative 7`, `e to the 7`
    if _FOREIGN_QUALIFIER_RE.search(rest[max(0, number.start() - 12) : number.start()]):
        return False  # `Ответ: около 10`, `答：约 10 人`: qualified in another language
    if re.match(r"\s*(?:[*^/+\u00d7!]|-[A-Za-z])", rest[number.end() :]) or _REJECTED_MARK_RE.match(
        rest[number.end() :]
    ):
        return False  # `7 ** 2`, `7!`, `7-ish`, `7 ✗`
    if any(w.lower() in ("below", "under", "negative", "minus") for w in after[:4]):
        return False  # `7 degrees Celsius below zero`
    if _QUALIFIED_AFTER_RE.match(rest[number.end() :]):
        return False  # `答：30以上`, `30左右`, `답: 30 이상`: qualified in another language
    # (one letter after it is a variable, `3 x`, but a character of a script written without spaces is a word:
    # `30000 元`, `3 万`)
    return not after or (
        after[0].lower() not in VALUE_WORDS
        and (len(after[0]) > 1 or not after[0].isalpha() or _UNSPACED_SCRIPT_RE.match(after[0]) is not None)
    )


# words right after a number that bound or approximate it, in scripts written without spaces (CJK, Korean, Thai)
_QUALIFIED_AFTER_RE = re.compile(
    r"\s*(?:以上|以下|以内|未満|未满|左右|前後|前后|多|余|くらい|ぐらい|ほど|程度|近く|倍"
    r"|이상|이하|미만|초과|정도|쯤|가량|여|넘|เท่า|กว่า|ขึ้นไป)"
)
_UNSPACED_SCRIPT_RE = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


# a qualifier of another language right before a number (a word of its own in a spaced script; CJK ones glue)
_FOREIGN_QUALIFIER_RE = re.compile(
    r"(?:(?<![^\W\d_])(?:" + "|".join(q for q in FOREIGN_QUALIFIERS if q.isascii() or q[0] < "\u2e80") + r")"
    r"|" + "|".join(q for q in FOREIGN_QUALIFIERS if not q.isascii() and q[0] >= "\u2e80") + r")[ \t]*\Z",
    re.IGNORECASE,
)


_REJECTED_MARK_RE = re.compile(r"\s*[\u2717\u2718\u274c]")  # ✗ ✘ ❌ after a value: marked wrong


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


def clause_hedge(after: str, answer: str) -> str | None:
    """The answer and the numbers a clause of its own sentence offers beside it (`The answer is $12$, though I'd
    want to check whether it should be $13$.` -> `12, 13`), or None (a name offered, `depends on $p$`, is none)."""
    at = after.find(answer)
    if at < 0:
        return None
    tail = after[at + len(answer) :]
    end = re.search(r"(?<!\d)[.!?](?:\s|$)|\n", tail)
    clause = tail[: end.end() if end else len(tail)]
    if not re.match(r"[\s$*]*[,;\u2014\u2013]", clause):
        return None
    offered = screen(clause, answer)
    return _hedge(answer, offered) if any(re.search(r"\d", v) for v in offered.hedged) else None


def _hedge(answer: str, screened: Screened) -> str | None:
    """`answer` and the other values a later hedge offered, joined (a hedge is all its values), or None."""
    if screened.settled:
        return None
    others = [h for h in screened.hedged if not same_value(h, answer)]
    return ", ".join([answer, *others]) if others else None


_CONCLUSION_RE = re.compile(
    r"(?:^\s*|[.!?:\u3002]\s+|\n)(?:\*\*|__)?((?:(?i:"
    + "|".join(CONCLUSION_OPENERS_OTHER)
    + r")\b|(?:"
    + "|".join(CONCLUSION_OPENERS)
    + r")\b"
    r"|" + "|".join(CONCLUSION_OPENERS_GLUED) + r")"
    r"[^.!?;\n\u3002\uff1b]*(?:\.\d[^.!?;\n\u3002\uff1b]*)*)"  # to `;`: "8; each row has 7"
)


# a concluding sentence that evaluates one expression: its only `=` and one value after it, plain or a vulgar
# fraction (`So cos(2π/3) = −½`, `So 12 - 5 = 7`); two `=` are a list or alternatives (`x = 3 or x = 5`)
_EVALUATED_RE = re.compile(r"^[^=]+=\s*(-?(?:\d*[\u00bc-\u00be\u2150-\u215e]|\d+(?:\.\d+)?(?:/\d+)?))\s*$")


# a concluding sentence that ends by stating its value after a copula, no clause subordinated before it
# (`... the sum of the first 20 odd numbers is 400.`, not `... 3 cases where x is 5.`)
_COPULA_FINAL_RE = re.compile(
    r"\b(?:is|are|equals|was)\s*(?:\*\*|__)?\$?(-?\d+(?:\.\d+)?)\$?(?:\*\*|__)?(?:\s+[^\W\d_]+){0,2}\s*$"
)
_SUBORDINATE_CLAUSE_RE = re.compile(
    r"\b(?:where|when|whenever|if|which|that|whose|while|unless|because|since|after|before|so|then)\b|[,;:(]",
    re.IGNORECASE,
)


def _concluding_number(after: str) -> str | None:
    """The one number of a concluding sentence ("Therefore, there are 12 ...") after the last formula."""
    found = list(_CONCLUSION_RE.finditer(_BOILERPLATE_RE.sub(" ", after)))
    if not found:
        return None
    sentence = found[-1].group(1)
    kept = [m for m in _NUMBER_RE.finditer(sentence) if not rejected_after(sentence[m.end() :])]
    pairs = [p for p in bracketed_values(sentence) if any(p[0] <= m.start() < p[1] for m in kept)]
    if pairs:  # `So the domain is (3, ∞).`: the pair is the value, never its endpoint alone
        whole = len(pairs) == 1 and all(pairs[0][0] <= m.start() < pairs[0][1] for m in kept)
        return sentence[pairs[0][0] : pairs[0][1]] if whole else None
    numbers = {m.group().strip().rstrip(",") for m in kept}  # "Hence n = 7 does not work." concludes nothing
    evaluated = _EVALUATED_RE.search(sentence)
    if evaluated is not None and len(numbers) != 1:  # `So cos(2π/3) = −½.`: `=` evaluates its left side
        return evaluated.group(1)
    final = _COPULA_FINAL_RE.search(sentence) if len(numbers) > 1 else None
    opener_end = re.match(r"\W*\w+\s*,?", sentence).end()  # type: ignore[union-attr]  # (`Therefore,`)
    if final is not None and not _SUBORDINATE_CLAUSE_RE.search(sentence, opener_end, final.start()):
        return final.group(
            1
        )  # `Therefore, the sum of the first 20 odd numbers is 400.`: the copula states it
    if len(numbers) != 1 or in_expression(sentence, kept[-1].start(), kept[-1].end()):  # `So x > 3.`
        return None
    spans = [(m.start(), m.end()) for m in _NUMBER_RE.finditer(sentence)]
    if guess_contested(sentence, kept[-1].start(), kept[-1].end(), spans):
        return None
    scale = _SCALE_AFTER_RE.match(sentence, kept[-1].end())  # `Vậy ... là **15 triệu** đồng.`: 15 million
    return numbers.pop() + (" " + scale.group(1) if scale is not None else "")


_SCALE_AFTER_RE = re.compile(r"[ \t]*(" + SCALES_PATTERN + ")", re.IGNORECASE)
