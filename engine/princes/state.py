"""The state of a game of The Princes of Florence: a fold over its events.

`State` and `Player` are mutable (and slotted), so that `evolve.evolve_in_place` can
fold an event by writing a few fields (the replay path); the rest of pbem treats a
state as a value: `evolve.evolve` and `decide.apply` fold into a copy
(`shared_copy`: a new State whose players are copied when first changed) and never
change the state they were given. The containers inside (tuples, frozensets, the
dicts `used`, `stacks`, `decks` ...) are never changed in place: a change puts a new
one, so copies share them safely.

Secret fields are named `hand`, `bonus_hand`, `prestige_hand`, `dealt`, `florins`
(hidden unless the game's money is open) and `pending.cards`; `views.view_for` is
the only way they leave the engine. The state carries the rules data of its variant
(`rules`), set when the game starts; it is in no event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar

from engine.decks import Deck
from engine.frozen import quick_init

from .court import Court
from .ruleset import Rules

CHANCE = -1  # the pseudo-seat that deals and draws

FREEDOMS_DUE = "freedoms"
"""`Pending.kind` while chance must state the freedoms added at setup (2 players)."""
CHANCE_KINDS = frozenset(("deal", "draw", FREEDOMS_DUE))
"""The `Pending.kind`s that chance must state."""


@dataclass(eq=True, slots=True)
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
    # (profession, work value) of each work completed, in order: for the display
    work_values: tuple[tuple[str, int], ...] = ()
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
        return [name for name, _ in self.landscapes].count(kind)

    def has_building(self, building: str) -> bool:
        for name, _ in self.buildings:
            if name == building:
                return True
        return False


@dataclass(frozen=True, slots=True)
class Pending:
    """A step that must happen before play goes on.

    kind: "deal" or "draw" (chance must state cards), "freedoms" (chance must state
    the `n` freedoms added at setup; `seat` 0), "choose" (the seat keeps one of
    `cards`), "place" (the seat places the landscape `tile`; "landscape": one of the
    type it chooses).
    """

    kind: str
    seat: int
    deck: str = ""
    n: int = 0
    cards: tuple[str, ...] = ()
    tile: str = ""

    def __reduce__(self) -> tuple[type[Pending], tuple[Any, ...]]:
        # Copied and pickled through __init__: a compiled frozen class (mypyc, see
        # setup.py) cannot set its fields afterwards as copy and pickle do.
        return Pending, (self.kind, self.seat, self.deck, self.n, self.cards, self.tile)


if not hasattr(Pending, "__mypyc_attrs__"):  # pure Python: built quickly (`engine.frozen`)
    quick_init(Pending)


@dataclass(eq=True, slots=True)
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
    # The last sale, (winner, object), until the next object is named or declined:
    # a bidder the bidding skipped may still say pass on it, and a recruiting card
    # may be used at once (`auction.skipped_bidder`, `actions.recruits_now`).
    sold: tuple[int, str] | None = None
    stacks: Mapping[str, int] = field(default_factory=dict)
    buildings_left: Mapping[str, int] = field(default_factory=dict)
    freedoms_left: Mapping[str, int] = field(default_factory=dict)
    decks: Mapping[str, Deck] = field(default_factory=dict)
    pending: Pending | None = None
    winners: tuple[int, ...] = ()
    version: int = 0  # number of events folded in
    court: Court | None = None  # the character cards, in a game with the expansion
    # The seats (bits) whose Player this state shares with another state: a fold
    # copies such a player before changing it (`player`). Not part of the value.
    shared: int = field(default=0, compare=False, repr=False)

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
SHARED = -1
"""`State.shared` for a state whose players are all shared."""


def replace(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for Player and State, faster: the copy shares the
    field values (a State copy shares its players, `shared`)."""
    new: T = _COPY[type(obj)](obj)
    if isinstance(new, State):
        new.shared = SHARED
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def player(state: State, seat: int) -> Player:
    """The seat's player, to be changed in place: its own copy first if the state
    shares it with another state."""
    if state.shared >> seat & 1:
        players = list(state.players)
        players[seat] = _copy_player(players[seat])
        state.players = tuple(players)
        state.shared &= ~(1 << seat)
    return state.players[seat]


def shared_copy(state: State) -> State:
    """A copy that a fold may change in place without changing `state`: the State
    is new, each Player is copied when first changed (`player`)."""
    new = _copy_state(state)
    new.shared = SHARED
    return new


def owned_copy(state: State) -> State:
    """A copy of the state that owns all it may change: new State and Player
    objects (the immutable values inside are shared)."""
    new = _copy_state(state)
    new.players = tuple(map(_copy_player, state.players))
    new.shared = 0
    return new


def _copier(cls: type[T]) -> Callable[[T], T]:
    get = attrgetter(*(f.name for f in fields(cls)))
    return lambda obj: cls(*get(obj))


_COPY: dict[type[Any], Callable[[Any], Any]] = {Player: _copier(Player), State: _copier(State)}
_copy_player: Callable[[Player], Player] = _COPY[Player]
_copy_state: Callable[[State], State] = _COPY[State]
