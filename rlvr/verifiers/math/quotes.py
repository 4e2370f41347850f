"""Quotations, quoted lines, footnotes and collapsed sections: words that may not be the reply's own.

A quotation that states an answer in words (`I found this on a forum: "the answer is \\boxed{120}"`) is someone
else's statement and is removed; quote marks around a value (`The answer is "15".`) only set it off. Quoted lines
(`> ...`), footnotes (`[^1]: ...`) and collapsed sections (`<details>...</details>`) are someone else's words, an
aside or an old attempt: they are removed when the rest of the reply commits to an answer of its own (a box or an
answer phrase), and kept otherwise, so an answer written only inside a quote is never replaced by a draft value
outside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rlvr.verifiers.math.withdrawal import withdraws

# a footnote's definition line, its text in group `note`
_FOOTNOTE = r"^[ \t]*\[\^[^\]\n]+\]:[ \t]*(?P<note>[^\n]*)"
_ASIDE_MARKUP_RE = re.compile(
    r"<details\b[^>]*>.*?(?:</details\s*>|\Z)"  # a collapsed section: shown only on request
    r"|" + _FOOTNOTE + r"(?:\n[ \t]+\S[^\n]*)*"  # a footnote and its indented continuation lines
    r"|\[\^[^\]\n]+\]"  # a footnote mark
    r"|^[ \t]*>[^\n]*",  # a quoted line
    re.S | re.M | re.IGNORECASE,
)


# a quotation inside a paragraph: curly, guillemet, low-high, corner or TeX quotes, or straight ones that open
# after no word and close before none (`5" by 3"` are inches)
_QUOTATION_RE = re.compile(
    r"\u201c([^\u201c\u201d\n]{1,600})\u201d|\u00ab([^\u00ab\u00bb\n]{1,600})\u00bb"
    r"|\u201e([^\u201e\u201c\u201d\n]{1,600})[\u201c\u201d]|\u300c([^\u300c\u300d\n]{1,600})\u300d"
    r"|``([^`'\n]{1,600})''|(?<![\w\"\\])\"(?=\S)([^\"\n]{1,600})(?<=\S)\"(?![\w\"])"
)
_QUOTED_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_QUOTED_VALUE_RE = re.compile(r"\d|\\boxed|\\fbox|\$")  # a quoted statement of an answer states a value


def _quoted_statements_removed(text: str, commits: Callable[[str], bool]) -> str:
    """`text` without each quotation that states an answer in words (`"the answer is \\boxed{120}"`): quoted
    words are someone else's (a forum, an answer key, a format instruction), not the reply's own statement. A
    quoted value alone (`The answer is "15".`) is unquoted: the reply's own words around it state it."""

    def blank(m: re.Match[str]) -> str:
        inner = next(g for g in m.groups() if g is not None)
        words = _QUOTED_WORD_RE.search(re.sub(r"\$[^$]*\$|\\[a-zA-Z]+", " ", inner))
        if words is None:
            return inner  # `The answer is "15".`: quote marks around a value only set it off
        return " " if _QUOTED_VALUE_RE.search(inner) and commits(inner) else m.group()

    return _QUOTATION_RE.sub(blank, text)


# a collapsed section titled as the answer (`<summary>Click for the answer key</summary>`) whose body is one short
# line: the reply's answer shown on request, not an aside
_ANSWER_SECTION_RE = re.compile(
    r"<details\b[^>]*>\s*<summary\b[^>]*>(?P<title>[^<]{0,80})</summary\s*>(?P<body>[^<]{0,120})</details\s*>",
    re.IGNORECASE,
)
_ANSWER_TITLE_RE = re.compile(r"\b(?:answers?|solution|result)\b", re.IGNORECASE)
_ANSWER_LABEL_RE = re.compile(
    r"^(?:the\s+)?(?:final\s+)?(?:answer(?:\s+key)?|solution|result)\s*[:=\-]\s*", re.I
)


_DETAILS_RE = re.compile(
    r"<details\b[^>]*>\s*(?:<summary\b[^>]*>[^<]{0,80}</summary\s*>)?(?P<body>(?:(?!<details\b).)*?)</details\s*>",
    re.S | re.I,
)


def _withdrawing_details_inline(m: re.Match[str]) -> str:
    """A collapsed section whose first sentence withdraws (`<summary>Self-review</summary> Result above is
    invalid — ...`) as plain text: the reply's own word on its answer, as a withdrawing footnote is."""
    first = _NOTE_SENTENCE_RE.match(m.group("body").strip())
    return (
        "\n\n" + m.group("body").strip() + "\n\n"
        if first is not None and withdraws(first.group())
        else m.group()
    )


