"""The program side of a judged run: load the solution, then answer the judge's calls on fds 3/4.

Shipped as source (after wire.py's) and run as the sandboxed program's main script. It executes in the
untrusted process, so nothing here is relied upon: whatever the solution does to this code, all it can do is
send bytes that the judge decodes into plain values. Stdlib only.
"""

import builtins
import os
import sys

if "send" not in globals():  # in the sandbox wire.py's source is prepended to this file's instead
    from rlvr.verifiers.code.wire import WireError, encode, recv, send

# Set by the verifier's header before this source: declared, not assigned, for type checkers
SOLUTION_PATH: str
MODULE_NAME: str

MAX_CHARS = 2000


class Capture:
    """A stdout replacement keeping the first `MAX_CHARS` characters of what one call prints."""

    def __init__(self):
        self.parts, self.size = [], 0

    def write(self, text):
        if self.size < MAX_CHARS:
            self.parts.append(text[: MAX_CHARS - self.size])
            self.size += len(self.parts[-1])
        return len(text)

    def flush(self):
        pass

    def text(self):
        return "".join(self.parts)


def safe_str(exc):
    try:
        return str(exc)[:MAX_CHARS]
    except BaseException:
        return "<unprintable>"


def serve(path, module_name):
    with open(path) as f:
        source = f.read()
    module = type(sys)(module_name)
    module.__file__ = os.path.abspath(path)
    module.__dict__["__builtins__"] = builtins
    sys.modules[module_name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    while True:
        try:
            request = recv(3)
        except (WireError, OSError):
            return
        if request is None:
            return  # the judge is done
        _, target, args, kwargs = request
        fn = module.__dict__.get(target)
        capture, saved = Capture(), sys.stdout
        sys.stdout = capture
        try:
            if not callable(fn):
                raise NameError(f"name {target!r} is not defined as a function by the program")
            reply = ["ok", fn(*args, **kwargs), ""]
            encode(reply)  # fail here, inside the try, if the value cannot be sent
        except BaseException as exc:
            if isinstance(exc, WireError):
                reply = ["err", "TypeError", f"the return value cannot be checked: {exc}", ""]
            else:
                reply = ["err", type(exc).__name__, safe_str(exc), ""]
        finally:
            sys.stdout = saved
        reply[-1] = capture.text()
        send(4, reply)


if __name__ == "__main__":
    serve(SOLUTION_PATH, MODULE_NAME)  # noqa: F821 - set by the verifier's header
