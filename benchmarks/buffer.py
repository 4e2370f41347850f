"""Replay-buffer throughput and latency: rlvr vs TorchRL's ReplayBuffer / PrioritizedReplayBuffer, same run.

For each capacity (1e3..1e6) and kind (uniform, prioritized) both buffers are filled with the same Rollout
objects (TorchRL: ListStorage, identity collate, as it would hold arbitrary Python objects), then timed:
- extend: steady-state inserts of `--chunk` rollouts into a full buffer (every insert evicts);
- sample: draws of `--batch` rollouts (returning the rollouts, weights and indices);
- update: `update_priorities` for one batch (prioritized only).
Prioritized runs use alpha=0.6, beta=0.4 and draws with replacement in both libraries (TorchRL's PER samples
with replacement); uniform runs use each library's default (rlvr: distinct items per batch, the paper's
`random.sample`; TorchRL's RandomSampler: with replacement).

TorchRL's sum-tree is a C++ extension. If the installed wheel's binary does not load (e.g. built for another
torch), this script compiles the C++ sources that ship inside the wheel with torch.utils.cpp_extension (once,
cached) so the comparison is against TorchRL's real C++ tree; if that fails the TorchRL PER rows say so.

    python benchmarks/buffer.py                 # full table, 1e3..1e6
    python benchmarks/buffer.py --capacities 1000,10000 --reps 100
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from rlvr.buffer import BufferConfig, PriorityConfig, ReplayBuffer
from rlvr.core import Rollout, Verdict, make_rng


def make_pool(n: int, seed: int = 0) -> list[Rollout]:
    """`n` distinct rollouts with realistic shapes (prompt ~64, completion ~256 tokens); reused cyclically."""
    rng = np.random.default_rng(seed)
    pool = []
    for i in range(n):
        c = int(rng.integers(64, 512))
        ok = bool(rng.random() < 0.4)
        pool.append(
            Rollout(
                example_key=f"ex{i % 97}",
                prompt=f"prompt {i}",
                completion=f"completion {i}",
                prompt_ids=rng.integers(0, 32000, 64),
                completion_ids=rng.integers(0, 32000, c),
                behaviour_logprobs=-rng.random(c).astype(np.float32),
                verdict=Verdict.correct() if ok else Verdict.fail("wrong"),
                reward=float(ok),
                advantage=float(rng.normal()),
                group_id=f"g{i // 16}",
                group_mean=0.4,
                group_size=16,
                policy_version=i // 256,
                created_step=i // 256,
            )
        )
    return pool


def ensure_torchrl_segment_tree() -> str:
    """Make TorchRL's C++ sum/min trees importable; returns how ('wheel', 'rebuilt', or an error message)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torchrl
        import torchrl.data.replay_buffers.samplers.prioritized as prioritized
    names = ("SumSegmentTreeFp32", "SumSegmentTreeFp64", "MinSegmentTreeFp32", "MinSegmentTreeFp64")
    if all(getattr(prioritized, n, None) is not None for n in names):
        return "wheel"
    try:
        import torch
        from torch.utils.cpp_extension import load

        src = Path(torchrl.__file__).parent / "csrc"
        cache = Path(os.environ.get("RLVR_CACHE", Path.home() / ".cache" / "rlvr"))
        build = cache / f"torchrl-{torchrl.__version__}-torch-{torch.__version__}-segment-tree"
        build.mkdir(parents=True, exist_ok=True)
        print(
            f"[bench] TorchRL's C++ extension does not load; compiling its shipped sources into {build} ..."
        )
        module = load(
            name="_torchrl",  # the name the sources' PYBIND11_MODULE declares
            sources=[str(src / "pybind.cpp"), str(src / "utils.cpp")],
            build_directory=str(build),
            extra_cflags=["-O3"],
            verbose=False,
        )
        for n in names:
            setattr(prioritized, n, getattr(module, n))
        return "rebuilt"
    except Exception as exc:  # the comparison degrades to "unavailable", the rlvr rows still run
        return f"unavailable ({type(exc).__name__}: {str(exc).splitlines()[0][:80]})"


class RlvrAdapter:
    """rlvr's buffer behind the benchmark's three calls."""

    def __init__(self, capacity: int, kind: str, batch: int) -> None:
        cfg = BufferConfig(
            capacity=capacity,
            sampler="uniform" if kind == "uniform" else "prioritized",
            replacement=kind == "prioritized",
            priority=PriorityConfig(alpha=0.6, beta=0.4),
        )
        self.buffer = ReplayBuffer(cfg, make_rng(0))
        self.batch = batch
        self.step = 0
        self.last: Any = None

    def extend(self, items: list[Rollout]) -> None:
        self.buffer.extend(items, step=self.step)

    def sample(self) -> None:
        self.step += 1
        self.last = self.buffer.sample(self.batch, step=self.step)

    def update(self, values: np.ndarray) -> None:
        self.buffer.update_priorities(self.last.indices, values)


class TorchRLAdapter:
    """TorchRL's ReplayBuffer / PrioritizedReplayBuffer over a ListStorage of the same rollout objects."""

    def __init__(self, capacity: int, kind: str, batch: int) -> None:
        import torch
        from torchrl.data import ListStorage, PrioritizedReplayBuffer, ReplayBuffer

        torch.manual_seed(0)
        self.torch = torch

        def identity(x: Any) -> Any:
            return x

        if kind == "uniform":
            self.buffer = ReplayBuffer(storage=ListStorage(capacity), batch_size=batch, collate_fn=identity)
        else:
            self.buffer = PrioritizedReplayBuffer(
                alpha=0.6, beta=0.4, storage=ListStorage(capacity), batch_size=batch, collate_fn=identity
            )
        self.kind = kind
        self.last: Any = None

    def extend(self, items: list[Rollout]) -> None:
        self.buffer.extend(items)

    def sample(self) -> None:
        self.last = self.buffer.sample(return_info=self.kind != "uniform")

    def update(self, values: np.ndarray) -> None:
        self.buffer.update_priority(
            self.last[1]["index"], self.torch.as_tensor(values, dtype=self.torch.float32)
        )


