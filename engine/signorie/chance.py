"""Chance in Signorie: what is due, what the seed gives, and stated chance checked.

A seeded game draws each step from the seed and the state only
(`engine.decks.draw_key(seed, version, purpose)` keys a local generator), so any
step can be recomputed on its own; a recorded log states each step by a chance
line, checked here against what could have happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import decks
from engine.errors import ChanceError, IllegalMoveError
from engine.frozen import dataclass

from . import events as ev
from .commands import CITIES, COLOURS, Alliances, Births, Cities, Draw, Order, Rewards, Roll, Tasks
from .ruleset import Rules
from .state import (
    ALLIANCES,
    BIRTHS,
    DRAW,
    ORDER,
    PREPARE,
    REWARD_ROW,
    ROLL,
    SETUP,
    TASKS,
    State,
)
from .state import CITIES as CITIES_DUE

ChanceCommand = Order | Cities | Rewards | Alliances | Roll | Tasks | Births | Draw

_COMMAND = {ORDER: Order, CITIES_DUE: Cities, REWARD_ROW: Rewards, ALLIANCES: Alliances,
            ROLL: Roll, TASKS: Tasks, BIRTHS: Births, DRAW: Draw}


@dataclass(frozen=True, slots=True)
class Due:
    """The chance step due: its kind, the seat it concerns (births, draw) and how many
    things it gives."""

    kind: str
    seat: int | None = None
    n: int = 0

    def __init__(self, kind: str, seat: int | None = None, n: int = 0) -> None:
        self.kind = kind  # type: ignore[misc]
        self.seat = seat  # type: ignore[misc]
        self.n = n  # type: ignore[misc]


def empty_fields(state: State) -> tuple[tuple[str, str], ...]:
    """The empty alliance tile fields of the cities in play, in order."""
    out: list[tuple[str, str]] = []
    for c in state.cities:
        if not c.marriage_tile:
            out.append((c.name, "marriage"))
        if not c.mission_tile:
            out.append((c.name, "mission"))
    return tuple(out)


def tiles_left(state: State) -> int:
    """How many alliance tiles can still be drawn."""
    return sum(state.family_left)


def chance_due(state: State) -> Due | None:
    c = state.chance
    if c is not None:
        return Due(c.kind, c.seat, c.n if c.kind == BIRTHS else 1)
    phase = state.phase
    if phase != SETUP and phase != PREPARE:  # (asked after every move of a seeded game)
        return None
    r = state.rules
    n = len(state.players)
    if phase == SETUP:
        if not state.order:
            return Due(ORDER, n=n)
        if not state.cities:
            return Due(CITIES_DUE, n=r.city_count[n])
        return Due(REWARD_ROW, n=r.bonus_laid + r.points_laid)
    if not state.dice:
        fields = len(empty_fields(state))
        if fields:
            left = tiles_left(state)
            if left:
                return Due(ALLIANCES, n=min(fields, left))
        return Due(ROLL, n=r.dice_per_colour[n] * len(COLOURS))
    return Due(TASKS, n=len(r.tasks))


Bits = Callable[[int], int]
"""`random.Random.getrandbits` of a generator keyed by the seed (`_bits`)."""


def _bits(seed: str, state: State, purpose: str) -> Bits:
    key = decks.draw_key(seed, state.version, purpose)
    return random.Random(int.from_bytes(key, "big")).getrandbits


def _rolled(bits: Bits, faces: int, n: int) -> list[int]:
    """`n` dice of `faces` faces (`randint(1, faces)` each)."""
    return [1 + _below(bits, faces) for _ in range(n)]


def _below(bits: Bits, n: int) -> int:
    """A uniform integer in [0, n), `n` > 0: exactly what `random.Random.randrange(n)`
    draws from the same generator (CPython 3.11 to 3.13: `_randbelow_with_getrandbits`),
    without its checks and calls. `randint(1, faces)` is `1 + _below(bits, faces)`.
    Written out so that the draws stay the same: old seeded logs depend on them
    (tests/engine/test_signorie_chance.py checks it against `random.Random`)."""
    if n <= 0:
        raise ValueError("empty range for randrange()")
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def _shuffled(items: list[Any], bits: Bits) -> list[Any]:
    """A uniform permutation (Fisher-Yates with randrange: the same on every Python)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(bits, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def drawable(state: State) -> list[str]:
    """The pool's tiles that can still be drawn (a family's removed tiles aside)."""
    r = state.rules
    return [t for t in state.pool if state.family_left[r.families.index(r.tile_family(t))] > 0]


_FAMILY_OF: dict[tuple[tuple[str, ...], tuple[int, ...]], dict[str, int]] = {}
"""Per set of alliance tiles (`Rules.families`, `Rules.family_tiles`): the index in
`Rules.families` of each tile's family, by tile id (`_family_index`)."""


def _family_index(r: Rules) -> dict[str, int]:
    """The index in `r.families` of each alliance tile's family, by tile id: its keys
    are `r.alliance_tiles`."""
    key = (r.families, r.family_tiles)
    index = _FAMILY_OF.get(key)
    if index is None:
        index = _FAMILY_OF[key] = {
            t: r.families.index(r.tile_family(t)) for t in r.alliance_tiles}
    return index


def _family(r: Rules, index: dict[str, int], tile: str) -> int:
    i = index.get(tile)
    return i if i is not None else r.families.index(r.tile_family(tile))


def _draw_tiles(state: State, n: int, bits: Bits) -> list[str]:
    r = state.rules
    index = _family_index(r)
    pool = list(state.pool)
    left = list(state.family_left)
    every = min(left, default=1) > 0  # every family may still give a tile (mostly)
    out = []
    for _ in range(n):
        if every:
            tile = pool.pop(_below(bits, len(pool)))  # (equal tiles are alike)
        else:
            can = [t for t in pool if left[_family(r, index, t)] > 0]
            tile = can[_below(bits, len(can))]
            pool.remove(tile)
        i = _family(r, index, tile)
        left[i] -= 1
        every = every and left[i] > 0
        out.append(tile)
    return out


def resolve_chance(state: State, seed: str) -> ChanceCommand:
    """The chance command the seed gives now.

    Raises:
        IllegalMoveError: no chance is due.
    """
    due = chance_due(state)
    if due is None:
        raise IllegalMoveError("no chance is due now", "chance")
    kind = due.kind
    bits = _bits(seed, state, f"{kind}:{due.seat}")
    r = state.rules
    if kind == ROLL:
        per = r.dice_per_colour[len(state.players)]
        faces = r.die_faces
        return Roll(tuple([(c, tuple(sorted(_rolled(bits, faces, per))))
                           for c in COLOURS]))
    if kind == TASKS:
        return Tasks(tuple(_shuffled(list(r.tasks), bits)))
    if kind == BIRTHS:
        assert due.seat is not None
        return Births(state.players[due.seat].name,
                      tuple(_rolled(bits, r.die_faces, due.n)))
    if kind == DRAW:
        assert due.seat is not None
        return Draw(state.players[due.seat].name, _draw_tiles(state, 1, bits)[0])
    if kind == ALLIANCES:
        fields = empty_fields(state)[:due.n]
        tiles = _draw_tiles(state, len(fields), bits)
        return Alliances(tuple((c, f, t) for (c, f), t in zip(fields, tiles, strict=True)))
    if kind == ORDER:
        return Order(tuple(_shuffled(list(state.names), bits)))
    if kind == CITIES_DUE:
        chosen = set(_shuffled(list(CITIES), bits)[:due.n])
        return Cities(tuple(c for c in CITIES if c in chosen))
    assert kind == REWARD_ROW
    bonus = _shuffled(list(r.bonus_tiles), bits)[:r.bonus_laid]
    points = _shuffled(list(r.points_tiles), bits)[:r.points_laid]
    return Rewards((*bonus, *points))


def same_chance(state: State, command: Any) -> bool:
    """True if `command` states the chance step due now (whatever its outcome)."""
    due = chance_due(state)
    return due is not None and _same(state, due, command)


_NAMING = (Births, Draw)
"""The chance commands that name the player they concern."""


def _same(state: State, due: Due, command: Any) -> bool:
    if not isinstance(command, _COMMAND[due.kind]):
        return False
    if isinstance(command, _NAMING):
        assert due.seat is not None
        return command.player == state.players[due.seat].name
    return True


def _outcome(command: Any) -> Any:
    if isinstance(command, Order):
        return command.players
    if isinstance(command, Cities):
        return sorted(command.cities)
    if isinstance(command, Rewards):
        return command.tiles
    if isinstance(command, Alliances):
        return command.tiles
    if isinstance(command, Roll):
        return tuple((c, tuple(sorted(v))) for c, v in command.dice)
    if isinstance(command, Tasks):
        return command.tiles
    if isinstance(command, Births):
        return sorted(command.values)
    if isinstance(command, Draw):
        return command.tile
    return command


def chance_mismatch(stated: Any, seeded: Any) -> str | None:
    """Why a stated chance command differs from the seeded one, or None (a face-down
    tile is never named)."""
    if type(stated) is not type(seeded):
        return f"the seed gives `* {seeded.verb}` here"
    if _outcome(stated) == _outcome(seeded):
        return None
    if isinstance(seeded, Draw):
        return "the seed draws another tile"
    return f"the seed gives {seeded.verb} {_words(seeded)}"


def _words(command: Any) -> str:
    if isinstance(command, Alliances):
        return ", ".join(" ".join(item) for item in command.tiles)
    if isinstance(command, Roll):
        return ", ".join(f"{c} {' '.join(map(str, v))}" for c, v in _outcome(command))
    if isinstance(command, Births):
        return f"{command.player} {' '.join(map(str, command.values))}"
    if isinstance(command, Order):
        return " ".join(command.players)
    return " ".join(str(x) for x in _outcome(command))


def chance_wanted(state: State) -> str:
    """What the chance due now must state, for an error message."""
    due = chance_due(state)
    if due is None:
        return "nothing"
    names = state.names
    return {
        ORDER: "the first turn order (`* order`)",
        CITIES_DUE: f"the {due.n} cities in play (`* cities`)",
        REWARD_ROW: "the reward row (`* rewards`)",
        ALLIANCES: f"the {due.n} alliance tiles turned face up (`* alliances`)",
        ROLL: "the action dice rolled (`* roll`)",
        TASKS: "the task tiles laid (`* tasks`)",
        BIRTHS: f"the {due.n} white dice of {names[due.seat or 0]} (`* births`)",
        DRAW: f"the face-down alliance tile drawn for {names[due.seat or 0]} (`* draw`)",
    }[due.kind]


# --------------------------------------------------------------------------- stated chance


def _bad(message: str) -> ChanceError:
    return ChanceError(message, "chance")


def _check_tiles(state: State, tiles: list[str]) -> None:
    r = state.rules
    index = _family_index(r)
    # the pool's tiles of each tile named (`tuple.count`: quicker than a Counter of
    # the whole pool for the few tiles a line names)
    have = state.pool
    pool: dict[str, int] = {t: have.count(t) for t in tiles}
    left = list(state.family_left)
    for t in tiles:
        i = index.get(t)  # a known tile (`_points_of`: the same as the check below)
        if i is None:
            family = r.tile_family(t)
            if family not in r.families or t[len(family):] not in _points_of(r):
                raise _bad(f"{t!r} is no alliance tile (family and VP, e.g. "
                           f"{r.alliance_tiles[0]!r})")
            i = r.families.index(family)
        if pool.get(t, 0) <= 0 or left[i] <= 0:
            raise _bad(f"no {t!r} tile is left to draw")
        pool[t] -= 1
        left[i] -= 1


_POINTS: dict[tuple[int, ...], frozenset[str]] = {}


def _points_of(r: Rules) -> frozenset[str]:
    """The VP an alliance tile's id may end with ("3" of "este3"): a tile is known if
    its family is and these follow it (the same as `t in r.alliance_tiles`)."""
    points = _POINTS.get(r.family_tiles)
    if points is None:
        points = _POINTS[r.family_tiles] = frozenset(str(p) for p in r.family_tiles)
    return points


def decide_chance(state: State, cmd: Any) -> list[Any]:
    """The events of a stated chance command.

    Raises:
        ChanceError: it is not the chance due, or cannot have happened.
    """
    due = chance_due(state)
    if due is None:
        raise _bad("no chance is due now")
    if not _same(state, due, cmd):
        raise _bad(f"chance states {chance_wanted(state)} here")
    return _STATED[type(cmd)](state, due, cmd)


def _order_stated(state: State, due: Due, cmd: Order) -> list[Any]:
    names = state.names
    if sorted(cmd.players) != sorted(names) or len(cmd.players) != len(names):
        raise _bad(f"the turn order names every player once: {', '.join(names)}")
    return [ev.OrderDrawn(tuple(names.index(p) for p in cmd.players))]


def _cities_stated(state: State, due: Due, cmd: Cities) -> list[Any]:
    if len(set(cmd.cities)) != due.n or len(cmd.cities) != due.n:
        raise _bad(f"{due.n} different cities are in play, not {len(set(cmd.cities))}")
    bad = [c for c in cmd.cities if c not in CITIES]
    if bad:
        raise _bad(f"{bad[0]!r} is no city; the cities: {', '.join(CITIES)}")
    return [ev.CitiesDrawn(tuple(c for c in CITIES if c in cmd.cities))]


def _rewards_stated(state: State, due: Due, cmd: Rewards) -> list[Any]:
    r = state.rules
    bonus, points = cmd.tiles[:r.bonus_laid], cmd.tiles[r.bonus_laid:]
    if (len(cmd.tiles) != r.bonus_laid + r.points_laid or len(set(cmd.tiles)) != len(cmd.tiles)
            or any(t not in r.bonus_tiles for t in bonus)
            or any(t not in r.points_tiles for t in points)):
        raise _bad(f"the reward row is {r.bonus_laid} different bonus tiles "
                   f"({', '.join(r.bonus_tiles)}) then {r.points_laid} VP tiles "
                   f"({', '.join(r.points_tiles)})")
    return [ev.RewardsLaid(cmd.tiles)]


def _alliances_stated(state: State, due: Due, cmd: Alliances) -> list[Any]:
    fields = empty_fields(state)[:due.n]
    given = tuple([(c, f) for c, f, _ in cmd.tiles])
    if given != fields:
        want = ", ".join(f"{c} {f}" for c, f in fields)
        raise _bad(f"alliance tiles go onto the empty fields in order: {want}")
    _check_tiles(state, [t for _, _, t in cmd.tiles])
    return [ev.AlliancesLaid(cmd.tiles)]


def _roll_stated(state: State, due: Due, cmd: Roll) -> list[Any]:
    r = state.rules
    per = r.dice_per_colour[len(state.players)]
    dice = cmd.dice
    if tuple([c for c, _ in dice]) != COLOURS:
        raise _bad(f"the dice are rolled by colour: {', '.join(COLOURS)}")
    faces = r.die_faces
    rolled = []
    for c, values in dice:
        if len(values) != per:
            raise _bad(f"{per} {c} dice are rolled, not {len(values)}")
        _check_faces(values, faces)
        rolled.append((c, tuple(sorted(values))))
    return [ev.DiceRolled(tuple(rolled))]


def _tasks_stated(state: State, due: Due, cmd: Tasks) -> list[Any]:
    r = state.rules
    if sorted(cmd.tiles) != sorted(r.tasks):
        raise _bad(f"the task tiles are laid each once: {', '.join(r.tasks)}")
    return [ev.TasksLaid(cmd.tiles)]


def _births_stated(state: State, due: Due, cmd: Births) -> list[Any]:
    assert due.seat is not None
    r = state.rules
    values = cmd.values
    if len(values) != due.n:
        raise _bad(f"{state.players[due.seat].name} rolls {due.n} white dice, not "
                   f"{len(values)}")
    _check_faces(values, r.die_faces)
    p = state.players[due.seat]
    top = r.offspring_female_top
    girls = 0
    for v in values:
        if v <= top:
            girls += 1
    females = min(p.general_f, girls)
    males = min(p.general_m, len(values) - girls)
    return [ev.BirthsRolled(due.seat, tuple(values), males, females)]


def _draw_stated(state: State, due: Due, cmd: Draw) -> list[Any]:
    assert due.seat is not None and state.chance is not None
    _check_tiles(state, [cmd.tile])
    return [ev.AllianceDrawn(due.seat, state.chance.row, cmd.tile)]


_STATED: dict[type[Any], Callable[[State, Due, Any], list[Any]]] = {
    Order: _order_stated, Cities: _cities_stated, Rewards: _rewards_stated,
    Alliances: _alliances_stated, Roll: _roll_stated, Tasks: _tasks_stated,
    Births: _births_stated, Draw: _draw_stated}
"""The events of a stated chance command by its type, once it is the step due."""


def _check_faces(values: tuple[int, ...], faces: int) -> None:
    for v in values:
        if not 1 <= v <= faces:
            raise _bad(f"a die shows 1 to {faces}, not {v}")
