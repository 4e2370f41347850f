"""What a new user meets (issue 16): config notation, CLI forms, data errors, eval splits -- driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rlvr.cli import main as cli
from rlvr.core import ConfigError
from rlvr.train.config import RunConfig
from rlvr.train.configio import load_config

ROOT = Path(__file__).resolve().parents[1]


def test_exponent_notation_is_a_float_in_yaml_and_on_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    text = (ROOT / "configs/default.yaml").read_text()
    assert "lr: 1.0e-4" in text
    path.write_text(text.replace("lr: 1.0e-4", "lr: 1e-4"))
    cfg = load_config(RunConfig, path)
    assert cfg.learner.lr == pytest.approx(1e-4)
    cfg = load_config(
        RunConfig, ROOT / "configs/default.yaml", ["learner.lr=3e-5", "learner.max_grad_norm=2E+0"]
    )
    assert cfg.learner.lr == pytest.approx(3e-5) and cfg.learner.max_grad_norm == pytest.approx(2.0)


def test_cli_override_replaces_a_mapping() -> None:
    base = load_config(RunConfig, ROOT / "configs/default.yaml", ["env.kwargs={difficulty: 1}"])
    assert base.env.kwargs == {"difficulty": 1}
    cleared = load_config(
        RunConfig, ROOT / "configs/default.yaml", ["env.kwargs={difficulty: 1}", "env.kwargs={}"]
    )
    assert cleared.env.kwargs == {}


def test_greedy_rollouts_are_rejected_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="temperature=0.*advantage is zero"):
        load_config(RunConfig, ROOT / "configs/default.yaml", ["rollout.temperature=0"])
    assert cli(["train", str(ROOT / "configs/default.yaml"), "rollout.temperature=0", "--dry-run"]) == 2
    assert "temperature > 0" in capsys.readouterr().err


SUMS_MODULE = '''
from rlvr.core import Example
from rlvr.envs import register_env
from rlvr.envs.registration import ENVS
from rlvr.tasks import ListTask, example_key


def sums(n: int = 9) -> ListTask:
    """a + 1 for a in 1..n."""
    examples = [
        Example(key=example_key("sums", f"Compute {a} + 1.", str(a + 1)), prompt=f"Compute {a} + 1.",
                reference=str(a + 1), task="sums")
        for a in range(1, n + 1)
    ]
    return ListTask("sums", examples, verifier_name="math", gold_fn=lambda ex: f"\\\\boxed{{{ex.reference}}}")


if "myns/Sums-v0" not in ENVS:
    register_env("myns/Sums-v0", task=sums, verifier="math", template="plain-v0")
'''


@pytest.fixture
def sums_module(tmp_path: Path) -> Path:
    path = tmp_path / "my_sums.py"
    path.write_text(SUMS_MODULE)
    yield path
    from rlvr.envs.registration import unregister_env

    unregister_env("myns/Sums-v0")


def _small_run(out: Path, *extra: str) -> list[str]:
    return [
        "train",
        str(ROOT / "configs/default.yaml"),
        f"train.output_dir={out}",
        "train.steps=2",
        "rollout.prompts_per_step=2",
        "rollout.group_size=4",
        "rollout.max_new_tokens=16",
        "train.batch_size=8",
        "buffer.capacity=16",
        "learner.micro_batch_size=8",
        "eval.every=0",
        "train.checkpoint_every=0",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
        *extra,
    ]


def test_own_env_from_the_cli_with_import(sums_module: Path, tmp_path: Path, capsys) -> None:
    import yaml

    assert cli(["envs", "check", "myns/Sums-v0"]) == 2
    err = capsys.readouterr().err
    assert "unknown environment 'myns/Sums-v0'" in err and "--import" in err
    assert cli(["envs", "check", "myns/Sums-v0", "--import", str(sums_module)]) == 0
    assert "passes gymnasium's check_env" in capsys.readouterr().out
    # train: the module list is recorded in the config (so Ray workers and a resumed run import it too)
    out = tmp_path / "run"
    args = _small_run(out, "env.id=myns/Sums-v0", "env.kwargs={}", "--dry-run")
    assert cli([*args, "--import", str(sums_module)]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["env"]["imports"] == [str(sums_module)]
    # eval takes the same flag, and both option spellings
    folder = tmp_path / "eval"
    argv = [
        "eval",
        "--backend",
        "hf",
        "--model",
        "tiny-arithmetic",
        "--task",
        "myns/Sums-v0",
        "--import",
        str(sums_module),
        "--limit",
        "3",
        "--max-new-tokens",
        "8",
        "--workers",
        "0",
        "--quiet",
        "--output-dir",
        str(folder),
        "n=5",
    ]
    assert cli(argv) == 0
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["samples"] == 3 and summary["settings"]["env_options"] == {"n": 5}


def test_env_from_an_installed_package_entry_point(tmp_path: Path, monkeypatch) -> None:
    from rlvr.envs import registration

    pkg = tmp_path / "site" / "rlvr_plugin_sums"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(SUMS_MODULE.replace("myns/Sums-v0", "plug/Sums-v0"))
    info = tmp_path / "site" / "rlvr_plugin_sums-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rlvr-plugin-sums\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[rlvr.envs]\nsums = rlvr_plugin_sums\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(registration, "_plugins_loaded", False)
    try:
        env = registration.make_env("plug/Sums-v0")
        assert env.task.name == "sums" and len(env.task) == 9
    finally:
        registration.unregister_env("plug/Sums-v0")


@pytest.mark.parametrize(
    ("override", "message"),
    [
        (
            "env.id=rlvr/Arithmetc-v0",
            "unknown environment 'rlvr/Arithmetc-v0'; did you mean 'rlvr/Arithmetic-v0'?",
        ),
        ("env.kwargs.difficulti=1", "unknown option 'difficulti'; did you mean 'difficulty'?"),
        ("model.name=smollm2-135", "'smollm2-135' is not a known alias; did you mean 'smollm2-135m'?"),
        ("model.name=./no/such/model", "no such file or directory"),
        ("train.wandb_project=x", "wandb is not installed"),
    ],
)
def test_train_errors_are_one_line_before_any_work(
    tmp_path: Path, capsys, override: str, message: str
) -> None:
    import importlib.util

    if "wandb" in override and importlib.util.find_spec("wandb") is not None:
        pytest.skip("wandb is installed here, so a wandb project is valid")
    out = tmp_path / "run"
    for dry in ((), ("--dry-run",)):
        assert cli([*_small_run(out, override), *dry]) == 2
        err = capsys.readouterr().err
        assert message in err, err
        assert err.strip().count("\n") == 0 and "Traceback" not in err  # one line, no traceback
        assert not out.exists()  # nothing was started, nothing left behind


def test_a_training_run_is_a_model_for_eval_and_train(tmp_path: Path, capsys) -> None:
    out = tmp_path / "myrun"
    assert cli(_small_run(out)) == 0
    capsys.readouterr()
    for model in (out, out / "checkpoints" / "latest", out / "checkpoints" / "step-000002"):
        folder = tmp_path / "evals" / model.name
        argv = [
            "eval",
            "--backend",
            "hf",
            "--model",
            str(model),
            "--limit",
            "4",
            "--max-new-tokens",
            "16",
            "--workers",
            "0",
            "--quiet",
            "--output-dir",
            str(folder),
        ]
        assert cli(argv) == 0, capsys.readouterr().err
        summary = json.loads((folder / "summary.json").read_text())
        # the run's env and its prompt format (plain text, as trained), not MATH-500 with chat prompts
        assert summary["settings"]["env"] == "rlvr/Arithmetic-v0"
        assert summary["settings"]["env_options"] == {"difficulty": 0, "template": "plain-v0"}
        assert summary["template"]["chat"] is False and summary["template"]["name"] == "plain-v0"
    with pytest.warns(UserWarning, match="trained with chat=False prompts but --chat"):
        cli(
            [
                "eval",
                "--backend",
                "hf",
                "--model",
                str(out),
                "--chat",
                "--limit",
                "1",
                "--max-new-tokens",
                "4",
                "--workers",
                "0",
                "--quiet",
                "--output-dir",
                str(tmp_path / "chat"),
            ]
        )
    # the default output dir names the run and the checkpoint, so two checkpoints never share one
    from rlvr.cli.eval import _trained_setup

    _, run, env_id, _ = _trained_setup(str(out))
    assert run.checkpoint.name == "step-000002" and env_id == "rlvr/Arithmetic-v0"
    # and training can start from a run's weights
    assert cli(_small_run(tmp_path / "next", f"model.name={out}", "--dry-run")) == 0


def _eval_args(folder: Path, *extra: str) -> list[str]:
    return [
        "eval",
        "--backend",
        "hf",
        "--model",
        "tiny-arithmetic",
        "--max-new-tokens",
        "4",
        "--workers",
        "0",
        "--quiet",
        "--output-dir",
        str(folder),
        *extra,
    ]


def test_eval_defaults_to_the_test_split_and_records_it(tmp_path: Path) -> None:
    import datasets

    from rlvr.tasks import fixture_path

    ds = datasets.load_dataset("json", data_files=str(fixture_path("gsm8k")), split="train")
    ds.select(range(4)).to_parquet(str(tmp_path / "data" / "train-00000-of-00001.parquet"))
    ds.select(range(4, 7)).to_parquet(str(tmp_path / "data" / "test-00000-of-00001.parquet"))
    folder = tmp_path / "eval"
    assert cli(_eval_args(folder, "--task", "rlvr/GSM8K-v0", f"path={tmp_path / 'data'}")) == 0
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["settings"]["env_options"]["split"] == "test"
    assert summary["counts"]["samples"] == 3  # the 3 test rows, not the 4 training rows
    assert (
        cli(_eval_args(tmp_path / "e2", "--task", "rlvr/GSM8K-v0", f"path={tmp_path / 'data'}", "split=tset"))
        == 2
    )


def test_repeated_problems_count_once_and_reruns_agree(tmp_path: Path) -> None:
    folder = tmp_path / "eval"
    argv = _eval_args(
        folder,
        "--task",
        "rlvr/Arithmetic-v0",
        "difficulty=0",
        "--limit",
        "100",
        "--samples",
        "2",
        "--temperature",
        "1.0",
    )
    with pytest.warns(UserWarning, match="only 81 distinct problems"):
        assert cli(argv) == 0
    first = json.loads((folder / "summary.json").read_text())
    lines = (folder / "samples.jsonl").read_text().splitlines()
    keys = {json.loads(line)["key"] for line in lines}
    assert len(keys) == 81 and len(lines) == first["counts"]["samples"] == 162
    with pytest.warns(UserWarning, match="only 81 distinct problems"):
        assert cli(argv) == 0  # a rerun reuses every sample and reports the same numbers
    second = json.loads((folder / "summary.json").read_text())
    assert second["counts"]["reused"] == 162 and second["summary"] == first["summary"]


def test_no_resume_never_overwrites_an_earlier_run(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    assert cli(_small_run(out)) == 0
    before = (out / "metrics.csv").read_text()
    capsys.readouterr()
    for dry in ((), ("--dry-run",)):
        assert cli([*_small_run(out), "--no-resume", *dry]) == 2
        err = capsys.readouterr().err
        assert "holds an earlier run (checkpoint step-000002, metrics.csv)" in err and "--overwrite" in err
    assert (out / "metrics.csv").read_text() == before  # untouched
    assert cli([*_small_run(out), "--no-resume", "--overwrite"]) == 0
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("run.prev-")]
    assert len(aside) == 1 and (aside[0] / "metrics.csv").read_text() == before
    # `latest` of the new run names one of its own checkpoints
    latest = (out / "checkpoints" / "latest").read_text().strip()
    assert (out / "checkpoints" / latest).is_dir()


def test_resume_with_changed_settings_shows_them_and_needs_a_flag(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    assert cli(_small_run(out)) == 0
    capsys.readouterr()
    assert cli([*_small_run(out), "train.steps=3", "learner.lr=5e-4", "rollout.group_size=2"]) == 2
    err = capsys.readouterr().err
    assert "learner.lr: 0.0001 -> 0.0005" in err and "rollout.group_size: 4 -> 2" in err
    assert "train.steps" not in err  # running longer is what resuming is for
    assert "--accept-changes" in err
    assert cli([*_small_run(out), "train.steps=3"]) == 0  # more steps alone: resumes quietly
    assert cli([*_small_run(out), "train.steps=4", "learner.lr=5e-4", "--accept-changes"]) == 0
    assert (out / "config.prev-1.yaml").is_file()
    assert "lr: 0.0005" in (out / "config.yaml").read_text()


def test_sigterm_checkpoints_and_the_run_resumes(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    args = [a for a in _small_run(out) if not a.startswith("train.steps=")] + ["train.steps=200"]
    cmd = [sys.executable, "-m", "rlvr", *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 480  # a loaded machine takes a while to import torch and load the model
    logged = False
    while time.monotonic() < deadline and proc.poll() is None:  # wait for two logged steps
        metrics = out / "metrics.csv"
        if metrics.exists() and len(metrics.read_text().splitlines()) >= 3:
            logged = True
            break
        time.sleep(0.2)
    if not logged:
        proc.kill()
        pytest.fail(f"the run logged no step before the signal was due: {proc.communicate()[1][-2000:]}")
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 130, stderr[-2000:]
    assert "run the same command again to resume" in stderr
    latest = (out / "checkpoints" / "latest").read_text().strip()
    stopped_at = int(latest.split("-")[1])
    assert 2 <= stopped_at < 200
    rows = (out / "metrics.csv").read_text().splitlines()
    assert len(rows) - 1 == stopped_at  # every logged step is in the checkpoint: nothing lost
    resumed = [a for a in args if not a.startswith("train.steps=")] + [f"train.steps={stopped_at + 1}"]
    assert cli(resumed) == 0
    assert len((out / "metrics.csv").read_text().splitlines()) - 1 == stopped_at + 1


def test_progress_shows_loss_and_the_latest_held_out_score() -> None:
    from rlvr.train.metrics import progress_fields

    fields = progress_fields(
        {"rollout/reward_mean": 0.5, "train/loss": 0.01234}, {"eval/pass@1": 0.4321}, R=8
    )
    assert fields == {"reward": "0.500", "loss": "0.0123", "heldout@1": "0.432", "R": 8}


def _register_sums_env(env_id: str, fn: Any) -> None:
    from rlvr.envs import register_env
    from rlvr.verifiers.base import FunctionVerifier

    namespace: dict[str, Any] = {}
    exec(SUMS_MODULE.split("\n\nif ")[0], namespace)  # the sums task factory of the user module above
    register_env(
        env_id, task=namespace["sums"], verifier=FunctionVerifier(fn, "user-fn"), template="plain-v0"
    )


def test_a_verifier_that_fails_on_every_gold_is_refused_at_make() -> None:
    from rlvr.envs import make_env
    from rlvr.envs.registration import unregister_env

    def broken(completion: str, reference: str) -> float:
        return completion.index("no such text")  # raises ValueError on everything

    _register_sums_env("myns/BrokenSums-v0", broken)
    try:
        with pytest.raises(
            ConfigError, match=r"fails on every gold answer .*ValueError: substring not found"
        ):
            make_env("myns/BrokenSums-v0")
    finally:
        unregister_env("myns/BrokenSums-v0")


def test_verifier_errors_warn_once_with_the_traceback_then_stop_the_run(
    tmp_path: Path, capsys, caplog
) -> None:
    import logging

    from rlvr.envs.registration import unregister_env

    def picky(completion: str, reference: str) -> bool:
        if completion.strip() == f"\\boxed{{{reference}}}":
            return True
        raise KeyError("the picky verifier only reads gold completions")  # a bug in the user's verifier

    _register_sums_env("myns/PickySums-v0", picky)
    try:
        with caplog.at_level(logging.WARNING, logger="rlvr.train"):
            code = cli(_small_run(tmp_path / "run", "env.id=myns/PickySums-v0", "env.kwargs={}"))
        assert code == 2
        err = capsys.readouterr().err
        assert "the verifier failed (raised, returned a wrong type or timed out) on" in err
        assert "env.max_verifier_error_rate=0.5" in err
        warnings_ = [
            r.getMessage()
            for r in caplog.records
            if "the verifier failed or passed its deadline on" in r.getMessage()
        ]
        assert (
            len(warnings_) == 1
            and "KeyError: 'the picky verifier only reads gold completions'" in warnings_[0]
        )
        assert "Traceback (most recent call last)" in warnings_[0]
        # with the limit raised, the same run goes on (the errors are logged as rollout/reason_error)
        out = tmp_path / "tolerant"
        assert (
            cli(
                _small_run(
                    out, "env.id=myns/PickySums-v0", "env.kwargs={}", "env.max_verifier_error_rate=1.0"
                )
            )
            == 0
        )
        assert "rollout/reason_error" in (out / "metrics.csv").read_text().splitlines()[0]
    finally:
        unregister_env("myns/PickySums-v0")


def test_eval_report_fits_80_columns_and_auto_picks_vllm_when_installed(tmp_path: Path, capsys) -> None:
    import importlib.util

    from rlvr.cli.eval import _backend

    assert _backend("auto") == ("vllm" if importlib.util.find_spec("vllm") else "hf")
    assert _backend("hf") == "hf"
    argv = _eval_args(
        tmp_path / "e",
        "--task",
        "rlvr/Arithmetic-v0",
        "difficulty=0",
        "template=plain-v0",
        "--limit",
        "3",
        "--samples",
        "16",
        "--k",
        "1,4,16",
        "--temperature",
        "1.0",
    )
    assert cli(argv) == 0
    out = capsys.readouterr().out
    assert "pass@16" in out and "maj@16" in out and "no answer" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out  # nothing cut to fit


def test_rlvr_verify_name_works_for_any_registered_verifier(tmp_path: Path, capsys) -> None:
    assert (
        cli(["verify", "countdown", "<answer>(3+5)*2</answer>", "{numbers: [2, 3, 5], target: 16}", "--yaml"])
        == 0
    )
    assert capsys.readouterr().out.startswith("correct")
    assert (
        cli(
            [
                "verify",
                "countdown",
                "<answer>3+5+2</answer>",
                "{numbers: [2, 3, 5], target: 16}",
                "--yaml",
                "--exit-code",
            ]
        )
        == 1
    )
    assert capsys.readouterr().out.startswith("wrong")
    assert cli(["verify", "countdwn", "x", "y"]) == 2
    assert "did you mean 'countdown'?" in capsys.readouterr().err
    mine = tmp_path / "my_verifier.py"
    mine.write_text(
        "from rlvr.verifiers import verifier\n\n"
        "@verifier('myns/reversed', overwrite=True)\n"
        "def reversed_(completion, reference):\n"
        "    return completion.strip() == reference[::-1]\n"
    )
    assert cli(["verify", "myns/reversed", "cba", "abc", "--import", str(mine), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["passed"] is True


def test_training_saves_a_few_eval_completions_and_plots_one_quantity_per_panel(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [a for a in _small_run(out) if a not in ("eval.every=0", "train.plot=false")]
    assert cli([*argv, "eval.every=1", "eval.num_examples=5", "eval.save_samples=3"]) == 0
    lines = [json.loads(x) for x in (out / "eval_samples.jsonl").read_text().splitlines()]
    assert len(lines) == 2 * 3  # two evaluations, three completions each
    assert {"prompt", "completion", "passed", "reason", "policy_version"} <= set(lines[0])
    from rlvr.train.metrics import PANELS

    titles = [title for title, _ in PANELS]
    assert (
        "loss" in titles and "replay ratio (uses per rollout)" in titles and (out / "training.png").is_file()
    )


def test_a_single_file_dataset_cannot_be_its_own_held_out_set(tmp_path: Path, capsys) -> None:
    from rlvr.tasks import fixture_path

    out = tmp_path / "run"
    argv = [a for a in _small_run(out) if a != "eval.every=0"]
    gsm = ["env.id=rlvr/GSM8K-v0", f"env.kwargs={{path: {fixture_path('gsm8k')}}}", "eval.every=1"]
    assert cli([*argv, *gsm, "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "also occurs in the training task, so no disjoint held-out set exists" in err
    assert not out.exists()
