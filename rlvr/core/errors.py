"""The exceptions rlvr raises for bad input: each message names the problem and how to fix it."""

from __future__ import annotations


class RlvrError(Exception):
    """Base class of rlvr's own errors."""


class ConfigError(RlvrError, ValueError):
    """A configuration that cannot work; raised before any work starts."""


class DataError(RlvrError, ValueError):
    """A dataset row or file that cannot be used (e.g. a gold answer no verifier can grade)."""


class RegistryError(RlvrError, LookupError):
    """An unknown, malformed or duplicate registry name."""

    def __str__(self) -> str:  # LookupError would repr() the message; keep it readable
        return str(self.args[0]) if self.args else ""


class SandboxError(RlvrError, RuntimeError):
    """The sandbox itself could not be set up (not: the program inside it failed)."""


class VerifierFailure(RlvrError, RuntimeError):
    """A verifier that fails (raises, returns a wrong type) on too many completions: the rewards mean nothing."""
