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


# --------------------------------------------------------------- what users read

GAME_OBJECTS = frozenset({
    "card", "cards", "deck", "decks", "grid", "grids", "cell", "cells",
    "florin", "florins", "money", "pp", "vp", "building", "buildings", "profession",
    "professions", "tile", "tiles", "dice", "die", "bid", "bids", "auction", "auctions",
    "fame", "prestige", "landscape", "landscapes", "palazzo", "city", "cities",
    "alliance", "alliances", "work", "works"})
"""Words for one game's objects: a generic module's messages and the shared templates
say none of them (the words come from the game's presenter: `pbem.presenter`)."""

ALLOWED = {
    ("pbem/replay.py", "pp"), ("pbem/replay.py", "vp"),  # a Result tag's units, not a sentence
}
"""(module, word) pairs of a string that is no game's word there."""

SHELL = ROOT / "pbem"
MESSAGE_WORD = re.compile(r"[A-Za-z]+")


def _said(path: Path) -> list[tuple[int, str]]:
    """The strings a generic module may show a user: every string constant but a
    docstring, and in the command line's modules (cli*.py) docstrings too, which typer
    prints as help."""
    tree = ast.parse(path.read_text("utf-8"))
    docs: set[int] = set()
    if not path.name.startswith("cli"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    docs.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def _game_objects(text: str) -> list[str]:
    return [w for w in MESSAGE_WORD.findall(text) if w.lower() in GAME_OBJECTS]


def shell_modules() -> list[Path]:
    return sorted(p for p in SHELL.glob("*.py"))


def shared_templates() -> list[Path]:
    return sorted(p for p in (ROOT / "templates").iterdir()
                  if p.is_file() and p.suffix in (".txt", ".html"))


@pytest.mark.parametrize("path", shell_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_shell_says_no_games_object(path: Path) -> None:
    rel = str(path.relative_to(ROOT))
    bad = [f"{line}: {word} in {text[:60]!r}" for line, text in _said(path)
           for word in _game_objects(text) if (rel, word.lower()) not in ALLOWED]
    assert not bad, f"{rel} names a game's objects to its users: {bad[:10]}"


@pytest.mark.parametrize("path", shared_templates(), ids=lambda p: p.name)
def test_the_shared_templates_say_no_games_object(path: Path) -> None:
    found = _game_objects(path.read_text("utf-8"))
    assert not found, f"templates/{path.name} names a game's objects: {found}"


def test_the_message_check_sees_a_games_object(tmp_path: Path) -> None:
    source = '"""A module."""\n\n\ndef f():\n    """Show every card."""\n' \
             '    return f"the {1} florins"\n'
    for name, found in (("cli_probe.py", ["card", "florins"]), ("probe.py", ["florins"])):
        probe = tmp_path / name
        probe.write_text(source, "utf-8")  # typer shows a cli module's docstrings as help
        said = [w for _, text in _said(probe) for w in _game_objects(text)]
        assert sorted(said) == found
    assert shared_templates() and len(shell_modules()) > 30
