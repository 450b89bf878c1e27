"""Signorie, random self-play: every game of 2, 3 and 4 players ends after round 7,
the events fold again to the same state (also through JSON), nothing is created or
lost, the face-down alliance tiles reach no view before the final scoring, and the
standings follow the points.

`engine.selfplay.play_random` picks uniformly among `legal_commands` (Tracks choices
bounded, `engine.signorie.legal`), chance from the game seed.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from functools import cache

import pytest

from engine.codec import HIDDEN
from engine.match import fold
from engine.selfplay import Playout, play_random
from engine.signorie import events as ev
from engine.signorie.commands import CAREERS, ROWS
from engine.signorie.definition import GAME
from engine.signorie.state import State, replace, replace_board
from engine.signorie.views import view_for

GAMES = [(n, seed) for n in (2, 3, 4) for seed in range(12)]


@cache
def playout(n: int, seed: int) -> Playout:
    return play_random(GAME, n, f"signorie-{seed}")


def figures(state: State, seat: int) -> Counter[str]:
    """Where `seat`'s figures are, by sex."""
    p = state.players[seat]
    out: Counter[str] = Counter()
    out["m"] += p.males + p.general_m + p.threshold_m
    out["f"] += p.females + p.general_f + p.threshold_f
    out["m"] += sum(1 for c in CAREERS for o, _ in state.figures_on(c) if o == seat)
    for city in state.cities:
        out["m"] += sum(1 for o in city.mission if o == seat)
        out["f"] += sum(1 for o in city.marriage if o == seat)
    return out


def check_invariants(state: State) -> None:
    r = state.rules
    start = Counter(m=r.start_available[0] + r.start_general[0],
                    f=r.start_available[1] + r.start_general[1])
    for seat, p in enumerate(state.players):
        assert figures(state, seat) == start, (seat, figures(state, seat))
        assert p.florins >= 0 and p.points >= 0, p
        assert min(p.males, p.females, p.general_m, p.general_f) >= 0, p
        assert len(p.dice) <= r.max_dice and len({c for c, _ in p.dice}) == len(p.dice), p
        assert len(p.face_down) == len(p.hidden)
        assert 0 <= p.initiative <= r.initiative_top
        assert p.sons <= len(r.son_points)
        for row in ROWS:
            shown = Counter(r.plans[p.plan][row])
            have = Counter(r.tile_family(t) for t in p.open_tiles(row))
            assert not have - shown, (row, have, shown)  # S9
    # no alliance tile is made or lost
    on_fields = [c.tile(f) for c in state.cities for f in ("marriage", "mission") if c.tile(f)]
    held = [t for p in state.players for _, t in p.tiles] + [t for p in state.players
                                                               for t in p.hidden]
    assert Counter(state.pool) + Counter(on_fields) + Counter(held) == Counter(r.alliance_tiles)
    drawn = len(r.alliance_tiles) - len(state.pool)
    removed = r.alliance_removed[len(state.players)] * len(r.families)
    assert sum(state.family_left) == len(r.alliance_tiles) - removed - drawn


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_a_random_game_ends_and_replays(n: int, seed: int) -> None:
    p = playout(n, seed)
    state = p.state
    assert state.finished and state.round == state.rules.rounds
    assert fold(GAME, p.events) == state
    stored = [GAME.from_dict(json.loads(json.dumps(GAME.to_dict(e)))) for e in p.events]
    assert stored == list(p.events)
    again = GAME.new_state(p.events[0])
    for e in p.events[1:]:
        again = GAME.evolve(again, e)
        check_invariants(again)


@pytest.mark.parametrize(("n", "seed"), GAMES[::3])
def test_the_same_seed_plays_the_same_game(n: int, seed: int) -> None:
    assert play_random(GAME, n, f"signorie-{seed}").events == playout(n, seed).events


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_face_down_tiles_are_seen_by_nobody_until_the_end(n: int, seed: int) -> None:
    """S8: every seat (the owner too) and the public see '?' for a drawn tile, and no
    view depends on which tiles lie face down (or are left in the pool)."""
    p = playout(n, seed)
    state = GAME.new_state(p.events[0])
    seats: list[int | None] = [None, *range(n)]
    drawn = 0
    for e in p.events[1:]:
        if isinstance(e, ev.AllianceDrawn):
            drawn += 1
            for s in seats:
                assert not GAME.is_visible(e, s)
                assert GAME.redact(e, s).tile == HIDDEN
                assert GAME.to_dict(GAME.redact(e, s))["tile"] == HIDDEN
        state = GAME.evolve(state, e)
        if isinstance(e, ev.AllianceDrawn | ev.GameEnded):
            other = _other_hidden(state)
            for s in seats:
                assert view_for(state, s) == view_for(other, s)
    ended = p.events[-1]
    assert isinstance(ended, ev.GameEnded) and len(ended.revealed) == drawn
    assert sorted(t for _, _, t in ended.revealed) == sorted(
        t for b in state.players for t in b.hidden)


def _other_hidden(state: State) -> State:
    """The same position with other face-down tiles and another pool."""
    fake = tuple(sorted(set(state.rules.alliance_tiles)))
    for seat, b in enumerate(state.players):
        state = replace_board(state, seat, hidden=tuple(fake[(i + 7) % len(fake)]
                                                        for i, _ in enumerate(b.hidden)))
    return replace(state, pool=tuple(reversed(state.pool)))


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_points_add_up_and_the_standings_follow_them(n: int, seed: int) -> None:
    p = playout(n, seed)
    state = p.state
    scored = Counter[int]()
    for e in p.events:
        if isinstance(e, ev.PointsScored):
            scored[e.seat] += e.points
        elif isinstance(e, ev.Married | ev.MissionSent | ev.SonMarried):
            scored[e.seat] += e.points
    ended = p.events[-1]
    assert isinstance(ended, ev.GameEnded)
    for seat, b in enumerate(state.players):
        assert b.points == scored[seat] + ended.careers[seat] + ended.rows[seat]
    result = GAME.result(state)
    assert result is not None
    assert [s.score for s in result.standings] == [b.points for b in state.players]
    best = max(b.points for b in state.players)
    winners = [s for s in range(n) if state.players[s].points == best]
    # ties go to the player earlier in the last turn order (S12)
    assert result.winners == (min(winners, key=state.order.index),)
    assert [s.place for s in result.ranked()] == list(range(1, n + 1))
    fields = result.standings[0].fields
    assert {"florins", "helpers", "alliance_tiles", "face_down_tiles"} <= set(fields)


def test_every_rule_of_the_game_is_used_in_self_play() -> None:
    """The random games reach every kind of event (helpers, tasks, the extra action...)."""
    kinds = Counter(type(e).__name__ for n, seed in GAMES for e in playout(n, seed).events)
    wanted = {cls.__name__ for cls in ev.EVENT_TYPES.values()} - {
        "GameStarted", "Reverted", "ExtraSkipped"}
    assert wanted <= set(kinds), wanted - set(kinds)
    assert dataclasses.is_dataclass(ev.GameEnded)
