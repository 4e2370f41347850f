"""`DistributedTrainer`: the one driver that owns a Ray run (DESIGN rule 7), in sync or async mode.

The driver holds only the algorithm's state (step, policy version, the example stream, compute counters) and
object refs; rollouts travel worker -> object store -> buffer actor -> learner ranks without passing through
it. Workers expose a few coarse methods: `produce`, `load_weights`, `train_step`, `get_weights`, `save`/`load`.

Sync mode is the single-process `Trainer` step for step: draw P examples, split them across the W workers,
insert their rollouts (in worker order) into the buffer, take `updates_per_step` optimizer steps on batches
of B (split across the T ranks), sync weights every `sync_every` updates. With W=1 it reproduces the
single-process run (same rollouts, same batches, same updates up to float summation order).
Async mode lives in `async_loop.py`. Checkpoints use the single-process layout (learner/, buffer.pkl,
state.pkl), written atomically; a stopped run resumes from its newest one.
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
from rlvr.core.seeding import seed_everything
from rlvr.envs import make_env
from rlvr.train.build import ExampleStream
from rlvr.train.checkpoint import (
    capture_rng_state,
    latest_checkpoint,
    load_pickle,
    restore_rng_state,
    save_pickle,
    write_checkpoint,
)
from rlvr.train.config import DistributedConfig, RunConfig
from rlvr.train.configio import dump_config
from rlvr.train.distributed.buffer_actor import BufferActor
from rlvr.train.distributed.learners import LearnerGroup
from rlvr.train.distributed.rollout_workers import RolloutFleet, split_evenly
from rlvr.train.distributed.runtime import check_capacity, connect, import_modules, user_modules
from rlvr.train.loop import ComputeMeter
from rlvr.train.metrics import MetricsLogger, plot_metrics, progress_fields
from rlvr.train.rollouts import RolloutStats, VerifierErrorGuard
from rlvr.train.rundir import GracefulStop, prepare_run_dir

log = logging.getLogger("rlvr.train.distributed")

_BATCH_KEYS = ("batch_n", "batch_reward_sum", "batch_age_sum", "batch_age_max", "batch_relabeled_sum")


def merge_stats(parts: Sequence[RolloutStats]) -> RolloutStats:
    """One `RolloutStats` for several workers' rounds (times are summed: worker-seconds)."""
    out = RolloutStats()
    for s in parts:
        out.rollouts += s.rollouts
        out.prompts += s.prompts
        out.generated_tokens += s.generated_tokens
        out.generate_s += s.generate_s
        out.verify_s += s.verify_s
        out.rewards.extend(s.rewards)
        out.passed.extend(s.passed)
        out.lengths.extend(s.lengths)
        out.truncated += s.truncated
        for reason, count in s.reasons.items():
            out.reasons[reason] = out.reasons.get(reason, 0) + count
        out.first_error = out.first_error or s.first_error
    return out


def combine_rank_metrics(results: Sequence[dict[str, float]]) -> dict[str, float]:
    """Rank 0's (already global) learner metrics plus batch statistics summed over the ranks' slices."""
    metrics = {k: v for k, v in results[0].items() if k not in _BATCH_KEYS}
    n = max(1.0, sum(r["batch_n"] for r in results))
    metrics.update(
        reward_mean=sum(r["batch_reward_sum"] for r in results) / n,
        age_mean=sum(r["batch_age_sum"] for r in results) / n,
        age_max=max(r["batch_age_max"] for r in results),
        relabeled_frac=sum(r["batch_relabeled_sum"] for r in results) / n,
    )
    return metrics


