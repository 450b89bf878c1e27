"""Folding events into state: one handler per event type, which writes the event's
effect into the state in place (`evolve_in_place`); `evolve` runs it on a private
copy, so a fold never changes the states it passes. Nothing here checks anything
(the event was decided already): a failure is a bug. The numbers come from the
variant's rules that the state carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from typing import Any

from engine import decks

from . import characters
from .events import (
    SEATS,
    AuctionEnded,
    AuctionWon,
    BidPassed,
    BidRaised,
    BuildingBuilt,
    CardBought,
    CardChosen,
    CardsDrawn,
    Event,
    FameSold,
    FreedomIntroduced,
    FreedomsAdded,
    GameEnded,
    GameStarted,
    LandscapePlaced,
    NamingDeclined,
    ObjectNamed,
    PrestigeScored,
    ProfessionsDealt,
    ProfessionsKept,
    Recruited,
    Reverted,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    WorkCompleted,
)
from .queries import can_acquire
from .ruleset import FREEDOMS, LANDSCAPE_LOT, LANDSCAPES, rules_for
from .state import FREEDOMS_DUE, Pending, Player, State, player, shared_copy

_LIMITED = frozenset(("builder", LANDSCAPE_LOT, *LANDSCAPES))
"""The objects that not everyone may take (see `queries.can_acquire`)."""

_AFTER = tuple(tuple(tuple((seat + i) % n for i in range(1, n + 1)) for seat in range(n))
               for n in range(SEATS + 1))
"""`_AFTER[n][seat]`: the seats of an n-player game in turn order from the one after
`seat`, `seat` last (`_AFTER[n][seat - 1]`: from `seat`)."""


def evolve(state: State, event: Event) -> State:
    """The state after one more event, `state` unchanged (a fold's step). Never
    validates: a failure is a bug."""
    s = shared_copy(state)
    evolve_in_place(s, event)
    return s


def evolve_in_place(s: State, event: Event) -> None:
    """Fold one event into `s` itself: the one implementation of every event's
    effect (`evolve` runs it on a copy). Never validates: a failure is a bug."""
    handler = EVOLVE.get(type(event))
    if handler is None:
        if isinstance(event, Reverted):
            raise AssertionError("a Reverted event needs the history: use replay()")
        raise AssertionError(f"unknown event {event!r}")
    handler(s, event)
    s.version += 1


def started_state(e: GameStarted) -> State:
    """The state right after the first event: the variant's rules, stacks and decks,
    and the first deal due."""
    rules = rules_for(e.variant, e.expansions)
    per_type = rules.freedoms_per_type(len(e.players))
    extra = e.freedoms - per_type * len(FREEDOMS) if e.freedoms else rules.freedom_extra
    deal = Pending("deal", 0, "profession", rules.professions_dealt)
    return State(
        players=tuple(Player(name, rules.start_florins) for name in e.players),
        rules=rules,
        variant=e.variant, money_open=e.money_open, seeded=e.seeded, edition=e.edition,
        phase="deal",
        stacks=dict(rules.stacks),
        buildings_left=dict.fromkeys(rules.buildings, rules.building_copies),
        freedoms_left=dict.fromkeys(FREEDOMS, per_type),
        decks={
            "profession": decks.new_deck(rules.professions),
            "prestige": decks.new_deck(rules.prestige),
            "bonus": decks.new_deck(rules.bonus),
        },
        pending=Pending(FREEDOMS_DUE, 0, n=extra) if extra else deal,
        version=1,
        court=characters.new_court(rules, e),
    )


def _next_bidder(state: State, after: int) -> int | None:
    """The next seat that may bid on the lot: still in the auction phase, not the
    high bidder, not passed on this lot, and able to take the lot."""
    lot, high, passed, players = state.lot, state.high, state.passed, state.players
    assert lot is not None
    order = _AFTER[len(players)][after]
    if lot not in _LIMITED:  # anyone may take it
        for s in order:
            p = players[s]
            if s != high and not p.won and not p.out and s not in passed:
                return s
        return None
    for s in order:
        p = players[s]
        if s != high and not p.won and not p.out and s not in passed \
                and can_acquire(state, s, lot):
            return s
    return None


def _next_namer(state: State) -> int | None:
    """The namer if still in the auction phase, else the next seat that is."""
    players = state.players
    for s in _AFTER[len(players)][state.namer - 1]:
        p = players[s]
        if not p.won and not p.out:
            return s
    return None


def _count(used: Mapping[str, int], kind: str) -> dict[str, int]:
    """A new `used` with one more action of `kind` (never changed in place: copies
    of a state share it)."""
    d = dict(used)
    d[kind] = d.get(kind, 0) + 1
    return d


def _on_game_started(s: State, e: GameStarted) -> None:
    raise AssertionError("the first event is folded by started_state()")


def _on_professions_dealt(s: State, e: ProfessionsDealt) -> None:
    s.decks = {**s.decks, "profession": decks.remove_drawn(s.decks["profession"], e.cards)}
    player(s, e.seat).dealt = e.cards
    # the next deal due is to the first seat not dealt yet (a recorded log may state
    # the deals in any order; in seat order, that is the next seat)
    s.pending = None
    for i, p in enumerate(s.players):
        if not p.dealt:
            s.pending = Pending("deal", i, "profession", s.rules.professions_dealt)
            break
    s.phase = "deal" if s.pending else "keep"


def _on_professions_kept(s: State, e: ProfessionsKept) -> None:
    deck = decks.new_deck(chain(*s.decks["profession"], e.returned))
    s.decks = {**s.decks, "profession": deck}
    p = player(s, e.seat)
    p.dealt = ()
    p.hand = e.kept


def _on_round_started(s: State, e: RoundStarted) -> None:
    if s.shared:  # every player changes: each its own first
        for seat in range(len(s.players)):
            player(s, seat)
    for p in s.players:
        p.actions = 0
        p.used = {}
        p.best_wv = 0
        p.won = p.out = p.turn_done = False
    s.phase = "auction"
    s.round = e.round
    s.start = s.turn = s.namer = e.start
    s.lot = s.high = None
    s.price = 0
    s.passed = frozenset()
    s.marked = frozenset()
    s.sold = None


def _on_object_named(s: State, e: ObjectNamed) -> None:
    s.lot = e.obj
    s.high = s.namer = e.seat
    s.price = e.price
    s.passed = frozenset()
    s.sold = None
    s.turn = _next_bidder(s, e.seat)


def _on_bid_raised(s: State, e: BidRaised) -> None:
    s.high = e.seat
    s.price = e.amount
    s.turn = _next_bidder(s, e.seat)


def _on_bid_passed(s: State, e: BidPassed) -> None:
    s.passed = s.passed | {e.seat}
    if e.seat == s.turn and s.lot is not None:
        s.turn = _next_bidder(s, e.seat)
    # else a bidder the bidding skips said pass (also on the object just sold, when
    # it is their turn to name: `SkippedPass`): it only counts


def _on_naming_declined(s: State, e: NamingDeclined) -> None:
    player(s, e.seat).out = True
    s.sold = None
    s.turn = _next_namer(s)


def _on_auction_won(s: State, e: AuctionWon) -> None:
    rules = s.rules
    p = player(s, e.seat) if s.shared else s.players[e.seat]
    p.won = True
    p.fame -= e.fame_sold
    p.florins += e.fame_sold * rules.fame_step_florins - e.price
    if s.court is not None:  # the expansion: the Merchant may make it free
        characters.note_price(s, e.seat, e.price)
    pending = None
    if e.obj == "prestige":
        n = min(rules.draw, decks.deck_size(s.decks["prestige"]))
        pending = Pending("draw", e.seat, "prestige", n)
    elif e.obj == LANDSCAPE_LOT:  # the type is chosen, and its stack used, at placing
        pending = Pending("place", e.seat, "", 0, (), LANDSCAPE_LOT)  # (positional: quicker)
    else:
        s.stacks = {**s.stacks, e.obj: s.stacks[e.obj] - 1}
        if e.obj in LANDSCAPES:
            pending = Pending("place", e.seat, "", 0, (), e.obj)
        elif e.obj == "jester":
            p.jesters += 1
        elif e.obj == "builder":
            p.fame += rules.fame_builder[p.builders]
            p.builders += 1
        else:
            p.recruiting += 1
    s.lot = s.high = s.turn = None
    s.price = 0
    s.marked = s.marked | {e.obj}
    s.sold = (e.seat, e.obj)  # who passed on it stays in `passed` until the next lot
    s.pending = pending
    if pending is None and s.phase == "auction":  # the next namer names
        s.turn = _next_namer(s)


def _on_auction_ended(s: State, e: AuctionEnded) -> None:
    if s.court is not None:  # the expansion: the character auction comes first
        characters.open_court(s)
        return
    s.phase = "action"
    s.turn = s.start


def _on_cards_drawn(s: State, e: CardsDrawn) -> None:
    s.decks = {**s.decks, e.deck: decks.remove_drawn(s.decks[e.deck], e.cards)}
    s.pending = Pending("choose", e.seat, e.deck, 0, e.cards)


def _on_card_chosen(s: State, e: CardChosen) -> None:
    p = player(s, e.seat) if s.shared else s.players[e.seat]
    if e.deck == "profession":
        p.hand = (*p.hand, e.card)
    elif e.deck == "bonus":
        p.bonus_hand = (*p.bonus_hand, e.card)
    else:
        p.prestige_hand = (*p.prestige_hand, e.card)
    s.decks = {**s.decks, e.deck: decks.put_under(s.decks[e.deck], e.returned)}
    s.pending = None
    if s.phase == "auction":  # the next namer names
        s.turn = _next_namer(s)


def _on_landscape_placed(s: State, e: LandscapePlaced) -> None:
    p = player(s, e.seat) if s.shared else s.players[e.seat]
    p.landscapes = (*p.landscapes, (e.landscape, e.cells))
    p.occupied |= s.rules.grid.mask_of(e.cells)
    p.fame += e.fame
    pending = s.pending
    if pending is not None and pending.tile == LANDSCAPE_LOT:
        s.stacks = {**s.stacks, e.landscape: s.stacks[e.landscape] - 1}
    s.pending = None
    if s.phase == "auction":  # the next namer names
        s.turn = _next_namer(s)


def _on_freedoms_added(s: State, e: FreedomsAdded) -> None:
    left = dict(s.freedoms_left)
    for f in e.freedoms:
        left[f] += 1
    s.freedoms_left = left
    s.pending = Pending("deal", 0, "profession", s.rules.professions_dealt)


def _on_building_built(s: State, e: BuildingBuilt) -> None:
    p = player(s, e.seat) if s.shared else s.players[e.seat]
    mask = s.rules.grid.mask_of(e.cells)
    p.buildings = (*p.buildings, (e.building, e.cells))
    p.occupied |= mask
    p.building_cells |= mask
    p.florins -= e.cost
    p.fame += e.fame
    p.actions += 1
    p.used = _count(p.used, "build")
    s.buildings_left = {**s.buildings_left, e.building: s.buildings_left[e.building] - 1}


def _on_work_completed(s: State, e: WorkCompleted) -> None:
    p = player(s, e.seat)
    hand = list(p.hand)
    hand.remove(e.profession)
    p.hand = tuple(hand)
    p.table = (*p.table, e.profession)
    p.work_values = (*p.work_values, (e.profession, e.wv))
    if e.bonuses:
        spent = set(e.bonuses)
        p.bonus_hand = tuple(b for b in p.bonus_hand if b not in spent)
    p.florins += e.payment - e.pp * s.rules.florins_per_pp
    p.fame += e.pp
    p.best_wv = max(p.best_wv, e.wv)
    p.actions += 1
    p.used = _count(p.used, "work")


def _on_card_bought(s: State, e: CardBought) -> None:
    p = player(s, e.seat)
    p.florins -= e.cost
    p.actions += 1
    p.used = _count(p.used, e.deck)
    n = min(s.rules.draw, decks.deck_size(s.decks[e.deck]))
    s.pending = Pending("draw", e.seat, e.deck, n)


def _on_freedom_introduced(s: State, e: FreedomIntroduced) -> None:
    p = player(s, e.seat)
    p.freedoms = (*p.freedoms, e.freedom)
    p.florins -= e.cost
    p.actions += 1
    p.used = _count(p.used, "freedom")
    s.freedoms_left = {**s.freedoms_left, e.freedom: s.freedoms_left[e.freedom] - 1}


def _on_recruited(s: State, e: Recruited) -> None:
    p = player(s, e.seat)
    v = player(s, e.victim)
    table = list(v.table)
    table.remove(e.profession)
    p.recruiting -= 1
    p.hand = (*p.hand, e.profession)
    v.table = tuple(table)
    v.recruiters += 1
    s.sold = None  # a recruiting card just won is used at once or kept for later


def _on_fame_sold(s: State, e: FameSold) -> None:
    p = player(s, e.seat)
    p.fame -= e.steps
    p.florins += e.steps * s.rules.fame_step_florins


def _on_turn_ended(s: State, e: TurnEnded) -> None:
    (player(s, e.seat) if s.shared else s.players[e.seat]).turn_done = True
    players = s.players
    for seat in _AFTER[len(players)][e.seat]:
        if not players[seat].turn_done:
            s.turn = seat
            return
    s.turn = None


def _on_round_ended(s: State, e: RoundEnded) -> None:
    for i in e.best:
        player(s, i).fame += s.rules.fame_best_work
    s.phase = "roundend"
    s.turn = None


def _on_prestige_scored(s: State, e: PrestigeScored) -> None:
    player(s, e.seat).fame += e.fame
    s.phase = "scored"


def _on_game_ended(s: State, e: GameEnded) -> None:
    s.phase = "over"
    s.winners = e.winners
    s.turn = None


EVOLVE: dict[type[Any], Callable[[State, Any], None]] = {
    GameStarted: _on_game_started,
    ProfessionsDealt: _on_professions_dealt,
    ProfessionsKept: _on_professions_kept,
    RoundStarted: _on_round_started,
    ObjectNamed: _on_object_named,
    BidRaised: _on_bid_raised,
    BidPassed: _on_bid_passed,
    NamingDeclined: _on_naming_declined,
    AuctionWon: _on_auction_won,
    AuctionEnded: _on_auction_ended,
    CardsDrawn: _on_cards_drawn,
    CardChosen: _on_card_chosen,
    LandscapePlaced: _on_landscape_placed,
    BuildingBuilt: _on_building_built,
    WorkCompleted: _on_work_completed,
    CardBought: _on_card_bought,
    FreedomIntroduced: _on_freedom_introduced,
    Recruited: _on_recruited,
    FameSold: _on_fame_sold,
    TurnEnded: _on_turn_ended,
    RoundEnded: _on_round_ended,
    PrestigeScored: _on_prestige_scored,
    GameEnded: _on_game_ended,
    FreedomsAdded: _on_freedoms_added,
    **characters.EVOLVE,
}

