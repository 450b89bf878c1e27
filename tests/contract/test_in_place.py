"""The replay path (`Match(..., in_place=True)`) against the event-sourced path, over
every registered game, variant and player count (see `in_place.check_in_place`).

PBEM_IN_PLACE_GAMES sets how many random games are played in all (default 300),
shared out over the tables; for example PBEM_IN_PLACE_GAMES=5000 for a long run.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.match import Match
from engine.princes.commands import Bid, Done, Pass
from engine.princes.definition import GAME as PRINCES
from engine.protocol import CHANCE, Variant
from engine.registry import GAMES
from engine.selfplay import NAMES, play_random

from .in_place import check_in_place

GAMES_IN_ALL = int(os.environ.get("PBEM_IN_PLACE_GAMES", "300"))
TABLES = [
    pytest.param(game, variant, n, id=f"{game.name}-{variant.name}-{n}")
    for game in GAMES.all()
    for variant in game.variants.values()
    for n in range(variant.min_players, variant.max_players + 1)
]


@pytest.mark.parametrize(("game", "variant", "players"), TABLES)
def test_in_place_agrees_with_the_event_sourced_path(game: Any, variant: Variant,
                                                      players: int) -> None:
    games = max(1, GAMES_IN_ALL // len(TABLES))
    tried = sum(check_in_place(game, variant, players, seed) for seed in range(games))
    assert tried >= games


def _princes_match(moves: int) -> Match:
    """A four-player game of Princes replayed in place for its first `moves` moves."""
    p = play_random(PRINCES, 4, "refused")
    match = Match.start(PRINCES, p.players, seed=p.seed, in_place=True)
    for seat, cmd in p.moves[:moves]:
        match.play(seat, cmd)
    return match


@pytest.mark.parametrize("moves", [30, 60, 100])
def test_a_refused_command_leaves_the_state_in_place_unchanged(moves: int) -> None:
    match = _princes_match(moves)
    state, events = match.state, list(match.events)
    kept = PRINCES.owned_copy(state)
    for seat in range(4):
        for cmd in (Bid(5), Pass(), Done(), *PRINCES.legal_commands(state, (seat + 1) % 4)):
            if cmd in PRINCES.legal_commands(state, seat):
                continue
            with pytest.raises(IllegalMoveError):
                match.play(seat, cmd)
            assert match.state is state and state == kept
            assert match.events == events


def test_a_state_given_to_a_match_in_place_is_never_changed() -> None:
    p = play_random(PRINCES, 3, "given")
    slow = Match.start(PRINCES, p.players, seed=p.seed)
    for seat, cmd in p.moves[:40]:
        slow.play(seat, cmd)
    given = slow.state
    kept = PRINCES.owned_copy(given)
    fast = Match(PRINCES, given, list(slow.events), seed=p.seed, in_place=True)
    for seat, cmd in p.moves[40:]:
        fast.play(seat, cmd)
        assert given == kept
    assert fast.finished and fast.state == p.state and fast.events == list(p.events)


def test_the_tracker_of_a_match_in_place_is_worked_out_from_its_events() -> None:
    p = play_random(PRINCES, 4, "tracker")
    slow = Match.start(PRINCES, p.players, seed=p.seed)
    fast = Match.start(PRINCES, p.players, seed=p.seed, in_place=True)
    for seat, cmd in p.moves[:50]:
        slow.play(seat, cmd)
        fast.play(seat, cmd)
    assert fast.tracker == slow.tracker and fast.tracker.last is not None
    seat = next(s for s in range(4) if fast.legal(s) != [])
    assert fast.legal(seat) == slow.legal(seat)
    for seat, cmd in p.moves[50:]:  # from here on it plays as any other match
        assert fast.play(seat, cmd) == slow.play(seat, cmd)
        assert fast.tracker == slow.tracker
    assert fast.state == slow.state == p.state


def test_chance_in_place() -> None:
    match = _princes_match(0)
    assert match.to_act() == (CHANCE,)
    assert match.resolve_chance()
    assert match.to_act() != (CHANCE,)
    assert set(match.names) == set(NAMES[:4])
