"""The commands a seat may give now, in a stable order.

Progress points can be split in very many ways, so the Tracks choices offered are a
bounded, representative set (`tracks_options`, at most a few dozen):
- every single step of every size on each allowed track (a new figure, each own
  figure moved, the initiative disc);
- every pair of steps on one career track that uses all the points (two figures, or
  a new figure and one of yours);
- when the initiative track and a career are both allowed, each career step with the
  initiative disc moved by the rest of the points.
Any other split is still legal when written; it is only not listed. Marriages are
listed with every dowry.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator
from typing import Any

from engine.errors import IllegalMoveError
from engine.frozen import dataclass
from engine.protocol import CHANCE

from . import events as ev
from .actions import figures_in_cities, lowest_empty
from .chance import tiles_left
from .commands import (
    CAREERS,
    COLOURS,
    ROWS,
    TRACKS,
    Action,
    Activate,
    Alliance,
    Done,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Pass,
    Reward,
    Step,
    Take,
    Task,
    Tracks,
)
from .evolve import evolve
from .ruleset import INITIATIVE, Rules
from .state import ACTIONS, EXTRA, REWARDS, State

# --------------------------------------------------------------------------- choices


def _steps(state: State, seat: int, most: int, track: str) -> Iterator[Step]:
    r = state.rules
    p = state.players[seat]
    if track == INITIATIVE:
        for k in range(1, min(most, r.initiative_top - p.initiative) + 1):
            yield Step(INITIATIVE, 0, k)
        return
    if p.males:
        for k in range(1, min(most, r.career_top) + 1):
            yield Step(track, 0, k)
    for space in sorted({s for o, s in state.figures_on(track) if o == seat}):
        for k in range(1, min(most, r.career_top - space) + 1):
            yield Step(track, space, space + k)


def tracks_options(state: State, seat: int, most: int, allowed: tuple[str, ...]
                   ) -> Iterator[Tracks]:
    """The bounded set of Tracks choices (see the module's docstring)."""
    for track in allowed:
        for step in _steps(state, seat, most, track):
            yield Tracks((step,))
    if most < 2:
        return
    males = state.players[seat].males
    for track in allowed:
        if track == INITIATIVE:
            continue
        steps = list(_steps(state, seat, most - 1, track))
        for i, a in enumerate(steps):
            for b in steps[i + 1:]:
                if a.points + b.points == most and (a.start != b.start or (
                        a.start == 0 and males >= 2)):
                    yield Tracks((a, b))
    if INITIATIVE not in allowed:
        return
    room = state.rules.initiative_top - state.players[seat].initiative
    for track in allowed:
        if track == INITIATIVE:
            continue
        for step in _steps(state, seat, most - 1, track):
            rest = most - step.points
            if 1 <= rest <= room:
                yield Tracks((Step(INITIATIVE, 0, rest), step))


def marry_options(state: State, seat: int) -> Iterator[Marry]:
    r = state.rules
    p = state.players[seat]
    if not p.females:
        return
    for city in state.cities:
        space = lowest_empty(r.cities[city.name].marriage, city.marriage)
        if space is None:
            continue
        for dowry in range(r.cities[city.name].marriage[space], min(r.dowry_max, p.florins) + 1):
            yield Marry(city.name, dowry)


def mission_options(state: State, seat: int) -> Iterator[Mission]:
    r = state.rules
    for career in CAREERS:
        for space in sorted({s for o, s in state.figures_on(career) if o == seat}):
            for city in state.cities:
                at = lowest_empty(r.cities[city.name].mission, city.mission)
                if at is not None and r.cities[city.name].mission[at] <= r.rank(space):
                    yield Mission(career, space, city.name)


def alliance_options(state: State) -> Iterator[Alliance]:
    if tiles_left(state):
        for row in ROWS:
            yield Alliance(row)


def figures_options(state: State, seat: int, n: int) -> Iterator[Figures]:
    p = state.players[seat]
    for males in range(n, -1, -1):
        if males <= p.general_m and n - males <= p.general_f:
            yield Figures(("m",) * males + ("f",) * (n - males))


def hire_options(state: State, seat: int, colour: str) -> Iterator[Hire]:
    r = state.rules
    target = r.hire_target(colour)
    if target is None or state.helpers_left <= 0:
        return
    p = state.players[seat]
    for hs in r.columns[target].helpers:
        if not p.has_helper(target, hs.space) and hs.cost <= p.florins:
            yield Hire(hs.space)


def task_options(state: State, seat: int, colour: str | None, single: bool) -> Iterator[Task]:
    r = state.rules
    p = state.players[seat]
    for (field_colour, sex), name in zip(r.task_fields, state.tasks, strict=True):
        if colour is not None and field_colour != colour:
            continue
        tile = r.tasks[name]
        if single and tile.figures > 1:
            continue
        have = p.males if sex == "m" else p.females
        for count in (1,) if single else tile.counts:
            if count > have:
                continue
            after = evolve(state, ev.TaskUsed(seat, name, sex, count))
            then: Iterator[Action | None]
            if tile.type == "career":
                then = tracks_options(after, seat, tile.per * count, (tile.track,))
            elif tile.type == "initiative":
                then = tracks_options(after, seat, tile.per * count, (INITIATIVE,))
            elif tile.type == "figures":
                then = figures_options(after, seat, count)
            elif tile.type == "alliance":
                then = alliance_options(after)
            elif tile.type == "action":
                then = (marry_options(after, seat) if tile.action == "marry"
                        else mission_options(after, seat))
            else:
                then = iter((None,))
            for t in then:
                yield Task(name, count, t)


def signoria_options(state: State, seat: int, colour: str) -> Iterator[Action]:
    r = state.rules
    word = r.columns[colour].signoria
    if word == "florins":
        yield Florins()
    elif word == "marry":
        yield from marry_options(state, seat)
    elif word == "offspring":
        yield Offspring()
    elif word == "tracks":
        yield from tracks_options(state, seat, r.track_points, TRACKS)
    else:
        yield from mission_options(state, seat)


def field_options(state: State, seat: int, colour: str) -> Iterator[Action]:
    yield from hire_options(state, seat, colour)
    yield from task_options(state, seat, colour, single=False)
    yield from signoria_options(state, seat, colour)


def take_options(state: State, seat: int) -> Generator[Take, None, None]:
    r = state.rules
    free = state.phase == EXTRA
    p = state.players[seat]
    if not free and len(p.dice) >= r.max_dice:
        return
    for colour in COLOURS:
        if p.has_die(colour):
            continue
        for value in sorted(set(state.offered(colour))):
            cost = 0 if free else max(0, r.columns[colour].cost - value)
            if cost > p.florins:
                continue
            after = evolve(state, ev.DieTaken(seat, colour, value, cost, free))
            for action in field_options(after, seat, colour):
                yield Take(colour, value, action)


UNCONDITIONAL = ("florins", "offspring")
"""The Signoria actions open whatever the position (`signoria_options` always gives
one): a die of such a column that the player may take makes a legal Take."""


def can_take(state: State, seat: int) -> bool:
    """True if `seat` has a legal Take (`take_options`), asked after most commands:
    first the quick yes, in one pass over the dice on offer, of an affordable die of
    a column whose Signoria action needs nothing, or progress points with somewhere
    to go, or a helper it may hire once paid for, without trying the die on a copy of
    the state (the columns whose Signoria action needs nothing looked at first, the
    most common yes)."""
    r = state.rules
    free = state.phase == EXTRA
    p = state.players[seat]
    if free or len(p.dice) < r.max_dice:
        got = _QUICK.get(id(r))
        if got is None or got[0] is not r:
            got = _QUICK[id(r)] = (r, _columns(r), len(r.task_fields))
        columns, fields = got[1], got[2]
        mine, florins = p.dice, p.florins
        for colour, values in state.dice:
            column = columns.get(colour)
            if (column is not None and column.signoria == _ANY and values
                    and (free or column.cost - max(values) <= florins)
                    and not _holds(mine, colour)):
                return True
        tracks: bool | None = None
        supply: bool | None = None
        for colour, values in state.dice:  # (each colour once: chance rolls them so)
            if not values or _holds(mine, colour):
                continue
            column = columns.get(colour)
            if column is None:
                continue
            cost = 0 if free else max(0, column.cost - max(values))
            if cost > florins:
                continue
            if column.signoria == _ANY:
                return True
            if column.signoria == _TRACKS:
                if tracks is None:  # a first step of `tracks_options` over TRACKS
                    most = r.track_points
                    tracks = (p.males > 0 and min(most, r.career_top) >= 1) or min(
                        most, r.initiative_top - p.initiative) >= 1 or any(
                        _has_step(state, seat, most, track) for track in TRACKS)
                if tracks:
                    return True
            # a helper hired with the die taken (`hire_options` once it is paid for)
            target = column.hires
            if target is not None:
                if supply is None:
                    supply = state.helpers_left > 0
                if supply:
                    for space, price in column.spaces:
                        if price <= florins - cost and not p.has_helper(target, space):
                            return True
            if len(state.tasks) != fields:
                break  # (`task_options` refuses such a position: asked below)
            if _task_open(state, seat, column, florins - cost):
                return True
            if column.signoria == _MARRY and _marriage_open(state, p.females, florins - cost):
                return True
            if column.signoria == _MISSION and _can_send(state, seat):
                return True
        else:
            return False  # (every choice `take_options` tries is answered above)
    return _any(state, take_options(state, seat))


def _task_open(state: State, seat: int, column: _Column, florins: int) -> bool:
    """Whether `task_options(after, seat, colour, single=False)` gives one, `after`
    the position with the die of the column's colour paid for (`florins` left)."""
    r = state.rules
    p = state.players[seat]
    for k, sex in column.tasks:
        tile = r.tasks[state.tasks[k]]
        have = p.males if sex == "m" else p.females
        for count in tile.counts:
            if count > have:
                continue
            m, f = (count, 0) if sex == "m" else (0, count)  # returned (`TaskUsed`)
            kind = tile.type
            if kind == "career":
                if _step_open(state, seat, tile.per * count, tile.track, p.males - m):
                    return True
            elif kind == "initiative":
                if min(tile.per * count, r.initiative_top - p.initiative) >= 1:
                    return True
            elif kind == "figures":  # `figures_options` with the figures returned
                general_m, general_f = p.general_m + m, p.general_f + f
                for males in range(count, -1, -1):
                    if males <= general_m and count - males <= general_f:
                        return True
            elif kind == "alliance":
                if tiles_left(state):
                    return True
            elif kind == "action":
                if tile.action == "marry":
                    if _marriage_open(state, p.females - f, florins):
                        return True
                elif _can_send(state, seat):
                    return True
            else:
                return True
    return False


@dataclass(frozen=True, slots=True)
class _Column:
    """What `can_take` reads of a column: its die's cost, its Signoria action (_ANY
    for one that needs nothing, else which), the column its die hires onto and that
    column's helper spaces with their costs, and its task fields."""

    cost: int
    signoria: int
    hires: str | None
    spaces: tuple[tuple[int, int], ...]
    tasks: tuple[tuple[int, str], ...]  # its task fields: (index in `State.tasks`, sex)


_ANY, _TRACKS, _MARRY, _MISSION = 1, 2, 3, 4
_SIGNORIA = {"tracks": _TRACKS, "marry": _MARRY, "mission": _MISSION}


def _columns(r: Rules) -> dict[str, _Column]:
    out: dict[str, _Column] = {}
    fields = r.task_fields
    for colour, column in r.columns.items():
        target = r.hire_target(colour)
        out[colour] = _Column(
            column.cost,
            _ANY if column.signoria in UNCONDITIONAL
            else _SIGNORIA.get(column.signoria, _MISSION),  # (`signoria_options`)
            target,
            () if target is None else tuple((hs.space, hs.cost)
                                            for hs in r.columns[target].helpers),
            tuple((k, sex) for k, (c, sex) in enumerate(fields) if c == colour))
    return out


def _holds(mine: tuple[tuple[str, int], ...], colour: str) -> bool:
    """Whether a board's dice (`Board.dice`) hold one of `colour`."""
    for c, _ in mine:
        if c == colour:
            return True
    return False


_QUICK: dict[int, tuple[Rules, dict[str, _Column], int]] = {}
"""By the id of a Rules: it, what `can_take` reads of each column, and how many task
fields there are."""


def _any(state: State, options: Generator[Any, None, None]) -> bool:
    """Whether `options` gives one. The copies of `state` it made on the way
    (`evolve`) are gone after it: `state` keeps its boards as its own as before."""
    shared = state.shared
    found = next(options, None) is not None
    options.close()  # (`next` leaves it suspended, holding the copies)
    state.shared = shared
    return found


def helper_options(state: State, seat: int, space: int) -> Generator[Activate, None, None]:
    a = state.active
    if a is None or not state.players[seat].has_helper(a.colour, space) or space < a.next:
        return
    hs = state.rules.helper_space(a.colour, space)
    assert hs is not None
    effect = hs.effect
    options: Iterator[Action | None]
    if effect == "mission-alliance":
        options = mission_options(state, seat)
    elif effect == "marriage-alliance":
        options = marry_options(state, seat)
    elif effect in ALWAYS:
        options = iter((None,))
    elif effect == "males-in-cities":
        options = iter((None,) if figures_in_cities(state, seat, "m") else ())
    elif effect == "alliance":
        options = alliance_options(state)
    elif effect == "progress":
        options = tracks_options(state, seat, hs.amount, (hs.track,))
    elif effect == "die-progress":
        options = tracks_options(state, seat, a.value, (hs.track,))
    elif effect == "figure":
        options = figures_options(state, seat, 1)
    else:
        options = task_options(state, seat, None, single=True)
    for action in options:
        yield Activate(space, action)


def can_activate(state: State, seat: int, space: int) -> bool:
    """True if `seat` may activate its helper on `space` now (`helper_options`): the
    answer worked out from the position for every effect but a task's (whose choices
    `helper_options` tries), the same as whether `helper_options` gives one."""
    a = state.active
    if a is None or space < a.next or not state.players[seat].has_helper(a.colour, space):
        return False
    hs = state.rules.helper_space(a.colour, space)
    if hs is None:
        return _any(state, helper_options(state, seat, space))
    effect = hs.effect
    if effect in ALWAYS:
        return True
    p = state.players[seat]
    if effect == "progress" or effect == "die-progress":
        return _has_step(state, seat, hs.amount if effect == "progress" else a.value, hs.track)
    if effect == "figure":  # `figures_options(state, seat, 1)`
        return (p.general_m >= 1 and p.general_f >= 0) or (p.general_m >= 0
                                                           and p.general_f >= 1)
    if effect == "alliance":
        return tiles_left(state) > 0
    if effect == "males-in-cities":
        for c in state.cities:
            if seat in c.mission:
                return True
        return False
    if effect == "mission-alliance":
        return _can_send(state, seat)
    if effect == "marriage-alliance":
        return _can_marry(state, seat)
    return _any(state, helper_options(state, seat, space))


def _has_step(state: State, seat: int, most: int, track: str) -> bool:
    """Whether `tracks_options(state, seat, most, (track,))` gives one: its first
    choices are the single steps (`_steps`), and without one it gives none."""
    return _step_open(state, seat, most, track, state.players[seat].males)


def _step_open(state: State, seat: int, most: int, track: str, males: int) -> bool:
    """`_has_step` for `seat` with `males` in its available supply."""
    r = state.rules
    if track == INITIATIVE:
        return min(most, r.initiative_top - state.players[seat].initiative) >= 1
    top = r.career_top
    if males and min(most, top) >= 1:
        return True
    for owner, at in state.figures_on(track):
        if owner == seat and min(most, top - at) >= 1:
            return True
    return False


def _can_marry(state: State, seat: int) -> bool:
    """Whether `marry_options` gives one."""
    p = state.players[seat]
    return _marriage_open(state, p.females, p.florins)


def _marriage_open(state: State, females: int, florins: int) -> bool:
    """`_can_marry` for a seat with `females` in its available supply and `florins`."""
    r = state.rules
    if not females:
        return False
    return _space_within(state, True, min(r.dowry_max, florins))


def _can_send(state: State, seat: int) -> bool:
    """Whether `mission_options` gives one: a figure of `seat` whose rank reaches
    the lowest empty mission space of a city."""
    r = state.rules
    rank: int | None = None  # the highest rank of a figure of `seat` on a career track
    for figures in state.careers:
        for owner, at in figures:
            if owner == seat and (rank is None or r.rank(at) > rank):
                rank = r.rank(at)
    return rank is not None and _space_within(state, False, rank)


def _space_within(state: State, marriage: bool, most: int) -> bool:
    """Whether the lowest empty marriage space (`marriage`) or mission space of some
    city has a value of at most `most` (a dowry the seat can pay, a figure's rank)."""
    spaces = state.rules.cities
    for city in state.cities:
        if marriage:
            values, taken = spaces[city.name].marriage, city.marriage
        else:
            values, taken = spaces[city.name].mission, city.mission
        space = lowest_empty(values, taken)
        if space is not None and values[space] <= most:
            return True
    return False


ALWAYS: tuple[str, ...] = ("offspring", "points", "florins")
"""The helper effects that ask no choice and need nothing: such a helper below the
die is always usable (`helper_options` offers it without an action)."""


def reward_options(state: State, seat: int) -> Iterator[Reward]:
    r = state.rules
    name = state.reward_tile
    assert name is not None
    tile = r.rewards[name]
    if tile.kind == "points":
        yield Reward("points")
        if state.players[seat].florins >= r.buy_cost:
            yield Reward("buy")
        return
    yield Reward("florins")
    options: Iterator[Action | None]
    if tile.type == "action":
        options = (marry_options(state, seat) if tile.action == "marry"
                   else mission_options(state, seat))
    elif tile.type in ("extra", "figures"):
        options = iter((None,))
    elif tile.type == "progress":
        options = tracks_options(state, seat, tile.points, tile.tracks)
    elif tile.type == "alliance":
        options = alliance_options(state)
    else:
        p = state.players[seat]
        options = iter([Helper(c, hs.space) for c in COLOURS for hs in r.columns[c].helpers
                        if not p.has_helper(c, hs.space) and state.helpers_left > 0])
    for action in options:
        yield Reward("bonus", action)


# --------------------------------------------------------------------------- commands


def legal_commands(state: State, seat: int) -> list[Any]:
    """Every command `seat` may give now (Tracks bounded, see above)."""
    if seat == CHANCE or state.finished or seat not in state.waiting():
        return []
    a = state.active
    if a is not None:
        spaces = range(a.next, 1 + len(state.rules.columns[a.colour].helpers))
        return [*(c for s in spaces for c in helper_options(state, seat, s)), Done()]
    if state.phase == ACTIONS:
        return [Pass(), *take_options(state, seat)]
    if state.phase == REWARDS:
        return list(reward_options(state, seat))
    if state.phase == EXTRA:
        return list(take_options(state, seat))
    return []


def late_command(state: State, seat: int) -> Any:
    """For a late seat: `done` after a die, `pass` in the action phase, 3 florins or
    the VP tile's points as a reward, the first leftover die in an extra action.

    Raises:
        IllegalMoveError: `seat` has nothing to do now.
    """
    if seat == CHANCE or state.finished or seat not in state.waiting():
        raise IllegalMoveError("that seat has nothing to do now", "late")
    if state.active is not None:
        return Done()
    if state.phase == ACTIONS:
        return Pass()
    if state.phase == REWARDS:
        return next(reward_options(state, seat))
    return next(take_options(state, seat))


def random_command(state: State, seat: int, rng: random.Random) -> Any:
    """A uniformly random legal command (of the bounded list).

    Raises:
        IllegalMoveError: `seat` has nothing to do now.
    """
    options = legal_commands(state, seat)
    if not options:
        raise IllegalMoveError("that seat has nothing to do now", "random")
    return rng.choice(options)
