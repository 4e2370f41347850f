"""Finding the program in a model's completion."""

from __future__ import annotations

import re

PYTHON_TAGS = frozenset({"", "python", "py", "python3", "py3"})
# an opening fence line: ``` or ~~~ (3 or more), then an optional info string whose first word is the language
_OPEN = re.compile(r"(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)")


def _blocks(completion: str) -> list[tuple[str, str, str]]:
    """(indent, language, body) of each fenced block, in order. One pass over the lines (linear time: the text is
    the model's): a line opening a fence, followed by a newline, starts a block; its body runs to a line that is
    the same fence alone (spaces and tabs around it allowed) or, for a completion cut off by the token limit, to
    the end of the text."""
    lines = completion.split("\n")  # line i ends with "\n" iff i < len(lines) - 1
    blocks, i, last = [], 0, len(lines) - 1
    while i < last:  # an opening line needs its newline
        m = _OPEN.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, j = m.group("fence"), i + 1
        while j <= last and lines[j].strip(" \t") != fence:
            j += 1
        if j > last:  # unterminated: the body is the rest of the text
            blocks.append((m.group("indent"), m.group("lang"), "\n".join(lines[i + 1 :])))
            break
        blocks.append((m.group("indent"), m.group("lang"), "".join(line + "\n" for line in lines[i + 1 : j])))
        i = j + 1
    return blocks


def extract_program(completion: str) -> str:
    """The last fenced Python block of `completion` (``` or ```python ...), or the whole text if it has none."""
    blocks = [b for b in _blocks(completion) if b[1].lower() in PYTHON_TAGS]
    if not blocks:
        return completion
    indent, _, body = blocks[-1]
    if indent:  # a fence indented inside a list item: drop that indentation from each line
        body = "".join(
            line[len(indent) :] if line.startswith(indent) else line for line in body.splitlines(True)
        )
    return body
