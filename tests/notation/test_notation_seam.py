"""The generic notation (notation/*.py, outside notation/princes) imports no game: not
the Princes notation, not the Princes engine. Games come in through the registry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

NOTATION = Path(__file__).parents[2] / "notation"
GENERIC = sorted(NOTATION.glob("*.py"))
GAME_PACKAGES = ("notation.princes", "engine.princes")


def imported(path: Path) -> set[str]:
    """The modules `path` imports, relative imports made absolute (in `notation`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(["notation", *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_the_generic_modules_are_found() -> None:
    names = {p.name for p in GENERIC}
    assert {"__init__.py", "log.py", "words.py", "reader.py", "grammar.py",
            "registry.py"} <= names


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: p.name)
def test_generic_module_imports_no_game(path: Path) -> None:
    bad = sorted(m for m in imported(path)
                 if any(m == g or m.startswith(g + ".") for g in GAME_PACKAGES))
    assert not bad, f"{path.name} imports {bad}"


def test_the_check_sees_a_game_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from .princes import GRAMMAR\nimport engine.princes.commands\n")
    assert {"notation.princes.GRAMMAR", "engine.princes.commands"} <= imported(sample)
