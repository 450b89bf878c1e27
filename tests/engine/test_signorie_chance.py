"""Signorie's seeded chance stays what it was: old seeded logs depend on every draw.

`engine.signorie.chance.resolve_chance` draws from `random.Random` by `getrandbits`
(`_below`) instead of `randrange`/`randint`, and skips the filter of drawable tiles
when no family is used up. These tests hold it to the plain way it was first written
(`reference` below, kept here as the specification): at every chance step of
self-played games, and where families are used up (which random games rarely reach).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from engine import decks
from engine.errors import ChanceError
from engine.match import Match
from engine.protocol import CHANCE
from engine.selfplay import play_random
from engine.signorie import chance
from engine.signorie.chance import chance_due, decide_chance, empty_fields, resolve_chance
from engine.signorie.commands import (
    CITIES,
    COLOURS,
    Alliances,
    Births,
    Cities,
    Draw,
    Order,
    Rewards,
    Roll,
    Tasks,
)
from engine.signorie.definition import GAME
from engine.signorie.positions import opening
from engine.signorie.state import ALLIANCES, BIRTHS, DRAW, Chance, State, replace


def _reference_tiles(state: State, n: int, rng: random.Random) -> list[str]:
    r = state.rules
    pool = list(state.pool)
    left = list(state.family_left)
    out = []
    for _ in range(n):
        can = [t for t in pool if left[r.families.index(r.tile_family(t))] > 0]
        tile = can[rng.randrange(len(can))]
        pool.remove(tile)
        left[r.families.index(r.tile_family(tile))] -= 1
        out.append(tile)
    return out


def _reference_shuffled(items: list[Any], rng: random.Random) -> list[Any]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def reference(state: State, seed: str) -> Any:
    """The seeded chance as first written (engine 0.2.0), with `random.Random`'s own
    `randrange` and `randint`."""
    due = chance_due(state)
    assert due is not None
    key = hashlib.sha256(f"pbem-draw|{seed}|{state.version}|{due.kind}:{due.seat}"
                         .encode()).digest()
    rng = random.Random(int.from_bytes(key, "big"))
    r = state.rules
    names = state.names
    if due.kind == "order":
        return Order(tuple(_reference_shuffled(list(names), rng)))
    if due.kind == "cities":
        chosen = set(_reference_shuffled(list(CITIES), rng)[:due.n])
        return Cities(tuple(c for c in CITIES if c in chosen))
    if due.kind == "rewards":
        bonus = _reference_shuffled(list(r.bonus_tiles), rng)[:r.bonus_laid]
        points = _reference_shuffled(list(r.points_tiles), rng)[:r.points_laid]
        return Rewards((*bonus, *points))
    if due.kind == "alliances":
        fields = empty_fields(state)[:due.n]
        tiles = _reference_tiles(state, len(fields), rng)
        return Alliances(tuple((c, f, t) for (c, f), t in zip(fields, tiles, strict=True)))
    if due.kind == "roll":
        per = r.dice_per_colour[len(names)]
        return Roll(tuple((c, tuple(sorted(rng.randint(1, r.die_faces) for _ in range(per))))
                          for c in COLOURS))
    if due.kind == "tasks":
        return Tasks(tuple(_reference_shuffled(list(r.tasks), rng)))
    assert due.seat is not None
    if due.kind == "births":
        return Births(names[due.seat], tuple(rng.randint(1, r.die_faces) for _ in range(due.n)))
    return Draw(names[due.seat], _reference_tiles(state, 1, rng)[0])


def test_below_draws_what_randrange_and_randint_draw() -> None:
    for seed in range(200):
        ours = random.Random(seed).getrandbits
        theirs = random.Random(seed)
        for n in (1, 2, 3, 5, 6, 7, 8, 9, 10, 16, 17, 31, 32, 33, 60, 64, 100, 1000):
            assert chance._below(ours, n) == theirs.randrange(n)
            assert 1 + chance._below(ours, n) == theirs.randint(1, n)
        assert chance._rolled(ours, 6, 20) == [theirs.randint(1, 6) for _ in range(20)]
    with pytest.raises(ValueError):
        chance._below(random.Random(1).getrandbits, 0)
    key = decks.draw_key("s", 7, "roll:None")
    assert chance._bits("s", replace(opening(("anna", "bas", "chris")), version=7), "roll:None")(
        64) == random.Random(int.from_bytes(key, "big")).getrandbits(64)


def test_the_key_of_a_draw_is_the_same() -> None:
    assert decks.draw_key("s", 7, "roll:None") == hashlib.sha256(
        b"pbem-draw|s|7|roll:None").digest()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_chance_step_of_a_game_is_drawn_as_before(n: int) -> None:
    kinds: set[str] = set()
    for game in range(6):
        p = play_random(GAME, n, f"chance-{n}-{game}")
        match = Match.start(GAME, p.players, seeded=True, seed=p.seed)
        for seat, command in p.moves:
            if seat == CHANCE:
                due = chance_due(match.state)
                assert due is not None
                kinds.add(due.kind)
                for seed in (p.seed, "another seed"):
                    assert resolve_chance(match.state, seed) == reference(match.state, seed)
            match.play(seat, command)
    every = {"order", "cities", "rewards", "alliances", "roll", "tasks", "births", "draw"}
    assert kinds == (every - {"cities"} if n == 4 else every)  # 4 players: every city


def _states_drawing_tiles() -> list[State]:
    """States where alliance tiles are drawn (turned up or face down), from games."""
    out = []
    for game in range(4):
        p = play_random(GAME, 4, f"tiles-{game}")
        match = Match.start(GAME, p.players, seeded=True, seed=p.seed)
        for seat, command in p.moves:
            due = chance_due(match.state)
            if seat == CHANCE and due is not None and due.kind in (ALLIANCES, DRAW):
                out.append(GAME.owned_copy(match.state))
            match.play(seat, command)
    return out


def test_tiles_are_drawn_as_before_when_families_are_used_up() -> None:
    states = _states_drawing_tiles()
    assert {chance_due(s).kind for s in states} == {ALLIANCES, DRAW}  # type: ignore[union-attr]
    tried = 0
    for k, state in enumerate(states):
        r = state.rules
        pooled = sorted({r.families.index(r.tile_family(t)) for t in state.pool})
        for gone in range(1, len(pooled)):  # use up `gone` of the families in the pool
            left = list(state.family_left)
            for i in random.Random(k * 100 + gone).sample(pooled, gone):
                left[i] = 0
            used_up = replace(state, family_left=tuple(left))
            if not any(left[r.families.index(r.tile_family(t))] for t in state.pool):
                continue
            due = chance_due(used_up)
            if due is None or due.kind == ALLIANCES and due.n > sum(
                    left[r.families.index(r.tile_family(t))] > 0 for t in state.pool):
                continue
            assert resolve_chance(used_up, "seed") == reference(used_up, "seed")
            tried += 1
    assert tried > 20


PINNED = [
    Order(("bas", "anna", "chris")),
    Cities(("milano", "venezia", "firenze", "napoli")),
    Rewards(("mission", "progress-initiative", "alliance", "progress-careers", "marriage",
             "cities-m", "count-f")),
    Alliances((("milano", "marriage", "orsini2"), ("milano", "mission", "sforza4"),
               ("venezia", "marriage", "este4"), ("venezia", "mission", "este4"),
               ("firenze", "marriage", "este2"), ("firenze", "mission", "gonzaga5"),
               ("napoli", "marriage", "medici5"), ("napoli", "mission", "visconti2"))),
    Roll((("yellow", (2, 2, 3)), ("red", (1, 5, 6)), ("purple", (2, 3, 4)),
          ("grey", (1, 2, 5)), ("turquoise", (2, 2, 3)))),
    Tasks(("figures", "military", "marriage", "initiative", "ecclesiastical", "mission",
           "political", "threshold", "florins", "alliance")),
    Births("bas", (6, 2, 6)),
    Draw("chris", "orsini4"),
]
"""What the seed "pinned" gave a three-player game under engine 0.2.0: its setup and
first round's chance, then 3 white dice for bas and a face-down tile for chris."""


