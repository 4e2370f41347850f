"""The learner group: T actors, one `Learner` each, joined in a torch.distributed process group.

Plain Ray actors and `torch.distributed.init_process_group` over TCP (rank 0's node address and a free port):
no extra framework between the driver and the ranks. Rank 0 also serves the weights for rollout workers
(`get_weights` returns them into the object store once; every worker reads that one copy) and writes the
learner checkpoint. Each rank gets one bundle of a placement group, so ranks are packed (or spread) as the
config says.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from rlvr.core.seeding import seed_everything
from rlvr.train.build import build_learner, build_model
from rlvr.train.checkpoint import capture_rng_state, restore_rng_state
from rlvr.train.config import RunConfig
from rlvr.train.distributed.runtime import (
    free_port,
    in_placement_group,
    learner_placement_group,
    node_address,
    setup_actor,
)

INIT_TIMEOUT_S = 300.0


class LearnerWorker:
    """One data-parallel rank: the model, its optimizer, and the collective step."""

    def __init__(self, config: RunConfig, rank: int, cache_dir: str | None = None) -> None:
        assert config.distributed is not None
        setup_actor(config)
        seed_everything(config.train.seed)
        self.config = config
        self.rank = rank
        self.world_size = config.distributed.learner_ranks
        self._tmp = None if cache_dir is not None else tempfile.mkdtemp(prefix=f"rlvr-learner-{rank}-")
        model, tokenizer = build_model(config.model, config.train.seed, cache_dir=cache_dir or self._tmp)
        if config.distributed.learner_gpus > 0:
            import torch

            if torch.cuda.is_available():
                model = model.to("cuda")
        self.learner = build_learner(config, model, tokenizer)
        self._group = False

    def rendezvous(self) -> tuple[str, int]:
        """Rank 0's address and a free port on its node for the process group's TCP store."""
        return node_address(), free_port()

    def init_group(self, address: str, port: int) -> None:
        """Join the process group and start from rank 0's parameters."""
        if self.world_size == 1:
            return
        import torch.distributed as dist

        from rlvr.train.distributed.parallel import broadcast_parameters

        assert self.config.distributed is not None
        dist.init_process_group(
            backend=self.config.distributed.backend,
            init_method=f"tcp://{address}:{port}",
            rank=self.rank,
            world_size=self.world_size,
            timeout=timedelta(seconds=INIT_TIMEOUT_S),
        )
        self._group = True
        broadcast_parameters(self.learner.model)

    def train_step(self, part: dict[str, Any] | None) -> dict[str, float] | None:
        """One optimizer step on this rank's slice of the batch (all ranks step together); None: no batch."""
        if part is None:
            return None
        rollouts, weights, ages = part["rollouts"], part["weights"], part["ages"]
        reduce = None  # one rank: the single-process step as it is
        if self.world_size > 1:
            from rlvr.train.distributed.parallel import AllReduce

            reduce = AllReduce(self.learner.device)
        metrics = self.learner.train_step(rollouts, weights, reduce=reduce)
        metrics.update(  # this slice's sums; the driver combines them over ranks
            batch_n=float(len(rollouts)),
            batch_reward_sum=float(sum(r.reward for r in rollouts)),
            batch_age_sum=float(np.sum(ages)),
            batch_age_max=float(np.max(ages)) if len(ages) else 0.0,
            batch_relabeled_sum=float(sum(r.relabeled for r in rollouts)),
        )
        return metrics

    def get_weights(self) -> dict[str, Any]:
        """The policy weights on CPU (returned into the object store once, read by every rollout worker)."""
        return {k: v.detach().to("cpu") for k, v in self.learner.state_dict().items()}

    def save(self, directory: str) -> str:
        """Write the learner checkpoint (model, tokenizer, optimizer) to `directory`."""
        return str(self.learner.save(directory))

    def load(self, directory: str) -> int:
        """Restore a learner checkpoint in place; returns the learner's step."""
        self.learner.load(directory)
        return int(self.learner.step)

    def rng_state(self) -> dict[str, Any]:
        """This process's Python/numpy/torch RNG states (for exact resume)."""
        return capture_rng_state()

    def set_rng_state(self, state: dict[str, Any]) -> None:
        """Restore RNG states taken by `rng_state`."""
        restore_rng_state(state)

    def close(self) -> None:
        """Leave the process group and remove temporary files."""
        if self._group:
            import torch.distributed as dist

            with contextlib.suppress(Exception):
                dist.destroy_process_group()
            self._group = False
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)


