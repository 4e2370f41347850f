"""Math word-problem datasets: MATH (Hendrycks et al.), MATH-500 and GSM8K, graded by the math verifier.

Gold answers: MATH's is the last `\\boxed{}` of the solution (a row without one is rejected at load, naming the
row), MATH-500's is its `answer` column, GSM8K's follows the final `####`. Every gold is checked with the
verifier's `validate_reference` when the task loads, so an ungradeable gold fails before training starts.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable
from typing import Any, Literal

from rlvr.core.errors import ConfigError, DataError
from rlvr.core.types import Example
from rlvr.tasks.base import ListTask, example_key
from rlvr.tasks.loading import iter_rows, load_rows, require_columns
from rlvr.verifiers.base import make_verifier

MATH_HUB = "EleutherAI/hendrycks_math"
MATH500_HUB = "HuggingFaceH4/MATH-500"
GSM8K_HUB = "openai/gsm8k"

#: hub config name -> subject name as the datasets spell it (MATH's `type`, MATH-500's `subject`)
MATH_SUBJECTS: dict[str, str] = {
    "algebra": "Algebra",
    "counting_and_probability": "Counting & Probability",
    "geometry": "Geometry",
    "intermediate_algebra": "Intermediate Algebra",
    "number_theory": "Number Theory",
    "prealgebra": "Prealgebra",
    "precalculus": "Precalculus",
}
MATH_LEVELS = (1, 2, 3, 4, 5)

OnInvalid = Literal["raise", "skip"]
_BOX = re.compile(r"\\(?:boxed|fbox)\s*")


def last_boxed(text: str) -> str | None:
    """The content of the last `\\boxed{...}` (or `\\fbox{...}`, or `\\boxed 5`) in `text`, or None."""
    for match in reversed(list(_BOX.finditer(text))):
        start = match.end()
        if start < len(text) and text[start] == "{":
            depth = 0
            for i in range(start, len(text)):
                if text[i] == "{" and (i == 0 or text[i - 1] != "\\"):
                    depth += 1
                elif text[i] == "}" and text[i - 1] != "\\":
                    depth -= 1
                    if depth == 0:
                        content = text[start + 1 : i].strip()
                        if content:
                            return content
                        break
        elif match.group(0).endswith(" "):  # `\boxed 5`: the answer runs to the next space or `$`
            content = re.split(r"[\s$]", text[start:], maxsplit=1)[0].strip()
            if content:
                return content
    return None


def _subject_key(subject: str) -> str:
    """Accept the hub config name or the display name of a MATH subject."""
    key = subject.strip().lower().replace(" & ", "_and_").replace(" ", "_")
    if key not in MATH_SUBJECTS:
        raise ConfigError(f"unknown MATH subject {subject!r}; choose from {sorted(MATH_SUBJECTS)}")
    return key


def _level(value: Any) -> int | None:
    """MATH writes 'Level 3' (and 'Level ?' for a few rows), MATH-500 writes 3."""
    if isinstance(value, int):
        return value
    match = re.search(r"\d+", str(value))
    return int(match.group()) if match else None


def _check_levels(levels: Iterable[int] | None) -> set[int] | None:
    if levels is None:
        return None
    wanted = {int(x) for x in levels}
    if not wanted <= set(MATH_LEVELS):
        raise ConfigError(f"MATH levels are 1..5, got {sorted(wanted)}")
    return wanted


def _reject(message: str, on_invalid: OnInvalid, skipped: list[str]) -> None:
    if on_invalid == "raise":
        raise DataError(message)
    skipped.append(message)


def _finish(name: str, examples: list[Example], skipped: list[str], source: str, gold_fn: Any) -> ListTask:
    if skipped:
        warnings.warn(
            f"{name}: skipped {len(skipped)} invalid rows of {source}, e.g. {skipped[0]}", stacklevel=3
        )
    if not examples:
        raise DataError(f"{name}: no examples left from {source}; check the split/subjects/levels filters")
    return ListTask(name, examples, verifier_name="math", gold_fn=gold_fn, description=source)


def _solution_gold(example: Example) -> str:
    return str(example.metadata["solution"])


def load_math(
    split: str = "test",
    *,
    subjects: Iterable[str] | None = None,
    levels: Iterable[int] | None = None,
    path: str | os.PathLike[str] | None = None,
    on_invalid: OnInvalid = "raise",
) -> ListTask:
    """MATH (Hendrycks et al.): 7 subjects x 5 levels; gold = last \\boxed{} of the solution."""
    if on_invalid not in ("raise", "skip"):
        raise ConfigError(f"on_invalid must be 'raise' or 'skip', got {on_invalid!r}")
    keys = [_subject_key(s) for s in subjects] if subjects is not None else list(MATH_SUBJECTS)
    wanted_subjects = {MATH_SUBJECTS[k] for k in keys}
    wanted_levels = _check_levels(levels)
    if path is not None:
        parts = [(str(path), load_rows(MATH_HUB, split=split, path=path))]
    else:  # the hub dataset has one config per subject
        parts = [(f"{MATH_HUB}/{k}", load_rows(MATH_HUB, config=k, split=split)) for k in keys]
    verifier = make_verifier("math")
    examples: list[Example] = []
    skipped: list[str] = []
    for source, rows in parts:
        for i, row in iter_rows(rows, desc=f"loading MATH {split}"):
            require_columns(row, ("problem", "solution"), what="MATH", where=f"MATH row {i} of {source}")
            subject = str(row.get("type", row.get("subject", "")))
            level = _level(row.get("level"))
            if subject not in wanted_subjects or (wanted_levels is not None and level not in wanted_levels):
                continue
            where = f"MATH row {i} of {source} (subject {subject!r}, level {level})"
            gold = last_boxed(row["solution"])
            if gold is None:
                _reject(
                    f"{where} has no \\boxed{{...}} in its solution, so it has no gold answer; add the final "
                    "answer as \\boxed{...} at the end of the solution, or pass on_invalid='skip' to drop it",
                    on_invalid,
                    skipped,
                )
                continue
            try:
                verifier.validate_reference(gold)
            except DataError as exc:
                _reject(
                    f"{where}: gold {gold!r} cannot be graded ({exc}); fix the boxed answer or pass "
                    "on_invalid='skip'",
                    on_invalid,
                    skipped,
                )
                continue
            prompt = row["problem"]
            examples.append(
                Example(
                    key=example_key("math", prompt, gold),
                    prompt=prompt,
                    reference=gold,
                    task="math",
                    metadata={
                        "subject": subject,
                        "level": level,
                        "split": split,
                        "source": source,
                        "row": i,
                        "solution": row["solution"],
                    },
                )
            )
    return _finish(
        "math", examples, skipped, f"MATH {split} ({', '.join(s for s, _ in parts)})", _solution_gold
    )


def load_math500(
    *,
    subjects: Iterable[str] | None = None,
    levels: Iterable[int] | None = None,
    path: str | os.PathLike[str] | None = None,
    on_invalid: OnInvalid = "raise",
) -> ListTask:
    """MATH-500 (the PRM800K test subset of MATH); gold = the `answer` column."""
    wanted_subjects = {MATH_SUBJECTS[_subject_key(s)] for s in subjects} if subjects is not None else None
    wanted_levels = _check_levels(levels)
    rows = load_rows(MATH500_HUB, split="test", path=path)
    source = str(path) if path is not None else MATH500_HUB
    verifier = make_verifier("math")
    examples: list[Example] = []
    skipped: list[str] = []
    for i, row in iter_rows(rows, desc="loading MATH-500"):
        require_columns(
            row, ("problem", "solution", "answer"), what="MATH-500", where=f"MATH-500 row {i} of {source}"
        )
        subject, level = str(row.get("subject", "")), _level(row.get("level"))
        if (wanted_subjects is not None and subject not in wanted_subjects) or (
            wanted_levels is not None and level not in wanted_levels
        ):
            continue
        where = f"MATH-500 row {i} of {source} ({row.get('unique_id', 'no unique_id')})"
        gold = str(row["answer"]).strip() or last_boxed(row["solution"])
        if not gold:
            _reject(f"{where} has an empty answer; fill it or pass on_invalid='skip'", on_invalid, skipped)
            continue
        try:
            verifier.validate_reference(gold)
        except DataError as exc:
            _reject(f"{where}: gold {gold!r} cannot be graded ({exc})", on_invalid, skipped)
            continue
        prompt = row["problem"]
        examples.append(
            Example(
                key=example_key("math500", prompt, gold),
                prompt=prompt,
                reference=gold,
                task="math500",
                metadata={
                    "subject": subject,
                    "level": level,
                    "unique_id": row.get("unique_id"),
                    "source": source,
                    "row": i,
                    "solution": row["solution"],
                },
            )
        )
    return _finish("math500", examples, skipped, f"MATH-500 ({source})", _solution_gold)


def gsm8k_gold(answer: str) -> str | None:
    """The number after GSM8K's final `####`, without thousands separators."""
    if "####" not in answer:
        return None
    gold = answer.rsplit("####", 1)[1].strip().replace(",", "")
    return gold or None


