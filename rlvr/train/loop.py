"""The single-process GRPO-with-replay loop: the reference the Ray runtime must match (DESIGN rule 7).

Each step: draw P prompts -> generate G completions each (behaviour log-probs, policy version) -> grade them
(verifier pool) -> freeze group advantages -> add the R = P x G rollouts to the replay buffer -> sample B ->
one optimizer step (x `updates_per_step`) -> sync weights to the generation backend every `sync_every`
updates. Compute is charged as in the paper: cost per step = B + mu R in units of one trained sample, with
mu = (generation seconds per rollout) / (training seconds per sample); `ComputeMeter` keeps the raw per-step
counts and recomputes every total with one mu (NaN until mu is measured), so no step is charged at a stale mu.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from rlvr.buffer import NotEnoughItems
from rlvr.core.seeding import derive_seed, seed_everything
from rlvr.train.build import (
    ExampleStream,
    build_backend,
    build_buffer,
    build_env,
    build_learner,
    build_model,
    evaluate_held_out,
)
from rlvr.train.checkpoint import (
    capture_rng_state,
    latest_checkpoint,
    load_pickle,
    restore_rng_state,
    save_pickle,
    write_checkpoint,
)
from rlvr.train.config import RunConfig
from rlvr.train.configio import dump_config
from rlvr.train.metrics import ComputeMeter, MetricsLogger, plot_metrics, progress_fields
from rlvr.train.plan import hint as plan_hint
from rlvr.train.rollouts import RolloutProducer, VerifierErrorGuard
from rlvr.train.rundir import GracefulStop, prepare_run_dir

log = logging.getLogger("rlvr.train")

# ComputeMeter lives in metrics; re-exported for the Ray driver
__all__ = ["ComputeMeter", "Trainer", "train"]
#: the step at which the run's measured mu is compared with Theorem 4.5's plan (`rlvr plan`)
PLAN_HINT_STEP = 10


class Trainer:
    """Owns the run: builds components from a `RunConfig`, runs `fit()`, checkpoints and resumes exactly."""

    def __init__(self, config: RunConfig, *, on_step: Callable[[int, dict[str, float]], None] | None = None):
        self.config = config
        self.on_step = on_step
        self.out = Path(config.train.output_dir)
        prepare_run_dir(config)  # refuses to overwrite an earlier run or to resume it with other settings
        self.out.mkdir(parents=True, exist_ok=True)
        seed_everything(config.train.seed)
        self.model, self.tokenizer = build_model(config.model, config.train.seed, cache_dir=self.out)
        self.learner = build_learner(config, self.model, self.tokenizer)
        self.env = build_env(config)
        self.buffer = build_buffer(config, self.env, self.tokenizer)
        self.backend = build_backend(config, self.model, self.tokenizer)
        self.producer = RolloutProducer(
            self.env,
            self.backend,
            config.rollout.sampling(seed=derive_seed(config.train.seed, "sampling")),
            advantage=config.rollout.advantage,
            keep_example=config.buffer.hindsight is not None,
        )
        self.stream = ExampleStream(self.env.task, config.train.seed)
        self.compute = ComputeMeter()
        self.step = 0
        self.stopped_by: int | None = None  # the signal that stopped the last fit(), if any
        self.error_guard = VerifierErrorGuard(config.env.max_verifier_error_rate)
        self.version = 0  # optimizer steps taken = the learner's policy version
        self._synced_state: dict[str, torch.Tensor] | None = None
        self._eval: list[Any] = []  # held-out env and examples, built at the first evaluation
        dump_config(config, self.out / "config.yaml")

    # ----- checkpoints -----
    def save_checkpoint(self) -> Path:
        """Write model, optimizer, buffer, RNG and loop state to output_dir/checkpoints/step-N."""

        def write(d: Path) -> None:
            self.learner.save(d / "learner")
            self.buffer.save(d / "buffer.pkl")
            state = {
                "step": self.step,
                "version": self.version,
                "backend_version": int(self.backend.policy_version),
                "consumed": self.stream.consumed,
                "compute": self.compute.state_dict(),
                "rng": capture_rng_state(),
            }
            if self._synced_state is not None and self.backend.policy_version != self.version:
                state["backend_weights"] = self._synced_state  # generation lags the learner: keep its weights
            save_pickle(state, d / "state.pkl")

        return write_checkpoint(
            self.out / "checkpoints", self.step, write, keep=self.config.train.keep_checkpoints
        )

    def load_checkpoint(self, path: str | Path) -> None:
        """Restore everything `save_checkpoint` wrote, so the run continues exactly as if never stopped."""
        path = Path(path)
        self.learner.load(path / "learner")
        self.buffer.load(path / "buffer.pkl")
        state = load_pickle(path / "state.pkl")
        self.step = int(state["step"])
        self.version = int(state["version"])
        self.stream = ExampleStream(self.env.task, self.config.train.seed, consumed=int(state["consumed"]))
        self.compute.load_state_dict(state["compute"])
        weights = state.get("backend_weights") or self.learner.state_dict()
        self.backend.load_weights(weights, int(state["backend_version"]))
        if "backend_weights" in state:
            self._synced_state = state["backend_weights"]
        restore_rng_state(state["rng"])

    # ----- the loop -----
    def _sync(self) -> None:
        state = self.learner.state_dict()
        if self.config.train.sync_every > 1:  # keep what generation runs on, for an exact resume
            self._synced_state = {k: v.detach().clone().cpu() for k, v in state.items()}
        self.backend.load_weights(state, self.version)

    def _update(self) -> tuple[float, int, dict[str, float]]:
        """Take up to `updates_per_step` optimizer steps; returns (seconds, samples trained, mean metrics)."""
        cfg = self.config
        seconds, samples, updates, sums = 0.0, 0, 0, {}
        for _ in range(cfg.train.updates_per_step):
            if len(self.buffer) < cfg.warmup:
                break
            try:
                batch = self.buffer.sample(cfg.train.batch_size, self.version, policy_version=self.version)
            except NotEnoughItems:
                break
            t0 = time.perf_counter()
            metrics = self.learner.train_step(batch.rollouts, batch.weights)
            seconds += time.perf_counter() - t0
            samples += len(batch.rollouts)
            updates += 1
            self.version += 1
            metrics.update(
                reward_mean=float(np.mean([r.reward for r in batch.rollouts])),
                age_mean=float(np.mean(batch.ages)),
                relabeled_frac=float(np.mean([r.relabeled for r in batch.rollouts])),
            )
            for key, value in metrics.items():
                sums[key] = sums.get(key, 0.0) + value
            if self.version % cfg.train.sync_every == 0:
                self._sync()
        return seconds, samples, {f"train/{k}": v / updates for k, v in sums.items()}

    def evaluate(self) -> dict[str, float]:
        """Held-out accuracy of the generation backend's current weights on a fixed seeded example set."""
        return evaluate_held_out(self.config, self.backend, self.env.task, self.env.pool, self._eval)

    def fit(self) -> list[dict[str, float]]:
        """Run (or resume) training to `train.steps`; returns the logged rows of this call."""
        cfg = self.config
        resumed_from = latest_checkpoint(self.out / "checkpoints") if cfg.train.resume else None
        if resumed_from is not None:
            self.load_checkpoint(resumed_from)
            log.info("resumed from %s (step %d)", resumed_from, self.step)
        logger = MetricsLogger(
            self.out,
            tensorboard=cfg.train.tensorboard,
            wandb_project=cfg.train.wandb_project,
            run_name=self.out.name,
            resume=resumed_from is not None,
        )
        if resumed_from is not None:
            logger.truncate(after_step=self.step)
        rows: list[dict[str, float]] = []
        bar = _progress(cfg.train.steps, self.step, enabled=cfg.train.progress)
        R, P = cfg.rollout.rollouts_per_step, cfg.rollout.prompts_per_step
        stop = GracefulStop().__enter__()  # SIGTERM/SIGINT: finish the step, checkpoint, return
        last_eval: dict[str, float] = {}  # the console keeps showing the latest held-out result
        try:
            while self.step < cfg.train.steps:
                step_start = time.perf_counter()
                rollouts, rstats = self.producer.produce(P, self.step, examples=self.stream.take(P))
                self.error_guard.check(rstats)
                self.buffer.extend(rollouts, self.step)
                train_s, samples, metrics = self._update()
                metrics.update(rstats.metrics())
                self.compute.gen_s += rstats.generate_s
                self.compute.rollouts += len(rollouts)
                self.compute.train_s += train_s
                self.compute.samples += samples
                self.compute.tokens += rstats.generated_tokens
                step_cost = self.compute.charge(len(rollouts), samples)
                self.step += 1
                metrics.update(
                    {f"buffer/{k}": float(v) for k, v in self.buffer.metrics().items()},
                    **{
                        "compute/mu": self.compute.mu,
                        "compute/step_cost": step_cost,
                        "compute/total_cost": self.compute.cost,
                        "compute/generated_tokens": float(self.compute.tokens),
                        "compute/unique_rollouts": float(self.compute.rollouts),
                        "compute/trained_samples": float(self.compute.samples),
                        "compute/train_s": train_s,
                        "policy/version": float(self.version),
                        "time/step_s": time.perf_counter() - step_start,
                    },
                )
                if cfg.eval.every and (self.step % cfg.eval.every == 0 or self.step == cfg.train.steps):
                    last_eval = self.evaluate()
                    metrics.update(last_eval)
                if self.step == min(PLAN_HINT_STEP, cfg.train.steps):  # mu has settled a little by now
                    message = plan_hint(self.compute.mu, R, cfg.train.batch_size, cfg.buffer.capacity)
                    if message:
                        log.info(message)
                logger.log(self.step, metrics)
                rows.append({"step": float(self.step), **metrics})
                if self.on_step is not None:
                    self.on_step(self.step, metrics)
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(progress_fields(metrics, last_eval, R=R, buf=len(self.buffer)))
                every = cfg.train.checkpoint_every
                if (
                    (every and self.step % every == 0)
                    or self.step == cfg.train.steps
                    or stop.requested is not None
                ):
                    self.save_checkpoint()
                if stop.requested is not None:
                    log.warning(
                        "stopped at step %d; checkpoint saved, rerun the command to resume", self.step
                    )
                    break
        finally:
            stop.__exit__()
            self.stopped_by = stop.requested
            if bar is not None:
                bar.close()
            logger.close()
        if cfg.train.plot and logger.csv_path.exists():
            plot_metrics(
                logger.csv_path, self.out / "training.png", title=f"rlvr: {cfg.env.id} ({self.out.name})"
            )
        return rows

    def close(self) -> None:
        """Release the backend, envs and verifier pool."""
        self.backend.close()
        self.env.close()


def _progress(total: int, start: int, *, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=start, desc="rlvr train", unit="step", dynamic_ncols=True)


def train(config: RunConfig) -> list[dict[str, float]]:
    """Build a `Trainer` for `config`, run it to the end and release it; returns the logged rows."""
    trainer = Trainer(config)
    try:
        return trainer.fit()
    finally:
        trainer.close()
