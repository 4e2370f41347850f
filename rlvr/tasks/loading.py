"""Loading dataset rows with `datasets.load_dataset`, from a Hugging Face hub name or from local files.

Both paths go through `datasets.load_dataset`: a hub id (`"openai/gsm8k"`, config `"main"`) or a local file or
directory of parquet / jsonl files (`load_dataset("json", data_files=...)`), so the same code serves a
machine without hub access. Small fixture files in the formats of the hub datasets ship in `rlvr/data/`.
"""

from __future__ import annotations

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
        pattern = re.compile(rf"(^|[^a-z]){re.escape(split)}([^a-z]|$)")
        matching = [p for p in files if pattern.search(str(p.relative_to(path)).lower())]
        if matching:
            return matching
    return files


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
        try:
            return datasets.load_dataset(builders.pop(), data_files=[str(f) for f in files], split="train")
        except Exception as exc:  # datasets raises many types for malformed files
            raise DataError(f"cannot read {str(local)!r} as a dataset: {type(exc).__name__}: {exc}") from exc
    try:
        return datasets.load_dataset(hub_id, config, split=split)
    except Exception as exc:
        cfg = f", {config!r}" if config else ""
        raise DataError(
            f"cannot load {hub_id!r}{cfg} split {split!r} from the Hugging Face hub ({type(exc).__name__}: "
            f"{exc}). Without hub access, download the dataset elsewhere and pass path= to its parquet/jsonl "
            "files, or try the shipped sample with path=rlvr.tasks.fixture_path(...)"
        ) from exc


def iter_rows(dataset: Any, *, desc: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Enumerate rows as dicts, with a progress bar for large datasets."""
    from tqdm.auto import tqdm

    n = len(dataset)
    yield from enumerate(tqdm(dataset, total=n, desc=desc, disable=n < 2000, leave=False))


def require_columns(row: dict[str, Any], columns: tuple[str, ...], *, what: str) -> None:
    """Raise `DataError` naming the missing columns of a dataset row."""
    missing = [c for c in columns if c not in row]
    if missing:
        raise DataError(
            f"{what} rows need columns {list(columns)}; missing {missing} (row has {sorted(row)}). "
            "Point path= at data in the hub dataset's format"
        )
