"""Async mode's scheduling (the paper's setting): rollout workers produce without pause while the learners train.

There is no second loop: `RayRuntime` runs the loop's steps and, in async mode, leaves the production to
`AsyncProduction`. Every worker always has one `produce_into(buffer, ...)` call in flight: it generates its
share of a step's prompts with whatever weights it holds and pushes the rollouts straight into the buffer
actor. Whenever the driver waits (for an optimizer step, or for rollouts while the buffer cannot give a
batch) it reacts to whichever call finishes first (`ray.wait`):

* a worker's call finished -> add its statistics to the current step's and give it the next prompts,
  after loading the newest weights if it holds older ones (a dead worker is recovered and gets the same
  prompts again);
* the optimizer step finished -> back to the loop (version + 1; every `sync_every` versions the runtime
  sends rank 0's weights to every worker, loaded after its current call: weights never change mid-rollout);
* the buffer had no batch (warm-up, or everything older than `buffer.staleness.max_age` was evicted) -> wait
  for the next rollouts and ask again.

Staleness is bounded twice: workers are re-synced every `sync_every` <= max_age versions, and the buffer evicts
anything older than `max_age` versions before drawing, so no trained rollout is older than max_age. The
replay ratio (trained samples / unique rollouts) is not set but measured, with mu both as time per rollout
over time per trained sample (device-seconds, as in sync mode) and as the paper's throughput ratio
(K_train / T) / (K_inf / W). A step's rollout statistics are those of the calls the driver saw finish while
the step ran: `open_step` hands the loop a fresh `RolloutStats` that fills while the step trains, and the
loop reads it after training (as the old async loop accounted them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rlvr.train.build import ExampleStream
from rlvr.train.distributed.rollout_workers import RolloutFleet, WeightsOutOfSync, add_stats
from rlvr.train.rollouts import RolloutStats


class AsyncProduction:
    """One produce call in flight per rollout worker; finished calls' statistics go to the current step."""

    def __init__(
        self, fleet: RolloutFleet, buffer: Any, stream: ExampleStream, shares: Sequence[int]
    ) -> None:
        self.fleet = fleet
        self.buffer = buffer
        self.stream = stream
        self.shares = list(shares)  # prompts per call of each worker (P split over W)
        self.in_flight: dict[Any, tuple[int, int, list[Any]]] = {}  # future -> (rank, step tag, examples)
        self.current = RolloutStats()  # the statistics of the step being run (handed out by open_step)
        self.rollouts = 0  # unique rollouts produced since start

    def start(self, version: int) -> None:
        """Give every worker its first prompts."""
        for rank in range(len(self.fleet)):
            self._dispatch(rank, version)

    def _dispatch(
        self, rank: int, version: int, tag: int | None = None, examples: list[Any] | None = None
    ) -> None:
        weights = self.fleet.weights
        if weights is not None and self.fleet.versions[rank] < weights[1]:
            self.fleet.send_weights(*weights, ranks=[rank])  # queued before the produce call
        if examples is None:
            examples, tag = self.stream.take(self.shares[rank]), version
        assert tag is not None
        future = self.fleet.actors[rank].produce_into.remote(
            self.buffer, len(examples), tag, examples, self.fleet.versions[rank]
        )
        self.in_flight[future] = (rank, tag, examples)

    def _done(self, future: Any, version: int) -> bool:
        """Account a finished call and re-dispatch its worker; False when the worker died (same prompts again)."""
        import ray
        from ray.exceptions import RayActorError

        rank, tag, examples = self.in_flight.pop(future)
        try:
            stats: RolloutStats = ray.get(future)
        except (RayActorError, WeightsOutOfSync) as exc:
            self.fleet.recover(rank, exc)  # restarted or replaced, weights re-synced
            self._dispatch(rank, version, tag, examples)
            return False
        add_stats(self.current, stats)
        self.rollouts += stats.rollouts
        self._dispatch(rank, version)
        return True

    def open_step(self, version: int) -> RolloutStats:
        """A fresh `RolloutStats` for the step that starts: calls finished by now (no waiting) and every call
        that finishes while the step trains are added to it."""
        import ray

        self.current = RolloutStats()
        if self.in_flight:
            ready, _ = ray.wait(list(self.in_flight), num_returns=len(self.in_flight), timeout=0)
            for future in ready:
                self._done(future, version)
        return self.current

    def train(self, submit: Callable[[], list[Any]], version: int) -> list[dict[str, float]]:
        """Run `submit()` (one optimizer step on all ranks) until it gets a batch, serving workers meanwhile."""
        import ray

        training: list[Any] | None = submit()
        while True:
            if training is None:  # no batch: wait for new rollouts before asking again
                ready, _ = ray.wait(list(self.in_flight), num_returns=1)
                if self._done(ready[0], version):
                    training = submit()
                continue
            ready, _ = ray.wait([*self.in_flight, *training], num_returns=1)
            if ready[0] in self.in_flight:
                self._done(ready[0], version)
                continue
            results = ray.get(training)
            if all(r is not None for r in results):
                return results
            training = None


def throughput_mu(trained: int, unique: int, learner_ranks: int, workers: int) -> float:
    """The paper's mu = (K_train / T) / (K_inf / W) over the same wall-clock time (NaN before both are seen)."""
    if not trained or not unique:
        return float("nan")
    return (trained / learner_ranks) / (unique / workers)
