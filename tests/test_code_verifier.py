"""The code verifier: extraction, partial credit, reasons, IO mode, and reward hacks that must not pay."""

from __future__ import annotations

import math
import os
import secrets
import textwrap

import pytest

from rlvr.core.errors import DataError
from rlvr.verifiers import VERIFIERS, make_verifier
from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig, extract_program
from rlvr.verifiers.sandbox import SandboxConfig

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the local sandbox backend needs root")


def fenced(code: str) -> str:
    return "Here is my solution:\n```python\n" + textwrap.dedent(code).strip() + "\n```\nIt works."


@pytest.fixture(scope="module")
def verifier():
    v = CodeVerifier(CodeVerifierConfig(timeout_s=5.0, sandbox=SandboxConfig(pool_size=2)))
    yield v
    v.close()


ADD = CodeTests.from_asserts(["assert add(1, 2) == 3", "assert add(-1, 1) == 0", "assert add(10, 5) == 15"])
RIGHT_ADD = fenced("def add(a, b):\n    return a + b")


# -- extraction ------------------------------------------------------------------------------------------
@pytest.mark.timeout(60)
def test_extraction_is_linear_in_the_completion():
    """Red team c1: an unterminated last line opening a fence and then a long run of spaces, backticks or
    tildes made the fence regex quadratic (11 s at 100k characters, ~20 min at 1M), on the host."""
    program = "def add(a, b):\n    return a + b\n"
    for tail in (" ", "`", "~", " `~"):
        for fence in ("```", "~~~", "```python"):
            text = program + fence + tail * (1_000_000 // len(tail))
            assert extract_program(text) == text  # no block opens on a line without a newline
    many = "```python\nx = 1\n```\n" + "```bash\nls\n```\n" * 200_000
    assert extract_program(many) == "x = 1\n"
    assert extract_program("```python\n" + "x = 1\n" * 200_000) == "x = 1\n" * 200_000  # cut off: to the end


def test_extracts_last_python_block():
    text = "```python\nx = 1\n```\nthen\n```bash\nls\n```\n```py\ny = 2\n```\n"
    assert extract_program(text) == "y = 2\n"
    assert extract_program("no fences, just code = 1") == "no fences, just code = 1"
    assert extract_program("```bash\nls\n```") == "```bash\nls\n```"  # no python block: the whole text
    assert extract_program("````py\na\n```\n~~~\n````\nok") == "a\n```\n~~~\n"  # the same fence closes
    assert (
        extract_program("  ```python\n  x = 1\n    y\n  ```\n") == "x = 1\n  y\n"
    )  # indented in a list item
    assert extract_program("```\n```") == "" and extract_program("text\n```python\nz = 3") == "z = 3"
    assert (
        extract_program("Sure:\n```python\ndef f():\n    return 1\n") == "def f():\n    return 1\n"
    )  # cut off
    assert extract_program("1. step\n   ```python\n   a = 1\n   ```\n") == "a = 1\n"


def test_no_code(verifier):
    v = verifier.verify("```python\n\n```", ADD)
    assert v.reason == "no_code" and v.score == 0 and not v.passed


# -- grading ---------------------------------------------------------------------------------------------
def test_correct_program_passes(verifier):
    v = verifier.verify(RIGHT_ADD, ADD)
    assert v.passed and v.score == 1.0 and v.reason == "passed"
    assert [t["status"] for t in v.details["tests"]] == ["passed"] * 3
    assert v.details["exec"]["exit_code"] == 0


def test_partial_credit_on_asserts(verifier):
    v = verifier.verify(fenced("def add(a, b):\n    return a + b if a >= 0 else 1"), ADD)
    assert v.score == pytest.approx(2 / 3) and not v.passed and v.reason == "wrong_answer"
    assert [t["status"] for t in v.details["tests"]] == ["passed", "failed", "passed"]
    assert v.details["tests"][1]["error_type"] == "AssertionError"


def test_runtime_error_reason_and_type(verifier):
    v = verifier.verify(
        fenced("def add(a, b):\n    if a < 0:\n        raise ValueError('negative')\n    return a + b"), ADD
    )
    assert v.score == pytest.approx(2 / 3) and v.reason == "runtime_error"
    bad = v.details["tests"][1]
    assert bad["status"] == "error" and bad["error_type"] == "ValueError" and "negative" in bad["message"]


def test_crash_at_import_is_runtime_error(verifier):
    v = verifier.verify(fenced("import no_such_module\ndef add(a, b):\n    return a + b"), ADD)
    assert v.score == 0 and v.reason == "runtime_error"
    assert {t["status"] for t in v.details["tests"]} == {"no_answer"}
    assert (
        "ModuleNotFoundError" in v.details["exec"]["stderr"] and "ModuleNotFoundError" in v.details["stderr"]
    )


def test_syntax_error(verifier):
    v = verifier.verify(fenced("def add(a, b)\n    return a + b"), ADD)
    assert v.reason == "syntax_error" and v.score == 0
    assert v.details["error_type"] == "SyntaxError" and v.details["error"].startswith("SyntaxError: ")


def test_timeout_keeps_credit_for_tests_already_passed(verifier):
    tests = CodeTests.from_asserts(["assert f(1) == 1", "assert f(2) == 2", "assert f(-1) == -1"])
    v = verifier.verify(fenced("def f(x):\n    while x < 0:\n        pass\n    return x"), tests)
    assert v.reason == "timeout" and v.score == pytest.approx(2 / 3)
    assert [t["status"] for t in v.details["tests"]] == ["passed", "passed", "timeout"]


def test_memory_reason():
    # a small limit: first-touching a whole GiB can take seconds on a busy VM, which would read as a timeout
    small = CodeVerifier(CodeVerifierConfig(memory_mb=128, sandbox=SandboxConfig(pool_size=1)))
    try:
        v = small.verify(fenced("def add(a, b):\n    x = b'a' * (4 << 30)\n    return a + b"), ADD)
    finally:
        small.close()
    assert v.reason == "memory" and v.score == 0, (v.reason, v.details)


def test_expected_exceptions_and_plain_values_round_trip(verifier):
    tests = CodeTests.from_asserts(
        [
            "assert pair() == (1, 2) and type(pair()) is tuple",
            "assert table() == {(1, 2): {3, 4}, 'k': [b'x', 2j, None, True]}",
            "assert math.isnan(nan()) and big() == 2**200 + 1",
            "try:\n    picky(-1)\n    assert False\nexcept ValueError:\n    pass",
        ],
        setup="import math",
    )
    program = fenced(
        """
        def pair(): return (1, 2)
        def table(): return {(1, 2): {3, 4}, 'k': [b'x', 2j, None, True]}
        def nan(): return float('nan')
        def big(): return 2**200 + 1
        def picky(x):
            if x < 0:
                raise ValueError(x)
        """
    )
    v = verifier.verify(program, tests)
    assert v.passed, v.details


def test_main_block_is_not_run_by_default(verifier):
    program = fenced(
        "def add(a, b):\n    return a + b\n\nif __name__ == '__main__':\n    print(add(int(input()), 1))"
    )
    assert verifier.verify(program, ADD).passed


def test_humaneval_prompt_helpers_are_available(verifier):
    problem = {
        "task_id": "toy/1",
        "prompt": 'def helper(x):\n    return x * 2\n\n\ndef double_all(xs):\n    """Double each."""\n',
        "test": "def check(candidate):\n    assert True\n    assert candidate([1]) == [2]\n    assert candidate([]) == []\n",
        "entry_point": "double_all",
    }
    tests = CodeTests.from_humaneval(problem)
    assert tests.num_tests == 2  # `assert True` does not call the candidate: setup, not a test
    assert verifier.verify("    return [helper(x) for x in xs]\n", tests).passed  # body continuing the prompt
    assert verifier.verify(fenced("def double_all(xs):\n    return [helper(x) for x in xs]"), tests).passed


# -- reward hacking must not pay ------------------------------------------------------------------------
HACKS = {
    "sys_exit_before_tests": "import sys\nsys.exit(0)\ndef add(a, b):\n    return 0",
    "os_exit_before_tests": "import os\nos._exit(0)",
    "os_exit_in_call": "import os\ndef add(a, b):\n    os._exit(0)",
    "sys_exit_in_call": "import sys\ndef add(a, b):\n    sys.exit(0)",
    "fake_success_marker": (
        "import sys, json\n"
        "for f in (sys.stdout, sys.stderr):\n"
        "    print('All tests passed! OK', file=f)\n"
        "    for i in range(3):\n"
        "        print(json.dumps({'type': 'test', 'index': i, 'status': 'passed'}), file=f)\n"
        "def add(a, b):\n    print(json.dumps({'type': 'done'}))\n    return None"
    ),
    "eq_always_true": (
        "class Anything:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
        "def add(a, b):\n    return Anything()"
    ),
    "int_subclass_eq": "class I(int):\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return I(7)",
    "str_subclass_eq": "class S(str):\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return S('x')",
    "patched_builtins": (
        "import builtins, math, operator\n"
        "builtins.AssertionError = type('Quiet', (Exception,), {})\n"
        "builtins.isinstance = lambda *a: True\n"
        "builtins.abs = lambda x: 0\n"
        "math.isclose = lambda *a, **k: True\n"
        "operator.eq = lambda a, b: True\n"
        "def add(a, b):\n    return -1"
    ),
    "forged_frames_and_reports": (
        "import os\n"
        "for fd in range(3, 64):\n"
        '    for data in (b\'{"type": "test", "index": 0, "status": "passed"}\\n\', b\'\\x00\\x00\\x00\\x04true\'):\n'
        "        try:\n            os.write(fd, data)\n        except OSError:\n            pass\n"
        "def add(a, b):\n    return None"
    ),
    "kill_everything": (
        "import os, signal\n"
        "for pid in range(1, 200):\n"
        "    if pid != os.getpid():\n"
        "        try:\n            os.kill(pid, signal.SIGKILL)\n        except OSError:\n            pass\n"
        "def add(a, b):\n    return 7"
    ),
    "rewrite_the_harness": (
        "import os, glob, sys\n"
        "paths = glob.glob('/sandbox/*') + glob.glob('/tmp/*') + glob.glob(sys.prefix + '/lib/python3*/*.py')\n"
        "for path in paths[:200] + ['/proc/3/mem', '/proc/1/mem']:\n"
        "    try:\n        open(path, 'a').write('\\nassert True\\n')\n    except OSError:\n        pass\n"
        "def add(a, b):\n    return 7"
    ),
}


# why each hack gets nothing: its answers arrive and are wrong (wrong_answer), or it stops answering or answers
# what cannot be checked (runtime_error); never `error` (a verifier failure) nor a timeout
HACK_REASONS = {
    "sys_exit_before_tests": "runtime_error",
    "os_exit_before_tests": "runtime_error",
    "os_exit_in_call": "runtime_error",
    "sys_exit_in_call": "runtime_error",
    "fake_success_marker": "wrong_answer",
    "eq_always_true": "runtime_error",  # the object cannot cross the wire: TypeError
    "int_subclass_eq": "wrong_answer",
    "str_subclass_eq": "wrong_answer",
    "patched_builtins": "runtime_error",  # it breaks its own answering side (isinstance is patched there)
    "forged_frames_and_reports": "runtime_error",  # a forged frame on the judge's pipe: a malformed reply
    "kill_everything": "wrong_answer",
    "rewrite_the_harness": "wrong_answer",
}


@pytest.mark.parametrize("name", sorted(HACKS))
def test_reward_hack_scores_zero(verifier, name):
    v = verifier.verify(fenced(HACKS[name]), ADD)
    assert v.score == 0.0 and not v.passed, (name, v)
    assert v.reason == HACK_REASONS[name], (name, v.reason, v.details["tests"])


def test_judge_survives_attacks_and_a_correct_program_still_passes(verifier):
    program = fenced(
        """
        import os, signal
        for pid in range(1, 200):
            if pid != os.getpid():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        def add(a, b):
            return a + b
        """
    )
    v = verifier.verify(program, ADD)
    assert v.passed, v.details


def test_program_never_sees_expected_outputs(verifier):
    """The expected value (a fresh random token) is nowhere the program can look: its memory and every other
    process's it can read, its frames and objects, files, environment and descriptors. The program looks for
    the assert itself in raw bytes (a repr() would escape them) and answers the token it finds there."""
    token = secrets.token_hex(12)
    tests = CodeTests.from_asserts([f"assert secret() == {token!r}"])
    program = fenced(
        """
        import gc, glob, os, re, sys
        ASSERT = re.compile(rb"secret\\(\\) == '([0-9a-f]{24})'")
        def blobs():
            for pid in ["self"] + [p for p in os.listdir("/proc") if p.isdigit()]:
                for name in ("cmdline", "environ"):
                    try:
                        yield open(f"/proc/{pid}/{name}", "rb").read()
                    except OSError:
                        pass
                try:
                    mem = open(f"/proc/{pid}/mem", "rb", buffering=0)
                    for line in open(f"/proc/{pid}/maps"):
                        span, perms = line.split()[:2]
                        if perms[0] == "r" and "[vvar" not in line:
                            lo, hi = (int(x, 16) for x in span.split("-"))
                            try:
                                mem.seek(lo)
                                yield mem.read(hi - lo)
                            except (OSError, ValueError, OverflowError):
                                pass
                except OSError:
                    pass
            for pattern in ("/sandbox/**", "/tmp/**", "/dev/shm/**", "/etc/**"):
                for path in glob.glob(pattern, recursive=True):
                    try:
                        yield open(path, "rb").read(1 << 22)
                    except OSError:
                        pass
            for fd in [0] + list(range(5, 1024)):
                try:
                    yield os.pread(fd, 1 << 22, 0)
                except OSError:
                    pass
            for obj in gc.get_objects():
                for ref in gc.get_referents(obj):
                    if isinstance(ref, (str, bytes)):
                        yield ref.encode("utf-8", "replace") if isinstance(ref, str) else ref
            frame = sys._getframe()
            while frame:
                for value in frame.f_locals.values():
                    if isinstance(value, (str, bytes)):
                        yield value.encode("utf-8", "replace") if isinstance(value, str) else value
                frame = frame.f_back
            yield "\\0".join(f"{k}={v}" for k, v in os.environ.items()).encode()
        def secret():
            for blob in blobs():
                found = ASSERT.search(blob)
                if found:
                    print("found")
                    return found.group(1).decode()
            print("not found")
            return "not found"
        """
    )
    v = verifier.verify(program, tests)
    assert v.score == 0.0 and v.reason == "wrong_answer", v
    test = v.details["tests"][0]
    assert test["status"] == "failed" and test["output"].startswith("not found"), test


def test_candidate_stop_iteration_does_not_end_the_tests_loops(verifier):
    """A StopIteration from the program must not read as "exhausted" in map/filter/any/all of the test code."""
    tests = CodeTests.from_asserts(
        [
            "assert all(map(is_even, [2, 4, 6]))",
            "assert not any(map(is_even, [1, 3, 5]))",
            "assert list(filter(is_even, [1, 3])) == []",
            "assert sum(1 for _ in filter(is_even, [1, 3, 5])) == 0",
        ],
        functions=["is_even"],  # as found from the asserts (older versions found only called names)
    )
    assert verifier.verify(fenced("def is_even(n):\n    return n % 2 == 0"), tests).passed
    for exc in ("StopIteration", "StopAsyncIteration"):
        v = verifier.verify(fenced(f"def is_even(n):\n    raise {exc}"), tests)
        assert v.score == 0.0 and v.reason == "runtime_error", (exc, v.details["tests"])
        assert {(t["status"], t["error_type"]) for t in v.details["tests"]} == {("error", exc)}


def test_only_the_functions_under_test_are_the_programs(verifier):
    """Builtins the asserts use are Python's, never the program's, even in an assert without a function under
    test (`pow` here): redefining `pow`, `abs` or `set` changes nothing. A builtin name is under test only when
    named in `functions`, and then the program must define it."""
    asserts = [
        "assert halve(3) == 1.5",
        "assert pow(2, 3) == 8",
        "assert abs(halve(1) - 0.5) < 1e-9",
        "assert set(pairs([1, 2])) == set([(1, 2)])",
    ]
    tests = CodeTests.from_asserts(asserts)
    assert tests.functions == (("halve", "halve"), ("pairs", "pairs"))
    right = "def halve(x):\n    return x / 2\ndef pairs(xs):\n    return [tuple(xs)]\n"
    assert verifier.verify(fenced(right), tests).passed
    assert verifier.verify(
        fenced(right + "def pow(a, b):\n    return a * b\n"), tests
    ).passed  # not under test
    hack = (
        "def halve(x):\n    return 0\ndef pairs(xs):\n    return []\nabs = lambda x: 0\nset = lambda *a: 1\n"
        "pow = lambda *a: 0\n"
    )
    v = verifier.verify(fenced(hack), tests)
    assert [t["status"] for t in v.details["tests"]] == ["failed", "passed", "failed", "failed"], v.details
    assert v.reason == "wrong_answer" and v.score == 0.25
    # named in `functions`: the program's, and only it
    tests = CodeTests.from_asserts(asserts, functions=["halve", "pairs", "pow"])
    assert verifier.verify(fenced(right + "def pow(a, b):\n    return a ** b\n"), tests).passed
    wrong_pow = verifier.verify(fenced(right + "def pow(a, b):\n    return a * b\n"), tests)
    assert wrong_pow.reason == "wrong_answer" and wrong_pow.score == 0.75, wrong_pow.details["tests"]
    assert [t["status"] for t in wrong_pow.details["tests"]] == ["passed", "failed", "passed", "passed"]
    no_pow = verifier.verify(fenced(right), tests)  # Python's pow never stands in for the program's
    assert no_pow.reason == "runtime_error" and no_pow.score == 0.75
    assert (
        no_pow.details["tests"][1]["status"] == "error"
        and no_pow.details["tests"][1]["error_type"] == "NameError"
    )
    v = verifier.verify(fenced(hack), tests)
    assert [t["status"] for t in v.details["tests"]] == ["failed", "failed", "failed", "failed"], v.details
    assert v.reason == "wrong_answer" and v.score == 0.0


ROUND = [  # a task whose function is named like a builtin: "round half away from zero"
    "assert all([round(2.5) == 3, round(-2.5) == -3, round(0.5) == 1])",
    "assert abs(round(1.5) - 2) < 1e-9",
    "assert abs(round(-3.5) + 4) < 1e-9",
]
RIGHT_ROUND = "import math\ndef round(x):\n    return int(math.copysign(math.floor(abs(x) + 0.5), x))\n"


def test_function_named_like_a_builtin_does_not_hand_the_program_the_other_builtins(verifier):
    """Red team a1b: with `round` under test, `all` and `abs` in its asserts were the program's too, and
    `def round(x): return 0; def all(it): return True; def abs(x): return 0` scored 1.0. Now the function
    under test is the one name every assert uses, and only it is the program's."""
    tests = CodeTests.from_asserts(ROUND)
    assert tests.functions == (("round", "round"),)
    assert verifier.verify(fenced(RIGHT_ROUND), tests).passed
    hack = "def round(x):\n    return 0\ndef all(it):\n    return True\ndef abs(x):\n    return 0\n"
    v = verifier.verify(fenced(hack), tests)
    assert v.score == 0.0 and v.reason == "wrong_answer", v.details["tests"]
    assert [t["status"] for t in v.details["tests"]] == ["failed"] * 3
    empty = verifier.verify(fenced("x = 1"), tests)  # Python's round does not answer for the program
    assert empty.score == 0.0 and empty.reason == "runtime_error"
    assert {(t["status"], t["error_type"]) for t in empty.details["tests"]} == {("error", "NameError")}


def test_builtins_named_in_asserts_with_a_function_under_test_stay_pythons(verifier):
    """Red team a1d: a builtin that some assert called alone (`bool`, `len`) was a proxy in the judge's global
    namespace, so it was the program's also where it is only passed (`map(bool, ...)`, `key=len`)."""
    tests = CodeTests.from_asserts(
        [
            "assert all(map(bool, evens([1, 2, 3, 4])))",
            "assert max(evens([5, 6, 8, 10]), key=len) == '10'",
            "assert bool(1) and len('ab') == 2",
        ]
    )
    assert tests.functions == (("evens", "evens"),)
    assert verifier.verify(
        fenced("def evens(xs):\n    return [str(x) for x in xs if x % 2 == 0]"), tests
    ).passed
    hack = (
        "import builtins\ndef evens(xs):\n    return [0, '10']\ndef bool(x):\n    return True\n"
        "def len(x):\n    return builtins.len(x) if isinstance(x, str) else 0\n"
    )
    v = verifier.verify(fenced(hack), tests)
    assert v.score == pytest.approx(1 / 3) and v.reason == "wrong_answer", v.details["tests"]
    assert [t["status"] for t in v.details["tests"]] == ["failed", "failed", "passed"]


def test_builtin_only_asserts_that_do_not_say_which_is_tested_need_functions(verifier):
    """Where no single builtin name is used by every assert, loading fails and names the fix (never a guess);
    with `functions=` the rest stay Python's, so `all(<generator>)` works for a correct program (it used to go to
    a program-controlled `all` and fail on the wire)."""
    generator = ["assert all(round(x) == y for x, y in [(2.5, 3), (-2.5, -3)])"]
    for asserts in (
        generator,
        ["assert abs(round(1.5) - 2) < 1e-9"],
        ["assert pow(2, 3) == 8", "assert sum([1]) == 1"],
    ):
        with pytest.raises(DataError, match=r"functions=\['name'"):
            CodeTests.from_asserts(asserts)
    tests = CodeTests.from_asserts(generator, functions=["round"])
    v = verifier.verify(fenced(RIGHT_ROUND), tests)
    assert v.passed and v.reason == "passed", v.details["tests"]
    v = verifier.verify(fenced("def round(x):\n    return 0\ndef all(it):\n    return True"), tests)
    assert v.score == 0.0 and v.reason == "wrong_answer"


def test_standard_module_in_asserts_is_imported_by_the_judge(verifier):
    """`math.isclose(...)` without `import math` in setup: `math` is not a function under test (it used to be,
    and a correct program failed); the judge imports it."""
    tests = CodeTests.from_asserts(["assert math.isclose(area(1), 3.14159, rel_tol=1e-3)"])
    assert tests.functions == (("area", "area"),) and tests.setup == ("import math",) and tests.prefix == ""
    v = verifier.verify(fenced("import math\ndef area(r):\n    return math.pi * r * r"), tests)
    assert v.passed and v.reason == "passed", v.details["tests"]
    v = verifier.verify(fenced("def area(r):\n    return 3"), tests)
    assert v.score == 0.0 and v.reason == "wrong_answer"


@pytest.mark.parametrize("mode", ["asserts", "humaneval", "io"])
def test_lone_surrogate_is_a_verdict_not_an_exception(verifier, mode):
    """Red team c3: a completion with a lone surrogate (no UTF-8 file can hold it) raised UnicodeEncodeError
    from verify(); it is a syntax_error verdict in every mode."""
    tests = {
        "asserts": ADD,
        "humaneval": CodeTests.from_humaneval(
            {
                "prompt": 'def add(a, b):\n    """Add."""\n',
                "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n",
                "entry_point": "add",
            }
        ),
        "io": CodeTests.from_io([("1 2\n", "3\n")]),
    }[mode]
    program = (
        "a, b = map(int, input().split())\nprint(a + b)"
        if mode == "io"
        else "def add(a, b):\n    return a + b"
    )
    v = verifier.verify(fenced(program + "  # \ud800"), tests)
    assert v.score == 0.0 and v.reason == "syntax_error", v
    assert "UnicodeEncodeError" in v.details["error"] and "\\ud800" in v.details["error"]


# -- IO mode ---------------------------------------------------------------------------------------------
SUM_IO = CodeTests.from_io([("1 2\n", "3\n"), ("10 20\n", "30"), {"input": "5 5", "output": " 10 \n\n"}])


def test_io_mode_whitespace_tolerant(verifier):
    program = fenced("a, b = map(int, input().split())\nprint(a + b)")
    v = verifier.verify(program, SUM_IO)
    assert v.passed and v.score == 1.0


def test_io_mode_partial_credit_and_reasons(verifier):
    wrong = fenced("a, b = map(int, input().split())\nprint(a + b if a < 5 else 0)")
    v = verifier.verify(wrong, SUM_IO)
    assert v.score == pytest.approx(1 / 3) and v.reason == "wrong_answer"
    crash = fenced("a, b = map(int, input().split())\nprint(a + b if a < 5 else 1 / 0)")
    v = verifier.verify(crash, SUM_IO)
    assert v.reason == "runtime_error" and v.details["tests"][1]["error_type"] == "ZeroDivisionError"
    assert verifier.verify(fenced("while True: pass"), SUM_IO).reason == "timeout"
    assert verifier.verify(fenced("print(1"), SUM_IO).reason == "syntax_error"


def test_io_float_tolerance():
    v = CodeVerifier(CodeVerifierConfig(float_tolerance=1e-6))
    assert v.outputs_match("0.3333333\n", "0.33333333") and not v.outputs_match("0.3", "0.4")
    assert not CodeVerifier().outputs_match("0.3333333", "0.33333333")
    assert CodeVerifier().outputs_match("1  2\n3\n", "1 2 3")


# -- specs and registry ----------------------------------------------------------------------------------
def test_spec_errors_name_the_fix():
    with pytest.raises(DataError, match="functions="):
        CodeTests.from_asserts(["assert [1] == [1]"])
    with pytest.raises(DataError, match="not valid Python"):
        CodeTests.from_asserts(["assert f(1 == 2"])
    with pytest.raises(DataError, match="no tests"):
        CodeTests.from_io([])
    with pytest.raises(DataError, match="check"):
        CodeTests.from_humaneval({"prompt": "def f():\n    pass\n", "test": "x = 1\n", "entry_point": "f"})
    with pytest.raises(DataError, match="cannot grade"):
        CodeTests.coerce(42)


def test_functions_found_from_asserts():
    t = CodeTests.from_asserts(
        ["assert set(similar((3, 4), (4, 5))) == set((4,))"], setup="def helper(): pass"
    )
    assert t.functions == (("similar", "similar"),)
    t = CodeTests.from_asserts(["assert all(map(is_even, [2])) and [x for x in [1] if x] == [1]"])
    assert t.functions == (("is_even", "is_even"),)
    t = CodeTests.from_asserts(["assert pow(2, 3) == 8", "assert max(top(1), 2) == 2"])
    assert t.functions == (("top", "top"),)  # builtins are never the program's unless named in functions=
    t = CodeTests.from_asserts(["assert sorted(max([3, 1])) == [3]", "assert max([0]) == 0"])
    assert t.functions == (("max", "max"),)  # only builtins: the one every assert uses
    t = CodeTests.from_asserts(["assert sorted(max([3, 1])) == [3]"], functions=["max"])
    assert t.functions == (("max", "max"),)
    t = CodeTests.from_asserts(["assert math.sqrt(root(4)) == 2"], setup="import math")
    assert t.functions == (("root", "root"),) and t.setup == ("import math",)
    t = CodeTests.from_asserts(["assert math(2) == 4"])  # called: a function under test named like a module
    assert t.functions == (("math", "math"),) and t.setup == ()


def test_registered_as_code():
    assert "code" in VERIFIERS
    v = make_verifier("code", timeout_s=3.0)
    assert isinstance(v, CodeVerifier) and v.config.timeout_s == 3.0


def test_verify_batch_keeps_order(verifier):
    completions = [fenced(f"def add(a, b):\n    return a + b + {k}") for k in (0, 1, 0, 2)]
    verdicts = verifier.verify_batch([(c, ADD) for c in completions])
    assert [v.passed for v in verdicts] == [True, False, True, False]


def test_wire_round_trip_and_rejects_forgeries():
    from rlvr.verifiers.code import wire

    value = [
        None,
        True,
        0,
        -(2**300),
        1.5,
        math.inf,
        "é",
        b"\x00",
        3j,
        (1, (2,)),
        {1, 2},
        frozenset({3}),
        {"a": {(1,): 2}},
    ]
    back = wire.decode(wire.encode(value))
    assert back == value and type(back[9]) is tuple and type(back[11]) is frozenset
    assert math.isnan(wire.decode(wire.encode(math.nan)))
    for forged in (
        b"1.5",
        b'{"x": 1}',
        b'{"t": 5}',
        b'{"d": [[[1], 2]]}',
        b"[" * 100 + b"]" * 100,
        b"NaN",
        b'{"i": "12g"}',
    ):
        with pytest.raises(wire.WireError):
            wire.decode(forged)

    class Sneaky(int):
        def __eq__(self, other):
            return True

    assert type(wire.decode(wire.encode(Sneaky(3)))) is int
    with pytest.raises(wire.WireError):
        wire.encode(object())


def test_verifier_pickles_as_config():
    import pickle

    v = pickle.loads(pickle.dumps(CodeVerifier(CodeVerifierConfig(timeout_s=4.0))))
    try:
        assert v.config.timeout_s == 4.0
        assert v.verify(RIGHT_ADD, ADD).passed
    finally:
        v.close()
