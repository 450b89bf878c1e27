"""The actions of Signorie checked and turned into events: hire, task, the five
Signoria actions, helper effects and reward bonuses.

Each `do_*` function checks an action against the position a `Builder` holds and
emits its events into it (each event is folded at once, into the builder's state
itself, so that the next part of a command is checked against the position the
earlier part left). They raise IllegalMoveError with a message naming what was
expected; `decide.apply_in_place` then puts the state back as it was.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalMoveError

from . import events as ev
from .chance import tiles_left
from .commands import (
    CAREERS,
    COLOURS,
    ROWS,
    TRACKS,
    Action,
    Alliance,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Task,
    Tracks,
)
from .evolve import EVOLVE
from .ruleset import INITIATIVE, HelperSpace, Rules
from .state import EMPTY, Board, CityState, State

SEX_WORD = {"m": "male", "f": "female"}


class Builder:
    """A position, changed in place by each event emitted, and the events emitted
    since the command's start (`State.version` counts them once, at the end of the
    command: no check or handler reads it meanwhile)."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Any] = []

    def emit(self, e: Any) -> None:
        """Fold one event into the state, and keep it."""
        EVOLVE[type(e)](self.state, e)
        self.events.append(e)

    def emit_all(self, events: list[Any]) -> None:
        state, handlers = self.state, EVOLVE
        for e in events:
            handlers[type(e)](state, e)
        self.events += events


