"""`rlvr envs list|check`: the registered environments, and Gymnasium's env checker on one of them."""

from __future__ import annotations

import argparse
import sys

from rlvr.cli._common import add_import_arg, add_option_args, options_of, parse_options, reporting_errors


def _list(args: argparse.Namespace) -> int:
    from rlvr.envs.builtin import register_builtin_envs
    from rlvr.envs.registration import ENVS, load_env_plugins

    register_builtin_envs()
    load_env_plugins()
    rows = [ENVS.get(env_id).summary() for env_id in ENVS.names()]
    cols = ["id", "task", "verifier", "template", "turns", "description"]
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols[:-1]}
    print("  ".join(f"{c.upper():<{widths[c]}}" for c in cols[:-1]) + "  DESCRIPTION")
    for r in rows:
        print("  ".join(f"{r[c]:<{widths[c]}}" for c in cols[:-1]) + f"  {r['description']}")
    return 0


def _check(args: argparse.Namespace) -> int:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import rlvr  # noqa: F401  (registers the built-ins)
    from rlvr.envs.registration import get_recipe

    get_recipe(args.env_id)  # an unknown id: one line saying how to load the user's module
    try:
        env = gym.make(args.env_id, **parse_options(options_of(args)))
    except gym.error.Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    check_env(env.unwrapped)
    _, info = env.reset(seed=0)
    print(
        f"{args.env_id}: passes gymnasium's check_env; first example {info['example_key']} of {getattr(env.unwrapped, 'task', None)!r}"
    )
    env.close()
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr envs ...`."""
    parser = sub.add_parser("envs", help="list registered environments (alone: list), check one")
    parser.set_defaults(func=_list)  # `rlvr envs` alone lists
    add_import_arg(parser)
    esub = parser.add_subparsers(dest="envs_command", metavar="ACTION")
    p = esub.add_parser("list", help="the environment registry")
    add_import_arg(p)
    p.set_defaults(func=_list)
    p = esub.add_parser("check", help="run gymnasium's env checker on an environment")
    p.add_argument("env_id", help="e.g. rlvr/Countdown-v0")
    add_option_args(p, "make() option", "-o difficulty=2 (or difficulty=2)")
    add_import_arg(p)
    p.set_defaults(func=reporting_errors(_check))
