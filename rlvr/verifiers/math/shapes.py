"""The shapes an answer can have (a scalar, a tuple or set, an interval, a union, an equation, a relation, a
matrix, an option letter, text), each with how it is shown in a verdict; `structure.py` parses text into them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rlvr.verifiers.math.tree import Node, to_text


class AnswerParseError(ValueError):
    """The answer has no parse as any supported shape."""


@dataclass(eq=False)
class Scalar:
    """One expression. `cache` memoises its exact/numeric/sympy values (answers of golds are reused)."""

    node: Node
    text: str
    # keyed by (variant key, what was computed); the value is (ok, result or the exception raised)
    cache: dict[tuple[str, str], tuple[bool, Any]] = field(default_factory=dict, repr=False)

    def show(self) -> str:
        return to_text(self.node)


@dataclass(eq=False)
class Seq:
    """Several answers: `ordered` for tuples/points/sequences, unordered for sets and bare lists."""

    items: list[Answer]
    ordered: bool
    left: str = ""
    right: str = ""

    def show(self) -> str:
        if self.left == ":":
            return ":".join(i.show() for i in self.items)
        inner = ", ".join(i.show() for i in self.items)
        return f"{self.left or ('' if self.ordered else '{')}{inner}{self.right or ('' if self.ordered else '}')}"


@dataclass(eq=False)
class Interval:
    """A real interval with open (True) or closed (False) ends; infinite ends are open."""

    lo: Scalar
    hi: Scalar
    lo_open: bool
    hi_open: bool

    def show(self) -> str:
        return (
            f"{'(' if self.lo_open else '['}{self.lo.show()}, {self.hi.show()}{')' if self.hi_open else ']'}"
        )


@dataclass(eq=False)
class Union:
    """A union of intervals and finite sets."""

    parts: list[Answer]

    def show(self) -> str:
        return " ∪ ".join(p.show() for p in self.parts)


@dataclass(eq=False)
class Equation:
    """`lhs = rhs` (a relation of two answers)."""

    lhs: Answer
    rhs: Answer

    def show(self) -> str:
        return f"{self.lhs.show()} = {self.rhs.show()}"


@dataclass(eq=False)
class Relation:
    """An inequality that is not a single-variable interval (`x + y > 2`): compared as text of its parts."""

    parts: list[Scalar]
    ops: list[str]

    def show(self) -> str:
        out = self.parts[0].show()
        for op, part in zip(self.ops, self.parts[1:]):
            out += f" {op} {part.show()}"
        return out


@dataclass(eq=False)
class Matrix:
    """A matrix (list of rows of scalars); a vector is a one-column or one-row matrix."""

    rows: list[list[Scalar]]

    def show(self) -> str:
        return "[" + "; ".join(", ".join(c.show() for c in row) for row in self.rows) + "]"


@dataclass(eq=False)
class Choice:
    """A multiple-choice letter; a gold may carry the chosen option's value (AoPS `\\textbf{(C)}\\ 12`)."""

    letter: str
    value: Answer | None = None

    def show(self) -> str:
        return self.letter


@dataclass(eq=False)
class Text:
    """A text answer, compared by its canonical form (case, spacing, punctuation and LaTeX ignored)."""

    key: str

    def show(self) -> str:
        return self.key


Answer = Scalar | Seq | Interval | Union | Equation | Relation | Matrix | Choice | Text


def describe(answer: Answer) -> str:
    """A readable rendering of a parsed answer (for `Verdict.details`)."""
    return answer.show()
