"""Rollout workers (one generation backend + batched env each, wrapping `RolloutProducer`) and their supervisor.

`RolloutWorker` is a plain class made into a Ray actor by `RolloutFleet`, which owns the W actors and hides
failures from the driver: a call that dies with its actor is retried once the actor is back (Ray restarts it,
`max_restarts`) or on a freshly created replacement, after the weights the driver last sent are re-synced to
it. In sync mode a retried `produce` gets the same examples, step and weights, so it returns exactly the
rollouts the dead worker would have.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from rlvr.core.seeding import derive_seed, seed_everything
from rlvr.core.types import Example, Rollout
from rlvr.policy import make_backend
from rlvr.train.build import build_backend, build_env, build_model, evaluate_held_out
from rlvr.train.config import RunConfig
from rlvr.train.distributed.runtime import setup_actor
from rlvr.train.rollouts import RolloutProducer, RolloutStats

log = logging.getLogger("rlvr.train.distributed")


def sampling_seed(seed: int, rank: int) -> int:
    """Worker `rank`'s sampling seed; rank 0 uses the single-process trainer's, so W=1 reproduces it."""
    return derive_seed(seed, "sampling") if rank == 0 else derive_seed(seed, "sampling", rank)


def split_evenly(items: Sequence[Any], parts: int) -> list[list[Any]]:
    """`items` cut into `parts` contiguous runs whose lengths differ by at most one (earlier ones longer)."""
    n = len(items)
    bounds = [n * i // parts for i in range(parts + 1)]
    sizes = [bounds[i + 1] - bounds[i] for i in range(parts)][::-1]  # remainder goes to the first parts
    out, start = [], 0
    for size in sizes:
        out.append(list(items[start : start + size]))
        start += size
    return out


def add_stats(out: RolloutStats, s: RolloutStats) -> None:
    """Add one round's statistics to `out` in place (times are summed: worker-seconds)."""
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
    out.verifier_timeouts += s.verifier_timeouts


def merge_stats(parts: Sequence[RolloutStats]) -> RolloutStats:
    """One `RolloutStats` for several workers' rounds."""
    out = RolloutStats()
    for s in parts:
        add_stats(out, s)
    return out


class WeightsOutOfSync(RuntimeError):
    """A rollout worker was asked to generate with weights it does not hold (it restarted since the sync)."""


