"""The Muse and the Princess: the character auction that follows the normal auction
each round, and the characters' effects (docs/rules.md, "The Muse and the Princess").

The start player begins, then clockwise: a seat puts its marker on a character's bid
space or passes (out of this character auction). A marker on an occupied card must
bid higher and sends the lower marker home. A seat whose marker is still on a card
when its turn comes round wins the card: it pays its bid and takes the card (the
Banker's florins too); each seat wins at most one card a round. An unsold Banker
grows at the end; at the next character auction every card returns and a returned
Banker is reloaded.

The hooks elsewhere are small: the normal auction's end opens the character auction
(`evolve`), `pass` in this phase comes here (`auction`), and the Cardinal's action and
the Muse's work value are read through `extra_actions` and `extra_wv`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .checks import illegal, require_turn
from .commands import CharacterBid, Command, Pass
from .court import (
    CHARACTERS,
    CharacterBidPlaced,
    CharacterPassed,
    CharactersEnded,
    CharacterWon,
    Court,
)
from .ruleset import CourtRules, Rules
from .state import State, player

PHASE = "characters"
"""The phase of the character auction (between the auction and the action phase)."""


def new_court(rules: Rules, raise_next: bool) -> Court | None:
    """The court at the start of a game: None without the expansion."""
    if rules.court is None:
        return None
    return Court(rules.court.banker_start, raise_next=raise_next)


# --------------------------------------------------------------------------- deciding


def decide_bid(state: State, seat: int, cmd: CharacterBid) -> list[Any]:
    """The events of `bid CHARACTER AMOUNT`.

    Raises:
        IllegalMoveError: not the character auction or the seat's turn, an unknown
            character, a card already won, a bid off the card's spaces, not above the
            marker there, or more than the seat's florins.
    """
    court = state.court
    if court is None or state.phase != PHASE:
        where = "the character auction" if court is not None else "games with the expansion"
        raise illegal(f"a character is bid on in {where}; this is the {state.phase} phase",
                      "phase")
    require_turn(state, seat)
    rules = state.rules.court
    assert rules is not None
    if cmd.character not in CHARACTERS:
        raise illegal(f"{cmd.character!r} is not a character; the characters are "
                      f"{', '.join(CHARACTERS)}", "character-unknown")
    if court.holder(cmd.character) is not None:
        raise illegal(f"the {cmd.character} has been won this round", "character-won")
    low, high = rules.spaces[cmd.character]
    if cmd.amount % rules.bid_step or not low <= cmd.amount <= high:
        raise illegal(f"the {cmd.character}'s bid spaces are {low} to {high} in steps of "
                      f"{rules.bid_step}", "character-space")
    marker = court.marker(cmd.character)
    if marker is not None:
        wanted = marker[1] + rules.bid_step
        if court.raise_next and cmd.amount != wanted:
            raise illegal(f"the {cmd.character} holds a bid of {marker[1]}: bid the next "
                          f"space, {wanted}", "character-raise")
        if cmd.amount < wanted:
            raise illegal(f"the {cmd.character} holds a bid of {marker[1]}: bid at least "
                          f"{wanted}", "character-raise")
    florins = state.players[seat].florins
    if cmd.amount > florins:
        raise illegal(f"you have {florins} florins and may not bid more than you can pay "
                      "(fame is not sold in this expansion)", "character-cash")
    return [CharacterBidPlaced(seat, cmd.character, cmd.amount)]


def decide_pass(state: State, seat: int, cmd: Pass) -> list[Any]:
    """The event of `pass` in the character auction: out of it for this round."""
    require_turn(state, seat)
    return [CharacterPassed(seat)]


def automatic(state: State) -> list[Any]:
    """What follows by itself in the character auction: the seat to act wins the card
    its marker still lies on; with nobody left, the auction ends (an unsold Banker
    grows)."""
    court = state.court
    assert court is not None and state.rules.court is not None
    turn = state.turn
    if turn is None:
        banker = court.banker
        if court.holder("banker") is None:
            banker += state.rules.court.banker_growth
        return [CharactersEnded(state.round, banker)]
    mine = court.marker_of(turn)
    if mine is None:
        return []
    character, amount = mine
    return [CharacterWon(turn, character, amount, court.banker if character == "banker" else 0)]


def legal_bids(state: State, seat: int) -> list[Command]:
    """The character bids the seat may make now, then `pass` (the seat's turn in the
    character auction)."""
    court, rules = state.court, state.rules.court
    assert court is not None and rules is not None
    florins = state.players[seat].florins
    out: list[Command] = []
    for c in CHARACTERS:
        if court.holder(c) is not None:
            continue
        low, high = rules.spaces[c]
        marker = court.marker(c)
        if marker is not None:
            low = marker[1] + rules.bid_step
            if court.raise_next:
                high = min(high, low)
        out.extend(CharacterBid(c, a)
                   for a in range(low, min(high, florins) + 1, rules.bid_step))
    out.append(Pass())
    return out


# --------------------------------------------------------------------------- effects


def extra_actions(state: State, seat: int) -> int:
    """Actions the seat has this round beyond the rules' limit: 1 with the Cardinal."""
    court = state.court
    return 1 if court is not None and court.holder("cardinal") == seat else 0


