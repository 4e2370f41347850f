"""The Ray runtime: config checks, the Ray verifier pool, and sync mode against the single-process trainer.

One local Ray instance serves the whole module (starting Ray costs 10-20 s here). Actors find this module
(where the test env registers itself) through PYTHONPATH in the runtime env and `env.imports`, the same
setting the single-process trainer uses (no second, Ray-only list).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

import rlvr
from rlvr.buffer import BufferConfig, StalenessConfig
from rlvr.cli import main
from rlvr.core import ConfigError, Example, Verdict
from rlvr.envs import PromptTemplate
from rlvr.policy import LearnerConfig
from rlvr.tasks import ListTask, example_key
from rlvr.train.build import build_model
from rlvr.train.config import DistributedConfig, EnvConfig, ModelConfig, RolloutConfig, RunConfig, TrainConfig
from rlvr.train.configio import load_config, to_dict
from rlvr.train.distributed import DistributedTrainer, rank_weights_agree
from rlvr.train.distributed.rollout_workers import split_evenly
from rlvr.train.loop import Trainer
from rlvr.verifiers import make_verifier, verifier

ray = pytest.importorskip("ray")


@pytest.fixture(autouse=True)
def one_torch_thread():  # type: ignore[no-untyped-def]
    """Single-process reference runs use the actors' one torch thread (`distributed.torch_threads`): a matmul
    split over another number of threads sums in another order, and bit-for-bit equality would then be luck."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


ENV_ID = "test/DistLetters-v0"
TESTS_DIR = str(Path(__file__).resolve().parent)
THIS_MODULE = Path(__file__).stem


@verifier("test/dist-letters", overwrite=True)
def dist_letters(completion: str, reference: str) -> Verdict:
    """The share of lowercase ASCII letters among the first 8 characters (a dense, learnable signal)."""
    head = completion[:8]
    score = sum("a" <= c <= "z" for c in head) / 8
    return Verdict(score, score == 1.0, "correct" if score == 1.0 else "wrong")


def _task() -> ListTask:
    prompts = [f"Say a{i}" for i in range(8)]
    examples = [Example(example_key("dist_letters", p, "a"), p, "a", "dist_letters") for p in prompts]
    return ListTask(
        "dist_letters", examples, verifier_name="test/dist-letters", gold_fn=lambda ex: "aaaaaaaa"
    )


if ENV_ID not in rlvr.envs.ENVS:
    rlvr.register_env(
        ENV_ID, task=_task, verifier=dist_letters, template=PromptTemplate("plain-dist-v0", "{prompt}")
    )


def tiny_config(
    out: Path,
    distributed: DistributedConfig | None = None,
    buffer: BufferConfig | None = None,
    **train: object,
) -> RunConfig:
    """A seconds-per-step run of a tiny random model on the letters env."""
    return RunConfig(
        model=ModelConfig(name="tiny"),
        env=EnvConfig(id=ENV_ID, imports=(THIS_MODULE,)),  # the one setting that reaches every actor
        rollout=RolloutConfig(prompts_per_step=4, group_size=4, max_new_tokens=8),
        buffer=buffer or BufferConfig(capacity=48),
        # B=16 over T=2 ranks in micro-batches of 8: each rank's slice is one micro-batch of the single-process
        # step, and g0 + g1 is the same float addition either way, so the runtimes agree bit for bit (Adam's
        # default eps=1e-8 magnifies any last-bit difference of a near-zero gradient: a sharp check)
        learner=LearnerConfig(lr=3e-3, micro_batch_size=8),
        train=TrainConfig(
            **{
                "steps": 3,
                "batch_size": 16,
                "output_dir": str(out),
                "tensorboard": False,
                "progress": False,
                "plot": False,
                **train,
            }
        ),
        distributed=distributed,
    )