class DistributedTrainer:
    """Owns a Ray run: builds the actors from a `RunConfig`, runs `fit()`, checkpoints and resumes."""

    def __init__(
        self,
        config: RunConfig,
        *,
        address: str | None = None,
        on_step: Callable[[int, dict[str, float]], None] | None = None,
    ) -> None:
        if config.distributed is None:
            config = dataclasses.replace(config, distributed=DistributedConfig(address=address))
        assert config.distributed is not None
        self.config = config
        self.d: DistributedConfig = config.distributed
        self.on_step = on_step
        self.out = Path(config.train.output_dir)
        prepare_run_dir(config)  # refuses to overwrite an earlier run or to resume it with other settings
        self.out.mkdir(parents=True, exist_ok=True)
        self.stop = GracefulStop()  # SIGTERM/SIGINT: finish the step, checkpoint, return
        self.stopped_by: int | None = None
        self.last_eval: dict[str, float] = {}
        self.error_guard = VerifierErrorGuard(config.env.max_verifier_error_rate)
        seed_everything(config.train.seed)
        import_modules(user_modules(config))
        self.verifier_pool: Any = None
        self.buffer: Any = None
        self.learners: LearnerGroup | None = None
        self.fleet: RolloutFleet | None = None
        self._owns_ray = connect(self.d, address)
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        dump_config(config, self.out / "config.yaml")

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
        self.stream = ExampleStream(self.task, cfg.train.seed)
        self.compute = ComputeMeter()
        self.step = 0
        self.version = 0  # optimizer steps taken = the learners' policy version
        self.weights: tuple[Any, int] | None = None  # latest weights for the rollout workers: (ref, version)
        self._pending = False  # `weights` not yet loaded by the workers (sync mode sends them lazily)

    # ----- weights -----
    def take_weights(self) -> None:
        """Snapshot rank 0's weights into the object store (once) as the workers' next weights."""
        assert self.learners is not None
        self.weights = (self.learners.weights_ref(), self.version)
        self._pending = True

    def push_weights(self) -> None:
        """Load the pending weights into every rollout worker and wait (recovering dead workers)."""
        assert self.fleet is not None
        if self._pending and self.weights is not None:
            self.fleet.sync(*self.weights)
            self._pending = False

    # ----- checkpoints -----
    def save_checkpoint(self) -> Path:
        """Learner (rank 0), buffer, RNG and loop state to output_dir/checkpoints/step-N (single-process layout)."""
        import ray

        assert self.learners is not None

        def write(d: Path) -> None:
            self.learners.save(d / "learner")  # type: ignore[union-attr]
            save_state(ray.get(self.buffer.state_dict.remote()), d / "buffer.pkl")
            backend_version = self.weights[1] if self.weights is not None else self.version
            state = {
                "step": self.step,
                "version": self.version,
                "backend_version": backend_version,
                "consumed": self.stream.consumed,
                "compute": self.compute.state_dict(),
                "rng": capture_rng_state(),
                "learner_rng": self.learners.rng_states(),  # type: ignore[union-attr]
                "distributed": {"mode": self.d.mode, "W": self.d.rollout_workers, "T": self.d.learner_ranks},
            }
            if self.weights is not None and backend_version != self.version:
                state["backend_weights"] = ray.get(self.weights[0])  # generation lags the learner: keep it
            save_pickle(state, d / "state.pkl")

        return write_checkpoint(
            self.out / "checkpoints", self.step, write, keep=self.config.train.keep_checkpoints
        )

    def load_checkpoint(self, path: str | Path) -> None:
        """Restore what `save_checkpoint` wrote; the rollout workers get the weights they had."""
        import ray

        assert self.learners is not None and self.fleet is not None
        path = Path(path)
        self.learners.load(path / "learner")
        ray.get(self.buffer.load_state_dict.remote(load_state(path / "buffer.pkl")))
        state = load_pickle(path / "state.pkl")
        self.step = int(state["step"])
        self.version = int(state["version"])
        self.stream = ExampleStream(self.task, self.config.train.seed, consumed=int(state["consumed"]))
        self.compute.load_state_dict(state["compute"])
        rng = state.get("learner_rng")
        if rng is not None and len(rng) == len(self.learners):
            self.learners.set_rng_states(rng)
        if "backend_weights" in state:
            self.weights = (ray.put(state["backend_weights"]), int(state["backend_version"]))
        else:
            self.weights = (self.learners.weights_ref(), self.version)
        self._pending = True
        self.push_weights()
        restore_rng_state(state["rng"])

    # ----- one sync-mode step -----
    def produce_round(self) -> tuple[int, RolloutStats]:
        """Generate this step's R rollouts on the W workers and insert them; returns (buffer size, stats)."""
        import ray

        assert self.fleet is not None
        examples = self.stream.take(self.config.rollout.prompts_per_step)
        self.push_weights()
        refs, stats = self.fleet.produce_all(split_evenly(examples, len(self.fleet)), self.step)
        size = ray.get(self.buffer.extend_many.remote(self.step, *refs))
        return int(size), merge_stats(stats)

    def sample_parts(self) -> list[Any]:
        """Refs to the T batch slices of the next optimizer step (all None when the buffer cannot give one)."""
        t = self.d.learner_ranks
        parts = self.buffer.sample_parts.options(num_returns=t).remote(
            self.config.train.batch_size, self.version, t, self.config.warmup
        )
        return [parts] if t == 1 else list(parts)

    def finish_update(self, results: list[dict[str, float]]) -> tuple[float, int, dict[str, float]]:
        """Account one optimizer step: bump the version, take weights every `sync_every`; (rank-s, samples, metrics)."""
        metrics = combine_rank_metrics(results)
        self.version += 1
        if self.version % self.config.train.sync_every == 0:
            self.take_weights()
        return sum(r["step_time_s"] for r in results), int(metrics["samples"]), metrics

    def update(self) -> tuple[float, int, dict[str, float]]:
        """Up to `updates_per_step` optimizer steps; returns (rank-seconds, samples trained, mean metrics)."""
        assert self.learners is not None
        seconds, samples, updates, sums, age_max = 0.0, 0, 0, {}, 0.0
        for _ in range(self.config.train.updates_per_step):
            results = self.learners.train(self.sample_parts())
            if results is None:
                break
            s, n, metrics = self.finish_update(results)
            seconds, samples, updates = seconds + s, samples + n, updates + 1
            age_max = max(age_max, metrics.pop("age_max"))
            for key, value in metrics.items():
                sums[key] = sums.get(key, 0.0) + value
        out = {f"train/{k}": v / updates for k, v in sums.items()}
        if updates:
            out["train/age_max"] = age_max
        return seconds, samples, out

    def evaluate(self) -> dict[str, float]:
        """Held-out accuracy of rollout worker 0's weights (as in the single-process trainer)."""
        assert self.fleet is not None
        if self.d.mode == "sync":
            self.push_weights()  # the single-process trainer evaluates right after syncing
        return self.fleet.call(0, "evaluate")

    # ----- the loop -----
    def step_metrics(
        self, rstats: RolloutStats, train_s: float, samples: int, step_start: float
    ) -> dict[str, float]:
        """The compute/buffer/time metrics of one logged step (after the rollout and train metrics)."""
        import ray

        self.error_guard.check(rstats)  # the step's verdicts, in sync and async mode alike
        assert self.fleet is not None
        self.compute.gen_s += rstats.generate_s
        self.compute.rollouts += rstats.rollouts
        self.compute.train_s += train_s
        self.compute.samples += samples
        self.compute.tokens += rstats.generated_tokens
        step_cost = self.compute.charge(rstats.rollouts, samples)
        elapsed = time.perf_counter() - step_start
        buffer = ray.get(self.buffer.metrics.remote())
        return {
            **{f"buffer/{k}": float(v) for k, v in buffer.items()},
            "compute/mu": self.compute.mu,
            "compute/step_cost": step_cost,
            "compute/total_cost": self.compute.cost,
            "compute/generated_tokens": float(self.compute.tokens),
            "compute/unique_rollouts": float(self.compute.rollouts),
            "compute/trained_samples": float(self.compute.samples),
            "compute/replay_ratio": self.compute.samples / max(1, self.compute.rollouts),
            "compute/train_s": train_s,
            "policy/version": float(self.version),
            "distributed/rollout_workers": float(len(self.fleet)),
            "distributed/learner_ranks": float(self.d.learner_ranks),
            "distributed/worker_failures": float(self.fleet.failures),
            "distributed/workers_recreated": float(self.fleet.recreated),
            "time/step_s": elapsed,
        }

    def fit(self) -> list[dict[str, float]]:
        """Run (or resume) training to `train.steps`; returns the logged rows of this call."""
        cfg = self.config
        resumed_from = latest_checkpoint(self.out / "checkpoints") if cfg.train.resume else None
        if resumed_from is not None:
            self.load_checkpoint(resumed_from)
            log.info("resumed from %s (step %d)", resumed_from, self.step)
        else:
            self.take_weights()  # every worker starts from rank 0's weights
            self.push_weights()
        logger = MetricsLogger(
            self.out,
            tensorboard=cfg.train.tensorboard,
            wandb_project=cfg.train.wandb_project,
            run_name=self.out.name,
            resume=resumed_from is not None,
        )
        if resumed_from is not None:
            logger.truncate(after_step=self.step)
        bar = _progress(cfg.train.steps, self.step, enabled=cfg.train.progress, mode=self.d.mode)
        self.stop.__enter__()
        try:
            if self.d.mode == "async":
                from rlvr.train.distributed.async_loop import fit_async

                rows = fit_async(self, logger, bar)
            else:
                rows = self._fit_sync(logger, bar)
        finally:
            self.stop.__exit__()
            self.stopped_by = self.stop.requested
            if bar is not None:
                bar.close()
            logger.close()
        if cfg.train.plot and logger.csv_path.exists():
            plot_metrics(
                logger.csv_path, self.out / "training.png", title=f"rlvr: {cfg.env.id} ({self.out.name})"
            )
        return rows

    def _fit_sync(self, logger: MetricsLogger, bar: Any) -> list[dict[str, float]]:
        rows: list[dict[str, float]] = []
        while self.step < self.config.train.steps and self.stop.requested is None:
            step_start = time.perf_counter()
            _, rstats = self.produce_round()
            train_s, samples, metrics = self.update()
            metrics.update(rstats.metrics())
            self.step += 1
            metrics.update(self.step_metrics(rstats, train_s, samples, step_start))
            rows.append(self.end_step(metrics, logger, bar))
        self.push_weights()  # leave the workers on the last synced weights, as the single-process trainer does
        return rows

    def end_step(self, metrics: dict[str, float], logger: MetricsLogger, bar: Any) -> dict[str, float]:
        """Evaluate if due, log, report, checkpoint if due; returns the logged row."""
        cfg = self.config
        if cfg.eval.every and (self.step % cfg.eval.every == 0 or self.step == cfg.train.steps):
            self.last_eval = self.evaluate()
            metrics.update(self.last_eval)
        logger.log(self.step, metrics)
        if self.on_step is not None:
            self.on_step(self.step, metrics)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(
                progress_fields(
                    metrics,
                    self.last_eval,
                    ratio=f"{metrics['compute/replay_ratio']:.2f}",
                    v=int(self.version),
                )
            )
        every = cfg.train.checkpoint_every
        if (
            (every and self.step % every == 0)
            or self.step == cfg.train.steps
            or self.stop.requested is not None
        ):
            self.save_checkpoint()
        if self.stop.requested is not None:
            log.warning("stopped at step %d; checkpoint saved, rerun the command to resume", self.step)
        return {"step": float(self.step), **metrics}

    def close(self) -> None:
        """Remove every actor (and stop the Ray instance this trainer started)."""
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


def _progress(total: int, start: int, *, enabled: bool, mode: str) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=start, desc=f"rlvr train (ray, {mode})", unit="step", dynamic_ncols=True)


def train_distributed(config: RunConfig, address: str | None = None) -> list[dict[str, float]]:
    """Build a `DistributedTrainer` for `config`, run it to the end and release it; returns the logged rows."""
    trainer = DistributedTrainer(config, address=address)
    try:
        return trainer.fit()
    finally:
        trainer.close()


def rank_weights_agree(weights: Sequence[dict[str, Any]]) -> bool:
    """Whether every rank's weights equal rank 0's exactly (the data-parallel invariant)."""
    first = weights[0]
    return all(
        set(w) == set(first) and all(np.array_equal(np.asarray(w[k]), np.asarray(first[k])) for k in first)
        for w in weights[1:]
    )
