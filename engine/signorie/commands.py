"""What a Signorie player (or chance) can say: typed commands, one per notation line.

Commands carry no seat: the actor comes from the log prefix or the mail's sender.
The words in them are ids: colours, cities, careers and rows below, and the ids of
families, task tiles and reward tiles from the rules data (`engine.signorie.ruleset`),
so a game owner who corrects the data file changes no code.

A turn in the action phase is `take COLOUR VALUE ACTION` (take a die and do one of its
field's three actions), then any `helper N [ACTION]` lines for the helpers in that
column, top to bottom, ended by `done` (or by itself when no helper is left); or
`pass`. The reward phase asks each rewarded player for one `reward` line.
"""

from __future__ import annotations

from typing import ClassVar

# The undo commands are part of every game (re-exported).
from engine.consent import Agree as Agree
from engine.consent import Refuse as Refuse
from engine.consent import Undo as Undo
from engine.frozen import dataclass

COLOURS = ("yellow", "red", "purple", "grey", "turquoise")
"""The die colours, in the order of the action fields on a player board, left to right
(signorie-data-2.md §1.1)."""
CITIES = ("milano", "venezia", "firenze", "roma", "napoli")
"""The five cities [GG][BALENA]."""
CAREERS = ("political", "ecclesiastical", "military")
"""The three career tracks [NL]."""
TRACKS = (*CAREERS, "initiative")
"""Where progress points go: a career track or the initiative track."""
ROWS = (*CAREERS, "marriage")
"""The four alliance rows of a player board's plan: one per career, and marriage."""
SEXES = ("m", "f")
"""A figure is male (`m`) or female (`f`)."""


# --- progress points --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Step:
    """Progress points on one track, written `mil+` (a new male figure on the track's
    lowest space: 1 point), `mil+3` (a new figure moved on to space 3: 3 points),
    `mil2>5` (your figure on space 2 moved to space 5: 3 points) or `ini`, `ini+2`
    (the initiative disc up 1 or 2 spaces).

    `start` is 0 for a new figure (and always for initiative); `to` is the space it
    ends on (for initiative: the number of spaces moved). The points it costs are
    `to - start`.
    """

    track: str  # one of TRACKS
    start: int
    to: int

    def __init__(self, track: str, start: int, to: int) -> None:
        self.track = track  # type: ignore[misc]
        self.start = start  # type: ignore[misc]
        self.to = to  # type: ignore[misc]

    @property
    def points(self) -> int:
        return self.to - self.start


# --- actions: what a die, a helper, a task or a reward tile lets you do ------------

@dataclass(frozen=True, slots=True)
class Hire:
    """Hire a helper onto helper space `space` (1 = top) of the column the die's
    colour hires onto, paying that space's cost: `hire 2`."""

    space: int
    word: ClassVar[str] = "hire"

    def __init__(self, space: int) -> None:
        self.space = space  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Florins:
    """The yellow Signoria action: take 3 florins: `florins`."""

    word: ClassVar[str] = "florins"


@dataclass(frozen=True, slots=True)
class Marry:
    """Marriage: a female figure of your available supply to `city`'s lowest empty
    marriage space, paying `dowry` florins (at least the space's value, at most 4):
    `marry firenze 4`."""

    city: str
    dowry: int
    word: ClassVar[str] = "marry"

    def __init__(self, city: str, dowry: int) -> None:
        self.city = city  # type: ignore[misc]
        self.dowry = dowry  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Offspring:
    """Offspring: roll a white die per married male of your family: `offspring`."""

    word: ClassVar[str] = "offspring"


@dataclass(frozen=True, slots=True)
class Tracks:
    """Progress points, in the order written: `tracks ini mil+ pol2>4`."""

    steps: tuple[Step, ...]
    word: ClassVar[str] = "tracks"

    def __init__(self, steps: tuple[Step, ...]) -> None:
        self.steps = steps  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Mission:
    """Diplomatic mission: your male figure on space `space` of the career track
    `career` to `city`'s lowest empty mission space: `mission military 8 milano`."""

    career: str
    space: int
    city: str
    word: ClassVar[str] = "mission"

    def __init__(self, career: str, space: int, city: str) -> None:
        self.career = career  # type: ignore[misc]
        self.space = space  # type: ignore[misc]
        self.city = city  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Alliance:
    """A face-down alliance tile, unseen, beside the plan's row `row`:
    `alliance marriage`."""

    row: str
    word: ClassVar[str] = "alliance"

    def __init__(self, row: str) -> None:
        self.row = row  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Figures:
    """Figures from your General Supply to your available supply, each male or
    female as written: `figures m f`."""

    sexes: tuple[str, ...]
    word: ClassVar[str] = "figures"

    def __init__(self, sexes: tuple[str, ...]) -> None:
        self.sexes = sexes  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Helper:
    """A free helper onto helper space `space` of column `colour` (a reward):
    `helper grey 3`."""

    colour: str
    space: int
    word: ClassVar[str] = "helper"

    def __init__(self, colour: str, space: int) -> None:
        self.colour = colour  # type: ignore[misc]
        self.space = space  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Task:
    """Use the task tile `tile`, returning `count` figures (of the sex its field
    shows), and do what it gives; `then` holds the choices it asks for:

    - a career or initiative tile: `Tracks` (`task military 2 mil+ mil1>3`);
    - the marriage or mission tile: `Marry` or `Mission`, 2 figures, written without
      the count (`task mission military 8 milano`);
    - the alliance tile: `Alliance`, 1 figure (`task alliance political`);
    - the figures tile: `Figures`, one figure returned per figure taken
      (`task figures m f`);
    - the threshold and florins tiles: None (`task threshold 2`).
    """

    tile: str
    count: int
    then: Action | None = None
    word: ClassVar[str] = "task"

    def __init__(self, tile: str, count: int, then: Action | None = None) -> None:
        self.tile = tile  # type: ignore[misc]
        self.count = count  # type: ignore[misc]
        self.then = then  # type: ignore[misc]


