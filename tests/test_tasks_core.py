"""Task sources: views, seeded order, mixtures, keys, the registry and its entry points."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rlvr.core import ConfigError, DataError, Example, RegistryError
from rlvr.tasks import TASKS, ListTask, MixtureTask, Task, example_key, load_task, task
from rlvr.tasks.countdown import CountdownTask
from rlvr.tasks.generated import ArithmeticTask


def _toy(name: str, n: int) -> ListTask:
    examples = [
        Example(example_key(name, f"q{i}", str(i)), f"q{i}", str(i), name, {"i": i}) for i in range(n)
    ]
    return ListTask(name, examples, verifier_name="countdown")


def test_indexing_slicing_and_negative_indices() -> None:
    t = _toy("toy", 10)
    assert len(t) == 10 and t[0].prompt == "q0" and t[-1].prompt == "q9"
    view = t[2:8:2]
    assert isinstance(view, Task) and [ex.prompt for ex in view] == ["q2", "q4", "q6"]
    assert [ex.prompt for ex in view[::-1]] == ["q6", "q4", "q2"]
    with pytest.raises(IndexError, match="out of range"):
        t[10]
    with pytest.raises(TypeError, match="ints or slices"):
        t["a"]  # type: ignore[index]


def test_shuffle_is_seeded_and_a_permutation() -> None:
    t = _toy("toy", 50)
    a, b, c = t.shuffled(1), t.shuffled(1), t.shuffled(2)
    assert a.keys() == b.keys()
    assert a.keys() != c.keys()
    assert sorted(a.keys()) == sorted(t.keys())


def test_filter_and_by_key() -> None:
    t = _toy("toy", 20)
    even = t.filter(lambda ex: ex.metadata["i"] % 2 == 0)
    assert len(even) == 10 and all(ex.metadata["i"] % 2 == 0 for ex in even)
    ex = t[7]
    assert t.by_key(ex.key) is ex
    with pytest.raises(KeyError, match="no example with key"):
        t.by_key("nope")


def test_epochs_visit_everything_once_per_epoch_in_fresh_orders() -> None:
    t = _toy("toy", 7)
    stream = t.epochs(seed=3)
    first = [next(stream).key for _ in range(7)]
    second = [next(stream).key for _ in range(7)]
    assert sorted(first) == sorted(second) == sorted(t.keys())
    assert first != second
    again = t.epochs(seed=3)
    assert [next(again).key for _ in range(7)] == first


def test_mixture_is_weighted_seeded_and_cycles_small_components() -> None:
    a, b = _toy("a", 5), _toy("b", 100)
    mix = MixtureTask([a, b], [3.0, 1.0], seed=0, size=4000)
    counts = Counter(ex.task for ex in mix)
    assert 0.70 < counts["a"] / 4000 < 0.80  # weight 3/4, binomial sd ~0.007
    # the small component is consumed in full epochs: each of its examples appears equally often (+-1)
    per_example = Counter(ex.key for ex in mix if ex.task == "a")
    assert max(per_example.values()) - min(per_example.values()) <= 1
    again = MixtureTask([a, b], [3.0, 1.0], seed=0, size=4000)
    assert again.keys() == mix.keys()
    assert MixtureTask([a, b], [3.0, 1.0], seed=1, size=4000).keys() != mix.keys()
    assert len(MixtureTask([a, b])) == 105


def test_mixture_rejects_bad_configs() -> None:
    a = _toy("a", 3)
    with pytest.raises(ConfigError, match="weights"):
        MixtureTask([a], [-1.0])
    with pytest.raises(ConfigError, match="2 weights"):
        MixtureTask([a, _toy("b", 2)], [1.0])
    with pytest.raises(ConfigError, match="at least one task"):
        MixtureTask([])
    math_like = ListTask("m", list(_toy("m", 2)), verifier_name="math")
    with pytest.raises(ConfigError, match="share one verifier"):
        MixtureTask([a, math_like])


def test_mixture_of_task_variants_delegates_gold_and_relabel_to_the_source() -> None:
    easy, hard = CountdownTask(size=30, seed=0, num_numbers=3), CountdownTask(size=30, seed=1, num_numbers=6)
    mix = MixtureTask([easy, hard], [1.0, 1.0], seed=5)
    verifier = mix.make_verifier()
    sizes = Counter(len(ex.metadata["numbers"]) for ex in mix)
    assert set(sizes) == {3, 6} and sum(sizes.values()) == 60  # draws are random, the total is the size
    for ex in list(mix)[:10]:
        assert verifier.verify(mix.gold_completion(ex), ex.reference).passed
    view = mix.shuffled(0)[:5]
    ex = view[0]
    relabeled = view.relabel(ex, 1234)
    assert relabeled.goal == 1234 and relabeled.metadata["relabeled_from"] == ex.key
    assert relabeled.metadata["numbers"] == ex.metadata["numbers"]


def test_keys_are_content_hashes_stable_across_processes() -> None:
    t = ArithmeticTask(size=5, seed=11, difficulty=3)
    code = "from rlvr.tasks.generated import ArithmeticTask; print(ArithmeticTask(size=5, seed=11, difficulty=3).keys())"
    for hashseed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin"},
        ).stdout
        assert out.strip() == str(t.keys())
    # same content -> same key; different content -> different key
    assert example_key("x", "p", "1") == example_key("x", "p", "1") != example_key("x", "p", "2")


def test_task_registry_decorator_and_load_task_cache() -> None:
    @task("test_toy_registry")
    def make_toy(n: int = 3) -> ListTask:
        """A toy task for the registry test."""
        return _toy("test_toy_registry", n)

    try:
        assert "test_toy_registry" in TASKS
        t1, t2 = load_task("test_toy_registry", n=4), load_task("test_toy_registry", n=4)
        assert t1 is t2 and len(t1) == 4  # identical options share one immutable task
        assert load_task("test_toy_registry", n=4, cache=False) is not t1
        with pytest.raises(ConfigError, match="unexpected keyword"):
            load_task("test_toy_registry", size=4)
        with pytest.raises(RegistryError, match="already registered"):
            task("test_toy_registry")(
                make_toy.__wrapped__ if hasattr(make_toy, "__wrapped__") else lambda: None
            )
    finally:
        TASKS.unregister("test_toy_registry")
    with pytest.raises(RegistryError, match="unknown task"):
        load_task("test_toy_registry")


def test_factory_must_return_a_task() -> None:
    TASKS.register("test_not_a_task", lambda: [1, 2, 3])
    try:
        with pytest.raises(ConfigError, match="not an rlvr.tasks.Task"):
            load_task("test_not_a_task")
    finally:
        TASKS.unregister("test_not_a_task")


def test_entry_point_group_registers_third_party_tasks(tmp_path: Path) -> None:
    """A distribution declaring `[project.entry-points."rlvr.tasks"]` adds a task without importing it first."""
    (tmp_path / "thirdparty_tasks.py").write_text(
        textwrap.dedent(
            """
            from rlvr.core import Example
            from rlvr.tasks import ListTask, example_key

            def load_third(n=2):
                '''A third-party task.'''
                exs = [Example(example_key("third", str(i), str(i)), str(i), str(i), "third") for i in range(n)]
                return ListTask("third", exs, verifier_name="countdown")
            """
        )
    )
    dist = tmp_path / "thirdparty_tasks-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-tasks\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[rlvr.tasks]\nthird = thirdparty_tasks:load_third\n")
    code = "from rlvr.tasks import load_task, describe_task; t = load_task('third', n=3); print(len(t), describe_task('third'))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3 A third-party task."


def test_validate_reports_rows_whose_gold_fails() -> None:
    good = CountdownTask(size=5, seed=0)
    good.validate()
    bad_examples = list(good)
    ex = bad_examples[2]
    broken = Example(ex.key, ex.prompt, ex.reference, ex.task, {**ex.metadata, "solution": "1 + 1"}, ex.goal)
    bad_examples[2] = broken
    bad = ListTask("countdown", bad_examples, verifier_name="countdown", gold_fn=good.gold_completion)
    with pytest.raises(DataError, match=r"1 of 5 examples are invalid:\n  example 2 .*gold completion fails"):
        bad.validate()


def test_empty_task_cannot_iterate_epochs() -> None:
    empty = ListTask("empty", [], verifier_name="countdown")
    with pytest.raises(DataError, match="no examples"):
        next(empty.epochs(0))
    assert np.asarray(empty.keys()).size == 0


def test_tasks_pickle_for_worker_processes() -> None:
    import pickle

    for t in (
        CountdownTask(size=30, seed=2),
        ArithmeticTask(size=30, difficulty=2),
        _toy("toy", 5).shuffled(1),
    ):
        clone = pickle.loads(pickle.dumps(t))
        assert clone.keys() == t.keys() and clone[3] == t[3]
