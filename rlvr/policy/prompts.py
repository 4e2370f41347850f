"""Prompt rendering and completion post-processing shared by every generation backend.

Both backends tokenize prompts here and cut completions here, so the same prompt gives the same token ids
and the same stopping rule whether it was sampled by transformers or by vLLM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Message, Prompt


def render_prompt(tokenizer: Any, prompt: Prompt) -> tuple[str, bool]:
    """Return (text, is_chat): chat-message prompts go through the tokenizer's chat template."""
    if isinstance(prompt, str):
        return prompt, False
    # typed as messages (not a str); still checked, for callers outside the type checker's view
    chat: Sequence[Message] = prompt
    if isinstance(chat, Sequence) and all(isinstance(m, Mapping) for m in chat) and chat:
        if not getattr(tokenizer, "chat_template", None):
            raise ConfigError(
                "got chat-message prompts but the tokenizer has no chat template; use a chat model "
                "(e.g. 'smollm2-135m'), set tokenizer.chat_template, or pass plain-text prompts"
            )
        for message in chat:
            if "role" not in message or "content" not in message:
                raise DataError(f"chat message {dict(message)!r} needs 'role' and 'content' keys")
        messages = [dict(m) for m in chat]
        text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        return str(text), True
    raise DataError(
        f"a prompt must be a string or a non-empty sequence of chat messages, got {type(prompt).__name__}"
    )


def encode_prompt(tokenizer: Any, prompt: Prompt) -> tuple[str, list[int]]:
    """Render and tokenize one prompt; rendered chat text already holds its special tokens, so none are added."""
    text, is_chat = render_prompt(tokenizer, prompt)
    ids = tokenizer(text, add_special_tokens=not is_chat)["input_ids"]
    if not ids:
        raise DataError(f"prompt {text!r} tokenizes to no tokens; give a non-empty prompt")
    return text, list(ids)


def eos_token_ids(tokenizer: Any, generation_config: Any = None) -> list[int]:
    """All token ids that end a completion: the tokenizer's EOS plus the model's generation-config EOS ids."""
    ids: list[int] = []
    candidates: list[Any] = [getattr(tokenizer, "eos_token_id", None)]
    if generation_config is not None:
        candidates.append(getattr(generation_config, "eos_token_id", None))
    for cand in candidates:
        values = cand if isinstance(cand, Iterable) else [cand]
        ids.extend(int(v) for v in values if v is not None and int(v) not in ids)
    if not ids:
        raise ConfigError("the tokenizer has no EOS token; set tokenizer.eos_token so completions can end")
    return ids


def _first_stop(tokenizer: Any, ids: Sequence[int], stop: Sequence[str]) -> int | None:
    """Smallest k such that the decoded ids[:k] contain a stop string (None if none does)."""
    if not stop or not ids:
        return None
    full = tokenizer.decode(ids, skip_special_tokens=True)
    if not any(s in full for s in stop):
        return None
    lo, hi = 1, len(ids)  # containment is monotone in k, so bisect on it
    while lo < hi:
        mid = (lo + hi) // 2
        text = tokenizer.decode(ids[:mid], skip_special_tokens=True)
        if any(s in text for s in stop):
            hi = mid
        else:
            lo = mid + 1
    return lo


def finish_completion(
    tokenizer: Any,
    ids: Sequence[int],
    logprobs: Sequence[float],
    *,
    eos_ids: Sequence[int],
    stop: Sequence[str],
    max_new_tokens: int,
) -> tuple[str, np.ndarray, np.ndarray, str]:
    """Cut sampled ids at the first EOS (kept) or stop string (kept); return text, ids, log-probs, finish reason.

    The EOS token stays in the ids (the learner trains the model to stop) but not in the text; the tokens
    that complete a stop string stay in both, so text == decode(ids) always holds.
    """
    ids = [int(t) for t in ids]
    cut: int | None = None
    eos = set(eos_ids)
    for i, tok in enumerate(ids):
        if tok in eos:
            cut = i + 1
            break
    stop_at = _first_stop(tokenizer, ids[:cut] if cut else ids, stop)
    if stop_at is not None and (cut is None or stop_at < cut):
        cut = stop_at
    if cut is not None:
        ids, logprobs = ids[:cut], list(logprobs[:cut])
        reason = "stop"
    else:
        ids, logprobs = ids[:max_new_tokens], list(logprobs[:max_new_tokens])
        reason = "length"
    text = tokenizer.decode(ids, skip_special_tokens=True)
    return text, np.asarray(ids, dtype=np.int64), np.asarray(logprobs, dtype=np.float32), reason
