"""Answer cards: fields after the answer that judge it or state it again.

A reply may close with a record of its answer: a table (`| answer | 5/12 |`, `| **Final answer** | **625/1296**
| ✅ |`), YAML or JSON fields (`answer: 30`, `verified: false`, `"status": "rejected"`), a status line (`Audit: ❌
failed`, `校验结果：失败`). Such a card is the reply's own word on its answer, read by field, not by wording: a
status field that rejects the answer (`status | ❌ rejected by self-check`, `verified: false`, `sanity: ❎`)
withdraws it, as a sentence saying it is wrong would; an answer field with another value is a second final answer.
A card before the answer, or one that does not name its fields, is left to the other rules.

A row is read the same whatever it is written in: its markup is dropped and its cells split at `|`, at HTML tags
(`<tr><td>Answer</td><td><b>142</b></td></tr>`, `<dt>Answer</dt><dd>42</dd>`) and at LaTeX's `&` (`Answer & 42
\\\\`), so a new table syntax needs no new rule: the first cell is the key, the second its value. A row states the
answer when its key is an answer label of any language or the name the reply gave its answer by (`So the
probability is $\\frac{8}{15}$.`, then `| **Probability** | **7/15** |`: the same quantity, another value).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rlvr.verifiers.math.phrase_words import (
    ANSWER_LABELS,
    ANSWER_LABELS_GLUED,
    CHECK_LABELS,
    CHECK_LABELS_GLUED,
)
from rlvr.verifiers.math.polarity import other_language_wrong
from rlvr.verifiers.math.withdrawal import FAILURE_MARKS

_REACH = (
    2000  # (the card right after the answer and the reply's close: this many characters of each are read)
)

# markup that separates cells: an HTML tag, LaTeX's column `&` (not an entity's `&amp;`), a row's `\\\\`
_CELL_BREAK_RE = re.compile(r"<[^<>\n]{0,60}>|&(?!#?\w{1,8};)|\\\\(?:\[[^\]\n]{0,8}\])?|\\hline\b")
_WRAPPER_RE = re.compile(r"\\(?:textbf|mathbf|emph|textit|text|mathrm|boldsymbol)\s*\{([^{}\n]*)\}")
_MARKUP_RE = re.compile(r"\*\*|__|[`$]|\\[()]")
# `key: value` on its own line (YAML, a bullet, a label; full-width colon too): a key of letters of any script
_KEY_VALUE_RE = re.compile(
    r"^[ \t>*\-]*(?:\*\*|__)?[\"']?(?P<k>[^\W\d_][^:\uff1a\n|]{0,40}?)[\"']?[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a]"
    r"(?!//)[ \t]*(?P<v>[^\n]{1,160}?)[ \t]*,?$",
    re.MULTILINE,
)
# `key = literal` on its own line (TOML, INI: `verified = false`, `self_check = "FAIL"`, `answer=45`): an identifier
# for a key and a literal for a value, so that an equation (`A = 35 + 10`) is no field
_ASSIGNED_FIELD_RE = re.compile(
    r"^[ \t]*(?P<k>[A-Za-z_][\w\-]{0,30})[ \t]*=[ \t]*(?P<v>\"[^\"\n]{0,40}\"|'[^'\n]{0,40}'|[\w.\-/]{1,40})[ \t]*$"
)
# the members of a JSON object written on one line (`{"answer": "5/2", "is_correct": false}`)
_INLINE_MEMBER_RE = re.compile(
    r"[{,][ \t]*\"(?P<k>[A-Za-z][\w \-]{0,30})\"[ \t]*:[ \t]*(?P<v>\"[^\"\n]{0,80}\"|[^,}\n]{1,40})"
)

_ANSWER_KEY_RE = re.compile(
    r"(?:(?:final|correct|the)\s+)?(?:answer|result|value|final|final\s+(?:result|value|count|total))"
    r"|" + "|".join(ANSWER_LABELS) + "|" + "|".join(ANSWER_LABELS_GLUED),
    re.IGNORECASE,
)
# a key that reports a check of the answer, in any language (`Audit`, `sanity`, `Estado de la verificación`,
# `Статус проверки`, `校验结果`)
_STATUS_KEY_RE = re.compile(
    r"\b(?:status|verified|verdict|valid|validated|check(?:ed)?|self[- ]?(?:check|review|assessment|evaluation)"
    r"|correct|is\s+correct|confirmed|review|verification|consistent|passed|ok|audit|sanity|outcome|assessment"
    r"|approved|evaluation|grade|answer[\s_-]?ok|answer[\s_-]?status|estado|statut|statu|durum|stav|stan|tila|\u00e1llapot|tarkistuksen|tr\u1ea1ng\s+th\u00e1i|\u0441\u0442\u0430\u0442\u0443\u0441"
    r"|" + "|".join(CHECK_LABELS) + r")\b"
    r"|\u6821\u9a8c|\u6838\u5bf9|\u72b6\u6001|\u72b6\u614b|\u7d50\u679c|\u7ed3\u679c|\u5224\u5b9a|\u5224\u65ad|\u8a55\u4fa1|\uacb0\uacfc|\ud310\uc815|"
    + "|".join(CHECK_LABELS_GLUED),
    re.IGNORECASE,
)
_REJECTING_RE = re.compile(
    r"^(?:false|no|n|0|nope|ng|f|inconsistent)$|^f\s+\(|^[45]\d\d\s+[A-Z]|^\u00d7|\u30d0\u30c4|\uc624\ub2f5|\ud2c0\ub9bc|\uc2e4\ud328|^0(?:\.0+)?\s*(?:/|out\s+of)\s*\d+$|^\\(?:texttimes|times|xmark)\b|\bmismatch(?:ed)?\b|\b(?:rejected|invalid|fail(?:s|ed|ing)?|wrong|incorrect|superseded|retracted"
    r"|withdrawn|refuted|disproved|not\s+(?:verified|valid|correct|passed|ok|approved)|does\s+not\s+hold"
    r"|doesn't\s+hold|\u043d\u0435\s+\u043f\u0440\u043e\u0439\u0434\u0435\u043d\w*|fallid[oa]|[ée]chou[ée]e?"
    r"|fehlgeschlagen|nicht\s+bestanden|reprovad[oa]|nieudan\w*|ba\u015far\u0131s\u0131z)\b"
    r"|\bsikertelen\b|\bhyl\u00e4tty\b|\bep\u00e4onnistui\b|\u5931\u8d25|\u5931\u6557|\u4e0d\u901a\u8fc7|\u4e0d\u5408\u683c|["
    + FAILURE_MARKS
    + "\U0001f534\U0001f7e5]",  # (and a red light or square: `Status: 🔴`)
    re.IGNORECASE,
)


_SEMICOLON_ROW_RE = re.compile(r"[ \t]*[^\W\d_][\w \-]{0,30};[^;\n]{1,60}")


def _cells(line: str) -> list[str]:
    """The cells of a table row in any syntax, markup dropped (`<tr><td><b>Answer</b></td>...` -> [Answer, ...])."""
    split = _CELL_BREAK_RE.sub("|", line) if "|" not in line else line
    split = split.replace("\t", "|")  # (a tab-separated card: `answer\t48`)
    if "|" not in split and _SEMICOLON_ROW_RE.fullmatch(split):
        split = split.replace(";", "|")  # (`Answer;45`: a row of a semicolon-separated card)
    return [c for c in (_unmarked(cell) for cell in split.split("|")) if c]


def _unmarked(cell: str) -> str:
    """A cell or a value without its emphasis and math delimiters (`**$\\textbf{142}$**` -> `142`)."""
    return _MARKUP_RE.sub("", _WRAPPER_RE.sub(r"\1", cell)).strip(" \t*_\"'")


def _key(raw: str) -> str:
    return " ".join(_unmarked(raw).strip("?").lower().replace("_", " ").split())


_TRAILING_FIELD_RE = re.compile(
    r"(?:[.!?]\s+|[\u3002\uff01\uff1f]\s*)(?P<k>[^\W\d_][^\W\d_ ]{0,15})[ \t]*[:\uff1a][ \t]*(?P<v>[^\s:\uff1a]{1,20})[ \t]*$"
)


# an XML record: an element's attributes (`<answer value="35" valid="false"/>`) and an element holding a short
# value (`<self_check>inconsistent</self_check>`) are fields named by the attribute and by the element
_XML_VALUE = r"(?:\"[^\"<>\n]{0,60}\"|'[^'<>\n]{0,60}'|[^\s\"'<>/=]{1,60})"
_XML_TAG_RE = re.compile(
    r"<[A-Za-z][\w\-:]{0,30}((?:\s+[A-Za-z][\w\-:]{0,30}\s*=\s*" + _XML_VALUE + r")+)\s*/?>"
)
_XML_ATTRIBUTE_RE = re.compile(r"([A-Za-z][\w\-:]{0,30})\s*=\s*(" + _XML_VALUE + ")")
_OTHER_VALUE_TAG_RE = re.compile(r"(?i:alt|alternative|candidate|option|distractor|rejected|wrong)\b")
_XML_ELEMENT_RE = re.compile(r"<([A-Za-z][\w\-]{0,30})>[ \t]*([^<>\n]{1,60}?)[ \t]*</\1>")


def _xml_fields(tail: str) -> list[tuple[str, str, int, int, bool]]:
    """(key, value, start, end, False) of the XML attributes and short elements in `tail` (see above)."""
    found = []
    for tag in _XML_TAG_RE.finditer(tail):
        if _OTHER_VALUE_TAG_RE.match(tail, tag.start() + 1):
            continue  # (`<alternative value="41" valid="false"/>` judges the alternative, not the answer)
        for a in _XML_ATTRIBUTE_RE.finditer(tail, tag.start(1), tag.end(1)):
            found.append((_key(a.group(1)), a.group(2).strip("\"' "), a.start(2), a.end(2), False))
    for e in _XML_ELEMENT_RE.finditer(tail):
        found.append((_key(e.group(1)), _unmarked(e.group(2)), e.start(2), e.end(2), False))
    return found


def _fields(tail: str) -> list[tuple[str, str, int, int, bool]]:
    """(key, value, start, end, in a table) of the card fields in `tail`: table rows of any syntax, `key: value`
    lines, one-line JSON members and XML records; keys lower-cased and unmarked (`**Final answer**` is `final
    answer`)."""
    found = _xml_fields(tail) if "<" in tail else []
    for m in _INLINE_MEMBER_RE.finditer(tail) if "{" in tail else ():
        found.append(
            (_key(m.group("k")), m.group("v").strip().strip('"').strip(), m.start("v"), m.end("v"), False)
        )
    tabled = "|" in tail or "<" in tail or "&" in tail or "\t" in tail or ";" in tail
    # (an HTML row or definition ends a field: `<dt>Total</dt><dd>8</dd><dt>Answer</dt><dd>42</dd>` holds two)
    for line in re.finditer(
        r"[^\n]*?</(?:tr|dd)>|[^\n]+", tail
    ):  # (a window is bounded: a long log is read at its two ends)
        text = line.group()
        cells = _cells(text) if tabled and any(c in text for c in "|<&\t;") else []
        if len(cells) >= 2:
            at = text.rfind(cells[1])
            start = line.start() + (at if at >= 0 else 0)
            found.append((_key(cells[0]), cells[1], start, start + len(cells[1]), True))
            continue
        field = _KEY_VALUE_RE.match(text) or _ASSIGNED_FIELD_RE.match(text)
        if field is not None:
            value = _unmarked(field.group("v")).strip("\"'")
            # (a field closing the line after a sentence: `Check: ... = 3. 判定：NG`)
            trailing = _TRAILING_FIELD_RE.search(value)
            if trailing is not None:
                at = line.start() + field.start("v") + field.group("v").rfind(trailing.group("v"))
                found.append(
                    (_key(trailing.group("k")), trailing.group("v"), at, at + len(trailing.group("v")), False)
                )
            found.append(
                (
                    _key(field.group("k")),
                    value,
                    line.start() + field.start("v"),
                    line.start() + field.end("v"),
                    False,
                )
            )
    return found


def _windows(text: str, answer_end: int) -> list[tuple[int, str]]:
    """(offset, text) of what is read after the answer: the card right after it, and the reply's close (a long
    log after a card does not hide it)."""
    head = text[answer_end : answer_end + _REACH]
    tail_start = max(answer_end + len(head), len(text) - _REACH)
    return [(answer_end, head)] + ([(tail_start, text[tail_start:])] if tail_start < len(text) else [])


def _rejects(value: str) -> bool:
    """Whether a status value opens with a verdict against the answer (`❌ rejected`, `false`, `incorrecto`, `失败`):
    a record's field is terse (`Check: x = 2 fails, x = 5 works` is a sentence about two values, not a verdict)."""
    return bool(_REJECTING_RE.match(value) or other_language_wrong(value[:24]))


