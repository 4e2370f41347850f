"""Markup that takes text out of what a reply states, and markup that only looks like math.

Struck-out text (`~~12~~`, GFM's single-tilde `~12~`, `<s>`, `<del>`, `<strike>`, LaTeX's `\\cancel{12}`,
`\\xcancel`, `\\sout`, `\\st`, and characters drawn with a
combining overlay such as U+0336, `4̶2̶`, as chat UIs strike text without markup) was withdrawn by its author:
it states nothing, so it is removed before any answer is looked for. Colour (`\\color{red}`,
`\\textcolor{red}{...}`) only highlights: it is unwrapped there too, so a coloured box is a box.

What a reader does not see is removed first (`hidden`): comments (`<!-- -->`, `\\begin{comment}`, `\\iffalse`),
hidden HTML elements and tag attributes, invisible ink (white or transparent, `\\phantom`) outside a box, link
targets and titles. A value there never makes a reply right; a box hidden beside a visible box still joins it as a
hedge (`% 7` is shown in prose and left as written). Quotations, quoted lines, footnotes and collapsed sections
are `quotes.py`.

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
import urllib.parse

from rlvr.verifiers.math.atoms import _is_prose
from rlvr.verifiers.math.boxes import _brace_pairs, outer_boxes

# (a struck-out part never crosses a blank line: `~~` or `<s>` left open strikes out no paragraph after it)
_STRUCK_RE = re.compile(
    r"~~(?=\S)(?:(?!\n\s*\n).)+?~~|<(s|del|strike)\b[^>]*>(?:(?!\n\s*\n).)*?</\1\s*>"
    r"|\[(s|strike|del)\](?:(?!\n\s*\n).)*?\[/\2\]",  # (BBCode's `[s]30[/s]`)
    re.S | re.IGNORECASE,
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
# paint X: the command and its colour are dropped, X is kept; but text painted in no colour (`white`,
# `transparent`) is not seen: X is dropped (a `\phantom` is read by `notation.py`)
_COLOUR_RE = re.compile(
    r"\\(?:(?P<cmd>color|textcolor|colorbox)(?![a-zA-Z])\s*(?:\[[^\]{}]*\])?\s*\{(?P<colour>[^{}]*)\})\s*"
)
_NO_INK = frozenset({"white", "transparent", "none", "#fff", "#ffffff"})


def _uncoloured(text: str) -> str:
    """`text` with its colour commands dropped and the groups they paint unwrapped (see above)."""
    out: list[str] = []
    pos = 0
    # one linear pass finds every group's end (a scan per group from its `{` was quadratic on unclosed ones)
    pairs = _brace_pairs(text)
    boxes = outer_boxes(text)
    starts = [b[0] for b in boxes]
    for m in _COLOUR_RE.finditer(text):
        if m.start() < pos:
            continue
        out.append(text[pos : m.start()])
        pos = m.end()
        close = pairs.get(pos) if text.startswith("{", pos) else None
        unseen = m.group("cmd") != "colorbox" and (m.group("colour") or "").strip().lower() in _NO_INK
        # (a hidden box beside a visible one stays: `hidden` reads that as a hedge)
        if close is not None and unseen and "boxed" not in text[pos:close]:
            # `\textcolor{transparent}{84}`: nothing a reader sees; inside a box it voids the box,
            # whose text and look then differ (`\boxed{\textcolor{white}{5}3}`)
            k = bisect.bisect_right(starts, m.start()) - 1
            out.append("\\text{(hidden)}" if k >= 0 and m.start() < boxes[k][1] else " ")
            pos = close + 1
        elif close is not None and _one_box(text, pos + 1, close, pairs):
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
        out.append(before + _struck_gap(text[m.start() : after], text[after:], before))
        pos = after
    out.append(text[pos:])
    return "".join(out)


def _struck_gap(struck: str, after: str, before: str) -> str:
    """What a struck-out run leaves: a space; an empty box where it struck the reply's last box inside a sentence
    and nothing after it states a value (`The answer is <strike>$\\boxed{52}$</strike>.` answers nothing: not the
    52 of the work; a struck box on a line of its own after `The answer is 7.` leaves 7)."""
    inline = re.search(r"[^\W\d_][^\n]*\Z", before[-400:]) is not None  # (its line, read from 400 back)
    struck_box = "\\boxed" in struck and "\\boxed" not in after and not re.search(r"\d", after)
    return " \\boxed{} " if inline and struck_box else " "


# the dingbats LaTeX draws a tick or a cross with (pifont's `\ding{55}`, bbding's `\XSolidBrush`, the common
# `\xmark` and `\cmark` macros), read as the marks they draw so that every rule that reads a mark reads them
_MARK_COMMAND_RE = re.compile(r"\\(?:ding\s*\{\s*(5[1-6])\s*\}|(xmark|cmark|XSolidBrush|XSolid|crossmark)\b)")
_DRAWN = {
    "51": "\u2713",
    "52": "\u2714",
    "53": "\u2716",
    "54": "\u2716",
    "55": "\u2717",
    "56": "\u2718",
    "cmark": "\u2713",
}


def marks_drawn(text: str) -> str:
    """`text` with each LaTeX tick or cross command written as the mark it draws (`\\ding{55}` is `✗`)."""
    if "\\" not in text:
        return text
    return _MARK_COMMAND_RE.sub(lambda m: _DRAWN.get(m.group(1) or m.group(2), "\u2717"), text)


_SPAN_OPEN_RE = re.compile(r"(?<![\\$])\$[ \t]*\Z")
_SPAN_SHUT_RE = re.compile(r"[ \t]*\$(?!\$)")


def struck_out(text: str) -> str:
    """`text` without what a reader does not see (`hidden`) and its struck-out parts (`~~12~~`, `~12~`,
    `<del>7</del>`, `4̶2̶`), its colour markup unwrapped (see the module docstring)."""
    text = hidden(text)
    if "color" in text:
        text = _uncoloured(text)
    if "\\" in text:
        text = _commands_struck(text)
    if not text.isascii():
        text = _OVERLAID_RE.sub(" ", text)
    if "~" in text:
        text = _TILDE_STRUCK_RE.sub(" ", text)
    if "~~" not in text and "<" not in text and "[/" not in text:
        return text
    lead = len(text) - len(text.lstrip())

    # `<s>` opening the whole text is a chat template's start-of-sequence token, not a strike-out, unless it
    # closes on a short run with more text after it (`<s>$\\boxed{1/6}$</s> Revised: ...`)
    def _kept(m: re.Match[str]) -> str:
        opening = m.start() == lead and m.group(1) == "s"
        after = text[m.end() :]
        short_strike = len(m.group()) <= 200 and "[INST]" not in m.group() and after.strip() != ""
        short_strike = short_strike and "\\boxed" not in after  # (beside another box: round 6b reads a hedge)
        return (
            m.group()
            if opening and not short_strike
            else _struck_gap(m.group(), after, text[max(0, m.start() - 400) : m.start()])
        )

    return _STRUCK_RE.sub(_kept, text)


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


# a currency written as an abbreviation with a dot before its amount (`Rs. 60`, `रु. ६०`, `Tk. 50`): the dot ends
# no sentence, so it goes (`Answer: Rs. 60. Hmm, or Rs. 70.` is two sentences, a hedge, not four)
_CURRENCY_ABBREVIATIONS = ("Rs.", "rs.", "Tk.", "रु.", "रू.")
_EURO_THOUSANDS_RE = re.compile(
    r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.])(?=(?:,\d{1,2})?[ \t\u00a0]*(?:\u20ac|EUR\b|Euro))"
    r"|(?<=\u20ac)[ \t\u00a0]*\d{1,3}(?:\.\d{3})+(?![\d.])"
)
_ABBREVIATED_CURRENCY_RE = re.compile(r"(?<![^\W\d_])(Rs|rs|Tk|रु|रू)\.(?=[ \t]*[0-9०-९])")


def money_dollars(text: str) -> str:
    """`text` with each bare `$` that is money (see the module docstring) written `\\$`, and the dot of each
    currency abbreviation before an amount dropped (`Rs. 60` is `Rs 60`), and the dots of a euro amount that
    group thousands (`12.500 €` is `12500 €`: money has cents, not three decimals)."""
    if any(a in text for a in _CURRENCY_ABBREVIATIONS):  # (a cheap test first: a reply rarely has one)
        text = _ABBREVIATED_CURRENCY_RE.sub(r"\1", text)
    if "\u20ac" in text or "EUR" in text:
        text = _EURO_THOUSANDS_RE.sub(lambda m: m.group().replace(".", ""), text)
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


# ---- what a reader does not see: comments, hidden elements, invisible ink, link targets (see `hidden`)

# an HTML comment, a LaTeX comment environment or `\iffalse` branch (one left open hides the rest, as it does
# when rendered or typeset)
_COMMENT_RE = re.compile(
    r"<!--.*?(?:-->|\Z)|\\begin\s*\{comment\}.*?(?:\\end\s*\{comment\}|\Z)|\\iffalse(?![a-zA-Z]).*?(?:\\fi(?![a-zA-Z])|\Z)",
    re.S,
)
# ink the page's own colour: white or transparent (named, or as rgb/RGB/HTML/gray values)
_INVISIBLE = (
    r"(?:\{\s*(?:white|transparent)\s*\}|\[\s*rgb\s*\]\s*\{\s*1\s*,\s*1\s*,\s*1\s*\}"
    r"|\[\s*RGB\s*\]\s*\{\s*255\s*,\s*255\s*,\s*255\s*\}|\[\s*HTML\s*\]\s*\{\s*(?:FFFFFF|ffffff)\s*\}"
    r"|\[\s*gray\s*\]\s*\{\s*1\s*\})"
)
# `\textcolor{white}{X}` and `\phantom{X}` draw X invisibly; `\color{white}` switches the ink for the rest of
# its group or formula
_INVISIBLE_GROUP_RE = re.compile(r"\\textcolor\s*" + _INVISIBLE + r"\s*(?=\{)|\\[hv]?phantom\s*(?=\{)")
_INVISIBLE_SWITCH_RE = re.compile(r"\\color\s*" + _INVISIBLE)
# an HTML element not rendered (`<template>`, `<script>`, `<style>`, `<noscript>`), marked withdrawn, or styled invisible: the
# `hidden` attribute, `display:none`, `visibility:hidden`, zero opacity or size, white or transparent ink
# (`aria-hidden` only hides from screen readers: it is shown; `hidden` hides whatever its value, and is an
# attribute only before the tag's end or another attribute: `x<y the hidden term is> 0` is no tag)
_HIDDEN_STYLE = (
    r"display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?![.\d]*[1-9])|font-size\s*:\s*0(?![.\d]*[1-9])"
    r"|(?<![-\w])color\s*:\s*(?:white|transparent|\#fff(?:fff)?\b|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*[,)])"
)
_HIDDEN_OPEN_RE = re.compile(
    r"<(template|script|style|noscript)\b[^<>]*>"
    r"|<([a-zA-Z][\w-]*)(?=[^<>]*?(?:\s(?<!-)hidden(?:\s*=\s*[\"']?[\w-]*[\"']?)?(?=\s*/?>|\s+[\w-]+\s*=)"
    r"|\sstyle\s*=\s*[\"'][^\"'<>]*?(?:" + _HIDDEN_STYLE + r")"
    r"|\scolor\s*=\s*[\"']?(?:white|transparent|\#fff(?:fff)?\b)"
    # (or marked as no longer meant: `<answer status="retracted">`, `class="draft"`: what it holds is withdrawn)
    r"|\s(?:status|state|class|data-[\w-]+)\s*=\s*[\"']?[^\"'<>]*?\b(?:retracted|withdrawn|rejected|deleted|draft"
    r"|obsolete|superseded|wrong|incorrect)\b"
    # (or struck by its style or class: `style="text-decoration: line-through"`, Tailwind's `class="line-through"`)
    r"|\s(?:style|class)\s*=\s*[\"'][^\"'<>]*?(?:line-through|text-decoration\s*:\s*strike)))[^<>]*>",
    re.IGNORECASE,
)
# an HTML tag's attributes are not shown (`<a title="\\boxed{15}">`): only its name is kept. An element HTML does not
# define is a record the reply writes out (`<result answer="30" valid="false"/>`), shown as written where a chat
# escapes markup: its attributes are the reply's words (`cards.py` reads them as fields)
_HTML_TAGS = (
    "a|abbr|b|bdi|bdo|big|blockquote|br|button|caption|center|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|em"
    "|figcaption|figure|font|footer|h[1-6]|header|hr|i|img|input|ins|kbd|label|li|mark|nav|ol|p|pre|q|s|samp|section"
    "|small|span|strike|strong|sub|summary|sup|svg|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var|math|mi|mn|mo|mrow"
)
_TAG_ATTRIBUTES_RE = re.compile(r"<((?i:" + _HTML_TAGS + r"))\s[^<>\n]*?=\s*[\"'][^<>\n]*>")
# a markdown link shows its text, not its target or title; an image shows neither (its alt text only when it
# fails to load); a reference definition is not shown. (A link's target looks like one, or a title follows it:
# `E[X](1-p)` is a product.)
_TARGET = r"(?:<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
_TITLE = r"(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))"
_URL_LIKE = r"(?:<|[a-zA-Z][\w+.-]*:|/|#|\./|\.\./|www\.)"
_LINK_RE = re.compile(
    r"(?<!\\)(!?)\[([^\[\]\n]*)\]\(\s*(?:(?=" + _URL_LIKE + r")" + _TARGET + r"(?:\s+" + _TITLE + r")?"
    r"|" + _TARGET + r"\s+" + _TITLE + r")\s*\)"
)
# a status badge drawn by shields.io (`![status](https://img.shields.io/badge/answer-retracted-red)`): an image,
# but one that shows its label and message as text, so a reader sees `answer | retracted`
_BADGE_RE = re.compile(r"!\[[^\[\]\n]*\]\(\s*<?https?://img\.shields\.io/badge/([^\s()<>?#]+)[^()\n]*\)")


def _badge_text(m: re.Match[str]) -> str:
    """What a shields.io badge shows: `label-message-color` as `label: message.` (`--` is a dash, `_` a space)."""
    path = urllib.parse.unquote(m.group(1)).replace("--", "\0").replace("__", "\1").replace("_", " ")
    parts = [p.replace("\0", "-").replace("\1", "_").strip() for p in path.split("-")]
    shown = parts[:-1] if len(parts) > 1 else parts  # (the last part is the colour)
    return " " + ": ".join(shown) + ". "


_LINK_DEFINITION_RE = re.compile(
    r"^[ \t]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*(?=" + _URL_LIKE + r")\S+(?:[ \t]+" + _TITLE + r")?[ \t]*$", re.M
)


def _group_end(text: str, start: int) -> int:
    """Where the ink switched at `start` stops: the end of its brace group, of its formula (`$`, `\\)`,
    `\\]`, `\\end`), or of its paragraph."""
    depth, i, n = 0, start, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if depth == 0 and (text.startswith((")", "]"), i + 1) or text.startswith("end", i + 1)):
                return i
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return i
        elif (ch == "$" and depth == 0) or text.startswith("\n\n", i):
            return i
        i += 1
    return n


def _invisible_ink_removed(text: str) -> str:
    """`text` without what is drawn in invisible ink (`\\textcolor{white}{X}`, `{\\color{white} X}`,
    `\\phantom{X}`)."""
    pairs = _brace_pairs(text)
    boxes = outer_boxes(text)
    starts = [b[0] for b in boxes]
    cuts: list[tuple[int, int]] = []
    for m in sorted(
        [*_INVISIBLE_GROUP_RE.finditer(text), *_INVISIBLE_SWITCH_RE.finditer(text)], key=re.Match.start
    ):
        if cuts and m.start() < cuts[-1][1]:
            continue  # inside ink already removed
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < boxes[k][1]:
            continue  # ink inside a box is read as written (`\boxed{\textcolor{white}{5}3}` is 53: round 4b)
        if m.re is _INVISIBLE_SWITCH_RE:
            start, end = m.start(), _group_end(text, m.end())
            opening = start - 1
            while opening >= 0 and text[opening] in " \t\n":
                opening -= 1
            if opening >= 0 and text[opening] == "{" and text.startswith("}", end):
                start, end = opening, end + 1  # `{\color{white} X}`: the whole group is ink
            cuts.append((start, end))
        else:
            close = pairs.get(m.end())
            cuts.append((m.start(), close + 1 if close is not None else _group_end(text, m.end())))
    return _cut(text, cuts)


def _cut(text: str, cuts: list[tuple[int, int]]) -> str:
    """`text` with each (start, end) span, in order and apart, replaced by a space."""
    out, pos = [], 0
    for start, end in cuts:
        out.append(text[pos:start] + " ")
        pos = end
    out.append(text[pos:])
    return "".join(out)


_CLOSERS: dict[str, re.Pattern[str]] = {}


def _hidden_elements_removed(text: str) -> str:
    """`text` without its hidden HTML elements, each up to its matching closing tag (the rest of the text when
    none closes it, as a browser hides it)."""
    cuts: list[tuple[int, int]] = []
    for m in _HIDDEN_OPEN_RE.finditer(text):
        if cuts and m.start() < cuts[-1][1]:
            continue
        name = (m.group(1) or m.group(2)).lower()
        tags = _CLOSERS.setdefault(name, re.compile(rf"<(/?){re.escape(name)}\b[^<>]*>", re.IGNORECASE))
        depth, end = 1, len(text)
        for tag in tags.finditer(text, m.end()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.end()
                break
        cuts.append((m.start(), end))
    return _cut(text, cuts)


def hidden(text: str) -> str:
    """`text` without what a reader does not see: comments (`<!-- -->`, `\\begin{comment}`, `\\iffalse`),
    hidden HTML elements and tag attributes, invisible ink (white, transparent, `\\phantom`), link targets and
    titles. A value there never makes the reply right: it is removed, except that a box hidden beside a visible
    box still joins it, as a hedge (`\\boxed{8}<!-- \\boxed{7} -->` offers both: round 6b)."""
    shown = _unseen_removed(text)
    if (
        shown != text
        and "box" in text
        and outer_boxes(shown)
        and len(outer_boxes(shown)) < len(outer_boxes(text))
    ):
        return text
    return shown


def _unseen_removed(text: str) -> str:
    """`text` without what a reader does not see (see `hidden`)."""
    if "<!--" in text or "\\begin" in text or "\\iffalse" in text:
        text = _COMMENT_RE.sub(" ", text)
    if "<" in text:
        text = _hidden_elements_removed(text)
        text = _TAG_ATTRIBUTES_RE.sub(r"<\1>", text)
    if "color" in text or "phantom" in text:
        text = _invisible_ink_removed(text)
    if "](" in text:
        text = _BADGE_RE.sub(_badge_text, text)  # an image that shows text: a status badge
        text = _LINK_RE.sub(lambda m: "" if m.group(1) else m.group(2), text)
    if "]:" in text:
        text = _LINK_DEFINITION_RE.sub(" ", text)
    return text
