"""The layer rule of DESIGN.md: no module imports a layer to its right; Ray and vLLM stay in their corners."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "rlvr"

# layer -> the rlvr layers it may import (itself always allowed). Top-level modules (cli, __init__) may import all.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "verifiers": {"core"},
    "tasks": {"core", "verifiers"},
    "envs": {"core", "verifiers", "tasks"},
    "buffer": {"core"},
    "policy": {"core"},
    "eval": {"core", "verifiers", "tasks", "envs", "policy"},
    "train": {"core", "verifiers", "tasks", "envs", "buffer", "policy", "eval"},
}
TOP_LEVEL = {"cli", "__init__", "__main__"}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every imported module name in a file (absolute, relative imports resolved), with its line."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            # `from rlvr import envs` imports the envs layer
            if module == "rlvr":
                found.extend((node.lineno, f"rlvr.{alias.name}") for alias in node.names)
    return found


def _layer(path: Path) -> str:
    rel = path.relative_to(ROOT).parts
    return rel[0] if len(rel) > 1 else Path(rel[0]).stem


FILES = sorted(ROOT.rglob("*.py"))


def test_layers_are_known() -> None:
    layers = {_layer(p) for p in FILES}
    unknown = layers - set(ALLOWED) - TOP_LEVEL
    assert not unknown, f"new top-level package(s) {unknown}: add them to DESIGN.md's layers and to ALLOWED"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_upward_imports(path: Path) -> None:
    layer = _layer(path)
    if layer in TOP_LEVEL:
        return
    allowed = ALLOWED[layer] | {layer}
    bad = []
    for line, module in _imports(path):
        parts = module.split(".")
        if parts[0] != "rlvr" or len(parts) < 2:
            if parts[0] == "rlvr" and layer != "__init__":
                bad.append((line, module, "imports the top-level rlvr package (which registers envs)"))
            continue
        target = parts[1]
        if target in TOP_LEVEL or target not in allowed:
            bad.append((line, module, f"layer {layer!r} may import only {sorted(allowed)}"))
    assert not bad, "\n".join(f"{path.relative_to(ROOT)}:{ln}: {mod}: {why}" for ln, mod, why in bad)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_ray_and_vllm_stay_in_their_corners(path: Path) -> None:
    rel = path.relative_to(ROOT)
    layer = _layer(path)
    for line, module in _imports(path):
        top = module.split(".")[0]
        if top == "ray":
            ok = layer in {"train", "cli"} or (layer == "verifiers" and "ray" in rel.name)
            assert ok, f"{rel}:{line} imports ray; Ray belongs under rlvr/train/ (DESIGN.md)"
        if top == "vllm":
            assert layer == "policy", f"{rel}:{line} imports vllm; vLLM belongs behind rlvr/policy/'s backend"


def test_rule_catches_a_violation(tmp_path: Path) -> None:
    """The checker itself must flag an upward import (guards against a vacuous pass)."""
    fake = ROOT / "buffer" / "_layer_probe.py"
    fake.write_text("from rlvr.envs import something\n")
    try:
        with pytest.raises(AssertionError, match="may import only"):
            test_no_upward_imports(fake)
    finally:
        fake.unlink()
