"""Math verification accuracy and speed: rlvr's MathVerifier vs Math-Verify, same cases, same run.

Case sets (`--set`):
- `external` (default): cases nobody here wrote, one file per source under `tests/data/math/external/`
  (Math-Verify's own test suite, other graders' tests, realistic chain-of-thought outputs), each case with
  its `source`. Where we disagree with a peer's label, `disagreements.yaml` holds our label and the reason;
  both verifiers are scored against the label in force, and the table says how many were overridden.
  Cases whose peer test needs a non-default peer option (`strict=False`, set-relation comparison) are skipped.
- `own`: the regression table `tests/data/math/cases.yaml`.

A case is accurate when the verifier's pass/fail equals the label. A *false positive* passes a case labelled
wrong (the worst failure: it rewards a wrong answer); a *false negative* fails a correct one.

Verifiers (each measured in this process, one core, one case at a time):
A case whose peer test passes `precision=p` (Math-Verify's `float_rounding`) is graded by rlvr with
`min_significant_digits=p` when p is below rlvr's default of 3, so both verifiers get the same leniency.

- rlvr in-process: `MathVerifier(in_process=True)`: the whole pipeline in this process, every stage under
  its deadline (what a pool worker or a daemonic worker runs).
- rlvr default: `MathVerifier(num_workers=1)`: fast stage here, sympy stage in one killable worker process.
- Math-Verify: `verify(parse(gold), parse(completion))` as its own test suite calls it (latex + expr
  extraction, boxed priority 0, `float_rounding` = the test's precision or 6), its default timeouts
  (`signal.alarm`, main thread). An exception counts as "not passed".

Throughput = cases / seconds spent in that verifier's calls in a pass (one core; the verifiers take turns
case by case, so load from other work on a shared machine falls on all of them alike); p99 over all timed
calls. Each pass uses a fresh verifier (empty gold cache); its sympy worker is started before the pass (once
per verifier lifetime, as in training).

    python benchmarks/math_verifier.py                       # external set, 1 timed pass
    python benchmarks/math_verifier.py --set own --passes 3 --show-errors
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.verifiers import MathVerifier  # noqa: E402

DATA = ROOT / "tests" / "data" / "math"


def load_own() -> list[dict]:
    """The regression table, labels as booleans."""
    cases = yaml.safe_load((DATA / "cases.yaml").read_text())["cases"]
    return [{**c, "label": c["want"] == "correct", "src_file": "own"} for c in cases]


def load_external() -> list[dict]:
    """Every external case with the label in force (ours where `disagreements.yaml` overrides the peer)."""
    overrides = {
        d["source"]: d
        for d in yaml.safe_load((DATA / "external" / "disagreements.yaml").read_text())["cases"]
    }
    cases: list[dict] = []
    for path in sorted((DATA / "external").iterdir()):
        if path.suffix == ".jsonl":
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        elif path.suffix == ".yaml" and path.name not in ("disagreements.yaml", "open_false_positives.yaml"):
            rows = yaml.safe_load(path.read_text())["cases"]
        else:
            continue
        for row in rows:
            if row.get("option"):
                continue
            label = bool(row["want"])
            override = overrides.get(row["source"])
            if override is not None:
                label = bool(override["ours"])
            cases.append({**row, "label": label, "overridden": override is not None, "src_file": path.stem})
    missing = set(overrides) - {c["source"] for c in cases}
    if missing:
        raise SystemExit(f"disagreements.yaml names sources that no case has: {sorted(missing)[:5]}")
    return cases


def rlvr_runner(**config: object) -> Callable[[], Callable[[dict], bool]]:
    """A factory of fresh rlvr checkers (one per pass, so the gold cache starts empty)."""

    def make() -> Callable[[dict], bool]:
        verifier = MathVerifier(**config)  # type: ignore[arg-type]
        # start its sympy worker now (once per verifier lifetime, as in training), with a gold no case has
        verifier.verify(r"\boxed{\sin^2 z + \cos^2 z}", r"\cos^2 z + \sin^2 z")
        # a peer test's `precision` (digits a decimal must give) is rlvr's `min_significant_digits`
        coarse = {p: MathVerifier(**config, min_significant_digits=p) for p in (1, 2)}  # type: ignore[arg-type]

        def check(case: dict) -> bool:
            precision = (case.get("options") or {}).get("precision")
            chosen = coarse.get(precision, verifier)
            return chosen.verify(case["pred"], case["gold"]).passed

        return check

    return make


def math_verify_runner() -> Callable[[], Callable[[dict], bool]]:
    """Math-Verify as its own tests call it: parse both sides with latex+expr extraction, then verify."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    targets = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]

    def check(case: dict) -> bool:
        precision = (case.get("options") or {}).get("precision", 6)
        try:
            gold = parse(case["gold"], targets)
            return bool(verify(gold, parse(case["pred"], targets), float_rounding=precision))
        except Exception:
            return False

    return lambda: check


