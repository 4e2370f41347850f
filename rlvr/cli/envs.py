"""`rlvr envs list|check`: the registered environments, and Gymnasium's env checker on one of them."""

from __future__ import annotations

import argparse
import sys

from rlvr.cli.tasks import parse_options, reporting_errors


def _list(args: argparse.Namespace) -> int:
    from rlvr.envs.builtin import register_builtin_envs
    from rlvr.envs.registration import ENVS

    register_builtin_envs()
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

    try:
        env = gym.make(args.env_id, **parse_options(args.option))
    except gym.error.Error as exc:  # unknown id etc.: say so without a traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    check_env(env.unwrapped)
    _, info = env.reset(seed=0)
    print(
        f"{args.env_id}: passes gymnasium's check_env; first example {info['example_key']} of {env.unwrapped.task!r}"
    )
    env.close()
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Attach `rlvr envs ...`."""
    parser = sub.add_parser("envs", help="list registered environments, check one")
    esub = parser.add_subparsers(dest="envs_command", metavar="ACTION", required=True)
    esub.add_parser("list", help="the environment registry").set_defaults(func=_list)
    p = esub.add_parser("check", help="run gymnasium's env checker on an environment")
    p.add_argument("env_id", help="e.g. rlvr/Countdown-v0")
    p.add_argument(
        "-o", "--option", action="append", metavar="KEY=VALUE", help="make() option, e.g. path=..."
    )
    p.set_defaults(func=reporting_errors(_check))
