"""`MathVerifierConfig`: the settings of `MathVerifier`, checked when they are made."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rlvr.core.errors import ConfigError
from rlvr.verifiers.math import compare as cmp
from rlvr.verifiers.math.extract import METHODS


@dataclass(frozen=True)
class MathVerifierConfig:
    """Settings of `MathVerifier`; every field has a default that suits RL on MATH/GSM8K-style data."""

    timeout_s: float = 5.0
    """Hard deadline in seconds for one verification's sympy stage; past it the worker is killed -> `timeout`."""

    fast_timeout_s: float = 1.0
    """Deadline in seconds for the in-process stages of one verification (extract, parse, exact and numeric
    comparison), checked cooperatively; past it the verdict is `timeout`."""

    num_workers: int | None = None
    """Worker processes for the sympy stage and `verify_batch` (None: one per available CPU)."""

    rel_tol: float = 1e-9
    """Unused, kept so configs that set it still load: no decimal is matched within a tolerance (a completion's
    decimal must be the value correctly rounded at its own digits, two decimals must be equal), since every
    tolerance accepts a decimal with a wrong digit (`123456789012.0` for 123456789013)."""

    min_significant_digits: int = 3
    """A decimal approximation of a closed form counts only if it gives at least this many significant digits
    and equals the exact value rounded or truncated to those digits (`1.41` for `\\sqrt{2}`, not `1.4`)."""

    extraction: tuple[str, ...] = METHODS
    """Where to look for the answer in a completion, in order: `boxed`, `gsm8k`, `final_answer`, `last_math`."""

    strip_units: bool = True
    """Drop units and currency after a number (`5\\text{ cm}` -> 5); differing units on both sides are wrong."""

    percent: bool = True
    """`50\\%` also matches `0.5` and `50`."""

    degrees: bool = True
    """`30^\\circ` also matches `30` and `\\frac{\\pi}{6}`."""

    symbolic: bool = True
    """Use the sympy stage; if False, answers the fast stage cannot decide are `wrong` and no workers start."""

    in_process: bool = False
    """Run the sympy stage in this process without a deadline (for code already inside a killable worker)."""

    max_answer_chars: int = 10000
    """Longer extracted answers are `wrong` without parsing (a guard against pathological output; 10000 holds
    a 5000-digit integer or 4900 nested brackets)."""

    gold_cache_size: int = 4096
    """How many parsed gold answers to keep (0 disables the cache)."""

    def __post_init__(self) -> None:
        if isinstance(self.extraction, str | list):
            object.__setattr__(
                self,
                "extraction",
                (self.extraction,) if isinstance(self.extraction, str) else tuple(self.extraction),
            )
        checks = [
            (
                isinstance(self.timeout_s, int | float) and 0 < self.timeout_s < math.inf,
                f"timeout_s must be a positive number of seconds, got {self.timeout_s!r}; e.g. timeout_s=5",
            ),
            (
                isinstance(self.fast_timeout_s, int | float) and 0 < self.fast_timeout_s < math.inf,
                f"fast_timeout_s must be a positive number of seconds, got {self.fast_timeout_s!r}; e.g. 1.0",
            ),
            (
                self.num_workers is None or (isinstance(self.num_workers, int) and self.num_workers >= 1),
                f"num_workers must be None (one per CPU) or an int >= 1, got {self.num_workers!r}",
            ),
            (
                isinstance(self.rel_tol, int | float) and 0 <= self.rel_tol < 0.5,
                f"rel_tol must be in [0, 0.5), got {self.rel_tol!r}; use 0 to accept only the digits-given rule",
            ),
            (
                isinstance(self.min_significant_digits, int) and self.min_significant_digits >= 1,
                f"min_significant_digits must be an int >= 1, got {self.min_significant_digits!r}",
            ),
            (
                bool(self.extraction) and all(m in METHODS for m in self.extraction),
                f"extraction must be a non-empty tuple drawn from {METHODS}, got {self.extraction!r}",
            ),
            (
                isinstance(self.max_answer_chars, int) and self.max_answer_chars >= 1,
                f"max_answer_chars must be an int >= 1, got {self.max_answer_chars!r}",
            ),
            (
                isinstance(self.gold_cache_size, int) and self.gold_cache_size >= 0,
                f"gold_cache_size must be an int >= 0 (0 disables caching), got {self.gold_cache_size!r}",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(f"MathVerifierConfig: {message}")

    @property
    def compare_options(self) -> cmp.CompareOptions:
        """The knobs the comparison layer needs."""
        return cmp.CompareOptions(self.rel_tol, self.min_significant_digits, self.percent, self.degrees, True)
