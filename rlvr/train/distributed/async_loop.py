"""Async mode (the paper's setting): rollout workers produce without pause, the learners sample the buffer.

Every worker always has one `produce_into(buffer, ...)` call in flight: it generates its share of the step's
prompts with whatever weights it holds and pushes the rollouts straight into the buffer actor. Meanwhile the
learner ranks take optimizer steps on batches drawn from the buffer. The driver reacts to whichever finishes
first (`ray.wait`):

* a worker's call finished -> account its statistics and give it the next prompts, after loading the newest
  weights if it holds older ones;
* an optimizer step finished -> version + 1; every `sync_every` versions rank 0's weights go into the object
  store once and every worker loads them after its current call (weights never change mid-rollout);
* the buffer had no batch (warm-up, or everything older than `buffer.staleness.max_age` was evicted) -> the
  learners wait for the next rollouts.

Staleness is bounded twice: workers are re-synced every `sync_every` <= max_age versions, and the buffer evicts
anything older than `max_age` versions before drawing, so no trained rollout is older than max_age.
A logged step is `updates_per_step` optimizer steps. The replay ratio (trained samples / unique rollouts) is
not set but measured, with mu both as time per rollout over time per trained sample (device-seconds, as in the
single-process loop) and as the paper's throughput ratio (K_train / T) / (K_inf / W).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rlvr.train.distributed.driver import merge_stats
from rlvr.train.distributed.rollout_workers import WeightsOutOfSync, split_evenly
from rlvr.train.metrics import MetricsLogger
from rlvr.train.rollouts import RolloutStats

if TYPE_CHECKING:
    from rlvr.train.distributed.driver import DistributedTrainer


def fit_async(trainer: DistributedTrainer, logger: MetricsLogger, bar: Any) -> list[dict[str, float]]:
    """Run async training until `train.steps` logged steps; returns the logged rows of this call."""
    import ray
    from ray.exceptions import RayActorError

    cfg, fleet, learners = trainer.config, trainer.fleet, trainer.learners
    assert fleet is not None and learners is not None
    shares = [len(part) for part in split_evenly(range(cfg.rollout.prompts_per_step), len(fleet))]
    total_updates = cfg.train.steps * cfg.train.updates_per_step
    in_flight: dict[Any, tuple[int, int, list[Any]]] = {}  # future -> (rank, step tag, examples)

    def dispatch(rank: int, tag: int | None = None, examples: list[Any] | None = None) -> None:
        if trainer.weights is not None and fleet.versions[rank] < trainer.weights[1]:
            fleet.send_weights(*trainer.weights, ranks=[rank])  # queued before the produce call
        if examples is None:
            examples = trainer.stream.take(shares[rank])
            tag = trainer.version
        assert tag is not None
        future = fleet.actors[rank].produce_into.remote(
            trainer.buffer, len(examples), tag, examples, fleet.versions[rank]
        )
        in_flight[future] = (rank, tag, examples)

    start_version = trainer.version
    wall0 = time.perf_counter()
    rows: list[dict[str, float]] = []
    step_start = time.perf_counter()
    produced: list[RolloutStats] = []
    train_s, samples, updates, sums, age_max = 0.0, 0, 0, {}, 0.0
    totals = {"rollouts": 0, "samples": 0}
    starving = False  # the buffer had no batch: wait for new rollouts before asking again
    training: list[Any] = []
    for rank in range(len(fleet)):
        dispatch(rank)
    while trainer.version < total_updates:
        if not training and not starving:
            training = learners.submit(trainer.sample_parts())
        ready, _ = ray.wait([*in_flight, *training], num_returns=1)
        if ready[0] in in_flight:
            rank, tag, examples = in_flight.pop(ready[0])
            try:
                stats: RolloutStats = ray.get(ready[0])
            except (RayActorError, WeightsOutOfSync) as exc:
                fleet.recover(rank, exc)  # restarted or replaced, weights re-synced
                dispatch(rank, tag, examples)  # the same prompts again
                continue
            produced.append(stats)
            totals["rollouts"] += stats.rollouts
            starving = False
            dispatch(rank)
            continue
        results = ray.get(training)
        training = []
        if any(r is None for r in results):
            starving = True
            continue
        s, n, metrics = trainer.finish_update(results)  # takes weights every sync_every versions
        if trainer.weights is not None and trainer.weights[1] == trainer.version:
            fleet.send_weights(*trainer.weights)  # each worker loads them after its current call
            trainer._pending = False
        train_s, samples, updates = train_s + s, samples + n, updates + 1
        totals["samples"] += n
        age_max = max(age_max, metrics.pop("age_max"))
        for key, value in metrics.items():
            sums[key] = sums.get(key, 0.0) + value
        if trainer.version % cfg.train.updates_per_step:
            continue
        rstats = merge_stats(produced)
        metrics = {f"train/{k}": v / updates for k, v in sums.items()}
        metrics["train/age_max"] = age_max
        metrics.update(rstats.metrics())
        trainer.step += 1
        metrics.update(trainer.step_metrics(rstats, train_s, samples, step_start))
        wall = time.perf_counter() - wall0
        done = trainer.version - start_version
        metrics.update(
            {
                "async/in_flight": float(len(in_flight)),
                "async/worker_lag_max": float(trainer.version - min(fleet.versions)),
                "compute/mu_throughput": _throughput_mu(
                    totals["samples"], totals["rollouts"], len(learners), len(fleet)
                ),
                "time/samples_per_s": totals["samples"] / wall if wall > 0 else 0.0,
                "time/rollouts_per_s": totals["rollouts"] / wall if wall > 0 else 0.0,
                "time/updates_per_s": done / wall if wall > 0 else 0.0,
            }
        )
        rows.append(trainer.end_step(metrics, logger, bar))
        if trainer.stop.requested is not None:  # end_step has saved a checkpoint
            break
        step_start = time.perf_counter()
        produced, train_s, samples, updates, sums, age_max = [], 0.0, 0, 0, {}, 0.0
    return rows  # calls still in flight end with the actors (the checkpoint is already written)


def _throughput_mu(trained: int, unique: int, learner_ranks: int, workers: int) -> float:
    """The paper's mu = (K_train / T) / (K_inf / W) over the same wall-clock time (NaN before both are seen)."""
    if not trained or not unique:
        return float("nan")
    return (trained / learner_ranks) / (unique / workers)
