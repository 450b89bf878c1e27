"""What one seat may see: the only way state leaves the engine.

`view_for(state, seat)` shows that seat its own hand, drawn cards and money, and
everyone else only what lies on the table; `view_for(state, None)` is the public
view. `events_visible_to` does the same for the event log.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import decks
from engine.frozen import dataclass

from . import characters
from .court import CHARACTERS
from .events import Event, redact
from .grid import Grid
from .queries import (
    bidders,
    hand_bonus_values,
    hand_prestige_values,
    hand_work_values,
    to_act,
)
from .ruleset import Rules
from .state import CHANCE, FREEDOMS_DUE, Player, State


@dataclass(frozen=True, slots=True)
class ProfessionView:
    """A profession in the viewer's hand: what its work needs (the rules' card) and
    the work value it would reach now, with no bonus card."""

    name: str
    building: str
    landscape: str
    freedom: str
    wv: int


@dataclass(frozen=True, slots=True)
class CardView:
    """A bonus or prestige card in the viewer's hand: its text (the rules data) and
    its value now (what a bonus card adds to a work now; the fame a prestige card
    would score if the game ended now)."""

    deck: str
    name: str
    text: str
    value: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str
    fame: int
    florins: int | None  # None: hidden from this viewer
    # One entry per tile placed, with the cells it covers: which cells form one
    # building or landscape (two towers side by side are two entries).
    buildings: tuple[tuple[str, tuple[str, ...]], ...]
    landscapes: tuple[tuple[str, tuple[str, ...]], ...]
    freedoms: tuple[str, ...]
    jesters: int
    builders: int
    table: tuple[str, ...]  # professions face up
    recruiters: int  # opponents' recruiting cards lying here
    recruiting: int  # unused recruiting cards (won face up at auction)
    hand_count: int
    bonus_count: int
    prestige_count: int
    hand: tuple[str, ...] | None  # own only
    bonus_hand: tuple[str, ...] | None
    prestige_hand: tuple[str, ...] | None
    dealt: tuple[str, ...] | None
    best_wv: int
    actions: int
    grid: tuple[str, ...]  # rows from top (7) to bottom (1)
    actions_left: int = 0  # in the action phase, before the turn is over (public)
    works_left: int = 0  # works among those actions (the rules' limit on works)
    works: tuple[tuple[str, int], ...] = ()  # `table` with each work's value (public)
    professions: tuple[ProfessionView, ...] | None = None  # own only: the hand's works
    cards: tuple[CardView, ...] | None = None  # own only: bonus, then prestige cards


@dataclass(frozen=True, slots=True)
class PendingView:
    kind: str
    player: str
    deck: str
    count: int
    cards: tuple[str, ...] | None  # only for the seat that drew them
    tile: str


@dataclass(frozen=True, slots=True)
class CharacterView:
    """A character card of The Muse and the Princess (all of it is public)."""

    name: str
    holder: str | None  # who won it (held until the next character auction)
    bidder: str | None  # whose marker lies on it in the character auction
    bid: int
    money: int  # florins on it (the Banker)
    text: str = ""  # its effect, from the rules data


@dataclass(frozen=True, slots=True)
class View:
    viewer: int | None
    phase: str
    round: int
    rounds: int
    min_wv: int
    start: str | None
    to_act: tuple[str, ...]
    lot: str | None
    price: int
    high: str | None
    marked: tuple[str, ...]
    stacks: tuple[tuple[str, int], ...]
    buildings_left: tuple[tuple[str, int], ...]
    freedoms_left: tuple[tuple[str, int], ...]
    deck_sizes: tuple[tuple[str, int], ...]
    pending: PendingView | None
    players: tuple[PlayerView, ...]
    winners: tuple[str, ...]
    money_open: bool
    version: int
    building_costs: tuple[int, ...] = ()  # by builders employed (the variant's rules)
    landscape_lot: bool = False  # the landscapes are auctioned as one lot (2 players)
    characters: tuple[CharacterView, ...] = ()  # with The Muse and the Princess
    fame_for_money: bool = True  # fame may be sold (not with the expansion)
    bidders: tuple[str, ...] = ()  # who may still bid on the lot out, the next first
    next_bid: int = 0  # the only legal bid on the lot out (the price plus the raise)


# The letter of each building and landscape in `PlayerView.grid` (P: the Palazzo,
# '.': an empty cell).
GRID_LETTERS = {
    "university": "U", "laboratory": "L", "workshop": "W", "library": "B", "opera": "O",
    "studio": "S", "hospital": "H", "theater": "T", "tower": "R", "chapel": "C",
    "forest": "f", "lake": "l", "park": "p",
}


def grid_rows(grid: Grid, buildings: Iterable[tuple[str, tuple[str, ...]]],
              landscapes: Iterable[tuple[str, tuple[str, ...]]]) -> tuple[str, ...]:
    """The principality as text rows, top row first: P Palazzo, capitals buildings,
    small letters landscapes, '.' empty."""
    w, h = grid.width, grid.height
    cells = ["."] * (w * h)
    for i in range(w * h):
        if grid.palazzo >> i & 1:
            cells[i] = "P"
    for name, cs in (*buildings, *landscapes):
        for c in cs:
            cells[grid.cell_index(c)] = GRID_LETTERS.get(name, "?")
    return tuple("".join(cells[r * w:(r + 1) * w]) for r in reversed(range(h)))


def view_for(state: State, seat: int | None) -> View:
    """The game as `seat` sees it (None: the public view)."""
    names = [p.name for p in state.players]
    players = []
    for i, p in enumerate(state.players):
        own = seat == i
        players.append(PlayerView(
            seat=i, name=p.name, fame=p.fame,
            florins=p.florins if own or state.money_open else None,
            buildings=p.buildings, landscapes=p.landscapes, freedoms=p.freedoms,
            jesters=p.jesters, builders=p.builders, table=p.table, recruiters=p.recruiters,
            works=_works(p),
            recruiting=p.recruiting, hand_count=len(p.hand),
            bonus_count=len(p.bonus_hand), prestige_count=len(p.prestige_hand),
            hand=p.hand if own else None, bonus_hand=p.bonus_hand if own else None,
            prestige_hand=p.prestige_hand if own else None,
            dealt=p.dealt if own else None,
            best_wv=p.best_wv, actions=p.actions,
            grid=grid_rows(state.rules.grid, p.buildings, p.landscapes),
            **_left(state, i),
            professions=_professions(state, i) if own else None,
            cards=_cards(state, i) if own else None,
        ))
    pending = None
    if state.pending is not None:
        pd = state.pending
        who = "chance" if pd.kind == FREEDOMS_DUE else names[pd.seat]
        pending = PendingView(pd.kind, who, pd.deck, pd.n or len(pd.cards),
                              pd.cards if seat == pd.seat else None, pd.tile)
    acting = tuple("chance" if s == CHANCE else names[s] for s in to_act(state))
    return View(
        viewer=seat, phase=state.phase, round=state.round, rounds=state.rules.rounds,
        min_wv=state.rules.min_wv[state.round - 1] if state.round else 0,
        start=names[state.start] if names else None, to_act=acting,
        lot=state.lot, price=state.price,
        high=names[state.high] if state.high is not None else None,
        marked=tuple(sorted(state.marked)), stacks=tuple(state.stacks.items()),
        buildings_left=tuple(state.buildings_left.items()),
        freedoms_left=tuple(state.freedoms_left.items()),
        deck_sizes=tuple((k, decks.deck_size(d)) for k, d in state.decks.items()),
        pending=pending, players=tuple(players),
        winners=tuple(names[w] for w in state.winners), money_open=state.money_open,
        version=state.version, building_costs=state.rules.building_cost,
        landscape_lot=state.rules.landscape_lot,
        characters=_characters(state), fame_for_money=state.rules.fame_for_money,
        bidders=tuple(names[b] for b in bidders(state)),
        next_bid=state.price + state.rules.raise_step if state.lot is not None else 0,
    )


def _left(state: State, seat: int) -> dict[str, int]:
    """The actions and works the seat has left this round, by the rules' limits and
    the engine's own extra actions (the Cardinal): none outside the action phase or
    once its turn is over."""
    p = state.players[seat]
    if state.phase != "action" or p.turn_done:
        return {"actions_left": 0, "works_left": 0}
    limits = state.rules.limits
    actions = max(0, limits["actions"] + characters.extra_actions(state, seat) - p.actions)
    works = max(0, limits["work"] - p.used.get("work", 0))
    return {"actions_left": actions, "works_left": min(works, actions)}


def _works(p: Player) -> tuple[tuple[str, int], ...]:
    """The works on the player's table with the value each was completed at (the
    last work with that profession: a recruited card may come back to the table)."""
    values = dict(p.work_values)
    return tuple((prof, values.get(prof, 0)) for prof in p.table)


def _professions(state: State, seat: int) -> tuple[ProfessionView, ...]:
    """The professions in the seat's own hand: each card's needs (the rules data) and
    the work value it would reach now."""
    cards = state.rules.professions
    return tuple(ProfessionView(name, cards[name].building, cards[name].landscape,
                                cards[name].freedom, wv)
                 for name, wv in hand_work_values(state, seat))


def _cards(state: State, seat: int) -> tuple[CardView, ...]:
    """The bonus and prestige cards in the seat's own hand: text and value now."""
    rules: Rules = state.rules
    return (*(CardView("bonus", name, rules.bonus[name].text, value)
              for name, value in hand_bonus_values(state, seat)),
            *(CardView("prestige", name, rules.prestige[name].text, value)
              for name, value in hand_prestige_values(state, seat)))


def _characters(state: State) -> tuple[CharacterView, ...]:
    court = state.court
    if court is None:
        return ()
    names = [p.name for p in state.players]
    out = []
    for c in CHARACTERS:
        holder = court.holder(c)
        marker = court.marker(c)
        out.append(CharacterView(
            c, names[holder] if holder is not None else None,
            names[marker[0]] if marker is not None else None,
            marker[1] if marker is not None else 0,
            court.banker if c == "banker" else 0,
            state.rules.court.texts.get(c, "") if state.rules.court is not None else ""))
    return tuple(out)


def events_visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The event log as `seat` may see it: other seats' hidden cards redacted."""
    return [redact(e, seat) for e in events]