def _answer_section_shown(m: re.Match[str]) -> str:
    """An answer-titled collapsed section of one line as the answer line it shows (`Answer: 2`)."""
    body = m.group("body").strip()
    if not _ANSWER_TITLE_RE.search(m.group("title")) or not body or "\n" in body:
        return m.group()
    # (worded as a statement, not as a closing answer line: beside a box it is a second answer, it overrides none)
    return "\n\nIn the collapsed section, the answer is " + _ANSWER_LABEL_RE.sub("", body) + "\n\n"


def asides_removed(text: str, commits: Callable[[str], bool]) -> str:
    """`text` without quotations that state an answer (always), and without quoted lines, footnotes and
    `<details>` sections when what is left `commits` to an answer of its own; else with those unchanged (the
    answer may be in the quote: nothing is guessed). A `<details>` section titled as the answer, of one line, is
    the reply's answer stated (`<summary>Answer key</summary>2` states 2 beside any box: two values, no answer)."""
    if (
        "</details" in text
    ):  # (a section that never closes is an aside as before; 20,000 open ones stay linear)
        text = _ANSWER_SECTION_RE.sub(_answer_section_shown, text)
        text = _DETAILS_RE.sub(_withdrawing_details_inline, text)
    text = _quoted_statements_removed(text, commits)
    if ">" not in text and "[^" not in text and not _SIGNED_DEF_RE.search(text):
        return text
    text = _answer_notes_inlined(text)
    text = _FOOTNOTE_RE.sub(_withdrawing_note_inline, text)
    text = _QUOTED_LINE_RE.sub(_withdrawing_note_inline, text)
    rest = _ASIDE_MARKUP_RE.sub(" ", text)
    attributed = _ATTRIBUTED_QUOTE_RE.search(text) or _attributed_before(text)
    if rest != text and (commits(rest) or attributed):
        return rest  # (a quoted answer someone else gave, `> **Accepted answer:** ...`, is not the reply's)
    return text


_FOOTNOTE_RE = re.compile(_FOOTNOTE, re.M)
# a quoted line that names whose answer it is: another's (`> **Accepted answer** (★ 312): ...`, `> Answer key: ...`)
_ATTRIBUTED_QUOTE_RE = re.compile(
    r"^[ \t]*>[ \t*_]*(?:(?:the\s+)?(?:accepted|top|best|reference|official|expected|textbook|community|forum"
    r"|suggested|sample|model|teacher'?s|book'?s|someone'?s|another)\s+(?:answer|solution|response)s?|answer\s+key"
    r"|according\s+to)\b",
    re.IGNORECASE | re.MULTILINE,
)
# a quote block that the line before it gives to someone (`My tutor's worked solution ends with:`, `Bob wrote:`)
_ATTRIBUTED_BEFORE_RE = re.compile(
    r"(?:\b\w+'s\s+(?:[a-z]+\s+){0,2}(?:solution|answer|work|reply|response|notes?|post)\b"
    r"|\b(?:says|said|wrote|writes|claims|claimed|ends\s+with|gave|replied|posted|suggests|suggested)\b)"
    r"[^\n]*:[ \t*_]*\Z",
    re.IGNORECASE,
)
# where a quote block opens after a line that is not quoted (`...:\n\n> ...`)
_QUOTE_OPENS_RE = re.compile(r"^(?P<lead>[^\n>]{1,300})\n(?:[ \t]*\n)?[ \t]*>", re.MULTILINE)


def _attributed_before(text: str) -> bool:
    """Whether a quote block opens after a line that gives it to someone (`My tutor's solution ends with:`): each
    line before a quote is read once, at most 300 characters of it (linear in the reply)."""
    return any(_ATTRIBUTED_BEFORE_RE.search(m.group("lead")) for m in _QUOTE_OPENS_RE.finditer(text))


# a quoted line after the marker and a GitHub admonition's tag (`> [!CAUTION]`): a callout in the reply's own
# voice, as a footnote is, when its first sentence withdraws (`> This result is invalid: ...`)
_QUOTED_LINE_RE = re.compile(r"^[ \t]*>[ \t]*(?:\[![A-Za-z]+\][ \t]*)?(?P<note>[^\n]*)", re.M)
_NOTE_SENTENCE_RE = re.compile(r"[^.!?\n]*[.!?]?")


