"""Loading dataset rows with `datasets.load_dataset`, from a Hugging Face hub name or from local files.

Both paths go through `datasets.load_dataset`: a hub id (`"openai/gsm8k"`, config `"main"`) or a local file or
directory of parquet / jsonl files (`load_dataset("json", data_files=...)`), so the same code serves a
machine without hub access. Small fixture files in the formats of the hub datasets ship in `rlvr/data/`.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from rlvr.core.errors import DataError

#: fixture name -> file in rlvr/data (same columns as the hub dataset it stands in for)
FIXTURES = {
    "math": "math_sample.jsonl",
    "math500": "math500_sample.jsonl",
    "gsm8k": "gsm8k_sample.jsonl",
    "mbpp": "mbpp_sample.jsonl",
}

_BUILDERS = {
    ".parquet": "parquet",
    ".jsonl": "json",
    ".json": "json",
    ".jsonl.gz": "json",
    ".json.gz": "json",
}


def fixture_path(name: str) -> Path:
    """The path of a small fixture dataset shipped with rlvr (`math`, `math500`, `gsm8k`, `mbpp`)."""
    if name not in FIXTURES:
        raise DataError(f"no shipped fixture named {name!r}; available: {', '.join(sorted(FIXTURES))}")
    return Path(str(resources.files("rlvr").joinpath("data", FIXTURES[name])))


def _suffix(path: Path) -> str:
    name = path.name.lower()
    for suffix in sorted(_BUILDERS, key=len, reverse=True):
        if name.endswith(suffix):
            return suffix
    return path.suffix.lower()


def _local_files(path: Path, split: str | None) -> list[Path]:
    if path.is_file():
        return [path]
    files = sorted(p for p in path.rglob("*") if p.is_file() and _suffix(p) in _BUILDERS)
    if not files:
        raise DataError(
            f"directory {str(path)!r} holds no .parquet/.jsonl/.json files; point path= at the data files"
        )
    if split:
        # the hub's parquet layout names files by split (test-00000-of-00001.parquet, data/test/...)
        matching = [p for p in files if _split_pattern(split).search(str(p.relative_to(path)).lower())]
        if matching:
            return matching
        available = sorted(
            {
                s
                for p in files
                for s in KNOWN_SPLITS
                if _split_pattern(s).search(str(p.relative_to(path)).lower())
            }
        )
        if available:  # the directory is split, just not by this name: never fall back to all of it
            raise DataError(
                f"no split {split!r} in {str(path)!r}; available splits: {', '.join(available)} "
                f"(pass split=one of them)"
            )
    return files


#: split names recognised in file and directory names of a local dataset
KNOWN_SPLITS = ("train", "test", "validation", "valid", "dev", "val")


def _split_pattern(split: str) -> re.Pattern[str]:
    return re.compile(rf"(^|[^a-z]){re.escape(split.lower())}([^a-z]|$)")


def load_rows(
    hub_id: str,
    *,
    config: str | None = None,
    split: str = "test",
    path: str | os.PathLike[str] | None = None,
) -> Any:
    """A `datasets.Dataset` of rows from `path` (a file or a directory) if given, else from the hub id."""
    import datasets  # imported here: it is slow to import and only loaders need it

    if path is not None:
        local = Path(path).expanduser()
        if not local.exists():
            raise DataError(
                f"data path {str(local)!r} does not exist; pass an existing parquet/jsonl file or dir"
            )
        files = _local_files(local, split)
        builders = {_BUILDERS.get(_suffix(f)) for f in files}
        if None in builders or len(builders) != 1:
            raise DataError(
                f"cannot load {[str(f) for f in files]}: use only parquet files or only json/jsonl files"
            )
        builder = builders.pop()
        try:
            return datasets.load_dataset(builder, data_files=[str(f) for f in files], split="train")
        except Exception as exc:  # datasets raises many types for malformed files
            bad = _first_bad_json_line(files) if builder == "json" else None
            raise DataError(
                f"cannot read {str(local)!r} as a dataset: {bad or f'{type(exc).__name__}: {exc}'}"
            ) from exc
    offline = _hub_unreachable()
    try:
        with _offline_mode(offline is not None):  # cached copies still load; no 25 s of retries first
            return datasets.load_dataset(hub_id, config, split=split)
    except Exception as exc:
        cfg = f", {config!r}" if config else ""
        why = f"{offline}, and it is not in the local cache" if offline else f"{type(exc).__name__}: {exc}"
        raise DataError(
            f"cannot load {hub_id!r}{cfg} split {split!r} from the Hugging Face hub ({why}). Without hub "
            "access, download the dataset elsewhere and point rlvr at its parquet/jsonl files: "
            "`-o path=FILE_OR_DIR` on the rlvr command line, `env.kwargs.path=...` in a train config, or "
            "path=... in Python (rlvr.tasks.fixture_path(...) names the shipped samples)"
        ) from exc


def _hub_unreachable(timeout_s: float = 3.0) -> str | None:
    """Why the hub cannot be reached (offline setting, or its host does not resolve), else None."""
    import concurrent.futures
    import socket
    from urllib.parse import urlparse

    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE or os.environ.get("HF_DATASETS_OFFLINE", "").upper() in (
        "1",
        "ON",
        "YES",
        "TRUE",
    ):
        return "offline mode is set (HF_HUB_OFFLINE)"
    host = urlparse(constants.ENDPOINT).hostname or "huggingface.co"
    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:  # getaddrinfo has no timeout of its own
        pool.submit(socket.getaddrinfo, host, 443).result(timeout=timeout_s)
    except Exception as exc:
        return f"the hub host {host} cannot be resolved ({type(exc).__name__}: {exc})"
    finally:
        pool.shutdown(wait=False)
    return None


@contextlib.contextmanager
def _offline_mode(on: bool) -> Iterator[None]:
    """Temporarily make `datasets` and `huggingface_hub` use only their local caches."""
    import datasets
    from huggingface_hub import constants

    if not on:
        yield
        return
    saved = datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE
    datasets.config.HF_HUB_OFFLINE = constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE = saved


def _first_bad_json_line(files: list[Path]) -> str | None:
    """'FILE line N: what is wrong' for the first JSONL line that is not a JSON object (datasets names none)."""
    import gzip
    import json

    for file in files:
        if _suffix(file) in (".json", ".json.gz"):
            continue  # a single JSON document: its parser's position is already in the error
        opener = gzip.open if file.name.endswith(".gz") else open
        with opener(file, "rt", encoding="utf-8", errors="replace") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    return f"{file} line {number}: not valid JSON ({exc.msg} at column {exc.colno})"
                if not isinstance(value, dict):
                    return (
                        f"{file} line {number}: expected a JSON object per line, got {type(value).__name__}"
                    )
    return None


def iter_rows(dataset: Any, *, desc: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Enumerate rows as dicts, with a progress bar for large datasets."""
    from tqdm.auto import tqdm

    n = len(dataset)
    yield from enumerate(tqdm(dataset, total=n, desc=desc, disable=n < 2000, leave=False))


def require_columns(
    row: dict[str, Any], columns: tuple[str, ...], *, what: str, where: str | None = None
) -> None:
    """Raise `DataError` naming the missing or null (None) columns of a dataset row."""
    missing = [c for c in columns if c not in row]
    if missing:
        raise DataError(
            f"{what} rows need columns {list(columns)}; missing {missing} (row has {sorted(row)}). "
            "Point path= at data in the hub dataset's format"
        )
    # a null cell would otherwise become the string "None" (a gold answer nobody can match)
    null = [c for c in columns if row[c] is None]
    if null:
        raise DataError(
            f"{where or what + ' row'}: column(s) {null} are null; fill them in or drop the row from the data"
        )
