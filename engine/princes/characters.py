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
from dataclasses import replace
from typing import Any

from engine import decks

from .checks import illegal, require_action, require_turn
from .commands import CharacterBid, Command, Pass, Use
from .court import (
    CHARACTERS,
    CharacterBidPlaced,
    CharacterPassed,
    CharactersEnded,
    CharacterUsed,
    CharacterWon,
    Court,
    PrincessWork,
)
from .ruleset import CourtRules, Rules
from .state import Pending, State, player

PHASE = "characters"
"""The phase of the character auction (between the auction and the action phase)."""


def new_court(rules: Rules, started: Any) -> Court | None:
    """The court at the start of a game (`started`: its first event, with the
    expansion's options): None without the expansion."""
    if rules.court is None:
        return None
    return Court(rules.court.banker_start, raise_next=started.character_raise == "next",
                 merchant_ties_behind=started.merchant_points == "level",
                 muse_princess=started.muse_princess == "yes")


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


def merchant_fame(state: State, seat: int) -> int:
    """The Merchant's fame: 1 + each opponent with more fame ([WK]; option
    MerchantPoints `ahead`), or with as much or more (`level`: the place on the fame
    track [GR], ties counted behind)."""
    court = state.court
    assert court is not None
    mine = state.players[seat].fame
    level = court.merchant_ties_behind
    return 1 + sum(1 for i, p in enumerate(state.players)
                   if i != seat and (p.fame > mine or level and p.fame == mine))


def merchant_refund(court: Court, seat: int) -> int | None:
    """The price of the object the seat won since it took the Merchant, or None."""
    for s, price in court.paid:
        if s == seat:
            return price
    return None


def note_price(s: State, seat: int, price: int) -> None:
    """Fold of an object won, in a game with the expansion: its price is kept for the
    Merchant (the first object each seat wins after a character auction)."""
    court = s.court
    assert court is not None
    if merchant_refund(court, seat) is None:
        s.court = replace(court, paid=(*court.paid, (seat, price)))


def princess_wv(state: State, seat: int) -> int:
    """The Princess's work value: per landscape, builder, building and profession or
    recruiting card (rules data); the Muse's round too if the option says so."""
    court, rules = state.court, state.rules.court
    assert court is not None and rules is not None
    p = state.players[seat]
    per = rules.princess
    wv = (per["landscape"] * len(p.landscapes) + per["builder"] * p.builders
          + per["building"] * len(p.buildings)
          + per["card"] * (p.hand_cards() + p.table_cards()))
    if court.muse_princess:
        wv += extra_wv(state, seat)
    return wv


def decide_use(state: State, seat: int, cmd: Use) -> list[Any]:
    """The events of `use CHARACTER ...`.

    Raises:
        IllegalMoveError: no expansion, the card not held or used already, or the
            effect's own conditions (the Princess's: a work action on one's turn).
    """
    court = state.court
    if court is None:
        raise illegal("characters are used in games with The Muse and the Princess", "use")
    if cmd.character not in USABLE:
        raise illegal(f"'use' takes {', '.join(USABLE)}, not {cmd.character!r}",
                      "use-character")
    if court.holder(cmd.character) != seat:
        raise illegal(f"you do not hold the {cmd.character}", "use-holder")
    if cmd.character in court.used:
        raise illegal(f"you have used the {cmd.character} already", "use-once")
    if cmd.character == "banker":
        return _banker(state, seat, cmd)
    if cmd.character == "professor":
        if cmd.what not in ("bonus", "prestige"):
            raise illegal("the professor gives a bonus or a prestige card: "
                          "'use professor bonus' or 'use professor prestige'", "use-professor")
        if not decks.deck_size(state.decks[cmd.what]):
            raise illegal(f"the {cmd.what} deck is empty", "use-professor")
        return [CharacterUsed(seat, "professor", cmd.what)]
    if cmd.character == "merchant":
        if cmd.what == "pp":
            return [CharacterUsed(seat, "merchant", "pp", merchant_fame(state, seat))]
        if cmd.what != "free":
            raise illegal("write 'use merchant pp' or 'use merchant free'", "use-merchant")
        price = merchant_refund(court, seat)
        if price is None:
            raise illegal("the merchant makes free the next object you win at auction: "
                          "win one first", "use-merchant")
        return [CharacterUsed(seat, "merchant", "free", florins=price)]
    require_action(state, seat, "work")
    wv = princess_wv(state, seat)
    minimum = state.rules.min_wv[state.round - 1]
    if wv < minimum:
        raise illegal(f"the princess's work is worth {wv} and round {state.round} needs at "
                      f"least {minimum}", "work-minimum")
    payment = wv * 100
    most = payment // state.rules.florins_per_pp
    if not 0 <= cmd.pp <= most:
        raise illegal(f"a payment of {payment} converts into 0 to {most} fame", "work-pp")
    return [PrincessWork(seat, wv, payment, cmd.pp)]


