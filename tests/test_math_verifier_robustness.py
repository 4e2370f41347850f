"""No input hangs or crashes the math verifier: pathological answers, huge values, deterministic fuzzing."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

from rlvr.verifiers import MathVerifier

ALLOWED = {"correct", "wrong", "no_answer", "timeout", "unparsable_gold"}

PATHOLOGICAL = [
    # redundant grouping is collapsed before parsing: ((((1)))) is 1, however deep (rlvr#13)
    ("\\boxed{" + "(" * 4900 + "1" + ")" * 4900 + "}", "1", {"correct"}),
    ("\\boxed{" + "(" * 6000 + "1" + ")" * 6000 + "}", "1", {"wrong"}),  # longer than max_answer_chars
    ("\\boxed{" + "9" * 5000 + "}", "10^{5000}-1", {"correct"}),  # past int()'s 4300-digit limit
    ("\\boxed{" + "9" * 5000 + "}", "10^{5000}", {"wrong"}),
    ("\\boxed{0." + "3" * 5000 + "}", "\\frac{1}{3}", {"wrong"}),
    ("\\boxed{" + "(" * 200 + "1" + ")" * 200 + "}", "1", {"correct"}),
    (
        "\\boxed{" + "(1+" * 3000 + "1" + ")" * 3000 + "}",
        "3001",
        {"wrong"},
    ),  # too deep to parse: never a crash
    (
        "x" * 1_000_000 + "\\boxed{5}",
        "5",
        {"correct", "timeout"},
    ),  # 0.6 s idle: under load the deadline may end it
    ("\\boxed{" + "\\boxed{" * 500 + "7" + "}" * 500 + "}", "7", {"wrong"}),
    ("\\boxed{10^{10^{10^{10}}}}", "5", {"timeout"}),
    ("\\boxed{(10^{100})!}", "1", {"timeout"}),
    ("\\boxed{\\sin(10^{100})}", "0", {"timeout"}),
    ("\\boxed{e^{10^{20}}}", "1", {"timeout"}),
    ("\\boxed{2^{2^{2^{2^{2^{2^{2}}}}}}}", "2^{2^{2^{2^{2^{2^{2}}}}}}", {"correct"}),
    ("\\boxed{x^{10^{9}}}", "x^{1000000000}", {"correct"}),
    ("\\boxed{(x+1)^{100000}}", "(1+x)^{100000}", {"correct"}),
    ("\\boxed{(x+1)^{1000}}", "(1+x)^{1000}+1", {"wrong"}),
    ("\\boxed{\\frac{1}{0}}", "1", {"wrong"}),
    ("\\boxed{0/0}", "0", {"wrong"}),
    ("\\boxed{\\infty - \\infty}", "0", {"wrong"}),
    ("\x00\x01\\boxed{\ufffd}", "1", {"wrong"}),
    (
        "\\boxed{" + ", ".join(map(str, range(300, 0, -1))) + "}",
        ", ".join(map(str, range(1, 301))),
        {"correct"},
    ),
    ("\\boxed{\\begin{pmatrix}" + "\\\\".join(["1 & 2"] * 200) + "\\end{pmatrix}}", "1", {"wrong"}),
]


@pytest.fixture(scope="module")
def verifier() -> MathVerifier:
    return MathVerifier(timeout_s=2.0)


@pytest.mark.parametrize(
    "completion, gold, reasons", PATHOLOGICAL, ids=[repr(c[:30]) for c, _, _ in PATHOLOGICAL]
)
def test_pathological_inputs(verifier: MathVerifier, completion: str, gold: str, reasons: set[str]) -> None:
    verdict = verifier.verify(completion, gold)
    assert verdict.reason in reasons, dict(verdict.details)


_ATOMS = [
    r"\frac{", "}{", "}", "{", "(", ")", "[", "]", r"\sqrt", "^", "_", "x", "y", "2", "0", "1.5", "-", "+", "*",
    "/", "=", "<", r"\le", ",", r"\pi", "e", "i", r"\infty", "!", r"\binom{", r"\sin", r"\log_", "|", r"\pm",
    r"\cup", r"\text{ and }", r"\{", r"\}", "%", r"^\circ", r"\begin{pmatrix}", "&", r"\\", r"\end{pmatrix}",
    "10^{10^{", "9999999999", r"\ldots", ":", " ", r"\left(", r"\right)", r"\boxed{",
]  # fmt: skip


def _garbage(rng: random.Random) -> str:
    return "".join(rng.choice(_ATOMS) for _ in range(rng.randint(1, 14)))


def test_fuzzing_never_errors_or_hangs(verifier: MathVerifier) -> None:
    rng = random.Random(1234)
    pairs = [(rf"\boxed{{{_garbage(rng)}}}", _garbage(rng)) for _ in range(400)]
    verdicts = verifier.verify_batch(pairs)
    bad = [(p, v) for p, v in zip(pairs, verdicts) if v.reason not in ALLOWED]
    assert not bad, bad[:5]
    assert any(v.reason == "correct" for v in verdicts) or any(v.reason == "wrong" for v in verdicts)
    # deterministic: a second run agrees
    assert [v.reason for v in verifier.verify_batch(pairs[:50])] == [v.reason for v in verdicts[:50]]


def test_works_from_a_script_without_main_guard(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Workers must not re-run the caller's unguarded script (or fail on `python - < script.py`)."""
    script = tmp_path / "grade.py"
    script.write_text(
        textwrap.dedent(
            r"""
            from rlvr.verifiers import MathVerifier
            print("RUN")
            print(MathVerifier(num_workers=1).verify(r"\boxed{\sqrt{8}}", r"2\sqrt{2}").reason)
            """
        )
    )
    for args, stdin in (([str(script)], None), (["-"], script.read_text())):
        out = subprocess.run(
            [sys.executable, *args], input=stdin, capture_output=True, text=True, timeout=120, check=True
        ).stdout.split()
        assert out == ["RUN", "correct"], out


