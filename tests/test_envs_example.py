"""The documented example runs as a script and does what its output says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "custom_env.py"


def test_custom_env_example_runs() -> None:
    out = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("one episode: ") and "terminated=True, truncated=False" in lines[0]
    assert sum("rewards [" in line and "advantages [" in line for line in lines) == 3
    assert lines[-1] == "registered: ['myns/WordReversal-v0', 'myns/WordReversalPartial-v0']"
