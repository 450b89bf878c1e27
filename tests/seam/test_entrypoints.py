"""`engine.entrypoints` finds the entry points `importlib.metadata` finds, in the same
order, on this installation and on made-up `sys.path`s (duplicates, egg-info files,
comments, the current folder, a zip file), without importing importlib.metadata."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from engine import entrypoints
from engine.entrypoints import EntryPoint, entry_points, parse


def metadata_points(group: str, name: str | None = None) -> list[tuple[str, str, str]]:
    found = importlib.metadata.entry_points(group=group)
    return [(p.name, p.value, p.group) for p in found if name is None or p.name == name]


def ours(group: str, name: str | None = None) -> list[tuple[str, str, str]]:
    return [tuple(p) for p in entry_points(group, name)]  # type: ignore[misc]


def all_groups() -> set[str]:
    return {p.group for d in importlib.metadata.distributions() for p in d.entry_points}


def test_every_group_of_this_installation_is_importlib_metadatas() -> None:
    groups = all_groups()
    assert {"pbem.games", "pbem.grammars", "console_scripts"} <= groups
    for group in sorted(groups):
        assert ours(group) == metadata_points(group), group
    assert ours("pbem.default", "game") == metadata_points("pbem.default", "game") != []
    assert ours("no.such.group") == []


def dist(folder: Path, name: str, text: str | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    info = folder / name
    if name.endswith("-file.egg-info"):  # an old distutils egg-info file, not a folder
        info.write_text("Metadata-Version: 1.0\nName: x\n")
        return
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.split('-')[0]}\n")
    if text is not None:
        (info / "entry_points.txt").write_text(text)


@pytest.fixture
def made_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two site folders and the current folder, with distributions that shadow each
    other by normalized name."""
    one, two, here = tmp_path / "one", tmp_path / "two", tmp_path / "here"
    dist(one, "Game_A-1.0.dist-info", "# a comment\n[t.games]\nalpha = pkg.a:GAME\n\n"
         "[t.other]\nx=y\n")
    dist(one, "game.a-2.0.dist-info", "[t.games]\nshadowed = pkg.z:GAME\n")
    dist(one, "no_points-1.0.dist-info", None)
    dist(one, "old-file.egg-info", None)
    dist(two, "game_a-3.0.dist-info", "[t.games]\nshadowed_too = pkg.z:GAME\n")
    dist(two, "beta-0.1.egg-info", "  [t.games]  \n  beta =  pkg.b : make.GAME [extra] \n"
         "beta2=pkg.b\n")
    dist(two, "old-1.0.dist-info", "[t.games]\nold = shadowed.by:the_file\n")
    dist(here, "here-1.0.dist-info", "[t.games]\nhere = pkg.h:GAME\n")
    monkeypatch.chdir(here)
    monkeypatch.setattr(sys, "path", ["", str(one), str(tmp_path / "missing"), str(two)])
    return tmp_path


def test_made_up_paths_are_read_as_importlib_metadata_reads_them(made_up: Path) -> None:
    names = [p.name for p in entry_points("t.games")]
    # the first of Game_A / game.a in one's listing wins; two's game_a and old do not
    assert names in (["here", "alpha", "beta", "beta2"], ["here", "shadowed", "beta", "beta2"])
    for group in ("t.games", "t.other", "none"):
        assert ours(group) == metadata_points(group), group
    assert ours("t.games", "beta") == metadata_points("t.games", "beta")


def test_a_zip_on_the_path_is_left_to_importlib_metadata(made_up: Path) -> None:
    archive = made_up / "dists.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\n")
        z.writestr("zipped-1.0.dist-info/entry_points.txt", "[t.games]\nzipped = pkg.zz:G\n")
    sys.path.append(str(archive))
    assert entrypoints._entry_point_texts() is None
    assert ("zipped", "pkg.zz:G", "t.games") in ours("t.games")
    assert ours("t.games") == metadata_points("t.games")


def test_parse_and_load() -> None:
    points = parse("[g]\n# no\na = engine.errors:GameError\nb = engine.errors\n"
                   "c = engine.protocol : Variant.__name__ [x]\n")
    assert points == [EntryPoint("a", "engine.errors:GameError", "g"),
                      EntryPoint("b", "engine.errors", "g"),
                      EntryPoint("c", "engine.protocol : Variant.__name__ [x]", "g")]
    from engine import errors

    assert points[0].load() is errors.GameError and points[0].module == "engine.errors"
    assert points[1].load() is errors
    assert points[2].load() == "Variant" and points[2].module == "engine.protocol"
    with pytest.raises(ValueError):
        parse("[g]\nno equals sign\n")
    with pytest.raises(ValueError):
        EntryPoint("bad", "not a module", "g").load()


def test_the_registries_import_no_importlib_metadata() -> None:
    """Finding a game and its grammar loads neither importlib.metadata nor email."""
    probe = ("import json, sys; from engine.registry import get_game; "
             "from notation.registry import grammar_for; get_game(); grammar_for(); "
             "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120)
    modules = set(json.loads(done.stdout))
    assert "engine.princes.definition" in modules
    assert not {m for m in modules if m.startswith(("importlib.metadata", "email", "zipfile"))}
