"""Task sources: immutable, indexable sequences of `Example`s, with seeded shuffles, slices and mixtures.

A `Task` is what an environment samples from. Every concrete task knows which verifier grades it
(`make_verifier`), how to write a completion that its own verifier must accept (`gold_completion`, used by
`validate` and by the tests over every shipped dataset), and, for goal-conditioned tasks, how to read the goal
a completion actually reached and relabel an example with it (hindsight).

Views (`task[2:10]`, `task.shuffled(seed)`, `task.filter(...)`) share the underlying examples and delegate
everything else to the task they view, so they are cheap and keep keys unchanged.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

import numpy as np

from rlvr.core.errors import ConfigError, DataError, RegistryError
from rlvr.core.seeding import derive_seed, make_rng, stable_hash
from rlvr.core.types import Example, Prompt, Verdict
from rlvr.verifiers.base import Verifier, make_verifier


def example_key(task: str, prompt: Prompt, reference: Any) -> str:
    """The stable content hash that identifies an example: same task, prompt and reference -> same key."""
    return stable_hash({"task": task, "prompt": prompt, "reference": reference})


class Task(ABC):
    """An immutable, indexable sequence of `Example`s plus the verifier that grades them."""

    #: registry name of the task (also stored in each `Example.task`)
    name: str = "task"
    #: registry name of the verifier that grades this task (see `rlvr.verifiers.VERIFIERS`)
    verifier_name: str = "math"
    #: keyword arguments for that verifier's factory
    verifier_config: Mapping[str, Any] = {}
    #: whether examples carry a `goal` that `achieved_goal`/`relabel` can change (hindsight relabeling)
    goal_conditioned: bool = False

    @abstractmethod
    def __len__(self) -> int:
        """Number of examples."""

    @abstractmethod
    def _example(self, index: int) -> Example:
        """The example at a non-negative index < len(self)."""

    @overload
    def __getitem__(self, index: int) -> Example: ...

    @overload
    def __getitem__(self, index: slice) -> Task: ...

    def __getitem__(self, index: int | slice) -> Example | Task:
        """An example by position, or a view for a slice (`task[:100]`)."""
        if isinstance(index, slice):
            return self.select(range(len(self))[index])
        if not isinstance(index, int | np.integer):
            raise TypeError(f"task indices are ints or slices, not {type(index).__name__}")
        n = len(self)
        i = int(index) + n if index < 0 else int(index)
        if not 0 <= i < n:
            raise IndexError(f"example index {index} out of range for task {self.name!r} of {n} examples")
        return self._example(i)

    def __iter__(self) -> Iterator[Example]:
        for i in range(len(self)):
            yield self._example(i)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {len(self)} examples)"

    # ----- views -----
    def select(self, indices: Sequence[int] | np.ndarray) -> Task:
        """A view of the examples at `indices`, in that order."""
        return SubsetTask(self, indices)

    def shuffled(self, seed: int) -> Task:
        """A view in a seeded random order (same seed -> same order on every machine)."""
        return SubsetTask(self, make_rng(seed, "shuffle", self.name).permutation(len(self)))

    def filter(self, predicate: Callable[[Example], bool]) -> Task:
        """A view of the examples for which `predicate(example)` is true (e.g. one MATH level)."""
        return SubsetTask(self, [i for i in range(len(self)) if predicate(self._example(i))])

    def epochs(self, seed: int) -> Iterator[Example]:
        """Endless iteration: each epoch visits every example once, in a fresh seeded order."""
        if len(self) == 0:
            raise DataError(f"task {self.name!r} has no examples to iterate over")
        epoch = 0
        while True:
            for i in make_rng(derive_seed(seed, "epoch", epoch)).permutation(len(self)):
                yield self._example(int(i))
            epoch += 1

    # ----- lookups -----
    def keys(self) -> list[str]:
        """The keys of all examples, in order."""
        return [ex.key for ex in self]

    def by_key(self, key: str) -> Example:
        """The example with this key (the first one if content is duplicated)."""
        index = getattr(self, "_key_index", None)
        if index is None:
            index = {}
            for ex in self:
                index.setdefault(ex.key, ex)
            self._key_index = index
        try:
            return index[key]
        except KeyError:
            raise KeyError(f"no example with key {key!r} in task {self.name!r}") from None

    # ----- grading -----
    def make_verifier(self) -> Verifier:
        """A fresh instance of the verifier that grades this task."""
        return make_verifier(self.verifier_name, **dict(self.verifier_config))

    def gold_completion(self, example: Example) -> str:
        """A completion its verifier must accept (the gold answer in the format the verifier extracts)."""
        return f"The final answer is $\\boxed{{{example.reference}}}$."

    def validate(
        self, verifier: Verifier | None = None, *, gold: bool = True, progress: bool = False
    ) -> None:
        """Raise `DataError` unless every reference is gradeable and (with `gold`) every gold completion passes."""
        verifier = verifier or self.make_verifier()
        failures: list[str] = []
        items: Any = enumerate(self)
        if progress:
            from tqdm.auto import tqdm

            items = tqdm(items, total=len(self), desc=f"validating {self.name}")
        for i, ex in items:
            try:
                verifier.validate_reference(ex.reference)
            except DataError as exc:
                failures.append(f"example {i} (key {ex.key}): reference not gradeable: {exc}")
                continue
            if gold:
                verdict = verifier.verify(self.gold_completion(ex), ex.reference)
                if not verdict.passed:
                    failures.append(
                        f"example {i} (key {ex.key}): its gold completion fails its own verifier "
                        f"({verdict.reason}, details {dict(verdict.details)})"
                    )
        if failures:
            shown = "\n  ".join(failures[:10])
            more = f"\n  ... and {len(failures) - 10} more" if len(failures) > 10 else ""
            raise DataError(
                f"task {self.name!r}: {len(failures)} of {len(self)} examples are invalid:\n  {shown}{more}\n"
                "fix these rows in the source data, or drop them with task.filter(...)"
            )

    # ----- goal-conditioned tasks (hindsight relabeling) -----
    def achieved_goal(self, example: Example, completion: str) -> Any | None:
        """The goal `completion` actually reached (e.g. the value a Countdown expression evaluates to), or None."""
        raise NotImplementedError(f"task {self.name!r} is not goal-conditioned")

    def relabel(self, example: Example, goal: Any) -> Example:
        """The same example with its goal replaced by `goal` (new prompt, reference and key)."""
        raise NotImplementedError(f"task {self.name!r} is not goal-conditioned")

    def hindsight(self, example: Example, completion: str) -> tuple[Example, Verdict] | None:
        """Relabel `example` with the goal `completion` reached and grade it there; None if it reached none."""
        goal = self.achieved_goal(example, completion)
        if goal is None:
            return None
        relabeled = self.relabel(example, goal)
        return relabeled, self.make_verifier().verify(completion, relabeled.reference)


class ListTask(Task):
    """A task over a fixed list of examples (what the dataset loaders return)."""

    def __init__(
        self,
        name: str,
        examples: Sequence[Example],
        *,
        verifier_name: str,
        verifier_config: Mapping[str, Any] | None = None,
        gold_fn: Callable[[Example], str] | None = None,
        description: str = "",
    ) -> None:
        self.name = name
        self._examples = tuple(examples)
        self.verifier_name = verifier_name
        self.verifier_config = dict(verifier_config or {})
        self._gold_fn = gold_fn
        self.description = description

    def __len__(self) -> int:
        return len(self._examples)

    def _example(self, index: int) -> Example:
        return self._examples[index]

    def gold_completion(self, example: Example) -> str:
        """The gold completion from the loader's `gold_fn` (default: the reference in a box)."""
        return self._gold_fn(example) if self._gold_fn else super().gold_completion(example)


