"""`MathVerifier`: extract -> normalise -> parse -> compare, with a hard deadline on everything unbounded.

How the hard timeout works when `verify` is called directly (not through a `VerifierPool`):

1. The *fast stage* runs in the calling process: extraction, normalisation, parsing and the bounded
   evaluators of `evaluate.py` (exact rationals with size limits, high-precision numerics with magnitude
   limits). Its cost is bounded by construction, so it needs no deadline, and it decides most answers
   (every number, fraction, decimal, rational function, and every refutation) in microseconds. Values too
   large for the bounds (`10^{10^{10}}`, power towers) are decided structurally or answered `timeout` here.
2. Whatever needs sympy (a proof that two different-looking closed forms are equal) is sent, as the whole
   pair, to a shared `VerifierPool` of worker processes that this verifier starts lazily. The pool
   SIGKILLs a worker that passes `timeout_s` and answers `timeout`; the next call gets a fresh worker.
   The pool is thread-safe, so `verify` works from threads, asyncio (`await pool.averify(...)` or
   `loop.run_in_executor`) and Ray actors, none of which `signal.alarm` supports.
3. Inside a pool worker (detected automatically) or with `in_process=True`, the sympy stage runs in the
   current process under a hard deadline of `timeout_s` (`deadline.interrupting`: an exception injected into
   the running thread, so it works in any thread and in daemonic processes); a surrounding pool also kills.

`verify_batch` runs the fast stage here and sends only undecided pairs to the pool, on all cores.
The parsed gold is cached (LRU), so grading many completions of one prompt parses the gold once.
"""

from __future__ import annotations

import dataclasses
import math
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, verifier
from rlvr.verifiers.math import compare as cmp
from rlvr.verifiers.math.choice import answer_start, choice_hedged, stated_choice
from rlvr.verifiers.math.deadline import DeadlineExceeded, HardDeadline, interrupting, within
from rlvr.verifiers.math.extract import METHODS, Extraction, extract_answer, extract_gold
from rlvr.verifiers.math.normalize import canonical_text, currency_unit, normalize_answer
from rlvr.verifiers.math.structure import (
    Answer,
    AnswerParseError,
    Choice,
    Scalar,
    Text,
    describe,
    false_equality,
    parse_answer,
    parse_choice,
)
from rlvr.verifiers.math.vocab import TEXT_FILLERS, counted_label

_COMMA_DECIMAL_RE = re.compile(r"^-?\d+,\d+$")
# a gold written with a decimal comma only where it cannot be a list: `0,111`, `1000,99`, cents `2,74`
_GOLD_COMMA_DECIMAL_RE = re.compile(r"^-?(?:(?:0|\d{4,}),\d+|\d+,\d{2})$")
_TRAILING_WORDS_RE = re.compile(r"(?:\s+[A-Za-z][A-Za-z\-']*\.?)+\s*$")


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

    max_answer_chars: int = 2000
    """Longer extracted answers are `wrong` without parsing (a guard against pathological output)."""

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


@dataclass(frozen=True)
class _Gold:
    """A parsed reference: its answer text and shape, or why it could not be parsed."""

    text: str
    unit: str | None
    answer: Answer | None
    error: str | None
    plain: str = ""  # the text normalised without units (for the comma-decimal reading), computed once


def _close_pool(pool: Any) -> None:
    pool.close()


