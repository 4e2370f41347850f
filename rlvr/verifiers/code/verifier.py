"""`CodeVerifier`: runs a completion's program in the sandbox against `CodeTests` and returns a `Verdict`."""

from __future__ import annotations

import json
import marshal
import math
import re
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.base import Verifier, verifier
from rlvr.verifiers.code.extract import extract_program
from rlvr.verifiers.code.spec import IO, CodeTests
from rlvr.verifiers.sandbox import ExecResult, Judge, Sandbox, SandboxConfig

HERE = Path(__file__).parent
STATUS_REASON = {
    "failed": Reason.WRONG_ANSWER,
    "error": Reason.RUNTIME_ERROR,
    "no_answer": Reason.RUNTIME_ERROR,
}


@cache
def _sources() -> tuple[str, str]:
    """(judge source, program-server source), each with the wire codec in front."""
    wire = (HERE / "wire.py").read_text()
    return wire + "\n" + (HERE / "judge.py").read_text(), wire + "\n" + (HERE / "server.py").read_text()


@cache
def _program_files(version: tuple[int, int] | None, module: str) -> tuple[str, dict[str, bytes]]:
    """The judged program's main script and support files: the server precompiled when the sandbox runs
    this interpreter's version (compiling it in every run would cost more than the rest of a small run)."""
    header = f"SOLUTION_PATH = 'solution.py'\nMODULE_NAME = {module!r}\n"
    server = _sources()[1]
    if version == sys.version_info[:2]:
        blob = marshal.dumps(compile(server, "rlvr_server.py", "exec"))
        return header + "import marshal\nexec(marshal.loads(open('.rlvr_server', 'rb').read()))\n", {
            ".rlvr_server": blob
        }
    return header + server, {}


