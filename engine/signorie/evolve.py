"""Events folded into the state: one handler per event type, which writes the event's
effect into the state in place (`evolve_in_place`, the replay path); `evolve` runs it
on a copy, so a fold never changes the state it is given. Never validates: `decide`
did; a failure is a bug.

A handler changes the State and the Boards in place (`state.board` gives a board of
its own first, when the state may share it); what else they hold (cities, tuples)
are values, replaced whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from . import events as ev
from .commands import CAREERS
from .setup import city_states
from .state import (
    ACTIONS,
    BIRTHS,
    DRAW,
    EXTRA,
    OVER,
    PREPARE,
    REWARDS,
    SHARED,
    Active,
    Board,
    Chance,
    CityState,
    State,
    board,
    board_values,
    copy_board,
    dice_at,
)

BETWEEN = "between"
"""After the setup or a round's clean-up: the next round (or the end) follows by itself."""


_STATE_FIELDS = tuple(f.name for f in fields(State))
_state_values: Callable[[State], tuple[Any, ...]] = attrgetter(*_STATE_FIELDS)


def copy_state(state: State) -> State:
    """A new State holding the same values and boards: what a fold in place may
    change without changing `state` (the boards are shared both ways, `State.shared`:
    each is copied before either state changes it)."""
    state.shared = SHARED
    return State(*_state_values(state))


def owned_copy(state: State) -> State:
    """A copy of the state that owns its boards (nothing shared)."""
    new = State(*_state_values(state))
    new.players = tuple(map(copy_board, state.players))
    new.shared = 0
    return new


_COPIED = 1 << 30
"""A bit of `State.shared` no seat has: `snapshot` clears it, and only a copy of the
whole state (`copy_state`: every bit set) sets it again."""

_BOARD_FIELDS = tuple(f.name for f in fields(Board))
_SHARED_AT = _STATE_FIELDS.index("shared")


def snapshot(state: State, seat: int) -> tuple[Any, ...]:
    """What `restore` puts back if a command of `seat` is refused: the state's values
    and those of `seat`'s own board, which a fold then changes in place; until
    `release`, a fold copies any other board before changing it."""
    shared = state.shared
    values = _state_values(state)
    if 0 <= seat < len(state.players) and not shared >> seat & 1:
        mine = state.players[seat]
        state.shared = SHARED & ~(1 << seat) & ~_COPIED
        return values, mine, board_values(mine)
    state.shared = SHARED & ~_COPIED
    return values, None, None


def restore(state: State, kept: tuple[Any, ...]) -> None:
    """Put back the values `snapshot` took (the boards as they were)."""
    values, mine, mine_values = kept
    for name, value in zip(_STATE_FIELDS, values, strict=True):
        setattr(state, name, value)
    if mine is not None:
        for name, value in zip(_BOARD_FIELDS, mine_values, strict=True):
            setattr(mine, name, value)
    state.shared = SHARED  # a copy made since may share them


def release(state: State, kept: tuple[Any, ...]) -> None:
    """The command `snapshot` was taken for is folded: a board shared only with the
    snapshot is the state's own again (unless the state was copied meanwhile)."""
    shared = state.shared
    if not shared & _COPIED:
        state.shared = kept[0][_SHARED_AT] & shared


def next_seat(state: State, after: int, passed: frozenset[int]) -> int | None:
    """The next seat in turn order after `after` that has not passed."""
    order = state.order
    i = order.index(after) + 1
    for s in order[i:]:
        if s not in passed:
            return s
    for s in order[:i]:
        if s not in passed:
            return s
    return None


# --------------------------------------------------------------------------- setup, chance


def _order(s: State, e: ev.OrderDrawn) -> None:
    n = len(e.order)
    for place, seat in enumerate(e.order):
        p = board(s, seat)
        p.florins += s.rules.seat_florins[place]
        p.stamp = n - place  # stacked on the bottom space: the first player on top
    s.order, s.stamp = e.order, n


def _cities(s: State, e: ev.CitiesDrawn) -> None:
    s.cities = city_states(s.rules, e.cities)


def _rewards(s: State, e: ev.RewardsLaid) -> None:
    s.reward_row, s.phase = e.tiles, BETWEEN


def _round(s: State, e: ev.RoundStarted) -> None:
    s.round, s.phase, s.passed, s.turn = e.round, PREPARE, frozenset(), None


def _take_tile(s: State, tile: str) -> None:
    """The pool and the family's count without one `tile`."""
    _take_tiles(s, (tile,))


def _take_tiles(s: State, tiles: tuple[str, ...]) -> None:
    """The pool and the families' counts without `tiles`."""
    pool = list(s.pool)
    left = list(s.family_left)
    r = s.rules
    for tile in tiles:
        pool.remove(tile)
        left[r.families.index(r.tile_family(tile))] -= 1
    s.pool, s.family_left = tuple(pool), tuple(left)


