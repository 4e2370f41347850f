"""Verifiers: extract -> parse -> compare, returning a `Verdict` (math, code in a sandbox, custom, rubrics)."""

from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import VERIFIERS, FunctionVerifier, Verifier, as_verdict, make_verifier, verifier
from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig
from rlvr.verifiers.countdown import CountdownProblem, CountdownVerifier
from rlvr.verifiers.math import MathVerifier, MathVerifierConfig
from rlvr.verifiers.pool import VerifierPool
from rlvr.verifiers.rubric import BoxedFormat, LengthPenalty, RegexFormat, Rubric, RubricTerm
from rlvr.verifiers.sandbox import ExecResult, Sandbox, SandboxConfig

__all__ = [
    "VERIFIERS",
    "BoxedFormat",
    "CodeTests",
    "CodeVerifier",
    "CodeVerifierConfig",
    "CountdownProblem",
    "CountdownVerifier",
    "ExecResult",
    "FunctionVerifier",
    "LengthPenalty",
    "MathVerifier",
    "MathVerifierConfig",
    "Reason",
    "RegexFormat",
    "Rubric",
    "RubricTerm",
    "Sandbox",
    "SandboxConfig",
    "Verdict",
    "Verifier",
    "VerifierPool",
    "as_verdict",
    "make_verifier",
    "verifier",
]
