"""MBPP rewards cannot be earned by hard-coding the asserts the prompt shows: the graded asserts are hidden.

The attack: read every `assert f(args) == expected` in the prompt and return `expected` from a lookup table.
With MBPP's original grading (the shown asserts are the graded ones) that program scores like a solution; with
rlvr's default it must score 0 on every problem, while the dataset's own solution keeps scoring 1.
"""

from __future__ import annotations

import ast
import math

import pytest

from rlvr.core import ConfigError, DataError
from rlvr.tasks import fixture_path, load_task
from rlvr.verifiers import CodeVerifier


def _lookup_program(prompt: str, control: bool = False) -> str | None:
    """A program that answers exactly the asserts visible in `prompt` from a table (control: an empty one)."""
    table: dict[str, dict[str, object]] = {}
    for line in prompt.splitlines():
        try:
            node = ast.parse(line.strip())
        except SyntaxError:
            continue
        if not (node.body and isinstance(node.body[0], ast.Assert)):
            continue
        test = node.body[0].test
        if isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.Eq):
            call, want = test.left, test.comparators[0]  # assert f(x) == y
        elif isinstance(test, ast.Call) and ast.unparse(test.func) == "math.isclose" and len(test.args) == 2:
            call, want = test.args  # assert math.isclose(f(x), y)
        else:
            continue
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        try:
            args = tuple(ast.literal_eval(a) for a in call.args)
            expected = eval(ast.unparse(want), {"__builtins__": {}, "math": math})  # the prompt's own values
        except (ValueError, NameError):
            continue
        table.setdefault(call.func.id, {})[repr(args)] = expected
    if not table:
        return None
    body = [f"_TABLE = { ({k: {} for k in table} if control else table)!r}"]
    for name in table:
        body.append(f"def {name}(*args):\n    return _TABLE[{name!r}].get(repr(args))")
    return "```python\n" + "\n\n".join(body) + "\n```"


@pytest.fixture(scope="module")
def verifier() -> CodeVerifier:
    return CodeVerifier()


def test_lookup_table_of_the_shown_asserts_earns_nothing(verifier: CodeVerifier) -> None:
    task = load_task("mbpp", path=str(fixture_path("mbpp")))
    leaky = load_task("mbpp", path=str(fixture_path("mbpp")), grade_shown=True, shown_tests=3)
    attacked = zero = 0
    for ex, old in zip(task, leaky):
        program = _lookup_program(ex.prompt)
        assert program is not None, f"the attack could not read the shown assert of {ex.metadata['task_id']}"
        attacked += 1
        verdict = verifier.verify(program, ex.reference)
        # the control answers None everywhere: a table that knows the shown answers must score exactly that
        # (MBPP's own `== None` asserts are passed by any program that returns None)
        control = verifier.verify(_lookup_program(ex.prompt, control=True) or "", ex.reference)
        assert verdict.score == control.score < 1.0, (ex.metadata["task_id"], verdict.reason)
        zero += verdict.score == 0.0
        assert verifier.verify(task.gold_completion(ex), ex.reference).score == 1.0
        # the same attack on MBPP's original format (all asserts shown and graded) is what this prevents
        assert verifier.verify(_lookup_program(old.prompt) or "", old.reference).score > 0.5
    assert attacked == len(task) == 10 and zero == 9


def test_prompt_shows_no_graded_assert() -> None:
    task = load_task("mbpp", path=str(fixture_path("mbpp")), challenge_tests=True)
    for ex in task:
        shown = {line.strip() for line in ex.prompt.splitlines() if line.strip().startswith("assert")}
        assert len(shown) == 1, (
            "the prompt shows one assert: it names the function and its calling convention"
        )
        graded = {step[1].strip() for step in ex.reference.steps}
        assert shown.isdisjoint(graded), ex.metadata["task_id"]


def test_shown_tests_option_is_checked() -> None:
    with pytest.raises(DataError, match="none is left to grade.*grade_shown=True"):
        load_task("mbpp", path=str(fixture_path("mbpp")), shown_tests=3)
    with pytest.raises(ConfigError, match="shown_tests must be an integer >= 0"):
        load_task("mbpp", path=str(fixture_path("mbpp")), shown_tests=-1)
    none_shown = load_task("mbpp", path=str(fixture_path("mbpp")), shown_tests=0)
    assert "assert" not in none_shown[0].prompt and len(none_shown[0].reference.steps) == 3
