"""Evaluation metrics: the unbiased pass@k estimator, majority voting (maj@k), and per-group aggregation.

pass@k is the probability that at least one of k samples drawn without replacement from the n generated ones
is correct, estimated without bias as 1 - C(n-c, k) / C(n, k) (Chen et al. 2021, "Evaluating Large Language
Models Trained on Code"), averaged over problems. maj@k is the accuracy of the majority answer among k
samples; with n samples it is averaged over the floor(n/k) disjoint blocks of k consecutive samples, so every
sample is used and each block is an independent draw of k samples (maj@1 == pass@1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError

#: verdict reasons counted as "the model gave no answer" (math: nothing extractable; code: no code block)
NO_ANSWER_REASONS = frozenset({"no_answer", "no_code"})
#: verdict reasons counted as "grading ran out of time"
TIMEOUT_REASONS = frozenset({"timeout"})


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one problem with `n` samples of which `c` are correct: 1 - C(n-c, k) / C(n, k)."""
    if not 0 <= c <= n:
        raise ValueError(f"pass_at_k needs 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"pass_at_k needs 1 <= k <= n (k samples out of n), got n={n}, k={k}")
    if n - c < k:
        return 1.0
    # the product form avoids huge binomials: C(n-c, k)/C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i)
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1, dtype=np.float64)))


def default_ks(samples: int) -> tuple[int, ...]:
    """k values reported by default for `samples` samples per problem: 1, 2, 4, ... up to `samples`."""
    ks = {1, samples}
    k = 2
    while k < samples:
        ks.add(k)
        k *= 2
    return tuple(sorted(ks))


def check_ks(ks: Iterable[int], samples: int) -> tuple[int, ...]:
    """Validate a k list against the number of samples per problem; returns it sorted and de-duplicated."""
    out = tuple(sorted({int(k) for k in ks}))
    if not out:
        raise ConfigError("the k list is empty; pass e.g. --k 1,4,16")
    if out[0] < 1:
        raise ConfigError(f"k values must be >= 1, got {list(out)}")
    if out[-1] > samples:
        raise ConfigError(
            f"pass@{out[-1]} needs at least {out[-1]} samples per problem but --samples is {samples}; "
            f"raise --samples to {out[-1]} or drop k values above {samples}"
        )
    return out


def majority_score(votes: Sequence[int | None], correct_cluster: int | None) -> float:
    """Score of a majority vote: votes are answer-cluster ids (None = no answer, does not vote).

    1 if the correct cluster has strictly the most votes, 1/t if it ties with t-1 others (the expected score
    of a uniformly random tie-break), else 0.
    """
    counts = Counter(v for v in votes if v is not None)
    if not counts or correct_cluster is None or correct_cluster not in counts:
        return 0.0
    top = max(counts.values())
    tied = [c for c, n in counts.items() if n == top]
    return 1.0 / len(tied) if correct_cluster in tied else 0.0


def maj_at_k(votes: Sequence[int | None], correct_cluster: int | None, k: int) -> float:
    """maj@k of one problem: the majority score averaged over the disjoint blocks of k consecutive samples."""
    n = len(votes)
    if not 1 <= k <= n:
        raise ValueError(f"maj_at_k needs 1 <= k <= n (k samples out of n), got n={n}, k={k}")
    blocks = n // k
    return float(
        sum(majority_score(votes[b * k : (b + 1) * k], correct_cluster) for b in range(blocks)) / blocks
    )


@dataclass(frozen=True)
class ProblemResult:
    """The graded samples of one problem, in sample-index order, ready to aggregate."""

    key: str
    #: grouping labels, e.g. {"level": "3", "subject": "Algebra"}
    groups: Mapping[str, str]
    passed: tuple[bool, ...]
    scores: tuple[float, ...]
    reasons: tuple[str, ...]
    num_tokens: tuple[int, ...]
    #: "stop" or "length" per sample
    finish_reasons: tuple[str, ...]
    #: answer-cluster id per sample (None: no answer); None when the task has no answer equivalence
    votes: tuple[int | None, ...] | None = None
    #: the cluster id of the correct answers (None if no sample was correct)
    correct_cluster: int | None = None

    @property
    def n(self) -> int:
        """Number of samples."""
        return len(self.passed)


def aggregate(problems: Sequence[ProblemResult], ks: Sequence[int]) -> dict[str, float]:
    """The metrics of a set of problems: pass@k and maj@k (means over problems), and per-sample rates."""
    if not problems:
        return {}
    row: dict[str, float] = {"problems": float(len(problems)), "samples": float(sum(p.n for p in problems))}
    for k in ks:
        row[f"pass@{k}"] = float(np.mean([pass_at_k(p.n, sum(p.passed), k) for p in problems]))
    if all(p.votes is not None for p in problems):
        for k in ks:
            row[f"maj@{k}"] = float(
                np.mean([maj_at_k(p.votes, p.correct_cluster, k) for p in problems])  # type: ignore[arg-type]
            )
    reasons = [r for p in problems for r in p.reasons]
    total = len(reasons)
    row["mean_score"] = float(np.mean([s for p in problems for s in p.scores]))
    row["mean_tokens"] = float(np.mean([t for p in problems for t in p.num_tokens]))
    row["no_answer_rate"] = sum(r in NO_ANSWER_REASONS for r in reasons) / total
    row["timeout_rate"] = sum(r in TIMEOUT_REASONS for r in reasons) / total
    row["truncated_rate"] = sum(f == "length" for p in problems for f in p.finish_reasons) / total
    return row


def _group_sort_key(value: str) -> tuple[int, Any]:
    try:
        return (0, float(value))
    except ValueError:
        return (1, value)


def aggregate_groups(
    problems: Sequence[ProblemResult], ks: Sequence[int], group_by: Sequence[str]
) -> dict[str, dict[str, dict[str, float]]]:
    """{"overall": {"all": row}, field: {value: row, ...}, ...} for every `group_by` field the problems carry."""
    out: dict[str, dict[str, dict[str, float]]] = {"overall": {"all": aggregate(problems, ks)}}
    for field in group_by:
        values = sorted({p.groups[field] for p in problems if field in p.groups}, key=_group_sort_key)
        if not values:
            continue
        out[field] = {v: aggregate([p for p in problems if p.groups.get(field) == v], ks) for v in values}
    return out


def flat_summary(groups: Mapping[str, Mapping[str, Mapping[str, float]]]) -> dict[str, float]:
    """Flatten grouped metrics into one dict of floats: `pass@1`, `maj@4`, ..., `level/3/pass@1`, ..."""
    summary = dict(groups.get("overall", {}).get("all", {}))
    for field, rows in groups.items():
        if field == "overall":
            continue
        for value, row in rows.items():
            for name, number in row.items():
                if name.startswith(("pass@", "maj@")) or name in (
                    "problems",
                    "no_answer_rate",
                    "mean_tokens",
                ):
                    summary[f"{field}/{value}/{name}"] = number
    return summary
