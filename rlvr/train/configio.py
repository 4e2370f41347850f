"""Frozen-dataclass configs <-> YAML/dicts, with `a.b.c=value` overrides and typo-catching errors.

Nothing here knows about specific components: any tree of frozen dataclasses works, which keeps each
component's config next to its code (DESIGN rule 8) while one YAML file describes a whole run.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml

from rlvr.core.errors import ConfigError

C = TypeVar("C")


class ConfigLoader(yaml.SafeLoader):
    """YAML's safe loader, but `1e-4` and `3e5` are floats (YAML 1.2, as TRL/verl users write them)."""


# PyYAML follows YAML 1.1, where a float needs a dot: `lr: 1e-4` would load as the string "1e-4".
ConfigLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)


def load_yaml(text: str) -> Any:
    """Parse YAML text with `ConfigLoader` (safe; floats in exponent notation without a dot)."""
    return yaml.load(text, Loader=ConfigLoader)  # safe: ConfigLoader is a SafeLoader


class _Replace(dict[str, Any]):
    """A mapping given whole on the command line (`env.kwargs={}`): it replaces, never merges."""


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """Check/convert one YAML value to the annotated field type (ints to floats, lists to tuples, ...)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(value, arg, where)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(f"{where}: {value!r} matches none of {_type_name(tp)}")
    if origin is typing.Literal:
        if value not in args:
            raise ConfigError(f"{where}: {value!r} is not one of {list(args)}")
        return value
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if isinstance(value, tp):
            return value
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a mapping for {tp.__name__}, got {value!r}")
        return from_dict(tp, value, where=where)
    if origin in (tuple, list, Sequence) or tp in (tuple, list):
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        item_tp = args[0] if args else Any
        items = [_coerce(v, item_tp, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is not list and tp is not list else items
    if origin in (dict, Mapping) or tp in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a mapping, got {value!r}")
        return dict(value)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise ConfigError(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true/false, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string, got {value!r}")
        return value
    return value


def from_dict(cls: type[C], data: Mapping[str, Any], *, where: str = "") -> C:
    """Build dataclass `cls` from a (nested) mapping; unknown keys fail with a did-you-mean suggestion."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where or cls.__name__}: expected a mapping, got {data!r}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for key, value in data.items():
        path = f"{where}.{key}" if where else str(key)
        if key not in fields:
            close = difflib.get_close_matches(str(key), fields, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(sorted(fields))}"
            raise ConfigError(f"unknown config key {path!r}{hint}")
        kwargs[key] = _coerce(value, hints[key], path)
    try:
        return cls(**kwargs)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}" if where else str(exc)) from None
    except TypeError as exc:
        raise ConfigError(f"{where or cls.__name__}: {exc}") from None


def to_dict(config: Any) -> Any:
    """A plain, YAML-safe dict/list tree of a dataclass config."""
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return {f.name: to_dict(getattr(config, f.name)) for f in dataclasses.fields(config)}
    if isinstance(config, tuple | list):
        return [to_dict(v) for v in config]
    if isinstance(config, Mapping):
        return {str(k): to_dict(v) for k, v in config.items()}
    return config


def parse_overrides(overrides: Sequence[str]) -> dict[str, Any]:
    """Turn `["train.steps=10", "buffer.sampler=prioritized"]` into a nested dict (values parsed as YAML)."""
    nested: dict[str, Any] = {}
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r} is not of the form section.key=value (e.g. train.steps=10)")
        try:
            value = load_yaml(raw) if raw.strip() else ""
        except yaml.YAMLError as exc:
            raise ConfigError(f"override {item!r}: value is not valid YAML ({exc})") from None
        node = nested
        parts = key.strip().split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"override {item!r} conflicts with another override of {part!r}")
        node[parts[-1]] = _Replace(value) if isinstance(value, Mapping) else value
    return nested


def deep_merge(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """Recursively merge `update` into a copy of `base` (mappings merge, everything else replaces)."""
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, _Replace):
            merged[key] = dict(value)
        elif isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def load_config(cls: type[C], path: str | Path | None = None, overrides: Sequence[str] = ()) -> C:
    """Load a YAML file (optional) into `cls`, applying `key=value` overrides on top."""
    data: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise ConfigError(
                f"config file {str(path)!r} does not exist; pass a YAML file such as configs/default.yaml"
            )
        try:
            loaded = load_yaml(path.read_text()) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"config file {str(path)!r} is not valid YAML: {exc}") from None
        if not isinstance(loaded, Mapping):
            raise ConfigError(f"config file {str(path)!r} must hold a mapping at top level")
        data = dict(loaded)
    data = deep_merge(data, parse_overrides(overrides))
    return from_dict(cls, data)


def dump_config(config: Any, path: str | Path) -> None:
    """Write a config as YAML (what a run actually used, saved next to its outputs)."""
    Path(path).write_text(yaml.safe_dump(to_dict(config), sort_keys=False))
