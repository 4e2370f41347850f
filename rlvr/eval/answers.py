"""Answers for majority voting: reading the extracted answer off a verdict, and clustering equivalent answers.

maj@k votes over *answers*, and two answers vote together when the task's verifier says they are equal
(`\\frac12` and `0.5`), not when their strings are. How to ask a verifier "is answer a equal to answer b" is
registered per verifier name in `EQUIVALENCES`: for the math verifier, answer b is the reference and
`\\boxed{a}` the completion, so equality is exactly the verifier's grading, including its timeouts when the
comparisons run in the verifier pool. Verifiers without an entry (code, ...) get no maj@k.

Clustering of one problem's samples: every sample the verifier passed is equal to the gold answer, so the
passed samples form one cluster (the correct one) without further comparisons; each failing answer joins the
first earlier cluster whose representative it equals, else opens a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rlvr.core.registry import Registry
from rlvr.core.types import Verdict

#: keys under which verifiers report the answer they extracted from a completion, in order of preference
EXTRACTED_KEYS = ("extracted", "extracted_answer", "answer", "prediction", "pred")

#: a verifier name -> fn(answer_a, answer_b) giving the (completion, reference) pair whose verdict says a == b
EQUIVALENCES: Registry[Callable[[str, str], tuple[str, Any]]] = Registry("answer equivalence")
EQUIVALENCES.register("math", lambda a, b: (f"\\boxed{{{a}}}", b))

#: verdict reasons that say the right-hand answer could not serve as a reference (compare strings instead)
_UNGRADEABLE = frozenset({"unparsable_gold", "error"})

#: grades (completion, reference) pairs in order, e.g. a `VerifierPool.verify_batch` or `Verifier.verify_batch`
VerifyBatch = Callable[[list[tuple[str, Any]]], Sequence[Verdict]]


def extracted_answer(verdict: Verdict) -> str | None:
    """The answer the verifier extracted from the completion (None if it found none or does not report it)."""
    if verdict.reason in ("no_answer", "no_code"):
        return None
    for key in EXTRACTED_KEYS:
        value = verdict.details.get(key)
        if value is not None and str(value).strip():
            return str(value)
    return None


def equivalence_for(verifier: Any) -> Callable[[str, str], tuple[str, Any]] | None:
    """The registered answer equivalence of a verifier (by its registry name), or None if it has none."""
    name = getattr(verifier, "name", None)
    if isinstance(name, str) and name in EQUIVALENCES:
        return EQUIVALENCES.get(name)
    return None


def _norm(answer: str) -> str:
    return " ".join(answer.split())


def cluster_answers(
    answers: Sequence[Sequence[str | None]],
    passed: Sequence[Sequence[bool]],
    equivalence: Callable[[str, str], tuple[str, Any]],
    verify_batch: VerifyBatch,
) -> list[tuple[list[int | None], int | None]]:
    """Per problem: (cluster id per sample, None where no answer; the id of the correct cluster or None).

    Each round compares the next unplaced answer of every problem with all of that problem's clusters, in one
    `verify_batch` call (one pool call per round; the number of rounds is the largest number of distinct
    wrong answers of one problem).
    """
    results: list[tuple[list[int | None], int | None]] = []
    # per problem: distinct wrong answers (normalised text) in order of first appearance
    pending: list[list[str]] = []
    for ans, ok in zip(answers, passed):
        correct = 0 if any(ok) else None
        distinct: list[str] = []
        for a, right in zip(ans, ok):
            if a is not None and not right and _norm(a) not in distinct:
                distinct.append(_norm(a))
        pending.append(distinct)
        results.append(([None] * len(ans), correct))
    # reps[p]: (representative answer, cluster id) of the wrong-answer clusters found so far
    reps: list[list[tuple[str, int]]] = [[] for _ in answers]
    assigned: list[dict[str, int]] = [{} for _ in answers]
    cursor = [0] * len(answers)  # index into pending[p] of the answer being placed
    next_id = [1 if any(ok) else 0 for ok in passed]

    def open_cluster(p: int, a: str) -> None:
        assigned[p][a] = next_id[p]
        reps[p].append((a, next_id[p]))
        next_id[p] += 1
        cursor[p] += 1

    while True:
        # one round: the next unplaced answer of each problem against all of that problem's representatives
        queries: list[tuple[int, int, tuple[str, Any]]] = []
        for p in range(len(answers)):
            while cursor[p] < len(pending[p]) and not reps[p]:
                open_cluster(p, pending[p][cursor[p]])
            if cursor[p] < len(pending[p]):
                a = pending[p][cursor[p]]
                queries.extend((p, j, equivalence(a, b)) for j, (b, _) in enumerate(reps[p]))
        if not queries:
            break
        verdicts = verify_batch([q for _, _, q in queries])
        match: dict[int, int | None] = {}
        for (p, j, _), verdict in zip(queries, verdicts):
            a, (b, rep_id) = pending[p][cursor[p]], reps[p][j]
            same = verdict.passed or (verdict.reason in _UNGRADEABLE and a == b)
            if same and match.get(p) is None:
                match[p] = rep_id  # the first (oldest) equal cluster wins
            else:
                match.setdefault(p, None)
        for p, cid in match.items():
            if cid is None:
                open_cluster(p, pending[p][cursor[p]])
            else:
                assigned[p][pending[p][cursor[p]]] = cid
                cursor[p] += 1
    for p, (ans, ok) in enumerate(zip(answers, passed)):
        votes, correct = results[p]
        for i, (a, q) in enumerate(zip(ans, ok)):
            if q:
                votes[i] = correct
            elif a is not None:
                votes[i] = assigned[p][_norm(a)]
    return results
