"""`rlvr tasks list|show|validate`: the task registry, a look at a task, and its gold-answer check."""

from __future__ import annotations

import argparse

from rlvr.cli._common import add_import_arg, add_option_args, options_of, parse_options, reporting_errors

__all__ = ["add_parser", "parse_options", "reporting_errors"]


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

    task = load_task(args.name, **parse_options(options_of(args)))
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

    task = load_task(args.name, **parse_options(options_of(args)))
    try:
        task.validate(gold=not args.references_only, progress=True)
    except DataError as exc:
        print(exc)
        return 1
    print(
        f"{task!r}: every reference is gradeable" + ("" if args.references_only else " and every gold passes")
    )
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr tasks ...`."""
    parser = sub.add_parser("tasks", help="list, show and validate task sources (alone: list)")
    parser.set_defaults(func=_list)  # `rlvr tasks` alone lists
    add_import_arg(parser)
    tsub = parser.add_subparsers(dest="tasks_command", metavar="ACTION")
    p = tsub.add_parser("list", help="registered task names and what they are")
    add_import_arg(p)
    p.set_defaults(func=_list)
    for name, func, helptext in (
        ("show", _show, "load a task and print its first examples"),
        ("validate", _validate, "check that each gold answer passes the task's own verifier"),
    ):
        p = tsub.add_parser(name, help=helptext)
        p.add_argument("name", help="task name (see `rlvr tasks list`)")
        add_option_args(p, "task option", "-o split=test (or split=test)")
        add_import_arg(p)
        p.set_defaults(func=reporting_errors(func))
    tsub.choices["show"].add_argument("-n", "--num", type=int, default=3, help="examples to print")
    tsub.choices["validate"].add_argument(
        "--references-only",
        action="store_true",
        help="only check that references parse (skip gold completions)",
    )
