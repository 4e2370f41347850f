"""Answer cards: fields after the answer that judge it or state it again.

A reply may close with a record of its answer: a markdown table (`| answer | 5/12 |`, `| **Final answer** |
**625/1296** |`), YAML or JSON fields (`answer: 30`, `verified: false`, `"status": "rejected"`). Such a card is
the reply's own word on its answer, read by field, not by wording: a status field that rejects the answer
(`status | ❌ rejected by self-check`, `verified: false`, `valid: no`) withdraws it, as a sentence saying it is
wrong would; an answer field with another value is a second final answer. A card before the answer, or one that
does not name its fields, is left to the other rules.
"""

from __future__ import annotations

import re

# one field per line: a table row of two cells, or `key: value` (YAML, a bullet, a JSON member)
_FIELD_RE = re.compile(
    r"^[ \t]*(?:\|[ \t]*(?P<tk>[^|\n]{1,40}?)[ \t]*\|[ \t]*(?P<tv>[^|\n]{1,160}?)[ \t]*\|[ \t]*"
    r"|(?:[-*][ \t]+)?[\"']?(?P<yk>[A-Za-z][\w \-]{0,30}?)[\"']?[ \t]*:[ \t]*(?P<yv>[^\n]{1,160}?)[ \t]*,?)$",
    re.MULTILINE,
)
_STATUS_KEYS = frozenset(
    {"status", "verified", "verdict", "valid", "check", "self check", "self-check", "correct", "is correct",
     "validated", "confirmed", "review", "self review", "self-review", "verification", "answer check",
     "consistent", "consistent with check", "is valid", "is verified", "passed", "ok"}
)  # fmt: skip
_ANSWER_KEYS = frozenset(
    {"answer", "final answer", "final", "final_answer", "result", "final result", "final value", "value"}
)
_REJECTING_RE = re.compile(
    r"^(?:false|no|n|0|nope)$|\b(?:rejected|invalid|fail(?:s|ed)?|wrong|incorrect|superseded|retracted|withdrawn"
    r"|not\s+(?:verified|valid|correct)|does\s+not\s+hold|doesn't\s+hold)\b|[\u274c\u2717\u2718\u2716\u26d4\U0001f6ab]",
    re.IGNORECASE,
)
_REACH = 2000  # (a card closes the reply: only its last characters are read)
# the members of a JSON object written on one line (`{"answer": "5/2", "is_correct": false}`)
_INLINE_MEMBER_RE = re.compile(
    r"[{,][ \t]*\"(?P<k>[A-Za-z][\w \-]{0,30})\"[ \t]*:[ \t]*(?P<v>\"[^\"\n]{0,80}\"|[^,}\n]{1,40})"
)


def _fields(tail: str) -> list[tuple[str, str, int, int, bool]]:
    """(key, value, start, end, in a table) of the card fields in `tail`, keys lower-cased and unmarked
    (`**Final answer**` is `final answer`)."""
    found = []
    for m in _INLINE_MEMBER_RE.finditer(tail) if "{" in tail else ():
        key = " ".join(m.group("k").lower().replace("_", " ").split())
        found.append((key, m.group("v").strip().strip('"').strip(), m.start("v"), m.end("v"), False))
    for m in _FIELD_RE.finditer(tail):
        table = m.group("tk") is not None
        key, group = (m.group("tk"), "tv") if table else (m.group("yk"), "yv")
        key = " ".join(key.strip("*_`\"' \t").lower().replace("_", " ").split())
        value = m.group(group).strip().strip("*_`\"'").strip()
        found.append((key, value, m.start(group), m.end(group), table))
    return found


def card_rejects(text: str, answer_end: int) -> bool:
    """Whether a card after the answer (which ends at `answer_end`) has a status field that rejects it."""
    start = max(answer_end, len(text) - _REACH)
    fields = _fields(text[start:])
    # (a card has two fields at least: one `Check: x = 2 fails, x = 5 works` line is a sentence, not a record)
    return len(fields) >= 2 and any(k in _STATUS_KEYS and _REJECTING_RE.search(v) for k, v, _, _, _ in fields)


_TABLE_ANSWER_RE = re.compile(r"^-?\d+(?:\.\d+)?(?:/\d+)?$")


def card_answers(text: str, answer_end: int) -> list[tuple[int, int, str]]:
    """(start, end, value) of the table rows after the answer that state an answer (`| Final answer | 625/1296 |`;
    a YAML `answer: 30` is an answer phrase already)."""
    start = max(answer_end, len(text) - _REACH)
    out = []
    for key, value, a, b, table in _fields(text[start:]):
        # (a record's `"final_value": 256` too; its `answer:` is an answer phrase already)
        if (
            (table or key in ("final value", "final result"))
            and key in _ANSWER_KEYS
            and _TABLE_ANSWER_RE.match(value)
        ):
            # (`625/1296` is compared as the fraction a box writes: `\\frac{625}{1296}`)
            fraction = re.sub(r"^(-?)(\d+)/(\d+)$", r"\1\\frac{\2}{\3}", value)
            out.append((start + a, start + b, fraction))
    return out
