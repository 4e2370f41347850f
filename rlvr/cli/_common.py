"""What every `rlvr` sub-command shares: KEY=VALUE options in both spellings, --import, one-line errors."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """`["split=test", "levels=[1,2]"]` -> {"split": "test", "levels": [1, 2]} (values parsed as YAML)."""
    from rlvr.core.errors import ConfigError
    from rlvr.train.configio import load_yaml

    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"option {pair!r} is not KEY=VALUE (e.g. -o split=test)")
        options[key.strip()] = load_yaml(value) if value.strip() else ""
    return options


def add_option_args(p: argparse.ArgumentParser, what: str, example: str) -> None:
    """KEY=VALUE options, accepted both as `-o KEY=VALUE` and as trailing `KEY=VALUE` words (one form for all)."""
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE", help=f"{what}, e.g. {example}"
    )
    p.add_argument("overrides", nargs="*", default=[], metavar="KEY=VALUE", help="the same as -o KEY=VALUE")


def options_of(args: argparse.Namespace) -> list[str]:
    """All KEY=VALUE pairs given to a command, in order (-o ones first)."""
    return [*(getattr(args, "option", None) or []), *(getattr(args, "overrides", None) or [])]


def add_import_arg(p: argparse.ArgumentParser) -> None:
    """`--import MODULE` (repeatable): load the user's own envs/tasks/verifiers before the command runs."""
    p.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module (dotted name or .py file) that registers your own envs/tasks/verifiers; repeatable",
    )


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