class RolloutWorker:
    """One actor's generation backend and batched env; `produce` is `RolloutProducer.produce` remotely."""

    def __init__(self, config: RunConfig, rank: int, verifier_pool: Any = None) -> None:
        assert config.distributed is not None
        setup_actor(config)
        seed_everything(config.train.seed)
        self.config = config
        self.rank = rank
        self._dir = tempfile.mkdtemp(prefix=f"rlvr-rollout-{rank}-")
        model, tokenizer = build_model(config.model, config.train.seed, cache_dir=self._dir)
        if config.distributed.rollout_gpus > 0:
            import torch

            if torch.cuda.is_available():
                model = model.to("cuda")
        if config.rollout.backend == "hf":  # this copy is never trained, so no second copy is needed
            self.backend = make_backend(
                "hf", model, tokenizer, seed=config.train.seed, **config.rollout.backend_kwargs
            )
        else:
            self.backend = build_backend(config, model, tokenizer)
            del model
        self.env = build_env(config, pool=verifier_pool)
        self.producer = RolloutProducer(
            self.env,
            self.backend,
            config.rollout.sampling(seed=sampling_seed(config.train.seed, rank)),
            advantage=config.rollout.advantage,
            keep_example=config.buffer.hindsight is not None,
        )
        self._eval: list[Any] = []  # held-out env and examples, built at the first evaluation
        self._loaded = False  # no weights from the driver yet (a fresh or restarted actor)

    def produce(
        self,
        num_prompts: int,
        step: int,
        examples: Sequence[Example] | None = None,
        expect_version: int | None = None,
    ) -> tuple[list[Rollout], RolloutStats]:
        """P x G graded rollouts with frozen advantages, stamped with `step` and the weights' version."""
        self._check_version(expect_version)
        return self.producer.produce(num_prompts, step, examples=examples)

    def produce_into(
        self,
        buffer: Any,
        num_prompts: int,
        step: int,
        examples: Sequence[Example] | None = None,
        expect_version: int | None = None,
    ) -> RolloutStats:
        """Produce, push the rollouts into the buffer actor (async mode) and return only the statistics."""
        import ray

        rollouts, stats = self.produce(num_prompts, step, examples, expect_version)
        ray.get(buffer.extend.remote(rollouts, step))
        return stats

    def load_weights(self, state_dict: Any, version: int) -> int:
        """Replace the backend's weights in place (vLLM reloads its engine in place); returns `version`."""
        self.backend.load_weights(state_dict, version)
        self._loaded = True
        return int(self.backend.policy_version)

    def policy_version(self) -> int:
        """The version of the weights this worker generates with; -1 until the driver has sent any."""
        return int(self.backend.policy_version) if self._loaded else -1

    def _check_version(self, expect_version: int | None) -> None:
        # Ray re-runs the constructor of a restarted actor and may hand it calls queued for the old process;
        # this catches them before they generate with the initial weights instead of the driver's.
        if expect_version is not None and self.policy_version() != expect_version:
            raise WeightsOutOfSync(
                f"rollout worker {self.rank} holds weights version {self.policy_version()}, the driver expected "
                f"{expect_version} (the actor was restarted)"
            )

    def evaluate(
        self, config: RunConfig | None = None, expect_version: int | None = None
    ) -> dict[str, float]:
        """Held-out accuracy of this worker's weights under `config`'s eval settings (default: its own)."""
        self._check_version(expect_version)
        return evaluate_held_out(
            config or self.config, self.backend, self.env.task, self.env.pool, self._eval
        )

    def ping(self) -> int:
        """The process id (answers once the actor is up; tests use it to kill the process)."""
        return os.getpid()

    def close(self) -> None:
        """Release the backend, envs and temporary files."""
        with contextlib.suppress(Exception):
            self.backend.close()
        with contextlib.suppress(Exception):
            self.env.close()
        shutil.rmtree(self._dir, ignore_errors=True)