class _View(Task):
    """A task that draws its examples from other tasks and delegates grading to the task each came from."""

    def _source_for(self, example: Example) -> Task:
        raise NotImplementedError

    def gold_completion(self, example: Example) -> str:
        """Delegated to the task the example came from."""
        return self._source_for(example).gold_completion(example)

    def achieved_goal(self, example: Example, completion: str) -> Any | None:
        """Delegated to the task the example came from."""
        return self._source_for(example).achieved_goal(example, completion)

    def relabel(self, example: Example, goal: Any) -> Example:
        """Delegated to the task the example came from."""
        return self._source_for(example).relabel(example, goal)


class SubsetTask(_View):
    """A view of some examples of a base task, in a given order (slices, shuffles, filters)."""

    def __init__(self, base: Task, indices: Sequence[int] | np.ndarray) -> None:
        self.base = base
        self.indices = np.asarray(indices, dtype=np.int64).reshape(-1)
        self.indices.setflags(write=False)
        n = len(base)
        if self.indices.size and (self.indices.min() < -n or self.indices.max() >= n):
            raise IndexError(f"subset indices out of range for task {base.name!r} of {n} examples")
        self.name = base.name
        self.verifier_name = base.verifier_name
        self.verifier_config = base.verifier_config
        self.goal_conditioned = base.goal_conditioned
        self.description = getattr(base, "description", "")

    def __len__(self) -> int:
        return int(self.indices.size)

    def _example(self, index: int) -> Example:
        return self.base[int(self.indices[index])]

    def _source_for(self, example: Example) -> Task:
        return self.base

    def make_verifier(self) -> Verifier:
        """The base task's verifier."""
        return self.base.make_verifier()


