"""Fixtures shared by several test modules."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS_DIR = str(Path(__file__).resolve().parent)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    """One local Ray per module (starting it costs 10-20 s); actors import test modules through PYTHONPATH.

    Module-scoped, not session-scoped: a module that starts its own Ray cluster must find none running.
    """
    ray = pytest.importorskip("ray")  # imported here: modules without Ray tests must not need it
    if ray.is_initialized():
        ray.shutdown()
    path = os.pathsep.join(p for p in (TESTS_DIR, os.environ.get("PYTHONPATH", "")) if p)
    ray.init(
        num_cpus=4,
        include_dashboard=False,
        configure_logging=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def verifier() -> Any:
    """The in-process math verifier the math test modules share (a module defining its own `verifier` wins)."""
    from rlvr.verifiers import MathVerifier  # imported here: most test modules never grade math

    return MathVerifier(in_process=True)
