"""Ray plumbing shared by the driver and the actors: connecting, per-actor setup, resources, placement groups."""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from typing import Any

from rlvr.core.errors import ConfigError
from rlvr.train.config import DistributedConfig, RunConfig


def connect(config: DistributedConfig, address: str | None = None) -> bool:
    """Join the Ray cluster at `address` (or `config.address`, or RAY_ADDRESS), else start a local Ray.

    Returns whether this call initialised Ray (and so should shut it down); an already initialised Ray (a test
    fixture, a notebook) is used as it is.
    """
    import ray

    if ray.is_initialized():
        return False
    address = address or config.address
    kwargs: dict[str, Any] = {"configure_logging": False, "log_to_driver": True}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs.update(include_dashboard=False)
        if config.num_cpus is not None:
            kwargs["num_cpus"] = config.num_cpus
    _check_reachable(address)
    try:
        ray.init(address=address, **kwargs)
    except ConnectionError as exc:
        hint = ""
        if "auth" in str(exc).lower() or "auth" in str(exc.__cause__).lower():
            hint = (
                "; the cluster uses token authentication: set RAY_AUTH_MODE=token here and make its token "
                "available (~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN)"
            )
        raise ConfigError(
            f"no Ray cluster answered at address={address!r} ({str(exc).splitlines()[-1]}){hint}; start one with "
            "`ray start --head`, pass its address (e.g. --address auto on a cluster node), or drop --address "
            "to start a local Ray"
        ) from exc
    return True


def _check_reachable(address: str | None, timeout_s: float = 10.0) -> None:
    """Fail in seconds when a host:port address has nobody listening (Ray itself retries for minutes)."""
    if not address or "://" in address or address == "auto" or ":" not in address:
        return
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise ConfigError(
            f"no Ray cluster answered at address={address!r} ({exc}); start one with `ray start --head`, pass "
            "its address (e.g. --address auto on a cluster node), or drop --address to start a local Ray"
        ) from exc


def setup_actor(config: RunConfig) -> None:
    """First thing in every actor: cap torch threads and import the user's registration modules."""
    import torch

    assert config.distributed is not None
    torch.set_num_threads(config.distributed.torch_threads)
    import_modules(user_modules(config))


def user_modules(config: RunConfig) -> list[str]:
    """The modules that register the user's envs/verifiers/tasks: `env.imports`, then `distributed.setup_modules`."""
    extra = config.distributed.setup_modules if config.distributed is not None else []
    return list(dict.fromkeys([*config.env.imports, *extra]))


def import_modules(modules: Sequence[str]) -> None:
    """Import each module (custom envs, verifiers and tasks register themselves on import)."""
    from rlvr.core.registry import import_user_modules

    try:
        import_user_modules(modules)
    except ConfigError as exc:
        raise ConfigError(
            f"{exc}; on a cluster, ship it with the job (`ray job submit --working-dir .`) or install it on "
            "every node"
        ) from exc


def node_address() -> str:
    """This node's IP address as Ray sees it (reachable from the other nodes)."""
    import ray

    return ray.util.get_node_ip_address()


def free_port() -> int:
    """A TCP port that is free on this node right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


def resource_demand(config: DistributedConfig) -> dict[str, float]:
    """CPUs and GPUs that every actor of a run asks for together (rollout, learner, verifier and buffer)."""
    return {
        "CPU": config.rollout_workers * config.rollout_cpus
        + config.learner_ranks * config.learner_cpus
        + config.verifier_actors * config.verifier_cpus
        + config.buffer_cpus,
        "GPU": config.rollout_workers * config.rollout_gpus + config.learner_ranks * config.learner_gpus,
    }


def check_capacity(config: DistributedConfig) -> None:
    """Refuse a run whose actors the cluster can never hold all at once (else Ray waits for them forever)."""
    import ray

    total = ray.cluster_resources()
    for kind, wanted in resource_demand(config).items():
        have = float(total.get(kind, 0.0))
        if wanted > have + 1e-9:
            raise ConfigError(
                f"the run's actors need {wanted:g} {kind}s together but the Ray cluster has {have:g} "
                f"({config.rollout_workers} rollout x {getattr(config, f'rollout_{kind.lower()}s'):g}, "
                f"{config.learner_ranks} learner x {getattr(config, f'learner_{kind.lower()}s'):g}"
                + (
                    f", {config.verifier_actors} verifier x {config.verifier_cpus:g}, buffer {config.buffer_cpus:g}"
                    if kind == "CPU"
                    else ""
                )
                + "); lower distributed.rollout_workers or the per-actor *_cpus/*_gpus (fractions are fine), "
                "or add nodes (distributed.num_cpus sets a local Ray's size)"
            )


def learner_placement_group(config: DistributedConfig, timeout_s: float = 120.0) -> Any:
    """A placement group with one bundle per learner rank (None if placement='none' or nothing to reserve)."""
    import ray
    from ray.util.placement_group import placement_group

    bundle: dict[str, float] = {}
    if config.learner_cpus > 0:
        bundle["CPU"] = config.learner_cpus
    if config.learner_gpus > 0:
        bundle["GPU"] = config.learner_gpus
    if config.placement == "none" or not bundle:
        return None
    pg = placement_group(
        [dict(bundle) for _ in range(config.learner_ranks)], strategy=config.placement.upper()
    )
    ready, _ = ray.wait([pg.ready()], timeout=timeout_s)
    if not ready:
        ray.util.remove_placement_group(pg)
        raise ConfigError(
            f"the cluster cannot place {config.learner_ranks} learner ranks of {bundle} with strategy "
            f"{config.placement!r} (available: {ray.available_resources()}); lower distributed.learner_cpus/"
            "learner_gpus, use placement='spread' or 'none', or add nodes"
        )
    return pg


def in_placement_group(pg: Any, index: int) -> dict[str, Any]:
    """Actor options that schedule it into bundle `index` of `pg` (empty when there is no group)."""
    if pg is None:
        return {}
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    return {
        "scheduling_strategy": PlacementGroupSchedulingStrategy(
            placement_group=pg, placement_group_bundle_index=index
        )
    }
