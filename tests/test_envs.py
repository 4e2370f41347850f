"""Every registered env passes Gymnasium's checker and seeds deterministically; single-turn env behaviour."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rlvr
from rlvr.core import ConfigError, Example, RegistryError, Verdict
from rlvr.envs import ENVS, ChatMessages, LLMText, PromptTemplate, VerifiedEnv, register_env, unregister_env
from rlvr.tasks import ListTask, example_key, fixture_path

#: make() options the dataset envs need on a machine without hub access: the shipped fixtures
LOCAL_DATA: dict[str, dict[str, Any]] = {
    "rlvr/MATH-v0": {"path": str(fixture_path("math"))},
    "rlvr/MATH500-v0": {"path": str(fixture_path("math500"))},
    "rlvr/GSM8K-v0": {"path": str(fixture_path("gsm8k"))},
    "rlvr/MBPP-v1": {"path": str(fixture_path("mbpp"))},
}
BUILTIN = [
    "rlvr/MATH-v0",
    "rlvr/MATH500-v0",
    "rlvr/GSM8K-v0",
    "rlvr/HumanEval-v0",
    "rlvr/MBPP-v1",
    "rlvr/Arithmetic-v0",
    "rlvr/Countdown-v0",
    "rlvr/HumanEvalFeedback-v0",
]


def _make(env_id: str, **kwargs: Any) -> gym.Env:
    return gym.make(env_id, **{**LOCAL_DATA.get(env_id, {}), **kwargs})


def test_import_registers_every_builtin() -> None:
    assert set(BUILTIN) <= set(ENVS.names())
    assert set(BUILTIN) <= set(gym.registry)
    assert rlvr.register_env is register_env


def test_import_rlvr_stays_light() -> None:
    """Registering the built-ins imports Gymnasium only: no torch, vLLM, datasets, sympy or sandbox."""
    import subprocess
    import sys

    code = (
        "import sys, rlvr, gymnasium as gym\n"
        "assert 'rlvr/MATH-v0' in gym.registry\n"
        "print(sorted(m for m in ('torch', 'vllm', 'datasets', 'sympy', 'transformers', 'rlvr.tasks', "
        "'rlvr.verifiers.sandbox') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("env_id", sorted(ENVS.names()))
@pytest.mark.parametrize("chat", [False, True])
def test_check_env_passes_without_warnings(env_id: str, chat: bool) -> None:
    env = _make(env_id, chat=chat)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*WARN")  # Gymnasium's checker warns instead of failing
        check_env(env.unwrapped)
    space = env.observation_space
    assert isinstance(space, ChatMessages if chat else LLMText)
    assert isinstance(env.action_space, LLMText)
    env.close()


@pytest.mark.parametrize("env_id", sorted(ENVS.names()))
def test_seed_determinism(env_id: str) -> None:
    a, b = _make(env_id), _make(env_id)

    def keys(env: gym.Env, seed: int) -> list[str]:
        first = env.reset(seed=seed)[1]["example_key"]
        return [first] + [env.reset()[1]["example_key"] for _ in range(5)]

    run = keys(a, 42)
    assert run == keys(b, 42)  # two instances, same seed: the same examples in the same order
    assert run == keys(a, 42)  # reseeding repeats the sequence
    assert run != keys(a, 43)  # another seed draws other examples
    obs_a, _ = a.reset(seed=7)
    obs_b, _ = b.reset(seed=7)
    assert obs_a == obs_b
    step_a, step_b = a.step("The answer is $\\boxed{2}$."), b.step("The answer is $\\boxed{2}$.")
    assert step_a[1:4] == step_b[1:4]
    assert step_a[4]["verdict"].reason == step_b[4]["verdict"].reason


def test_single_turn_episode_and_info() -> None:
    env = gym.make("rlvr/Countdown-v0", render_mode="ansi")
    obs, info = env.reset(seed=0)
    ex = info["example"]
    assert isinstance(obs, str) and ex.prompt in obs and "<answer>" in obs
    assert info["example_key"] == ex.key and info["goal"] == ex.goal and info["task"] == "countdown"
    task = env.unwrapped.task
    obs2, reward, terminated, truncated, info = env.step(task.gold_completion(ex))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert isinstance(info["verdict"], Verdict) and info["passed"] and info["reason"] == "correct"
    assert obs2 == obs
    assert "[completion]" in env.render() and "correct" in env.render()
    with pytest.raises(gym.error.ResetNeeded, match="call reset"):
        env.unwrapped.step("again")
    env.reset(options={"key": ex.key})
    assert env.unwrapped.example == ex
    env.reset(options={"index": 3})
    assert env.unwrapped.example == task[3]
    with pytest.raises(TypeError, match="completion text"):
        env.unwrapped.step(123)


def test_chat_observations_are_messages() -> None:
    template = PromptTemplate("test-sys-v0", "Q: {prompt}", system="You are careful.")
    env = gym.make("rlvr/Arithmetic-v0", chat=True, template=template)
    obs, info = env.reset(seed=1)
    assert obs == (
        {"role": "system", "content": "You are careful."},
        {"role": "user", "content": "Q: " + info["example"].prompt},
    )
    text_env = gym.make("rlvr/Arithmetic-v0", template=template)
    text_obs, _ = text_env.reset(seed=1)
    assert text_obs == "You are careful.\n\nQ: " + info["example"].prompt


def test_reward_functions() -> None:
    env = gym.make("rlvr/Countdown-v0", reward=lambda verdict, example: 0.5 + 0.5 * verdict.score)
    env.reset(seed=0)
    assert env.step("nonsense")[1] == 0.5
    env = gym.make("rlvr/Countdown-v0", reward="binary")
    env.reset(seed=0)
    assert env.step("nonsense")[1] == 0.0
    with pytest.raises(RegistryError, match="unknown reward function"):
        gym.make("rlvr/Countdown-v0", reward="shaped")
    bad = gym.make("rlvr/Countdown-v0", reward=lambda v, e: float("nan"))
    bad.reset(seed=0)
    with pytest.raises(ValueError, match="finite"):
        bad.step("x")


def test_make_options_are_routed_and_checked() -> None:
    env = gym.make("rlvr/Arithmetic-v0", difficulty=4, size=50)
    assert env.unwrapped.task.difficulty == 4 and len(env.unwrapped.task) == 50
    with pytest.raises(ConfigError, match="rlvr/Arithmetic-v0: unknown option 'splt'; options: .*difficulty"):
        gym.make("rlvr/Arithmetic-v0", splt="train")
    with pytest.raises(ConfigError, match="multi-turn envs only"):
        gym.make("rlvr/Arithmetic-v0", reward_mode="best")
    with pytest.raises(ConfigError, match="render_mode"):
        gym.make("rlvr/Arithmetic-v0", render_mode="human")
    with pytest.raises(RegistryError, match="unknown prompt template"):
        gym.make("rlvr/Arithmetic-v0", template="nope-v0")
    with pytest.raises(ConfigError, match="must contain"):
        PromptTemplate("x-v0", "no placeholder")


def test_register_env_with_a_function_verifier_and_a_task_object() -> None:
    examples = [Example(example_key("echo", w, w.upper()), w, w.upper(), "echo") for w in ("ab", "cd", "ef")]
    task = ListTask("echo", examples, verifier_name="countdown")
    env_id = "test/Echo-v0"
    try:
        rlvr.register_env(env_id, task=task, verifier=lambda completion, ref: completion.strip() == ref)
        env = gym.make(env_id)
        _, info = env.reset(seed=0)
        assert env.step(info["example"].reference)[1] == 1.0
        env.reset(seed=0)
        assert env.step("wrong")[1] == 0.0
        check_env(env.unwrapped)
        with pytest.raises(RegistryError, match="already registered"):
            rlvr.register_env(env_id, task=task)
        with pytest.raises(RegistryError, match="namespace/Name-vN"):
            rlvr.register_env("Echo", task=task)
        with pytest.raises(ConfigError, match="unknown env options"):
            rlvr.register_env("test/Other-v0", task=task, colour="red")
        assert "test/Other-v0" not in ENVS
    finally:
        unregister_env(env_id)
    assert env_id not in gym.registry and env_id not in ENVS


def test_env_rejects_non_tasks() -> None:
    with pytest.raises(ConfigError, match="rlvr.tasks.Task"):
        VerifiedEnv([1, 2], None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no examples"):
        VerifiedEnv(ListTask("e", [], verifier_name="countdown"), None)  # type: ignore[arg-type]


def test_gymnasium_sync_vector_env_works() -> None:
    venv = gym.make_vec("rlvr/Countdown-v0", num_envs=3, vectorization_mode="sync")
    obs, infos = venv.reset(seed=0)
    assert isinstance(obs, tuple) and len(obs) == 3 and all(isinstance(o, str) for o in obs)
    golds = tuple(
        venv.unwrapped.envs[i].unwrapped.task.gold_completion(ex) for i, ex in enumerate(infos["example"])
    )
    _, rewards, terminated, truncated, infos = venv.step(golds)
    assert np.array_equal(rewards, [1.0, 1.0, 1.0]) and terminated.all() and not truncated.any()
    assert list(infos["passed"]) == [True, True, True]
    chat = gym.make_vec("rlvr/Countdown-v0", num_envs=2, vectorization_mode="sync", chat=True)
    obs, _ = chat.reset(seed=0)
    assert all(isinstance(o, tuple) and o[0]["role"] == "user" for o in obs)
    venv.close()
    chat.close()


def test_gymnasium_async_vector_env_builds_envs_in_worker_processes() -> None:
    venv = gym.make_vec("rlvr/Countdown-v0", num_envs=2, vectorization_mode="async")
    try:
        _, infos = venv.reset(seed=0)
        _, rewards, terminated, _, infos = venv.step(("<answer>1</answer>", "<answer>1</answer>"))
        assert terminated.all() and rewards.tolist() == [0.0, 0.0]
        assert list(infos["reason"]) == ["wrong", "wrong"]
    finally:
        venv.close()


def test_spaces() -> None:
    text = LLMText(10)
    assert "ünïcødé ✓" in text and "" in text and "x" * 11 not in text and 5 not in text
    text.seed(0)
    assert all(len(text.sample()) <= 10 for _ in range(20))
    chat = ChatMessages(max_messages=3, max_chars=20)
    assert ({"role": "user", "content": "hi"},) in chat
    assert ({"role": "robot", "content": "hi"},) not in chat
    assert ({"role": "user", "content": "x" * 21},) not in chat
    assert () not in chat and [{"role": "user", "content": "hi"}] not in chat
    chat.seed(0)
    assert all(chat.sample() in chat for _ in range(20))
