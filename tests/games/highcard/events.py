"""What happened in high-card, and the event codec (the shape Princes uses:
`{"type": ClassName, "v": version, ...fields}`, tuples as lists)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from .shared import Reverted


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

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (GameStarted, HandDealt, CardRevealed, BidRaised, BidPassed, LotWon,
                LotDiscarded, CardPlayed, TrickShown, GameEnded, Reverted)
}

# Fields of private events that only the event's seat may see.
SECRET_FIELDS = frozenset({"cards", "card"})


def is_visible(event: Event, seat: int | None) -> bool:
    """True if `seat` (None: the public) may see every field of the event."""
    if not event.private:
        return True
    return seat is not None and getattr(event, "seat", None) == seat


def redact(event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: other seats' hidden cards become '?'."""
    if is_visible(event, seat):
        return event
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(event):
        if f.name in SECRET_FIELDS:
            value = getattr(event, f.name)
            changes[f.name] = tuple("?" for _ in value) if isinstance(value, tuple) else "?"
    return dataclasses.replace(event, **changes)


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict of the event, with its type and version."""
    d: dict[str, Any] = {"type": type(event).__name__, "v": event.version}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        d[f.name] = list(value) if isinstance(value, tuple) else value
    return d


def from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from `to_dict` output.

    Raises:
        KeyError: an unknown event type.
    """
    cls = EVENT_TYPES[d["type"]]
    kwargs = {f.name: tuple(d[f.name]) if isinstance(d[f.name], list) else d[f.name]
              for f in dataclasses.fields(cls) if f.name in d}
    event: Event = cls(**kwargs)
    return event