def dist(**kwargs: object) -> DistributedConfig:
    """Fractional resources so a dozen actors fit on a 2-core machine."""
    base: dict[str, object] = {
        "rollout_cpus": 0.25,
        "learner_cpus": 0.25,
        "verifier_cpus": 0.25,
        "buffer_cpus": 0.25,
        "restart_timeout_s": 120.0,
    }
    return DistributedConfig(**{**base, **kwargs})  # type: ignore[arg-type]


# ----- no Ray needed ---------------------------------------------------------------------------------------


def test_distributed_config_is_checked_before_work(tmp_path: Path) -> None:
    base = tiny_config(tmp_path, dist(learner_ranks=2))
    with pytest.raises(ConfigError, match="must be 1 .* or equal"):
        replace(base, buffer=BufferConfig(capacity=48, num_shards=3))
    with pytest.raises(ConfigError, match="multiple of 2"):
        replace(base, train=replace(base.train, batch_size=15))
    with pytest.raises(ConfigError, match="at most 4 rollout workers"):
        replace(base, distributed=dist(rollout_workers=5))
    with pytest.raises(ConfigError, match="needs a staleness limit"):
        replace(base, distributed=dist(mode="async"))
    aged = BufferConfig(capacity=48, staleness=StalenessConfig(max_age=1))
    with pytest.raises(ConfigError, match="exceeds buffer.staleness.max_age=1"):
        replace(base, distributed=dist(mode="async"), buffer=aged, train=replace(base.train, sync_every=2))
    replace(base, distributed=dist(mode="async"), buffer=aged)  # a valid async setup
    with pytest.raises(ConfigError, match="needs the Ray runtime"):
        replace(base, distributed=None, buffer=BufferConfig(capacity=48, num_shards=2))
    with pytest.raises(ConfigError, match="runs on GPUs"):
        DistributedConfig(collective_backend="nccl")
    with pytest.raises(ConfigError, match="not a module name"):
        DistributedConfig(setup_modules=["my-envs"])
    with pytest.raises(ConfigError, match="rollout_workers must be an int >= 1"):
        DistributedConfig(rollout_workers=0)
    assert DistributedConfig().backend == "gloo" and DistributedConfig(learner_gpus=1).backend == "nccl"