@verifier("math")
class MathVerifier(Verifier):
    """Grades a math completion against a gold answer (`verify(completion, gold) -> Verdict`)."""

    worker_preload: ClassVar[tuple[str, ...]] = ("rlvr.verifiers.math.symbolic",)
    enforces_deadline = True  # per-stage deadlines here, sympy proofs in its own killable workers

    def __init__(self, config: MathVerifierConfig | None = None, **overrides: Any) -> None:
        if config is not None and not isinstance(config, MathVerifierConfig):
            raise ConfigError(f"MathVerifier takes a MathVerifierConfig, got {type(config).__name__}")
        try:
            self.config = dataclasses.replace(config or MathVerifierConfig(), **overrides)
        except TypeError as exc:
            fields = ", ".join(f.name for f in dataclasses.fields(MathVerifierConfig))
            raise ConfigError(
                f"unknown MathVerifierConfig field in {sorted(overrides)}; fields are: {fields}"
            ) from exc
        self._init_runtime()

    def _init_runtime(self) -> None:
        self._gold_cache: OrderedDict[str, _Gold] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._helper: Any = None  # this verifier's own killable worker pool for the sympy stage (lazy)
        self._helper_lock = threading.Lock()
        self._fast_opts = dataclasses.replace(self.config.compare_options, allow_sympy=False)
        self._full_opts = self.config.compare_options

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config = state["config"]
        self._init_runtime()

    def __repr__(self) -> str:
        return f"MathVerifier({self.config!r})"

    def warmup(self) -> None:
        """Import the sympy stage (pool workers call this before taking jobs)."""
        if self.config.symbolic:
            from rlvr.verifiers.math import symbolic  # noqa: F401

    # -- references ---------------------------------------------------------------------------------------
    def _gold(self, gold: str) -> _Gold:
        with self._cache_lock:
            cached = self._gold_cache.get(gold)
            if cached is not None:
                self._gold_cache.move_to_end(gold)
                return cached
        parsed = self._parse_gold(gold)
        if self.config.gold_cache_size:
            with self._cache_lock:
                self._gold_cache[gold] = parsed
                while len(self._gold_cache) > self.config.gold_cache_size:
                    self._gold_cache.popitem(last=False)
        return parsed

    def _parse_gold(self, gold: Any) -> _Gold:
        if isinstance(gold, int | float) and not isinstance(gold, bool):
            gold = repr(gold) if isinstance(gold, float) else str(gold)
        if not isinstance(gold, str) or not gold.strip():
            return _Gold("", None, None, f"gold answer must be a non-empty string, got {gold!r}")
        text = extract_gold(gold)
        if len(text) > 20 * self.config.max_answer_chars:
            return _Gold(text, None, None, "gold answer is too long to be an answer")
        plain = normalize_answer(text, units=False).text
        choice = parse_choice(plain)
        if choice is not None and len(text.strip().strip("()$").replace("\\text", "").strip("{}()")) == 1:
            return _Gold(text, None, choice, None)
        option = _gold_option(text)
        if option is not None:
            return _Gold(text, None, Choice(option), None)
        norm = normalize_answer(text, units=self.config.strip_units)
        unit = norm.unit or (currency_unit(text) if self.config.strip_units else None)
        try:
            return _Gold(text, unit, parse_answer(norm.text), None, plain)
        except AnswerParseError as exc:
            return _Gold(text, norm.unit, None, str(exc))
        except RecursionError:
            return _Gold(text, norm.unit, None, "gold answer nested too deeply")

    def validate_reference(self, reference: Any) -> None:
        """Raise `DataError` if the gold answer cannot be parsed (tasks call this when they load)."""
        parsed = self._gold(reference) if isinstance(reference, str) else self._parse_gold(reference)
        if parsed.answer is None:
            raise DataError(
                f"math gold answer {reference!r} cannot be parsed ({parsed.error}); fix or drop this row, or "
                "give the answer in plain LaTeX such as '\\frac{1}{2}', '(1, 2)' or '[0, \\infty)'"
            )

    # -- grading -------------------------------------------------------------------------------------------
    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade `completion` against the gold `reference`; never raises on model output."""
        try:
            verdict = self._check(completion, reference, self._fast_opts)
        except Exception as exc:  # a bug here must not crash an RL loop
            return Verdict.fail(Reason.ERROR, error=f"{type(exc).__name__}: {exc}")
        if verdict is not None:
            return verdict
        if self.config.in_process or _in_worker():
            return self._check_full(completion, reference)
        try:
            return self._pool().verify(completion, reference)
        except RuntimeError as exc:  # the worker pool cannot run here (see the message): report, never raise
            return Verdict.fail(Reason.ERROR, error=str(exc))

    def verify_batch(self, pairs: Iterable[tuple[str, Any]]) -> list[Verdict]:
        """Grade many pairs: cheap checks here, sympy checks on all cores; results in input order."""
        pairs = list(pairs)
        results: list[Verdict | None] = []
        for completion, reference in pairs:
            try:
                results.append(self._check(completion, reference, self._fast_opts))
            except Exception as exc:
                results.append(Verdict.fail(Reason.ERROR, error=f"{type(exc).__name__}: {exc}"))
        todo = [i for i, v in enumerate(results) if v is None]
        if todo:
            if self.config.in_process or _in_worker():
                for i in todo:
                    results[i] = self._check_full(*pairs[i])
            else:
                try:
                    pool = self._pool()
                    futures = {i: pool.submit(*pairs[i]) for i in todo}
                    for i, fut in futures.items():
                        results[i] = fut.result()
                except RuntimeError as exc:  # the worker pool cannot run here: report, never raise
                    for i in todo:
                        if results[i] is None:
                            results[i] = Verdict.fail(Reason.ERROR, error=str(exc))
        return [v for v in results if v is not None]

    def _check_full(self, completion: str, reference: Any) -> Verdict:
        budget = self.config.timeout_s
        self.warmup()  # imports outside the deadline: an import cut short leaves a half-initialised module
        try:
            # sympy never calls check(): a hard deadline interrupts it, in whatever process or thread we are
            with interrupting(budget + 0.05):
                verdict = self._check(completion, reference, self._full_opts)
        except HardDeadline:
            return Verdict.fail(Reason.TIMEOUT, error=f"the sympy stage passed its {budget:g} s deadline")
        except RecursionError:
            return Verdict.fail(Reason.WRONG, error="expression nested too deeply")
        except Exception as exc:
            return Verdict.fail(Reason.ERROR, error=f"{type(exc).__name__}: {exc}")
        assert verdict is not None  # with sympy allowed every comparison decides
        return verdict

    def _pool(self) -> Any:
        """This verifier's own worker pool for the sympy stage (started on first use, closed with it).

        Owned by the instance, not shared through module state: `close()` (or garbage collection) stops it.
        Inside daemonic processes the pool starts its workers as fresh interpreters (`subprocess`).
        """
        with self._helper_lock:
            if self._helper is None:
                from rlvr.verifiers.pool import VerifierPool

                worker = MathVerifier(dataclasses.replace(self.config, in_process=True))
                self._helper = VerifierPool(
                    worker, num_workers=self.config.num_workers, timeout_s=self.config.timeout_s
                )
                weakref.finalize(self, _close_pool, self._helper)
            return self._helper

    def close(self) -> None:
        """Stop this verifier's sympy worker processes, if any were started (a later call starts new ones)."""
        with self._helper_lock:
            helper, self._helper = self._helper, None
        if helper is not None:
            helper.close()

    def _check(self, completion: str, reference: Any, opts: cmp.CompareOptions) -> Verdict | None:
        """The verdict, or None when only the sympy stage can decide; `timeout` past the stage's deadline."""
        budget = self.config.fast_timeout_s if not opts.allow_sympy else self.config.timeout_s
        try:
            with within(budget):
                return self._decide(completion, reference, opts)
        except DeadlineExceeded:
            return Verdict.fail(
                Reason.TIMEOUT, error=f"the in-process stage passed its {budget:g} s deadline"
            )

    def _decide(self, completion: str, reference: Any, opts: cmp.CompareOptions) -> Verdict | None:
        gold = self._gold(reference) if isinstance(reference, str) else self._parse_gold(reference)
        if gold.answer is None:
            return Verdict.fail(Reason.UNPARSABLE_GOLD, gold=str(reference)[:200], error=gold.error)
        if not isinstance(completion, str):
            return Verdict.fail(
                Reason.NO_ANSWER, error=f"completion must be a string, got {type(completion).__name__}"
            )
        found = extract_answer(completion, self.config.extraction)
        if isinstance(gold.answer, Choice) and (
            found is None or parse_choice(normalize_answer(found.answer, units=False).text) is None
        ):
            letter = stated_choice(completion)  # "The answer is for sure D, it can't be A or B"
            found = Extraction(letter, "choice") if letter else found
        if found is None or not found.answer.strip():
            return Verdict.fail(Reason.NO_ANSWER, method=found.method if found else None)
        details: dict[str, Any] = {
            "extracted": found.answer[:500],
            "method": found.method,
            "gold": gold.text[:200],
        }
        if len(found.answer) > self.config.max_answer_chars:
            return Verdict.fail(Reason.WRONG, error="answer too long", **details)
        if isinstance(gold.answer, Choice):
            choice = parse_choice(normalize_answer(found.answer, units=False).text)
            details["parsed"] = choice.letter if choice else None
            if choice is not None and choice_hedged(completion[answer_start(completion) :], choice.letter):
                return Verdict.fail(Reason.WRONG, error="the answer names more than one option", **details)
            # `\\text{(B)}^{\\times}`: an option with a mark on it (crossed out, starred) is not chosen plainly
            ok = (
                choice is not None
                and choice.letter == gold.answer.letter
                and not _MARKED_OPTION_RE.search(found.answer)
            )
            return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)
        norm = normalize_answer(found.answer, units=self.config.strip_units)
        if isinstance(gold.answer, Text):
            # `\\text{odd?}` asks rather than answers; the key drops punctuation, so look at the text itself
            # `\\text{yes}^*`: a mark on a text answer is not the text
            ok = (
                "?" not in found.answer
                and "^" not in found.answer
                and _text_key(canonical_text(found.answer)) == _text_key(gold.answer.key)
            )
            details["parsed"] = canonical_text(found.answer)
            return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)
        if "$" not in found.answer and false_equality(norm.text):  # `\\$ = ` is a currency, not an equality
            return Verdict.fail(Reason.WRONG, error="a false equality (`3 = 4`) answers nothing", **details)
        pred = self._parse_pred(norm.text)
        if pred is None:
            return Verdict.fail(Reason.WRONG, error="the answer could not be parsed", **details)
        details["parsed"] = describe(pred)[:500]
        details["gold_parsed"] = describe(gold.answer)[:500]
        unit = norm.unit or (currency_unit(found.answer) if self.config.strip_units else None)
        if unit in _ANGLE_UNITS and _in_degrees(gold.answer):  # `60 \\text{ rad}` is not `60^\\circ`
            return Verdict.fail(
                Reason.WRONG, error=f"unit {unit!r} differs from the gold's degrees", **details
            )
        angle = _angle_mismatch(gold.answer, gold.text, norm.text)
        if angle is not None:  # `60 \\text{ turns}` is not `60^\\circ`, `1.047^\\circ` is not `\\pi/3`
            return Verdict.fail(Reason.WRONG, error=angle, **details)
        if gold.unit and unit and gold.unit != unit:  # `5 cents` is not `\\$5`
            return Verdict.fail(
                Reason.WRONG, error=f"unit {unit!r} differs from the gold's {gold.unit!r}", **details
            )
        try:
            ok = cmp.answers_equal(gold.answer, pred, opts) or self._comma_decimal_equal(
                gold, pred, norm.text, opts
            )
        except cmp.NeedsSympy:
            if not self.config.symbolic:
                return Verdict.fail(
                    Reason.WRONG, error="deciding needs the sympy stage, which is disabled", **details
                )
            return None
        except cmp.Undecidable as exc:
            return Verdict.fail(Reason.TIMEOUT, error=str(exc), **details)
        return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)

    @staticmethod
    def _comma_decimal_equal(gold: _Gold, pred: Answer, pred_text: str, opts: cmp.CompareOptions) -> bool:
        """`1000,99` for `1000.99`, a gold `0,111` for `0.111`: one comma between digits, no space, is a
        decimal point when the other side is one number (a list `{1000, 99}` could never match a number)."""
        gold_text = gold.plain
        mine: Answer
        other: Answer
        if _COMMA_DECIMAL_RE.match(pred_text) and isinstance(gold.answer, Scalar):
            mine, other = parse_answer(pred_text.replace(",", ".")), gold.answer
        elif _GOLD_COMMA_DECIMAL_RE.match(gold_text) and isinstance(pred, Scalar):
            mine, other = pred, parse_answer(gold_text.replace(",", "."))
        else:
            return False
        return cmp.answers_equal(other, mine, opts)

    @staticmethod
    def _parse_pred(text: str) -> Answer | None:
        """Parse a completion's answer; a label after a number (`5 boxes`) is dropped as a last resort.

        Only a label of what was counted is dropped (`counted_label`): a tail that could change or qualify
        the value (`3 or more`, `3 times x`, `5 thousand`, `2 cubed`) leaves the answer unparsable (wrong).
        """
        try:
            answer = parse_answer(text)
        except (AnswerParseError, RecursionError):
            answer = None
        if answer is None or isinstance(answer, Text):
            stripped = _TRAILING_WORDS_RE.sub("", text)
            if stripped and stripped != text and counted_label(text[len(stripped) :].split()):
                try:
                    return parse_answer(stripped)
                except (AnswerParseError, RecursionError):
                    return answer
        return answer


