"""Random self-play: every game ends, replays to the same state, and stays consistent.

`engine.selfplay.play_random` picks uniformly among `legal_commands`, with deals and
draws from the game seed. Each game must end after round 7; `replay(events)` must give
the final state; every event must survive `to_dict`/`from_dict` (through JSON); and the
position after every event must be possible (`check_invariants`).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from princes_playouts import playout

from engine.princes.definition import GAME
from engine.princes.events import AuctionWon, Event, GameStarted, WorkCompleted, from_dict, to_dict
from engine.princes.game import evolve, new_state, replay
from engine.princes.legal import legal_commands
from engine.princes.ruleset import FREEDOMS, LANDSCAPES, STANDARD_RULES
from engine.princes.state import CHANCE, State
from engine.selfplay import play_random

GRID = STANDARD_RULES.grid

GAMES = [(n, seed) for n in (3, 4, 5) for seed in range(20)]


def check_invariants(state: State, played_bonus: set[str]) -> None:
    """Everything the rules fix: nothing is created or lost, no tile overlaps (by the
    rules of the state's variant)."""
    n = len(state.players)
    ps = state.players
    rules = state.rules
    for p in ps:
        assert p.florins >= 0 and p.fame >= 0, p
        assert p.builders <= rules.limits["max_builders"]
        occupied = building_cells = 0
        for tile, cells in (*p.buildings, *p.landscapes):
            mask = GRID.mask_of(cells)
            assert not mask & (occupied | GRID.palazzo), (p.name, tile, cells)
            assert GRID.shape_error(tile, mask) is None
            occupied |= mask
            if tile in rules.buildings:
                building_cells |= mask
        assert (p.occupied, p.building_cells) == (occupied, building_cells)
        assert len({b for b, _ in p.buildings}) == len(p.buildings)
        assert len(set(p.freedoms)) == len(p.freedoms)
        assert p.actions <= rules.limits["actions"]
    # Auction objects (a landscape won but not yet placed is pending).
    placing = state.pending.tile if state.pending is not None else ""
    for kind in LANDSCAPES:
        held = sum(p.count_landscape(kind) for p in ps) + (placing == kind)
        assert state.stacks[kind] + held == rules.stacks[kind]
    if rules.landscape_lot:  # one landscape a round at most, and only as the lot
        assert not state.marked & set(LANDSCAPES)
    assert state.stacks["jester"] + sum(p.jesters for p in ps) == rules.stacks["jester"]
    assert state.stacks["builder"] + sum(p.builders for p in ps) == rules.stacks["builder"]
    assert state.stacks["recruiting"] + sum(p.recruiting + p.recruiters for p in ps) \
        == rules.stacks["recruiting"]
    for b in rules.buildings:
        assert state.buildings_left[b] + sum(p.has_building(b) for p in ps) \
            == rules.building_copies
    per_type = rules.freedoms_per_type(n)
    supply = {f: state.freedoms_left[f] + sum(f in p.freedoms for p in ps) for f in FREEDOMS}
    if state.phase == "deal" and state.pending is not None and state.pending.kind == "freedoms":
        assert supply == dict.fromkeys(FREEDOMS, per_type)
    else:  # the extra freedoms (2 players) are each of another type
        assert all(per_type <= k <= per_type + 1 for k in supply.values()), supply
        assert rules.freedom_extra or set(supply.values()) == {per_type}
    # Cards: every card is in exactly one place.
    pending = state.pending.cards if state.pending is not None else ()
    pending_deck = state.pending.deck if state.pending is not None else ""
    places = {
        "profession": [c for p in ps for c in (*p.hand, *p.table, *p.dealt)],
        "bonus": [c for p in ps for c in p.bonus_hand] + sorted(played_bonus),
        "prestige": [c for p in ps for c in p.prestige_hand],
    }
    for deck, held in places.items():
        cards = held + [c for seg in state.decks[deck] for c in seg]
        if pending_deck == deck:
            cards += list(pending)
        dup = [c for c, k in Counter(cards).items() if k > 1]
        assert not dup, (deck, dup)
        all_cards = {"profession": rules.professions, "bonus": rules.bonus,
                     "prestige": rules.prestige}[deck]
        assert set(cards) == set(all_cards), (deck, set(all_cards) ^ set(cards))


def fold_checked(events: tuple[Event, ...]) -> State:
    first = events[0]
    assert isinstance(first, GameStarted)
    state = new_state(first)
    played: set[str] = set()
    for e in events[1:]:
        state = evolve(state, e)
        if isinstance(e, WorkCompleted):
            played |= set(e.bonuses)
        check_invariants(state, played)
    return state


@pytest.mark.parametrize(("n_players", "seed"), GAMES, ids=[f"{n}p-{s}" for n, s in GAMES])
def test_random_game(n_players: int, seed: int) -> None:
    game = playout(n_players, seed)
    state = game.state
    assert state.phase == "over"
    assert state.round == STANDARD_RULES.rounds
    assert state.winners
    top = max((p.fame, p.florins) for p in state.players)
    assert {i for i, p in enumerate(state.players) if (p.fame, p.florins) == top} \
        == set(state.winners)
    assert replay(game.events) == state
    assert fold_checked(game.events) == state
    for e in game.events:
        d = to_dict(e)
        assert from_dict(json.loads(json.dumps(d))) == e
    for seat in (*range(n_players), CHANCE):
        assert legal_commands(state, seat) == []


def test_games_differ_by_seed() -> None:
    """The seed really drives the game (a constant generator would pass the rest)."""
    assert playout(4, 1).events != playout(4, 2).events


def test_same_seed_same_game() -> None:
    assert play_random(GAME, 3, 7).events == playout(3, 7).events


def test_objects_are_won_in_self_play() -> None:
    """Self-play reaches the interesting parts: auctions, works, builders."""
    kinds: Counter[str] = Counter()
    for seed in range(5):
        for e in playout(4, seed).events:
            kinds[type(e).__name__] += 1
            if isinstance(e, AuctionWon):
                kinds[e.obj] += 1
    for kind in ("WorkCompleted", "BuildingBuilt", "Recruited", "LandscapePlaced",
                 "PrestigeScored", "builder", "jester", "prestige"):
        assert kinds[kind] > 0, kind
