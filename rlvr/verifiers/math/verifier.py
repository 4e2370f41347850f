"""`MathVerifier`: extract -> normalise -> parse -> compare, with a hard deadline on everything unbounded.

How the hard timeout works when `verify` is called directly (not through a `VerifierPool`):

1. The *fast stage* runs in the calling process: extraction, normalisation, parsing and the bounded
   evaluators of `evaluate.py` (exact rationals with size limits, high-precision numerics with magnitude
   limits). It decides most answers (every number, fraction, decimal, rational function, and every
   refutation) in microseconds, under a deadline of `fast_timeout_s`: its loops check the clock, and the
   same hard deadline as in 3. stops any pass that does not (a quadratic scan of a huge reply is `timeout`,
   not a hang). Values too large for the bounds (`10^{10^{10}}`, power towers) are decided structurally or
   answered `timeout` here.
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
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, ClassVar

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, verifier
from rlvr.verifiers.math import compare as cmp
from rlvr.verifiers.math.config import MathVerifierConfig
from rlvr.verifiers.math.deadline import DeadlineExceeded, HardDeadline, interrupting, recursion_room, within
from rlvr.verifiers.math.decide import decide
from rlvr.verifiers.math.gold import Gold, parse_gold


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
        self._gold_cache: OrderedDict[str, Gold] = OrderedDict()
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
    def _gold(self, gold: str) -> Gold:
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

    def _parse_gold(self, gold: Any) -> Gold:
        return parse_gold(gold, self.config)

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
        self.warmup()  # imports outside the deadline: an import cut short leaves a half-initialised module
        try:
            verdict = self._check(completion, reference, self._full_opts)
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
        stage = "sympy" if opts.allow_sympy else "in-process"
        try:
            # the loops call check(); sympy and any loop that does not are stopped by the hard deadline, which
            # is innermost so that it is cleared before the other blocks restore their state
            with within(budget), recursion_room(), interrupting(budget + _HARD_GRACE_S):
                return self._decide(completion, reference, opts)
        except (DeadlineExceeded, HardDeadline):
            return Verdict.fail(Reason.TIMEOUT, error=f"the {stage} stage passed its {budget:g} s deadline")

    def _decide(self, completion: str, reference: Any, opts: cmp.CompareOptions) -> Verdict | None:
        gold = self._gold(reference) if isinstance(reference, str) else self._parse_gold(reference)
        if gold.answer is None:
            return Verdict.fail(Reason.UNPARSABLE_GOLD, gold=str(reference)[:200], error=gold.error)
        return decide(completion, gold, self.config, opts)


#: How long past a stage's cooperative deadline its hard deadline interrupts it (the cooperative one reports
#: where it stopped; the hard one catches code that never checks the clock)
_HARD_GRACE_S = 0.05


def _in_worker() -> bool:
    from rlvr.verifiers.pool import in_worker

    return in_worker()
