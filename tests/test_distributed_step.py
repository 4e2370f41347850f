"""The one optimizer step under data parallelism, without Ray: two gloo ranks in two processes.

`Learner.train_step(reduce=AllReduce)` on each rank's slice (cut by the buffer actor's `rank_slices`) must take
the step one process takes on the whole batch, and keep each prompt's samples in one micro-batch so
`share_prompts` still runs each prompt once (before issue 15 the data-parallel copy of the step sorted
micro-batches by length, which split the groups).
"""

from __future__ import annotations

import os
import pickle
import socket
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.multiprocessing as mp

from rlvr.core import Rollout, Verdict
from rlvr.policy import HFBackend, Learner, LearnerConfig, SamplingParams, tiny_model
from rlvr.policy.learner import micro_batch_order
from rlvr.train.distributed.buffer_actor import rank_slices

# prompts of different lengths, so a length sort (the old data-parallel order) interleaves their samples
PROMPTS = ["Add 2 and 2.", "x", "Count to three, slowly:", "Say something."]
G = 4


def _rollouts(model, tok) -> list[Rollout]:
    groups = HFBackend(model, tok).generate(PROMPTS, G, SamplingParams(max_new_tokens=10, seed=0))
    out = []
    for i, group in enumerate(groups):
        for j, g in enumerate(group):
            n = 2 + (3 * i + 5 * j) % 9  # lengths that cross the prompts' order
            out.append(
                Rollout(
                    example_key=f"p{i}",
                    prompt=g.prompt,
                    completion=g.completion,
                    prompt_ids=g.prompt_ids,
                    completion_ids=g.completion_ids[:n],
                    behaviour_logprobs=g.logprobs[:n],
                    verdict=Verdict.correct() if j % 2 == 0 else Verdict.fail("wrong"),
                    reward=1.0 if j % 2 == 0 else 0.0,
                    advantage=1.0 if j % 2 == 0 else -1.0,
                    group_id=f"0:{i}",
                    group_mean=0.5,
                    group_size=G,
                )
            )
    rng = np.random.default_rng(0)
    return [out[k] for k in rng.permutation(len(out))]  # as a uniform sampler hands them out


def _learner(model_dir: Path, mbs: int) -> tuple[Learner, list[list[str]]]:
    """A learner on a fresh copy of the saved model; records the prompts of every micro-batch it forms."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(model_dir, torch_dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(model_dir)
    learner = Learner(model, tok, LearnerConfig(lr=3e-3, micro_batch_size=mbs))
    seen: list[list[str]] = []
    collate = learner.collate

    def recording(rollouts):  # the real collate, watched: one call per micro-batch
        seen.append([r.example_key for r in rollouts])
        return collate(rollouts)

    learner.collate = recording  # type: ignore[method-assign]
    return learner, seen


def _rank(rank: int, world: int, port: int, work: str, mbs: int) -> None:
    import torch.distributed as dist

    from rlvr.train.distributed.parallel import AllReduce

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    try:
        data = pickle.loads((Path(work) / "batch.pkl").read_bytes())
        part = rank_slices(data["rollouts"], np.ones(len(data["rollouts"])), np.zeros(16), world)[rank]
        learner, seen = _learner(Path(work) / "model", mbs)
        metrics = learner.train_step(part["rollouts"], part["weights"], reduce=AllReduce(learner.device))
        state = {k: v.clone() for k, v in learner.model.state_dict().items()}
        torch.save({"state": state, "metrics": metrics, "seen": seen}, Path(work) / f"rank{rank}.pt")
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dp")
    model, tok = tiny_model(root / "model", seed=0)
    model.save_pretrained(root / "model")
    tok.save_pretrained(root / "model")
    (root / "batch.pkl").write_bytes(pickle.dumps({"rollouts": _rollouts(model, tok)}))
    return root


@pytest.mark.parametrize("mbs", [8, 4])
def test_two_ranks_take_the_single_process_step_with_prompt_grouped_micro_batches(
    work: Path, mbs: int
) -> None:
    rollouts = pickle.loads((work / "batch.pkl").read_bytes())["rollouts"]
    single, seen_single = _learner(work / "model", mbs)
    metrics_single = single.train_step(rollouts, np.ones(len(rollouts), dtype=np.float32))

    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    mp.spawn(_rank, args=(2, _free_port(), str(work), mbs), nprocs=2, join=True)
    ranks = [torch.load(work / f"rank{r}.pt", weights_only=False) for r in range(2)]

    # micro-batches: each rank forms exactly the single process's, in order, and no prompt is split
    assert ranks[0]["seen"] + ranks[1]["seen"] == seen_single
    per_prompt = {key: sum(key in mb for mb in seen_single) for key in {r.example_key for r in rollouts}}
    assert set(per_prompt.values()) == {1}, f"a prompt's samples were split over micro-batches: {per_prompt}"
    assert all(len(set(mb)) == mbs // G for mb in seen_single)  # whole groups: one prompt pass per group

    for key in ("loss", "tokens", "samples", "grad_norm"):
        assert ranks[0]["metrics"][key] == ranks[1]["metrics"][key], key  # global numbers on every rank
    assert ranks[0]["metrics"]["samples"] == 16 and ranks[0]["metrics"]["tokens"] == metrics_single["tokens"]
    reference = single.model.state_dict()
    for name in reference:
        assert torch.equal(ranks[0]["state"][name], ranks[1]["state"][name]), name  # ranks in lockstep
    if mbs == 8:  # one micro-batch per rank: g0 + g1 is the single process's own addition, bit for bit
        assert ranks[0]["metrics"]["loss"] == metrics_single["loss"]
        assert ranks[0]["metrics"]["grad_norm"] == metrics_single["grad_norm"]
        assert all(torch.equal(ranks[0]["state"][k], v) for k, v in reference.items())
    else:  # (m1 + m2) + (m3 + m4) vs ((m1 + m2) + m3) + m4: equal up to float summation order
        assert ranks[0]["metrics"]["loss"] == pytest.approx(metrics_single["loss"], rel=1e-6, abs=1e-9)
        for name, tensor in reference.items():
            torch.testing.assert_close(ranks[0]["state"][name], tensor, rtol=1e-4, atol=1e-5)


def test_rank_slices_keep_the_micro_batch_order() -> None:
    class R:  # only what micro_batch_order reads
        def __init__(self, prompt: list[int], n: int) -> None:
            self.prompt_ids, self.num_tokens = np.asarray(prompt, dtype=np.int64), n

    batch = [R([1, 2], 3), R([5], 2), R([1, 2], 1), R([5], 7), R([1, 2, 3], 1), R([5], 1)]
    parts = rank_slices(batch, np.arange(6.0), np.arange(6), 2)  # type: ignore[arg-type]
    order = micro_batch_order(batch)  # type: ignore[arg-type]
    assert [r for p in parts for r in p["rollouts"]] == [batch[i] for i in order]
    assert [w for p in parts for w in p["weights"]] == [float(i) for i in order]  # weights and ages follow
    for p in parts:  # a slice is already in order, so the rank's own sort keeps its micro-batches
        assert micro_batch_order(p["rollouts"]) == list(range(len(p["rollouts"])))
