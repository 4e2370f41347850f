"""Prompt templates: how an `Example`'s prompt is shown to the model, explicit and versioned.

A template's name carries its version (`boxed-v0`); changing the wording of a template means a new name, and
every environment using it gets a new version (`rlvr/MATH-v1`), so a result always names the exact prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.core.types import Example, Prompt


@dataclass(frozen=True)
class PromptTemplate:
    """A versioned prompt format: `user` with a `{prompt}` placeholder, plus an optional system message."""

    #: versioned name, e.g. "boxed-v0"
    name: str
    #: the user message; `{prompt}` is replaced by the example's prompt (other braces are left alone)
    user: str = "{prompt}"
    #: an optional system message (chat mode: its own message; text mode: prepended)
    system: str | None = None

    def __post_init__(self) -> None:
        if "{prompt}" not in self.user:
            raise ConfigError(
                f"template {self.name!r}: the user text must contain '{{prompt}}', got {self.user!r}"
            )

    def render_text(self, example: Example) -> str:
        """The prompt as one string (for base models or completion-style generation)."""
        user = self.user.replace("{prompt}", _as_text(example.prompt))
        return f"{self.system}\n\n{user}" if self.system else user

    def render_chat(self, example: Example) -> tuple[dict[str, str], ...]:
        """The prompt as chat messages (a fresh tuple of fresh dicts on every call)."""
        if isinstance(example.prompt, tuple):  # the task already wrote a conversation: use it as is
            msgs = [{"role": m["role"], "content": m["content"]} for m in example.prompt]
        else:
            msgs = [{"role": "user", "content": self.user.replace("{prompt}", example.prompt)}]
        if self.system and msgs[0]["role"] != "system":
            msgs.insert(0, {"role": "system", "content": self.system})
        return tuple(msgs)

    def render(self, example: Example, *, chat: bool) -> Prompt:
        """Chat messages if `chat`, else text."""
        return self.render_chat(example) if chat else self.render_text(example)


def _as_text(prompt: Prompt) -> str:
    if isinstance(prompt, str):
        return prompt
    return "\n\n".join(m["content"] for m in prompt)


TEMPLATES: Registry[PromptTemplate] = Registry("prompt template")


def register_template(template: PromptTemplate, *, overwrite: bool = False) -> PromptTemplate:
    """Register a template under its (versioned) name."""
    if not isinstance(template, PromptTemplate):
        raise TypeError(f"register_template takes a PromptTemplate, got {type(template).__name__}")
    return TEMPLATES.register(template.name, template, overwrite=overwrite)  # type: ignore[return-value]


def get_template(template: str | PromptTemplate) -> PromptTemplate:
    """A template by name, or the template itself."""
    return template if isinstance(template, PromptTemplate) else TEMPLATES.get(template)


for _t in (
    PromptTemplate("plain-v0"),
    PromptTemplate(
        "boxed-v0", "{prompt}\n\nPlease reason step by step, and put your final answer within \\boxed{}."
    ),
    PromptTemplate(
        "humaneval-v0",
        "Complete the following Python function. Reply with the complete function, including its signature "
        "and imports, in a single ```python code block.\n\n```python\n{prompt}```",
    ),
    PromptTemplate(
        "mbpp-v0",
        "{prompt}\n\nReply with the complete Python solution in a single ```python code block.",
    ),
    PromptTemplate(
        "countdown-v0",
        "{prompt}\nShow your reasoning, then give only the final expression inside <answer> </answer> tags, "
        "for example <answer>(1 + 2) * 3</answer>.",
    ),
):
    register_template(_t)

#: what a multi-turn feedback env says after a failed attempt; `{feedback}` is the verifier's report
FEEDBACK_TEMPLATES: dict[str, str] = {
    "code-feedback-v0": "Your code did not pass the tests.\n\n{feedback}\n\nFix the code and reply with the "
    "complete corrected solution in a single ```python code block.",
    "retry-feedback-v0": "That is not correct ({feedback}). Please try again.",
}
