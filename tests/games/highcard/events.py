"""What happened in high-card, and the event codec (`engine.codec`: `{"type":
ClassName, "v": version, ...fields}`, tuples as lists)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import codec
from engine.consent import Reverted


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    variant: str = "standard"
    purse: int = 20
    seeded: bool = True
    edition: str = ""
    engine: str = ""
    commitment: str = ""
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class HandDealt:
    seat: int
    cards: tuple[str, ...]
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardRevealed:
    round: int
    card: str
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class BidRaised:
    seat: int
    amount: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class BidPassed:
    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class LotWon:
    seat: int
    card: str
    price: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class LotDiscarded:
    """Everybody passed: the face-up card scores for nobody."""

    card: str
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: str
    private: ClassVar[bool] = True
    secret: ClassVar[tuple[str, ...]] = ("card",)
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class TrickShown:
    """Every face-down card turned up (in seat order); the highest takes the trick."""

    round: int
    cards: tuple[str, ...]
    winner: int
    points: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


Event = (GameStarted | HandDealt | CardRevealed | BidRaised | BidPassed | LotWon | LotDiscarded
         | CardPlayed | TrickShown | GameEnded | Reverted)

EVENT_TYPES: dict[str, type[Any]] = codec.types_by_name(
    (GameStarted, HandDealt, CardRevealed, BidRaised, BidPassed, LotWon, LotDiscarded,
     CardPlayed, TrickShown, GameEnded, Reverted))


def from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from `to_dict` output.

    Raises:
        KeyError: an unknown event type.
    """
    event: Event = codec.from_dict(EVENT_TYPES, d)
    return event
