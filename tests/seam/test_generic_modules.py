"""The game seam holds: generic modules name no game and import no game package.

Issue "One engine, many games": adding a game adds its own subpackages
(`engine/<game>/`, `notation/<game>/`, `pbem/<game>/`, `templates/<game>/`) and
entry points, and changes no generic module. This test reads every generic module's
source: its imports must not reach a game's package, and no word that belongs to The
Princes of Florence (its name, its card, building and profession ids, its own terms)
may appear in it, comments and docstrings included.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "notation", "pbem")
# Migrations record history: the baseline and the upgrade that names existing games.
NOT_GENERIC = ("migrations",)


def _game_packages() -> set[str]:
    """The game subpackages of every layer, read from the registry's entry points."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    points = data["project"]["entry-points"]
    games: set[str] = set()
    for group in points.values():
        for target in group.values():
            module = target.split(":")[0]
            parts = module.split(".")
            if len(parts) >= 2 and parts[0] in LAYERS:
                games.add(parts[1])
    return games


GAME_PACKAGES = _game_packages()


def generic_modules() -> list[Path]:
    out = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            rel = path.relative_to(ROOT / layer).parts
            if rel[0] in GAME_PACKAGES or rel[0] in NOT_GENERIC:
                continue
            out.append(path)
    return out


def _princes_words() -> set[str]:
    """Ids and terms that only The Princes of Florence uses."""
    text = (ROOT / "engine/princes/data/princes.toml").read_text("utf-8")
    data = tomllib.loads(text)
    words = {"princes", "florence", "pof", "palazzo", "jester", "jesters", "landscape",
             "landscapes", "prestige", "profession", "professions", "florin", "florins",
             "recruiting", "money_open", "theologian", "alchemist"}

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and "-" in key:
                    words.add(key)
                collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    collect(data.get("professions", {}))
    collect(data.get("bonus", {}))
    collect(data.get("prestige", {}))
    return {w.lower() for w in words}


WORDS = _princes_words()
WORD_RE = re.compile(r"[a-z][a-z_-]*[a-z]", re.IGNORECASE)


def test_the_game_packages_are_found() -> None:
    assert "princes" in GAME_PACKAGES
    assert len(generic_modules()) > 30


@pytest.mark.parametrize("path", generic_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_module_imports_no_game(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            # relative imports made absolute: `from .x import y` in engine/ is engine.x
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [module, *(f"{module}.{a.name}" for a in node.names)]
        for name in names:
            parts = name.split(".")
            assert not (len(parts) >= 2 and parts[0] in LAYERS and parts[1] in GAME_PACKAGES), (
                f"{path.relative_to(ROOT)}:{node.lineno} imports the game package {name}")


@pytest.mark.parametrize("path", generic_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_module_names_no_princes_word(path: Path) -> None:
    bad = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        for m in WORD_RE.finditer(line):
            if m.group().lower() in WORDS:
                bad.append(f"{number}: {m.group()}")
    assert not bad, f"{path.relative_to(ROOT)} names The Princes of Florence: {bad[:10]}"


def test_the_import_check_sees_relative_imports(tmp_path: Path) -> None:
    fake = ROOT / "engine" / "seam_probe.py"
    fake.write_text("from .princes import definition\n", "utf-8")
    try:
        with pytest.raises(AssertionError, match="imports the game package engine.princes"):
            test_generic_module_imports_no_game(fake)
    finally:
        fake.unlink()


def test_the_check_finds_a_princes_word(tmp_path: Path) -> None:
    sample = "def f():\n    return 'the Palazzo of a composer'\n"
    found = [m.group().lower() for m in WORD_RE.finditer(sample) if m.group().lower() in WORDS]
    assert found == ["palazzo"] or "palazzo" in found
