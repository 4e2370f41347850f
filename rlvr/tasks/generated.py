"""Procedural tasks that need no download: arithmetic expressions and linear equations, by difficulty level.

Example i of a generator is a pure function of (seed, i): it is drawn from its own derived RNG, so any slice,
shuffle or worker sees the same example at the same index, and nothing depends on access order.
"""

from __future__ import annotations

from abc import abstractmethod
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.seeding import make_rng
from rlvr.core.types import Example
from rlvr.tasks.base import Task, example_key


def latex_number(value: Fraction) -> str:
    """An exact number as the math verifier reads it: `17`, `-3`, `\\frac{5}{6}`, `-\\frac{1}{2}`."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


class GeneratedTask(Task):
    """A task whose example i is generated on demand from `make_rng(seed, name, i)`."""

    verifier_name = "math"

    def __init__(self, size: int = 10_000, seed: int = 0) -> None:
        if size < 1:
            raise ConfigError(f"{type(self).__name__} size must be >= 1, got {size}")
        self.size = int(size)
        self.seed = int(seed)
        # per-instance cache: regenerating is cheap but a training loop revisits examples often
        self._cached = lru_cache(maxsize=65_536)(self._make)

    def __len__(self) -> int:
        return self.size

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_cached")  # an lru_cache of a bound method does not pickle; rebuilt on load
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._cached = lru_cache(maxsize=65_536)(self._make)

    def _example(self, index: int) -> Example:
        return self._cached(index)

    def _make(self, index: int) -> Example:
        return self.generate(make_rng(self.seed, self.name, index), index)

    @abstractmethod
    def generate(self, rng: np.random.Generator, index: int) -> Example:
        """Draw one example from `rng`."""

    def support(self) -> list[Example] | None:
        """Every distinct problem of the generator when there are few and each is equally likely, else None.

        With it, the expected reward over the task distribution is a plain mean over this list: an exact
        evaluation for a task whose training stream covers all its problems (no disjoint held-out set exists).
        """
        return None


# ---------------------------------------------------------------- arithmetic
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
#: difficulty -> (operations, operand range, operators, fractional answers allowed, largest |answer|)
ARITHMETIC_LEVELS: dict[int, tuple[int, int, str, bool, int]] = {
    0: (1, 9, "+", False, 100),  # single-digit sums: 81 facts, what a ~1M-parameter model learns in minutes
    1: (1, 20, "+-", False, 100),
    2: (2, 20, "+-*", False, 1_000),
    3: (3, 50, "+-*", False, 10_000),
    4: (3, 50, "+-*/", False, 10_000),
    5: (4, 100, "+-*/", True, 100_000),
}


def _render(node: Any, parent_prec: int = 0, right: bool = False) -> str:
    if isinstance(node, int):
        return str(node)
    op, left, rhs = node
    prec = _PREC[op]
    text = f"{_render(left, prec)} {op} {_render(rhs, prec, right=True)}"
    # parenthesise a lower-precedence child, and a same-precedence right child of - or / (a - (b - c))
    if prec < parent_prec or (right and prec == parent_prec):
        return f"({text})"
    return text


def _value(node: Any) -> Fraction:
    if isinstance(node, int):
        return Fraction(node)
    op, left, right = node
    a, b = _value(left), _value(right)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b  # ZeroDivisionError is handled by the caller (resample)


class ArithmeticTask(GeneratedTask):
    """Evaluate an integer expression; difficulty 0 (single-digit a + b), 1 (a +- b) to 5 (five operations, fractional answers)."""

    name = "arithmetic"
    verifier_name = "math"

    def __init__(self, size: int = 10_000, seed: int = 0, difficulty: int = 1) -> None:
        if difficulty not in ARITHMETIC_LEVELS:
            raise ConfigError(
                f"arithmetic difficulty must be one of {sorted(ARITHMETIC_LEVELS)}, got {difficulty}"
            )
        self.difficulty = difficulty
        self.description = f"procedural arithmetic, difficulty {difficulty} of 0-5"
        super().__init__(size, seed)

    def _tree(self, rng: np.random.Generator, ops: int, hi: int, operators: str) -> Any:
        if ops == 0:
            return int(rng.integers(1, hi + 1))
        left_ops = int(rng.integers(0, ops))
        op = operators[int(rng.integers(len(operators)))]
        return (
            op,
            self._tree(rng, left_ops, hi, operators),
            self._tree(rng, ops - 1 - left_ops, hi, operators),
        )

    def generate(self, rng: np.random.Generator, index: int) -> Example:
        """A random expression at this difficulty whose value is exact (and an integer below level 5)."""
        ops, hi, operators, fractions_ok, max_abs = ARITHMETIC_LEVELS[self.difficulty]
        while True:
            tree = self._tree(rng, ops, hi, operators)
            try:
                value = _value(tree)
            except ZeroDivisionError:
                continue
            if (
                (fractions_ok or value.denominator == 1)
                and abs(value) <= max_abs
                and value.denominator <= 100
            ):
                break
        return self._from_tree(tree, value, index)

    def _from_tree(self, tree: Any, value: Fraction, index: int | None) -> Example:
        expression = _render(tree)
        prompt = f"Compute {expression}."
        gold = latex_number(value)
        return Example(
            key=example_key(self.name, prompt, gold),
            prompt=prompt,
            reference=gold,
            task=self.name,
            metadata={"difficulty": self.difficulty, "expression": expression, "index": index},
        )

    def support(self) -> list[Example] | None:
        """Difficulties 0 and 1 (one operation): every `a op b`, each equally likely; None above.

        Difficulty 0 has the 81 sums of 1..9, difficulty 1 the 800 sums and differences of 1..20 (both draw
        the operator and the two operands uniformly and reject nothing).
        """
        ops, hi, operators, _, _ = ARITHMETIC_LEVELS[self.difficulty]
        if ops != 1:
            return None
        out = []
        for a in range(1, hi + 1):
            for op in operators:
                for b in range(1, hi + 1):
                    tree = (op, a, b)
                    out.append(self._from_tree(tree, _value(tree), None))
        return out


# ---------------------------------------------------------------- linear equations
def _linear(coef: Fraction, const: Fraction, var: str = "x") -> str:
    """`3x - 7`, `-x + 2`, `5`, `\\frac{1}{2}x + 3` (a side of a linear equation)."""
    parts = []
    if coef != 0:
        c = "" if coef == 1 else "-" if coef == -1 else latex_number(coef)
        parts.append(f"{c}{var}")
    if const != 0 or not parts:
        if parts:
            parts.append(f"{'-' if const < 0 else '+'} {latex_number(abs(const))}")
        else:
            parts.append(latex_number(const))
    return " ".join(parts)


class LinearEquationTask(GeneratedTask):
    """Solve a linear equation in x; difficulty 1 (x + a = b) to 5 (x on both sides, fractional solution)."""

    name = "linear_equations"
    verifier_name = "math"

    def __init__(self, size: int = 10_000, seed: int = 0, difficulty: int = 1) -> None:
        if difficulty not in (1, 2, 3, 4, 5):
            raise ConfigError(f"linear equation difficulty must be 1..5, got {difficulty}")
        self.difficulty = difficulty
        self.description = f"procedural linear equations, difficulty {difficulty} of 5"
        super().__init__(size, seed)

    def generate(self, rng: np.random.Generator, index: int) -> Example:
        """Pick the solution first, then coefficients, so every equation has exactly one solution."""
        d = self.difficulty
        hi = (10, 12, 15, 30, 20)[d - 1]

        def draw() -> Fraction:  # a non-zero coefficient, negative ones from difficulty 3
            while True:
                v = int(rng.integers(-hi if d >= 3 else 1, hi + 1))
                if v != 0:
                    return Fraction(v)

        if d == 5:
            x = Fraction(int(rng.integers(-hi, hi + 1)), int(rng.integers(2, 8)))
        else:
            x = Fraction(int(rng.integers(-hi if d >= 3 else 0, hi + 1)))
        a = Fraction(1) if d == 1 else draw()
        b = draw()
        if d <= 2:
            c, e = Fraction(0), a * x + b
        else:
            while True:
                c = draw()
                if c != a:
                    break
            e = a * x + b - c * x
        prompt = f"Solve for $x$: ${_linear(a, b)} = {_linear(c, e)}$."
        gold = latex_number(x)
        return Example(
            key=example_key(self.name, prompt, gold),
            prompt=prompt,
            reference=gold,
            task=self.name,
            metadata={"difficulty": d, "index": index},
        )

    def gold_completion(self, example: Example) -> str:
        """The solution, boxed."""
        return f"Isolating $x$ gives $x = \\boxed{{{example.reference}}}$."
