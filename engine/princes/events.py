"""What happened: past-tense facts, folded into state by `game.evolve`.

Events are all the engine stores. Each names its seat; those marked `private`
carry hidden values that only that seat may see (`redact` gives everyone else a
copy without them).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, ClassVar

from engine import codec
from engine.consent import Reverted as Reverted  # every game records agreed undos
from engine.frozen import dataclass, quick_init

from .court import (
    CharacterBidPlaced,
    CharacterPassed,
    CharactersEnded,
    CharacterUsed,
    CharacterWon,
    PrincessWork,
)


@quick_init
@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    variant: str = "standard"
    money_open: bool = False
    seeded: bool = True
    edition: str = ""  # rules edition of the rules data (princes.toml)
    engine: str = ""  # engine version that judged the game
    commitment: str = ""  # hex sha256 commitment to the seed (engine.chain.seed_commitment)
    # Fields added after games were stored (`codec.ADDED`: left out of `to_dict` while
    # they hold their default, so older first events keep their canonical form).
    # The freedoms in the supply when an option sets them (the 2-player game's harder
    # option: 4); 0: as the variant says.
    freedoms: int = field(default=0, metadata=codec.ADDED)
    # "muse-and-princess": The Muse and the Princess
    expansions: str = field(default="none", metadata=codec.ADDED)
    # the expansion's over-bid: "higher" or "next"
    character_raise: str = field(default="higher", metadata=codec.ADDED)
    # the Merchant's fame with ties: "ahead" or "level"
    merchant_points: str = field(default="ahead", metadata=codec.ADDED)
    # the Muse adds to the Princess's work: "yes" or "no"
    muse_princess: str = field(default="yes", metadata=codec.ADDED)
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class ProfessionsDealt:
    seat: int
    cards: tuple[str, ...]
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class ProfessionsKept:
    seat: int
    kept: tuple[str, ...]
    returned: tuple[str, ...]
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("kept", "returned")
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class FreedomsAdded:
    """Setup of the 2-player game: the freedoms added to one of each type (each of
    another type), stated by chance."""

    freedoms: tuple[str, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    start: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class ObjectNamed:
    seat: int
    obj: str
    price: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class BidRaised:
    seat: int
    amount: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class BidPassed:
    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class NamingDeclined:
    """A namer named nothing (or the last player took nothing): out for the round."""

    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class AuctionWon:
    """An object acquired: won at auction, or taken by the last player (`taken`)."""

    seat: int
    obj: str
    price: int
    fame_sold: int = 0
    taken: bool = False
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class AuctionEnded:
    round: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CardsDrawn:
    seat: int
    deck: str
    cards: tuple[str, ...]
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CardChosen:
    seat: int
    deck: str
    card: str
    returned: tuple[str, ...]
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("card", "returned")
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class LandscapePlaced:
    seat: int
    landscape: str
    cells: tuple[str, ...]
    fame: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class BuildingBuilt:
    seat: int
    building: str
    cells: tuple[str, ...]
    cost: int
    fame: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class WorkCompleted:
    seat: int
    profession: str
    bonuses: tuple[str, ...]
    wv: int
    payment: int
    pp: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CardBought:
    """The profession or bonus action: paid for; the draw follows."""

    seat: int
    deck: str
    cost: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class FreedomIntroduced:
    seat: int
    freedom: str
    cost: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class Recruited:
    seat: int
    profession: str
    victim: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class FameSold:
    seat: int
    steps: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class RoundEnded:
    """End of a round; `best` are the seats scoring for the best work (`wv`)."""

    round: int
    best: tuple[int, ...]
    wv: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class PrestigeScored:
    seat: int
    card: str
    fame: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


Event = (
    GameStarted | ProfessionsDealt | ProfessionsKept | RoundStarted | ObjectNamed | BidRaised
    | BidPassed | NamingDeclined | AuctionWon | AuctionEnded | CardsDrawn | CardChosen
    | LandscapePlaced | BuildingBuilt | WorkCompleted | CardBought | FreedomIntroduced
    | Recruited | FameSold | TurnEnded | RoundEnded | PrestigeScored | GameEnded | Reverted
    | FreedomsAdded
    | CharacterBidPlaced | CharacterPassed | CharacterWon | CharactersEnded | CharacterUsed
    | PrincessWork
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, ProfessionsDealt, ProfessionsKept, RoundStarted, ObjectNamed, BidRaised,
        BidPassed, NamingDeclined, AuctionWon, AuctionEnded, CardsDrawn, CardChosen,
        LandscapePlaced, BuildingBuilt, WorkCompleted, CardBought, FreedomIntroduced,
        Recruited, FameSold, TurnEnded, RoundEnded, PrestigeScored, GameEnded, Reverted,
        FreedomsAdded,
        CharacterBidPlaced, CharacterPassed, CharacterWon, CharactersEnded, CharacterUsed,
        PrincessWork,
    )
}

# --------------------------------------------------------------------------- made once
# Events are values, and a replay makes many alike: the commonest are made once each
# (an event object costs several times a lookup). Seats: fewer than SEATS in any
# variant; the others are remembered, MEMO_SIZE of each type at most (then forgotten
# and remembered anew).

SEATS = 8
MEMO_SIZE = 4096

BID_PASSED = tuple(BidPassed(seat) for seat in range(SEATS))
"""`BidPassed(seat)`, by seat."""
NAMING_DECLINED = tuple(NamingDeclined(seat) for seat in range(SEATS))
"""`NamingDeclined(seat)`, by seat."""
TURN_ENDED = tuple(TurnEnded(seat) for seat in range(SEATS))
"""`TurnEnded(seat)`, by seat."""

_raised: dict[tuple[int, int], BidRaised] = {}
_named: dict[tuple[int, str, int], ObjectNamed] = {}
_won: dict[tuple[int, str, int, int, bool], AuctionWon] = {}


def bid_raised(seat: int, amount: int) -> BidRaised:
    """`BidRaised(seat, amount)`, made once."""
    key = (seat, amount)
    e = _raised.get(key)
    if e is None:
        if len(_raised) >= MEMO_SIZE:
            _raised.clear()
        e = _raised[key] = BidRaised(seat, amount)
    return e


def object_named(seat: int, obj: str, price: int) -> ObjectNamed:
    """`ObjectNamed(seat, obj, price)`, made once."""
    key = (seat, obj, price)
    e = _named.get(key)
    if e is None:
        if len(_named) >= MEMO_SIZE:
            _named.clear()
        e = _named[key] = ObjectNamed(seat, obj, price)
    return e


def auction_won(seat: int, obj: str, price: int, fame_sold: int,
                taken: bool = False) -> AuctionWon:
    """`AuctionWon(seat, obj, price, fame_sold, taken)`, made once."""
    key = (seat, obj, price, fame_sold, taken)
    e = _won.get(key)
    if e is None:
        if len(_won) >= MEMO_SIZE:
            _won.clear()
        e = _won[key] = AuctionWon(seat, obj, price, fame_sold, taken)
    return e


def is_visible(event: Event, seat: int | None) -> bool:
    """True if `seat` (None: the public) may see every field of the event."""
    return codec.is_visible(event, seat)


def redact(event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: hidden cards of other seats become '?'."""
    redacted: Event = codec.redact(event, seat)
    return redacted


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict of the event, with its type and version."""
    return codec.to_dict(event)


def from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from `to_dict` output.

    Raises:
        KeyError: unknown event type.
    """
    event: Event = codec.from_dict(EVENT_TYPES, d)
    return event
