"""The optional mypyc build (setup.py): which modules it compiles, and, in the run that
tests it (scripts/test.sh sets PBEM_EXPECT_COMPILED=1), that the tests beside this one
import those compiled modules and not the source tree's Python files."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> list[str]:
    """The dotted names of setup.py's COMPILED files."""
    tree = ast.parse((ROOT / "setup.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            files: list[str] = ast.literal_eval(node.value)
            return [f.removesuffix(".py").replace("/", ".") for f in files]
    raise AssertionError("setup.py has no COMPILED list")


def test_every_compiled_module_is_a_source_file() -> None:
    names = compiled_modules()
    assert names and len(set(names)) == len(names)
    for name in names:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.skipif(os.environ.get("PBEM_EXPECT_COMPILED") != "1",
                    reason="PBEM_EXPECT_COMPILED=1 is set by the compiled build's test run")
def test_the_compiled_modules_are_the_ones_imported() -> None:
    extensions = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in compiled_modules():
        path = importlib.import_module(name).__file__ or ""
        assert path.endswith(extensions), f"{name} is not compiled: {path}"
    for package in ("engine", "notation", "pbem"):
        path = Path(importlib.import_module(package).__file__ or "").resolve()
        assert not path.is_relative_to(ROOT / package), f"{package} is the source tree's"