@dataclass(frozen=True)
class CodeVerifierConfig:
    """How completions are run and graded."""

    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    """The sandbox the programs run in (limits, pool size, backend)."""
    timeout_s: float = 10.0
    """Wall-clock limit of one functional run (all its tests together) or of one IO test."""
    memory_mb: int | None = None
    """Memory limit per run; None: the sandbox's."""
    max_detail_chars: int = 500
    """Characters of messages and outputs kept per test in `Verdict.details`."""
    run_main_block: bool = False
    """Functional mode: run the program as `__main__` (its `if __name__ == "__main__":` demo code runs too)."""
    float_tolerance: float = 0.0
    """IO mode: numeric tokens this close (absolute or relative) count as equal; 0: exact tokens."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.timeout_s) and self.timeout_s > 0):
            raise ConfigError(f"CodeVerifierConfig.timeout_s={self.timeout_s!r}: must be a positive number")
        if self.float_tolerance < 0:
            raise ConfigError("CodeVerifierConfig.float_tolerance must be >= 0")


@verifier("code")
class CodeVerifier(Verifier):
    """Grades code: `score` = fraction of tests passed, `passed` = all passed; never trusts the program's
    exit code or output for functional tests (a judge process decides, see `rlvr.verifiers.code`)."""

    enforces_deadline = True  # every program runs in the sandbox under hard time limits

    def __init__(
        self, config: CodeVerifierConfig | None = None, *, sandbox: Sandbox | None = None, **overrides: Any
    ) -> None:
        config = config or CodeVerifierConfig()
        if overrides:
            import dataclasses

            config = dataclasses.replace(config, **overrides)
        self.config = config
        self._sandbox = sandbox
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        # pickles (e.g. into VerifierPool workers or Ray actors) as config; the sandbox restarts there
        return {"config": self.config, "sandbox": self._sandbox}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"], sandbox=state["sandbox"])  # type: ignore[misc]

    @property
    def sandbox(self) -> Sandbox:
        """The sandbox runs go to (created on first use; pass one in to share its pool)."""
        with self._lock:
            if self._sandbox is None:
                self._sandbox = Sandbox(self.config.sandbox)
            return self._sandbox

    def close(self) -> None:
        """Release the sandbox this verifier created."""
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None

    def validate_reference(self, reference: Any) -> None:
        """Raise `DataError` if `reference` is not a usable test specification."""
        CodeTests.coerce(reference)

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Extract the program from `completion`, run it against the tests, grade."""
        tests = CodeTests.coerce(reference)
        program = extract_program(completion)
        if not program.strip():
            return Verdict.fail(Reason.NO_CODE, tests=[], num_tests=tests.num_tests)
        try:
            program.encode("utf-8")
        except (
            UnicodeEncodeError
        ) as exc:  # a lone surrogate: no source file holds it, no interpreter compiles it
            error = f"UnicodeEncodeError: {exc.reason} (character {exc.start}: {exc.object[exc.start : exc.end]!a})"
            return Verdict.fail(
                Reason.SYNTAX_ERROR, error=error, error_type="UnicodeEncodeError", tests=[],
                num_tests=tests.num_tests,
            )  # fmt: skip
        if tests.mode == IO:
            return self._verify_io(program, tests)
        return self._verify_functions(program, tests)

    def verify_batch(self, pairs: Iterable[tuple[str, Any]]) -> list[Verdict]:
        """Grade many completions in parallel, up to the sandbox's pool size at once."""
        pairs = list(pairs)
        workers = max(1, min(len(pairs), self.sandbox.config.pool_size))
        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(lambda p: self.verify(*p), pairs))

    # -- functional tests (HumanEval, asserts) ---------------------------------------------------------
    def compose(self, program: str, tests: CodeTests) -> str:
        """The program that runs: the trusted prefix, then the completion's code (or its continuation)."""
        if not tests.prefix:
            return program
        entry = tests.entry_point
        if entry is None or re.search(rf"^(async\s+)?def\s+{re.escape(entry)}\s*\(", program, re.MULTILINE):
            return tests.prefix.rstrip("\n") + "\n\n" + program
        return tests.prefix + program  # a body continuing the prompt's signature (HumanEval's raw format)

    def _verify_functions(self, program: str, tests: CodeTests) -> Verdict:
        cfg = self.config
        full = self.compose(program, tests)
        judge_source = _sources()[0]
        module = "__main__" if cfg.run_main_block else "solution"
        main, support = _program_files(self.sandbox.python_version, module)
        spec = {"program": full, "setup": list(tests.setup), "steps": [list(s) for s in tests.steps],
                "functions": [list(f) for f in tests.functions],
                "max_chars": cfg.max_detail_chars}  # fmt: skip
        result = self.sandbox.run(
            main,
            files={"solution.py": full, **support},
            timeout_s=cfg.timeout_s,
            memory_mb=cfg.memory_mb,
            judge=Judge(judge_source, marshal.dumps(spec)),
        )
        return self._grade_functions(tests, result)

    def _grade_functions(self, tests: CodeTests, result: ExecResult) -> Verdict:
        cfg = self.config
        events = []
        for line in result.judge_output.decode("utf-8", errors="replace").splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
        by_index = {e["index"]: e for e in events if e.get("type") == "test"}
        execution = result.summary(cfg.max_detail_chars)
        for kind in ("syntax_error", "harness_error"):
            event = next((e for e in events if e.get("type") == kind), None)
            if event is not None:  # the program never ran its tests: one message says why
                reason = Reason.SYNTAX_ERROR if kind == "syntax_error" else Reason.ERROR
                error = (
                    f"{event.get('error_type', 'Error')}: {event.get('message', '')}"
                    if kind == "syntax_error"
                    else str(event.get("error"))
                )
                return Verdict.fail(
                    reason, error=error, error_type=event.get("error_type"), tests=[], num_tests=tests.num_tests,
                    exec=execution,
                )  # fmt: skip
        labels = [label for kind, _, label in tests.steps if kind == "test"]
        missing = "timeout" if result.timed_out else "memory" if result.memory_exceeded else "not_run"
        details: list[dict[str, Any]] = []  # decoded JSON events from the judge
        for i, label in enumerate(labels):
            e = by_index.get(i)
            if e is None:
                details.append(
                    {"name": label, "status": missing, "error_type": None, "message": "", "output": ""}
                )
            else:
                details.append(
                    {k: e.get(k) for k in ("name", "status", "error_type", "message", "output", "seconds")}
                )
        passed = sum(d["status"] == "passed" for d in details)
        score = passed / len(details)
        if passed == len(details):
            return Verdict(
                1.0, True, Reason.PASSED, {"tests": details, "num_tests": len(details), "exec": execution}
            )
        if result.timed_out:
            reason = Reason.TIMEOUT
        elif result.memory_exceeded:
            reason = Reason.MEMORY
        else:
            first = next(d for d in details if d["status"] != "passed")
            reason = STATUS_REASON.get(first["status"], Reason.ERROR)
        info = {"tests": details, "num_tests": len(details), "exec": execution}
        if result.stderr.strip():  # e.g. the traceback of a crash before the tests (feedback for a retry)
            info["stderr"] = result.stderr[-cfg.max_detail_chars :]
        setup_failures = [e for e in events if e.get("type") == "setup_step"]
        if setup_failures:
            info["setup_failures"] = setup_failures
        return Verdict(score, False, reason, info)

    # -- stdin/stdout tests ----------------------------------------------------------------------------
    def _verify_io(self, program: str, tests: CodeTests) -> Verdict:
        cfg = self.config

        def one(pair: tuple[str, str]) -> tuple[dict[str, Any], ExecResult]:
            stdin, expected = pair
            r = self.sandbox.run(program, stdin=stdin, timeout_s=cfg.timeout_s, memory_mb=cfg.memory_mb)
            error_type = None
            if r.timed_out:
                status = "timeout"
            elif r.memory_exceeded:
                status = "memory"
            elif r.exit_code != 0:
                status, error_type = "error", _last_error_type(r.stderr)
            else:
                status = "passed" if self.outputs_match(r.stdout, expected) else "failed"
            d = {"name": _io_label(stdin), "status": status, "error_type": error_type,
                 "output": r.stdout[: cfg.max_detail_chars], "stderr": r.stderr[-cfg.max_detail_chars :],
                 "seconds": round(r.wall_s, 4)}  # fmt: skip
            return d, r

        workers = max(1, min(len(tests.io_pairs), self.sandbox.config.pool_size))
        with ThreadPoolExecutor(workers) as pool:
            runs = list(pool.map(one, tests.io_pairs))
        details = [d for d, _ in runs]
        passed = sum(d["status"] == "passed" for d in details)
        info = {"tests": details, "num_tests": len(details), "exec": runs[0][1].summary(cfg.max_detail_chars)}
        if passed == len(details):
            return Verdict(1.0, True, Reason.PASSED, info)
        first = next(d for d in details if d["status"] != "passed")
        reason = {
            "timeout": Reason.TIMEOUT,
            "memory": Reason.MEMORY,
            "failed": Reason.WRONG_ANSWER,
            "error": Reason.SYNTAX_ERROR if first["error_type"] == "SyntaxError" else Reason.RUNTIME_ERROR,
        }[first["status"]]
        return Verdict(passed / len(details), False, reason, info)

    def outputs_match(self, got: str, expected: str) -> bool:
        """Whitespace-tolerant comparison: the same tokens (numbers within `float_tolerance`)."""
        a, b = got.split(), expected.split()
        if a == b:
            return True
        tol = self.config.float_tolerance
        if tol <= 0 or len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x == y:
                continue
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                return False
            if not math.isclose(fx, fy, rel_tol=tol, abs_tol=tol):
                return False
        return True


def _last_error_type(stderr: str) -> str | None:
    """The exception name on the traceback's last line (advisory: the program controls its stderr)."""
    for line in reversed(stderr.strip().splitlines()):
        m = re.match(r"^([A-Za-z_][\w.]*)(:|$)", line)
        if m:
            return m.group(1).rsplit(".", 1)[-1]
    return None


def _io_label(stdin: str) -> str:
    text = " ".join(stdin.split())
    return "stdin: " + (text if len(text) <= 60 else text[:57] + "...")
