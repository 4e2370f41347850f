"""The one GRPO-with-replay training loop (DESIGN rule 7), written against a small runtime protocol.

Each step: produce R = P x G rollouts (behaviour log-probs, policy version, frozen group advantages) -> add
them to the replay buffer -> `updates_per_step` x (sample B -> one optimizer step) -> sync weights to
generation every `sync_every` updates -> metrics, held-out evaluation and checkpoint on schedule. Where the
parts live is the runtime's business: `LocalRuntime` (below) holds them in this process; `RayRuntime`
(`rlvr.train.distributed.driver`) holds a rollout fleet, a buffer actor and a data-parallel learner group,
and its async mode is only a scheduling choice (produce calls stay in flight while the learners train).

Compute is charged as in the paper: cost per step = B + mu R in units of one trained sample, with
mu = (generation seconds per rollout) / (training seconds per sample); `ComputeMeter` keeps the raw per-step
counts and recomputes every total with one mu (NaN until mu is measured), so no step is charged at a stale mu.
Checkpoints have one layout for both runtimes: learner/, buffer.pkl and state.pkl (loop state + runtime state).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch

from rlvr.buffer import NotEnoughItems
from rlvr.core.seeding import derive_seed, seed_everything
from rlvr.core.types import Rollout
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
from rlvr.train.rollouts import RolloutProducer, RolloutStats, VerifierErrorGuard
from rlvr.train.rundir import GracefulStop, prepare_run_dir

log = logging.getLogger("rlvr.train")

__all__ = ["ComputeMeter", "LocalRuntime", "Runtime", "Trainer", "batch_metrics", "train"]
#: the step at which the run's measured mu is compared with Theorem 4.5's plan (`rlvr plan`)
PLAN_HINT_STEP = 10


class Runtime(Protocol):
    """Where rollouts are produced, stored and trained on; the loop only says when."""

    task: Any
    """The training task (the loop's `ExampleStream` draws from it)."""

    def start(self, stream: ExampleStream, version: int) -> None:
        """Begin a `fit`: examples come from `stream`; generation holds (or is given) weights of `version`."""
        ...

    def produce(self, step: int) -> tuple[Any, RolloutStats]:
        """This step's rollouts (or a handle to them) and their statistics (read after the step's training)."""
        ...

    def extend(self, rollouts: Any, step: int) -> None:
        """Insert what `produce` returned into the replay buffer."""
        ...

    def train(self, version: int) -> dict[str, float] | None:
        """Sample a batch at policy `version` and take one optimizer step; None when no batch can be drawn.

        The metrics include `device_s` (seconds of training compute, summed over ranks), `samples`,
        `reward_mean`, `age_mean`, `age_max` and `relabeled_frac` of the trained batch.
        """
        ...

    def sync_weights(self, version: int) -> None:
        """Give generation the learner's weights (now `version`)."""
        ...

    def evaluate(self, config: RunConfig) -> dict[str, float]:
        """Held-out `eval/*` metrics of the weights generation holds."""
        ...

    def metrics(self) -> dict[str, float]:
        """Per-step runtime metrics (buffer/*, and distributed/* or async/* where they apply)."""
        ...

    def finish(self) -> None:
        """End of a completed `fit` (leave generation on the last synced weights)."""
        ...

    def state_dict(self, directory: Path) -> dict[str, Any]:
        """Write learner/ and buffer.pkl into `directory`; returns the small state that goes into state.pkl."""
        ...

    def load_state_dict(self, state: dict[str, Any], directory: Path) -> None:
        """Restore what `state_dict` wrote (and `state` holds)."""
        ...

    def close(self) -> None:
        """Release every part."""
        ...


def batch_metrics(rollouts: Sequence[Rollout], ages: Any) -> dict[str, float]:
    """Sums over a trained batch (or one rank's slice of it): n, reward, age, relabeled; and the largest age."""
    ages = np.asarray(ages)
    return {
        "batch_n": float(len(rollouts)),
        "batch_reward_sum": float(sum(r.reward for r in rollouts)),
        "batch_age_sum": float(np.sum(ages)),
        "batch_age_max": float(np.max(ages)) if len(ages) else 0.0,
        "batch_relabeled_sum": float(sum(r.relabeled for r in rollouts)),
    }


def combine_batch_metrics(results: Sequence[dict[str, float]]) -> dict[str, float]:
    """The first result's learner metrics (global already) plus batch statistics over all parts."""
    metrics = {k: v for k, v in results[0].items() if not k.startswith("batch_") and k != "step_time_s"}
    n = max(1.0, sum(r["batch_n"] for r in results))
    metrics.update(
        reward_mean=sum(r["batch_reward_sum"] for r in results) / n,
        age_mean=sum(r["batch_age_sum"] for r in results) / n,
        age_max=max(r["batch_age_max"] for r in results),
        relabeled_frac=sum(r["batch_relabeled_sum"] for r in results) / n,
        step_time_s=results[0]["step_time_s"],
        device_s=sum(r["step_time_s"] for r in results),
    )
    return metrics


class LocalRuntime:
    """Every part in this process: one model shared by the learner and the HF generation backend."""

    def __init__(self, config: RunConfig, out: Path) -> None:
        self.config = config
        self.model, self.tokenizer = build_model(config.model, config.train.seed, cache_dir=out)
        self.learner = build_learner(config, self.model, self.tokenizer)
        self.env = build_env(config)
        self.task = self.env.task
        self.buffer = build_buffer(config, self.env, self.tokenizer)
        self.backend = build_backend(config, self.model, self.tokenizer)
        self.producer = RolloutProducer(
            self.env,
            self.backend,
            config.rollout.sampling(seed=derive_seed(config.train.seed, "sampling")),
            advantage=config.rollout.advantage,
            keep_example=config.buffer.hindsight is not None,
        )
        self.version = 0
        self.stream: ExampleStream | None = None
        self._synced_state: dict[str, torch.Tensor] | None = None
        self._eval: list[Any] = []  # held-out env and examples, built at the first evaluation

    def start(self, stream: ExampleStream, version: int) -> None:
        """Remember the example stream (the backend already holds the right weights)."""
        self.stream, self.version = stream, version

    def produce(self, step: int) -> tuple[list[Rollout], RolloutStats]:
        """P x G graded rollouts from the next P examples."""
        assert self.stream is not None, "call start() first"
        P = self.config.rollout.prompts_per_step
        return self.producer.produce(P, step, examples=self.stream.take(P))

    def extend(self, rollouts: list[Rollout], step: int) -> None:
        """Insert into the buffer."""
        self.buffer.extend(rollouts, step)

    def train(self, version: int) -> dict[str, float] | None:
        """Sample B at policy `version` (None in warm-up or when the buffer cannot give B) and step once."""
        cfg = self.config
        if len(self.buffer) < cfg.warmup:
            return None
        try:
            batch = self.buffer.sample(cfg.train.batch_size, version, policy_version=version)  # type: ignore[call-arg]
        except NotEnoughItems:
            return None
        metrics = self.learner.train_step(batch.rollouts, batch.weights)
        self.version = version + 1
        return combine_batch_metrics([{**metrics, **batch_metrics(batch.rollouts, batch.ages)}])

    def sync_weights(self, version: int) -> None:
        """Load the learner's weights into the generation backend."""
        state = self.learner.state_dict()
        if self.config.train.sync_every > 1:  # keep what generation runs on, for an exact resume
            self._synced_state = {k: v.detach().clone().cpu() for k, v in state.items()}
        self.backend.load_weights(state, version)

    def evaluate(self, config: RunConfig) -> dict[str, float]:
        """Held-out accuracy of the generation backend's current weights on a fixed seeded example set."""
        return evaluate_held_out(config, self.backend, self.task, self.env.pool, self._eval)

    def metrics(self) -> dict[str, float]:
        """The buffer's metrics."""
        return {f"buffer/{k}": float(v) for k, v in self.buffer.metrics().items()}

    def finish(self) -> None:
        """Nothing to do: generation already holds the last synced weights."""

    def state_dict(self, directory: Path) -> dict[str, Any]:
        """Learner and buffer into `directory`; the backend's version (and weights, when they lag)."""
        self.learner.save(directory / "learner")
        self.buffer.save(directory / "buffer.pkl")
        state: dict[str, Any] = {"backend_version": int(self.backend.policy_version)}
        if self._synced_state is not None and self.backend.policy_version != self.version:
            state["backend_weights"] = self._synced_state  # generation lags the learner: keep its weights
        return state

    def load_state_dict(self, state: dict[str, Any], directory: Path) -> None:
        """Restore learner, buffer and the weights generation had."""
        self.learner.load(directory / "learner")
        self.buffer.load(directory / "buffer.pkl")
        self.version = int(state["version"])
        weights = state.get("backend_weights") or self.learner.state_dict()
        self.backend.load_weights(weights, int(state["backend_version"]))
        if "backend_weights" in state:
            self._synced_state = state["backend_weights"]

    def close(self) -> None:
        """Release the backend, envs and verifier pool."""
        self.backend.close()
        self.env.close()


class Trainer:
    """Owns a run: builds the runtime from a `RunConfig` (Ray when `config.distributed` is set), runs `fit()`,
    checkpoints and resumes exactly. The runtime's parts (model, buffer, fleet, ...) read through it."""

    def __init__(
        self,
        config: RunConfig,
        *,
        on_step: Callable[[int, dict[str, float]], None] | None = None,
        address: str | None = None,
    ) -> None:
        if address is not None and config.distributed is None:  # an address alone asks for the Ray runtime
            from rlvr.train.config import DistributedConfig

            config = dataclasses.replace(config, distributed=DistributedConfig(address=address))
        self.config = config
        self.on_step = on_step
        self.out = Path(config.train.output_dir)
        prepare_run_dir(config)  # refuses to overwrite an earlier run or to resume it with other settings
        self.out.mkdir(parents=True, exist_ok=True)
        seed_everything(config.train.seed)
        self.runtime: Runtime = self._build_runtime(address)
        self.stream = ExampleStream(self.runtime.task, config.train.seed)
        self.compute = ComputeMeter()
        self.step = 0
        self.version = 0  # optimizer steps taken = the learner's policy version
        self.stopped_by: int | None = None  # the signal that stopped the last fit(), if any
        self.last_eval: dict[str, float] = {}  # the console keeps showing the latest held-out result
        self.error_guard = VerifierErrorGuard(config.env.max_verifier_error_rate)
        dump_config(config, self.out / "config.yaml")

    def _build_runtime(self, address: str | None) -> Runtime:
        if self.config.distributed is None:
            return LocalRuntime(self.config, self.out)
        from rlvr.train.distributed.driver import RayRuntime  # Ray is imported only for a Ray run

        return RayRuntime(self.config, self.out, address)

    def __getattr__(self, name: str) -> Any:
        # the runtime's parts (trainer.model, trainer.buffer, trainer.learners, ...) for tests and scripts
        if name == "runtime":
            raise AttributeError(name)
        return getattr(self.runtime, name)

    # ----- checkpoints -----
    def save_checkpoint(self) -> Path:
        """Loop state, RNG and the runtime's state to output_dir/checkpoints/step-N (written atomically)."""

        def write(d: Path) -> None:
            state = self.runtime.state_dict(d)
            state.update(
                step=self.step,
                version=self.version,
                consumed=self.stream.consumed,
                compute=self.compute.state_dict(),
                rng=capture_rng_state(),
            )
            save_pickle(state, d / "state.pkl")

        return write_checkpoint(
            self.out / "checkpoints", self.step, write, keep=self.config.train.keep_checkpoints
        )

    def load_checkpoint(self, path: str | Path) -> None:
        """Restore everything `save_checkpoint` wrote, so the run continues exactly as if never stopped."""
        path = Path(path)
        state = load_pickle(path / "state.pkl")
        self.runtime.load_state_dict(state, path)
        self.step = int(state["step"])
        self.version = int(state["version"])
        self.stream = ExampleStream(
            self.runtime.task, self.config.train.seed, consumed=int(state["consumed"])
        )
        self.compute.load_state_dict(state["compute"])
        restore_rng_state(state["rng"])

    # ----- the loop -----
    def _update(self) -> tuple[float, int, dict[str, float]]:
        """Up to `updates_per_step` optimizer steps; returns (device seconds, samples trained, mean metrics)."""
        cfg = self.config
        seconds, samples, updates, age_max = 0.0, 0, 0, 0.0
        sums: dict[str, float] = {}
        for _ in range(cfg.train.updates_per_step):
            metrics = self.runtime.train(self.version)
            if metrics is None:
                break
            self.version += 1
            seconds += metrics.pop("device_s")
            samples += int(metrics["samples"])
            updates += 1
            age_max = max(age_max, metrics.pop("age_max"))
            for key, value in metrics.items():
                sums[key] = sums.get(key, 0.0) + value
            if self.version % cfg.train.sync_every == 0:
                self.runtime.sync_weights(self.version)
        out = {f"train/{k}": v / updates for k, v in sums.items()}
        if updates:
            out["train/age_max"] = age_max
        return seconds, samples, out

    def evaluate(self) -> dict[str, float]:
        """Held-out accuracy of generation's current weights on a fixed seeded example set."""
        return self.runtime.evaluate(self.config)

    def _step(self) -> dict[str, float]:
        """One logged step: produce, insert, train, account; returns its metrics."""
        step_start = time.perf_counter()
        rollouts, rstats = self.runtime.produce(self.step)
        self.runtime.extend(rollouts, self.step)
        train_s, samples, metrics = self._update()
        self.error_guard.check(rstats)  # after training: async rollout statistics fill while the step trains
        metrics.update(rstats.metrics())
        c = self.compute
        c.gen_s += rstats.generate_s
        c.rollouts += rstats.rollouts
        c.train_s += train_s
        c.samples += samples
        c.tokens += rstats.generated_tokens
        step_cost = c.charge(rstats.rollouts, samples)
        self.step += 1
        metrics.update(
            self.runtime.metrics(),
            **{
                "compute/mu": c.mu,
                "compute/step_cost": step_cost,
                "compute/total_cost": c.cost,
                "compute/generated_tokens": float(c.tokens),
                "compute/unique_rollouts": float(c.rollouts),
                "compute/trained_samples": float(c.samples),
                "compute/replay_ratio": c.samples / max(1, c.rollouts),
                "compute/train_s": train_s,
                "policy/version": float(self.version),
                "time/step_s": time.perf_counter() - step_start,
            },
        )
        return metrics

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
        bar = _progress(cfg, self.step)
        stop = GracefulStop().__enter__()  # SIGTERM/SIGINT: finish the step, checkpoint, return
        try:
            self.runtime.start(self.stream, self.version)
            while self.step < cfg.train.steps:
                metrics = self._step()
                if cfg.eval.every and (self.step % cfg.eval.every == 0 or self.step == cfg.train.steps):
                    self.last_eval = self.evaluate()
                    metrics.update(self.last_eval)
                if self.step == min(PLAN_HINT_STEP, cfg.train.steps):  # mu has settled a little by now
                    R = cfg.rollout.rollouts_per_step
                    message = plan_hint(self.compute.mu, R, cfg.train.batch_size, cfg.buffer.capacity)
                    if message:
                        log.info(message)
                logger.log(self.step, metrics)
                rows.append({"step": float(self.step), **metrics})
                if self.on_step is not None:
                    self.on_step(self.step, metrics)
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(
                        progress_fields(
                            metrics,
                            self.last_eval,
                            ratio=f"{metrics['compute/replay_ratio']:.2f}",
                            v=self.version,
                            buf=int(metrics.get("buffer/size", 0)),
                        )
                    )
                every = cfg.train.checkpoint_every
                if (every and self.step % every == 0) or self.step == cfg.train.steps or stop.requested:
                    self.save_checkpoint()
                if stop.requested is not None:
                    log.warning(
                        "stopped at step %d; checkpoint saved, rerun the command to resume", self.step
                    )
                    break
            else:
                self.runtime.finish()
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
        """Release the runtime (backend, envs, verifier pool; Ray actors)."""
        runtime = self.__dict__.get("runtime")
        if runtime is not None:
            runtime.close()


def _progress(config: RunConfig, start: int) -> Any:
    if not config.train.progress:
        return None
    from tqdm.auto import tqdm

    d = config.distributed
    desc = "rlvr train" if d is None else f"rlvr train (ray, {d.mode})"
    return tqdm(total=config.train.steps, initial=start, desc=desc, unit="step", dynamic_ncols=True)


def train(config: RunConfig, address: str | None = None) -> list[dict[str, float]]:
    """Build a `Trainer` for `config`, run it to the end and release it; returns the logged rows."""
    trainer = Trainer(config, address=address)
    try:
        return trainer.fit()
    finally:
        trainer.close()