_MARKED_VALUE_RE = re.compile(
    r"[^\s" + FAILURE_MARKS + r"]{1,30}[ \t]*[" + FAILURE_MARKS + r"\U0001f534\U0001f7e5]"
)


def card_rejects(text: str, answer_end: int) -> bool:
    """Whether a card after the answer (which ends at `answer_end`) has a status field that rejects it; one line
    alone is such a card (`Audit: ❌ failed — ...`, `校验结果：失败`)."""
    fields = [f for _, window in _windows(text, answer_end) for f in _fields(window)]
    # (a key that names a value checks that candidate, not the answer: `Check x = -3: ✗ (extraneous)`; the answer's
    # row in a table of statuses judges it: `| Step | Status |` ... `| Final answer | ✘ fails |`)
    # (an answer field whose value a failure mark follows is judged where it stands: `Answer: 35 🔴 (failed)`)
    return any(
        (
            (_STATUS_KEY_RE.search(k) or (table and _ANSWER_KEY_RE.fullmatch(k)))
            and not re.search(r"\d", k)
            and _rejects(v)
        )
        or (_ANSWER_KEY_RE.fullmatch(k) and _MARKED_VALUE_RE.match(v))
        for k, v, _, _, table in fields
    )


# a value a row states: a number, `a/b`, or a LaTeX fraction (`\\tfrac{13}{51}`), with a degree or percent sign
_TABLE_ANSWER_RE = re.compile(
    r"^-?(?:\d+(?:\.\d+)?(?:/\d+)?|\\[dt]?frac\{\d+\}\{\d+\})[ \t]*(?:\^\{?\\circ\}?|\u00b0|\\?%)?$"
)
_UNIT_SIGN_RE = re.compile(r"(?:\^\{?\\circ\}?|\u00b0|\\?%)$")
_FRACTION_RE = re.compile(r"^(-?)(?:(\d+)/(\d+)|\\[dt]?frac\{(\d+)\}\{(\d+)\})$")


