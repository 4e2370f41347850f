"""No dead settings or state: every config field is read by the code it configures, every private attribute
is read by its class.

A field that nothing reads is a knob a user can turn to no effect (issue 15 found `SFTConfig.max_examples`);
a private attribute that nothing reads is state a reader must understand for nothing (`Sandbox._lock`).
Both checks read the source (AST), so they cost no imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rlvr"


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def _is_dataclass(cls: ast.ClassDef) -> bool:
    return any("dataclass" in ast.unparse(d) for d in cls.decorator_list)


def _names_read(trees: dict[Path, ast.Module], skip: ast.AST | None = None) -> set[str]:
    """Attribute names loaded anywhere (outside `skip`), plus string constants (getattr, asdict keys)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(trees.values())
    while stack:
        node = stack.pop()
        if node is skip:
            continue
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        stack.extend(ast.iter_child_nodes(node))
    return found


def unread_config_fields(trees: dict[Path, ast.Module]) -> list[str]:
    """`file:line Class.field` of each field of a `*Config` dataclass read nowhere but its own validation."""
    dead = []
    for path, tree in trees.items():
        for cls in ast.walk(tree):
            if not (isinstance(cls, ast.ClassDef) and cls.name.endswith("Config") and _is_dataclass(cls)):
                continue
            # __post_init__ only checks a field; a field that only it reads still does nothing
            post_init = next(
                (f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__post_init__"), None
            )
            read = _names_read(trees, skip=post_init)
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                if "ClassVar" in ast.unparse(stmt.annotation) or stmt.target.id in read:
                    continue
                dead.append(f"{path.relative_to(PACKAGE.parent)}:{stmt.lineno} {cls.name}.{stmt.target.id}")
    return dead


def unread_private_attributes(trees: dict[Path, ast.Module]) -> list[str]:
    """`file:line Class._attr` of each `self._attr = ...` that neither its module nor a base class reads."""
    read_in_class: dict[str, set[str]] = {}  # class name -> attributes it reads on self
    for tree in trees.values():
        for cls in ast.walk(tree):
            if isinstance(cls, ast.ClassDef):
                read_in_class.setdefault(cls.name, set()).update(
                    n.attr
                    for n in ast.walk(cls)
                    if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                    and isinstance(n.value, ast.Name) and n.value.id == "self"
                )  # fmt: skip
    dead = []
    for path, tree in trees.items():
        read_in_module = _names_read({path: tree})
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            # a base class (by name, as written in the bases) may read what a subclass sets
            bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in cls.bases}
            read_by_bases = set().union(*(read_in_class.get(b, set()) for b in bases))
            for node in ast.walk(cls):
                if not (
                    isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name) and node.value.id == "self"
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                ):  # fmt: skip
                    continue
                if node.attr not in read_in_module and node.attr not in read_by_bases:
                    dead.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {cls.name}.{node.attr}")
    return dead


def test_every_config_field_is_read() -> None:
    assert unread_config_fields(_trees()) == []


def test_every_private_attribute_is_read() -> None:
    assert unread_private_attributes(_trees()) == []


def test_the_checks_find_what_they_look_for() -> None:
    """Each check flags a planted dead field / attribute, and not the same ones once something reads them."""
    planted = ast.parse(
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class ToyConfig:\n"
        "    used: int = 1\n"
        "    dead: int | None = None\n"
        "    def __post_init__(self):\n"
        "        assert self.dead is None or self.dead > 0\n"
        "class Toy:\n"
        "    def __init__(self, c):\n"
        "        self._lock = object()\n"
        "        self._n = c.used\n"
        "    def n(self):\n"
        "        return self._n\n"
    )
    trees = {PACKAGE / "toy.py": planted}
    assert unread_config_fields(trees) == ["rlvr/toy.py:5 ToyConfig.dead"]
    assert unread_private_attributes(trees) == ["rlvr/toy.py:10 Toy._lock"]
    reader = ast.parse("def f(c, t):\n    return c.dead, t._lock\n")
    trees[PACKAGE / "reader.py"] = reader
    assert unread_config_fields(trees) == []
    # a private attribute must be read in its own module (or by a base class), not from afar
    assert unread_private_attributes(trees) == ["rlvr/toy.py:10 Toy._lock"]
