"""The state of a game of Signorie: folded from its events.

`State` and `Board` are mutable (and slotted), so that the replay path can fold an
event by writing a few fields (`evolve.evolve_in_place`, `decide.apply_in_place`);
the rest of pbem treats a state as a value: `evolve.evolve` and `decide.apply` fold
into a copy and never change the state they were given. A copy shares the boards
(`State.shared`): a fold copies a shared board before it changes it (`board`). What
else a State or Board holds (cities, tuples, frozensets) is a value, never changed in
place: a change puts a new one.

Secret: the face-down alliance tiles (`Board.hidden`) and what is left of the
face-down pool (`State.pool`, from which the hidden tiles could be worked out).
Nobody sees them, their owner included, until the final scoring (S8);
`views.view_for` is the only way the state leaves the game, and it shows neither.

To build a position for a test, start from `engine.signorie.positions.opening`
(round 1, first turn; or `setup.state_for`, before any chance) and change it with
`replace` / `replace_board`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, TypeVar

from engine.frozen import dataclass
from engine.protocol import CHANCE

from .commands import CAREERS, COLOURS
from .ruleset import Rules

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

V = TypeVar("V", bound="DataclassInstance")

# Final: the compiled build (setup.py) puts these in the code that reads them.
EMPTY: Final = -1
"""A city space no figure stands on."""

# Phases of a round (and of the game)
SETUP: Final = "setup"  # chance: turn order, cities, reward row
PREPARE: Final = "prepare"  # chance: alliance tiles, dice, task tiles
ACTIONS: Final = "actions"
REWARDS: Final = "rewards"
EXTRA: Final = "extra"  # the extra actions of the R-Extra tile (S11)
OVER: Final = "over"

# Chance steps
ORDER: Final = "order"
CITIES: Final = "cities"
REWARD_ROW: Final = "rewards"
ALLIANCES: Final = "alliances"
ROLL: Final = "roll"
TASKS: Final = "tasks"
BIRTHS: Final = "births"
DRAW: Final = "draw"


@dataclass(slots=True)
class Board:
    """A player's board and everything of theirs on the main board but the career
    figures and city figures (`State.careers`, `State.cities`)."""

    name: str
    plan: str  # the plan (board colour): yellow, red, purple or blue
    florins: int = 0
    points: int = 0
    males: int = 0  # available supply
    females: int = 0
    general_m: int = 0  # General Supply on the main board
    general_f: int = 0
    dice: tuple[tuple[str, int], ...] = ()  # (colour, value) on the action fields this round
    helpers: tuple[tuple[str, int], ...] = ()  # (colour, space 1 = top), sorted
    sons: int = 0  # sons married
    tiles: tuple[tuple[str, str], ...] = ()  # open alliance tiles: (row, tile)
    face_down: tuple[str, ...] = ()  # the row of each face-down tile, in drawing order
    hidden: tuple[str, ...] = ()  # the face-down tiles themselves (secret), same order
    threshold_m: int = 0  # figures on the threshold space this round
    threshold_f: int = 0
    raised: int = 0  # the threshold raise of this round
    initiative: int = 0  # initiative track space (0: bottom)
    stamp: int = 0  # when the disc arrived on its space: higher is higher in the stack

    def has_die(self, colour: str) -> bool:
        for c, _ in self.dice:
            if c == colour:
                return True
        return False

    def has_helper(self, colour: str, space: int) -> bool:
        return (colour, space) in self.helpers

    def open_tiles(self, row: str) -> tuple[str, ...]:
        return tuple(t for r, t in self.tiles if r == row)

    def row_count(self, row: str) -> int:
        return len(self.open_tiles(row)) + self.face_down.count(row)

    @property
    def dice_sum(self) -> int:
        total = 0
        for _, v in self.dice:
            total += v
        return total


@dataclass(frozen=True, slots=True)
class CityState:
    """A city in play: who stands on each marriage and mission space (a seat, or
    EMPTY), and the open alliance tile on each tile field ("" when empty)."""

    name: str
    marriage: tuple[int, ...]
    mission: tuple[int, ...]
    marriage_tile: str = ""
    mission_tile: str = ""

    def __init__(self,
                 name: str, marriage: tuple[int, ...], mission: tuple[int, ...],
                 marriage_tile: str = "", mission_tile: str = "") -> None:
        self.name = name  # type: ignore[misc]
        self.marriage = marriage  # type: ignore[misc]
        self.mission = mission  # type: ignore[misc]
        self.marriage_tile = marriage_tile  # type: ignore[misc]
        self.mission_tile = mission_tile  # type: ignore[misc]

    def spaces(self, field: str) -> tuple[int, ...]:
        return self.marriage if field == "marriage" else self.mission

    def tile(self, field: str) -> str:
        return self.marriage_tile if field == "marriage" else self.mission_tile


@dataclass(frozen=True, slots=True)
class Active:
    """The die a player has just taken: its column's helpers may follow, top to bottom,
    from space `next` on. `free` for the extra action of R-Extra."""

    seat: int
    colour: str
    value: int
    next: int = 1
    free: bool = False

    def __init__(self,
                 seat: int, colour: str, value: int, next: int = 1, free: bool = False) -> None:
        self.seat = seat  # type: ignore[misc]
        self.colour = colour  # type: ignore[misc]
        self.value = value  # type: ignore[misc]
        self.next = next  # type: ignore[misc]
        self.free = free  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance step due mid-turn: the white dice of `seat` (`n` of them), or a
    face-down alliance tile drawn for `seat` beside `row`."""

    kind: str  # BIRTHS or DRAW
    seat: int
    n: int = 0
    row: str = ""

    def __init__(self, kind: str, seat: int, n: int = 0, row: str = "") -> None:
        self.kind = kind  # type: ignore[misc]
        self.seat = seat  # type: ignore[misc]
        self.n = n  # type: ignore[misc]
        self.row = row  # type: ignore[misc]


