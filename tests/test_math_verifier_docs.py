"""The Python examples in docs/verifiers.md run as written (the README's verifier section is taken from it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "verifiers.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_doc_has_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name}[{index}]", "exec"), {"__name__": "docs_example"})
    out = capsys.readouterr().out
    for line in BLOCKS[index].splitlines():  # every `print(...)  # expected` comment must match the output
        m = re.search(r"print\(.*\)\s+# (.+)$", line)
        if m and "..." not in m.group(1):
            assert m.group(1).strip() in out, (m.group(1), out)