def test_the_seed_still_gives_these_draws() -> None:
    match = Match.start(GAME, ("anna", "bas", "chris"), seeded=True, seed="pinned")
    got = []
    while chance_due(match.state) is not None:
        got.append(resolve_chance(match.state, "pinned"))
        match.play(CHANCE, got[-1])
    state = GAME.owned_copy(match.state)
    got.append(resolve_chance(replace(state, chance=Chance(BIRTHS, 1, 3)), "pinned"))
    got.append(resolve_chance(replace(state, chance=Chance(DRAW, 2, 0, "political")), "pinned"))
    assert got == PINNED


def test_stated_tiles_and_dice_that_cannot_be_drawn_are_refused() -> None:
    states = _states_drawing_tiles()
    draw = next(s for s in states if s.chance is not None and s.chance.kind == DRAW)
    laid = max((s for s in states if s.chance is None), key=lambda s: len(empty_fields(s)))
    gone = next(t for t in draw.rules.alliance_tiles if t not in draw.pool)
    name = draw.players[draw.chance.seat].name  # type: ignore[union-attr]
    with pytest.raises(ChanceError, match=f"^no '{gone}' tile is left to draw$"):
        decide_chance(draw, Draw(name, gone))
    with pytest.raises(ChanceError, match="^'este9' is no alliance tile"):
        decide_chance(draw, Draw(name, "este9"))
    fields = empty_fields(laid)[:chance_due(laid).n]  # type: ignore[union-attr]
    tile = laid.pool[0]
    assert len(fields) > laid.pool.count(tile)  # so one tile too many is stated
    with pytest.raises(ChanceError, match=f"^no '{tile}' tile is left to draw$"):
        decide_chance(laid, Alliances(tuple((c, f, tile) for c, f in fields)))
    seeded = resolve_chance(laid, "s")
    assert isinstance(seeded, Alliances) and decide_chance(laid, seeded)
    births = replace(GAME.owned_copy(draw), chance=Chance(BIRTHS, 0, 3))
    with pytest.raises(ChanceError, match="^a die shows 1 to 6, not 7$"):
        decide_chance(births, Births(births.players[0].name, (6, 7, 0)))
