"""Which build of pbem this is: its version, and whether its engine's hot modules are
the compiled core (setup.py) or pure Python. Read from the installed files, without
importing them."""

from __future__ import annotations

import sys
from importlib import metadata
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path

PACKAGES = ("engine", "notation", "pbem")


def compiled_modules() -> list[str]:
    """The modules of pbem's packages that are compiled here (an extension module,
    which Python imports in preference to the source beside it), sorted."""
    found: set[str] = set()
    for package in PACKAGES:
        spec = find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec else []:
            for path in Path(root).rglob("*"):
                suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
                if suffix is None or "__pycache__" in path.parts:
                    continue
                parts = path.relative_to(root).parts
                found.add(".".join((package, *parts[:-1], path.name[: -len(suffix)])))
    return sorted(found)


def version() -> str:
    try:
        return metadata.version("pbem")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def describe() -> str:
    """One line: `pbem --version`."""
    compiled = compiled_modules()
    core = (f"compiled core: {len(compiled)} modules (mypyc)" if compiled
            else "pure Python (no compiled core)")
    return f"pbem {version()}, {core}, Python {sys.version.split()[0]}"
