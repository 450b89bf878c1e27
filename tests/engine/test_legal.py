"""`legal_commands` agrees with `decide`, over the positions of self-played games.

* Listed commands are accepted: at every step a sample of each seat's listed commands
  is decided (nothing may raise). A seat not to act lists only selling fame, a skipped
  bidder's pass (R18) and the use of a recruiting card just won (R19).
* Commands not listed are refused: at a sample of steps a sweep of candidate commands
  (every verb, with right and wrong arguments, placements on and off the free cells) is
  decided for every seat; each candidate must be accepted exactly when it is listed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, islice

import pytest
from princes_playouts import playout, steps

from engine.errors import IllegalMoveError
from engine.princes.actions import recruits_now
from engine.princes.auction import skipped_bidder
from engine.princes.commands import (
    Bid,
    Build,
    Choose,
    Command,
    Done,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    Recruit,
    Sell,
    Take,
    TakeBonus,
    TakeProfession,
    Work,
)
from engine.princes.game import decide, seeded_chance, to_act
from engine.princes.legal import legal_commands
from engine.princes.ruleset import FREEDOMS, LANDSCAPES, OBJECTS, STANDARD_RULES
from engine.princes.state import CHANCE, State

GRID = STANDARD_RULES.grid

GAMES = [(3, 1), (4, 1), (5, 1)]
SWEEP_EVERY = 6


def _placements(rng: random.Random, tile: str, zone: int, k: int) -> list[tuple[str, ...]]:
    masks = list(GRID.listed_placements(tile, zone))
    return [GRID.cells_of(m) for m in rng.sample(masks, min(k, len(masks)))]


def candidates(state: State, seat: int, rng: random.Random) -> Iterator[Command]:
    """Commands of every kind, plausible and implausible, for `seat` now."""
    p = state.players[seat]
    yield from (Sell(k) for k in range(p.fame + 2))
    if p.dealt:
        yield from (Keep(c) for c in combinations(p.dealt, 3))
        yield Keep((p.dealt[0], p.dealt[0], p.dealt[1]))
        yield Keep(p.dealt[:2])
    other_cards = [c for q in state.players for c in (*q.hand, *q.table)]
    if other_cards:
        yield Keep(tuple(rng.sample(other_cards, min(3, len(other_cards)))))
    for obj in OBJECTS:
        yield Open(obj)
        yield Take(obj)
    for amount in (state.price, state.price + 100, state.price + 200, 300):
        yield Bid(amount)
    yield from (Pass(), Done(), TakeProfession(), TakeBonus())
    yield from (Freedom(f) for f in FREEDOMS)
    pending = state.pending.cards if state.pending is not None else ()
    pool = [*STANDARD_RULES.professions, *STANDARD_RULES.bonus, *STANDARD_RULES.prestige]
    yield from (Choose(c) for c in (*pending, *rng.sample(pool, 3)))
    free = GRID.playable & ~p.occupied
    for tile in LANDSCAPES:
        for cells in (*_placements(rng, tile, GRID.all, 12), *_placements(rng, tile, free, 6)):
            yield Place(tile, cells)
    zone = GRID.building_zone(p.occupied | GRID.palazzo, p.building_cells, p.builders)
    for b in rng.sample(sorted(STANDARD_RULES.buildings), 4):
        for cells in (*_placements(rng, b, GRID.all, 6), *_placements(rng, b, zone, 4)):
            yield Build(b, cells)
    profs = [*dict.fromkeys(p.hand), *rng.sample(sorted(STANDARD_RULES.professions), 1)]
    bonus = p.bonus_hand[:6]
    for prof in profs:
        for k in range(3):
            for combo in islice(combinations(bonus, k), 6):
                for pp in (0, 1, 4, 8, 12):
                    yield Work(prof, combo, pp)
    for q in state.players:
        for prof in (*q.table, *q.hand[:1]):
            yield Recruit(prof, q.name)
            yield Recruit(prof, p.name)


@pytest.mark.parametrize(("n_players", "seed"), GAMES, ids=[f"{n}p-{s}" for n, s in GAMES])
def test_listed_commands_are_accepted(n_players: int, seed: int) -> None:
    rng = random.Random(f"listed|{n_players}|{seed}")
    for state, _, _, _, _ in steps(playout(n_players, seed)):
        for seat in range(n_players):
            listed = legal_commands(state, seat)
            if seat not in to_act(state):  # selling fame, or what need not wait (R18, R19)
                assert all(isinstance(c, Sell)
                           or c == Pass() and skipped_bidder(state, seat)
                           or isinstance(c, Recruit) and recruits_now(state, seat)
                           for c in listed), (seat, listed[:3])
            for cmd in rng.sample(listed, min(6, len(listed))):
                decide(state, seat, cmd)  # must not raise
        if CHANCE in to_act(state):
            assert legal_commands(state, CHANCE) == []
            decide(state, CHANCE, seeded_chance(state, "any seed"))


@pytest.mark.parametrize(("n_players", "seed"), GAMES, ids=[f"{n}p-{s}" for n, s in GAMES])
def test_unlisted_commands_are_refused(n_players: int, seed: int) -> None:
    rng = random.Random(f"sweep|{n_players}|{seed}")
    kinds_refused: set[str] = set()
    for k, (state, _, _, _, _) in enumerate(steps(playout(n_players, seed))):
        if k % SWEEP_EVERY:
            continue
        for seat in range(n_players):
            listed = set(legal_commands(state, seat))
            for cmd in candidates(state, seat, rng):
                try:
                    decide(state, seat, cmd)
                except IllegalMoveError as e:
                    assert cmd not in listed, (cmd, e.rule, e.message)
                    kinds_refused.add(type(cmd).__name__)
                else:
                    assert cmd in listed, (seat, cmd, state.phase, state.pending)
    # The sweep really tried (and refused) every kind of command.
    assert kinds_refused >= {"Sell", "Keep", "Open", "Take", "Bid", "Pass", "Done",
                             "TakeProfession", "TakeBonus", "Freedom", "Choose", "Place",
                             "Build", "Work", "Recruit"}


def test_a_seat_that_built_nothing_is_listed_the_same_builds_again() -> None:
    # A status mail lists the seat's builds after every move (hundreds a building
    # while the shapes are unknown): those of an unchanged zone are made once.
    seen = 0
    for state, seat, _, _, _ in steps(playout(4, 1)):
        first = [c for c in legal_commands(state, seat) if isinstance(c, Build)]
        again = [c for c in legal_commands(state, seat) if isinstance(c, Build)]
        assert again == first and all(a is b for a, b in zip(again, first, strict=True))
        seen += bool(first)
    assert seen > 10