def _number(value: str) -> tuple[Fraction, int | None] | None:
    """A plain value as an exact number and its count of decimals (None for a fraction), or None."""
    value = _UNIT_SIGN_RE.sub("", value.replace(" ", ""))
    if re.fullmatch(r"-?\d+(?:\.\d+)?", value):
        return Fraction(value), len(value.split(".")[1]) if "." in value else 0
    m = _FRACTION_RE.match(value)
    if m is None or int(m.group(3) or m.group(5)) == 0:
        return None
    sign = -1 if m.group(1) else 1
    return sign * Fraction(int(m.group(2) or m.group(4)), int(m.group(3) or m.group(5))), None


def _rounds_to(a: str, b: str) -> bool:
    """Whether two plain values are one number, or one a decimal rounding of the other (`0.375` of `3/8`)."""
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return False
    digits = [d for d in (x[1], y[1]) if d is not None]
    if not digits:
        return x[0] == y[0]
    return abs(x[0] - y[0]) <= Fraction(1, 2 * 10 ** min(digits))


def _named_answer(before: str, key: str, answer: str, same: Callable[[str, str], bool]) -> bool:
    """Whether the text before the answer named it by `key` (`So the probability is $\\frac{8}{15}$.`)."""
    if not 3 <= len(key) <= 40:
        return False
    for m in re.finditer(r"(?<!\w)" + re.escape(key) + r"\s*(?:is|=|:|equals)\s*", before):
        stated = re.match(
            r"[*\s]*(?:\\boxed\{)?(-?\\[dt]?frac\{\d+\}\{\d+\}|-?\d+(?:\.\d+)?(?:/\d+)?)", before[m.end() :]
        )
        if stated is not None and same(stated.group(1), answer):
            return True
    return False


