"""rlvr: reinforcement learning of LLMs with verifiable rewards.

`import rlvr` registers the built-in Gymnasium environments under the `rlvr/` namespace.
"""

__version__ = "0.1.0"
