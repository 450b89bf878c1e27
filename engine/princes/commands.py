"""What a player (or chance) can say: typed commands, one per notation line.

Commands carry no seat: the actor comes from the log prefix or the mail's sender.
Cells are written as in the notation (`a1`..`g7`) and kept in canonical order
(column, then row), so equal placements are equal commands.
"""

from __future__ import annotations

from typing import ClassVar

# The undo commands are part of every game (re-exported).
from engine.consent import Agree as Agree
from engine.consent import Refuse as Refuse
from engine.consent import Undo as Undo
from engine.frozen import dataclass, quick_init


def cell_key(cell: str) -> tuple[str, int]:
    """Canonical sort key of a cell name: column letter, then row number."""
    return cell[0], int(cell[1:])


def canonical_cells(cells: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cells sorted into canonical order."""
    return tuple(sorted(cells, key=cell_key))


@quick_init
@dataclass(frozen=True, slots=True)
class Keep:
    """Setup: keep 3 of the 4 professions dealt."""

    cards: tuple[str, ...]
    verb: ClassVar[str] = "keep"


@quick_init
@dataclass(frozen=True, slots=True)
class Open:
    """Auction: name an object; the opening bid is implied."""

    obj: str
    verb: ClassVar[str] = "open"


@quick_init
@dataclass(frozen=True, slots=True)
class Bid:
    """Auction: raise the current bid to exactly `amount`."""

    amount: int
    verb: ClassVar[str] = "bid"


@quick_init
@dataclass(frozen=True, slots=True)
class CharacterBid:
    """Character auction (The Muse and the Princess): put one's marker on the card's
    bid space of `amount` florins."""

    character: str
    amount: int
    verb: ClassVar[str] = "bid"


@quick_init
@dataclass(frozen=True, slots=True)
class Use:
    """The Muse and the Princess: use a character held: `use professor bonus|prestige`,
    `use merchant pp`, `use princess [pp N]` (a work without a profession card)."""

    character: str
    what: str = ""
    pp: int = 0
    verb: ClassVar[str] = "use"


@quick_init
@dataclass(frozen=True, slots=True)
class Pass:
    """Auction: pass on the object; as namer, name nothing and leave the round;
    as the last player left, take nothing."""

    verb: ClassVar[str] = "pass"


@quick_init
@dataclass(frozen=True, slots=True)
class SkippedPass:
    """Auction, from a log written at a table only: the pass of a bidder whom the
    bidding on the object just sold skipped, said when it is also their turn to name
    (or, as the last player, to take). There `pass` declines (R2, R3); a table log
    says both passes (ruling R18). The notation writes it `pass` and never reads it:
    `GAME.table_reading` gives it to the log replay."""

    verb: ClassVar[str] = "pass"


@quick_init
@dataclass(frozen=True, slots=True)
class Take:
    """Auction: the last player left takes a free object at the opening price."""

    obj: str
    verb: ClassVar[str] = "take"


@quick_init
@dataclass(frozen=True, slots=True)
class Place:
    """Place a landscape just won."""

    landscape: str
    cells: tuple[str, ...]
    verb: ClassVar[str] = "place"


@quick_init
@dataclass(frozen=True, slots=True)
class Choose:
    """Keep one of the cards just drawn; the rest go under the deck."""

    card: str
    verb: ClassVar[str] = "choose"


@quick_init
@dataclass(frozen=True, slots=True)
class Build:
    """Action: build a building on the named cells."""

    building: str
    cells: tuple[str, ...]
    verb: ClassVar[str] = "build"


@quick_init
@dataclass(frozen=True, slots=True)
class Work:
    """Action: complete a work with a profession card, playing bonus cards, and
    converting `pp` fame from the fresh payment."""

    profession: str
    bonuses: tuple[str, ...] = ()
    pp: int = 0
    verb: ClassVar[str] = "work"


@quick_init
@dataclass(frozen=True, slots=True)
class TakeProfession:
    """Action: pay, draw profession cards, keep one."""

    verb: ClassVar[str] = "profession"


@quick_init
@dataclass(frozen=True, slots=True)
class TakeBonus:
    """Action: pay, draw bonus cards, keep one."""

    verb: ClassVar[str] = "bonus"


@quick_init
@dataclass(frozen=True, slots=True)
class Freedom:
    """Action: introduce a freedom."""

    freedom: str
    verb: ClassVar[str] = "freedom"


@quick_init
@dataclass(frozen=True, slots=True)
class Recruit:
    """Free action: take an opponent's face-up profession with a recruiting card."""

    profession: str
    victim: str
    verb: ClassVar[str] = "recruit"


@quick_init
@dataclass(frozen=True, slots=True)
class Sell:
    """Free, at any time: move back `steps` on the fame track for florins."""

    steps: int
    verb: ClassVar[str] = "sell"


@quick_init
@dataclass(frozen=True, slots=True)
class Done:
    """Action phase: end your turn, forgoing the actions left."""

    verb: ClassVar[str] = "done"


@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the professions dealt to a player at setup."""

    player: str
    cards: tuple[str, ...]
    verb: ClassVar[str] = "deal"


@quick_init
@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the cards a player drew from a deck for a choice."""

    player: str
    deck: str
    cards: tuple[str, ...]
    verb: ClassVar[str] = "draw"


@quick_init
@dataclass(frozen=True, slots=True)
class AddFreedoms:
    """Chance, at the setup of the 2-player game: the freedoms added to the supply's
    one of each type (each of another type)."""

    freedoms: tuple[str, ...]
    verb: ClassVar[str] = "freedoms"


PlayerCommand = (
    Keep | Open | Bid | Pass | SkippedPass | Take | Place | Choose | Build | Work
    | TakeProfession | TakeBonus | Freedom | Recruit | Sell | Done | Undo | Agree | Refuse
    | CharacterBid | Use
)
ChanceCommand = Deal | Draw | AddFreedoms
Command = PlayerCommand | ChanceCommand
