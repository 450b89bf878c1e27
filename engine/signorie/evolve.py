"""Events folded into the state. Never validates: `decide` did; a failure is a bug."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
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
    Active,
    Board,
    Chance,
    CityState,
    State,
)

BETWEEN = "between"
"""After the setup or a round's clean-up: the next round (or the end) follows by itself."""


def _board(state: State, seat: int, **changes: Any) -> tuple[Board, ...]:
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)
    return tuple(players)


def _r(state: State, **changes: Any) -> State:
    return dataclasses.replace(state, **changes)


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


def _order(state: State, e: ev.OrderDrawn) -> State:
    players = list(state.players)
    for place, seat in enumerate(e.order):
        p = players[seat]
        players[seat] = dataclasses.replace(p, florins=p.florins + state.rules.seat_florins[place])
    n = len(e.order)
    # stacked on the bottom space: the first player on top
    for place, seat in enumerate(e.order):
        players[seat] = dataclasses.replace(players[seat], stamp=n - place)
    return _r(state, players=tuple(players), order=e.order, stamp=n)


def _cities(state: State, e: ev.CitiesDrawn) -> State:
    return _r(state, cities=city_states(state.rules, e.cities))


def _rewards(state: State, e: ev.RewardsLaid) -> State:
    return _r(state, reward_row=e.tiles, phase=BETWEEN)


def _round(state: State, e: ev.RoundStarted) -> State:
    return _r(state, round=e.round, phase=PREPARE, passed=frozenset(), turn=None)


def _take_tile(state: State, tile: str) -> State:
    """The pool and the family's count without one `tile`."""
    pool = list(state.pool)
    pool.remove(tile)
    family = state.rules.families.index(state.rules.tile_family(tile))
    left = list(state.family_left)
    left[family] -= 1
    return _r(state, pool=tuple(pool), family_left=tuple(left))


def _alliances(state: State, e: ev.AlliancesLaid) -> State:
    cities = list(state.cities)
    for city, field, tile in e.tiles:
        i = next(k for k, c in enumerate(cities) if c.name == city)
        if field == "marriage":
            cities[i] = dataclasses.replace(cities[i], marriage_tile=tile)
        else:
            cities[i] = dataclasses.replace(cities[i], mission_tile=tile)
        state = _take_tile(state, tile)
    return _r(state, cities=tuple(cities))


def _dice(state: State, e: ev.DiceRolled) -> State:
    return _r(state, dice=e.dice)


def _tasks(state: State, e: ev.TasksLaid) -> State:
    return _r(state, tasks=e.tiles, phase=ACTIONS, turn=state.order[0])


def _births_due(state: State, e: ev.BirthsDue) -> State:
    return _r(state, chance=Chance(BIRTHS, e.seat, n=e.n))


def _alliance_due(state: State, e: ev.AllianceDue) -> State:
    return _r(state, chance=Chance(DRAW, e.seat, row=e.row))


def _births(state: State, e: ev.BirthsRolled) -> State:
    p = state.players[e.seat]
    players = _board(state, e.seat, males=p.males + e.males, females=p.females + e.females,
                     general_m=p.general_m - e.males, general_f=p.general_f - e.females)
    return _r(state, players=players, chance=None)


def _drawn(state: State, e: ev.AllianceDrawn) -> State:
    p = state.players[e.player]
    state = _take_tile(state, e.tile)
    players = _board(state, e.player, face_down=(*p.face_down, e.row),
                     hidden=(*p.hidden, e.tile))
    return _r(state, players=players, chance=None)


# --------------------------------------------------------------------------- actions


def _die(state: State, e: ev.DieTaken) -> State:
    p = state.players[e.seat]
    dice = []
    for colour, values in state.dice:
        if colour == e.colour:
            rest = list(values)
            rest.remove(e.value)
            values = tuple(rest)
        dice.append((colour, values))
    players = _board(state, e.seat, florins=p.florins - e.cost,
                     dice=(*p.dice, (e.colour, e.value)))
    return _r(state, players=players, dice=tuple(dice),
              active=Active(e.seat, e.colour, e.value, 1, e.free))


