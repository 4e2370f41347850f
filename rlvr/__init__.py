"""rlvr: reinforcement learning of LLMs with verifiable rewards.

`import rlvr` registers the built-in Gymnasium environments under the `rlvr/` namespace
(`gymnasium.make("rlvr/MATH-v0")`), and `rlvr.register_env` registers your own.
"""

__version__ = "0.1.0"

from rlvr.envs.builtin import register_builtin_envs as _register_builtin_envs
from rlvr.envs.registration import register_env

_register_builtin_envs()

__all__ = ["__version__", "register_env"]
