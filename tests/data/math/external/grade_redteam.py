"""Grade a red-team set (round2.yaml, round3.yaml, ...) with rlvr (in process) and Math-Verify; print FP/FN per category.

Cases whose `note` starts with `policy:` are labelled by one reasonable policy that other graders do not share
(percent, rounding, unreduced fractions): they are graded and listed, but kept out of the FP/FN counts.

    .venv/bin/python tests/data/math/external/grade_redteam.py [--show] [--file round2.yaml]   # default: round3.yaml
    RLVR_ROOT=/tmp/snapshot .venv/bin/python ...   # grade an exported snapshot (git archive HEAD rlvr) instead

The cases are graded one by one in this process with no per-case limit: an input that hangs rlvr's in-process
mode hangs this script (that is a finding). The robust:size cases are large inputs kept here on purpose: each must
be answered (a verdict or `timeout`) within SLOW_S; the slow list names any that is not, for either grader.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
# a pinned snapshot of rlvr/ may be graded instead of the working tree, which other sessions edit meanwhile
sys.path.insert(0, os.environ.get("RLVR_ROOT", str(ROOT)))

from rlvr.verifiers import MathVerifier  # noqa: E402

SLOW_S = 1.0


def math_verify_check() -> object:
    """Math-Verify as its tests call it: latex (boxed first) + expr extraction on both sides, gold first."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    targets = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]

    def check(gold: str, pred: str) -> bool:
        try:
            return bool(verify(parse(gold, targets), parse(pred, targets)))
        except Exception:  # a crash is "not passed", as in the benchmark
            return False

    return check


def grade(cases: list[dict]) -> list[dict]:
    """Run both verifiers on every case; record verdicts, rlvr's reason, latency and exceptions."""
    rlvr = MathVerifier(in_process=True)
    mv = math_verify_check()
    rows = []
    for case in cases:
        t0 = time.perf_counter()
        try:
            verdict = rlvr.verify(case["pred"], case["gold"])
            ok, reason, err = verdict.passed, verdict.reason, None
        except Exception as exc:  # reported, never hidden: a raising verifier is a finding
            ok, reason, err = False, "raised", repr(exc)
        took = time.perf_counter() - t0
        t1 = time.perf_counter()
        mv_ok = mv(case["gold"], case["pred"])  # type: ignore[operator]
        mv_took = time.perf_counter() - t1
        rows.append(
            {
                **case,
                "rlvr": ok,
                "reason": reason,
                "error": err,
                "secs": took,
                "mv": mv_ok,
                "mv_secs": mv_took,
            }
        )
    return rows


def table(rows: list[dict]) -> None:
    """Per category: cases, rlvr FP/FN, Math-Verify FP/FN (policy cases apart)."""
    cells: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for r in rows:
        c = cells[r["cat"]]
        if str(r.get("note", "")).startswith("policy:"):
            c[5] += 1
            continue
        c[0] += 1
        c[1] += r["rlvr"] and not r["want"]
        c[2] += r["want"] and not r["rlvr"]
        c[3] += r["mv"] and not r["want"]
        c[4] += r["want"] and not r["mv"]
    print(
        f"{'category':28s} {'n':>4s} {'rlvr FP':>8s} {'rlvr FN':>8s} {'MV FP':>6s} {'MV FN':>6s} {'policy':>6s}"
    )
    tot = [0] * 6
    for cat in sorted(cells):
        c = cells[cat]
        tot = [a + b for a, b in zip(tot, c)]
        print(f"{cat:28s} {c[0]:4d} {c[1]:8d} {c[2]:8d} {c[3]:6d} {c[4]:6d} {c[5]:6d}")
    print(f"{'TOTAL':28s} {tot[0]:4d} {tot[1]:8d} {tot[2]:8d} {tot[3]:6d} {tot[4]:6d} {tot[5]:6d}")
    n = tot[0]
    print(
        f"accuracy (policy cases excluded): rlvr {(n - tot[1] - tot[2]) / n:.3f}  Math-Verify {(n - tot[3] - tot[4]) / n:.3f}"
    )


def main() -> None:
    """Load the round-3 set, grade it, print the table and (with --show) each miss."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", default=str(HERE / "round3.yaml"))
    parser.add_argument("--show", action="store_true", help="list every rlvr miss, slow or raising case")
    args = parser.parse_args()
    import rlvr

    print(f"rlvr from {Path(rlvr.__file__).parent}")
    rows = grade(yaml.safe_load(Path(args.file).read_text())["cases"])
    table(rows)
    slow = [r for r in rows if r["secs"] > SLOW_S or r["error"]]
    print(f"rlvr slow (> {SLOW_S}s) or raising: {len(slow)}")
    mv_slow = [r for r in rows if r["mv_secs"] > SLOW_S]
    print(f"Math-Verify slow (> {SLOW_S}s): {len(mv_slow)}")
    worst = max(rows, key=lambda r: r["secs"])
    print(f"rlvr slowest case: {worst['source']} {worst['secs']:.2f}s ({worst['reason']})")
    if args.show:
        for r in rows:
            policy = str(r.get("note", "")).startswith("policy:")
            if r["rlvr"] != r["want"] or r["secs"] > SLOW_S or r["error"]:
                kind = "FP" if r["rlvr"] and not r["want"] else "FN" if r["want"] and not r["rlvr"] else "ok"
                print(
                    f"[{kind}{' policy' if policy else ''}] {r['source']} rlvr={r['rlvr']}({r['reason']}) "
                    f"mv={r['mv']} {r['secs']:.2f}s [{r['cat']}] gold={r['gold']!r} pred={r['pred'][-160:]!r}"
                    + (f" ERR {r['error']}" if r["error"] else "")
                )


if __name__ == "__main__":
    main()