def card_answers(
    text: str, answer_end: int, answer: str | None = None, same: Callable[[str, str], bool] | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, value) of the fields after the answer that state another answer (`| Final answer | 1/2 |`, or a
    row keyed by the name the reply gave `answer` by); a value equal to `answer` or a rounding of it is left out."""
    # (the text before is read as keys are, so a key in LaTeX matches its formula: `$A_{\\text{frame}} = \\boxed{32}$`)
    before = " ".join(
        _unmarked(text[max(0, answer_end - _REACH) : answer_end]).lower().replace("_", " ").split()
    )
    out = []
    for offset, window in _windows(text, answer_end):
        for key, value, a, b, table in _fields(window):
            if not _TABLE_ANSWER_RE.match(value):
                continue
            answering = bool(_ANSWER_KEY_RE.fullmatch(key))
            named = (
                table and answer is not None and same is not None and _named_answer(before, key, answer, same)
            )
            if not (answering or named) or (answer is not None and _rounds_to(value, answer)):
                continue
            # (`625/1296` is compared as the fraction a box writes: `\\frac{625}{1296}`)
            fraction = re.sub(r"^(-?)(\d+)/(\d+)$", r"\1\\frac{\2}{\3}", value)
            out.append((offset + a, offset + b, fraction))
    return out
