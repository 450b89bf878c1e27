"""Positions for tests and case files, built through the rules themselves.

`opening(...)` plays the setup and the preparation of round 1 from stated chance
(defaults: seat order, the first cities, the reward row as the data lists it, every
die showing `dice`, the task tiles in data order) and returns the state at the first
turn of the action phase. Change it further with `state.replace` (game fields) and
`state.replace_board` (a player's board), then play commands on it with
`definition.GAME.apply`. For example::

    s = opening(("anna", "bas"), roll={"red": (1, 6)})
    s = replace_board(s, 0, florins=0, helpers=(("yellow", 2),))
    s, events = GAME.apply(s, 0, Take("red", 1, Hire(2)))  # IllegalMoveError: cost
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.protocol import CHANCE

from .chance import empty_fields
from .commands import CITIES, COLOURS, Alliances, Cities, Order, Rewards, Roll, Tasks
from .decide import apply
from .ruleset import Rules
from .setup import state_for
from .state import State


def chance_apply(state: State, command: Any) -> State:
    """The state after a stated chance command (and what follows by itself)."""
    state, _ = apply(state, CHANCE, command)
    return state


def alliances_for(state: State) -> Alliances:
    """Tiles for the empty tile fields, in field order: the pool's tiles family by
    family (a stable choice)."""
    r = state.rules
    fields = empty_fields(state)
    pool = list(state.pool)
    left = list(state.family_left)
    tiles = []
    for k, _ in enumerate(fields):
        for shift in range(len(r.families)):
            family = (k + shift) % len(r.families)
            tile = next((t for t in pool if r.tile_family(t) == r.families[family]), None)
            if tile is not None and left[family] > 0:
                pool.remove(tile)
                left[family] -= 1
                tiles.append(tile)
                break
    return Alliances(tuple((c, f, t) for (c, f), t in zip(fields, tiles, strict=False)))


def opening(names: Sequence[str], *, order: Sequence[str] | None = None,
            cities: Sequence[str] | None = None, rewards: Sequence[str] | None = None,
            dice: int = 3, roll: Mapping[str, Sequence[int]] | None = None,
            tasks: Sequence[str] | None = None, rules: Rules | None = None) -> State:
    """Round 1, the first turn of the action phase (see the module's docstring)."""
    state = state_for(names, rules)
    r = state.rules
    n = len(names)
    state = chance_apply(state, Order(tuple(order or names)))
    if not state.cities:
        state = chance_apply(state, Cities(tuple(cities or CITIES[:r.city_count[n]])))
    row = rewards or (*r.bonus_tiles[:r.bonus_laid], *r.points_tiles[:r.points_laid])
    state = chance_apply(state, Rewards(tuple(row)))
    state = chance_apply(state, alliances_for(state))
    per = r.dice_per_colour[n]
    given = dict(roll or {})
    state = chance_apply(state, Roll(tuple(
        (c, tuple(sorted(given.get(c, (dice,) * per)))) for c in COLOURS)))
    return chance_apply(state, Tasks(tuple(tasks or r.tasks)))