def extra_wv(state: State, seat: int) -> int:
    """Work value the seat's works gain this round: the round number with the Muse."""
    court = state.court
    return state.round if court is not None and court.holder("muse") == seat else 0


# --------------------------------------------------------------------------- folding


def open_court(s: State) -> None:
    """The normal auction is over: the character auction begins with the start player.
    The cards held return; a returned Banker is reloaded."""
    court = s.court
    rules = s.rules.court
    assert court is not None and rules is not None
    banker = rules.banker_start if court.holder("banker") is not None else court.banker
    s.court = Court(banker, raise_next=court.raise_next)
    s.phase = PHASE
    s.turn = s.start


def _next(s: State, after: int, court: Court) -> int | None:
    n = len(s.players)
    for i in range(1, n + 1):
        seat = (after + i) % n
        if seat not in court.out:
            return seat
    return None


def _on_bid(s: State, e: CharacterBidPlaced) -> None:
    court = s.court
    assert court is not None
    markers = tuple(m for m in court.markers if m[0] != e.character)
    s.court = Court(court.banker, (*markers, (e.character, e.seat, e.amount)), court.held,
                    court.out, court.raise_next)
    s.turn = _next(s, e.seat, s.court)


def _on_passed(s: State, e: CharacterPassed) -> None:
    court = s.court
    assert court is not None
    s.court = Court(court.banker, court.markers, court.held, court.out | {e.seat},
                    court.raise_next)
    s.turn = _next(s, e.seat, s.court)


def _on_won(s: State, e: CharacterWon) -> None:
    court = s.court
    assert court is not None
    p = player(s, e.seat)
    p.florins += e.money - e.price
    markers = tuple(m for m in court.markers if m[0] != e.character)
    banker = 0 if e.character == "banker" else court.banker
    s.court = Court(banker, markers, (*court.held, (e.character, e.seat)),
                    court.out | {e.seat}, court.raise_next)
    s.turn = _next(s, e.seat, s.court)


def _on_ended(s: State, e: CharactersEnded) -> None:
    court = s.court
    assert court is not None
    s.court = Court(e.banker, (), court.held, court.out, court.raise_next)
    s.phase = "action"
    s.turn = s.start


EVOLVE: dict[type[Any], Callable[[State, Any], None]] = {
    CharacterBidPlaced: _on_bid,
    CharacterPassed: _on_passed,
    CharacterWon: _on_won,
    CharactersEnded: _on_ended,
}
"""The character events' folds, by event type (joined into `evolve.EVOLVE`)."""

__all__ = ["CHARACTERS", "EVOLVE", "PHASE", "CourtRules", "automatic", "decide_bid",
           "decide_pass", "extra_actions", "extra_wv", "legal_bids", "new_court",
           "open_court"]