def timed(fn: Callable[[], None], reps: int) -> list[float]:
    """Per-call wall times; the garbage collector is paused while timing (as `timeit` does)."""
    gc.collect()
    gc.disable()
    try:
        out = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        return out
    finally:
        gc.enable()


def run_one(
    adapter: Any, pool: list[Rollout], capacity: int, chunk: int, reps: int, kind: str
) -> dict[str, Any]:
    """Fill the buffer, then time steady-state extend, sample and (prioritized) update calls."""
    fill = 1000
    for start in range(0, capacity, fill):  # fill the buffer (not timed)
        adapter.extend([pool[(start + j) % len(pool)] for j in range(min(fill, capacity - start))])
    chunks = [[pool[(k * chunk + j) % len(pool)] for j in range(chunk)] for k in range(8)]
    it = iter(range(10**9))
    row = {
        "extend": timed(lambda: adapter.extend(chunks[next(it) % 8]), reps),
        "sample": timed(adapter.sample, reps),
    }
    if kind == "prioritized":
        values = np.random.default_rng(0).random((reps, BATCH)) + 0.01
        it = iter(range(10**9))
        row["update"] = timed(lambda: adapter.update(values[next(it)]), reps)
    return row


BATCH = 64


def fmt_rate(items: int, times: list[float]) -> str:
    return f"{items / statistics.mean(times):>11,.0f}"


def fmt_us(times: list[float], q: float) -> str:
    return f"{np.quantile(np.asarray(times), q) * 1e6:>9.1f}"


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    global BATCH
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--capacities", default="1000,10000,100000,1000000")
    parser.add_argument("--batch", type=int, default=64, help="sample batch size")
    parser.add_argument("--chunk", type=int, default=256, help="rollouts per extend call")
    parser.add_argument("--reps", type=int, default=300, help="timed calls per measurement")
    parser.add_argument("--pool", type=int, default=4096, help="distinct rollout objects (reused cyclically)")
    parser.add_argument("--kinds", default="uniform,prioritized")
    parser.add_argument("--no-torchrl", action="store_true", help="only time rlvr")
    args = parser.parse_args(argv)
    BATCH = args.batch
    capacities = [int(float(c)) for c in args.capacities.split(",")]
    kinds = args.kinds.split(",")

    tree = "not used" if args.no_torchrl else ensure_torchrl_segment_tree()
    pool = make_pool(args.pool)
    libs: list[tuple[str, Any]] = [("rlvr", RlvrAdapter)]
    if not args.no_torchrl:
        libs.append(("torchrl", TorchRLAdapter))
    results: list[tuple[int, str, str, dict[str, Any] | str]] = []
    jobs = [(c, k, name, cls) for c in capacities for k in kinds for name, cls in libs]
    for capacity, kind, name, cls in tqdm(jobs, desc="buffer benchmark", file=sys.stderr):
        if name == "torchrl" and kind == "prioritized" and tree.startswith("unavailable"):
            results.append((capacity, kind, name, tree))
            continue
        adapter = cls(capacity, kind, args.batch)
        results.append((capacity, kind, name, run_one(adapter, pool, capacity, args.chunk, args.reps, kind)))
        del adapter
        gc.collect()

    print()
    print(f"batch={args.batch}  extend chunk={args.chunk}  reps={args.reps}  TorchRL C++ sum-tree: {tree}")
    print(
        "rate = items/s (mean over calls); latency = microseconds per call (p50 / p99); GC paused while timing"
    )
    header = (
        f"{'capacity':>9} {'kind':<11} {'library':<8} | {'extend/s':>11} {'p50 us':>9} {'p99 us':>9} | "
        f"{'sample/s':>11} {'p50 us':>9} {'p99 us':>9} | {'update p50 us':>13}"
    )
    print(header)
    print("-" * len(header))
    for capacity, kind, name, row in results:
        lead = f"{capacity:>9,} {kind:<11} {name:<8} |"
        if isinstance(row, str):
            print(f"{lead} {row}")
            continue
        ext, smp = row["extend"], row["sample"]
        upd = fmt_us(row["update"], 0.5) if "update" in row else ""
        print(
            f"{lead} {fmt_rate(args.chunk, ext)} {fmt_us(ext, 0.5)} {fmt_us(ext, 0.99)} | "
            f"{fmt_rate(args.batch, smp)} {fmt_us(smp, 0.5)} {fmt_us(smp, 0.99)} | {upd:>13}"
        )
    print()
    print("speed-up of rlvr over TorchRL (sample throughput ratio):")
    table = {(c, k, n): r for c, k, n, r in results}
    for capacity in capacities:
        for kind in kinds:
            a, b = table.get((capacity, kind, "rlvr")), table.get((capacity, kind, "torchrl"))
            if isinstance(a, dict) and isinstance(b, dict):
                ratio = statistics.mean(b["sample"]) / statistics.mean(a["sample"])
                print(f"  {capacity:>9,} {kind:<11} x{ratio:.2f}")


if __name__ == "__main__":
    main()
