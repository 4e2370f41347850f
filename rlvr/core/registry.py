"""Named registries for swappable parts (tasks, verifiers, losses, samplers, ...), with lazy entry points.

A registry maps names to objects. Objects may be registered eagerly (`registry.register("x", obj)` or as a
decorator) or lazily as `"package.module:attr"` strings that are imported on first `get`. Third-party
packages can contribute entries through Python entry points (`[project.entry-points."rlvr.tasks"]`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

from rlvr.core.errors import ConfigError, RegistryError

T = TypeVar("T")

#: `namespace/Name-vN`, the id format of Gymnasium and of rlvr's tasks and environments.
VERSIONED_ID = re.compile(r"^(?P<ns>[A-Za-z0-9_.\-]+)/(?P<name>[A-Za-z0-9_.\-]+?)-v(?P<version>\d+)$")


def load_entry_point(spec: str) -> Any:
    """Import `"package.module:attr"` (attr may be dotted) and return the object."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise RegistryError(f"entry point {spec!r} is not of the form 'package.module:attr'")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"cannot import module {module_name!r} for entry point {spec!r}: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise RegistryError(
                f"module {module_name!r} has no attribute {attr!r} (entry point {spec!r})"
            ) from exc
    return obj


class Registry(Generic[T]):
    """A thread-safe name -> object map with lazy `"module:attr"` entries and optional versioned ids."""

    def __init__(self, kind: str, *, versioned: bool = False, entry_point_group: str | None = None) -> None:
        self.kind = kind
        self.versioned = versioned
        self.entry_point_group = entry_point_group
        self._items: dict[str, T | str] = {}
        self._lock = threading.RLock()
        self._entry_points_loaded = entry_point_group is None

    def _check_name(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise RegistryError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if self.versioned and not VERSIONED_ID.match(name):
            raise RegistryError(
                f"{self.kind} id {name!r} is not of the form 'namespace/Name-vN' (e.g. 'myns/MyTask-v0'); "
                "versioned ids let results name exactly which prompt/verifier/reward produced them"
            )

    @overload
    def register(self, name: str, obj: None = None, *, overwrite: bool = False) -> Callable[[T], T]: ...

    @overload
    def register(self, name: str, obj: T | str, *, overwrite: bool = False) -> T | str: ...

    def register(self, name: str, obj: Any = None, *, overwrite: bool = False) -> Any:
        """Register `obj` (or a `"module:attr"` string) under `name`; without `obj`, return a decorator."""
        self._check_name(name)

        def _add(value: Any) -> Any:
            with self._lock:
                if name in self._items and not overwrite and self._items[name] is not value:
                    raise RegistryError(
                        f"{self.kind} {name!r} is already registered; pass overwrite=True to replace it, "
                        "or bump the version suffix (-vN) if the behaviour changed"
                    )
                self._items[name] = value
            return value

        if obj is None:
            return _add
        return _add(obj)

    def unregister(self, name: str) -> None:
        """Remove `name` (no error if it is absent)."""
        with self._lock:
            self._items.pop(name, None)

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded:
            return
        with self._lock:
            if self._entry_points_loaded:
                return
            self._entry_points_loaded = True
            for ep in entry_points(group=self.entry_point_group or ""):
                self._items.setdefault(ep.name, ep.value)

    def get(self, name: str) -> T:
        """Return the object registered under `name`, importing it first if it was registered lazily."""
        self._load_entry_points()
        with self._lock:
            if name not in self._items:
                known = ", ".join(sorted(self._items)) or "(none)"
                raise RegistryError(f"unknown {self.kind} {name!r}; registered: {known}")
            value = self._items[name]
        if isinstance(value, str):
            loaded = load_entry_point(value)
            with self._lock:
                self._items[name] = loaded
            return loaded
        return value

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._load_entry_points()
        with self._lock:
            return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        self._load_entry_points()
        with self._lock:
            return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._items)} entries)"


def import_user_modules(modules: Sequence[str]) -> None:
    """Import the user's modules (dotted names or .py files) so the envs they register become available."""
    for name in modules:
        try:
            if name.endswith(".py"):
                path = Path(name).expanduser().resolve()
                if not path.is_file():
                    raise FileNotFoundError(f"no such file: {str(path)!r}")
                module_name = f"rlvr_user_{path.stem}"
                if module_name in sys.modules:
                    continue
                spec = importlib.util.spec_from_file_location(module_name, path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                sys.modules[module_name] = module
                spec.loader.exec_module(module)
                continue
            if importlib.util.find_spec(name.split(".")[0]) is None and "" not in sys.path:
                sys.path.insert(0, os.getcwd())  # a console script does not see the working directory
            importlib.import_module(name)
        except Exception as exc:
            raise ConfigError(
                f"cannot import {name!r} (given to load your envs): {type(exc).__name__}: {exc}. Pass a module "
                "importable from the working directory or PYTHONPATH, an installed package, or a .py file path"
            ) from exc
