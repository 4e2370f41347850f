"""The math verifier: extract the final answer, normalise, parse its shape, compare as a mathematician would."""

from rlvr.verifiers.math.config import MathVerifierConfig
from rlvr.verifiers.math.extract import Extraction, extract_answer
from rlvr.verifiers.math.gold import extract_gold
from rlvr.verifiers.math.verifier import MathVerifier

__all__ = ["Extraction", "MathVerifier", "MathVerifierConfig", "extract_answer", "extract_gold"]
