"""What happened in a game of Signorie, and the event codec (`engine.codec`:
`{"type": ClassName, "v": version, ...fields}`, tuples as lists).

Seats are 0-based. Every event is public but `AllianceDrawn`, whose tile nobody
sees, its owner included (S8): it has no `seat` field, so `engine.codec` shows its
secret to nobody; `GameEnded` reveals every face-down tile.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine import codec
from engine.consent import Reverted
from engine.frozen import dataclass


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    variant: str = "standard"
    seeded: bool = True
    edition: str = ""
    engine: str = ""
    commitment: str = ""
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self,
                 players: tuple[str, ...], variant: str = "standard", seeded: bool = True,
                 edition: str = "", engine: str = "", commitment: str = "") -> None:
        self.players = players  # type: ignore[misc]
        self.variant = variant  # type: ignore[misc]
        self.seeded = seeded  # type: ignore[misc]
        self.edition = edition  # type: ignore[misc]
        self.engine = engine  # type: ignore[misc]
        self.commitment = commitment  # type: ignore[misc]


# --------------------------------------------------------------------------- chance


@dataclass(frozen=True, slots=True)
class OrderDrawn:
    """Setup: the first turn order (seats, first first); extra florins by seat (S10)."""

    order: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, order: tuple[int, ...]) -> None:
        self.order = order  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class CitiesDrawn:
    """Setup: the cities in play, in CITIES order."""

    cities: tuple[str, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, cities: tuple[str, ...]) -> None:
        self.cities = cities  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class RewardsLaid:
    """Setup: the reward row, left to right."""

    tiles: tuple[str, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, tiles: tuple[str, ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, round: int) -> None:
        self.round = round  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class AlliancesLaid:
    """Preparation: open alliance tiles onto the empty tile fields: (city, field, tile)."""

    tiles: tuple[tuple[str, str, str], ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, tiles: tuple[tuple[str, str, str], ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """Preparation: the action dice, by colour: (colour, sorted values)."""

    dice: tuple[tuple[str, tuple[int, ...]], ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, dice: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
        self.dice = dice  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class TasksLaid:
    """Preparation: the task tile on each task field, in field order."""

    tiles: tuple[str, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, tiles: tuple[str, ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class BirthsRolled:
    """The white dice of `seat` and the figures they brought from the General Supply
    to the available supply."""

    seat: int
    values: tuple[int, ...]
    males: int
    females: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, values: tuple[int, ...], males: int, females: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.values = values  # type: ignore[misc]
        self.males = males  # type: ignore[misc]
        self.females = females  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class AllianceDrawn:
    """A face-down alliance tile for `player` beside `row`. Nobody sees `tile`, its
    owner included, until `GameEnded` (S8): no `seat` field on purpose."""

    player: int
    row: str
    tile: str
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("tile",)
    version: ClassVar[int] = 1

    def __init__(self, player: int, row: str, tile: str) -> None:
        self.player = player  # type: ignore[misc]
        self.row = row  # type: ignore[misc]
        self.tile = tile  # type: ignore[misc]


# --------------------------------------------------------------------------- chance due


@dataclass(frozen=True, slots=True)
class BirthsDue:
    """`seat` rolls `n` white dice (chance states them)."""

    seat: int
    n: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, n: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.n = n  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class AllianceDue:
    """A face-down alliance tile is drawn for `seat` beside `row` (chance draws it)."""

    seat: int
    row: str
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, row: str) -> None:
        self.seat = seat  # type: ignore[misc]
        self.row = row  # type: ignore[misc]


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class DieTaken:
    """`seat` takes the `colour` die showing `value` onto its field, paying `cost`."""

    seat: int
    colour: str
    value: int
    cost: int
    free: bool = False
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, colour: str, value: int, cost: int, free: bool = False) -> None:
        self.seat = seat  # type: ignore[misc]
        self.colour = colour  # type: ignore[misc]
        self.value = value  # type: ignore[misc]
        self.cost = cost  # type: ignore[misc]
        self.free = free  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class HelperHired:
    """A helper onto `seat`'s helper space `space` of column `colour`, for `cost`."""

    seat: int
    colour: str
    space: int
    cost: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, colour: str, space: int, cost: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.colour = colour  # type: ignore[misc]
        self.space = space  # type: ignore[misc]
        self.cost = cost  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class FlorinsGained:
    seat: int
    florins: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, florins: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.florins = florins  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class PointsScored:
    """VP for `seat`; `why` names the source (a helper, a reward tile, initiative...)."""

    seat: int
    points: int
    why: str
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, points: int, why: str) -> None:
        self.seat = seat  # type: ignore[misc]
        self.points = points  # type: ignore[misc]
        self.why = why  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Married:
    """A female figure of `seat` onto `city`'s marriage space `space` (0-based), for
    `dowry` florins and `points` VP; `tile` the open tile taken ("" none)."""

    seat: int
    city: str
    space: int
    dowry: int
    points: int
    tile: str = ""
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self,
                 seat: int, city: str, space: int, dowry: int, points: int,
                 tile: str = "") -> None:
        self.seat = seat  # type: ignore[misc]
        self.city = city  # type: ignore[misc]
        self.space = space  # type: ignore[misc]
        self.dowry = dowry  # type: ignore[misc]
        self.points = points  # type: ignore[misc]
        self.tile = tile  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class MissionSent:
    """`seat`'s male figure from space `start` of `career` onto `city`'s mission
    space `space` (0-based), for `points` VP; `tile` the open tile taken ("" none)."""

    seat: int
    career: str
    start: int
    city: str
    space: int
    points: int
    tile: str = ""
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self,
                 seat: int, career: str, start: int, city: str, space: int, points: int,
                 tile: str = "") -> None:
        self.seat = seat  # type: ignore[misc]
        self.career = career  # type: ignore[misc]
        self.start = start  # type: ignore[misc]
        self.city = city  # type: ignore[misc]
        self.space = space  # type: ignore[misc]
        self.points = points  # type: ignore[misc]
        self.tile = tile  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class FigureMoved:
    """A male figure of `seat` on `career` from `start` (0: from the available supply)
    to `to`."""

    seat: int
    career: str
    start: int
    to: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, career: str, start: int, to: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.career = career  # type: ignore[misc]
        self.start = start  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class InitiativeMoved:
    """`seat`'s initiative disc up to space `to`, on top of the discs there."""

    seat: int
    to: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, to: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class TaskUsed:
    """`seat` returns `count` figures of `sex` for the task tile `tile` (to the General
    Supply, or to the threshold space for a threshold tile, raising the threshold)."""

    seat: int
    tile: str
    sex: str
    count: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, tile: str, sex: str, count: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.tile = tile  # type: ignore[misc]
        self.sex = sex  # type: ignore[misc]
        self.count = count  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class FiguresTaken:
    """Figures of `seat` from the General Supply to the available supply."""

    seat: int
    males: int
    females: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, males: int, females: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.males = males  # type: ignore[misc]
        self.females = females  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class HelperUsed:
    """`seat` activates its helper on `space` of the column of the die just taken."""

    seat: int
    space: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, space: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.space = space  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int) -> None:
        self.seat = seat  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Passed:
    """`seat` passes for the round; `auto` when it had 4 dice or no die it could take
    (S7)."""

    seat: int
    auto: bool = False
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, auto: bool = False) -> None:
        self.seat = seat  # type: ignore[misc]
        self.auto = auto  # type: ignore[misc]


