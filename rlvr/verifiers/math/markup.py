"""Markup that takes text out of what a reply states, and markup that only looks like math.

Struck-out text (`~~12~~`, GFM's single-tilde `~12~`, `<s>`, `<del>`, `<strike>`, LaTeX's `\\cancel{12}`,
`\\xcancel`, `\\sout`, `\\st`, and characters drawn with a
combining overlay such as U+0336, `4̶2̶`, as chat UIs strike text without markup) was withdrawn by its author:
it states nothing, so it is removed before any answer is looked for. Colour (`\\color{red}`,
`\\textcolor{red}{...}`) only highlights: it is unwrapped there too, so a coloured box is a box. (A comment,
`<!-- 7 -->` or `% 7`, is not struck out: its box still joins the answer, as a hedge.) Quoted lines (`> ...`),
footnotes (`[^1]: ...`) and collapsed sections (`<details>...</details>`) are someone else's words, an aside or
an old attempt: they are removed when the rest of the reply commits to an answer of its own (a box or an answer
phrase), and kept otherwise, so an answer written only inside a quote is never replaced by a draft value outside
it.

A bare `$` before a number in prose is money (`she had $245.\\nAfter buying the $180 bike, she had $65 left.`):
when the text up to the next `$` is prose or crosses a line, or that `$` opens the next amount (`$20 - $12`),
the first `$` opens no formula; it is written `\\$`, as LaTeX writes a dollar sign, so no span pairs across it.
A last `$` that nothing closes, before an amount that ends its line with a full stop or closing emphasis
(`**$180**`, `costs US$15.`), is money too (a formula cut off mid-way ends on its digits or an operator).

A markdown table that ends a reply with a row labelled as its total or answer (`| **Total** | **\\$12** |`)
states that row's value; the formulas of the rows above it are steps.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from rlvr.verifiers.math.atoms import _is_prose
from rlvr.verifiers.math.boxes import _brace_pairs, outer_boxes

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


# GFM's single-tilde strike: `~` opens before a non-space and closes after one, and neither touches a word or
# another tilde (`~18` alone is "about 18", `a~=~b` and `3~\\text{cm}` are LaTeX's unbreakable space)
# (possessive: a tilde that no other closes costs one scan to the next tilde or line end, never a backtrack)
_TILDE_STRUCK_RE = re.compile(r"(?<![\w~\\])~(?=[^\s~])(?=[^~\n$\\]*?[^\W_])[^~\n$\\]*+(?<=\S)~(?![\w~])")

# the combining overlays that draw a line or mark through the character before them: tilde, short and long
# stroke, short and long solidus (U+0334-U+0338), vertical lines, ring, reverse solidus and arrows (U+20D2-U+20EF)
_OVERLAYS = "\u0334-\u0338\u20d2\u20d3\u20d8-\u20da\u20e5\u20e6\u20ea\u20eb"
_OVERLAID_RE = re.compile(rf"(?:[^\s{_OVERLAYS}][{_OVERLAYS}]+)+")

# colour only highlights: `\color{red}` switches it for what follows, `\textcolor{red}{X}` and `\colorbox{red}{X}`
# paint X: the command and its colour are dropped, X is kept
_COLOUR_RE = re.compile(r"\\(?:color|textcolor|colorbox)(?![a-zA-Z])\s*(?:\[[^\]{}]*\])?\s*\{[^{}]*\}\s*")


def _uncoloured(text: str) -> str:
    """`text` with its colour commands dropped and the groups they paint unwrapped (see above)."""
    out: list[str] = []
    pos = 0
    # one linear pass finds every group's end (a scan per group from its `{` was quadratic on unclosed ones)
    pairs = _brace_pairs(text)
    for m in _COLOUR_RE.finditer(text):
        if m.start() < pos:
            continue
        out.append(text[pos : m.start()])
        pos = m.end()
        close = pairs.get(pos) if text.startswith("{", pos) else None
        if close is not None and _one_box(text, pos + 1, close, pairs):
            # `\textcolor{red}{\boxed{7}}`: the box without the painted group's braces (a box groups itself);
            # any other painted group keeps its braces, which group it (`2\color{red}{x+1}` is 2(x+1))
            out.append(text[pos + 1 : close])
            pos = close + 1
    out.append(text[pos:])
    return "".join(out)


_BOX_OPEN_RE = re.compile(r"[ \t]*\\(?:boxed|fbox)[ \t]*(?=\{)")


def _one_box(text: str, start: int, end: int, pairs: dict[int, int]) -> bool:
    """Whether text[start:end] is one closed box and nothing else (`\\boxed{7}`), in constant time."""
    m = _BOX_OPEN_RE.match(text, start, end)
    last = end - 1
    while last > start and text[last] in " \t\n":
        last -= 1
    return m is not None and pairs.get(m.end()) == last


# LaTeX's strike-outs (`\cancel`, `\bcancel`, `\xcancel` of cancel, `\sout`, `\xout` of ulem, `\st` of soul)
_STRIKE_COMMAND_RE = re.compile(r"\\(?:[bx]?cancel|sout|xout|st)\s*(?=\{)")


def _commands_struck(text: str) -> str:
    """`text` without each LaTeX strike-out command and the group it strikes (`\\xcancel{42} 48` is ` 48`)."""
    out: list[str] = []
    pos = 0
    boxes = outer_boxes(
        text
    )  # outermost, so in order and apart: the one holding a command is found by bisection
    starts = [b[0] for b in boxes]
    pairs = _brace_pairs(text)
    for m in _STRIKE_COMMAND_RE.finditer(text):
        k = bisect.bisect_left(starts, m.start()) - 1
        if m.start() < pos or (k >= 0 and m.start() < boxes[k][1]):
            continue  # inside a group already struck, or inside a box (its answer drops it: `notation.py`)
        close = pairs.get(m.end())
        if close is None:
            continue  # an unclosed group strikes nothing certain: left as written
        before, after = text[pos : m.start()], close + 1
        if _SPAN_OPEN_RE.search(before) and (shut := _SPAN_SHUT_RE.match(text, after)):
            before, after = before[: before.rindex("$")], shut.end()  # `$\\st{42}$`: the whole formula struck
        out.append(before + " ")
        pos = after
    out.append(text[pos:])
    return "".join(out)


_SPAN_OPEN_RE = re.compile(r"(?<![\\$])\$[ \t]*\Z")
_SPAN_SHUT_RE = re.compile(r"[ \t]*\$(?!\$)")


def struck_out(text: str) -> str:
    """`text` without its struck-out parts (`~~12~~`, `~12~`, `<del>7</del>`, `4̶2̶`), its colour markup
    unwrapped (see the module docstring)."""
    if "color" in text:
        text = _uncoloured(text)
    if "\\" in text:
        text = _commands_struck(text)
    if not text.isascii():
        text = _OVERLAID_RE.sub(" ", text)
    if "~" in text:
        text = _TILDE_STRUCK_RE.sub(" ", text)
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


# an amount after a last, unclosed `$` that ends its line with a stop or closing emphasis (a cut-off formula ends
# on digits or an operator: `$2 + 6 + 18 = 2`)
_LAST_AMOUNT_RE = re.compile(
    r"\d[\d,]*(?:\.\d+)?[ \t]*(?=[*_.!])(?:\*\*|__|[*_])?[ \t]*[.!]?[ \t]*(?:\*\*|__|[*_])?[ \t]*(?=\n|\Z)"
)


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
        if opens_amount and nxt is None and _LAST_AMOUNT_RE.match(text, tok.end()):
            money.append(tok.start())  # `**$180**`, `costs US$15.`: nothing closes it, it ends its sentence
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