class RolloutFleet:
    """The W rollout actors: creation, weight sync, and calls that survive a worker's death."""

    def __init__(self, config: RunConfig, verifier_pool: Any = None) -> None:
        import ray

        assert config.distributed is not None
        self.config = config
        self.d = config.distributed
        self.verifier_pool = verifier_pool
        self._remote = ray.remote(RolloutWorker)
        self.actors = [self._create(rank) for rank in range(self.d.rollout_workers)]
        self.failures = 0
        self.recreated = 0
        self.weights: tuple[Any, int] | None = None  # (object ref, version) last sent to every worker
        self.versions = [-1] * len(self.actors)  # the version each worker was last sent

    def wait_ready(self) -> None:
        """Block until every worker is built (constructor errors surface here, not mid-run)."""
        import ray

        ray.get([a.ping.remote() for a in self.actors])

    def __len__(self) -> int:
        return len(self.actors)

    def _create(self, rank: int) -> Any:
        return self._remote.options(
            num_cpus=self.d.rollout_cpus,
            num_gpus=self.d.rollout_gpus,
            max_restarts=self.d.max_restarts,
            max_task_retries=0,  # the fleet retries, after re-syncing weights to the restarted worker
        ).remote(self.config, rank, self.verifier_pool)

    # ----- weights -----
    def send_weights(self, ref: Any, version: int, ranks: Sequence[int] | None = None) -> list[Any]:
        """Queue `load_weights(ref, version)` on the workers (after their running call); returns the futures.

        `ref` is one object in the object store (put once by learner rank 0), read by every worker.
        """
        self.weights = (ref, version)
        futures = []
        for rank in range(len(self.actors)) if ranks is None else ranks:
            futures.append(self.actors[rank].load_weights.remote(ref, version))
            self.versions[rank] = version
        return futures

    def sync(self, ref: Any, version: int) -> None:
        """Send weights to all workers and wait until each has loaded them (recovering dead workers)."""
        futures = self.send_weights(ref, version)
        for rank, future in enumerate(futures):
            self.get(rank, future, "load_weights", ref, version)

    # ----- calls that survive failures -----
    def get(self, rank: int, future: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        """`ray.get(future)`; if worker `rank` died, recover it and call `method(*args)` again until it works."""
        import ray
        from ray.exceptions import RayActorError

        while True:
            try:
                return ray.get(future)
            except (RayActorError, WeightsOutOfSync) as exc:
                self.recover(rank, exc)
                future = getattr(self.actors[rank], method).remote(*args, **kwargs)

    def call(self, rank: int, method: str, *args: Any) -> Any:
        """`method(*args, expect_version=...)` on worker `rank`, retried on a recovered worker if it dies."""
        version = self.versions[rank]
        future = getattr(self.actors[rank], method).remote(*args, expect_version=version)
        return self.get(rank, future, method, *args, expect_version=version)

    def produce_all(
        self, parts: Sequence[Sequence[Example]], step: int
    ) -> tuple[list[Any], list[RolloutStats]]:
        """Worker w produces rollouts for `parts[w]`, all in parallel; returns (refs to the rollouts, stats).

        The rollouts stay in the object store (the buffer actor reads them); only statistics come back. A
        worker that dies is recovered and asked again for the same examples and step.
        """
        import ray
        from ray.exceptions import RayActorError

        def submit(rank: int) -> Any:
            part = parts[rank]
            return (
                self.actors[rank]
                .produce.options(num_returns=2)
                .remote(len(part), step, part, self.versions[rank])
            )

        calls = [submit(rank) for rank in range(len(parts))]
        refs: list[Any] = []
        stats: list[RolloutStats] = []
        for rank in range(len(parts)):
            while True:
                rollouts_ref, stats_ref = calls[rank]
                try:
                    stats.append(ray.get(stats_ref))
                    refs.append(rollouts_ref)
                    break
                except (RayActorError, WeightsOutOfSync) as exc:
                    self.recover(rank, exc)
                    calls[rank] = submit(rank)
        return refs, stats

    def recover(self, rank: int, error: BaseException) -> None:
        """Bring worker `rank` back after `error`: wait for Ray's restart, else replace it; re-sync weights."""
        import ray
        from ray.exceptions import ActorDiedError, GetTimeoutError, RayActorError

        self.failures += 1
        if self.failures > self.d.max_failures:
            raise RuntimeError(
                f"rollout workers failed {self.failures} times (distributed.max_failures={self.d.max_failures}); "
                f"last error: {error}"
            ) from error
        log.warning("rollout worker %d failed (%s); recovering", rank, type(error).__name__)
        if isinstance(error, WeightsOutOfSync):  # alive, restarted by Ray: it only lacks the weights
            self._resync(rank)
            return
        deadline = time.monotonic() + self.d.restart_timeout_s
        alive, dead_answers = False, 0
        while time.monotonic() < deadline and dead_answers < 3:
            try:
                ray.get(self.actors[rank].ping.remote(), timeout=min(30.0, self.d.restart_timeout_s))
                alive = True
                break
            except ActorDiedError:  # dead for good (restarts used up), or answered before the restart began
                dead_answers += 1
                time.sleep(0.5)
            except (RayActorError, GetTimeoutError):  # restarting: keep waiting
                time.sleep(0.5)
        if not alive:
            with contextlib.suppress(Exception):
                ray.kill(self.actors[rank], no_restart=True)
            self.actors[rank] = self._create(rank)
            self.recreated += 1
            ray.get(self.actors[rank].ping.remote())
        self._resync(rank)

    def _resync(self, rank: int) -> None:
        import ray

        if self.weights is not None:  # a restarted actor starts from its initial weights
            ray.get(self.actors[rank].load_weights.remote(*self.weights))
            self.versions[rank] = self.weights[1]

    def kill(self, rank: int) -> None:
        """Kill worker `rank`'s actor, letting Ray restart it (for fault-tolerance tests and drills)."""
        import ray

        ray.kill(self.actors[rank], no_restart=False)

    def close(self) -> None:
        """Release every worker and remove the actors."""
        import ray

        with contextlib.suppress(Exception):
            ray.wait([a.close.remote() for a in self.actors], num_returns=len(self.actors), timeout=30)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
        self.actors = []