@dataclass(slots=True)
class State:
    """A game of Signorie after `version` events."""

    rules: Rules
    players: tuple[Board, ...]
    seeded: bool = True
    phase: str = SETUP
    round: int = 0
    order: tuple[int, ...] = ()  # turn order, first first
    passed: frozenset[int] = frozenset()
    turn: int | None = None  # the seat to take a die or pass
    active: Active | None = None
    chance: Chance | None = None
    cities: tuple[CityState, ...] = ()  # the cities in play, in CITIES order
    careers: tuple[tuple[tuple[int, int], ...], ...] = ((), (), ())  # per career: (seat, space)
    dice: tuple[tuple[str, tuple[int, ...]], ...] = ()  # on offer: (colour, sorted values)
    tasks: tuple[str, ...] = ()  # the task tile on each task field (`Rules.task_fields`)
    reward_row: tuple[str, ...] = ()  # the reward tiles left to right
    pool: tuple[str, ...] = ()  # face-down alliance tiles left, sorted (secret)
    family_left: tuple[int, ...] = ()  # tiles each family may still give (removed ones aside)
    rewarded: tuple[int, ...] = ()  # seats still to take this round's reward, in order
    extra: tuple[int, ...] = ()  # seats still owed the extra action (S11)
    stamp: int = 0  # the last initiative arrival
    winners: tuple[int, ...] = ()
    version: int = 0
    # The seats (bits) whose Board this state may share with another state: a fold
    # copies such a board before changing it (`board`). Not part of the value.
    shared: int = field(default=0, compare=False, repr=False)

    # ------------------------------------------------------------------ protocol

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    # ------------------------------------------------------------------ queries

    def offered(self, colour: str) -> tuple[int, ...]:
        return offered(self.dice, colour)

    def city(self, name: str) -> CityState | None:
        return next((c for c in self.cities if c.name == name), None)

    def figures_on(self, career: str) -> tuple[tuple[int, int], ...]:
        return self.careers[CAREERS.index(career)]

    @property
    def helpers_left(self) -> int:
        """Helper discs left in the general supply."""
        left = self.rules.helper_supply
        for p in self.players:
            left -= len(p.helpers)
        return left

    def threshold(self, seat: int) -> int:
        """`seat`'s reward threshold this round (S5: never more than the maximum)."""
        r = self.rules
        return min(r.threshold_max, r.threshold + self.players[seat].raised)

    @property
    def reward_tile(self) -> str | None:
        """This round's reward tile."""
        i = self.round - 1
        return self.reward_row[i] if 0 <= i < len(self.reward_row) else None

    def waiting(self) -> tuple[int, ...]:
        """The seats whose command the game waits for (CHANCE when chance is due)."""
        if self.phase == OVER:
            return ()
        if self.phase in (SETUP, PREPARE) or self.chance is not None:
            return (CHANCE,)
        if self.active is not None:
            return (self.active.seat,)
        if self.phase == ACTIONS:
            return () if self.turn is None else (self.turn,)
        if self.phase == REWARDS:
            return self.rewarded[:1]
        if self.phase == EXTRA:
            return self.extra[:1]
        return ()


def dice_at(dice: tuple[tuple[str, tuple[int, ...]], ...], colour: str) -> int:
    """Where the `colour` dice are in `State.dice` (at their place in COLOURS when
    rolled in that order, as chance rolls them); -1 if nowhere."""
    i = _AT.get(colour, 0)
    if i < len(dice) and dice[i][0] == colour:
        return i
    for i, (c, _) in enumerate(dice):
        if c == colour:
            return i
    return -1


def offered(dice: tuple[tuple[str, tuple[int, ...]], ...], colour: str) -> tuple[int, ...]:
    """The values of the `colour` dice in `State.dice`."""
    i = dice_at(dice, colour)
    return dice[i][1] if i >= 0 else ()


_AT = {colour: i for i, colour in enumerate(COLOURS)}


SHARED: Final = -1
"""`State.shared` for a state whose boards are all shared."""

board_values: Callable[[Board], tuple[Any, ...]] = attrgetter(
    *(f.name for f in fields(Board)))
"""A board's field values, in field order."""


def copy_board(board: Board) -> Board:
    return Board(*board_values(board))


def board(state: State, seat: int) -> Board:
    """`seat`'s board, to be changed in place: its own copy first if the state may
    share it with another state."""
    if state.shared >> seat & 1:
        players = list(state.players)
        players[seat] = mine = copy_board(players[seat])
        state.players = tuple(players)
        state.shared &= ~(1 << seat)
        return mine
    return state.players[seat]


def replace(state: V, **changes: Any) -> V:
    """The state (or another value: the rules, say) with some fields changed (for
    rules and tests)."""
    if isinstance(state, State):  # the copy shares the boards, both ways
        state.shared = changes["shared"] = SHARED
    return dataclasses.replace(state, **changes)


def replace_board(state: State, seat: int, **changes: Any) -> State:
    """The state with some fields of `seat`'s board changed."""
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)
    state.shared = SHARED
    return dataclasses.replace(state, players=tuple(players), shared=SHARED)

