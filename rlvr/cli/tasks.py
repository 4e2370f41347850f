"""`rlvr tasks list|show|validate`: the task registry, a look at a task, and its gold-answer check."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

import yaml


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """`["split=test", "levels=[1,2]"]` -> {"split": "test", "levels": [1, 2]} (values parsed as YAML)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"option {pair!r} is not KEY=VALUE (e.g. -o split=test)")
        options[key.strip()] = yaml.safe_load(value)
    return options


def _list(args: argparse.Namespace) -> int:
    from rlvr.tasks.registry import TASKS, describe_task

    names = TASKS.names()
    width = max(len(n) for n in names)
    for name in names:
        try:
            desc = describe_task(name)
        except Exception as exc:  # a broken third-party entry point must not hide the others
            desc = f"(cannot load: {exc})"
        print(f"{name:<{width}}  {desc}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from rlvr.tasks.registry import load_task

    task = load_task(args.name, **parse_options(args.option))
    print(f"{task!r}: verifier {task.verifier_name!r}; {getattr(task, 'description', '')}")
    for ex in task[: args.num]:
        print(
            f"\n--- {ex.key}  {dict((k, v) for k, v in ex.metadata.items() if k in ('level', 'subject', 'difficulty', 'task_id'))}"
        )
        print(ex.prompt)
        print(f"reference: {ex.reference!r}"[:500])
    return 0


def _validate(args: argparse.Namespace) -> int:
    from rlvr.core.errors import DataError
    from rlvr.tasks.registry import load_task

    task = load_task(args.name, **parse_options(args.option))
    try:
        task.validate(gold=not args.references_only, progress=True)
    except DataError as exc:
        print(exc)
        return 1
    print(
        f"{task!r}: every reference is gradeable" + ("" if args.references_only else " and every gold passes")
    )
    return 0


def reporting_errors(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Print rlvr's own errors (bad options, missing data) as one line and exit 2, without a traceback."""

    @functools.wraps(func)
    def run(args: argparse.Namespace) -> int:
        from rlvr.core.errors import RlvrError

        try:
            return func(args)
        except RlvrError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2

    return run


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr tasks ...`."""
    parser = sub.add_parser("tasks", help="list, show and validate task sources")
    tsub = parser.add_subparsers(dest="tasks_command", metavar="ACTION", required=True)
    p = tsub.add_parser("list", help="registered task names and what they are")
    p.set_defaults(func=_list)
    for name, func, helptext in (
        ("show", _show, "load a task and print its first examples"),
        ("validate", _validate, "check that each gold answer passes the task's own verifier"),
    ):
        p = tsub.add_parser(name, help=helptext)
        p.add_argument("name", help="task name (see `rlvr tasks list`)")
        p.add_argument(
            "-o", "--option", action="append", metavar="KEY=VALUE", help="task option, e.g. split=test"
        )
        p.set_defaults(func=reporting_errors(func))
    tsub.choices["show"].add_argument("-n", "--num", type=int, default=3, help="examples to print")
    tsub.choices["validate"].add_argument(
        "--references-only",
        action="store_true",
        help="only check that references parse (skip gold completions)",
    )