@pytest.mark.parametrize(
    "completion, gold, reasons",
    [
        ("\\boxed{" * 6000, "5", {"no_answer"}),  # was quadratic in the number of boxes
        ("\\boxed{1e9999999}", "5", {"wrong", "timeout"}),  # was Fraction(10) ** 9999999
        ("\\boxed{5}", "1e9999999", {"wrong", "timeout"}),
        ("\\boxed{2e-99999}", "0", {"wrong", "timeout"}),
    ],
)
def test_issue_13_hangs_answer_in_the_fast_stage(completion: str, gold: str, reasons: set[str]) -> None:
    verdict = MathVerifier(in_process=True).verify(completion, gold)
    assert verdict.reason in reasons, dict(verdict.details)


@pytest.mark.parametrize("depth", [30, 60])
def test_deeply_nested_correct_answers_stay_correct(depth: int) -> None:
    verifier = MathVerifier(in_process=True)
    assert verifier.verify("\\boxed{" + "{" * 10 * depth + "5" + "}" * 10 * depth + "}", "5").passed
    assert verifier.verify("\\boxed{" + "(" * 10 * depth + "5" + ")" * 10 * depth + "}", "5").passed
    assert verifier.verify("\\boxed{" + "(1+" * depth + "1" + ")" * depth + "}", str(depth + 1)).passed
    assert verifier.verify("\\boxed{" + "\\frac{1}{" * depth + "1" + "}" * depth + "}", "1").passed
    assert verifier.verify("\\boxed{" + "\\sqrt{" * depth + "1" + "}" * depth + "}", "1").passed


@pytest.mark.parametrize("depth", [150, 300])
def test_a_300_deep_fraction_stays_correct_and_the_recursion_limit_is_restored(depth: int) -> None:
    # the parser and evaluators recurse per level: a verification runs with `deadline.RECURSION_ROOM` frames and
    # gives the interpreter's limit back after it
    import sys
    from fractions import Fraction

    limit = sys.getrecursionlimit()
    verifier = MathVerifier(in_process=True)
    nested = "\\frac{1}{" * depth + "2" + "}" * depth
    assert verifier.verify("$\\boxed{" + nested + "}$", "2" if depth % 2 == 0 else "\\frac{1}{2}").passed
    assert not verifier.verify("$\\boxed{" + nested + "}$", "1").passed
    continued, value = "1", Fraction(1)
    for _ in range(depth):
        continued, value = "1+\\frac{1}{" + continued + "}", 1 + 1 / value
    gold = f"\\frac{{{value.numerator}}}{{{value.denominator}}}"
    assert verifier.verify("$\\boxed{" + continued + "}$", gold).passed
    assert sys.getrecursionlimit() == limit


def test_the_fast_stage_has_a_deadline() -> None:
    """Past `fast_timeout_s` the in-process stage stops at its next check and answers `timeout`."""
    verifier = MathVerifier(in_process=True, fast_timeout_s=1e-9)
    verdict = verifier.verify(r"\boxed{" + "+".join(["\\frac{1}{3}"] * 50) + "}", "\\frac{50}{3}")
    assert verdict.reason == "timeout" and "deadline" in verdict.details["error"]
    assert (
        MathVerifier(in_process=True)
        .verify(r"\boxed{" + "+".join(["\\frac{1}{3}"] * 50) + "}", "\\frac{50}{3}")
        .passed
    )


def test_each_verifier_owns_its_sympy_workers() -> None:
    """No module-level pool: a verifier starts its own helper workers and `close()` stops them."""
    import rlvr.verifiers.math.verifier as module

    assert not any(name.startswith("_SHARED") for name in vars(module))
    a, b = MathVerifier(num_workers=1), MathVerifier(num_workers=1)
    assert a.verify(r"\boxed{\sin^2 x + \cos^2 x}", "1").passed
    assert a._helper is not None and b._helper is None
    a.close()
    assert a._helper is None
