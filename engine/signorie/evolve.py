"""Events folded into the state: one handler per event type, which writes the event's
effect into the state in place (`evolve_in_place`, the replay path); `evolve` runs it
on a copy, so a fold never changes the state it is given. Never validates: `decide`
did; a failure is a bug.

Only the `State` is changed in place: what it holds (boards, cities, tuples) are
values, replaced whole, so a copy of the state (`copy_state`) shares them safely.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from engine.frozen import quick_replace

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
    Active,
    Board,
    Chance,
    CityState,
    State,
)

BETWEEN = "between"
"""After the setup or a round's clean-up: the next round (or the end) follows by itself."""


_b = quick_replace(Board)
"""`dataclasses.replace` for a board, quicker (most events make one)."""
_city = quick_replace(CityState)
_active = quick_replace(Active)

_STATE_FIELDS = tuple(f.name for f in fields(State))
_state_values: Callable[[State], tuple[Any, ...]] = attrgetter(*_STATE_FIELDS)


def copy_state(state: State) -> State:
    """A new State holding the same values (boards, cities, tuples): what a fold in
    place may change without changing `state`."""
    return State(*_state_values(state))


def snapshot(state: State) -> tuple[Any, ...]:
    """The state's values, for `restore` (a refused command changes nothing)."""
    return _state_values(state)


def restore(state: State, values: tuple[Any, ...]) -> None:
    """Put back the values `snapshot` took."""
    for name, value in zip(_STATE_FIELDS, values, strict=True):
        setattr(state, name, value)


def _set_board(s: State, seat: int, board: Board) -> None:
    players = list(s.players)
    players[seat] = board
    s.players = tuple(players)


def _board(s: State, seat: int, **changes: Any) -> None:
    """Change some fields of `seat`'s board (a new board in its place)."""
    _set_board(s, seat, _b(s.players[seat], **changes))


def next_seat(state: State, after: int, passed: frozenset[int]) -> int | None:
    """The next seat in turn order after `after` that has not passed."""
    order = state.order
    i = order.index(after)
    for k in range(1, len(order) + 1):
        s = order[(i + k) % len(order)]
        if s not in passed:
            return s
    return None


# --------------------------------------------------------------------------- setup, chance


def _order(s: State, e: ev.OrderDrawn) -> None:
    players = list(s.players)
    for place, seat in enumerate(e.order):
        p = players[seat]
        players[seat] = _b(p, florins=p.florins + s.rules.seat_florins[place])
    n = len(e.order)
    # stacked on the bottom space: the first player on top
    for place, seat in enumerate(e.order):
        players[seat] = _b(players[seat], stamp=n - place)
    s.players, s.order, s.stamp = tuple(players), e.order, n


def _cities(s: State, e: ev.CitiesDrawn) -> None:
    s.cities = city_states(s.rules, e.cities)


def _rewards(s: State, e: ev.RewardsLaid) -> None:
    s.reward_row, s.phase = e.tiles, BETWEEN


def _round(s: State, e: ev.RoundStarted) -> None:
    s.round, s.phase, s.passed, s.turn = e.round, PREPARE, frozenset(), None


def _take_tile(s: State, tile: str) -> None:
    """The pool and the family's count without one `tile`."""
    pool = list(s.pool)
    pool.remove(tile)
    family = s.rules.families.index(s.rules.tile_family(tile))
    left = list(s.family_left)
    left[family] -= 1
    s.pool, s.family_left = tuple(pool), tuple(left)


def _alliances(s: State, e: ev.AlliancesLaid) -> None:
    cities = list(s.cities)
    for city, field, tile in e.tiles:
        i = next(k for k, c in enumerate(cities) if c.name == city)
        if field == "marriage":
            cities[i] = _city(cities[i], marriage_tile=tile)
        else:
            cities[i] = _city(cities[i], mission_tile=tile)
        _take_tile(s, tile)
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
    p = s.players[e.seat]
    _board(s, e.seat, males=p.males + e.males, females=p.females + e.females,
           general_m=p.general_m - e.males, general_f=p.general_f - e.females)
    s.chance = None


def _drawn(s: State, e: ev.AllianceDrawn) -> None:
    p = s.players[e.player]
    _take_tile(s, e.tile)
    _board(s, e.player, face_down=(*p.face_down, e.row), hidden=(*p.hidden, e.tile))
    s.chance = None


# --------------------------------------------------------------------------- actions


def _die(s: State, e: ev.DieTaken) -> None:
    p = s.players[e.seat]
    dice = []
    for colour, values in s.dice:
        if colour == e.colour:
            rest = list(values)
            rest.remove(e.value)
            values = tuple(rest)
        dice.append((colour, values))
    _board(s, e.seat, florins=p.florins - e.cost, dice=(*p.dice, (e.colour, e.value)))
    s.dice = tuple(dice)
    s.active = Active(e.seat, e.colour, e.value, 1, e.free)


def _hired(s: State, e: ev.HelperHired) -> None:
    p = s.players[e.seat]
    helpers = tuple(sorted((*p.helpers, (e.colour, e.space))))
    _board(s, e.seat, florins=p.florins - e.cost, helpers=helpers)


