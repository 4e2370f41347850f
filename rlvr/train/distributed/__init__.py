"""The Ray runtime of rlvr: rollout workers, verifier actors, a replay-buffer actor and a data-parallel learner
group (`RayRuntime`), driven by the one training loop (`rlvr.train.loop.Trainer`; `DistributedTrainer` is that
`Trainer` on Ray) in sync or async mode (docs/distributed.md).

    from rlvr.train.distributed import train_distributed
    rows = train_distributed(config)            # config.distributed says W, T, mode and resources
    rows = train_distributed(config, "auto")    # join the running cluster instead of starting a local Ray
"""

from rlvr.train.distributed.driver import DistributedTrainer, rank_weights_agree, train_distributed

__all__ = ["DistributedTrainer", "rank_weights_agree", "train_distributed"]