def test_yaml_and_cli_address_turn_on_the_ray_runtime(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(to_dict(tiny_config(tmp_path / "out", dist(learner_ranks=2)))))
    loaded = load_config(RunConfig, path, ["distributed.mode=async", "buffer.staleness.max_age=3"])
    assert loaded.distributed is not None and loaded.distributed.learner_ranks == 2
    assert loaded.distributed.mode == "async" and loaded.env.imports == (THIS_MODULE,)
    plain = tmp_path / "plain.yaml"
    plain.write_text(yaml.safe_dump(to_dict(tiny_config(tmp_path / "out"))))
    assert main(["train", str(plain), "--dry-run", "--address", "10.0.0.1:6379"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["distributed"]["address"] == "10.0.0.1:6379"
    assert printed["distributed"]["rollout_workers"] == 1
    assert main(["train", str(path), "distributed.learner_ranks=3"]) == 2  # 16 is not a multiple of 3
    assert "multiple of 3" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["distributed.yaml", "distributed_async.yaml"])
def test_shipped_distributed_configs_validate(name: str) -> None:
    config = load_config(RunConfig, Path(TESTS_DIR).parent / "configs" / name)
    assert config.distributed is not None and config.distributed.rollout_workers >= 2
    assert config.train.batch_size % config.distributed.learner_ranks == 0


def test_split_evenly_is_contiguous_and_balanced() -> None:
    parts = split_evenly(list(range(7)), 3)
    assert parts == [[0, 1, 2], [3, 4], [5, 6]]
    assert split_evenly([1, 2], 2) == [[1], [2]]


# ----- on Ray ------------------------------------------------------------------------------------------------


def test_ray_verifier_pool_grades_in_order_and_survives_a_killed_actor(ray_local) -> None:
    from rlvr.verifiers.ray_pool import RayVerifierPool

    pool = RayVerifierPool(
        make_verifier("test/dist-letters"), 2, num_cpus=0.25, timeout_s=5.0, setup_modules=[THIS_MODULE]
    )
    try:
        pairs = [("a" * i + "X" * (8 - i), "a") for i in range(9)]
        assert [v.score for v in pool.verify_batch(pairs)] == [i / 8 for i in range(9)]
        pid = ray.get(pool.actors[0].pid.remote())
        ray.kill(pool.actors[0], no_restart=False)  # Ray restarts it (its calls wait or move on)
        assert [v.score for v in pool.verify_batch(pairs)] == [i / 8 for i in range(9)]
        assert _pid_when_back(pool.actors[0]) != pid  # restarted in a new process
        ray.kill(pool.actors[1], no_restart=True)  # gone for good: its chunk must move to actor 0
        assert [v.score for v in pool.verify_batch(pairs)] == [i / 8 for i in range(9)]
        assert pool.retries >= 1
        stats = pool.stats()
        assert stats["unavailable"] == 1 and stats["jobs"] >= 9
    finally:
        pool.close()


def _pid_when_back(actor: object, method: str = "pid", timeout_s: float = 120.0) -> int:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return ray.get(getattr(actor, method).remote(), timeout=30)
        except ray.exceptions.RayActorError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_sync_mode_matches_the_single_process_trainer(tmp_path: Path, ray_local) -> None:
    """W=1, T=2: same rollouts, same batches, and the data-parallel update equals the one-process update,
    bit for bit; two updates per step, so the policy version (what buffer.sample gets) runs ahead of the step."""

    single = Trainer(tiny_config(tmp_path / "single", updates_per_step=2))
    rows_single = single.fit()
    single.close()

    trainer = DistributedTrainer(tiny_config(tmp_path / "ray", dist(learner_ranks=2), updates_per_step=2))
    try:
        rows = trainer.fit()
        weights = trainer.learners.all_weights()  # type: ignore[union-attr]
        worker_version = ray.get(trainer.fleet.actors[0].policy_version.remote())  # type: ignore[union-attr]
        buffer_state = ray.get(trainer.buffer.state_dict.remote())
    finally:
        trainer.close()

    assert [r["step"] for r in rows] == [1, 2, 3]
    for a, b in zip(rows_single, rows):
        # one loop, one optimizer step: the same rollouts, batches, losses and gradients, bit for bit
        for key in (
            "rollout/reward_mean",
            "rollout/accuracy",
            "rollout/truncated_frac",
            "rollout/generated_tokens",
            "buffer/size",
            "compute/unique_rollouts",
            "train/loss",
            "train/grad_norm",
            "train/age_mean",
            "train/age_max",
            "train/tokens",
        ):
            assert a[key] == b[key], key
        assert a["train/reward_mean"] == pytest.approx(b["train/reward_mean"], rel=1e-12)  # summed per rank
    assert rows[-1]["policy/version"] == 6 and worker_version == 6
    assert rows[-1]["compute/replay_ratio"] == pytest.approx(96 / 48)
    # the buffer actor was asked with the policy version, as the single-process buffer: the last draw was at
    # version 5 (loop step 3), and every item's use count and last use agree
    reference_buffer = single.buffer.state_dict()
    assert buffer_state["step"] == reference_buffer["step"] == 5
    for name in ("use_count", "last_use", "policy_version", "live"):
        assert np.array_equal(buffer_state["table"][name], reference_buffer["table"][name]), name
    assert rank_weights_agree(weights), "data-parallel ranks must hold identical parameters"
    reference = single.model.state_dict()
    differ = [name for name, tensor in weights[0].items() if not torch.equal(tensor, reference[name])]
    assert not differ, f"the Ray run's weights differ from the single-process run's in {differ}"
    initial, _ = build_model(ModelConfig(name="tiny"), seed=0)
    moved = [k for k, v in initial.state_dict().items() if not torch.equal(v, weights[0][k])]
    assert len(moved) > len(weights[0]) // 2, "three updates should move most parameter tensors"
    assert (tmp_path / "ray" / "checkpoints" / "latest").exists()
    assert np.isfinite(rows[-1]["compute/mu"]) and rows[-1]["compute/mu"] > 0


# ----- slow: fault tolerance, resume, async ---------------------------------------------------------------


class StopRun(Exception):
    """Raised from a step callback to stop a run the way a crash would."""


def _weights(trainer: DistributedTrainer) -> dict[str, torch.Tensor]:
    return ray.get(trainer.learners.weights_ref())  # type: ignore[union-attr]


@pytest.mark.slow
def test_killed_rollout_and_verifier_workers_are_recovered_and_change_nothing(
    tmp_path: Path, ray_local
) -> None:
    """W=2 with two verifier actors; kills after steps 1-3; the run equals an undisturbed one exactly."""
    d = dist(rollout_workers=2, verifier_actors=2)
    reference = DistributedTrainer(tiny_config(tmp_path / "ref", d, steps=5))
    try:
        rows_ref = reference.fit()
        weights_ref = _weights(reference)
    finally:
        reference.close()

    trainer: DistributedTrainer

    def chaos(step: int, metrics: dict[str, float]) -> None:
        fleet = trainer.fleet
        assert fleet is not None
        if step == 1:  # an idle worker: Ray restarts it, the next call finds it without weights
            ray.kill(fleet.actors[1], no_restart=False)
        elif step == 2:  # a verifier actor's process dies (as in an OOM kill)
            os.kill(ray.get(trainer.verifier_pool.actors[0].pid.remote()), 9)
        elif step == 3:  # a worker dies soon, most likely inside its next produce call (step 4 or 5 notices)
            pid = ray.get(fleet.actors[0].ping.remote())
            threading.Timer(0.1, os.kill, (pid, 9)).start()

    trainer = DistributedTrainer(tiny_config(tmp_path / "chaos", d, steps=5), on_step=chaos)
    try:
        rows = trainer.fit()
        weights = _weights(trainer)
        failures = trainer.fleet.failures  # type: ignore[union-attr]
        versions = ray.get([a.policy_version.remote() for a in trainer.fleet.actors])  # type: ignore[union-attr]
    finally:
        trainer.close()
    assert [r["step"] for r in rows] == [1, 2, 3, 4, 5]
    assert failures >= 2, "the killed rollout workers should have been noticed and recovered"
    assert versions == [5, 5]
    for a, b in zip(rows_ref, rows):  # same prompts, seeds and weights on the recovered workers
        for key in ("rollout/reward_mean", "rollout/generated_tokens", "train/loss", "buffer/size"):
            assert a[key] == b[key], key
    for name, tensor in weights_ref.items():
        assert torch.equal(tensor, weights[name]), name


def assert_resumed_like(unbroken: list[dict[str, float]], resumed: list[dict[str, float]]) -> None:
    """The resumed steps equal the unbroken run's, bit for bit: the buffer's contents, the stream position and
    the weights generation lagged with all came across the checkpoint, and one loop took the same step."""
    for a, b in zip(unbroken, resumed, strict=True):
        for key in (
            "rollout/reward_mean",
            "rollout/generated_tokens",
            "buffer/size",
            "compute/unique_rollouts",
        ):
            assert a[key] == b[key], key
        assert a["train/loss"] == b["train/loss"], "the resumed step differs from the unbroken run's"


@pytest.mark.slow
def test_a_crashed_run_resumes_from_its_last_checkpoint(tmp_path: Path, ray_local) -> None:
    """T=2, sync_every=2: a run dies after step 3, the next one resumes at step 2 and ends like an unbroken run."""
    kwargs = {"steps": 4, "checkpoint_every": 2, "sync_every": 2}
    single = Trainer(tiny_config(tmp_path / "single", **kwargs))
    rows_single = single.fit()
    single.close()

    cfg = tiny_config(tmp_path / "ray", dist(learner_ranks=2), **kwargs)

    def crash(step: int, metrics: dict[str, float]) -> None:
        if step == 3:
            raise StopRun

    first = DistributedTrainer(cfg, on_step=crash)
    try:
        with pytest.raises(StopRun):
            first.fit()
    finally:
        first.close()
    assert (tmp_path / "ray" / "checkpoints" / "latest").read_text() == "step-000002"
    resumed = DistributedTrainer(cfg)
    try:
        rows = resumed.fit()
        weights = resumed.learners.all_weights()  # type: ignore[union-attr]
    finally:
        resumed.close()
    assert [r["step"] for r in rows] == [3, 4]
    assert_resumed_like(rows_single[2:], rows)
    assert rank_weights_agree(weights)
    for name, tensor in single.model.state_dict().items():
        assert torch.equal(weights[0][name], tensor), name
    csv_steps = [
        int(float(line.split(",")[0])) for line in (tmp_path / "ray" / "metrics.csv").read_text().split()[1:]
    ]
    assert csv_steps == [1, 2, 3, 4]


@pytest.mark.slow
@pytest.mark.parametrize("first_on_ray", [False, True], ids=["single-then-ray", "ray-then-single"])
def test_a_checkpoint_moves_between_runtimes(tmp_path: Path, ray_local, first_on_ray: bool) -> None:
    """One checkpoint format: a run stopped at step 3 (generation one version behind) in one runtime resumes
    in the other (sync, T=2) and ends bit for bit like the unbroken single-process run; the switch itself must
    be accepted explicitly."""
    kwargs = {"steps": 5, "checkpoint_every": 3, "sync_every": 2}
    unbroken = Trainer(tiny_config(tmp_path / "unbroken", **kwargs))
    rows_ref = unbroken.fit()
    unbroken.close()

    local = tiny_config(tmp_path / "run", **kwargs)
    on_ray = tiny_config(tmp_path / "run", dist(learner_ranks=2), **kwargs)
    before, after = (on_ray, local) if first_on_ray else (local, on_ray)
    first = Trainer(replace(before, train=replace(before.train, steps=3)))
    try:
        first.fit()
    finally:
        first.close()
    assert (tmp_path / "run" / "checkpoints" / "latest").read_text() == "step-000003"
    with pytest.raises(ConfigError, match="distributed"):  # a changed runtime is listed, not silently taken
        Trainer(after)
    resumed = Trainer(replace(after, train=replace(after.train, accept_changes=True)))
    try:
        rows = resumed.fit()
        weights = resumed.model.state_dict() if first_on_ray else resumed.learners.all_weights()[0]  # type: ignore[union-attr]
    finally:
        resumed.close()
    assert [r["step"] for r in rows] == [4, 5]
    assert_resumed_like(rows_ref[3:], rows)
    for name, tensor in unbroken.model.state_dict().items():
        assert torch.equal(weights[name], tensor), name


@pytest.mark.slow
def test_async_mode_trains_within_the_staleness_limit(tmp_path: Path, ray_local) -> None:
    """W=2 producing continuously, T=2 ranks on a sharded buffer, max_age=2: no trained rollout is older."""
    cfg = tiny_config(
        tmp_path / "async",
        dist(mode="async", rollout_workers=2, learner_ranks=2),
        BufferConfig(capacity=48, num_shards=2, staleness=StalenessConfig(max_age=2)),
        steps=8,
        sync_every=2,
    )
    trainer: DistributedTrainer

    def kill_a_worker(step: int, metrics: dict[str, float]) -> None:
        if step == 2:  # mid-produce: async workers are never idle
            actor = trainer.fleet.actors[1]  # type: ignore[union-attr]
            ray.kill(actor, no_restart=False)
            # hold the driver until Ray has restarted it, so its failed call is surely seen before the run
            # ends (the tiny model would otherwise finish the remaining steps on worker 0's rollouts alone)
            _pid_when_back(actor, "ping")

    trainer = DistributedTrainer(cfg, on_step=kill_a_worker)
    try:
        rows = trainer.fit()
        weights = trainer.learners.all_weights()  # type: ignore[union-attr]
    finally:
        trainer.close()
    assert [r["step"] for r in rows] == list(range(1, 9))
    assert rows[-1]["distributed/worker_failures"] >= 1, "the killed worker should have been recovered"
    assert rows[-1]["policy/version"] == 8
    assert max(r["train/age_max"] for r in rows) <= 2, "the buffer must never hand out older rollouts"
    assert all(r["buffer/shard/0/size"] > 0 and r["buffer/shard/1/size"] > 0 for r in rows)
    last = rows[-1]
    assert last["compute/trained_samples"] == 8 * 16
    assert last["compute/replay_ratio"] == pytest.approx(128 / last["compute/unique_rollouts"])
    assert np.isfinite(last["compute/mu"]) and np.isfinite(last["compute/mu_throughput"])
    assert rank_weights_agree(weights)
    initial, _ = build_model(ModelConfig(name="tiny"), seed=0)
    assert any(not torch.equal(v, weights[0][k]) for k, v in initial.state_dict().items())


@pytest.mark.slow
def test_vllm_rollout_worker_generates_and_reloads_weights_in_place(tmp_path: Path, ray_local) -> None:
    """backend=vllm: the engine runs inside the rollout actor and takes each sync as an in-place reload."""
    pytest.importorskip("vllm")
    cfg = tiny_config(tmp_path / "vllm", dist(rollout_cpus=0.5), steps=2)
    cfg = replace(
        cfg,
        rollout=replace(
            cfg.rollout, backend="vllm", backend_kwargs={"max_model_len": 256, "max_num_seqs": 16}
        ),
    )
    trainer = DistributedTrainer(cfg)
    try:
        rows = trainer.fit()
        fleet = trainer.fleet
        assert fleet is not None
        version = ray.get(fleet.actors[0].policy_version.remote())
        example = trainer.task[0]
        before = ray.get(fleet.actors[0].produce.remote(1, 99, [example]))[0]
        fleet.sync(ray.put(trainer.learners.all_weights()[0] | _scaled(trainer)), 99)  # type: ignore[union-attr]
        after = ray.get(fleet.actors[0].produce.remote(1, 99, [example]))[0]
    finally:
        trainer.close()
    assert [r["step"] for r in rows] == [1, 2] and version == 2
    assert rows[-1]["rollout/generated_tokens"] > 0
    assert {r.policy_version for r in after} == {99}
    # same prompt, step and sampling seed: only the reloaded weights can change the completions
    assert [r.completion_ids.tolist() for r in before] != [r.completion_ids.tolist() for r in after]


def _scaled(trainer: DistributedTrainer) -> dict[str, torch.Tensor]:
    """The learner's weights with the embeddings scaled up (a large, visible change)."""
    weights = trainer.learners.all_weights()[0]  # type: ignore[union-attr]
    return {k: v * 3.0 for k, v in weights.items() if "embed_tokens" in k}


def test_unplaceable_actors_fail_at_once_instead_of_waiting_forever(tmp_path: Path, ray_local) -> None:
    """Rollout workers that cannot all be placed are refused before any actor is created (issue 16.10); before,
    this call waited forever (pytest's timeout is what would catch a regression)."""
    with pytest.raises(
        ConfigError, match=r"need 6.5 CPUs together but the Ray cluster has 4 \(2 rollout x 3"
    ):
        DistributedTrainer(tiny_config(tmp_path / "big", dist(rollout_workers=2, rollout_cpus=3.0)))
