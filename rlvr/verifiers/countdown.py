"""The Countdown verifier: does the answer expression reach the target using only the given numbers?

Extract -> parse -> compare. The answer is the last `<answer>...</answer>` block, else the last `\\boxed{}`,
else the last non-empty line; of `lhs = rhs` the side that is an expression is used. The expression is parsed
with Python's `ast` and accepted only if every node is on a whitelist (integers, + - * /, parentheses; unary
minus only if configured) -- nothing is ever `eval`-ed. Each given number may be used at most as often as it is
given (exactly, with `use_all_numbers`), numbers are checked before anything is evaluated, and evaluation is
exact (`fractions.Fraction`), so `(1/3)*3` reaches 1 and no float rounding can fake a hit.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, verifier


@dataclass(frozen=True)
class CountdownProblem:
    """A Countdown instance: reach `target` from `numbers` with + - * / (each number at most once)."""

    numbers: tuple[int, ...]
    target: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", tuple(self.numbers))
        if not self.numbers or not all(isinstance(n, int) and not isinstance(n, bool) for n in self.numbers):
            raise DataError(f"Countdown numbers must be a non-empty list of ints, got {self.numbers!r}")
        if any(n < 0 for n in self.numbers):
            raise DataError(f"Countdown numbers must be non-negative, got {self.numbers!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool):
            raise DataError(f"Countdown target must be an int, got {self.target!r}")

    @classmethod
    def coerce(cls, reference: Any) -> CountdownProblem:
        """Accept a `CountdownProblem` or a mapping with `numbers` and `target` (as stored in jsonl)."""
        if isinstance(reference, CountdownProblem):
            return reference
        if isinstance(reference, Mapping) and "numbers" in reference and "target" in reference:
            return cls(tuple(reference["numbers"]), reference["target"])
        raise DataError(
            f"a Countdown reference is a CountdownProblem or {{'numbers': [...], 'target': int}}, got {reference!r}"
        )


@dataclass(frozen=True)
class CountdownConfig:
    """Settings of the Countdown verifier."""

    #: require every given number to be used exactly as often as given (TinyZero's rule); else at most once
    use_all_numbers: bool = False
    #: allow unary minus (`-3 + 10`); classic Countdown has only the four binary operations
    allow_unary_minus: bool = False
    #: longer answers are rejected unparsed (bounds parse time and memory)
    max_chars: int = 1000

    def __post_init__(self) -> None:
        if self.max_chars < 1:
            raise ConfigError(f"CountdownConfig.max_chars must be >= 1, got {self.max_chars}")


@dataclass(frozen=True)
class CountdownResult:
    """What an answer expression is: its text, exact value (None if invalid), numbers used, and any error."""

    expression: str | None
    value: Fraction | None
    numbers_used: tuple[int, ...] = ()
    error: str | None = None
    reason: str = Reason.CORRECT
    details: Mapping[str, Any] = field(default_factory=dict)


_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_BOXED = re.compile(r"\\boxed\s*\{")
_SUBSTITUTIONS = (
    (re.compile(r"\\left|\\right|\\!|\\,|\\;|\\quad"), ""),
    (re.compile(r"\\times|\\cdot|[×·∗✕]"), "*"),
    (re.compile(r"\\div|÷"), "/"),
    (re.compile(r"[−–—]"), "-"),  # unicode minus and dashes
)
_FRAC = re.compile(r"\\d?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_BARE_NUMBER = re.compile(r"^\s*\(?\s*-?\d+\s*\)?\s*$")


def _last_boxed(text: str) -> str | None:
    for match in reversed(list(_BOXED.finditer(text))):
        depth, start = 1, match.end()
        for i in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                return text[start:i]
    return None


def extract_expression(completion: str) -> str | None:
    """The answer expression of a completion (see the module docstring for the rules), or None."""
    tags = _ANSWER_TAG.findall(completion)
    if tags:
        text = tags[-1]
    else:
        text = _last_boxed(completion)
        if text is None:
            lines = [ln for ln in completion.strip().splitlines() if ln.strip()]
            if not lines:
                return None
            text = lines[-1]
    text = text.strip().strip("$").strip().rstrip(".").strip()
    for _ in range(8):  # nested \frac{..}{..} unwraps from the inside out
        text, n = _FRAC.subn(r"((\1)/(\2))", text)
        if not n:
            break
    for pattern, repl in _SUBSTITUTIONS:
        text = pattern.sub(repl, text)
    text = text.replace("[", "(").replace("]", ")").replace("{", "(").replace("}", ")")
    if "=" in text:
        sides = [s.strip() for s in text.split("=") if s.strip()]
        exprs = [s for s in sides if not _BARE_NUMBER.match(s)]
        text = exprs[0] if exprs else (sides[0] if sides else "")
    return text or None


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def _walk(node: ast.AST, allow_unary: bool, constants: list[int]) -> None:
    """Check every node against the whitelist and collect the integer literals (iteratively: no recursion)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Expression):
            stack.append(n.body)
        elif isinstance(n, ast.BinOp) and type(n.op) in _BINOPS:
            stack.extend((n.left, n.right))
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub | ast.UAdd) and allow_unary:
            stack.append(n.operand)
        elif isinstance(n, ast.Constant) and type(n.value) is int:
            constants.append(n.value)
        else:
            raise ValueError(f"{type(n).__name__} is not allowed (only integers, + - * / and parentheses)")


