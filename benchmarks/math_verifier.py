"""Math verification accuracy and speed: rlvr's MathVerifier vs Math-Verify, same cases, same run.

Cases: the labelled regression table `tests/data/math/cases.yaml` (gold, completion, expected verdict,
category), one verification per case per pass. A case counts as accurate when the verifier's pass/fail
equals the label (label "correct" -> pass; wrong / no_answer / timeout / unparsable_gold -> fail).

Verifiers (each measured in this one process, one core, one case at a time):
- rlvr in-process: `MathVerifier(in_process=True)`, the whole pipeline (sympy stage included) in the
  measuring process; what a pool worker runs. Pure per-core compute.
- rlvr default: `MathVerifier(num_workers=1)`: fast stage in this process, sympy stage in one killable
  worker process with the hard deadline (`timeout_s=5`); includes the IPC cost. At most one of the two
  processes computes at a time, so this is still one core's worth of work.
- Math-Verify: `verify(parse(gold), parse(completion))` with the gold wrapped in `\\boxed{}` unless it already
  has a box or `####` (what verl does), default extraction configs, and its own timeouts left at their
  defaults: `parse(parsing_timeout=5)` and `verify(timeout_seconds=5)`, which use `signal.alarm` (this runs
  on the main thread, where that works). An exception counts as "not passed".

Fairness: both see identical strings; every pass builds a fresh rlvr verifier (empty gold cache) and
Math-Verify parses the gold on every call, so no side reuses work across cases; one untimed warm-up pass
per verifier pays import and worker start-up costs. Throughput = cases / wall seconds of a pass
(verifications per second on one core), also shown without the `huge` category, whose pathological inputs
(Math-Verify's 5 s timeouts) dominate the total; latency percentiles are over all timed calls.

    python benchmarks/math_verifier.py               # 3 timed passes
    python benchmarks/math_verifier.py --passes 5 --show-errors
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import yaml
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.verifiers import MathVerifier  # noqa: E402

CASES = ROOT / "tests" / "data" / "math" / "cases.yaml"


def load_cases() -> list[dict]:
    """The labelled case list shared with the regression test."""
    return yaml.safe_load(CASES.read_text())["cases"]


def rlvr_runner(**config: object) -> Callable[[], Callable[[str, str], bool]]:
    """A factory of fresh rlvr checkers (one per pass, so the gold cache starts empty)."""

    def make() -> Callable[[str, str], bool]:
        verifier = MathVerifier(**config)  # type: ignore[arg-type]
        return lambda completion, gold: verifier.verify(completion, gold).passed

    return make


def math_verify_runner() -> Callable[[], Callable[[str, str], bool]]:
    """Math-Verify as verl/TRL call it: parse both sides, then verify (its own default timeouts)."""
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)

    def check(completion: str, gold: str) -> bool:
        gold_text = gold if ("\\boxed" in gold or "####" in gold) else "\\boxed{" + gold + "}"
        try:
            return bool(verify(parse(gold_text), parse(completion)))
        except Exception:
            return False

    return lambda: check


def run(name: str, factory: Callable[[], Callable[[str, str], bool]], cases: list[dict], passes: int) -> dict:
    """Warm up once, then time `passes` passes; return accuracy, per-category accuracy, speed, latencies."""
    check = factory()
    for case in cases:  # warm-up: imports, worker start, sympy import
        check(case["pred"], case["gold"])
    latencies: list[float] = []
    pass_rates: list[float] = []
    tame_time = 0.0  # seconds spent on cases outside the `huge` category (timeouts dominate there)
    verdicts: list[bool] = []
    for p in tqdm(range(passes), desc=name, unit="pass", leave=False):
        check = factory()
        start = time.perf_counter()
        for case in cases:
            t0 = time.perf_counter()
            ok = check(case["pred"], case["gold"])
            latencies.append(time.perf_counter() - t0)
            if case["cat"] != "huge":
                tame_time += latencies[-1]
            if p == 0:
                verdicts.append(ok)
        pass_rates.append(len(cases) / (time.perf_counter() - start))
    labels = [c["want"] == "correct" for c in cases]
    by_cat: dict[str, list[bool]] = defaultdict(list)
    for case, verdict, label in zip(cases, verdicts, labels):
        by_cat[case["cat"]].append(verdict == label)
    latencies.sort()
    return {
        "name": name,
        "accuracy": sum(v == lab for v, lab in zip(verdicts, labels)) / len(cases),
        "by_cat": {k: sum(v) / len(v) for k, v in by_cat.items()},
        "errors": [c for c, v, lab in zip(cases, verdicts, labels) if v != lab],
        "per_s": statistics.median(pass_rates),
        "per_s_tame": passes * sum(c["cat"] != "huge" for c in cases) / tame_time,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
    }


def main() -> None:
    """Run both verifiers over the case list and print the comparison table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the case list (default 3)")
    parser.add_argument("--show-errors", action="store_true", help="list the cases each verifier gets wrong")
    args = parser.parse_args()
    cases = load_cases()
    results = [
        run("rlvr (in-process)", rlvr_runner(in_process=True), cases, args.passes),
        run("rlvr (default, 1 worker)", rlvr_runner(num_workers=1), cases, args.passes),
        run("Math-Verify 0.9", math_verify_runner(), cases, args.passes),
    ]
    mv = results[-1]
    print(f"\n{len(cases)} labelled cases, {args.passes} timed passes, one core\n")
    header = (
        f"{'verifier':<26} {'accuracy':>9} {'verif/s/core':>13} {'(no huge)':>10} {'p50 ms':>8} {'p99 ms':>9} "
        f"{'speed-up':>9}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        speedup = r["per_s"] / mv["per_s"]
        print(
            f"{r['name']:<26} {100 * r['accuracy']:>8.1f}% {r['per_s']:>13.0f} {r['per_s_tame']:>10.0f} "
            f"{r['p50_ms']:>8.2f} {r['p99_ms']:>9.1f} {speedup:>8.1f}x"
        )
    cats = sorted({c["cat"] for c in cases})
    counts = defaultdict(int)
    for c in cases:
        counts[c["cat"]] += 1
    print(f"\n{'accuracy by category':<22} {'n':>4} " + " ".join(f"{r['name'][:16]:>17}" for r in results))
    for cat in cats:
        cells = " ".join(f"{100 * r['by_cat'][cat]:>16.0f}%" for r in results)
        print(f"{cat:<22} {counts[cat]:>4} {cells}")
    if args.show_errors:
        for r in results:
            print(f"\n{r['name']} disagrees with the label on {len(r['errors'])} cases:")
            for c in r["errors"]:
                print(f"  [{c['cat']}] gold={c['gold']!r} completion={c['pred']!r} label={c['want']}")


if __name__ == "__main__":
    main()
