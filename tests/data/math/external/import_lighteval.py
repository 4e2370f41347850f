"""Rebuild `lighteval.jsonl` from lighteval's math extraction tests (cases Math-Verify's suite does not have).

    python tests/data/math/external/import_lighteval.py /path/to/lighteval/checkout <commit>

lighteval's `tests/unit/metrics/test_extractive_match.py` grew out of the same code as Math-Verify, so most
of its cases are already in `math_verify.jsonl`; this keeps only the (gold, pred) pairs that file lacks:
multilingual completions, multiple-choice letters, its own regressions. Parametrized lists are read with
`ast` (nothing is executed); `Language.FRENCH` becomes the string `FRENCH`, kept as an option. Cases whose
test passes a non-default `precision` keep it under `options`.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

FILE = "tests/unit/metrics/test_extractive_match.py"


def _value(node: ast.expr) -> object:
    """A literal, or the attribute name of an enum member (`Language.FRENCH` -> 'FRENCH')."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return ast.literal_eval(node)


def cases(path: Path, commit: str) -> list[dict]:
    """Every gold/pred case of the file's parametrized tests, with its source."""
    out: list[dict] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            if not (isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "parametrize"):
                continue
            names = [n.strip() for n in ast.literal_eval(deco.args[0]).split(",")]
            if names[:2] != ["gold", "pred"]:
                continue
            for i, row in enumerate(deco.args[1].elts):
                try:
                    values = dict(zip(names, [_value(e) for e in row.elts]))  # type: ignore[attr-defined]
                except (ValueError, AttributeError):
                    continue
                want = values.pop("expected")
                option = {k: v for k, v in values.items() if k not in ("gold", "pred")}
                case = {
                    "gold": values["gold"],
                    "pred": values["pred"],
                    "want": bool(want),
                    "cat": f"le:{node.name.removeprefix('test_')}",
                    "source": f"huggingface/lighteval@{commit[:12]}:{FILE}::{node.name}[{i}]",
                }
                if option:
                    case["options"] = option
                out.append(case)
    return out


def main() -> None:
    """Write the JSONL next to this script, without pairs already in `math_verify.jsonl`."""
    root, commit = Path(sys.argv[1]), sys.argv[2]
    here = Path(__file__).parent
    known = {
        (c["gold"], c["pred"]) for c in map(json.loads, (here / "math_verify.jsonl").read_text().splitlines())
    }
    new = [c for c in cases(root / FILE, commit) if (c["gold"], c["pred"]) not in known]
    target = here / "lighteval.jsonl"
    target.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in new))
    print(f"{len(new)} new cases -> {target}")


if __name__ == "__main__":
    main()