def _hired(state: State, e: ev.HelperHired) -> State:
    p = state.players[e.seat]
    helpers = tuple(sorted((*p.helpers, (e.colour, e.space))))
    return _r(state, players=_board(state, e.seat, florins=p.florins - e.cost, helpers=helpers))


def _florins(state: State, e: ev.FlorinsGained) -> State:
    p = state.players[e.seat]
    return _r(state, players=_board(state, e.seat, florins=p.florins + e.florins))


def _points(state: State, e: ev.PointsScored) -> State:
    p = state.players[e.seat]
    return _r(state, players=_board(state, e.seat, points=p.points + e.points))


def _place(city: CityState, field: str, space: int, seat: int, took_tile: bool) -> CityState:
    spaces = list(city.spaces(field))
    spaces[space] = seat
    changes: dict[str, Any] = {field: tuple(spaces)}
    if took_tile:
        changes[f"{field}_tile"] = ""
    return dataclasses.replace(city, **changes)


def _cities_with(state: State, name: str, city: CityState) -> tuple[CityState, ...]:
    return tuple(city if c.name == name else c for c in state.cities)


def _married(state: State, e: ev.Married) -> State:
    p = state.players[e.seat]
    city = state.city(e.city)
    assert city is not None
    tiles = (*p.tiles, ("marriage", e.tile)) if e.tile else p.tiles
    players = _board(state, e.seat, females=p.females - 1, florins=p.florins - e.dowry,
                     points=p.points + e.points, tiles=tiles)
    return _r(state, players=players,
              cities=_cities_with(state, e.city, _place(city, "marriage", e.space, e.seat,
                                                        bool(e.tile))))


def _without_figure(figures: tuple[tuple[int, int], ...], seat: int, space: int
                    ) -> tuple[tuple[int, int], ...]:
    out = list(figures)
    out.remove((seat, space))
    return tuple(out)


def _careers_with(state: State, career: str, figures: tuple[tuple[int, int], ...]
                  ) -> tuple[tuple[tuple[int, int], ...], ...]:
    i = CAREERS.index(career)
    return (*state.careers[:i], tuple(sorted(figures)), *state.careers[i + 1:])


def _mission(state: State, e: ev.MissionSent) -> State:
    p = state.players[e.seat]
    city = state.city(e.city)
    assert city is not None
    tiles = (*p.tiles, (e.career, e.tile)) if e.tile else p.tiles
    players = _board(state, e.seat, points=p.points + e.points, tiles=tiles)
    figures = _without_figure(state.figures_on(e.career), e.seat, e.start)
    return _r(state, players=players, careers=_careers_with(state, e.career, figures),
              cities=_cities_with(state, e.city, _place(city, "mission", e.space, e.seat,
                                                        bool(e.tile))))


def _moved(state: State, e: ev.FigureMoved) -> State:
    figures = state.figures_on(e.career)
    if e.start:
        figures = _without_figure(figures, e.seat, e.start)
    else:
        p = state.players[e.seat]
        state = _r(state, players=_board(state, e.seat, males=p.males - 1))
    return _r(state, careers=_careers_with(state, e.career, (*figures, (e.seat, e.to))))


def _initiative(state: State, e: ev.InitiativeMoved) -> State:
    stamp = state.stamp + 1
    return _r(state, stamp=stamp, players=_board(state, e.seat, initiative=e.to, stamp=stamp))


