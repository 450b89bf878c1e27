"""Questions about a state: who acts, what a seat could take or pay, what chance is
due. They read the variant's rules from the state and change nothing."""

from __future__ import annotations

from collections.abc import Iterable

from engine import decks
from engine.errors import IllegalMoveError, article

from .characters import extra_wv
from .commands import AddFreedoms, Deal, Draw
from .ruleset import FREEDOMS, LANDSCAPE_LOT, LANDSCAPES, Rules
from .scoring import bonus_value, prestige_points, work_value
from .state import CHANCE, CHANCE_KINDS, FREEDOMS_DUE, Pending, Player, State, replace


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may act now (CHANCE when a deal or draw is due)."""
    if state.phase == "over":
        return ()
    if state.pending is not None:
        if state.pending.kind in CHANCE_KINDS:
            return (CHANCE,)
        return (state.pending.seat,)
    if state.phase == "keep":
        return tuple(i for i, p in enumerate(state.players) if p.dealt)
    return () if state.turn is None else (state.turn,)


def auction_left(state: State) -> list[int]:
    """Seats still in this round's auction phase."""
    return [i for i in range(len(state.players)) if state.in_auction(i)]


def can_acquire(state: State, seat: int, obj: str) -> bool:
    """True if the seat could take `obj` at all (ruling R4; a landscape needs room)."""
    p = state.players[seat]
    if obj == "builder":
        return p.builders < state.rules.limits["max_builders"]
    if obj in LANDSCAPES:
        grid = state.rules.grid
        return grid.fits(obj, grid.playable & ~p.occupied)
    if obj == LANDSCAPE_LOT:
        return bool(lot_landscapes(state, seat))
    return True


def lot_landscapes(state: State, seat: int) -> list[str]:
    """The landscape types the seat could take as the landscape lot: those left in
    their stacks that fit in its principality."""
    grid = state.rules.grid
    zone = grid.playable & ~state.players[seat].occupied
    return [t for t in LANDSCAPES if state.stacks[t] > 0 and grid.fits(t, zone)]


def stack_open(state: State, obj: str) -> bool:
    """True if the stack has an object and has not given one this round."""
    if obj in state.marked:
        return False
    if obj == "prestige":
        return decks.deck_size(state.decks["prestige"]) > 0
    if obj == LANDSCAPE_LOT:
        return any(state.stacks[t] > 0 for t in LANDSCAPES)
    return state.stacks[obj] > 0


def can_pay(rules: Rules, p: Player, amount: int) -> bool:
    """Cash plus what selling all fame would bring covers the amount (ruling R5); cash
    alone where fame may not be sold (The Muse and the Princess)."""
    if not rules.fame_for_money:
        return amount <= p.florins
    return amount <= p.florins + p.fame * rules.fame_step_florins


def fame_sold(rules: Rules, p: Player, price: int) -> int:
    """The fame steps a player sells to pay `price` (none while cash covers it)."""
    short = price - p.florins
    if short <= 0:
        return 0
    return -(-short // rules.fame_step_florins)


def object_error(state: State, seat: int, obj: str) -> str | None:
    """Why the seat may not name or take `obj` in the auction now, or None."""
    objects = state.rules.objects
    if obj not in objects:
        if obj in LANDSCAPES and LANDSCAPE_LOT in objects:
            return (f"the landscapes are auctioned as one lot: name the {LANDSCAPE_LOT} "
                    "('open landscape'); its winner chooses the type when placing it")
        if obj == LANDSCAPE_LOT:
            return "name a landscape by its type: forest, lake or park"
        return f"{obj!r} is not an auction object"
    if obj in state.marked:
        if obj == LANDSCAPE_LOT:
            return "the landscape lot is sold this round: no other landscape may be taken"
        return f"the {obj} stack has already given an object this round"
    if not stack_open(state, obj):
        return f"the {obj} stack is empty"
    if not can_acquire(state, seat, obj):
        if obj == "builder":
            most = state.rules.limits["max_builders"]
            return f"you have {most} builders already and may not take another"
        if obj == LANDSCAPE_LOT:
            return "there is no room in your principality for any landscape left"
        return f"there is no room in your principality for {article(obj)}"
    opening = state.rules.auction_open
    if not can_pay(state.rules, state.players[seat], opening):
        return f"you cannot pay {opening} florins, even by selling fame"
    return None


def played(p: Player, profession: str, bonuses: Iterable[str]) -> Player:
    """The player once the profession is laid from hand and the bonus cards spent."""
    hand = list(p.hand)
    hand.remove(profession)
    spent = set(bonuses)
    return replace(
        p, hand=tuple(hand), table=(*p.table, profession),
        bonus_hand=tuple(b for b in p.bonus_hand if b not in spent),
    )


def bidders(state: State) -> tuple[int, ...]:
    """The seats that may still bid on the lot out, the next to bid first: in the
    auction phase, not the high bidder, not passed on this lot, able to take it (the
    order and the tests of `evolve`'s next bidder)."""
    lot = state.lot
    if state.phase != "auction" or lot is None:
        return ()
    n = len(state.players)
    first = state.high if state.turn is None else state.turn - 1
    assert first is not None
    out = []
    for i in range(1, n + 1):
        s = (first + i) % n
        if s != state.high and s not in state.passed and state.in_auction(s) \
                and can_acquire(state, s, lot):
            out.append(s)
    return tuple(out)


def hand_work_values(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """The work value each profession in the seat's hand would reach in a work now,
    with no bonus card, as `actions` counts it (the Muse's extra included)."""
    p = state.players[seat]
    extra = extra_wv(state, seat)
    return tuple((prof, work_value(state.rules, played(p, prof, ()), prof, ()) + extra)
                 for prof in dict.fromkeys(p.hand))


def hand_bonus_values(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """What each bonus card in the seat's hand would add to a work completed now (the
    same for every profession: one card moves from hand to table)."""
    p = state.players[seat]
    if p.hand:
        p = played(p, p.hand[0], ())
    return tuple((b, bonus_value(state.rules, p, b)) for b in p.bonus_hand)


def hand_prestige_values(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """The fame each prestige card in the seat's hand would score if the game ended
    now (the holder's own card, against everyone's public display)."""
    return tuple((c, prestige_points(state.rules, state.players, seat, c))
                 for c in state.players[seat].prestige_hand)


def chance_due(state: State) -> Pending | None:
    """The deal, draw or freedoms (2 players, at setup) that chance must state next, if
    any."""
    if state.pending is not None and state.pending.kind in CHANCE_KINDS:
        return state.pending
    return None


def seeded_chance(state: State, seed: str) -> Deal | Draw | AddFreedoms:
    """The deal, draw or freedoms that the seed gives at this point of the game.

    Raises:
        IllegalMoveError: no deal or draw is due.
    """
    due = chance_due(state)
    if due is None:
        raise IllegalMoveError("no deal or draw is due now", "chance")
    if due.kind == FREEDOMS_DUE:
        key = decks.draw_key(seed, state.version, FREEDOMS_DUE)
        return AddFreedoms(decks.sample(decks.new_deck(FREEDOMS), due.n, key))
    deck = state.decks[due.deck]
    name = state.players[due.seat].name
    key = decks.draw_key(seed, state.version, f"{due.kind}:{due.deck}:{name}")
    cards = decks.sample(deck, due.n, key)
    if due.kind == "deal":
        return Deal(name, cards)
    return Draw(name, due.deck, cards)
