"""Verifiers: extract -> parse -> compare, returning a `Verdict` (math, code in a sandbox, custom, rubrics)."""

from rlvr.core.types import Reason, Verdict

__all__ = ["Reason", "Verdict"]
