"""Rubrics: a weighted sum of verifiers (correctness, format rewards, penalties) that is itself a `Verifier`.

    rubric = Rubric([
        ("correct", MathVerifier(), 1.0),
        ("boxed", BoxedFormat(), 0.1),            # a small reward for answering in \\boxed{}
        ("length", LengthPenalty(2000, 6000), -0.2),  # up to -0.2 for rambling
    ])
    rubric.verify(completion, gold).score

`score = clip(sum(w_i * s_i) / sum(w_i for w_i > 0), 0, 1)`: positive weights are rewards normalised to
[0, 1], negative weights subtract (penalty verifiers score 1 for the full penalty). `passed` and `reason`
come from one term, by default the first (so accuracy metrics keep meaning "solved"), and every term's
score and reason are in `details["rubric"]`. Terms run through their own `verify_batch`, so a
`MathVerifier` term still grades a batch on all cores.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, verifier
from rlvr.verifiers.math.extract import last_boxed


@dataclass(frozen=True)
class RubricTerm:
    """One weighted part of a rubric: its name (a key in the verdict's details), verifier and weight."""

    name: str
    verifier: Verifier
    weight: float

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError(f"a rubric term needs a non-empty name, got {self.name!r}")
        if not isinstance(self.verifier, Verifier):
            raise ConfigError(
                f"rubric term {self.name!r} needs a Verifier instance, got {self.verifier!r}; wrap plain functions "
                "with @verifier or FunctionVerifier"
            )
        if (
            not isinstance(self.weight, int | float)
            or self.weight != self.weight
            or abs(self.weight) == float("inf")
        ):
            raise ConfigError(f"rubric term {self.name!r} needs a finite weight, got {self.weight!r}")


@verifier("rubric")
class Rubric(Verifier):
    """A weighted combination of verifiers; see the module docstring for how the score is formed."""

    def __init__(
        self, terms: Sequence[RubricTerm | tuple[str, Verifier, float]], *, passed_by: str | None = None
    ) -> None:
        built = [t if isinstance(t, RubricTerm) else RubricTerm(*t) for t in terms]
        if not built:
            raise ConfigError("a Rubric needs at least one term, e.g. [('correct', MathVerifier(), 1.0)]")
        names = [t.name for t in built]
        if len(set(names)) != len(names):
            raise ConfigError(f"rubric term names must be unique, got {names}")
        if not any(t.weight > 0 for t in built):
            raise ConfigError(
                "a Rubric needs at least one term with a positive weight (the reward to normalise by)"
            )
        if passed_by is not None and passed_by not in names:
            raise ConfigError(f"passed_by={passed_by!r} is not a term name; choose one of {names}")
        self.terms = tuple(built)
        self.passed_by = passed_by or names[0]
        self._norm = sum(t.weight for t in built if t.weight > 0)

    def _combine(self, verdicts: list[Verdict]) -> Verdict:
        total = sum(t.weight * v.score for t, v in zip(self.terms, verdicts))
        score = min(1.0, max(0.0, total / self._norm))
        primary = verdicts[[t.name for t in self.terms].index(self.passed_by)]
        parts = {
            t.name: {"score": v.score, "weight": t.weight, "reason": v.reason}
            for t, v in zip(self.terms, verdicts)
        }
        return Verdict(score, primary.passed, primary.reason, {**primary.details, "rubric": parts})

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade with every term and combine."""
        return self._combine([t.verifier.verify(completion, reference) for t in self.terms])

    def verify_batch(self, pairs: Iterable[tuple[str, Any]]) -> list[Verdict]:
        """Grade a batch term by term (each term's own batching/parallelism), then combine per pair."""
        pairs = list(pairs)
        columns = [t.verifier.verify_batch(pairs) for t in self.terms]
        return [self._combine([col[i] for col in columns]) for i in range(len(pairs))]

    def validate_reference(self, reference: Any) -> None:
        """Every term must accept the reference."""
        for term in self.terms:
            term.verifier.validate_reference(reference)

    def __repr__(self) -> str:
        inner = ", ".join(f"({t.name!r}, {t.verifier!r}, {t.weight})" for t in self.terms)
        return f"Rubric([{inner}], passed_by={self.passed_by!r})"


@verifier("format/boxed")
class BoxedFormat(Verifier):
    """Scores 1 when the completion ends its answer in a non-empty, closed `\\boxed{...}` (ignores the reference)."""

    enforces_deadline = True  # one linear scan

    def verify(self, completion: str, reference: Any = None) -> Verdict:
        """1.0 for a usable last box, else 0.0 with reason `no_answer`."""
        boxed = last_boxed(completion) if isinstance(completion, str) else None
        if boxed:
            return Verdict.correct(boxed=boxed[:200])
        return Verdict.fail(Reason.NO_ANSWER, boxed="" if boxed == "" else None)


@verifier("format/regex")
class RegexFormat(Verifier):
    """Scores 1 when the completion matches a regular expression (e.g. `<think>.*</think>`)."""

    def __init__(self, pattern: str, *, fullmatch: bool = False, flags: int = re.DOTALL) -> None:
        try:
            self.regex = re.compile(pattern, flags)
        except re.error as exc:
            raise ConfigError(f"RegexFormat pattern {pattern!r} does not compile: {exc}") from exc
        self.fullmatch = fullmatch

    def verify(self, completion: str, reference: Any = None) -> Verdict:
        """1.0 if the pattern matches (anywhere, or the whole text with `fullmatch`), else 0.0."""
        if not isinstance(completion, str):
            return Verdict.fail(Reason.NO_ANSWER)
        match = self.regex.fullmatch(completion) if self.fullmatch else self.regex.search(completion)
        return Verdict.correct() if match else Verdict.fail(Reason.WRONG, pattern=self.regex.pattern)

    def __repr__(self) -> str:
        return f"RegexFormat({self.regex.pattern!r}, fullmatch={self.fullmatch})"


@verifier("penalty/length")
class LengthPenalty(Verifier):
    """A penalty in [0, 1] for long completions: 0 up to `target_chars`, rising linearly to 1 at `max_chars`.

    Use it with a negative weight in a `Rubric`. Length is counted in characters (verifiers see text, not
    tokens); `passed` is True while there is no penalty.
    """

    enforces_deadline = True  # counts characters

    def __init__(self, target_chars: int, max_chars: int) -> None:
        if not (
            isinstance(target_chars, int) and isinstance(max_chars, int) and 0 <= target_chars < max_chars
        ):
            raise ConfigError(
                f"LengthPenalty needs integers 0 <= target_chars < max_chars, got {target_chars!r}, {max_chars!r}"
            )
        self.target_chars = target_chars
        self.max_chars = max_chars

    def verify(self, completion: str, reference: Any = None) -> Verdict:
        """The penalty for this completion's length (score 1 = full penalty)."""
        n = len(completion) if isinstance(completion, str) else 0
        penalty = min(1.0, max(0.0, (n - self.target_chars) / (self.max_chars - self.target_chars)))
        if penalty == 0:
            return Verdict(0.0, True, Reason.CORRECT, {"chars": n})
        return Verdict(penalty, False, Reason.WRONG, {"chars": n})

    def __repr__(self) -> str:
        return f"LengthPenalty({self.target_chars}, {self.max_chars})"
