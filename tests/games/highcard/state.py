"""The state of a game of high-card, and the rules of its variants as values.

Secret fields: a player's `hand` and `played` (face down until the trick is shown);
`views.view_for` is the only way they leave the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decks import Deck


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of one variant (carried by the state, never by an event)."""

    cards: tuple[str, ...] = tuple(str(n) for n in range(1, 16))
    hand_size: int = 3
    rounds: int = 3
    trick_points: int = 5


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    money: int
    hand: tuple[str, ...] = ()
    played: str | None = None  # face down this round
    lots: tuple[str, ...] = ()  # face-up cards won at auction
    tricks: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    players: tuple[Player, ...]
    variant: str = "standard"
    purse: int = 20
    phase: str = "deal"  # deal, reveal, auction, play, over
    round: int = 0
    deck: Deck = ()
    lot: str | None = None  # the face-up card under auction
    high: int | None = None  # the highest bidder
    price: int = 0
    passed: frozenset[int] = frozenset()
    turn: int | None = None  # the bidder to act
    winners: tuple[int, ...] = ()
    version: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def dealing(self) -> int | None:
        """The seat whose hand is due, while the deal runs."""
        if self.phase != "deal":
            return None
        return next((i for i, p in enumerate(self.players) if not p.hand), None)