# --------------------------------------------------------------------------- rewards


@dataclass(frozen=True, slots=True)
class TurnOrderSet:
    """Phase 3: the new turn order (by initiative, the higher disc first on a tie,
    S12); the discs go back to the bottom space, the first player on top."""

    order: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, order: tuple[int, ...]) -> None:
        self.order = order  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class RewardChecked:
    """The seats whose dice sum to no more than their threshold, in turn order."""

    rewarded: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, rewarded: tuple[int, ...]) -> None:
        self.rewarded = rewarded  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class RewardTaken:
    """`seat` takes the round's reward: "bonus", "florins", "points" or "buy"."""

    seat: int
    choice: str
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, choice: str) -> None:
        self.seat = seat  # type: ignore[misc]
        self.choice = choice  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class SonMarried:
    """A bride for `seat`'s son on son space `son` (1 = top), for `points` VP and
    `florins` (S3)."""

    seat: int
    son: int
    points: int
    florins: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int, son: int, points: int, florins: int) -> None:
        self.seat = seat  # type: ignore[misc]
        self.son = son  # type: ignore[misc]
        self.points = points  # type: ignore[misc]
        self.florins = florins  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class DiceCleared:
    """R-Extra: every die leaves the player boards (S11)."""

    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ExtraSkipped:
    """`seat` was owed an extra action but no leftover die can be used."""

    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, seat: int) -> None:
        self.seat = seat  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """Clean-up: the reward tile leaves, the threshold figures go home, dice leave."""

    round: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self, round: int) -> None:
        self.round = round  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Final scoring: the face-down tiles revealed, (seat, row, tile) in drawing order;
    what each seat scores for its career figures and for its plan rows; the winners."""

    revealed: tuple[tuple[int, str, str], ...]
    careers: tuple[int, ...]
    rows: tuple[int, ...]
    winners: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1

    def __init__(self,
                 revealed: tuple[tuple[int, str, str], ...], careers: tuple[int, ...],
                 rows: tuple[int, ...], winners: tuple[int, ...]) -> None:
        self.revealed = revealed  # type: ignore[misc]
        self.careers = careers  # type: ignore[misc]
        self.rows = rows  # type: ignore[misc]
        self.winners = winners  # type: ignore[misc]


Event = (GameStarted | OrderDrawn | CitiesDrawn | RewardsLaid | RoundStarted | AlliancesLaid
         | DiceRolled | TasksLaid | BirthsRolled | AllianceDrawn | BirthsDue | AllianceDue
         | DieTaken | HelperHired | FlorinsGained | PointsScored | Married | MissionSent
         | FigureMoved | InitiativeMoved | TaskUsed | FiguresTaken | HelperUsed | TurnEnded
         | Passed | TurnOrderSet | RewardChecked | RewardTaken | SonMarried | DiceCleared
         | ExtraSkipped | RoundEnded | GameEnded | Reverted)

CHANCE_EVENTS = (OrderDrawn, CitiesDrawn, RewardsLaid, AlliancesLaid, DiceRolled, TasksLaid,
                 BirthsRolled, AllianceDrawn)
"""The events chance states: no undo goes back past them."""

EVENT_TYPES: dict[str, type[Any]] = codec.types_by_name(
    (GameStarted, OrderDrawn, CitiesDrawn, RewardsLaid, RoundStarted, AlliancesLaid, DiceRolled,
     TasksLaid, BirthsRolled, AllianceDrawn, BirthsDue, AllianceDue, DieTaken, HelperHired,
     FlorinsGained, PointsScored, Married, MissionSent, FigureMoved, InitiativeMoved, TaskUsed,
     FiguresTaken, HelperUsed, TurnEnded, Passed, TurnOrderSet, RewardChecked, RewardTaken,
     SonMarried, DiceCleared, ExtraSkipped, RoundEnded, GameEnded, Reverted))


def from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from `to_dict` output (nested pairs come back as tuples).

    Raises:
        KeyError: an unknown event type.
    """
    event: Event = codec.from_dict(EVENT_TYPES, d)
    if isinstance(event, AlliancesLaid | DiceRolled | GameEnded):
        nested: Event = _nested(event)
        return nested
    return event


def _tuples(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_tuples(v) for v in value)
    return value


def _nested(event: Any) -> Any:
    return dataclasses.replace(event, **{f.name: _tuples(getattr(event, f.name))
                                         for f in dataclasses.fields(event)})
