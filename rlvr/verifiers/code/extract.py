"""Finding the program in a model's completion."""

from __future__ import annotations

import re

PYTHON_TAGS = frozenset({"", "python", "py", "python3", "py3"})
# an opening fence (``` or ~~~, 3 or more) with an optional info string, then the body up to a closing fence
# of the same kind or, for a completion cut off by the token limit, to the end of the text
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<body>.*?)"
    r"(?:^[ \t]*(?P=fence)[ \t]*$|\Z)",
    re.MULTILINE | re.DOTALL,
)


def extract_program(completion: str) -> str:
    """The last fenced Python block of `completion` (``` or ```python ...), or the whole text if it has none."""
    blocks = [m for m in _FENCE.finditer(completion) if m.group("lang").lower() in PYTHON_TAGS]
    if not blocks:
        return completion
    block = blocks[-1]
    body, indent = block.group("body"), block.group("indent")
    if indent:  # a fence indented inside a list item: drop that indentation from each line
        body = "".join(
            line[len(indent) :] if line.startswith(indent) else line for line in body.splitlines(True)
        )
    return body
