"""One graded sample as a JSON-able record, and the append-only JSONL file that makes evaluations resumable.

Each line of `samples.jsonl` is one `EvalSample`: which example (key) and sample index, the `settings` hash of
everything that shaped the sample (model, env, template, chat, sampling, seed), the rendered prompt, the
completion, the extracted answer and the verdict. A rerun reads the file back and generates only the
(key, index) pairs it lacks for its own settings hash, so changing `--samples` or `--limit` reuses what exists
and changing the temperature does not mix results. A line cut short by an interrupted run is dropped.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rlvr.core.seeding import stable_hash

#: version of the record layout (bump when fields change meaning)
RECORD_FORMAT = "rlvr-eval-sample-v0"


def json_safe(value: Any, depth: int = 0) -> Any:
    """`value` as plain JSON types (unknown objects become their `str`; deep nesting is cut)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else str(value)
    if depth > 6:
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v, depth + 1) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        try:
            return json_safe(value.item(), depth + 1)
        except (TypeError, ValueError):
            pass
    return str(value)


@dataclass(frozen=True)
class EvalSample:
    """One generated and graded completion of one example (a line of `samples.jsonl`)."""

    #: the example's stable content key
    key: str
    #: sample number within the example, 0..samples-1
    index: int
    #: hash of the settings that produced it (see `settings_hash`)
    settings: str
    task: str
    #: the exact text the model was given (after the chat template)
    prompt: str
    completion: str
    #: the answer the verifier extracted (None: none found, or the verifier does not report one)
    extracted: str | None
    passed: bool
    score: float
    reason: str
    num_tokens: int
    #: "stop" (EOS / stop string) or "length" (cut at max_new_tokens)
    finish_reason: str
    #: the reference as text, when it is text (math gold answers)
    reference: str | None = None
    #: grouping fields of the example (level, subject, ...), JSON-safe
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: the verdict's details, JSON-safe
    details: Mapping[str, Any] = field(default_factory=dict)
    policy_version: int = 0

    def to_json(self) -> str:
        """One JSONL line (no newline)."""
        record = {"format": RECORD_FORMAT, **asdict(self)}
        return json.dumps(json_safe(record), ensure_ascii=False)

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> EvalSample:
        """Rebuild a sample from a parsed JSONL record (unknown fields are ignored)."""
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in record.items() if k in names})


def settings_hash(settings: Mapping[str, Any]) -> str:
    """The stable hash that keys samples: same settings -> same hash on every machine."""
    return stable_hash(dict(settings))


def read_samples(path: str | Path) -> list[EvalSample]:
    """All samples of a JSONL file; an unfinished last line (interrupted run) is cut off the file, with a warning."""
    path = Path(path)
    if not path.exists():
        return []
    raw = path.read_bytes()
    *lines, tail = raw.split(b"\n")  # tail: b"" when the file ends with a newline, else an unfinished line
    samples: list[EvalSample] = []
    bad: list[int] = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            samples.append(EvalSample.from_dict(json.loads(line)))
        except (json.JSONDecodeError, TypeError, UnicodeDecodeError):
            bad.append(lineno)
    if tail.strip():
        try:
            samples.append(EvalSample.from_dict(json.loads(tail)))
            with path.open("ab") as fh:  # complete but unterminated: terminate it so appends stay separate
                fh.write(b"\n")
        except (json.JSONDecodeError, TypeError, UnicodeDecodeError):
            # an unfinished write would corrupt the next append: cut it; the rerun regenerates that sample
            with path.open("r+b") as fh:
                fh.truncate(len(raw) - len(tail))
            warnings.warn(f"{path}: dropped an unfinished last line (interrupted run?)", stacklevel=2)
    if bad:
        warnings.warn(
            f"{path}: skipped {len(bad)} unreadable line(s) (e.g. line {bad[0]}); those samples are regenerated",
            stacklevel=2,
        )
    return samples


def append_samples(path: str | Path, samples: Iterable[EvalSample]) -> None:
    """Append samples to a JSONL file (flushed, so an interruption loses at most the line being written)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = "".join(s.to_json() + "\n" for s in samples)
    if lines:
        with path.open("a", encoding="utf-8") as fh:
            fh.write(lines)
            fh.flush()