def _evaluate(node: ast.AST) -> Fraction:
    """Exact value of a whitelisted expression tree (depth is bounded by the number of given numbers)."""
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):  # the whitelist admits ints only
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp):
        v = _evaluate(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    assert isinstance(node, ast.BinOp)
    a, b = _evaluate(node.left), _evaluate(node.right)
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


@verifier("countdown")
class CountdownVerifier(Verifier):
    """Grades Countdown answers: an arithmetic expression over the given numbers that equals the target."""

    enforces_deadline = True  # whitelisted, size-bounded expressions: linear work

    def __init__(self, config: CountdownConfig | None = None, **overrides: Any) -> None:
        self.config = replace(config or CountdownConfig(), **overrides)

    def evaluate(self, completion: str, numbers: Sequence[int]) -> CountdownResult:
        """Extract and check the answer expression; its exact value if it is valid for `numbers`, else None."""
        if not isinstance(completion, str):
            return CountdownResult(None, None, error="completion is not a string", reason=Reason.NO_ANSWER)
        expr = extract_expression(completion[-20 * self.config.max_chars :])
        if expr is None:
            return CountdownResult(None, None, error="no answer expression found", reason=Reason.NO_ANSWER)
        if len(expr) > self.config.max_chars:
            return CountdownResult(
                expr[:80] + "...",
                None,
                error=f"answer longer than {self.config.max_chars} chars",
                reason=Reason.WRONG,
            )
        try:
            tree = ast.parse(expr, mode="eval")
            constants: list[int] = []
            _walk(tree, self.config.allow_unary_minus, constants)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            return CountdownResult(
                expr, None, error=f"not a valid expression: {exc}", reason=Reason.NO_ANSWER
            )
        used = tuple(sorted(constants))
        given, counts = Counter(numbers), Counter(used)
        extra = counts - given
        if extra:
            return CountdownResult(
                expr,
                None,
                used,
                error=f"uses numbers not given (or more often than given): {sorted(extra.elements())}",
                reason=Reason.WRONG,
            )
        if self.config.use_all_numbers and counts != given:
            missing = sorted((given - counts).elements())
            return CountdownResult(expr, None, used, error=f"does not use {missing}", reason=Reason.WRONG)
        try:
            value = _evaluate(tree)
        except ZeroDivisionError as exc:
            return CountdownResult(expr, None, used, error=str(exc), reason=Reason.WRONG)
        except RecursionError:  # only reachable through long unary-minus chains
            return CountdownResult(
                expr, None, used, error="expression nested too deeply", reason=Reason.WRONG
            )
        return CountdownResult(expr, value, used)

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Correct iff the answer is a valid expression over the given numbers whose exact value is the target."""
        try:
            problem = CountdownProblem.coerce(reference)
        except DataError as exc:
            return Verdict.fail(Reason.UNPARSABLE_GOLD, error=str(exc))
        result = self.evaluate(completion, problem.numbers)
        details: dict[str, Any] = {
            "expression": result.expression,
            "value": None if result.value is None else str(result.value),
            "target": problem.target,
            "numbers_used": list(result.numbers_used),
        }
        if result.error is not None:
            return Verdict.fail(result.reason, error=result.error, **details)
        if result.value == problem.target:
            return Verdict.correct(**details)
        return Verdict.fail(Reason.WRONG, **details)

    def validate_reference(self, reference: Any) -> None:
        """Raise `DataError` unless the reference is a well-formed Countdown problem."""
        CountdownProblem.coerce(reference)

    def __repr__(self) -> str:
        return f"CountdownVerifier({self.config})"
