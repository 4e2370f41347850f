"""Rebuild `math_verify.jsonl` from Math-Verify's public tests (one JSON case per line, with its source).

    python tests/data/math/external/import_math_verify.py /path/to/Math-Verify/checkout <commit>

Reads every `@pytest.mark.parametrize("gold,pred,expected", [...])` list in its `tests/` (literal tuples
only, via `ast`, nothing is executed) and writes gold, completion, expected verdict, the test it came from
and the options that test passes. Cases whose test needs a non-default option that changes the meaning
(`strict=False`, `allow_set_relation_comp=True`) are kept but marked `option`, and the benchmark skips them.
Our disagreements with a label live in `disagreements.yaml`, not here, so re-importing never loses them.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

FILES = [
    "tests/test_all.py",
    "tests/test_boxed.py",
    "tests/test_numina_cases.py",
    "tests/test_open_thoughts.py",
    "tests/test_yujianll.py",
    "tests/test_strict.py",
]


def _cases(path: Path, rel: str, commit: str) -> list[dict]:
    tree = ast.parse(path.read_text())
    out: list[dict] = []
    for node in ast.walk(tree):
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
                    values = dict(zip(names, ast.literal_eval(row)))
                except ValueError:
                    continue
                want = values.pop("expected", values.pop("result", None))
                option = {k: v for k, v in values.items() if k not in ("gold", "pred")}
                case = {
                    "gold": values["gold"],
                    "pred": values["pred"],
                    "want": bool(want),
                    "cat": f"mv:{node.name.removeprefix('test_')}",
                    "source": f"huggingface/Math-Verify@{commit[:12]}:{rel}::{node.name}[{i}]",
                }
                if option:
                    case["options"] = option
                    if option.get("strict") is False or option.get("allow_set_relation_comp"):
                        case["option"] = True
                out.append(case)
    return out


def main() -> None:
    """Write the JSONL next to this script."""
    root, commit = Path(sys.argv[1]), sys.argv[2]
    cases = [c for rel in FILES for c in _cases(root / rel, rel, commit)]
    target = Path(__file__).with_name("math_verify.jsonl")
    target.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
    print(f"{len(cases)} cases -> {target}")


if __name__ == "__main__":
    main()
