"""Evaluation: pass@k, maj@k and per-level/subject accuracy of a model on any registered env (`rlvr eval`).

`evaluate(model_or_backend, "rlvr/MATH500-v0", samples=4)` runs a full, resumable evaluation (optionally
writing files); `evaluate_backend(backend, env, examples, samples, sampling, pool)` is the file-free core the
trainer calls with its own backend and verifier pool. Both return an `EvalReport`.
"""

from rlvr.eval.answers import EQUIVALENCES, cluster_answers, extracted_answer
from rlvr.eval.config import EvalConfig
from rlvr.eval.metrics import maj_at_k, majority_score, pass_at_k
from rlvr.eval.records import EvalSample, read_samples
from rlvr.eval.report import EvalReport, build_report
from rlvr.eval.runner import evaluate, evaluate_backend, write_outputs

__all__ = [
    "EQUIVALENCES",
    "EvalConfig",
    "EvalReport",
    "EvalSample",
    "build_report",
    "cluster_answers",
    "evaluate",
    "evaluate_backend",
    "extracted_answer",
    "maj_at_k",
    "majority_score",
    "pass_at_k",
    "read_samples",
    "write_outputs",
]
