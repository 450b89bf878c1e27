"""Finished games stored from earlier engine versions still give the same result.

`tests/fixtures/versions/<engine version>/` holds games exported by the moderator
under that version (made by scripts/make_version_fixtures.py) and `expected.json`
with their standings and final chain heads. Each is verified and replayed with the
current engine: a release that would change a finished game's result, or any event
of it, fails here. (A deliberate change raises engine.__version__ and adds fixtures
of the new version; the old ones stay, and the test then says which game changed.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import __version__
from engine.princes.definition import GAME
from pbem.logs import replay_log
from pbem.verify import verify_log

VERSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "versions"
FIXTURES = sorted(VERSIONS.glob("*/*.log"))


def _expected(path: Path) -> dict[str, object]:
    data: dict[str, dict[str, object]] = json.loads(
        (path.parent / "expected.json").read_text("utf-8"))
    return data[path.name]


def test_fixtures_cover_player_counts_undo_and_this_version() -> None:
    assert (VERSIONS / __version__).is_dir(), \
        f"no fixtures of engine {__version__}: run scripts/make_version_fixtures.py"
    cases = [_expected(p) for p in FIXTURES]
    assert {c["players"] for c in cases} >= {3, 4, 5}
    assert any(c["undos"] for c in cases)


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURES])
def test_a_stored_game_verifies_with_the_same_result(path: Path) -> None:
    want = _expected(path)
    text = path.read_text("utf-8")
    r = verify_log(text, file=str(path))
    assert r.ok, r.summary()
    assert r.engine == path.parent.name  # the stamp the game was judged under
    assert f"v{r.version} sha256:{r.head}" == want["head"]
    assert [[s.name, *s.fields.values()] for s in r.standings()] == want["standings"]
    assert list(r.winners) == want["winners"] and r.undos == want["undos"]
    replayed = replay_log(text, file=str(path))
    assert replayed.ok and replayed.finished, replayed.error
    assert [[s.name, *s.fields.values()] for s in replayed.standings()] == want["standings"]


def _restamp(text: str, engine: str, change_at: int | None = None) -> str:
    """The log as if an engine `engine` had judged it: the same commands, the first
    event stamped with that version, the chain recomputed. With `change_at`, that
    engine recorded event number `change_at` differently (one more fame)."""
    import dataclasses

    from engine.chain import chain
    from engine.princes.commands import Command
    from engine.princes.events import Event, GameStarted
    from engine.princes.game import new_state
    from engine.princes.state import CHANCE
    from engine.undo import START
    from engine.undo import play as undo_play
    from notation import Chance, Move, Tag, iter_log, split_players
    from pbem.export import annotated_log

    tags: list[tuple[str, str]] = []
    moves: list[tuple[int, Command]] = []
    for entry in iter_log(text):
        if isinstance(entry, Tag):
            tags.append((entry.name, entry.value))
        elif isinstance(entry, Chance):
            moves.append((CHANCE, entry.command))
        elif isinstance(entry, Move):
            seat = split_players(dict(tags)["Players"]).index(entry.actor)
            moves.append((seat, entry.command))
    t = dict(tags)
    started = GameStarted(split_players(t["Players"]), "standard", t["Money"] == "open", True,
                          t["Rules"], engine, t["SeedCommit"].removeprefix("sha256:"))
    state, tracker, events = new_state(started), START, list[Event]([started])
    for seat, cmd in moves:
        state, new, tracker = undo_play(GAME, state, tracker, seat, cmd)
        events += new
    if change_at is not None:
        old = events[change_at]
        events[change_at] = dataclasses.replace(old, fame=old.fame + 1)
    hashes = chain(events, key=t["Seed"])
    tags = [(k, engine if k == "Engine" else
             f"v{len(hashes)} sha256:{hashes[-1]}" if k == "Head" else v) for k, v in tags]
    return annotated_log(started, moves, hashes, tags)


def test_a_log_judged_by_another_engine_version_is_replayed_and_compared() -> None:
    from engine.princes.events import BuildingBuilt

    path = next(p for p in FIXTURES if p.parent.name == __version__)
    text = path.read_text("utf-8")
    older = _restamp(text, "0.1.5")
    r = verify_log(older)
    assert r.ok, r.summary()
    assert r.engine == "0.1.5" and r.version == verify_log(text).version
    assert any("judged by engine 0.1.5" in n for n in r.notes)
    assert any("same result" in n for n in r.notes)
    # Had that engine recorded one build differently, this engine's replay shows where.
    events = replay_log(text).events
    at = next(i for i, e in enumerate(events) if isinstance(e, BuildingBuilt))
    changed = verify_log(_restamp(text, "0.1.5", change_at=at))
    assert not changed.ok and changed.problem is not None
    assert changed.problem.check == "chain"
    assert "judged by engine 0.1.5" in changed.problem.message
    assert f"engine {__version__}" in changed.problem.message
    assert "judges it differently from this line on" in changed.problem.message
    line = changed.problem.line
    assert " build " in older.splitlines()[line - 1]