def _florins(s: State, e: ev.FlorinsGained) -> None:
    _board(s, e.seat, florins=s.players[e.seat].florins + e.florins)


def _points(s: State, e: ev.PointsScored) -> None:
    _board(s, e.seat, points=s.players[e.seat].points + e.points)


def _place(city: CityState, field: str, space: int, seat: int, took_tile: bool) -> CityState:
    spaces = list(city.spaces(field))
    spaces[space] = seat
    changes: dict[str, Any] = {field: tuple(spaces)}
    if took_tile:
        changes[f"{field}_tile"] = ""
    return _city(city, **changes)


def _cities_with(s: State, name: str, city: CityState) -> tuple[CityState, ...]:
    return tuple(city if c.name == name else c for c in s.cities)


def _married(s: State, e: ev.Married) -> None:
    p = s.players[e.seat]
    city = s.city(e.city)
    assert city is not None
    tiles = (*p.tiles, ("marriage", e.tile)) if e.tile else p.tiles
    _board(s, e.seat, females=p.females - 1, florins=p.florins - e.dowry,
           points=p.points + e.points, tiles=tiles)
    s.cities = _cities_with(s, e.city, _place(city, "marriage", e.space, e.seat, bool(e.tile)))


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
    p = s.players[e.seat]
    city = s.city(e.city)
    assert city is not None
    tiles = (*p.tiles, (e.career, e.tile)) if e.tile else p.tiles
    _board(s, e.seat, points=p.points + e.points, tiles=tiles)
    figures = _without_figure(s.figures_on(e.career), e.seat, e.start)
    s.careers = _careers_with(s, e.career, figures)
    s.cities = _cities_with(s, e.city, _place(city, "mission", e.space, e.seat, bool(e.tile)))


def _moved(s: State, e: ev.FigureMoved) -> None:
    figures = s.figures_on(e.career)
    if e.start:
        figures = _without_figure(figures, e.seat, e.start)
    else:
        _board(s, e.seat, males=s.players[e.seat].males - 1)
    s.careers = _careers_with(s, e.career, (*figures, (e.seat, e.to)))


def _initiative(s: State, e: ev.InitiativeMoved) -> None:
    s.stamp += 1
    _board(s, e.seat, initiative=e.to, stamp=s.stamp)


def _task(s: State, e: ev.TaskUsed) -> None:
    p = s.players[e.seat]
    tile = s.rules.tasks[e.tile]
    m, f = (e.count, 0) if e.sex == "m" else (0, e.count)
    changes: dict[str, int] = {"males": p.males - m, "females": p.females - f}
    if tile.type == "threshold":
        changes.update(threshold_m=p.threshold_m + m, threshold_f=p.threshold_f + f,
                       raised=p.raised + tile.per * e.count)
    else:
        changes.update(general_m=p.general_m + m, general_f=p.general_f + f)
    _board(s, e.seat, **changes)


def _figures(s: State, e: ev.FiguresTaken) -> None:
    p = s.players[e.seat]
    _board(s, e.seat, males=p.males + e.males, females=p.females + e.females,
           general_m=p.general_m - e.males, general_f=p.general_f - e.females)


def _helper_used(s: State, e: ev.HelperUsed) -> None:
    assert s.active is not None
    s.active = _active(s.active, next=e.space + 1)


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
    players = list(s.players)
    for place, seat in enumerate(e.order):
        players[seat] = _b(players[seat], initiative=0, stamp=s.stamp + n - place)
    s.players, s.order, s.stamp = tuple(players), e.order, s.stamp + n


def _checked(s: State, e: ev.RewardChecked) -> None:
    s.phase, s.rewarded, s.turn = REWARDS, e.rewarded, None


def _reward(s: State, e: ev.RewardTaken) -> None:
    tile = s.reward_tile
    if e.choice == "bonus" and tile is not None and s.rules.rewards[tile].type == "extra":
        s.extra = (*s.extra, e.seat)
    s.rewarded = s.rewarded[1:]


def _son(s: State, e: ev.SonMarried) -> None:
    p = s.players[e.seat]
    _board(s, e.seat, sons=e.son, points=p.points + e.points, florins=p.florins + e.florins)


def _cleared(s: State, e: ev.DiceCleared) -> None:
    s.players = tuple(_b(p, dice=()) for p in s.players)
    s.phase = EXTRA


def _skipped(s: State, e: ev.ExtraSkipped) -> None:
    s.extra = s.extra[1:]


def _round_ended(s: State, e: ev.RoundEnded) -> None:
    s.players = tuple(
        _b(p, dice=(), general_m=p.general_m + p.threshold_m,
           general_f=p.general_f + p.threshold_f, threshold_m=0, threshold_f=0, raised=0)
        for p in s.players)
    s.phase, s.dice, s.tasks, s.passed = BETWEEN, (), (), frozenset()
    s.turn, s.rewarded, s.extra = None, (), ()


def _ended(s: State, e: ev.GameEnded) -> None:
    s.players = tuple(_b(p, points=p.points + e.careers[i] + e.rows[i])
                      for i, p in enumerate(s.players))
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
