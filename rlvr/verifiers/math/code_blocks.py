"""Code in a reply, as markdown writes it. A program (a fenced block tagged with a language: ```python) states
no answer: `answer = 17` there is a variable of a program whose output nobody saw, so it is read as nothing.
A block of output, plain text or data (```output, ```json, ``` with no tag), a REPL transcript (`>>> `) and inline
code (`17`) show a value: they are read as their content. A diff (```diff) is read as what it leaves: its added and context lines, not its removed ones.
"""

from __future__ import annotations

import re

_FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_+#.-]*)[ \t]*\n(.*?)(?:```|\Z)", re.S)
_INLINE_RE = re.compile(r"(?<!`)`([^`\n]{1,80})`(?!`)")
# the tags of a block that shows a value (output, text, data) rather than a program
# (not `latex`/`tex`: a LaTeX source listing is the code of a formula, shown as code, not as the formula; `math`
# blocks render as math)
_SHOWN = {"", "output", "text", "txt", "plaintext", "plain", "math", "console", "stdout"} | {
    "json", "yaml", "yml", "csv", "tsv", "toml", "ini", "cfg", "conf", "properties", "env", "dotenv", "log", "markdown", "md",
}  # fmt: skip


def _diff(body: str) -> str:
    """A unified diff as the text it leaves: added and context lines, without removed lines and headers."""
    kept = []
    for line in body.splitlines():
        if line.startswith(("---", "+++", "@@", "-")):
            continue  # (a removed line is struck out: `- Therefore the answer is 12.`)
        kept.append(line[1:] if line[:1] in ("+", " ") else line)
    return "\n".join(kept)


def _fence(m: re.Match[str]) -> str:
    tag = m.group(1).lower()
    if tag in (
        "diff",
        "patch",
    ):  # a correction written as a diff: what it adds is stated, what it removes not
        return "\n" + _diff(m.group(2)).strip() + "\n"
    # (a REPL transcript shows what each prompt printed, whatever its tag: `>>> 3 * 24 == 70` then `False`)
    shown = tag in _SHOWN or m.group(2).lstrip().startswith(">>> ")
    return "\n" + m.group(2).strip() + "\n" if shown else "\n"


def read_code(text: str) -> str:
    """`text` with programs removed and output blocks and inline code read as their content."""
    if "`" not in text:
        return text
    return _INLINE_RE.sub(r"\1", _FENCE_RE.sub(_fence, text))
