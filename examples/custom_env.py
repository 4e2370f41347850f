"""Register your own task, verifier and environment with rlvr, then roll it out like a GRPO trainer would.

Run: python examples/custom_env.py

1. a task source: a `Task` of `Example`s, registered with `@task` (so `load_task("word_reversal")` works)
2. a verifier: a plain grading function with `@verifier`, or a `Verifier` subclass for more control
3. `rlvr.register_env("myns/WordReversal-v0", task=..., verifier=..., template=...)`
4. use it: `gymnasium.make` (single env, passes Gymnasium's checker) or `BatchedEnv` (P prompts x G samples)
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import rlvr
from rlvr.core import Example, Reason, Verdict, grpo_advantages, make_rng
from rlvr.envs import BatchedEnv, PromptTemplate
from rlvr.tasks import ListTask, example_key, task
from rlvr.verifiers import Verifier, verifier

WORDS = ["reward", "policy", "gradient", "verifier", "sandbox", "rollout", "advantage", "replay"]


# 1. The task: each example is a word; the reference is the word reversed.
@task("word_reversal")
def load_word_reversal(words: tuple[str, ...] = tuple(WORDS)) -> ListTask:
    """Reverse a word, letter by letter."""
    examples = [
        Example(
            key=example_key("word_reversal", w, w[::-1]),  # stable content hash
            prompt=f"Reverse the letters of the word '{w}'.",
            reference=w[::-1],
            task="word_reversal",
            metadata={"length": len(w)},
        )
        for w in words
    ]
    return ListTask(
        "word_reversal",
        examples,
        verifier_name="myns/exact-answer",
        gold_fn=lambda ex: f"<answer>{ex.reference}</answer>",
    )


# 2a. A verifier as a plain function: return a Verdict, a bool, a score in [0, 1], or None (no answer).
@verifier("myns/exact-answer")
def exact_answer(completion: str, reference: str) -> Verdict | None:
    """Correct iff the text inside the last <answer></answer> equals the reference."""
    if "<answer>" not in completion:
        return None
    answer = completion.rsplit("<answer>", 1)[1].split("</answer>", 1)[0].strip()
    return (
        Verdict.correct(answer=answer) if answer == reference else Verdict.fail(Reason.WRONG, answer=answer)
    )


# 2b. The same idea as a Verifier subclass, here with partial credit (share of letters in the right place).
@verifier("myns/letter-overlap")
class LetterOverlapVerifier(Verifier):
    """Partial credit: the fraction of positions where the answer matches the reference."""

    def verify(self, completion: str, reference: str) -> Verdict:
        """Extract the answer, compare letter by letter."""
        verdict = exact_answer(completion, reference)
        if verdict is None:
            return Verdict.fail(Reason.NO_ANSWER)
        answer = verdict.details["answer"]
        score = sum(a == b for a, b in zip(answer, reference)) / max(len(reference), len(answer), 1)
        return (
            Verdict.correct(answer=answer)
            if score == 1.0
            else Verdict.fail(Reason.WRONG, score=score, answer=answer)
        )


# 3. The environment: task + verifier + a versioned prompt template.
TEMPLATE = PromptTemplate(
    "word-reversal-v0", "{prompt} Reply with only the reversed word inside <answer></answer> tags."
)
rlvr.register_env(
    "myns/WordReversal-v0", task="word_reversal", verifier="myns/exact-answer", template=TEMPLATE
)
rlvr.register_env(
    "myns/WordReversalPartial-v0",
    task="word_reversal",
    verifier=LetterOverlapVerifier,
    template=TEMPLATE,
    description="word reversal with partial credit",
)


def toy_policy(prompt: str, rng: np.random.Generator) -> str:
    """Stands in for an LLM: reverses the word correctly 60% of the time, else swaps two letters."""
    word = prompt.split("'")[1]
    answer = list(word[::-1])
    if rng.random() > 0.6:
        i, j = rng.choice(len(answer), size=2, replace=False)
        answer[i], answer[j] = answer[j], answer[i]
    return f"<answer>{''.join(answer)}</answer>"


def main() -> None:
    """Check, play one episode, then one GRPO-style batched rollout."""
    rng = make_rng(0)

    # 4a. A single Gymnasium env: passes Gymnasium's own checker.
    env = gym.make("myns/WordReversal-v0")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    action = toy_policy(obs, rng)
    _, reward, terminated, truncated, info = env.step(action)
    print(
        f"one episode: {info['example_key']} -> {action!r}: reward {reward}, verdict {info['verdict'].reason}, terminated={terminated}, truncated={truncated}"
    )

    # 4b. The batched API a GRPO trainer uses: P prompts x G samples, graded together.
    with BatchedEnv("myns/WordReversalPartial-v0", group_size=4) as benv:
        batch = benv.reset(num_prompts=3, seed=0)
        completions = [[toy_policy(o, rng) for _ in range(batch.group_size)] for o in batch.observations]
        out = benv.step(completions)
        for ex, rewards in zip(out.examples, out.rewards):
            adv = grpo_advantages(rewards)
            print(f"{ex.prompt[:45]:<46} rewards {np.round(rewards, 2)}  advantages {np.round(adv, 2)}")
    print("registered:", [e for e in rlvr.envs.ENVS.names() if e.startswith("myns/")])


if __name__ == "__main__":
    main()
