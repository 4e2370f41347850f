"""The judge: trusted test code that runs in the sandbox beside the program, under another uid.

Shipped as source (after wire.py's) and run by the sandbox with globals DATA (marshal of the test spec),
RPC_IN/RPC_OUT (pipes to the program) and REPORT (a pipe to the host that only the judge holds). It executes the
dataset's own test code with each function under test replaced by a proxy: a call sends the (trusted)
arguments to the program, which runs its function and sends back a plain value; the comparison then happens
here, with this interpreter's unpatched builtins. One JSON line per decided test goes to REPORT at once, so
results survive a later timeout. Stdlib only.
"""

import builtins
import json
import marshal
import os
import time

if "send" not in globals():  # in the sandbox wire.py's source is prepended to this file's instead
    from rlvr.verifiers.code.wire import WireError, recv, send

# Globals the sandbox gives this file: declared, not assigned, for type checkers (ruff still wants its noqa)
DATA: bytes
RPC_IN: int
RPC_OUT: int
REPORT: int


class ProgramGone(Exception):
    """The program exited, crashed or broke the protocol: it answers no more calls."""


class CandidateError(Exception):
    """The program's function raised an exception that is not a builtin one."""


class State:
    gone = ""
    output: "list[str]" = []  # a string: the sandbox's interpreter may predate list[str]
    program = ""


def program_gone(why):
    """Mark the program as gone (once); if it never compiled, say so: that is why it answers nothing."""
    if not State.gone:
        try:  # compiled here only when needed, not in every run: the program compiles it anyway
            compile(State.program, "solution.py", "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
            line = getattr(exc, "lineno", None)
            msg = getattr(exc, "msg", None) or str(exc)
            report(
                {"type": "syntax_error", "error_type": type(exc).__name__, "message": f"{msg} (line {line})"}
            )
    State.gone = why
    return ProgramGone(why)


def report(obj):
    data = (json.dumps(obj) + "\n").encode()
    while data:
        data = data[os.write(REPORT, data) :]  # noqa: F821 - REPORT is a global given by the sandbox


#: Exceptions that the interpreter itself takes as control flow in trusted code (`map`, `filter`, `any`, `all`,
#: `next(it, default)`, for loops read a StopIteration as "exhausted"): never rebuilt as themselves.
CONTROL_FLOW = (StopIteration, StopAsyncIteration)


def candidate_exception(type_name, message):
    """The exception the program reported, as the builtin class of that name when there is one (so tests
    that expect, say, a ValueError work), marked as coming from the program; a control-flow exception or a
    non-Exception (StopIteration, GeneratorExit, SystemExit, ...) becomes a CandidateError."""
    cls = getattr(builtins, type_name, None) if type_name.isidentifier() else None
    if not (isinstance(cls, type) and issubclass(cls, Exception)) or issubclass(cls, CONTROL_FLOW):
        cls = CandidateError
    try:
        exc = cls(message)
    except Exception:
        exc = CandidateError(message)
    exc.__dict__["rlvr_program_error"] = type_name  # read back with getattr in rebuild_error
    return exc


def make_proxy(target, max_chars):
    """A stand-in for the program's function `target`: forwards the call, returns a plain value."""

    def proxy(*args, **kwargs):
        if State.gone:
            raise ProgramGone(State.gone)
        gone = "the program is no longer running (it exited or crashed before answering)"
        try:
            send(RPC_OUT, ["call", target, list(args), kwargs])  # noqa: F821 - given by the sandbox
        except OSError:
            raise program_gone(gone) from None
        try:
            reply = recv(RPC_IN)  # noqa: F821 - RPC_IN is given by the sandbox
        except WireError as exc:
            raise program_gone(f"the program sent a malformed reply: {exc}") from None
        except OSError:
            reply = None
        if reply is None:
            raise program_gone(gone)
        ok = type(reply) is list and len(reply) >= 3 and type(reply[0]) is str
        if ok and reply[0] == "ok" and len(reply) == 3 and type(reply[2]) is str:
            State.output.append(reply[2][:max_chars])
            return reply[1]
        if ok and reply[0] == "err" and len(reply) == 4 and all(type(x) is str for x in reply[1:]):
            State.output.append(reply[3][:max_chars])
            raise candidate_exception(reply[1][:100], reply[2][:max_chars])
        raise program_gone("the program sent a reply of the wrong shape")

    proxy.__name__ = proxy.__qualname__ = target
    return proxy


def classify(exc):
    """(status, error type) of an exception that escaped a test."""
    if isinstance(exc, ProgramGone):
        return "no_answer", "ProgramGone"
    origin = getattr(exc, "rlvr_program_error", None)
    if origin is not None:
        return "error", origin
    return "failed", type(exc).__name__


def main(spec):
    max_chars = spec["max_chars"]
    tests = [i for i, (kind, _src, _name) in enumerate(spec["steps"]) if kind == "test"]
    report({"type": "start", "tests": len(tests)})
    State.program = spec["program"]
    ns = {"__name__": "__judge__", "__builtins__": builtins}
    for i, source in enumerate(spec["setup"]):
        try:
            exec(compile(source, f"<setup {i}>", "exec"), ns)
        except BaseException as exc:
            report(
                {"type": "harness_error", "error": f"setup {i}: {type(exc).__name__}: {str(exc)[:max_chars]}"}
            )
            return
    for name, target in spec["functions"]:
        ns[name] = make_proxy(target, max_chars)
    number = 0
    for kind, source, name in spec["steps"]:
        State.output = []
        start = time.perf_counter()
        status, error_type, message = "passed", None, ""
        try:
            exec(compile(source, f"<{kind} {name}>", "exec"), ns)
        except BaseException as exc:
            status, error_type = classify(exc)
            try:
                message = str(exc)[:max_chars]
            except Exception:
                message = "<unprintable>"
        if kind == "test":
            report({"type": "test", "index": number, "name": name, "status": status, "error_type": error_type,
                    "message": message, "output": "".join(State.output)[:max_chars],
                    "seconds": round(time.perf_counter() - start, 6)})  # fmt: skip
            number += 1
        elif status != "passed":
            report({"type": "setup_step", "name": name, "status": status, "error_type": error_type,
                    "message": message})  # fmt: skip
    report({"type": "done"})


if __name__ == "__rlvr_judge__":
    main(marshal.loads(DATA))  # noqa: F821 - DATA is given by the sandbox