def _task(state: State, e: ev.TaskUsed) -> State:
    p = state.players[e.seat]
    tile = state.rules.tasks[e.tile]
    m, f = (e.count, 0) if e.sex == "m" else (0, e.count)
    changes: dict[str, int] = {"males": p.males - m, "females": p.females - f}
    if tile.type == "threshold":
        changes.update(threshold_m=p.threshold_m + m, threshold_f=p.threshold_f + f,
                       raised=p.raised + tile.per * e.count)
    else:
        changes.update(general_m=p.general_m + m, general_f=p.general_f + f)
    return _r(state, players=_board(state, e.seat, **changes))


def _figures(state: State, e: ev.FiguresTaken) -> State:
    p = state.players[e.seat]
    return _r(state, players=_board(state, e.seat, males=p.males + e.males,
                                    females=p.females + e.females,
                                    general_m=p.general_m - e.males,
                                    general_f=p.general_f - e.females))


def _helper_used(state: State, e: ev.HelperUsed) -> State:
    assert state.active is not None
    return _r(state, active=dataclasses.replace(state.active, next=e.space + 1))


def _turn_ended(state: State, e: ev.TurnEnded) -> State:
    if state.phase == EXTRA:
        return _r(state, active=None, extra=state.extra[1:])
    return _r(state, active=None, turn=next_seat(state, e.seat, state.passed))


def _passed(state: State, e: ev.Passed) -> State:
    passed = state.passed | {e.seat}
    return _r(state, passed=passed, turn=next_seat(state, e.seat, passed))


# --------------------------------------------------------------------------- rewards


def _turn_order(state: State, e: ev.TurnOrderSet) -> State:
    n = len(e.order)
    players = list(state.players)
    for place, seat in enumerate(e.order):
        players[seat] = dataclasses.replace(players[seat], initiative=0,
                                            stamp=state.stamp + n - place)
    return _r(state, players=tuple(players), order=e.order, stamp=state.stamp + n)


def _checked(state: State, e: ev.RewardChecked) -> State:
    return _r(state, phase=REWARDS, rewarded=e.rewarded, turn=None)


def _reward(state: State, e: ev.RewardTaken) -> State:
    extra = state.extra
    tile = state.reward_tile
    if e.choice == "bonus" and tile is not None and state.rules.rewards[tile].type == "extra":
        extra = (*extra, e.seat)
    return _r(state, rewarded=state.rewarded[1:], extra=extra)


def _son(state: State, e: ev.SonMarried) -> State:
    p = state.players[e.seat]
    return _r(state, players=_board(state, e.seat, sons=e.son, points=p.points + e.points,
                                    florins=p.florins + e.florins))


def _cleared(state: State, e: ev.DiceCleared) -> State:
    players = tuple(dataclasses.replace(p, dice=()) for p in state.players)
    return _r(state, players=players, phase=EXTRA)


def _skipped(state: State, e: ev.ExtraSkipped) -> State:
    return _r(state, extra=state.extra[1:])


def _round_ended(state: State, e: ev.RoundEnded) -> State:
    players = tuple(
        dataclasses.replace(p, dice=(), general_m=p.general_m + p.threshold_m,
                            general_f=p.general_f + p.threshold_f, threshold_m=0,
                            threshold_f=0, raised=0)
        for p in state.players)
    return _r(state, players=players, phase=BETWEEN, dice=(), tasks=(), passed=frozenset(),
              turn=None, rewarded=(), extra=())


def _ended(state: State, e: ev.GameEnded) -> State:
    players = tuple(
        dataclasses.replace(p, points=p.points + e.careers[i] + e.rows[i])
        for i, p in enumerate(state.players))
    return _r(state, players=players, phase=OVER, winners=e.winners, turn=None)


_EVOLVE: dict[type[Any], Callable[[State, Any], State]] = {
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


def evolve(state: State, event: Any) -> State:
    """Fold one event into the state."""
    handler = _EVOLVE.get(type(event))
    if handler is None:
        raise AssertionError(f"Signorie folds no {type(event).__name__} here: {event!r}")
    return dataclasses.replace(handler(state, event), version=state.version + 1)