def illegal(message: str, rule: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------- queries


def lowest_empty(values: tuple[int, ...], taken: tuple[int, ...]) -> int | None:
    """The space a figure goes on: the lowest-valued empty one, the first of equal
    values (S4); None when the track is full."""
    best = None
    for i, owner in enumerate(taken):
        if owner == EMPTY and (best is None or values[i] < values[best]):
            best = i
    return best


def needs_tile(rules: Rules, board: Board, row: str, tile: str) -> bool:
    """True if `board`'s plan still shows `tile`'s family on `row` (S9)."""
    family = rules.tile_family(tile)
    shown = rules.plans[board.plan][row].count(family)
    have = 0
    for on, t in board.tiles:
        if on == row and rules.tile_family(t) == family:
            have += 1
    return have < shown


def figures_in_cities(state: State, seat: int, sex: str) -> list[str]:
    """The city of each of `seat`'s figures of `sex` in the cities (males on mission
    spaces, females on marriage spaces)."""
    field = "mission" if sex == "m" else "marriage"
    return [c.name for c in state.cities for owner in c.spaces(field) if owner == seat]


# --------------------------------------------------------------------------- the actions


def do_florins(b: Builder, seat: int, florins: int) -> None:
    b.emit(ev.FlorinsGained(seat, florins))


def do_hire(b: Builder, seat: int, die: str, a: Hire) -> None:
    r = b.state.rules
    target = r.hire_target(die)
    if target is None:
        raise illegal(f"the {die} die hires no helper", "hire-none")
    space = _helper_space(r, target, a.space)
    _helper_left(b.state)
    p = b.state.players[seat]
    if p.has_helper(target, a.space):
        raise illegal(f"your helper space {a.space} of the {target} column is taken",
                      "hire-taken")
    if space.cost > p.florins:
        raise illegal(f"helper space {a.space} of the {target} column costs "
                      f"{plural(space.cost, 'florin')}; you have {p.florins}", "hire-cost")
    b.emit(ev.HelperHired(seat, target, a.space, space.cost))


def _helper_space(r: Rules, colour: str, space: int) -> HelperSpace:
    hs = r.helper_space(colour, space)
    if hs is None:
        n = len(r.columns[colour].helpers)
        raise illegal(f"the {colour} column has helper spaces 1 to {n}, not {space}",
                      "helper-space")
    return hs


def _helper_left(state: State) -> None:
    if state.helpers_left <= 0:
        raise illegal("the general supply has no helper left", "hire-supply")


def do_free_helper(b: Builder, seat: int, a: Helper) -> None:
    if a.colour not in COLOURS:
        raise illegal(f"{a.colour!r} is no column; the columns: {', '.join(COLOURS)}",
                      "helper-space")
    _helper_space(b.state.rules, a.colour, a.space)
    _helper_left(b.state)
    if b.state.players[seat].has_helper(a.colour, a.space):
        raise illegal(f"your helper space {a.space} of the {a.colour} column is taken",
                      "hire-taken")
    b.emit(ev.HelperHired(seat, a.colour, a.space, 0))


def do_marry(b: Builder, seat: int, a: Marry, *, face_down: bool = False) -> None:
    s, r = b.state, b.state.rules
    p = s.players[seat]
    if p.females < 1:
        raise illegal("you have no female figure in your available supply to marry",
                      "marry-figure")
    city = _city(s, a.city)
    space = lowest_empty(r.cities[a.city].marriage, city.marriage)
    if space is None:
        raise illegal(f"{a.city} has no empty marriage space", "marry-full")
    value = r.cities[a.city].marriage[space]
    if a.dowry < value:
        raise illegal(f"the lowest empty marriage space of {a.city} asks a dowry of at least "
                      f"{value}, not {a.dowry}", "marry-dowry")
    if a.dowry > r.dowry_max:
        raise illegal(f"a dowry is at most {r.dowry_max} florins, not {a.dowry}", "marry-dowry")
    if a.dowry > p.florins:
        raise illegal(f"a dowry of {plural(a.dowry, 'florin')} is more than you have: "
                      f"{p.florins}", "marry-florins")
    tile = city.marriage_tile
    take = "" if face_down or not tile or not needs_tile(r, p, "marriage", tile) else tile
    b.emit(ev.Married(seat, a.city, space, a.dowry, a.dowry * r.points_per_dowry_florin, take))
    if face_down and tiles_left(b.state):
        b.emit(ev.AllianceDue(seat, "marriage"))


def _city(s: State, name: str) -> CityState:
    for city in s.cities:
        if city.name == name:
            return city
    raise illegal(f"{name!r} is not in play; the cities: "
                  f"{', '.join(c.name for c in s.cities)}", "city")


def do_mission(b: Builder, seat: int, a: Mission, *, face_down: bool = False) -> None:
    s, r = b.state, b.state.rules
    if a.career not in CAREERS:
        raise illegal(f"{a.career!r} is no career; the careers: {', '.join(CAREERS)}",
                      "career")
    if (seat, a.space) not in s.figures_on(a.career):
        raise illegal(f"you have no figure on space {a.space} of the {a.career} track",
                      "mission-figure")
    city = _city(s, a.city)
    space = lowest_empty(r.cities[a.city].mission, city.mission)
    if space is None:
        raise illegal(f"{a.city} has no empty mission space", "mission-full")
    value = r.cities[a.city].mission[space]
    rank = r.rank(a.space)
    if rank < value:
        raise illegal(f"the lowest empty mission space of {a.city} asks rank {value}; your "
                      f"figure on space {a.space} has rank {rank}", "mission-rank")
    p = s.players[seat]
    tile = city.mission_tile
    take = "" if face_down or not tile or not needs_tile(r, p, a.career, tile) else tile
    b.emit(ev.MissionSent(seat, a.career, a.space, a.city, space,
                          r.career_points[a.space - 1], take))
    if face_down and tiles_left(b.state):
        b.emit(ev.AllianceDue(seat, a.career))


def do_offspring(b: Builder, seat: int, dice: int) -> None:
    b.emit(ev.BirthsDue(seat, dice))


def do_tracks(b: Builder, seat: int, a: Tracks, most: int, allowed: tuple[str, ...]) -> None:
    """Progress points: at least 1, at most `most`, on the `allowed` tracks."""
    r = b.state.rules
    if not a.steps:
        raise illegal("name at least one progress point", "tracks-none")
    total = 0
    for step in a.steps:
        total += step.to - step.start  # (its points)
    if total > most:
        raise illegal(f"{plural(total, 'progress point')} are more than the {most} to use",
                      "tracks-points")
    for step in a.steps:
        if step.track not in allowed:
            raise illegal(f"these points go on {' or '.join(allowed)}, not {step.track}",
                          "tracks-track")
        if step.points < 1:
            raise illegal(f"a step on {step.track} moves up at least one space", "tracks-step")
        p = b.state.players[seat]
        if step.track == INITIATIVE:
            if step.start:
                raise illegal("the initiative disc moves up: ini+N", "tracks-step")
            if p.initiative + step.to > r.initiative_top:
                raise illegal(f"your initiative disc is on space {p.initiative}; the top is "
                              f"{r.initiative_top}", "tracks-top")
            b.emit(ev.InitiativeMoved(seat, p.initiative + step.to))
            continue
        if step.to > r.career_top:
            raise illegal(f"the {step.track} track has spaces 1 to {r.career_top}, not "
                          f"{step.to}", "tracks-top")
        if step.start == 0 and p.males < 1:
            raise illegal("you have no male figure in your available supply for a new figure",
                          "tracks-figure")
        if step.start and (seat, step.start) not in b.state.figures_on(step.track):
            raise illegal(f"you have no figure on space {step.start} of the {step.track} track",
                          "tracks-figure")
        b.emit(ev.FigureMoved(seat, step.track, step.start, step.to))
        if step.start < r.florin_space <= step.to:
            b.emit(ev.FlorinsGained(seat, r.florin_bonus))
        if step.start < r.initiative_space <= step.to:
            at = b.state.players[seat].initiative
            if at < r.initiative_top:
                b.emit(ev.InitiativeMoved(seat, min(r.initiative_top, at + r.initiative_bonus)))


def do_figures(b: Builder, seat: int, sexes: tuple[str, ...]) -> None:
    p = b.state.players[seat]
    m, f = sexes.count("m"), sexes.count("f")
    if m + f != len(sexes):
        raise illegal("a figure is m or f", "figures-sex")
    if m > p.general_m or f > p.general_f:
        raise illegal(f"your General Supply holds {p.general_m} male and {p.general_f} female "
                      f"figures", "figures-supply")
    b.emit(ev.FiguresTaken(seat, m, f))


def do_alliance(b: Builder, seat: int, a: Alliance) -> None:
    if a.row not in ROWS:
        raise illegal(f"{a.row!r} is no row; the rows: {', '.join(ROWS)}", "alliance-row")
    if not tiles_left(b.state):
        raise illegal("no alliance tile is left to draw", "alliance-none")
    b.emit(ev.AllianceDue(seat, a.row))


def _need(then: Action | None, kind: type[Any], what: str) -> Any:
    if not isinstance(then, kind):
        raise illegal(f"{what} asks `{kind.word}` (not {_said(then)})", "then")
    return then


def _said(then: Action | None) -> str:
    return "nothing more" if then is None else f"`{then.word}`"


def _none(then: Action | None, what: str) -> None:
    if then is not None:
        raise illegal(f"{what} asks no more choices (not {_said(then)})", "then")


def do_task(b: Builder, seat: int, a: Task, *, colour: str | None, single: bool) -> None:
    """A task tile: of the die's `colour` (None: any, for a helper), `single` when
    exactly 1 figure may be returned (a helper's task, H10)."""
    s, r = b.state, b.state.rules
    tile = r.tasks.get(a.tile)
    if tile is None or a.tile not in s.tasks:
        raise illegal(f"{a.tile!r} is no task tile; the tiles: {', '.join(r.tasks)}", "task")
    sexes = r.task_field_sex  # the fields in `Rules.task_fields` order
    at = s.tasks.index(a.tile)
    field_colour, sex = COLOURS[at // len(sexes)], sexes[at % len(sexes)]
    if colour is not None and field_colour != colour:
        here = [t for (c, _), t in zip(r.task_fields, s.tasks, strict=True) if c == colour]
        raise illegal(f"the {a.tile} task lies on the {field_colour} task area; the {colour} "
                      f"tasks: {', '.join(here)}", "task-colour")
    if single and (tile.figures > 1 or a.count != 1):
        raise illegal(f"a helper's task returns exactly 1 figure; the {a.tile} task asks "
                      f"{'/'.join(map(str, tile.counts))}", "task-single")
    if not (a.count == tile.figures if tile.figures else 1 <= a.count <= tile.max):
        raise illegal(f"the {a.tile} task returns {'/'.join(map(str, tile.counts))} figures, "
                      f"not {a.count}", "task-count")
    p = s.players[seat]
    have = p.males if sex == "m" else p.females
    if have < a.count:
        raise illegal(f"the {a.tile} task asks {plural(a.count, SEX_WORD[sex] + ' figure')}; "
                      f"you have {have}", "task-figures")
    b.emit(ev.TaskUsed(seat, a.tile, sex, a.count))
    what = f"the {a.tile} task"
    if tile.type == "career":
        do_tracks(b, seat, _need(a.then, Tracks, what), tile.per * a.count, (tile.track,))
    elif tile.type == "initiative":
        do_tracks(b, seat, _need(a.then, Tracks, what), tile.per * a.count, (INITIATIVE,))
    elif tile.type == "florins":
        _none(a.then, what)
        do_florins(b, seat, tile.per * a.count)
    elif tile.type == "threshold":
        _none(a.then, what)
    elif tile.type == "figures":
        figures = _need(a.then, Figures, what)
        if len(figures.sexes) != a.count:
            raise illegal(f"{what} takes one figure per figure returned: {a.count}, not "
                          f"{len(figures.sexes)}", "task-figures")
        do_figures(b, seat, figures.sexes)
    elif tile.type == "alliance":
        do_alliance(b, seat, _need(a.then, Alliance, what))
    elif tile.action == "marry":
        do_marry(b, seat, _need(a.then, Marry, what))
    else:
        do_mission(b, seat, _need(a.then, Mission, what))


def do_signoria(b: Builder, seat: int, colour: str, action: Action) -> None:
    """The Signoria action of the `colour` field."""
    r = b.state.rules
    word = r.columns[colour].signoria
    if getattr(action, "word", None) != word:
        raise illegal(f"the {colour} field's actions are hire, task and {word}, not "
                      f"{_said(action)}", "take-action")
    if isinstance(action, Florins):
        do_florins(b, seat, r.signoria_florins)
    elif isinstance(action, Marry):
        do_marry(b, seat, action)
    elif isinstance(action, Offspring):
        do_offspring(b, seat, 1 + b.state.players[seat].sons)
    elif isinstance(action, Tracks):
        do_tracks(b, seat, action, r.track_points, TRACKS)
    else:
        assert isinstance(action, Mission)
        do_mission(b, seat, action)


def do_field(b: Builder, seat: int, colour: str, action: Action) -> None:
    """One of the three actions of the `colour` field."""
    if isinstance(action, Hire):
        do_hire(b, seat, colour, action)
    elif isinstance(action, Task):
        do_task(b, seat, action, colour=colour, single=False)
    else:
        do_signoria(b, seat, colour, action)


def do_helper(b: Builder, seat: int, hs: HelperSpace, die: int, action: Action | None) -> None:
    """The effect of the helper on `hs` (the die just taken showed `die`)."""
    what = f"the helper on {hs.colour} space {hs.space} ({hs.effect})"
    effect = hs.effect
    if effect == "mission-alliance":
        do_mission(b, seat, _need(action, Mission, what), face_down=True)
    elif effect == "marriage-alliance":
        do_marry(b, seat, _need(action, Marry, what), face_down=True)
    elif effect == "offspring":
        _none(action, what)
        do_offspring(b, seat, 1)
    elif effect == "males-in-cities":
        _none(action, what)
        males = len(figures_in_cities(b.state, seat, "m"))
        if not males:
            raise illegal(f"{what} scores for your male figures in cities; you have none",
                          "helper-effect")
        b.emit(ev.PointsScored(seat, hs.amount * males, "helper"))
    elif effect == "alliance":
        do_alliance(b, seat, _need(action, Alliance, what))
    elif effect == "progress":
        do_tracks(b, seat, _need(action, Tracks, what), hs.amount, (hs.track,))
    elif effect == "die-progress":
        do_tracks(b, seat, _need(action, Tracks, what), die, (hs.track,))
    elif effect == "figure":
        figures = _need(action, Figures, what)
        if len(figures.sexes) != 1:
            raise illegal(f"{what} takes 1 figure, not {len(figures.sexes)}", "helper-effect")
        do_figures(b, seat, figures.sexes)
    elif effect == "points":
        _none(action, what)
        b.emit(ev.PointsScored(seat, hs.amount, "helper"))
    elif effect == "florins":
        _none(action, what)
        do_florins(b, seat, hs.amount)
    else:
        do_task(b, seat, _need(action, Task, what), colour=None, single=True)


def do_bonus(b: Builder, seat: int, tile_name: str, action: Action | None) -> None:
    """The bonus of a reward tile (rounds 1-5)."""
    s, r = b.state, b.state.rules
    tile = r.rewards[tile_name]
    what = f"the {tile_name} reward"
    if tile.type == "action":
        if tile.action == "marry":
            do_marry(b, seat, _need(action, Marry, what))
        else:
            do_mission(b, seat, _need(action, Mission, what))
    elif tile.type == "extra":
        _none(action, what)
    elif tile.type == "figures":
        _none(action, what)
        p = s.players[seat]
        have = p.general_m if tile.sex == "m" else p.general_f
        n = min(have, tile.count)
        if n:
            b.emit(ev.FiguresTaken(seat, n if tile.sex == "m" else 0,
                                   n if tile.sex == "f" else 0))
    elif tile.type == "progress":
        do_tracks(b, seat, _need(action, Tracks, what), tile.points, tile.tracks)
    elif tile.type == "alliance":
        do_alliance(b, seat, _need(action, Alliance, what))
    else:
        do_free_helper(b, seat, _need(action, Helper, what))


def points_reward(state: State, seat: int, tile_name: str) -> int:
    """The VP a VP tile (rounds 6-7) gives `seat`."""
    tile = state.rules.rewards[tile_name]
    if tile.type == "helpers":
        return tile.per * len(state.players[seat].helpers)
    cities = figures_in_cities(state, seat, tile.sex)
    if tile.type == "cities":
        return tile.per * len(set(cities))
    return tile.per * len(cities)
