"""Deciding the auction phase: naming an object, bidding, passing, and the last
player's take."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import NotYourTurnError

from .characters import PHASE, decide_pass
from .checks import illegal, require_turn
from .commands import Bid, Command, Open, Pass, SkippedPass, Take
from .events import BID_PASSED, NAMING_DECLINED, Event, auction_won, bid_raised, object_named
from .queries import can_acquire, can_pay, fame_sold, object_error
from .state import State


def decide_auction(state: State, seat: int, cmd: Command) -> list[Event]:
    """The events of an auction command (open, bid, pass, take).

    Raises:
        IllegalMoveError: the command breaks an auction rule.
    """
    return AUCTION[type(cmd)](state, seat, cmd)


def _require_bidding_turn(state: State, seat: int, cmd: Command) -> None:
    if state.phase != "auction":
        raise illegal(f"{cmd.verb!r} belongs to the auction phase; "
                      f"this is the {state.phase} phase", "phase")
    if state.turn != seat:
        lot = state.lot
        if lot is not None and seat != state.high and state.in_auction(seat) \
                and not can_acquire(state, seat, lot):
            raise NotYourTurnError(f"the bidding on the {lot} skips you, as you cannot take "
                                   f"it: {object_error(state, seat, lot)}", "auction-skipped")
        require_turn(state, seat)


def skipped_bidder(state: State, seat: int) -> bool:
    """Whether the seat is a bidder whom the bidding on the lot out (or just sold)
    skips because they could not take it (R4, ruling R17), and who has not said pass
    on it: a `pass` from them is then recorded and changes nothing (ruling R18).

    Not the seat to act: that seat's `pass` is its own (after a sale, declining to
    name, R3)."""
    if state.phase != "auction" or state.turn == seat or seat in state.passed:
        return False
    lot = state.lot
    if lot is None:
        if state.sold is None:
            return False
        lot = state.sold[1]
    elif seat == state.high:
        return False
    return state.in_auction(seat) and not can_acquire(state, seat, lot)


def ambiguous_pass(state: State, seat: int) -> bool:
    """Whether a `pass` from the seat to act could mean two things: declining to name
    (R3), or as the last player to take (R2), as pbem reads it; or the seat's own pass
    on the object just sold, which the bidding skipped because they could not take it
    and on which they have not said pass (ruling R18), as a log written at a table
    may mean it, followed by the seat's naming. `SkippedPass` is the second reading."""
    sold = state.sold
    if sold is None or state.turn != seat or state.lot is not None \
            or state.pending is not None or state.phase != "auction" or seat in state.passed:
        return False
    return state.in_auction(seat) and not can_acquire(state, seat, sold[1])


def table_reading(state: State, seat: int, command: Command) -> SkippedPass | None:
    """`SkippedPass` for a `pass` that reads two ways (`ambiguous_pass`), else None
    (`engine.protocol.TableLog`: asked about every `pass` of a replayed log, so the
    common case, no object just sold, comes first)."""
    if state.sold is None or type(command) is not Pass or not ambiguous_pass(state, seat):
        return None
    return SkippedPass()


def _skipped_pass(state: State, seat: int, cmd: SkippedPass) -> list[Event]:
    if not ambiguous_pass(state, seat):
        raise illegal("a skipped bidder's pass is read this way only from the player to "
                      "name next, skipped on the object just sold", "auction-skipped-pass")
    return [BID_PASSED[seat]]


def _pass(state: State, seat: int, cmd: Pass) -> list[Event]:
    if state.turn == seat and state.phase == "auction":  # the common case: every check passes
        return [BID_PASSED[seat]] if state.lot is not None else [NAMING_DECLINED[seat]]
    if state.phase == PHASE:  # the expansion's character auction
        return decide_pass(state, seat, cmd)
    if state.turn != seat and skipped_bidder(state, seat):
        return [BID_PASSED[seat]]
    _require_bidding_turn(state, seat, cmd)
    return [BID_PASSED[seat]] if state.lot is not None else [NAMING_DECLINED[seat]]


def _last(state: State, seat: int) -> bool:
    """Whether the seat is the last one left in the auction phase, with no lot out
    (`auction_left(state) == [seat]`, without the list)."""
    if state.lot is not None or not state.in_auction(seat):
        return False
    for i, p in enumerate(state.players):
        if i != seat and not p.won and not p.out:
            return False
    return True


def _open(state: State, seat: int, cmd: Open) -> list[Event]:
    if state.turn != seat or state.phase != "auction":
        _require_bidding_turn(state, seat, cmd)
    rules = state.rules
    if state.lot is not None:
        raise illegal(f"the {state.lot} is being auctioned: bid "
                      f"{state.price + rules.raise_step} or pass", "auction-bidding")
    if _last(state, seat):
        raise illegal("you are the last player left: no auction is held; take an object "
                      f"for {rules.auction_open} ('take OBJECT') or pass", "auction-last")
    why = object_error(state, seat, cmd.obj)
    if why:
        raise illegal(why, "auction-open")
    return [object_named(seat, cmd.obj, rules.auction_open)]


def _take(state: State, seat: int, cmd: Take) -> list[Event]:
    if state.turn != seat or state.phase != "auction":
        _require_bidding_turn(state, seat, cmd)
    if not _last(state, seat):
        raise illegal("only the last player left in the auction phase takes an object "
                      "without an auction", "auction-take")
    why = object_error(state, seat, cmd.obj)
    if why:
        raise illegal(why, "auction-take")
    price = state.rules.auction_open
    sold = fame_sold(state.rules, state.players[seat], price)
    return [auction_won(seat, cmd.obj, price, sold, True)]


def _bid(state: State, seat: int, cmd: Bid) -> list[Event]:
    if state.turn != seat or state.phase != "auction":
        _require_bidding_turn(state, seat, cmd)
    if state.lot is None:
        raise illegal("no object is being auctioned: name one ('open OBJECT') or pass",
                      "auction-naming")
    rules = state.rules
    step = rules.raise_step
    want = state.price + step
    amount = cmd.amount
    if amount != want:
        raise illegal(f"a bid raises by exactly {step}: the next bid is {want}",
                      "auction-raise")
    p = state.players[seat]
    if amount > p.florins and not can_pay(rules, p, amount):  # cash covers it: it can
        raise illegal(f"you cannot pay {amount}, even by selling all your fame",
                      "auction-cash")
    return [bid_raised(seat, amount)]


AUCTION: dict[type[Any], Callable[[State, int, Any], list[Event]]] = {
    Pass: _pass,
    SkippedPass: _skipped_pass,
    Open: _open,
    Take: _take,
    Bid: _bid,
}
"""Each auction command's decision, by command type (its checks in full)."""
