"""The `rlvr` command line: one sub-command per module in this package (each defines `add_parser`)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from rlvr import __version__


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every sub-command module of `rlvr.cli` attached."""
    parser = argparse.ArgumentParser(
        prog="rlvr",
        description="Reinforcement learning of LLMs with verifiable rewards.",
    )
    parser.add_argument("--version", action="version", version=f"rlvr {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `rlvr` console script; returns the process exit status."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) > 1 and argv[0] == "verify" and not argv[1].startswith("-"):
        from rlvr.cli.verify import BUILTIN_KINDS, REGISTERED

        if argv[1] not in BUILTIN_KINDS:  # `rlvr verify NAME ...`: any registered verifier
            argv = ["verify", REGISTERED, *argv[1:]]
    args, extra = parser.parse_known_args(argv)
    # KEY=VALUE overrides may follow options (`rlvr train C.yaml --dry-run train.steps=3`), which argparse's
    # single trailing positional list does not accept; anything else unknown is still an error
    overrides = getattr(args, "overrides", None)
    if overrides is not None and all("=" in a and not a.startswith("-") for a in extra):
        args.overrides = [*overrides, *extra]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    if getattr(args, "imports", None):  # the user's own envs/tasks/verifiers, before anything looks them up
        from rlvr.core.errors import ConfigError
        from rlvr.core.registry import import_user_modules

        try:
            import_user_modules(args.imports)
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
