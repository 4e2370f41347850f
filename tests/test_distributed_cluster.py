"""Cluster use end to end: `ray start --head` on this machine, then `rlvr train CONFIG.yaml --address HOST:PORT`,
and the README's `ray job submit` command against the head's dashboard (its job server).

The head runs in its own session with free ports and a temporary directory; the finalizer stops exactly
that process group (never `ray stop`, which would stop every Ray on the machine). Token authentication is
switched off for this private head so the test does not depend on ~/.ray/auth_token.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml

pytest.importorskip("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head():
    """A private Ray head node (4 logical CPUs) with its dashboard; yields GCS address, temp dir, dashboard URL."""
    tmp = tempfile.mkdtemp(prefix="rlvr-ray-", dir="/tmp")  # short: Ray's unix socket paths are length-capped
    port, dashboard = _free_port(), _free_port()
    # the venv's scripts on PATH, as for a user who activated it: job entrypoints run `rlvr ...`
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "PATH": path}
    ray_bin = str(Path(sys.executable).with_name("ray"))
    cmd = [
        ray_bin,
        "start",
        "--head",
        f"--port={port}",
        "--num-cpus=4",
        f"--temp-dir={tmp}",
        "--include-dashboard=true",  # the job server behind `ray job submit` (needs ray[default])
        "--dashboard-host=127.0.0.1",
        f"--dashboard-port={dashboard}",
        "--disable-usage-stats",
        f"--ray-client-server-port={_free_port()}",
        f"--dashboard-agent-listen-port={_free_port()}",
        "--block",
    ]
    log = open(Path(tmp) / "head.log", "w")  # noqa: SIM115 (closed in the finalizer)
    head = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while "Ray runtime started" not in (Path(tmp) / "head.log").read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start failed:\n{(Path(tmp) / 'head.log').read_text()[-3000:]}")
            time.sleep(1)
        yield f"127.0.0.1:{port}", Path(tmp), f"http://127.0.0.1:{dashboard}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)  # the head and everything it started share its session
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # whatever is still draining
        head.wait(timeout=30)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.slow  # a head node plus 5 actors on 2 cores: a minute or two
def test_cli_trains_on_a_running_cluster_with_two_workers_and_two_ranks(tmp_path: Path, ray_head) -> None:
    address, ray_tmp, _ = ray_head
    out = tmp_path / "run"
    config = {
        "model": {"name": "tiny"},
        "env": {"id": "rlvr/Arithmetic-v0", "kwargs": {"difficulty": 1}},
        "rollout": {"prompts_per_step": 4, "group_size": 2, "max_new_tokens": 8},
        "buffer": {"capacity": 32},
        "learner": {"lr": 1e-3, "micro_batch_size": 8},
        "train": {"steps": 3, "batch_size": 8, "tensorboard": False, "progress": False, "plot": False},
        "eval": {"every": 3, "num_examples": 4},
        "distributed": {
            "rollout_workers": 2,
            "learner_ranks": 2,
            "rollout_cpus": 0.25,
            "learner_cpus": 0.25,
            "buffer_cpus": 0.25,
        },
    }
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump(config))
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    proc = subprocess.run(
        [sys.executable, "-m", "rlvr", "train", str(path), "--address", address, "--output-dir", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "3 steps" in proc.stdout
    with (out / "metrics.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [int(float(r["step"])) for r in rows] == [1, 2, 3]
    assert float(rows[-1]["policy/version"]) == 3
    assert (
        float(rows[-1]["distributed/rollout_workers"]) == 2
        and float(rows[-1]["distributed/learner_ranks"]) == 2
    )
    assert (out / "checkpoints" / "latest").exists()
    assert any(k.startswith("eval/") and rows[-1][k] != "" for k in rows[-1]), "step 3 evaluates worker 0"
    # the actors ran on this head node (not on a local Ray the CLI could have started by itself)
    names: dict[str, int] = {}
    for f in ray_tmp.glob("session_latest/logs/worker-*.out"):
        head = f.read_text(errors="replace")[:200]
        for actor in ("RolloutWorker", "LearnerWorker", "BufferActor"):
            names[actor] = names.get(actor, 0) + (f":actor_name:{actor}" in head)
    assert names == {"RolloutWorker": 2, "LearnerWorker": 2, "BufferActor": 1}, names


@pytest.mark.slow  # uploads the repo as the job's working dir, then trains on the head: a few minutes
def test_the_documented_ray_job_submit_runs_to_the_end(tmp_path: Path, ray_head) -> None:
    """The README's command, with overrides that fit 4 logical CPUs and an output dir this test can read."""
    _, _, dashboard = ray_head
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "job-run"
    small = [
        "model.name=tiny-arithmetic",
        "rollout.max_new_tokens=16",
        "distributed.verifier_cpus=0.25",
        "train.steps=2",
        "rollout.prompts_per_step=4",
        "rollout.group_size=2",
        "train.batch_size=8",
        "buffer.capacity=32",
        "eval.every=0",
        "distributed.rollout_cpus=0.25",
        "distributed.learner_cpus=0.25",
        "distributed.buffer_cpus=0.25",
        "train.progress=false",
    ]
    ray_bin = str(Path(sys.executable).with_name("ray"))
    cmd = [
        ray_bin,
        "job",
        "submit",
        "--address",
        dashboard,
        "--working-dir",
        ".",
        "--runtime-env-json",
        '{"excludes": [".venv", "runs", ".git", ".ci"]}',
        "--",
        "rlvr",
        "train",
        "configs/distributed.yaml",
        "--address",
        "auto",
        "--output-dir",
        str(out),
        *small,
    ]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env, timeout=1200)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    assert "succeeded" in proc.stdout, proc.stdout[-3000:]
    assert "2 steps" in proc.stdout
    with (out / "metrics.csv").open() as fh:
        assert [int(float(r["step"])) for r in csv.DictReader(fh)] == [1, 2]


def test_a_cluster_that_is_not_there_fails_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({"model": {"name": "tiny"}, "train": {"output_dir": str(tmp_path / "o")}}))
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    proc = subprocess.run(
        [sys.executable, "-m", "rlvr", "train", str(path), "--address", f"127.0.0.1:{_free_port()}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 2
    assert "ray start --head" in proc.stderr
