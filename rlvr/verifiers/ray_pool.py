"""`RayVerifierPool`: grade completions on CPU actors anywhere in a Ray cluster, each running a `VerifierPool`.

The process pool (`rlvr.verifiers.pool`) keeps its guarantees inside every actor: jobs run in killable worker
processes with a hard deadline (and code inside the sandbox, when the verifier is a `CodeVerifier`), so a
hung or crashing completion costs one worker process, never the actor. This module adds the cluster side:

* `verify_batch` splits the pairs into one contiguous chunk per actor and gathers the verdicts in order.
* A crashed actor is restarted by Ray (`max_restarts`); its chunk is retried on the next actor, so a batch
  completes as long as one actor is alive. Verification is a pure function of its inputs, so retrying a
  chunk cannot change a result.
* The pool pickles as its actor handles: rollout workers on other nodes receive it and grade on the same
  actors. Only the copy that created the actors kills them on `close()`.

Ray is imported lazily, so importing this module does not need Ray.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.core.registry import import_user_modules
from rlvr.core.types import Verdict
from rlvr.verifiers.base import Verifier
from rlvr.verifiers.pool import VerifierPool


class VerifierActor:
    """The body of one verifier actor: a `VerifierPool` of `num_workers` processes around `verifier`."""

    def __init__(
        self,
        verifier: Verifier,
        num_workers: int = 1,
        timeout_s: float = 10.0,
        memory_mb: int | None = None,
        setup_modules: Sequence[str] = (),
    ) -> None:
        import_user_modules(setup_modules)  # custom verifiers register themselves on import
        self.pool = VerifierPool(verifier, num_workers=num_workers, timeout_s=timeout_s, memory_mb=memory_mb)

    def verify_batch(self, pairs: Sequence[tuple[str, Any]]) -> list[Verdict]:
        """Grade `pairs` in this actor's process pool; verdicts in input order."""
        return self.pool.verify_batch(pairs)

    def stats(self) -> dict[str, int]:
        """Jobs, timeouts, crashes and workers started by this actor's pool."""
        return dict(self.pool.stats)

    def pid(self) -> int:
        """This actor's process id (tests kill it to check recovery)."""
        return os.getpid()

    def close(self) -> None:
        """Stop the worker processes."""
        self.pool.close()


class RayVerifierPool(Verifier):
    """A `Verifier` that grades batches on `num_actors` Ray actors (see the module docstring)."""

    name = "ray_pool"
    enforces_deadline = True

    def __init__(
        self,
        verifier: Verifier,
        num_actors: int = 2,
        *,
        workers_per_actor: int = 1,
        timeout_s: float = 10.0,
        num_cpus: float = 1.0,
        max_restarts: int = 3,
        memory_mb: int | None = None,
        setup_modules: Sequence[str] = (),
        retry_wait_s: float = 120.0,
    ) -> None:
        import ray

        if not isinstance(verifier, Verifier):
            raise ConfigError(
                f"RayVerifierPool needs a Verifier instance, got {verifier!r}; wrap functions with @verifier"
            )
        if not isinstance(num_actors, int) or num_actors < 1:
            raise ConfigError(f"RayVerifierPool num_actors must be an int >= 1, got {num_actors!r}")
        if not isinstance(workers_per_actor, int) or workers_per_actor < 1:
            raise ConfigError(
                f"RayVerifierPool workers_per_actor must be an int >= 1, got {workers_per_actor!r}"
            )
        if not ray.is_initialized():
            raise ConfigError(
                "RayVerifierPool needs a running Ray: call ray.init() (or ray.init('auto')) first"
            )
        self.verifier = verifier
        self.timeout_s = float(timeout_s)
        self.retry_wait_s = float(retry_wait_s)
        remote = ray.remote(VerifierActor).options(
            num_cpus=num_cpus,
            max_restarts=max_restarts,
            max_task_retries=0,  # retries are ours: a failed chunk moves to another actor
            max_concurrency=1,
        )
        # Any: Ray types a handle's methods as the plain methods, without the `.remote` its proxies add
        self.actors: list[Any] = [
            remote.remote(verifier, workers_per_actor, timeout_s, memory_mb, tuple(setup_modules))
            for _ in range(num_actors)
        ]
        self._owner = True
        self.retries = 0

    def verify(self, completion: str, reference: Any) -> Verdict:
        """Grade one pair on an actor (blocking)."""
        return self.verify_batch([(completion, reference)])[0]

    def verify_batch(self, pairs: Iterable[tuple[str, Any]], *, progress: bool = False) -> list[Verdict]:
        """Grade many pairs across the actors; results in input order; a dead actor's chunk is retried."""
        import ray
        from ray.exceptions import RayActorError

        items = list(pairs)
        if not items:
            return []
        n = len(self.actors)
        k = min(n, len(items))
        bounds = [len(items) * i // k for i in range(k + 1)]
        chunks = [items[bounds[i] : bounds[i + 1]] for i in range(k)]
        out: list[list[Verdict] | None] = [None] * k
        attempts = [0] * k
        pending = {self.actors[i].verify_batch.remote(chunks[i]): i for i in range(k)}
        deadline = time.monotonic() + self.retry_wait_s
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            i = pending.pop(done[0])
            try:
                out[i] = ray.get(done[0])
            except RayActorError as exc:
                attempts[i] += 1
                self.retries += 1
                if time.monotonic() > deadline or attempts[i] > 4 * n:
                    raise RuntimeError(
                        f"verifier actors kept failing for {self.retry_wait_s:.0f}s ({exc}); check their logs "
                        "(`ray logs`) or raise distributed.max_restarts"
                    ) from exc
                time.sleep(min(1.0, 0.1 * attempts[i]))  # give Ray a moment to restart the actor
                actor = self.actors[(i + attempts[i]) % n]
                pending[actor.verify_batch.remote(chunks[i])] = i
        return [v for part in out for v in part or ()]

    def validate_reference(self, reference: Any) -> None:
        """Delegate to the wrapped verifier (in this process: references are checked at load time)."""
        self.verifier.validate_reference(reference)

    def stats(self) -> dict[str, int]:
        """Pool statistics summed over the actors that answer (a restarting one counts as unavailable)."""
        import ray
        from ray.exceptions import RayActorError

        total: dict[str, int] = {"actors": len(self.actors), "unavailable": 0, "retries": self.retries}
        for future in [a.stats.remote() for a in self.actors]:
            try:
                part = ray.get(future, timeout=60)
            except (RayActorError, ray.exceptions.GetTimeoutError):  # restarting or gone: report, do not fail
                total["unavailable"] += 1
                continue
            for key, value in part.items():
                total[key] = total.get(key, 0) + int(value)
        return total

    def close(self) -> None:
        """Stop the actors (only in the process that created them; pickled copies just drop their handles)."""
        import ray

        if self._owner and ray.is_initialized() and self.actors:
            with contextlib.suppress(Exception):  # let each actor stop its processes, then remove it
                ray.wait([a.close.remote() for a in self.actors], num_returns=len(self.actors), timeout=10)
            for actor in self.actors:
                with contextlib.suppress(Exception):
                    ray.kill(actor, no_restart=True)
        self.actors = []

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_owner"] = False  # a copy never owns the actors
        return state

    def __repr__(self) -> str:
        return (
            f"RayVerifierPool({self.verifier!r}, num_actors={len(self.actors)}, timeout_s={self.timeout_s})"
        )
