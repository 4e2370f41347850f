"""The multi-turn feedback environment (RLEF-style): submit, read the verifier's feedback, retry.

Each step grades one attempt. A passing attempt ends the episode with `terminated=True`. A failing one, if
turns remain, gives reward 0 and the next observation: the conversation so far plus a feedback message built
from the verdict (for code: which tests failed and how). When `max_turns` attempts have failed the episode
ends with `truncated=True` (the attempt budget ran out; the task was not solved). The episode's reward,
paid on its last step, is the `final` attempt's or the `best` attempt's (`reward_mode`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, SupportsFloat

import gymnasium as gym

from rlvr.core.errors import ConfigError
from rlvr.core.types import Example, Prompt, Verdict
from rlvr.envs.templates import FEEDBACK_TEMPLATES
from rlvr.envs.verified_env import VerifiedEnv

FeedbackFn = Callable[[Verdict], str]

_MAX_FEEDBACK_CHARS = 2000


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 20] + "\n... (truncated)"


def describe_verdict(verdict: Verdict) -> str:
    """A short human-readable report of a failed verdict: the reason, the error, and failing tests if listed."""
    details: Mapping[str, Any] = verdict.details or {}
    lines = [f"Result: {verdict.reason.replace('_', ' ')} (score {verdict.score:.2f})."]
    for key in ("error", "message", "stderr"):
        value = details.get(key)
        if isinstance(value, str) and value.strip():
            lines.append(f"{key.capitalize()}: {_clip(value, 600)}")
            break
    tests = details.get("tests")
    if isinstance(tests, list | tuple):
        failed = [
            t for t in tests if isinstance(t, Mapping) and t.get("status") not in ("passed", "ok", True)
        ]
        if tests:
            lines.append(f"{len(tests) - len(failed)} of {len(tests)} tests passed.")
        for t in failed[:5]:
            name = t.get("name") or t.get("test") or t.get("index", "?")
            what = t.get("error") or t.get("error_type") or t.get("status")
            out = t.get("output") or t.get("message") or ""
            lines.append(f"- test {name}: {what}" + (f": {_clip(str(out), 300)}" if out else ""))
        if len(failed) > 5:
            lines.append(f"- ... and {len(failed) - 5} more failing tests")
    return _clip("\n".join(lines), _MAX_FEEDBACK_CHARS)


class FeedbackEnv(VerifiedEnv):
    """A verified env that lets the policy retry up to `max_turns` times, seeing feedback after each failure."""

    def __init__(
        self,
        *args: Any,
        max_turns: int = 3,
        reward_mode: Literal["final", "best"] = "final",
        feedback_template: str = "code-feedback-v0",
        feedback_fn: FeedbackFn = describe_verdict,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ConfigError(f"max_turns must be a positive int, got {max_turns!r}")
        if reward_mode not in ("final", "best"):
            raise ConfigError(f"reward_mode must be 'final' or 'best', got {reward_mode!r}")
        if feedback_template not in FEEDBACK_TEMPLATES and "{feedback}" not in feedback_template:
            raise ConfigError(
                f"feedback_template {feedback_template!r} is neither a known template "
                f"({sorted(FEEDBACK_TEMPLATES)}) nor a string with a '{{feedback}}' placeholder"
            )
        self.max_turns = max_turns
        self.reward_mode = reward_mode
        self.feedback_template = FEEDBACK_TEMPLATES.get(feedback_template, feedback_template)
        self.feedback_fn = feedback_fn
        self._turns: list[dict[str, str]] = []
        self._rewards: list[float] = []

    def _begin_episode(self) -> None:
        super()._begin_episode()
        self._turns = []  # assistant attempts and feedback messages after the prompt
        self._rewards = []

    def _observation(self) -> Prompt:
        if self.example is None:
            raise gym.error.ResetNeeded("the episode never started: call reset() first")
        base = self.template.render(self.example, chat=self.chat)
        if isinstance(base, tuple):  # chat messages (self.chat)
            return (*base, *({"role": m["role"], "content": m["content"]} for m in self._turns))
        return "\n\n".join([base, *(m["content"] for m in self._turns)])

    def _info(self, verdict: Verdict | None = None) -> dict[str, Any]:
        info = super()._info(verdict)
        info["turn"] = len(self._rewards)
        if self._rewards:
            info["attempt_rewards"] = list(self._rewards)
        return info

    def apply_verdict(
        self, action: str, verdict: Verdict
    ) -> tuple[Prompt, SupportsFloat, bool, bool, dict[str, Any]]:
        """Record the attempt; end the episode on success or when out of turns, else return feedback."""
        example: Example = self.example  # type: ignore[assignment]
        attempt_reward = float(self.reward_fn(verdict, example))
        self._rewards.append(attempt_reward)
        self._transcript.append((f"attempt {len(self._rewards)}", action))
        terminated = bool(verdict.passed)
        truncated = not terminated and len(self._rewards) >= self.max_turns
        if terminated or truncated:
            self._done = True
            reward = attempt_reward if self.reward_mode == "final" else max(self._rewards)
            self._transcript.append(("verdict", f"{verdict.reason} (reward {reward:g})"))
        else:
            reward = 0.0
            feedback = self.feedback_template.replace("{feedback}", self.feedback_fn(verdict))
            self._turns += [{"role": "assistant", "content": action}, {"role": "user", "content": feedback}]
            self._transcript.append(("feedback", feedback))
        return self._observation(), reward, terminated, truncated, self._info(verdict)
