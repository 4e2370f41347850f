"""The single-turn verified environment: observe a prompt, act with a completion, get the verifier's reward.

`reset(seed=...)` picks an example with the env's seeded RNG (or the one given by `options`); `step(completion)`
grades it and ends the episode (`terminated=True`, `truncated=False`). `info` carries the example key, the
`Example` and, after a step, the `Verdict`. Grading is split into `verification_request` (what to verify)
and `apply_verdict` (the transition), so the batched API can grade many envs' completions in one pool call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from rlvr.core.errors import ConfigError
from rlvr.core.registry import Registry
from rlvr.core.types import Example, Prompt, Verdict
from rlvr.envs.spaces import MAX_COMPLETION_CHARS, MAX_PROMPT_CHARS, ChatMessages, LLMText
from rlvr.envs.templates import PromptTemplate, get_template
from rlvr.tasks.base import Task
from rlvr.verifiers.base import Verifier

RewardFn = Callable[[Verdict, Example], float]

#: name -> reward function of (verdict, example); `score` is the verifier's, a reward may shape it
REWARDS: Registry[RewardFn] = Registry("reward function")
REWARDS.register("score", lambda verdict, example: float(verdict.score))
REWARDS.register("binary", lambda verdict, example: 1.0 if verdict.passed else 0.0)


def get_reward(reward: str | RewardFn) -> RewardFn:
    """A reward function by name (`score`, `binary`) or the callable itself."""
    if callable(reward):
        return reward
    return REWARDS.get(reward)


def verdict_info(verdict: Verdict) -> dict[str, Any]:
    """The per-step info entries of a verdict (fresh objects each call)."""
    return {
        "verdict": verdict,
        "score": float(verdict.score),
        "passed": bool(verdict.passed),
        "reason": verdict.reason,
    }


class VerifiedEnv(gym.Env[Prompt, str]):
    """One prompt, one completion, one verdict: the environment of single-turn RL with verifiable rewards."""

    # text rendering has no frame rate; Gymnasium's checker asks for one to be declared
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        task: Task,
        verifier: Verifier,
        template: str | PromptTemplate = "plain-v0",
        *,
        reward: str | RewardFn = "score",
        chat: bool = False,
        render_mode: str | None = None,
        max_prompt_chars: int = MAX_PROMPT_CHARS,
        max_completion_chars: int = MAX_COMPLETION_CHARS,
        verifier_timeout_s: float = 10.0,
    ) -> None:
        if not isinstance(task, Task):
            raise ConfigError(f"VerifiedEnv needs an rlvr.tasks.Task, got {type(task).__name__}")
        if len(task) == 0:
            raise ConfigError(f"task {task.name!r} has no examples; check its filters or data path")
        if not isinstance(verifier, Verifier):
            raise ConfigError(f"VerifiedEnv needs an rlvr.verifiers.Verifier, got {type(verifier).__name__}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        if not (isinstance(verifier_timeout_s, int | float) and 0 < verifier_timeout_s < float("inf")):
            raise ConfigError(
                f"verifier_timeout_s must be a positive number of seconds, got {verifier_timeout_s!r}"
            )
        self.task = task
        self.verifier = verifier
        self.verifier_timeout_s = float(verifier_timeout_s)
        self._bounded: Verifier | None = None  # the verifier under its deadline, made on first use
        self.template = get_template(template)
        self.reward_fn = get_reward(reward)
        self.chat = bool(chat)
        self.render_mode = render_mode
        self.observation_space = (
            ChatMessages(max_chars=max_prompt_chars) if self.chat else LLMText(max_prompt_chars)
        )
        self.action_space = LLMText(max_completion_chars)
        self.example: Example | None = None
        self._done = True
        self._transcript: list[tuple[str, str]] = []

    # ----- reset -----
    def _choose(self, options: Mapping[str, Any] | None) -> Example:
        options = options or {}
        if "example" in options:
            example = options["example"]
            if not isinstance(example, Example):
                raise TypeError(f"options['example'] must be an rlvr Example, got {type(example).__name__}")
            return example
        if "key" in options:
            return self.task.by_key(options["key"])
        if "index" in options:
            return self.task[int(options["index"])]
        return self.task[int(self.np_random.integers(len(self.task)))]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Prompt, dict[str, Any]]:
        """Start an episode on a seeded random example, or on `options={"index"|"key"|"example": ...}`."""
        super().reset(seed=seed)
        self.example = self._choose(options)
        self._done = False
        self._begin_episode()
        return self._observation(), self._info()

    def _begin_episode(self) -> None:
        self._transcript = [("prompt", self.template.render_text(self.example))]  # type: ignore[arg-type]

    def _observation(self) -> Prompt:
        return self.template.render(self.example, chat=self.chat)  # type: ignore[arg-type]

    def _info(self, verdict: Verdict | None = None) -> dict[str, Any]:
        ex = self.example
        assert ex is not None
        info: dict[str, Any] = {"example_key": ex.key, "task": ex.task, "example": ex}
        if ex.goal is not None:
            info["goal"] = ex.goal
        if verdict is not None:
            info.update(verdict_info(verdict))
        return info

    # ----- step = verification_request -> verify -> apply_verdict -----
    def verification_request(self, action: str) -> tuple[str, Any]:
        """The (completion, reference) pair that grading `action` needs."""
        if self._done or self.example is None:
            raise gym.error.ResetNeeded("the episode is over (or never started): call reset() before step()")
        if not isinstance(action, str):
            raise TypeError(f"an action is the completion text (str), got {type(action).__name__}")
        return action, self.example.reference

    def apply_verdict(
        self, action: str, verdict: Verdict
    ) -> tuple[Prompt, SupportsFloat, bool, bool, dict[str, Any]]:
        """The transition for a graded action: the episode ends with the shaped reward."""
        assert self.example is not None
        reward = float(self.reward_fn(verdict, self.example))
        if not np.isfinite(reward):
            raise ValueError(f"reward function returned {reward!r} for {verdict}; rewards must be finite")
        self._done = True
        self._transcript.append(("completion", action))
        self._transcript.append(("verdict", f"{verdict.reason} (score {verdict.score:g}, reward {reward:g})"))
        return self._observation(), reward, True, False, self._info(verdict)

    def step(self, action: str) -> tuple[Prompt, SupportsFloat, bool, bool, dict[str, Any]]:
        """Grade the completion; the episode terminates after one step."""
        completion, reference = self.verification_request(action)
        return self.apply_verdict(action, self.grade(completion, reference))

    def grade(self, completion: str, reference: Any) -> Verdict:
        """The verifier's verdict under a deadline of `verifier_timeout_s`, whatever the verifier is.

        A verifier that bounds its own time (math, code, ...) runs here; a user's runs in a killable worker
        (or under SIGALRM when it cannot be pickled), as `rlvr.verifiers.grading` describes.
        """
        from rlvr.verifiers.grading import bounded

        if self._bounded is None:
            self._bounded = bounded(self.verifier, self.verifier_timeout_s)
        return self._bounded.verify(completion, reference)

    def close(self) -> None:
        """Stop the worker that grades a user's verifier, if one was started."""
        from rlvr.verifiers.grading import release

        wrapper, self._bounded = self._bounded, None
        release(wrapper, self.verifier)
        super().close()

    def render(self) -> str | None:
        """With `render_mode="ansi"`: the episode so far as text."""
        if self.render_mode != "ansi":
            return None
        return "\n\n".join(f"[{kind}]\n{text}" for kind, text in self._transcript)

    def __repr__(self) -> str:
        env_id = self.spec.id if self.spec is not None else type(self).__name__
        return f"<{env_id}: {self.task!r}, {type(self.verifier).__name__}, template {self.template.name!r}>"