def load_gsm8k(
    split: str = "test",
    *,
    path: str | os.PathLike[str] | None = None,
    on_invalid: OnInvalid = "raise",
) -> ListTask:
    """GSM8K grade-school math ("main" config); gold = the number after `####`."""
    rows = load_rows(GSM8K_HUB, config="main", split=split, path=path)
    source = str(path) if path is not None else f"{GSM8K_HUB} main/{split}"
    verifier = make_verifier("math")
    examples: list[Example] = []
    skipped: list[str] = []
    for i, row in iter_rows(rows, desc=f"loading GSM8K {split}"):
        require_columns(row, ("question", "answer"), what="GSM8K", where=f"GSM8K row {i} of {source}")
        gold = gsm8k_gold(row["answer"])
        where = f"GSM8K row {i} of {source}"
        if gold is None:
            _reject(
                f"{where} has no '#### <answer>' line; add it or pass on_invalid='skip'", on_invalid, skipped
            )
            continue
        try:
            verifier.validate_reference(gold)
        except DataError as exc:
            _reject(f"{where}: gold {gold!r} cannot be graded ({exc})", on_invalid, skipped)
            continue
        prompt = row["question"]
        examples.append(
            Example(
                key=example_key("gsm8k", prompt, gold),
                prompt=prompt,
                reference=gold,
                task="gsm8k",
                metadata={"split": split, "source": source, "row": i, "solution": row["answer"]},
            )
        )
    return _finish("gsm8k", examples, skipped, source, _solution_gold)