# An option with its text (`(D) Alina`, `C Cecile`): a letter, then a capitalised word (a name or a sentence),
# not a formula (`A = 3`), a single letter (`A B`) or an article before lower case (`A circle`).
_GOLD_OPTION_RE = re.compile(r"^\s*(?:\(([A-J])\)\s+\S|([A-J])[.:)]?\s+[A-Z][a-z])")
_GOLD_ANSWER_PHRASE_RE = re.compile(r"\bthe\s+answer\s+is\s*:?\s*(?=\S)", re.IGNORECASE)


def _gold_option(text: str) -> str | None:
    """The option letter a multiple-choice gold written with its option text states, or None.

    The option line is the gold's first line, or what follows its last "the answer is" (lighteval's golds
    `A Peter\nCelina bum`, `Alina and the answer is\n(C) Cecile`); the rest of the gold is the option's text.
    """
    phrases = list(_GOLD_ANSWER_PHRASE_RE.finditer(text))
    line = (text[phrases[-1].end() :] if phrases else text).strip().split("\n", 1)[0]
    m = _GOLD_OPTION_RE.match(line)
    return (m.group(1) or m.group(2)) if m else None


_ANGLE_UNITS = frozenset(["radian", "rad", "gradian", "grad"])


def _in_degrees(answer: Answer) -> bool:
    """Whether a (gold) answer is an angle marked in degrees (`60^\\circ`)."""
    return isinstance(answer, Scalar) and answer.node[0] == "deg"