def run_all(
    runners: list[tuple[str, Callable[[], Callable[[dict], bool]]]], cases: list[dict], passes: int
) -> list[dict]:
    """Warm up, then time `passes` passes; within a pass the verifiers take turns case by case, so a machine
    shared with other work slows them alike. Accuracy, FP/FN per category, speed and latencies per verifier."""
    for _, factory in runners:
        check = factory()
        for case in cases[:20]:  # imports, worker start, sympy import
            check(case)
    latencies: list[list[float]] = [[] for _ in runners]
    rates: list[list[float]] = [[] for _ in runners]
    verdicts: list[list[bool]] = [[] for _ in runners]
    for p in range(passes):
        checks = [factory() for _, factory in runners]
        spent = [0.0] * len(runners)
        for case in cases:
            for i, check in enumerate(checks):
                t0 = time.perf_counter()
                ok = check(case)
                took = time.perf_counter() - t0
                spent[i] += took
                latencies[i].append(took)
                if p == 0:
                    verdicts[i].append(ok)
        for i in range(len(runners)):
            rates[i].append(len(cases) / spent[i])
    return [_summary(name, cases, verdicts[i], latencies[i], rates[i]) for i, (name, _) in enumerate(runners)]


def _summary(
    name: str, cases: list[dict], verdicts: list[bool], latencies: list[float], rates: list[float]
) -> dict:
    by_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # n, right, fp, fn
    for case, verdict in zip(cases, verdicts):
        cell = by_cat[case["cat"]]
        cell[0] += 1
        cell[1] += verdict == case["label"]
        cell[2] += verdict and not case["label"]
        cell[3] += case["label"] and not verdict
    latencies = sorted(latencies)
    return {
        "name": name,
        "accuracy": sum(v == c["label"] for v, c in zip(verdicts, cases)) / len(cases),
        "fp": [c for c, v in zip(cases, verdicts) if v and not c["label"]],
        "fn": [c for c, v in zip(cases, verdicts) if c["label"] and not v],
        "by_cat": dict(by_cat),
        "per_s": statistics.median(rates),
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
    }


def main() -> None:
    """Run the verifiers over the chosen case set and print the comparison table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", choices=("external", "own"), default="external", help="which cases")
    parser.add_argument("--passes", type=int, default=1, help="timed passes over the cases (default 1)")
    parser.add_argument("--show-errors", action="store_true", help="list each verifier's FP and FN cases")
    parser.add_argument("--only", default=None, help="only categories starting with this prefix")
    parser.add_argument("--no-default", action="store_true", help="skip the rlvr worker-pool configuration")
    args = parser.parse_args()
    cases = load_external() if args.set == "external" else load_own()
    if args.only:
        cases = [c for c in cases if c["cat"].startswith(args.only)]
    runners = [("rlvr (in-process)", rlvr_runner(in_process=True))]
    if not args.no_default:
        runners.append(("rlvr (default, 1 worker)", rlvr_runner(num_workers=1)))
    runners.append(("Math-Verify", math_verify_runner()))
    results = run_all(runners, cases, args.passes)
    mv = results[-1]
    overridden = sum(c.get("overridden", False) for c in cases)
    print(
        f"\n{len(cases)} cases ({args.set}; {overridden} labels overridden by disagreements.yaml), "
        f"{args.passes} timed pass(es), one core\n"
    )
    header = (
        f"{'verifier':<26} {'accuracy':>9} {'FP':>4} {'FN':>4} {'cases/s':>9} {'p50 ms':>8} {'p99 ms':>9} "
        f"{'max ms':>9} {'speed-up':>9}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        print(
            f"{r['name']:<26} {100 * r['accuracy']:>8.1f}% {len(r['fp']):>4} {len(r['fn']):>4} {r['per_s']:>9.0f} "
            f"{r['p50_ms']:>8.2f} {r['p99_ms']:>9.1f} {r['max_ms']:>9.1f} {r['per_s'] / mv['per_s']:>8.1f}x"
        )
    print(f"\n{'category':<34} {'n':>4} " + " ".join(f"{r['name'][:18]:>20}" for r in results))
    print(f"{'':<34} {'':>4} " + " ".join(f"{'acc  FP  FN':>20}" for _ in results))
    for cat in sorted(results[0]["by_cat"]):
        n = results[0]["by_cat"][cat][0]
        cells = " ".join(
            f"{100 * r['by_cat'][cat][1] / n:>12.0f}% {r['by_cat'][cat][2]:>3} {r['by_cat'][cat][3]:>3}"
            for r in results
        )
        print(f"{cat:<34} {n:>4} {cells}")
    if args.show_errors:
        for r in results:
            for kind in ("fp", "fn"):
                print(
                    f"\n{r['name']}: {len(r[kind])} {'false positives' if kind == 'fp' else 'false negatives'}"
                )
                for c in r[kind]:
                    print(f"  [{c['cat']}] gold={c['gold'][:80]!r} pred={c['pred'][-100:]!r}")


if __name__ == "__main__":
    main()
