"""A worker's cache of games (bounded, least recently used out first) and a cold
process's start (`pbem poll --once` from cron): the state snapshot, the events read
only when asked for, the compiled templates kept between processes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlmodel import col

import pbem.loading
from engine.princes.legal import legal_commands
from engine.protocol import CHANCE
from notation.registry import grammar_for
from pbem.config import Config, load_config
from pbem.loading import EventLog, Games, moves_since_player_command
from pbem.moderator import Moderator
from pbem.outbound import Renderer, bytecode_cache
from pbem.playing import rebuild_tracker
from pbem.store import Game, Snapshot, Store, load_events

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator
from .helpers import run, send, state_of


def play(mod: Moderator, game: str, moves: int, seed: int = 1) -> list[str]:
    """`moves` random legal mails, each processed by `mod`; the last one an undo
    request when `moves` is odd (the tracker then holds it). Returns the outcomes."""
    rng, mailbox, smtp, out = random.Random(seed), FakeMailbox(), FakeSmtp(), []
    run(mod, mailbox, smtp)
    for i in range(moves):
        state = state_of(mod, game)
        actors = [s for s in _to_act(mod, game) if s != CHANCE]
        seat = rng.choice(actors)
        if i == moves - 1 and moves % 2:
            line = "undo"
            seat = _last_player(mod, game)
        else:
            line = grammar_for(None).format_command(
                rng.choice(legal_commands(state, seat, free=False)))
        send(mailbox, smtp, PLAYERS[seat].email, f"@v{state.version}\n{line}\n")
        out += [o.status for o in run(mod, mailbox, smtp).outcomes]
    return out


def _last_player(mod: Moderator, game: str) -> int:
    with mod.store.read() as s:
        return moves_since_player_command(s, game)[0][0]


def cold(mod: Moderator) -> Moderator:
    """A new process's moderator on the same database."""
    return Moderator(mod.store, mod.cfg)


def loaded(mod: Moderator, game: str):  # type: ignore[no-untyped-def]
    with mod.store.read() as s:
        row = s.get(Game, game)
        assert row is not None
        return mod.games.load(s, row), mod.games.tracker(s, row), row.version


@pytest.fixture
def played(tmp_path: Path) -> tuple[Moderator, str]:
    mod = make_moderator(f"sqlite:///{tmp_path / 'cold.sqlite'}")
    game = mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="cold-seed")
    assert play(mod, game, 13).count("accepted") == 13
    return mod, game


def test_a_cold_moderator_loads_the_snapshot_and_replays_nothing(played, monkeypatch) -> None:
    mod, game = played
    warm, warm_tracker, version = loaded(mod, game)
    assert warm_tracker.request is not None  # the last mail asked for an undo

    def no_replay(*_: object) -> None:
        raise AssertionError("replayed")

    monkeypatch.setattr(pbem.loading, "fold", no_replay)
    monkeypatch.setattr(pbem.loading, "rebuild_tracker", no_replay)
    got, tracker, _ = loaded(cold(mod), game)
    assert got.state == warm.state and tracker == warm_tracker
    assert isinstance(got.events, EventLog) and got.events.start == version  # none read yet
    with mod.store.read() as s:
        events = load_events(s, game)
        assert got.events[3:] == events[3:] and got.events.start == 3
        assert list(got.events) == events and got.events[-1] == events[-1]
        assert len(got.events) == len(events) == version


def test_a_snapshot_that_does_not_fit_is_replayed_with_the_same_result(played) -> None:
    mod, game = played
    warm, warm_tracker, version = loaded(mod, game)
    with mod.store.read() as s:
        events = load_events(s, game)
        row = s.get(Game, game)
        assert row is not None
        rules = warm.rules
        replayed = pbem.loading.fold(rules.game, events)
        rebuilt = rebuild_tracker(rules.game, rules.grammar, events, replayed,
                                  moves_since_player_command(s, game))
    assert replayed == warm.state and rebuilt == warm_tracker
    for change in ({"engine": "princes-of-florence:0.0.0:stale"}, {"version": version - 1},
                   {"data": b"not a pickle"}):
        with mod.store.transaction() as s:
            s.execute(update(Snapshot).where(col(Snapshot.game_id) == game).values(**change))
        got, tracker, _ = loaded(cold(mod), game)
        assert got.state == warm.state and tracker == warm_tracker
        assert not isinstance(got.events, EventLog)  # a replay reads them all


def test_a_cold_pass_plays_on_as_a_warm_one(tmp_path: Path) -> None:
    """The same mails give the same games, whether every pass is a new process or
    one worker does them all."""
    states = []
    for fresh in (False, True):
        mod = make_moderator(f"sqlite:///{tmp_path / f'{fresh}.sqlite'}")
        game = mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="same-seed")
        rng, mailbox, smtp = random.Random(7), FakeMailbox(), FakeSmtp()
        run(mod, mailbox, smtp)
        for _ in range(25):
            if fresh:
                mod = cold(mod)
            state = state_of(mod, game)
            seat = rng.choice([s for s in range(3) if s in _to_act(mod, game)])
            line = grammar_for(None).format_command(
                rng.choice(legal_commands(state, seat, free=False)))
            send(mailbox, smtp, PLAYERS[seat].email, f"@v{state.version}\n{line}\n")
            assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["accepted"]
        states.append((state_of(mod, game), [smtp.text(m) for m in smtp.history]))
    assert states[0][0] == states[1][0]
    assert len(states[0][1]) == len(states[1][1])


def _to_act(mod: Moderator, game: str) -> tuple[int, ...]:
    got, _, _ = loaded(mod, game)
    return tuple(got.rules.game.to_act(got.state))


def test_the_game_cache_keeps_the_games_used_last(tmp_path: Path) -> None:
    mod = make_moderator(f"sqlite:///{tmp_path / 'lru.sqlite'}")
    mod.games = Games(size=2)
    for g in ("pof-1", "pof-2", "pof-3"):
        mod.new_game(PLAYERS, NOW, game_id=g, seed=g)
    assert len(mod.games) == 2 and "pof-1" not in mod.games
    loaded(mod, "pof-2")  # used: pof-3 is now the oldest
    loaded(mod, "pof-1")
    assert "pof-2" in mod.games and "pof-1" in mod.games and "pof-3" not in mod.games
    # an evicted game is loaded again whole: state and tracker
    again, tracker, _ = loaded(mod, "pof-3")
    assert again.state == state_of(cold(mod), "pof-3")
    assert len(mod.games) == 2


def test_the_cache_size_is_a_setting() -> None:
    cfg = load_config({"PBEM_GAME_CACHE_SIZE": "7"})
    assert cfg.game_cache_size == 7
    assert Moderator(Store("sqlite://"), cfg).games.size == 7
    assert Moderator(Store("sqlite://"), Config()).games.size == 1000


def test_compiled_templates_are_kept_between_processes(tmp_path: Path, monkeypatch) -> None:
    from jinja2 import Environment

    ctx = {"game_id": "pof-1", "title": "t", "lines": ["a"], "turn_line": "",
           "deadline_utc": "", "deadline_local": "", "version": 1, "position": "v1"}
    first = Renderer(cache=bytecode_cache(str(tmp_path / "tc"))).render("notice", ctx)
    assert list((tmp_path / "tc").iterdir())

    def no_compile(*_: object, **__: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(Environment, "_parse", no_compile)
    again = Renderer(cache=bytecode_cache(str(tmp_path / "tc"))).render("notice", ctx)
    assert again == first
    assert bytecode_cache("off") is None
    with pytest.raises(AssertionError, match="compiled again"):
        Renderer(cache=None).render("notice", ctx)
