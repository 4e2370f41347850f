"""Markup that takes text out of what a reply states, and markup that only looks like math.

Struck-out text (`~~12~~`, `<s>`, `<del>`, `<strike>`) was withdrawn by its author: it states nothing, so it
is removed before any answer is looked for. (A comment, `<!-- 7 -->` or `% 7`, is not struck out: its box
still joins the answer, as a hedge.) Quoted lines
(`> ...`), footnotes (`[^1]: ...`) and collapsed sections (`<details>...</details>`) are someone else's words,
an aside or an old attempt: they are removed when the rest of the reply commits to an answer of its own (a box
or an answer phrase), and kept otherwise, so an answer written only inside a quote is never replaced by a draft
value outside it.

A bare `$` before a number in prose is money (`she had $245.\\nAfter buying the $180 bike, she had $65 left.`):
when the text up to the next `$` is prose or crosses a line, or that `$` opens the next amount (`$20 - $12`),
the first `$` opens no formula; it is written `\\$`, as LaTeX writes a dollar sign, so no span pairs across it.

A markdown table that ends a reply with a row labelled as its total or answer (`| **Total** | **\\$12** |`)
states that row's value; the formulas of the rows above it are steps.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rlvr.verifiers.math.atoms import _is_prose

# (a struck-out part never crosses a blank line: `~~` or `<s>` left open strikes out no paragraph after it)
_STRUCK_RE = re.compile(
    r"~~(?=\S)(?:(?!\n\s*\n).)+?~~|<(s|del|strike)\b[^>]*>(?:(?!\n\s*\n).)*?</\1\s*>",
    re.S | re.IGNORECASE,
)

_ASIDE_MARKUP_RE = re.compile(
    r"<details\b[^>]*>.*?(?:</details\s*>|\Z)"  # a collapsed section: shown only on request
    r"|^[ \t]*\[\^[^\]\n]+\]:[^\n]*(?:\n[ \t]+\S[^\n]*)*"  # a footnote and its indented continuation lines
    r"|\[\^[^\]\n]+\]"  # a footnote mark
    r"|^[ \t]*>[^\n]*",  # a quoted line
    re.S | re.M | re.IGNORECASE,
)


def struck_out(text: str) -> str:
    """`text` without its struck-out parts (`~~12~~`, `<del>7</del>`)."""
    if "~~" not in text and "<" not in text:
        return text
    lead = len(text) - len(text.lstrip())
    # `<s>` opening the whole text is a chat template's start-of-sequence token, not a strike-out
    return _STRUCK_RE.sub(lambda m: m.group() if m.start() == lead and m.group(1) == "s" else " ", text)


def asides_removed(text: str, commits: Callable[[str], bool]) -> str:
    """`text` without quoted lines, footnotes and `<details>` sections when what is left `commits` to an
    answer of its own; else `text` unchanged (the answer may be in the quote: nothing is guessed)."""
    if ">" not in text and "[^" not in text:
        return text
    rest = _ASIDE_MARKUP_RE.sub(" ", text)
    return rest if rest != text and commits(rest) else text


_DOLLAR_RE = re.compile(r"(?<!\\)\$\$|(?<!\\)\$")
_TEXT_GROUP_RE = re.compile(r"\\(?:text|mathrm|mbox|textbf|textit)\s*\{[^{}]*\}")
_COMMAND_RE = re.compile(r"\\[a-zA-Z]+")


def _money(text: str, opener: int, closer: int) -> bool:
    """Whether the `$` at `opener`, before a digit, is money rather than a formula closed at `closer`."""
    content = text[opener + 1 : closer]
    if _COMMAND_RE.search(content):
        return False  # `$3 \\times \\$2.50$`: a formula
    glued = text[closer + 1 : closer + 2].isdigit()  # `$20 - $12`: the second `$` opens the next amount
    return glued or "\n" in content or _is_prose(_TEXT_GROUP_RE.sub(" ", content))


def money_dollars(text: str) -> str:
    """`text` with each bare `$` that is money (see the module docstring) written `\\$`."""
    if "$" not in text:
        return text
    tokens = list(_DOLLAR_RE.finditer(text))
    money: list[int] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.group() == "$$":  # display math: skip to its closer
            i += 1
            while i < len(tokens) and tokens[i].group() != "$$":
                i += 1
            i += 1
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        opens_amount = text[tok.end() : tok.end() + 1].isdigit()
        if opens_amount and nxt is not None and nxt.group() == "$" and _money(text, tok.start(), nxt.start()):
            money.append(tok.start())
            i += 1  # its would-be closer may open a formula or another amount
            continue
        i += 2 if nxt is not None and nxt.group() == "$" else 1
    for pos in reversed(money):
        text = text[:pos] + "\\" + text[pos:]
    return text


# the last row of a markdown table that closes a reply, labelled as its total or answer (`| **Total** | **$12** |`)
_TOTAL_ROW_RE = re.compile(
    r"\n[ \t]*\|[ \t]*(?:\*\*|__)?[ \t]*(?i:total|sum|answer|result|final(?:\s+answer)?)[ \t]*(?:\*\*|__)?[ \t]*:?"
    r"[ \t]*\|([^|\n]*)\|[ \t]*\Z"
)


def table_total(text: str) -> str | None:
    """The value cell of a markdown table's last row when the reply ends with it and it is labelled as the
    total or the answer (`| **Total** | **\\$12** |`): a row of the table the model filled in last; else None."""
    m = _TOTAL_ROW_RE.search(text.rstrip()[-300:])
    if m is None:
        return None
    cell = m.group(1).strip().strip("*_").strip()
    return cell if cell and "$" not in cell.replace("\\$", "") else None
