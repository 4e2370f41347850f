"""Countdown: reach a target number from given numbers with + - * / -- a goal-conditioned task.

The goal of an example is its target. A completion that reached another value v (a valid expression over the
given numbers) is a correct answer to the same numbers with target v: `achieved_goal` reads v, `relabel`
builds that example, and `hindsight` does both and grades the completion there (hindsight relabeling: the
replay buffer receives these methods as injected callables).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.types import Example
from rlvr.tasks.base import example_key
from rlvr.tasks.generated import GeneratedTask
from rlvr.verifiers.countdown import CountdownProblem, CountdownVerifier


def countdown_prompt(numbers: Sequence[int], target: int) -> str:
    """The task statement for one Countdown instance."""
    nums = ", ".join(str(n) for n in numbers)
    return (
        f"Using the numbers [{nums}], write an arithmetic expression that equals {target}. "
        "You may use +, -, *, / and parentheses, and each number at most once."
    )


class CountdownTask(GeneratedTask):
    """Countdown instances built from a random expression over random numbers, so each has a solution."""

    name = "countdown"
    verifier_name = "countdown"
    goal_conditioned = True

    def __init__(
        self,
        size: int = 10_000,
        seed: int = 0,
        num_numbers: int = 4,
        max_number: int = 50,
        max_target: int = 1000,
        use_all_numbers: bool = False,
    ) -> None:
        if not 2 <= num_numbers <= 8:
            raise ConfigError(f"Countdown num_numbers must be in 2..8, got {num_numbers}")
        if max_number < 2 or max_target < 2:
            raise ConfigError(
                f"Countdown max_number and max_target must be >= 2, got {max_number}, {max_target}"
            )
        self.num_numbers = num_numbers
        self.max_number = max_number
        self.max_target = max_target
        self.use_all_numbers = use_all_numbers
        self.verifier_config = {"use_all_numbers": use_all_numbers}
        self.description = (
            f"Countdown with {num_numbers} numbers in 1..{max_number}, targets up to {max_target}"
        )
        self._verifier = CountdownVerifier(use_all_numbers=use_all_numbers)
        super().__init__(size, seed)

    def _combine(
        self, rng: np.random.Generator, items: list[tuple[str, Fraction]]
    ) -> tuple[str, Fraction] | None:
        """Fold a list of (expression, value) pairs into one with random operations, integers along the way."""
        items = list(items)
        while len(items) > 1:
            i, j = (int(k) for k in rng.choice(len(items), size=2, replace=False))
            (ea, a), (eb, b) = items[i], items[j]
            op = "+-*/"[int(rng.integers(4))]
            if op == "-" and a < b:
                (ea, a), (eb, b) = (eb, b), (ea, a)
            if op == "/" and (b == 0 or a % b != 0):
                op = "+"
            value = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else a}[op]
            if value < 0 or value.denominator != 1:
                return None
            items = [it for k, it in enumerate(items) if k not in (i, j)] + [(f"({ea} {op} {eb})", value)]
        return items[0]

    def generate(self, rng: np.random.Generator, index: int) -> Example:
        """Draw numbers, combine a subset (all of them with `use_all_numbers`) into the target."""
        while True:
            numbers = [int(n) for n in rng.integers(1, self.max_number + 1, size=self.num_numbers)]
            k = self.num_numbers if self.use_all_numbers else int(rng.integers(2, self.num_numbers + 1))
            chosen = [numbers[int(i)] for i in rng.choice(self.num_numbers, size=k, replace=False)]
            combined = self._combine(rng, [(str(n), Fraction(n)) for n in chosen])
            if combined is None:
                continue
            expr, value = combined
            target = int(value)
            if 1 <= target <= self.max_target and target not in numbers:
                break
        solution = expr[1:-1] if expr.startswith("(") and expr.endswith(")") else expr
        return self._example_for(numbers, target, {"solution": solution, "index": index})

    def _example_for(self, numbers: Sequence[int], target: int, metadata: dict[str, Any]) -> Example:
        problem = CountdownProblem(tuple(numbers), target)
        prompt = countdown_prompt(numbers, target)
        return Example(
            key=example_key(self.name, prompt, {"numbers": list(numbers), "target": target}),
            prompt=prompt,
            reference=problem,
            task=self.name,
            metadata={"numbers": list(numbers), "target": target, **metadata},
            goal=target,
        )

    def gold_completion(self, example: Example) -> str:
        """The constructed solution expression in answer tags (relabeled examples carry none)."""
        solution = example.metadata.get("solution")
        if solution is None:
            raise ValueError(f"Countdown example {example.key} was relabeled and has no stored solution")
        return f"<answer>{solution}</answer>"

    def achieved_goal(self, example: Example, completion: str) -> int | None:
        """The positive integer the completion's expression evaluates to, if it is valid for these numbers."""
        problem = CountdownProblem.coerce(example.reference)
        result = self._verifier.evaluate(completion, problem.numbers)
        if result.value is None or result.value.denominator != 1 or result.value < 1:
            return None
        return int(result.value)

    def relabel(self, example: Example, goal: Any) -> Example:
        """The same numbers with target `goal`: new prompt, reference and key; marked as relabeled."""
        problem = CountdownProblem.coerce(example.reference)
        if not isinstance(goal, int | np.integer) or isinstance(goal, bool):
            raise TypeError(f"a Countdown goal is an int target, got {goal!r}")
        metadata = {k: v for k, v in example.metadata.items() if k not in ("numbers", "target", "solution")}
        metadata.update(relabeled_from=example.key, original_target=problem.target)
        return self._example_for(problem.numbers, int(goal), metadata)