def _alliances(s: State, e: ev.AlliancesLaid) -> None:
    cities = list(s.cities)
    for city, field, tile in e.tiles:
        i = next(k for k, c in enumerate(cities) if c.name == city)
        c = cities[i]
        if field == "marriage":
            cities[i] = CityState(c.name, c.marriage, c.mission, tile, c.mission_tile)
        else:
            cities[i] = CityState(c.name, c.marriage, c.mission, c.marriage_tile, tile)
    _take_tiles(s, tuple(tile for _, _, tile in e.tiles))
    s.cities = tuple(cities)


def _dice(s: State, e: ev.DiceRolled) -> None:
    s.dice = e.dice


def _tasks(s: State, e: ev.TasksLaid) -> None:
    s.tasks, s.phase, s.turn = e.tiles, ACTIONS, s.order[0]


def _births_due(s: State, e: ev.BirthsDue) -> None:
    s.chance = Chance(BIRTHS, e.seat, n=e.n)


def _alliance_due(s: State, e: ev.AllianceDue) -> None:
    s.chance = Chance(DRAW, e.seat, row=e.row)


def _births(s: State, e: ev.BirthsRolled) -> None:
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.males += e.males
    p.females += e.females
    p.general_m -= e.males
    p.general_f -= e.females
    s.chance = None


def _drawn(s: State, e: ev.AllianceDrawn) -> None:
    _take_tile(s, e.tile)
    p = board(s, e.player)
    p.face_down = (*p.face_down, e.row)
    p.hidden = (*p.hidden, e.tile)
    s.chance = None


# --------------------------------------------------------------------------- actions


def _die(s: State, e: ev.DieTaken) -> None:
    colour, value, seat = e.colour, e.value, e.seat
    dice = s.dice
    i = dice_at(dice, colour)
    values = dice[i][1]
    k = values.index(value)
    s.dice = (*dice[:i], (colour, values[:k] + values[k + 1:]), *dice[i + 1:])
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.florins -= e.cost
    p.dice = (*p.dice, (colour, value))
    s.active = Active(seat, colour, value, 1, e.free)


def _hired(s: State, e: ev.HelperHired) -> None:
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.helpers = tuple(sorted((*p.helpers, (e.colour, e.space))))
    p.florins -= e.cost


def _florins(s: State, e: ev.FlorinsGained) -> None:
    seat = e.seat
    (board(s, seat) if s.shared >> seat & 1 else s.players[seat]).florins += e.florins


def _points(s: State, e: ev.PointsScored) -> None:
    seat = e.seat
    (board(s, seat) if s.shared >> seat & 1 else s.players[seat]).points += e.points


def _place(city: CityState, field: str, space: int, seat: int, took_tile: bool) -> CityState:
    if field == "marriage":
        spaces = list(city.marriage)
        spaces[space] = seat
        return CityState(city.name, tuple(spaces), city.mission,
                         "" if took_tile else city.marriage_tile, city.mission_tile)
    spaces = list(city.mission)
    spaces[space] = seat
    return CityState(city.name, city.marriage, tuple(spaces), city.marriage_tile,
                     "" if took_tile else city.mission_tile)


def _city_at(s: State, name: str) -> int:
    """Where the city `name` is in `State.cities` (decide checked it is in play)."""
    for i, c in enumerate(s.cities):
        if c.name == name:
            return i
    raise AssertionError(f"{name} is not in play")


def _with_city(s: State, i: int, city: CityState) -> None:
    cities = list(s.cities)
    cities[i] = city
    s.cities = tuple(cities)


def _married(s: State, e: ev.Married) -> None:
    i = _city_at(s, e.city)
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    if e.tile:
        p.tiles = (*p.tiles, ("marriage", e.tile))
    p.females -= 1
    p.florins -= e.dowry
    p.points += e.points
    _with_city(s, i, _place(s.cities[i], "marriage", e.space, e.seat, bool(e.tile)))


def _without_figure(figures: tuple[tuple[int, int], ...], seat: int, space: int
                    ) -> tuple[tuple[int, int], ...]:
    out = list(figures)
    out.remove((seat, space))
    return tuple(out)


def _careers_with(s: State, career: str, figures: tuple[tuple[int, int], ...]
                  ) -> tuple[tuple[tuple[int, int], ...], ...]:
    i = CAREERS.index(career)
    return (*s.careers[:i], tuple(sorted(figures)), *s.careers[i + 1:])


def _mission(s: State, e: ev.MissionSent) -> None:
    i = _city_at(s, e.city)
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    if e.tile:
        p.tiles = (*p.tiles, (e.career, e.tile))
    p.points += e.points
    figures = _without_figure(s.figures_on(e.career), e.seat, e.start)
    s.careers = _careers_with(s, e.career, figures)
    _with_city(s, i, _place(s.cities[i], "mission", e.space, e.seat, bool(e.tile)))


def _moved(s: State, e: ev.FigureMoved) -> None:
    figures = s.figures_on(e.career)
    if e.start:
        figures = _without_figure(figures, e.seat, e.start)
    else:
        board(s, e.seat).males -= 1
    s.careers = _careers_with(s, e.career, (*figures, (e.seat, e.to)))


def _initiative(s: State, e: ev.InitiativeMoved) -> None:
    s.stamp += 1
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.initiative, p.stamp = e.to, s.stamp


