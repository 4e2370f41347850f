"""`RayRuntime`: the Ray side of the one training loop (`rlvr.train.loop.Trainer`), in sync or async mode.

The runtime holds object refs and actor handles only; rollouts travel worker -> object store -> buffer
actor -> learner ranks without passing through the driver. Workers expose a few coarse methods: `produce`,
`load_weights`, `train_step`, `get_weights`, `save`/`load` (DESIGN rule 7).

Sync mode is the single-process step for step: P examples split across the W workers, their rollouts
inserted (in worker order) as one insertion, `updates_per_step` optimizer steps on batches of B cut into T
rank slices in the learner's micro-batch order, weights synced every `sync_every` updates (sent lazily, before
the next produce). With W=1 it reproduces the single-process run, with T=2 and one micro-batch per rank bit for
bit (tests/test_distributed.py). Async mode only schedules differently (`async_loop.AsyncProduction`): every
worker always has one produce call in flight that pushes straight into the buffer, and weights are sent as
soon as they are taken (each worker loads them after its current call). Checkpoints are the loop's one layout.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rlvr.buffer.replay import load_state, save_state
from rlvr.envs import make_env
from rlvr.train.build import ExampleStream
from rlvr.train.config import DistributedConfig, RunConfig
from rlvr.train.distributed.async_loop import AsyncProduction, throughput_mu
from rlvr.train.distributed.buffer_actor import BufferActor
from rlvr.train.distributed.learners import LearnerGroup
from rlvr.train.distributed.rollout_workers import RolloutFleet, merge_stats, split_evenly
from rlvr.train.distributed.runtime import check_capacity, connect, import_modules, user_modules
from rlvr.train.loop import Trainer, combine_batch_metrics
from rlvr.train.loop import train as train_loop
from rlvr.train.rollouts import RolloutStats

log = logging.getLogger("rlvr.train.distributed")


class RayRuntime:
    """Rollout fleet, buffer actor, learner group (and optional verifier actors) behind the loop's protocol."""

    def __init__(self, config: RunConfig, out: Path, address: str | None = None) -> None:
        assert config.distributed is not None
        self.config = config
        self.d: DistributedConfig = config.distributed
        self.out = out
        import_modules(user_modules(config))
        self.verifier_pool: Any = None
        self.buffer: Any = None
        self.learners: LearnerGroup | None = None
        self.fleet: RolloutFleet | None = None
        self.production: AsyncProduction | None = None
        self.stream: ExampleStream | None = None
        self.version = 0  # the learners' policy version
        self.weights: tuple[Any, int] | None = None  # latest weights for the rollout workers: (ref, version)
        self._pending = False  # `weights` not yet loaded by the workers (sync mode sends them lazily)
        self._owns_ray = connect(self.d, address)
        try:
            self._build()
        except BaseException:
            self.close()
            raise

    def _build(self) -> None:
        import ray

        cfg, d = self.config, self.d
        check_capacity(d)  # before any actor exists: an unplaceable one would be waited for forever
        probe = make_env(cfg.env.id, **cfg.env.kwargs)  # the driver owns the example stream
        self.task = probe.task
        if d.verifier_actors:
            from rlvr.verifiers.ray_pool import RayVerifierPool

            self.verifier_pool = RayVerifierPool(
                probe.verifier,
                d.verifier_actors,
                workers_per_actor=max(1, cfg.env.verifier_workers),
                timeout_s=cfg.env.verifier_timeout_s,
                num_cpus=d.verifier_cpus,
                max_restarts=d.max_restarts,
                setup_modules=user_modules(cfg),
            )
        probe.close()
        self.buffer = ray.remote(BufferActor).options(num_cpus=d.buffer_cpus).remote(cfg)
        self.learners = LearnerGroup(cfg, self.out)
        self.fleet = RolloutFleet(cfg, self.verifier_pool)  # all actors are now building in parallel
        self.learners.start()
        self.fleet.wait_ready()
        ray.get(self.buffer.size.remote())

    # ----- weights -----
    def _push_weights(self) -> None:
        """Load the pending weights into every rollout worker and wait (recovering dead workers)."""
        assert self.fleet is not None
        if self._pending and self.weights is not None:
            self.fleet.sync(*self.weights)
            self._pending = False

    def sync_weights(self, version: int) -> None:
        """Snapshot rank 0's weights into the object store once; async sends them now, sync before producing."""
        assert self.learners is not None and self.fleet is not None
        self.weights = (self.learners.weights_ref(), version)
        self._pending = True
        if self.production is not None:
            self.fleet.send_weights(*self.weights)  # each worker loads them after its current call
            self._pending = False

    # ----- the protocol -----
    def start(self, stream: ExampleStream, version: int) -> None:
        """Fresh run: every worker starts from rank 0's weights; async: one produce call per worker in flight."""
        assert self.fleet is not None
        self.stream, self.version = stream, version
        if self.weights is None:
            self.sync_weights(version)
        self._push_weights()
        if self.d.mode == "async":
            shares = [
                len(p) for p in split_evenly(range(self.config.rollout.prompts_per_step), len(self.fleet))
            ]
            self.production = AsyncProduction(self.fleet, self.buffer, stream, shares)
            self.production.start(version)
            self._trained, self._version0, self._wall0 = 0, version, time.perf_counter()

    def produce(self, step: int) -> tuple[Any, RolloutStats]:
        """Sync: this step's rollouts from the W workers (refs) and stats; async: the step's statistics, which
        fill while it trains (calls in flight push into the buffer themselves)."""
        if self.production is not None:
            return None, self.production.open_step(self.version)
        assert self.fleet is not None and self.stream is not None
        examples = self.stream.take(self.config.rollout.prompts_per_step)
        self._push_weights()
        refs, stats = self.fleet.produce_all(split_evenly(examples, len(self.fleet)), step)
        return refs, merge_stats(stats)

    def extend(self, rollouts: Any, step: int) -> None:
        """Sync: insert the workers' rollouts in worker order, as one insertion; async workers insert themselves."""
        import ray

        if rollouts is not None:
            ray.get(self.buffer.extend_many.remote(step, *rollouts))

    def _sample_parts(self, version: int) -> list[Any]:
        """Refs to the T batch slices of the next optimizer step (all None when the buffer cannot give one)."""
        t = self.d.learner_ranks
        parts = self.buffer.sample_parts.options(num_returns=t).remote(
            self.config.train.batch_size, version, t, self.config.warmup
        )
        return [parts] if t == 1 else list(parts)

    def train(self, version: int) -> dict[str, float] | None:
        """One data-parallel optimizer step on a batch sampled at `version` (async: waits for a batch)."""
        assert self.learners is not None
        learners = self.learners
        results: list[dict[str, float]] | None
        if self.production is not None:
            results = self.production.train(lambda: learners.submit(self._sample_parts(version)), version)
        else:
            results = learners.train(self._sample_parts(version))
        if results is None:
            return None
        self.version = version + 1
        metrics = combine_batch_metrics(results)
        if self.production is not None:
            self._trained += int(metrics["samples"])
        return metrics

    def evaluate(self, config: RunConfig) -> dict[str, float]:
        """Held-out accuracy of rollout worker 0's weights (sync: right after the pending weights are loaded)."""
        assert self.fleet is not None
        if self.production is None:
            self._push_weights()
        return self.fleet.call(0, "evaluate", config)

    def metrics(self) -> dict[str, float]:
        """Buffer and fleet metrics; in async mode also the in-flight calls, worker lag and throughputs."""
        import ray

        assert self.fleet is not None and self.learners is not None
        out = {f"buffer/{k}": float(v) for k, v in ray.get(self.buffer.metrics.remote()).items()}
        out.update(
            {
                "distributed/rollout_workers": float(len(self.fleet)),
                "distributed/learner_ranks": float(self.d.learner_ranks),
                "distributed/worker_failures": float(self.fleet.failures),
                "distributed/workers_recreated": float(self.fleet.recreated),
            }
        )
        if self.production is not None:
            wall = time.perf_counter() - self._wall0
            rollouts = self.production.rollouts
            rate = (lambda n: n / wall) if wall > 0 else (lambda n: 0.0)
            out.update(
                {
                    "async/in_flight": float(len(self.production.in_flight)),
                    "async/worker_lag_max": float(self.version - min(self.fleet.versions)),
                    "compute/mu_throughput": throughput_mu(
                        self._trained, rollouts, len(self.learners), len(self.fleet)
                    ),
                    "time/samples_per_s": rate(self._trained),
                    "time/rollouts_per_s": rate(rollouts),
                    "time/updates_per_s": rate(self.version - self._version0),
                }
            )
        return out

    def finish(self) -> None:
        """Sync mode: leave the workers on the last synced weights, as the single-process loop does."""
        if self.production is None:
            self._push_weights()

    def state_dict(self, directory: Path) -> dict[str, Any]:
        """Learner (rank 0) and buffer into `directory`; generation's weights version, the ranks' RNG states."""
        import ray

        assert self.learners is not None
        self.learners.save(directory / "learner")
        save_state(ray.get(self.buffer.state_dict.remote()), directory / "buffer.pkl")
        backend_version = self.weights[1] if self.weights is not None else self.version
        state: dict[str, Any] = {
            "backend_version": backend_version,
            "learner_rng": self.learners.rng_states(),
            "distributed": {"mode": self.d.mode, "W": self.d.rollout_workers, "T": self.d.learner_ranks},
        }
        if self.weights is not None and backend_version != self.version:
            state["backend_weights"] = ray.get(self.weights[0])  # generation lags the learner: keep it
        return state

    def load_state_dict(self, state: dict[str, Any], directory: Path) -> None:
        """Restore learner ranks, buffer and RNG states; the rollout workers get the weights they had."""
        import ray

        assert self.learners is not None and self.fleet is not None
        self.learners.load(directory / "learner")
        ray.get(self.buffer.load_state_dict.remote(load_state(directory / "buffer.pkl")))
        self.version = int(state["version"])
        rng = state.get("learner_rng")
        if rng is not None and len(rng) == len(self.learners):
            self.learners.set_rng_states(rng)
        if "backend_weights" in state:
            self.weights = (ray.put(state["backend_weights"]), int(state["backend_version"]))
        else:
            self.weights = (self.learners.weights_ref(), self.version)
        self._pending = True
        self._push_weights()

    def close(self) -> None:
        """Remove every actor (and stop the Ray instance this runtime started)."""
        import ray

        for part in (self.fleet, self.learners, self.verifier_pool):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing must go on: the other actors still need removing
                    log.exception("closing %s failed", type(part).__name__)
        if self.buffer is not None:
            try:
                ray.kill(self.buffer, no_restart=True)
            except Exception:
                log.exception("removing the buffer actor failed")
        self.fleet = self.learners = self.verifier_pool = self.buffer = None
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()
            self._owns_ray = False


class DistributedTrainer(Trainer):
    """The loop's `Trainer` on the Ray runtime (a local Ray, or the cluster at `address`)."""

    def __init__(
        self,
        config: RunConfig,
        *,
        address: str | None = None,
        on_step: Callable[[int, dict[str, float]], None] | None = None,
    ) -> None:
        if config.distributed is None:
            config = dataclasses.replace(config, distributed=DistributedConfig(address=address))
        super().__init__(config, on_step=on_step, address=address)


def train_distributed(config: RunConfig, address: str | None = None) -> list[dict[str, float]]:
    """Train `config` on the Ray runtime to the end and release it; returns the logged rows."""
    if config.distributed is None:
        config = dataclasses.replace(config, distributed=DistributedConfig(address=address))
    return train_loop(config, address=address)


def rank_weights_agree(weights: Sequence[dict[str, Any]]) -> bool:
    """Whether every rank's weights equal rank 0's exactly (the data-parallel invariant)."""
    first = weights[0]
    return all(
        set(w) == set(first) and all(np.array_equal(np.asarray(w[k]), np.asarray(first[k])) for k in first)
        for w in weights[1:]
    )
