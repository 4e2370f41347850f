"""Task sources: datasets (MATH, MATH-500, GSM8K, HumanEval, MBPP) and generators (arithmetic, countdown).

`load_task("math", split="test")` builds a registered task; `@task("name")` registers your own.
"""

from rlvr.tasks.base import ListTask, MixtureTask, SubsetTask, Task, example_key
from rlvr.tasks.loading import fixture_path
from rlvr.tasks.registry import TASKS, describe_task, load_task, task

__all__ = [
    "TASKS",
    "ListTask",
    "MixtureTask",
    "SubsetTask",
    "Task",
    "describe_task",
    "example_key",
    "fixture_path",
    "load_task",
    "task",
]
