"""What a player (or chance) can say in high-card. Commands carry no seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Bid:
    """Auction: raise the bid for the face-up card to exactly `amount` coins."""

    amount: int
    verb: ClassVar[str] = "bid"


@dataclass(frozen=True, slots=True)
class Pass:
    """Auction: drop out of the bidding for this card."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Play:
    """Trick: play one card of your hand face down."""

    card: str
    verb: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the hand dealt to a player at setup."""

    player: str
    cards: tuple[str, ...]
    verb: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the card turned face up for this round's auction."""

    card: str
    verb: ClassVar[str] = "reveal"


PlayerCommand = Bid | Pass | Play
ChanceCommand = Deal | Reveal
Command = PlayerCommand | ChanceCommand
