"""The entry points of the installed distributions, found as `importlib.metadata`
finds them, without importing it.

Importing `importlib.metadata` (email, zipfile, csv, importlib.resources...) costs
more than a log tool's whole replay (scripts/bench_startup.py), and the registries
(`engine.registry`) only need each distribution's `entry_points.txt`. So this reads
them the way `importlib.metadata.entry_points` does: every `*.dist-info` and
`*.egg-info` folder in each folder on `sys.path` (`""`: the current one), in the
order listed, a distribution counted once by its normalized name (the first found),
each file's `[group]` sections of `name = value` lines. Where the search could be
anything else (a zip file or an `.egg` folder on `sys.path`, or another finder on
`sys.meta_path` that declares distributions), `importlib.metadata` itself answers.
tests/seam/test_entrypoints.py holds both to the same answers.
"""

from __future__ import annotations

import os
import re
import sys
from importlib import import_module
from importlib.machinery import PathFinder
from typing import Any, NamedTuple

PATTERN = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
"""An entry point's value, `module:attr.attr [extras]` (importlib.metadata's)."""

_INFO = (".dist-info", ".egg-info")


class EntryPoint(NamedTuple):
    """One `name = value` line of a distribution's `[group]`."""

    name: str
    value: str
    group: str

    @property
    def module(self) -> str:
        found = PATTERN.match(self.value)
        if found is None:
            raise ValueError(f"entry point {self.name!r} of {self.group}: bad value "
                             f"{self.value!r}")
        return found.group("module")

    def load(self) -> Any:
        """The object the value names (a module without `:attr`), imported."""
        found = PATTERN.match(self.value)
        if found is None:
            raise ValueError(f"entry point {self.name!r} of {self.group}: bad value "
                             f"{self.value!r}")
        target: Any = import_module(found.group("module"))
        for attr in filter(None, (found.group("attr") or "").split(".")):
            target = getattr(target, attr)
        return target


def entry_points(group: str, name: str | None = None) -> list[EntryPoint]:
    """The entry points of `group` (and `name`, if given) of every installed
    distribution, in `importlib.metadata.entry_points(group=..., name=...)`'s order."""
    texts = _entry_point_texts()
    if texts is None:
        from importlib.metadata import entry_points as metadata_entry_points

        found = [EntryPoint(p.name, p.value, p.group)
                 for p in metadata_entry_points(group=group)]
    else:
        found = [p for text in texts for p in parse(text) if p.group == group]
    return found if name is None else [p for p in found if p.name == name]


def parse(text: str) -> list[EntryPoint]:
    """The entry points an `entry_points.txt` lists: `[group]` headers, then `name =
    value` lines; blank lines and `#` comments are skipped."""
    found = []
    group: str | None = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
        elif group is not None:
            key, sep, value = line.partition("=")
            if not sep:
                raise ValueError(f"not an entry point: {line!r}")
            found.append(EntryPoint(key.strip(), value.strip(), group))
    return found


def _entry_point_texts() -> list[str] | None:
    """Each distribution's `entry_points.txt` (those that have one), or None where this
    search would not be importlib.metadata's."""
    if any(getattr(f, "find_distributions", None) is not None and f is not PathFinder
           for f in sys.meta_path):
        return None
    seen: set[str] = set()
    texts = []
    for root in sys.path:
        if not isinstance(root, str):
            return None
        try:
            children = os.listdir(root or ".")
        except (OSError, ValueError):
            if os.path.isfile(root):
                return None  # a zip file: importlib.metadata reads it
            continue
        if os.path.basename(root).lower().endswith(".egg") and "egg-info" in children:
            return None
        for child in children:
            stem, dot, ext = child.rpartition(".")
            if not dot or f".{ext.lower()}" not in _INFO:
                continue
            if f".{ext}" not in _INFO:
                return None  # importlib.metadata would name it by its METADATA
            name = normalize(stem.partition("-")[0])
            if name in seen:
                continue
            seen.add(name)
            try:
                with open(os.path.join(root, child, "entry_points.txt"),
                          encoding="utf-8") as f:
                    texts.append(f.read())
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError,
                    PermissionError):
                continue
    return texts


def normalize(name: str) -> str:
    """A distribution's name as importlib.metadata compares them (PEP 503, `_` for `-`)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")
