"""The state of a game of The Princes of Florence: a fold over its events.

`State` and `Player` are mutable, so that `evolve.evolve_in_place` can fold an event
by writing a few fields (the replay path); the rest of pbem treats a state as a
value: `evolve.evolve` and `decide.apply` fold into a private copy (`owned_copy`)
and never change the state they were given. Their containers (tuples, frozensets,
the dicts `used`, `stacks`, `decks` ...) are never changed in place: a change puts
a new one, so a copy shares them safely.

Secret fields are named `hand`, `bonus_hand`, `prestige_hand`, `dealt`, `florins`
(hidden unless the game's money is open) and `pending.cards`; `views.view_for` is
the only way they leave the engine. The state carries the rules data of its variant
(`rules`), set when the game starts; it is in no event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.decks import Deck

from .ruleset import Rules

CHANCE = -1  # the pseudo-seat that deals and draws


# Player and State are not slotted: `replace` and `owned_copy` copy their __dict__,
# which is several times faster than a field-by-field copy.
@dataclass(eq=True)
class Player:
    name: str
    florins: int
    fame: int = 0
    dealt: tuple[str, ...] = ()  # professions dealt at setup, until kept
    hand: tuple[str, ...] = ()  # professions in hand
    recruiting: int = 0  # recruiting cards in hand, not yet used
    table: tuple[str, ...] = ()  # own professions face up (works)
    recruiters: int = 0  # opponents' recruiting cards lying at this display
    bonus_hand: tuple[str, ...] = ()
    prestige_hand: tuple[str, ...] = ()
    buildings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    landscapes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    freedoms: tuple[str, ...] = ()
    jesters: int = 0
    builders: int = 0
    occupied: int = 0  # grid cells covered by tiles (bitmask, Palazzo excluded)
    building_cells: int = 0  # grid cells covered by buildings (bitmask)
    # This round:
    actions: int = 0
    used: Mapping[str, int] = field(default_factory=dict)  # action kind -> times this round
    best_wv: int = 0
    won: bool = False  # acquired an object in this auction phase
    out: bool = False  # named nothing: out of this auction phase
    turn_done: bool = False  # action turn over this round

    def hand_cards(self) -> int:
        """Profession and recruiting cards in hand (all count as professions)."""
        return len(self.hand) + self.recruiting

    def table_cards(self) -> int:
        """Works on display: own professions and recruiting cards laid here."""
        return len(self.table) + self.recruiters

    def count_landscape(self, kind: str) -> int:
        return sum(1 for name, _ in self.landscapes if name == kind)

    def has_building(self, building: str) -> bool:
        return any(name == building for name, _ in self.buildings)


@dataclass(frozen=True, slots=True)
class Pending:
    """A step that must happen before play goes on.

    kind: "deal" or "draw" (chance must state cards), "choose" (the seat keeps one
    of `cards`), "place" (the seat places the landscape `tile`).
    """

    kind: str
    seat: int
    deck: str = ""
    n: int = 0
    cards: tuple[str, ...] = ()
    tile: str = ""


@dataclass(eq=True)
class State:
    players: tuple[Player, ...]
    rules: Rules  # the data of the variant: from `ruleset.rules_for(variant)`
    variant: str = "standard"
    money_open: bool = False
    seeded: bool = True
    edition: str = ""
    phase: str = "deal"  # deal, keep, auction, action, over
    round: int = 0
    start: int = 0  # start player of this round
    turn: int | None = None  # who acts now (namer, bidder, action player)
    lot: str | None = None  # object under auction
    high: int | None = None  # highest bidder
    price: int = 0
    passed: frozenset[int] = frozenset()
    namer: int = 0
    marked: frozenset[str] = frozenset()  # stacks that gave an object this round
    stacks: Mapping[str, int] = field(default_factory=dict)
    buildings_left: Mapping[str, int] = field(default_factory=dict)
    freedoms_left: Mapping[str, int] = field(default_factory=dict)
    decks: Mapping[str, Deck] = field(default_factory=dict)
    pending: Pending | None = None
    winners: tuple[int, ...] = ()
    version: int = 0  # number of events folded in

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def seat_of(self, name: str) -> int:
        """The seat of a player name. Raises KeyError for an unknown name."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def in_auction(self, seat: int) -> bool:
        p = self.players[seat]
        return not p.won and not p.out


T = TypeVar("T", Player, State)
_new = object.__new__


def replace(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for Player and State, several times faster.

    The copy shares the field values (players included) and never runs __init__,
    which only assigns.
    """
    new = _new(type(obj))
    d = obj.__dict__.copy()
    d.update(changes)
    new.__dict__ = d
    return new


def owned_copy(state: State) -> State:
    """A copy of the state that may be changed in place without changing `state`:
    its own State and Player objects (the immutable values inside are shared)."""
    new = _new(State)
    d = state.__dict__.copy()
    players = []
    for p in state.players:
        q = _new(Player)
        q.__dict__ = p.__dict__.copy()
        players.append(q)
    d["players"] = tuple(players)
    new.__dict__ = d
    return new
