"""The Muse and the Princess's character cards as values: the court (who bids on and
who holds which character, the florins on the Banker) and the events of the character
auction. The rules that use them are in `characters`."""

from __future__ import annotations

from typing import ClassVar

from engine.frozen import dataclass, quick_init

CHARACTERS = ("banker", "cardinal", "merchant", "muse", "princess", "professor")
"""The six character cards, in the order views list them."""


@dataclass(frozen=True, slots=True)
class Court:
    """The character cards of a game with the expansion (a value: a change makes a new
    one).

    `markers` are this character auction's bids (character, seat, florins), one per
    card; `held` the cards won (character, seat), kept until the next character
    auction returns them; `out` the seats that passed or won in this character auction.
    """

    banker: int  # florins lying on the Banker
    markers: tuple[tuple[str, int, int], ...] = ()
    held: tuple[tuple[str, int], ...] = ()
    out: frozenset[int] = frozenset()
    raise_next: bool = False  # a displacing bid must take the next space up (option)
    used: tuple[str, ...] = ()  # the cards held whose one-time effect has been used
    paid: tuple[tuple[int, int], ...] = ()  # (seat, price) of objects won since the last
    # character auction (the Merchant may make one free)
    merchant_ties_behind: bool = False  # the Merchant's points: tied players count ahead
    muse_princess: bool = True  # the Muse adds to the Princess's work (option)

    def holder(self, character: str) -> int | None:
        """The seat holding the character card, or None."""
        for c, seat in self.held:
            if c == character:
                return seat
        return None

    def held_by(self, seat: int) -> tuple[str, ...]:
        return tuple(c for c, s in self.held if s == seat)

    def marker(self, character: str) -> tuple[int, int] | None:
        """The (seat, bid) of the marker on the card, or None."""
        for c, seat, amount in self.markers:
            if c == character:
                return seat, amount
        return None

    def marker_of(self, seat: int) -> tuple[str, int] | None:
        """The (character, bid) of the seat's marker, or None."""
        for c, s, amount in self.markers:
            if s == seat:
                return c, amount
        return None


@quick_init
@dataclass(frozen=True, slots=True)
class CharacterBidPlaced:
    """A marker put on a character card's bid space (displacing a lower one)."""

    seat: int
    character: str
    amount: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CharacterPassed:
    """A seat passed: out of this character auction."""

    seat: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CharacterWon:
    """The seat's marker was still on the card at its turn: it pays `price` and takes
    the card, and `money` florins from it (the Banker's)."""

    seat: int
    character: str
    price: int
    money: int = 0
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CharactersEnded:
    """The character auction is over; `banker` florins lie on the Banker now (an
    unsold Banker has grown)."""

    round: int
    banker: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class CharacterUsed:
    """The holder used the card's effect: the Professor's free draw (`what` is the
    deck), the Merchant's fame (`what` "pp", `fame`) or free object (`what` "free":
    `florins` back)."""

    seat: int
    character: str
    what: str
    fame: int = 0
    florins: int = 0
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


@quick_init
@dataclass(frozen=True, slots=True)
class PrincessWork:
    """A work completed with the Princess, without a profession card (a work action)."""

    seat: int
    wv: int
    payment: int
    pp: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1


COURT_EVENTS = (CharacterBidPlaced, CharacterPassed, CharacterWon, CharactersEnded,
                CharacterUsed, PrincessWork)
