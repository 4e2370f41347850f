"""Verifiers: extract -> parse -> compare, returning a `Verdict` (math, code in a sandbox, custom, rubrics)."""

from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import VERIFIERS, FunctionVerifier, Verifier, as_verdict, make_verifier, verifier

__all__ = [
    "VERIFIERS",
    "FunctionVerifier",
    "Reason",
    "Verdict",
    "Verifier",
    "as_verdict",
    "make_verifier",
    "verifier",
]