class MixtureTask(_View):
    """A seeded, weighted interleaving of tasks graded by the same verifier.

    Position i draws a component with probability proportional to its weight (one seeded draw per position,
    fixed at construction); each component is consumed in seeded shuffled epochs, so a small component
    repeats only after all its examples were used. `size` defaults to the total number of examples.
    """

    def __init__(
        self,
        tasks: Sequence[Task],
        weights: Sequence[float] | None = None,
        *,
        seed: int = 0,
        size: int | None = None,
        name: str | None = None,
    ) -> None:
        if not tasks:
            raise ConfigError("a mixture needs at least one task; pass e.g. MixtureTask([math, gsm8k])")
        weights = list(weights) if weights is not None else [1.0] * len(tasks)
        if len(weights) != len(tasks):
            raise ConfigError(
                f"a mixture of {len(tasks)} tasks needs {len(tasks)} weights, got {len(weights)}"
            )
        w = np.asarray(weights, dtype=np.float64)
        if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
            raise ConfigError(f"mixture weights must be non-negative and not all zero, got {weights}")
        for t, wt in zip(tasks, w):
            if wt > 0 and len(t) == 0:
                raise ConfigError(
                    f"task {t.name!r} has no examples but weight {wt}; drop it from the mixture"
                )
        graders = {(t.verifier_name, stable_hash(dict(t.verifier_config))) for t in tasks}
        if len(graders) > 1:
            raise ConfigError(
                "a mixture's tasks must share one verifier (one environment grades with one verifier); got "
                f"{sorted(g[0] for g in graders)}. Mix tasks of the same kind, or interleave separate envs"
            )
        names = [t.name for t in tasks]
        self.tasks = tuple(tasks)
        self.weights = w / w.sum()
        self.seed = seed
        self.name = name or "+".join(names)
        self.verifier_name = tasks[0].verifier_name
        self.verifier_config = tasks[0].verifier_config
        self.goal_conditioned = any(t.goal_conditioned for t in tasks)
        self.description = "mixture of " + ", ".join(f"{n} ({p:.2f})" for n, p in zip(names, self.weights))
        n = sum(len(t) for t in tasks) if size is None else int(size)
        rng = make_rng(seed, "mixture", *names)
        self.components = rng.choice(len(tasks), size=n, p=self.weights).astype(np.int64)
        self.offsets = np.zeros(n, dtype=np.int64)  # j-th draw of its component
        for c in range(len(tasks)):
            mask = self.components == c
            self.offsets[mask] = np.arange(int(mask.sum()))
        self._perms: dict[tuple[int, int], np.ndarray] = {}
        self._origin: dict[str, int] = {}  # example key -> component it was drawn from

    def __len__(self) -> int:
        return int(self.components.size)

    def _example(self, index: int) -> Example:
        c = int(self.components[index])
        task = self.tasks[c]
        epoch, pos = divmod(int(self.offsets[index]), len(task))
        perm = self._perms.get((c, epoch))
        if perm is None:
            perm = make_rng(derive_seed(self.seed, "mixture-epoch", c, epoch)).permutation(len(task))
            self._perms[(c, epoch)] = perm
        example = task[int(perm[pos])]
        self._origin.setdefault(example.key, c)
        return example

    def _source_for(self, example: Example) -> Task:
        if example.key in self._origin:
            return self.tasks[self._origin[example.key]]
        for t in self.tasks:  # e.g. a relabeled example: any component of its task can handle it
            if t.name == example.task:
                return t
        raise RegistryError(f"example of task {example.task!r} is not from this mixture")

    def make_verifier(self) -> Verifier:
        """The components' shared verifier."""
        return self.tasks[0].make_verifier()