def _banker(state: State, seat: int, cmd: Use) -> list[Any]:
    """`use banker pp N`: the Banker won in the last round turns florins into fame."""
    rules = state.rules
    if state.round != rules.rounds:
        raise illegal(f"the banker turns florins into fame only when won in round "
                      f"{rules.rounds}, the last", "use-banker")
    rate = rules.florins_per_pp
    if cmd.pp < 1 or cmd.pp * rate > state.players[seat].florins:
        raise illegal(f"you may turn florins into 1 to {state.players[seat].florins // rate} "
                      f"fame, at {rate} florins a point", "use-banker")
    return [CharacterUsed(seat, "banker", "pp", fame=cmd.pp, florins=-cmd.pp * rate)]


def legal_uses(state: State, seat: int) -> list[Command]:
    """The `use` commands the seat may give now (nothing pending)."""
    court = state.court
    if court is None or state.phase == "over":
        return []
    out: list[Command] = []
    held = court.held_by(seat)
    for c in held:
        if c in court.used:
            continue
        if c == "banker" and state.round == state.rules.rounds:
            rate = state.rules.florins_per_pp
            out.extend(Use(c, "pp", n)
                       for n in range(1, state.players[seat].florins // rate + 1))
        elif c == "professor":
            out.extend(Use(c, d) for d in ("bonus", "prestige")
                       if decks.deck_size(state.decks[d]))
        elif c == "merchant":
            out.append(Use(c, "pp"))
            if merchant_refund(court, seat) is not None:
                out.append(Use(c, "free"))
        elif c == "princess" and state.phase == "action" and state.turn == seat:
            p = state.players[seat]
            limits = state.rules.limits
            if p.actions < limits["actions"] + extra_actions(state, seat) \
                    and p.used.get("work", 0) < limits["work"]:
                wv = princess_wv(state, seat)
                if wv >= state.rules.min_wv[state.round - 1]:
                    most = wv * 100 // state.rules.florins_per_pp
                    out.extend(Use(c, "", pp) for pp in range(most + 1))
    return out


USABLE = ("banker", "professor", "merchant", "princess")
"""The characters used by a command (the others act by themselves)."""


# --------------------------------------------------------------------------- folding


def open_court(s: State) -> None:
    """The normal auction is over: the character auction begins with the start player.
    The cards held return; a returned Banker is reloaded."""
    court = s.court
    rules = s.rules.court
    assert court is not None and rules is not None
    banker = rules.banker_start if court.holder("banker") is not None else court.banker
    s.court = replace(court, banker=banker, markers=(), held=(), out=frozenset(), used=(),
                      paid=())
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
    s.court = replace(court, markers=(*markers, (e.character, e.seat, e.amount)))
    s.turn = _next(s, e.seat, s.court)


def _on_passed(s: State, e: CharacterPassed) -> None:
    court = s.court
    assert court is not None
    s.court = replace(court, out=court.out | {e.seat})
    s.turn = _next(s, e.seat, s.court)


def _on_won(s: State, e: CharacterWon) -> None:
    court = s.court
    assert court is not None
    p = player(s, e.seat)
    p.florins += e.money - e.price
    markers = tuple(m for m in court.markers if m[0] != e.character)
    banker = 0 if e.character == "banker" else court.banker
    s.court = replace(court, banker=banker, markers=markers,
                      held=(*court.held, (e.character, e.seat)), out=court.out | {e.seat})
    s.turn = _next(s, e.seat, s.court)


def _on_ended(s: State, e: CharactersEnded) -> None:
    court = s.court
    assert court is not None
    s.court = replace(court, banker=e.banker, markers=())
    s.phase = "action"
    s.turn = s.start


def _on_used(s: State, e: CharacterUsed) -> None:
    court = s.court
    assert court is not None
    if e.character != "banker":  # the Banker's conversion may be repeated
        s.court = replace(court, used=(*court.used, e.character))
    p = player(s, e.seat)
    p.fame += e.fame
    p.florins += e.florins
    if e.character == "professor":
        n = min(s.rules.draw, decks.deck_size(s.decks[e.what]))
        s.pending = Pending("draw", e.seat, e.what, n)


def _on_princess_work(s: State, e: PrincessWork) -> None:
    court = s.court
    assert court is not None
    s.court = replace(court, used=(*court.used, "princess"))
    p = player(s, e.seat)
    p.florins += e.payment - e.pp * s.rules.florins_per_pp
    p.fame += e.pp
    p.best_wv = max(p.best_wv, e.wv)
    p.actions += 1
    used = dict(p.used)
    used["work"] = used.get("work", 0) + 1
    p.used = used


EVOLVE: dict[type[Any], Callable[[State, Any], None]] = {
    CharacterBidPlaced: _on_bid,
    CharacterPassed: _on_passed,
    CharacterWon: _on_won,
    CharactersEnded: _on_ended,
    CharacterUsed: _on_used,
    PrincessWork: _on_princess_work,
}
"""The character events' folds, by event type (joined into `evolve.EVOLVE`)."""

__all__ = ["CHARACTERS", "EVOLVE", "PHASE", "USABLE", "CourtRules", "automatic", "decide_bid",
           "decide_pass", "decide_use", "extra_actions", "extra_wv", "legal_bids", "legal_uses",
           "merchant_fame", "new_court", "open_court", "princess_wv"]
