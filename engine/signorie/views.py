"""What a seat (or the public) sees of a game of Signorie: everything but the
face-down alliance tiles (S8), of which each row shows only how many there are.

A status mail is rendered from a `View`; nothing in it depends on the viewer but
`viewer`, the costs of the dice (`DieView.cost` is the viewer's), and `legal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.frozen import dataclass

from .commands import CAREERS, COLOURS, ROWS
from .state import EMPTY, State


@dataclass(frozen=True, slots=True)
class DieView:
    """A die on offer: its colour and value, and what the viewer would pay for it
    (None for the public view)."""

    colour: str
    value: int
    cost: int | None


@dataclass(frozen=True, slots=True)
class HelperSpaceView:
    """A helper space of a board: cost, effect (with its track and amount) and
    whether a helper stands on it."""

    colour: str
    space: int
    cost: int
    effect: str
    track: str
    amount: int
    hired: bool


@dataclass(frozen=True, slots=True)
class RowView:
    """A plan row: the families it shows, the open tiles beside it and the count of
    face-down ones."""

    row: str
    plan: tuple[str, ...]
    open: tuple[str, ...]
    face_down: int


@dataclass(frozen=True, slots=True)
class BoardView:
    seat: int
    name: str
    plan: str
    florins: int
    points: int
    males: int  # available supply
    females: int
    general_m: int  # General Supply
    general_f: int
    dice: tuple[tuple[str, int], ...]  # on the action fields
    dice_sum: int
    helpers: tuple[HelperSpaceView, ...]  # every helper space, by column then space
    sons: int  # married
    sons_left: int
    rows: tuple[RowView, ...]
    threshold: int  # this round
    threshold_figures: tuple[int, int]  # males, females on the threshold space
    initiative: int
    passed: bool


@dataclass(frozen=True, slots=True)
class TaskFieldView:
    colour: str
    sex: str  # the figures the field asks for
    tile: str


@dataclass(frozen=True, slots=True)
class CityView:
    name: str
    marriage: tuple[tuple[int, str | None], ...]  # (value, owner name or None) per space
    mission: tuple[tuple[int, str | None], ...]
    marriage_tile: str
    mission_tile: str


@dataclass(frozen=True, slots=True)
class TrackView:
    """A career track: per space (1 up) its VP, rank and the owners of its figures."""

    career: str
    spaces: tuple[tuple[int, int, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class View:
    viewer: int | None
    round: int
    rounds: int
    phase: str
    awaited: str  # what the game waits for, in words
    to_act: tuple[str, ...]
    active: tuple[str, str, int] | None  # (player, colour, next helper space) after a take
    order: tuple[str, ...]  # turn order
    passed: tuple[str, ...]
    dice: tuple[DieView, ...]
    tasks: tuple[TaskFieldView, ...]
    cities: tuple[CityView, ...]
    careers: tuple[TrackView, ...]
    initiative: tuple[tuple[str, int], ...]  # (player, space), top of the stack first
    initiative_points: tuple[int, ...]  # VP of each initiative space, bottom first
    reward_row: tuple[str, ...]
    reward_tile: str | None
    rewarded: tuple[str, ...]  # still to take this round's reward
    extra: tuple[str, ...]  # still owed an extra action
    players: tuple[BoardView, ...]
    alliance_pool: int  # face-down tiles left (how many, never which)
    winners: tuple[str, ...]
    version: int
    legal: tuple[Any, ...] = ()  # the viewer's legal commands now (if given)


def _awaited(state: State) -> str:
    names = state.names
    if state.phase == "over":
        return "nothing: the game is over"
    if state.chance is not None:
        c = state.chance
        what = "white dice" if c.kind == "births" else "a face-down alliance tile"
        return f"chance: {what} for {names[c.seat]}"
    if state.phase in ("setup", "prepare"):
        return "chance: the preparation of the round"
    if state.active is not None:
        a = state.active
        return f"{names[a.seat]}: a helper of the {a.colour} column from space {a.next}, or done"
    if state.phase == "actions" and state.turn is not None:
        return f"{names[state.turn]}: take a die or pass"
    if state.phase == "rewards" and state.rewarded:
        return f"{names[state.rewarded[0]]}: the reward"
    if state.phase == "extra" and state.extra:
        return f"{names[state.extra[0]]}: the extra action (a leftover die, free)"
    return ""


def view_for(state: State, seat: int | None, legal: Sequence[Any] = ()) -> View:
    """The game as `seat` sees it (None: the public)."""
    r = state.rules
    names = state.names
    viewer = state.players[seat] if seat is not None else None
    dice = tuple(
        DieView(colour, value,
                None if viewer is None else max(0, r.columns[colour].cost - value))
        for colour, values in state.dice for value in values)
    boards = []
    for i, p in enumerate(state.players):
        helpers = tuple(
            HelperSpaceView(h.colour, h.space, h.cost, h.effect, h.track, h.amount,
                            p.has_helper(h.colour, h.space))
            for colour in COLOURS for h in r.columns[colour].helpers)
        rows = tuple(RowView(row, r.plans[p.plan][row], p.open_tiles(row), p.face_down.count(row))
                     for row in ROWS)
        boards.append(BoardView(
            seat=i, name=p.name, plan=p.plan, florins=p.florins, points=p.points,
            males=p.males, females=p.females, general_m=p.general_m, general_f=p.general_f,
            dice=p.dice, dice_sum=p.dice_sum, helpers=helpers, sons=p.sons,
            sons_left=len(r.son_points) - p.sons, rows=rows, threshold=state.threshold(i),
            threshold_figures=(p.threshold_m, p.threshold_f), initiative=p.initiative,
            passed=i in state.passed))
    cities = tuple(
        CityView(c.name,
                 tuple((v, None if o == EMPTY else names[o])
                       for v, o in zip(r.cities[c.name].marriage, c.marriage, strict=True)),
                 tuple((v, None if o == EMPTY else names[o])
                       for v, o in zip(r.cities[c.name].mission, c.mission, strict=True)),
                 c.marriage_tile, c.mission_tile)
        for c in state.cities)
    careers = tuple(
        TrackView(career, tuple(
            (r.career_points[s - 1], r.rank(s),
             tuple(names[o] for o, space in state.figures_on(career) if space == s))
            for s in range(1, r.career_top + 1)))
        for career in CAREERS)
    stack = sorted(range(len(state.players)),
                   key=lambda i: (-state.players[i].initiative, -state.players[i].stamp))
    a = state.active
    return View(
        viewer=seat, round=state.round, rounds=r.rounds, phase=state.phase,
        awaited=_awaited(state), to_act=tuple("chance" if s < 0 else names[s]
                                              for s in state.waiting()),
        active=None if a is None else (names[a.seat], a.colour, a.next),
        order=tuple(names[s] for s in state.order),
        passed=tuple(names[s] for s in state.order if s in state.passed),
        dice=dice,
        tasks=tuple(TaskFieldView(colour, sex, tile)
                    for (colour, sex), tile in zip(r.task_fields, state.tasks, strict=False)),
        cities=cities, careers=careers,
        initiative=tuple((names[i], state.players[i].initiative) for i in stack),
        initiative_points=r.initiative_points,
        reward_row=state.reward_row, reward_tile=state.reward_tile,
        rewarded=tuple(names[s] for s in state.rewarded),
        extra=tuple(names[s] for s in state.extra),
        players=tuple(boards),
        alliance_pool=sum(state.family_left),
        winners=tuple(names[w] for w in state.winners), version=state.version,
        legal=tuple(legal))