_MARKED_OPTION_RE = re.compile(r"\b[A-J]\s*\)?\s*\}?\s*\^")
_TRAILING_WORD_RE = re.compile(r"[\d}\s]([A-Za-z]{3,})\s*$")


def _angle_mismatch(gold: Answer, gold_text: str, pred_text: str) -> str | None:
    """Why an angle's unit differs from the gold's, or None: a gold in degrees is answered in degrees (not
    `turns`, `arcminutes`), a gold in radians (a multiple of pi) is not answered in degrees."""
    m = _TRAILING_WORD_RE.search(pred_text)
    word = m.group(1).lower().rstrip("s") if m else None
    degrees = "\u00b0" in pred_text or word in ("degree", "deg")
    if _in_degrees(gold) and word is not None and not degrees:
        return f"unit {word!r} is not the gold's degrees"
    # `90^\\circ` converts to pi/2; `\\frac{\\pi}{3}` degrees or `1.047^\\circ` (radians marked as degrees) do not
    radians_marked = "\\pi" in pred_text or re.search(r"\d\.\d", pred_text)
    if not _in_degrees(gold) and "\\pi" in gold_text and degrees and "=" not in pred_text and radians_marked:
        return "radians marked as degrees against a gold in radians"
    return None


def _text_key(key: str) -> str:
    """A text answer's key without words that do not change it (`odd function` is `odd`)."""
    return " ".join(w for w in key.split() if w not in TEXT_FILLERS) or key


def _in_worker() -> bool:
    from rlvr.verifiers.pool import in_worker

    return in_worker()