Action = Hire | Florins | Marry | Offspring | Tracks | Mission | Alliance | Figures | Helper | Task
"""What a die, a helper, a task tile or a reward tile lets a player do."""


# --- player commands -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Take:
    """Action phase: take the `colour` die showing `value`, put it on your field of
    that colour (paying the field's cost minus the value, if more than 0) and do
    `action`: hire a helper, a task of that colour, or the colour's Signoria action
    (`florins`, `marry`, `offspring`, `tracks`, `mission`).
    `take red 3 marry firenze 2`. In an extra action (a reward) the die is placed for
    free."""

    colour: str
    value: int
    action: Action
    verb: ClassVar[str] = "take"

    def __init__(self, colour: str, value: int, action: Action) -> None:
        self.colour = colour  # type: ignore[misc]
        self.value = value  # type: ignore[misc]
        self.action = action  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Activate:
    """After a die's action: activate your helper on space `space` (1 = top) of that
    die's column, below any activated before this turn; `action` holds its choices
    (None for a helper that asks none). `helper 1 tracks mil+ mil1>3`, `helper 2`."""

    space: int
    action: Action | None = None
    verb: ClassVar[str] = "helper"

    def __init__(self, space: int, action: Action | None = None) -> None:
        self.space = space  # type: ignore[misc]
        self.action = action  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Done:
    """Activate no more helpers this turn: `done`."""

    verb: ClassVar[str] = "done"


@dataclass(frozen=True, slots=True)
class Pass:
    """Action phase: take no more dice this round: `pass`."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Reward:
    """Reward phase, a rewarded player's choice.

    Rounds 1-5: `reward bonus [ACTION]` (the round's bonus tile, with the choices it
    asks for: `reward bonus mission political 6 roma`) or `reward florins` (3 florins).
    Rounds 6-7: `reward points` (the VP tile's points) or `reward buy` (those points,
    and 5 florins paid for 5 more).
    """

    choice: str  # "bonus", "florins", "points" or "buy"
    action: Action | None = None
    verb: ClassVar[str] = "reward"

    def __init__(self, choice: str, action: Action | None = None) -> None:
        self.choice = choice  # type: ignore[misc]
        self.action = action  # type: ignore[misc]


# --- chance: what the seed gives, or a recorded log states ----------------------

@dataclass(frozen=True, slots=True)
class Order:
    """Setup: the first turn order: `* order chris anna bas`."""

    players: tuple[str, ...]
    verb: ClassVar[str] = "order"

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Cities:
    """Setup: the cities in play (all five with 4 players, 4 with 3, 3 with 2):
    `* cities firenze milano roma`."""

    cities: tuple[str, ...]
    verb: ClassVar[str] = "cities"

    def __init__(self, cities: tuple[str, ...]) -> None:
        self.cities = cities  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Rewards:
    """Setup: the reward tiles on the reward row, left to right (5 bonus tiles, then
    2 VP tiles): `* rewards mission extra progress-careers figures-m helper
    helpers cities-m`."""

    tiles: tuple[str, ...]
    verb: ClassVar[str] = "rewards"

    def __init__(self, tiles: tuple[str, ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Alliances:
    """Preparation: the alliance tiles turned face up onto the empty tile fields, in
    the order of the fields (the cities in play in CITIES order, each city's marriage
    field before its mission field; full fields skipped):
    `* alliances milano marriage este3, milano mission sforza5, ...`. Each tile is
    (city, field, tile), field being "marriage" or "mission"."""

    tiles: tuple[tuple[str, str, str], ...]
    verb: ClassVar[str] = "alliances"

    def __init__(self, tiles: tuple[tuple[str, str, str], ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Roll:
    """Preparation: the action dice rolled, by colour in COLOURS order:
    `* roll yellow 1 4 6 2, red 3 3 5 1, ...`. Each item is (colour, values);
    values are sorted, as dice of one colour are alike."""

    dice: tuple[tuple[str, tuple[int, ...]], ...]
    verb: ClassVar[str] = "roll"

    def __init__(self, dice: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
        self.dice = dice  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Tasks:
    """Preparation: the 10 task tiles laid on the task fields, in field order (yellow
    upper, yellow lower, red upper, ... turquoise lower): `* tasks florins threshold ...`."""

    tiles: tuple[str, ...]
    verb: ClassVar[str] = "tasks"

    def __init__(self, tiles: tuple[str, ...]) -> None:
        self.tiles = tiles  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Births:
    """The white offspring dice a player rolled: `* births anna 2 5 6`
    (1-3 a female figure, 4-6 a male)."""

    player: str
    values: tuple[int, ...]
    verb: ClassVar[str] = "births"

    def __init__(self, player: str, values: tuple[int, ...]) -> None:
        self.player = player  # type: ignore[misc]
        self.values = values  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Draw:
    """A face-down alliance tile drawn for a player: `* draw anna este3`. Nobody sees
    it, its owner included, until the final scoring: a public log writes `* draw
    anna ?` (tile "?")."""

    player: str
    tile: str
    verb: ClassVar[str] = "draw"

    def __init__(self, player: str, tile: str) -> None:
        self.player = player  # type: ignore[misc]
        self.tile = tile  # type: ignore[misc]


PlayerCommand = Take | Activate | Done | Pass | Reward | Undo | Agree | Refuse
ChanceCommand = Order | Cities | Rewards | Alliances | Roll | Tasks | Births | Draw
Command = PlayerCommand | ChanceCommand
