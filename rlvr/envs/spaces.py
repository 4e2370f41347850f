"""Gymnasium spaces for LLM environments: free text (`LLMText`) and chat conversations (`ChatMessages`).

Gymnasium's `Text` space only admits characters of a finite charset, which model output does not respect
(any Unicode can appear). `LLMText` is a `Text` that contains every string up to `max_length` characters;
`sample()` draws short printable-ASCII strings, enough for API checks (`check_env`), not meant as a policy.
`ChatMessages` holds a conversation as a tuple of `{"role", "content"}` dicts, the format transformers' chat
templates take; the policy side applies the template. Both are registered with Gymnasium's vector utilities,
so `gymnasium.make_vec(..., vectorization_mode="sync")` batches them as tuples.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from copy import deepcopy
from typing import Any

import numpy as np
from gymnasium.spaces import Space, Text, Tuple
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

#: Default size limits in characters: room for long reasoning traces (about 4 characters per token).
MAX_PROMPT_CHARS = 1 << 17
MAX_COMPLETION_CHARS = 1 << 17
_SAMPLE_CHARS = 64
_ROLES = ("system", "user", "assistant", "tool")


class LLMText(Text):
    """Any string of `min_length`..`max_length` characters (model prompts and completions)."""

    def __init__(
        self, max_length: int = MAX_COMPLETION_CHARS, *, min_length: int = 0, seed: int | None = None
    ) -> None:
        super().__init__(max_length, min_length=min_length, charset=string.printable, seed=seed)

    def contains(self, x: Any) -> bool:
        """Any `str` within the length bounds, whatever its characters."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A short random printable-ASCII string (at most 64 characters unless a length is given)."""
        if mask is None and probability is None:
            hi = min(self.max_length, max(self.min_length, _SAMPLE_CHARS))
            length = int(self.np_random.integers(self.min_length, hi + 1))
            return super().sample(mask=(length, None))
        return super().sample(mask=mask, probability=probability)

    @property
    def is_np_flattenable(self) -> bool:
        """Unicode text has no fixed-size numeric encoding."""
        return False

    def __repr__(self) -> str:
        return f"LLMText({self.min_length}, {self.max_length})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LLMText)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )


class ChatMessages(Space[tuple[dict[str, str], ...]]):
    """A conversation: a tuple of 1..`max_messages` `{"role": ..., "content": ...}` dicts."""

    def __init__(
        self,
        max_messages: int = 64,
        max_chars: int = MAX_PROMPT_CHARS,
        roles: Sequence[str] = _ROLES,
        seed: int | None = None,
    ) -> None:
        self.max_messages = int(max_messages)
        self.max_chars = int(max_chars)
        self.roles = tuple(roles)
        super().__init__(shape=None, dtype=None, seed=seed)

    def contains(self, x: Any) -> bool:
        """A non-empty tuple of role/content dicts with known roles, within the size limits."""
        if not isinstance(x, tuple) or not 1 <= len(x) <= self.max_messages:
            return False
        total = 0
        for m in x:
            if not isinstance(m, dict) or set(m) != {"role", "content"}:
                return False
            if m["role"] not in self.roles or not isinstance(m["content"], str):
                return False
            total += len(m["content"])
        return total <= self.max_chars

    def sample(self, mask: Any = None, probability: Any = None) -> tuple[dict[str, str], ...]:
        """A short random user/assistant exchange ending with a user message."""
        n = 2 * int(self.np_random.integers(0, min(2, (self.max_messages - 1) // 2) + 1)) + 1
        chars = np.array(list(string.ascii_letters + string.digits + " "))
        out = []
        per_message = max(1, min(_SAMPLE_CHARS, self.max_chars // n))
        for i in range(n):
            length = int(self.np_random.integers(1, per_message + 1))
            content = "".join(self.np_random.choice(chars, size=length))
            out.append({"role": "user" if i % 2 == 0 else "assistant", "content": content})
        return tuple(out)

    @property
    def is_np_flattenable(self) -> bool:
        """Conversations have no fixed-size numeric encoding."""
        return False

    def __repr__(self) -> str:
        return f"ChatMessages(max_messages={self.max_messages}, max_chars={self.max_chars})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChatMessages) and (self.max_messages, self.max_chars, self.roles) == (
            other.max_messages,
            other.max_chars,
            other.roles,
        )


# Vector support: n copies of a ChatMessages space batch into a Tuple, like Gymnasium's own Text space.
@batch_space.register(ChatMessages)
def _batch_chat(space: ChatMessages, n: int = 1) -> Tuple:
    return Tuple([deepcopy(space) for _ in range(n)])


@concatenate.register(ChatMessages)
def _concatenate_chat(space: ChatMessages, items: Any, out: Any) -> tuple[Any, ...]:
    return tuple(items)


@create_empty_array.register(ChatMessages)
def _empty_chat(space: ChatMessages, n: int = 1, fn: Any = np.zeros) -> tuple[Any, ...]:
    return tuple(({"role": "user", "content": ""},) for _ in range(n))
