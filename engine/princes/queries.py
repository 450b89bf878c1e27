"""Questions about a state: who acts, what a seat could take or pay, what chance is
due. They read the variant's rules from the state and change nothing."""

from __future__ import annotations

from collections.abc import Iterable

from engine import decks
from engine.errors import IllegalMoveError

from .commands import Deal, Draw
from .ruleset import LANDSCAPES, OBJECTS, Rules
from .state import CHANCE, Pending, Player, State, replace


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may act now (CHANCE when a deal or draw is due)."""
    if state.phase == "over":
        return ()
    if state.pending is not None:
        if state.pending.kind in ("deal", "draw"):
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
    return True


def stack_open(state: State, obj: str) -> bool:
    """True if the stack has an object and has not given one this round."""
    if obj in state.marked:
        return False
    if obj == "prestige":
        return decks.deck_size(state.decks["prestige"]) > 0
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
    if obj not in OBJECTS:
        return f"{obj!r} is not an auction object"
    if obj in state.marked:
        return f"the {obj} stack has already given an object this round"
    if not stack_open(state, obj):
        return f"the {obj} stack is empty"
    if not can_acquire(state, seat, obj):
        if obj == "builder":
            most = state.rules.limits["max_builders"]
            return f"you have {most} builders already and may not take another"
        return f"there is no room in your principality for a {obj}"
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


def chance_due(state: State) -> Pending | None:
    """The deal or draw that must be stated next, if any."""
    if state.pending is not None and state.pending.kind in ("deal", "draw"):
        return state.pending
    return None


def seeded_chance(state: State, seed: str) -> Deal | Draw:
    """The deal or draw that the seed gives at this point of the game.

    Raises:
        IllegalMoveError: no deal or draw is due.
    """
    due = chance_due(state)
    if due is None:
        raise IllegalMoveError("no deal or draw is due now", "chance")
    deck = state.decks[due.deck]
    name = state.players[due.seat].name
    key = decks.draw_key(seed, state.version, f"{due.kind}:{due.deck}:{name}")
    cards = decks.sample(deck, due.n, key)
    if due.kind == "deal":
        return Deal(name, cards)
    return Draw(name, due.deck, cards)
