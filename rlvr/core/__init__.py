"""Shared records, registries, errors and seeding helpers; imports nothing else from rlvr."""

from rlvr.core.advantages import (
    ADVANTAGES,
    grpo_advantages,
    leave_one_out_advantages,
    mean_centred_advantages,
)
from rlvr.core.errors import ConfigError, DataError, RegistryError, RlvrError, SandboxError, VerifierFailure
from rlvr.core.registry import VERSIONED_ID, Registry, load_entry_point
from rlvr.core.seeding import derive_seed, make_rng, seed_everything, stable_hash
from rlvr.core.types import Example, Message, Prompt, Reason, Rollout, Trajectory, Turn, Verdict

__all__ = [
    "ADVANTAGES",
    "VERSIONED_ID",
    "ConfigError",
    "DataError",
    "Example",
    "Message",
    "Prompt",
    "Reason",
    "Registry",
    "RegistryError",
    "RlvrError",
    "Rollout",
    "SandboxError",
    "Trajectory",
    "Turn",
    "Verdict",
    "VerifierFailure",
    "derive_seed",
    "grpo_advantages",
    "leave_one_out_advantages",
    "load_entry_point",
    "make_rng",
    "mean_centred_advantages",
    "seed_everything",
    "stable_hash",
]