def _task(s: State, e: ev.TaskUsed) -> None:
    tile = s.rules.tasks[e.tile]
    m, f = (e.count, 0) if e.sex == "m" else (0, e.count)
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.males -= m
    p.females -= f
    if tile.type == "threshold":
        p.threshold_m += m
        p.threshold_f += f
        p.raised += tile.per * e.count
    else:
        p.general_m += m
        p.general_f += f


def _figures(s: State, e: ev.FiguresTaken) -> None:
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.males += e.males
    p.females += e.females
    p.general_m -= e.males
    p.general_f -= e.females


def _helper_used(s: State, e: ev.HelperUsed) -> None:
    a = s.active
    assert a is not None
    s.active = Active(a.seat, a.colour, a.value, e.space + 1, a.free)


def _turn_ended(s: State, e: ev.TurnEnded) -> None:
    s.active = None
    if s.phase == EXTRA:
        s.extra = s.extra[1:]
    else:
        s.turn = next_seat(s, e.seat, s.passed)


def _passed(s: State, e: ev.Passed) -> None:
    s.passed = passed = s.passed | {e.seat}
    s.turn = next_seat(s, e.seat, passed)


# --------------------------------------------------------------------------- rewards


def _turn_order(s: State, e: ev.TurnOrderSet) -> None:
    n = len(e.order)
    for place, seat in enumerate(e.order):
        p = board(s, seat)
        p.initiative, p.stamp = 0, s.stamp + n - place
    s.order, s.stamp = e.order, s.stamp + n


def _checked(s: State, e: ev.RewardChecked) -> None:
    s.phase, s.rewarded, s.turn = REWARDS, e.rewarded, None


def _reward(s: State, e: ev.RewardTaken) -> None:
    tile = s.reward_tile
    if e.choice == "bonus" and tile is not None and s.rules.rewards[tile].type == "extra":
        s.extra = (*s.extra, e.seat)
    s.rewarded = s.rewarded[1:]


def _son(s: State, e: ev.SonMarried) -> None:
    seat = e.seat
    p = board(s, seat) if s.shared >> seat & 1 else s.players[seat]
    p.sons = e.son
    p.points += e.points
    p.florins += e.florins


def _cleared(s: State, e: ev.DiceCleared) -> None:
    for seat in range(len(s.players)):
        board(s, seat).dice = ()
    s.phase = EXTRA


def _skipped(s: State, e: ev.ExtraSkipped) -> None:
    s.extra = s.extra[1:]


def _round_ended(s: State, e: ev.RoundEnded) -> None:
    for seat in range(len(s.players)):
        p = board(s, seat)
        p.dice = ()
        p.general_m += p.threshold_m
        p.general_f += p.threshold_f
        p.threshold_m = p.threshold_f = p.raised = 0
    s.phase, s.dice, s.tasks, s.passed = BETWEEN, (), (), frozenset()
    s.turn, s.rewarded, s.extra = None, (), ()


def _ended(s: State, e: ev.GameEnded) -> None:
    for seat in range(len(s.players)):
        board(s, seat).points += e.careers[seat] + e.rows[seat]
    s.phase, s.winners, s.turn = OVER, e.winners, None


EVOLVE: dict[type[Any], Callable[[State, Any], None]] = {
    ev.OrderDrawn: _order,
    ev.CitiesDrawn: _cities,
    ev.RewardsLaid: _rewards,
    ev.RoundStarted: _round,
    ev.AlliancesLaid: _alliances,
    ev.DiceRolled: _dice,
    ev.TasksLaid: _tasks,
    ev.BirthsDue: _births_due,
    ev.AllianceDue: _alliance_due,
    ev.BirthsRolled: _births,
    ev.AllianceDrawn: _drawn,
    ev.DieTaken: _die,
    ev.HelperHired: _hired,
    ev.FlorinsGained: _florins,
    ev.PointsScored: _points,
    ev.Married: _married,
    ev.MissionSent: _mission,
    ev.FigureMoved: _moved,
    ev.InitiativeMoved: _initiative,
    ev.TaskUsed: _task,
    ev.FiguresTaken: _figures,
    ev.HelperUsed: _helper_used,
    ev.TurnEnded: _turn_ended,
    ev.Passed: _passed,
    ev.TurnOrderSet: _turn_order,
    ev.RewardChecked: _checked,
    ev.RewardTaken: _reward,
    ev.SonMarried: _son,
    ev.DiceCleared: _cleared,
    ev.ExtraSkipped: _skipped,
    ev.RoundEnded: _round_ended,
    ev.GameEnded: _ended,
}
"""Each event type's handler, which folds it into a state in place."""


def evolve_in_place(s: State, event: Any) -> None:
    """Fold one event into `s` itself (the one implementation of every event's
    effect; `evolve` runs it on a copy)."""
    handler = EVOLVE.get(type(event))
    if handler is None:
        raise AssertionError(f"Signorie folds no {type(event).__name__} here: {event!r}")
    handler(s, event)
    s.version += 1


def evolve(state: State, event: Any) -> State:
    """The state after one more event, `state` unchanged (a fold's step)."""
    s = copy_state(state)
    evolve_in_place(s, event)
    return s