def _withdrawing_note_inline(m: re.Match[str]) -> str:
    """A footnote or quoted line whose first sentence withdraws (`[^1]: This is wrong — ...`) as plain text: a
    note that disowns the answer it marks is the reply's own word on it, not an aside."""
    first = _NOTE_SENTENCE_RE.match(m.group("note"))
    return m.group("note") if first is not None and withdraws(first.group()) else m.group()


# a footnote's definition with its mark as a group, and a mark right after a box (`$\\boxed{7}$.[^1]`)
_MARKED_DEF_RE = re.compile(r"^[ \t]*\[\^(?P<mark>[^\]\n]{1,20})\]:[ \t]*(?P<note>[^\n]{0,600})$", re.M)
# a note that opens on another reading (`If the endpoints are excluded, 5.`), not one that explains the working
_READING_NOTE_RE = re.compile(
    r"\s*(?:if|when|otherwise|alternatively|else|unless|or|excluding|including|si|wenn|falls|sonst|если|иначе"
    r"|如果|若|否则)(?!\w)"
    # (or a value under a condition: `‡ 100 if you include the usual breakage allowance.`)
    r"|\s*\$?-?\d[\d.,]*\$?(?:\s+[^\W\d_]+){0,2}\s+(?:if|when|unless|with|counting|including)\b",
    re.I,
)
_DECLINED_RE = re.compile(r"\b(?:but|however|whereas)\b|;\s*here\b", re.I)
# a note that calls the question's reading open (`(*) Some textbooks ..., which would give 24 — it's ambiguous.`)
_AMBIGUOUS_RE = re.compile(r"\b(?:ambiguous|unclear|depending\s+on|depends\s+on)\b", re.I)
# a mark right after a box: a markdown footnote's (`$\\boxed{7}$.[^1]`) or a sign (`\\boxed{13}†`, `¹`, `(*)`)
_MARK_AFTER_BOX_RE = re.compile(
    r"\}[ \t$.*]{0,6}(?:[^\W\d_]{1,12}[ \t.]{0,3})?"  # (a unit between: `$\\boxed{96}$ tiles.[^1]`)
    r"(?:\[\^(?P<mark>[^\]\n]{1,20})\](?!:)|(?P<sign>[\u2020\u2021\u00b9\u00b2\u00b3]|\(\*\)))"
)
# a note line that the same sign opens (`† or 11, if ...`, `¹ Excluding the endpoints gives 11.`, `(*) Some ...`)
_SIGNED_DEF_RE = re.compile(
    r"^[ \t]*(?P<mark>[\u2020\u2021\u00b9\u00b2\u00b3]|\(\*\))[ \t]*(?P<note>[^\n]{1,600})$", re.M
)


def _answer_notes_inlined(text: str) -> str:
    """`text` with each note marked on a box that offers another reading written in place as `\\footnote{...}`
    (its definition line removed): a note on the answer (`[^1]: If the endpoints are excluded, 5.`, `† or 11, if
    ...`) is the reply's word on it, read as `\\footnote` is, not an aside dropped unread."""
    marks = (
        {m.group("mark") or m.group("sign"): m for m in _MARK_AFTER_BOX_RE.finditer(text)}
        if "}" in text
        else {}
    )
    defs = [*_MARKED_DEF_RE.finditer(text), *_SIGNED_DEF_RE.finditer(text)] if marks else []
    edits = []
    for d in defs:
        m = marks.get(d.group("mark"))
        opens = _READING_NOTE_RE.match(d.group("note")) or _AMBIGUOUS_RE.search(d.group("note"))
        # (a note that opens a reading and turns it down answers nothing else: `If the border were included it
        # would be 120, but the problem excludes it.`, `100 if no spare were needed; here it is needed.`)
        reading = opens is not None and _DECLINED_RE.search(d.group("note")) is None
        if m is not None and d.start() > m.end() and reading:
            del marks[d.group("mark")]
            at = m.start("mark") - 2 if m.group("mark") else m.start("sign")
            end = m.end("mark") + 1 if m.group("mark") else m.end("sign")
            edits += [(d.start(), d.end(), ""), (at, end, "\\footnote{" + d.group("note") + "}")]
    for start, end, replacement in sorted(edits, reverse=True):  # (from the end: the offsets before hold)
        text = text[:start] + replacement + text[end:]
    return text