class LearnerGroup:
    """Creates the T ranks (in a placement group), forms the process group and steps them together."""

    def __init__(self, config: RunConfig, output_dir: str | Path) -> None:
        import ray

        assert config.distributed is not None
        d = config.distributed
        self.pg = learner_placement_group(d)
        remote = ray.remote(LearnerWorker)
        self.actors: list[Any] = []  # Ray actor handles (their methods' `.remote` is not in the stubs)
        for rank in range(d.learner_ranks):
            cache = str(output_dir) if rank == 0 else None  # rank 0 keeps the tiny model next to the run
            options = {
                "num_cpus": d.learner_cpus,
                "num_gpus": d.learner_gpus,
                **in_placement_group(self.pg, rank),
            }
            self.actors.append(remote.options(**options).remote(config, rank, cache))

    def start(self) -> None:
        """Form the process group (blocks until every rank is built and has joined)."""
        import ray

        address, port = ray.get(self.actors[0].rendezvous.remote())
        ray.get([a.init_group.remote(address, port) for a in self.actors])

    @property
    def rank0(self) -> Any:
        """The actor of rank 0 (weights source, checkpoint writer)."""
        return self.actors[0]

    def __len__(self) -> int:
        return len(self.actors)

    def train(self, parts: list[Any]) -> list[dict[str, float]] | None:
        """Step all ranks on their parts (object refs); None when the buffer had no batch to give."""
        import ray

        results = ray.get([a.train_step.remote(p) for a, p in zip(self.actors, parts)])
        if any(r is None for r in results):
            return None
        return results

    def submit(self, parts: list[Any]) -> list[Any]:
        """Start a step on all ranks without waiting (async mode); returns one future per rank."""
        return [a.train_step.remote(p) for a, p in zip(self.actors, parts)]

    def weights_ref(self) -> Any:
        """An object ref to rank 0's current weights (one copy in the object store)."""
        return self.rank0.get_weights.remote()

    def all_weights(self) -> list[dict[str, Any]]:
        """Every rank's weights (tests check that the ranks agree)."""
        import ray

        return ray.get([a.get_weights.remote() for a in self.actors])

    def save(self, directory: Path) -> None:
        """Rank 0 writes the learner checkpoint (`directory` must be visible to it: shared storage)."""
        import ray

        ray.get(self.rank0.save.remote(str(directory)))

    def load(self, directory: Path) -> None:
        """Every rank restores the checkpoint (identical weights and optimizer state)."""
        import ray

        ray.get([a.load.remote(str(directory)) for a in self.actors])

    def rng_states(self) -> list[dict[str, Any]]:
        """Each rank's RNG states."""
        import ray

        return ray.get([a.rng_state.remote() for a in self.actors])

    def set_rng_states(self, states: list[dict[str, Any]]) -> None:
        """Restore each rank's RNG states."""
        import ray

        ray.get([a.set_rng_state.remote(s) for a, s in zip(self.actors, states)])

    def close(self) -> None:
        """Leave the process group, remove the actors and the placement group."""
        import ray

        with contextlib.suppress(Exception):
            ray.wait([a.close.remote() for a in self.actors], num_returns=len(self.actors), timeout=30)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
        if self.pg is not None:
            with contextlib.suppress(Exception):
                ray.util.remove_placement_group(self.pg)
        self.actors = []
