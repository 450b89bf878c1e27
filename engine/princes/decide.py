"""Deciding a command: the checks every command passes (game over, chance, a pending
choice or placement, setup), then the auction or the action phase; and the events
that follow by themselves. `apply_in_place` decides and folds into the state it is
given (the replay path); `apply` runs it on a copy that shares what it does not
change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from engine import decks
from engine.errors import ChanceError, GameOverError, IllegalMoveError, NotYourTurnError

from . import characters
from .actions import ACTIONS, decide_action
from .auction import AUCTION, decide_auction, skipped_bidder
from .checks import illegal, placement_error
from .commands import (
    AddFreedoms,
    Agree,
    Bid,
    CharacterBid,
    Choose,
    Command,
    Deal,
    Draw,
    Keep,
    Open,
    Pass,
    Place,
    Refuse,
    Sell,
    SkippedPass,
    Take,
    Undo,
    Use,
)
from .events import (
    BID_PASSED,
    TURN_ENDED,
    AuctionEnded,
    CardChosen,
    CardsDrawn,
    Event,
    FameSold,
    FreedomsAdded,
    GameEnded,
    LandscapePlaced,
    PrestigeScored,
    ProfessionsDealt,
    ProfessionsKept,
    RoundEnded,
    RoundStarted,
    auction_won,
)
from .evolve import EVOLVE
from .queries import chance_due, fame_sold
from .ruleset import FREEDOMS, LANDSCAPE_LOT, LANDSCAPES
from .scoring import prestige_points
from .state import CHANCE_KINDS, FREEDOMS_DUE, Pending, Player, State, shared_copy


def decide(state: State, seat: int, cmd: Command) -> list[Event]:
    """The events a command causes, followed by those that follow automatically.

    `seat` is the acting player (ignored for deals and draws, which chance makes).

    Raises:
        IllegalMoveError: the command breaks a rule (NotYourTurnError, GameOverError
            and ChanceError are kinds of it). The state is never changed.
    """
    return apply(state, seat, cmd)[1]


def apply(state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
    """Decide a command and fold its events: the new state and the events; `state`
    is never changed.

    Raises:
        IllegalMoveError: as `decide`.
    """
    new = shared_copy(state)  # its players are copied when first changed
    return new, apply_in_place(new, seat, cmd)


def apply_in_place(state: State, seat: int, cmd: Command) -> list[Event]:
    """Decide a command and fold its events, and those that follow automatically,
    into `state` itself: the events. The checks all come before the first change, so
    a refused command changes nothing.

    Raises:
        IllegalMoveError: as `decide`; `state` is unchanged then.
    """
    kind = type(cmd)
    step = _PLAY.get(kind)
    pending = state.pending
    if step is not None and pending is None and state.phase in _PLAYING \
            and 0 <= seat < len(state.players):
        # The common cases, each in one lookup (what `_decide` would find, in the same
        # order): an auction or action command with nothing due first, a deal or draw,
        # a choice or placement due from the seat.
        events = step(state, seat, cmd)
    elif kind in _CHANCE_STEPS and state.phase != "over":
        events = _decide_chance(state, cast(Deal | Draw, cmd))
    elif pending is not None and kind in _PENDING_STEPS and state.phase != "over" \
            and 0 <= seat < len(state.players):
        events = _decide_pending(state, pending, seat, cmd)
    else:
        events = _decide(state, seat, cmd)
    handlers = EVOLVE  # evolve_in_place, inlined: decided events are never Reverted
    for e in events:  # (no handler reads the version: it is counted once per batch)
        handlers[type(e)](state, e)
    state.version += len(events)
    while True:
        # `automatic`'s common cases first: nothing follows a step pending, a bidder
        # or namer to act, or an action player with actions left; the turn of one
        # with none left ends (as `_action_automatic` says, with no court).
        if state.pending is not None:
            return events
        turn = state.turn
        if turn is None:
            more = automatic(state)
        elif state.phase == "auction":
            return events
        elif state.phase == "action" and state.court is None:
            if state.players[turn].actions < state.rules.limits["actions"]:
                return events
            more = [TURN_ENDED[turn]]
        else:
            more = automatic(state)
        if not more:
            return events
        for e in more:
            handlers[type(e)](state, e)
        state.version += len(more)
        events += more


def _decide(state: State, seat: int, cmd: Command) -> list[Event]:
    """The events of any command but the common case of `apply_in_place`."""
    if state.phase == "over":
        raise GameOverError("the game is over", "over")
    if isinstance(cmd, (Deal, Draw)):
        return _decide_chance(state, cmd)
    if isinstance(cmd, AddFreedoms):
        return _decide_freedoms(state, cmd)
    if isinstance(cmd, (Undo, Agree, Refuse)):
        raise IllegalMoveError(f"'{cmd.verb}' is decided by engine.undo.play, which knows "
                               "the last command and the pending request", "undo")
    if not 0 <= seat < len(state.players):
        raise IllegalMoveError("unknown seat", "seat")
    if isinstance(cmd, Sell):
        return _decide_sell(state, seat, cmd)
    if isinstance(cmd, Pass) and skipped_bidder(state, seat):
        return [BID_PASSED[seat]]  # said while the winner places or draws (R18)
    if isinstance(cmd, CharacterBid):
        return characters.decide_bid(state, seat, cmd)
    if state.pending is not None:
        return _decide_pending(state, state.pending, seat, cmd)
    if isinstance(cmd, (Choose, Place)):
        raise illegal(f"there is nothing to {cmd.verb} now", cmd.verb)
    if isinstance(cmd, Use):
        return characters.decide_use(state, seat, cmd)
    if isinstance(cmd, Keep):
        return _decide_keep(state, seat, cmd)
    if state.phase in ("deal", "keep"):
        kept = state.rules.professions_kept
        raise illegal(f"the game starts once every player has kept {kept} professions",
                      "setup")
    if isinstance(cmd, (Open, Bid, Pass, Take, SkippedPass)):
        return decide_auction(state, seat, cmd)
    return decide_action(state, seat, cmd)


def _decide_chance(state: State, cmd: Deal | Draw) -> list[Event]:
    due = chance_due(state)
    if due is None:
        raise ChanceError("no deal or draw is due here", "chance")
    if due.kind == FREEDOMS_DUE:
        raise ChanceError(f"the {due.n} freedoms added to the supply are due here "
                          "('* freedoms: ...')", "chance")
    seat = due.seat
    name = state.players[seat].name
    if isinstance(cmd, Deal) != (due.kind == "deal"):
        want = f"a deal to {name}" if due.kind == "deal" else f"a {due.deck} draw by {name}"
        raise ChanceError(f"{want} is due here", "chance")
    if cmd.player != name:
        seat = _undealt(state, cmd.player) if due.kind == "deal" else -1
        if seat < 0:
            raise ChanceError(f"the {due.kind} due here is {name}'s, not {cmd.player}'s",
                              "chance")
    if isinstance(cmd, Draw) and cmd.deck != due.deck:
        raise ChanceError(f"{name} draws from the {due.deck} deck here, not {cmd.deck}",
                          "chance")
    rules = state.rules
    valid = rules.professions if due.deck == "profession" else (
        rules.prestige if due.deck == "prestige" else rules.bonus)
    for c in cmd.cards:
        if c not in valid:
            raise ChanceError(f"{c!r} is not a {due.deck} card", "chance")
    why = decks.draw_error(state.decks[due.deck], cmd.cards, due.n)
    if why:
        raise ChanceError(why, "chance-deck")
    if due.kind == "deal":
        return [ProfessionsDealt(seat, cmd.cards)]
    return [CardsDrawn(seat, due.deck, cmd.cards)]


def _undealt(state: State, name: str) -> int:
    """The seat of a player not yet dealt professions, or -1: the deals at setup may
    be stated in any order (the seed makes them in seat order)."""
    for i, p in enumerate(state.players):
        if p.name == name:
            return -1 if p.dealt else i
    return -1


def _decide_freedoms(state: State, cmd: AddFreedoms) -> list[Event]:
    """The 2-player game's setup: the freedoms added to one of each type [GR][WK]."""
    due = chance_due(state)
    if due is None or due.kind != FREEDOMS_DUE:
        raise ChanceError("no freedoms are added to the supply here", "chance")
    for f in cmd.freedoms:
        if f not in FREEDOMS:
            raise ChanceError(f"{f!r} is not a freedom", "chance")
    if len(cmd.freedoms) != due.n:
        raise ChanceError(f"{due.n} freedoms are added to the supply, not "
                          f"{len(cmd.freedoms)}", "chance-freedoms")
    if len(set(cmd.freedoms)) != len(cmd.freedoms):
        raise ChanceError("the freedoms added are each of another type", "chance-freedoms")
    return [FreedomsAdded(cmd.freedoms)]


def _decide_sell(state: State, seat: int, cmd: Sell) -> list[Event]:
    p = state.players[seat]
    if not state.rules.fame_for_money:
        raise illegal("fame may not be sold for money in The Muse and the Princess", "sell")
    if cmd.steps < 1:
        raise illegal("sell at least 1 step of fame", "sell")
    if cmd.steps > p.fame:
        raise illegal(f"you have {p.fame} fame; fame never goes below 0", "sell")
    return [FameSold(seat, cmd.steps)]


def _decide_pending(state: State, pending: Pending, seat: int, cmd: Command) -> list[Event]:
    """A command while a deal, draw, choice or placement is due first."""
    if pending.kind in CHANCE_KINDS:
        if pending.kind == FREEDOMS_DUE:
            raise NotYourTurnError("the freedoms added to the supply are due first",
                                   "chance")
        raise NotYourTurnError(f"a {pending.kind} for {state.players[pending.seat].name} "
                               "is due first", "chance")
    if pending.seat != seat:
        raise NotYourTurnError(f"{state.players[pending.seat].name} must first "
                               f"{pending.kind} a {pending.tile or 'card'}", "turn")
    if pending.kind == "choose":
        if not isinstance(cmd, Choose):
            raise illegal(f"first keep one of the {pending.deck} cards you drew "
                          "('choose CARD')", "choose")
        if cmd.card not in pending.cards:
            raise illegal(f"{cmd.card!r} is not among the cards you drew", "choose")
        returned = tuple([c for c in pending.cards if c != cmd.card])
        return [CardChosen(seat, pending.deck, cmd.card, returned)]
    if not isinstance(cmd, Place):
        raise illegal(f"first place the {pending.tile} you won ('place {pending.tile} "
                      "CELLS')", "place")
    if pending.tile == LANDSCAPE_LOT:
        _check_lot_type(state, cmd.landscape)
    elif cmd.landscape != pending.tile:
        raise illegal(f"you won a {pending.tile}, not a {cmd.landscape}", "place")
    p = state.players[seat]
    why = placement_error(state.rules, p, cmd.landscape, cmd.cells, building=False)
    if why:
        raise illegal(why, "place-placement")
    fame = state.rules.fame_extra_landscape if p.count_landscape(cmd.landscape) else 0
    return [LandscapePlaced(seat, cmd.landscape, cmd.cells, fame)]


def _check_lot_type(state: State, landscape: str) -> None:
    """The winner of the landscape lot chooses a type still in its stack (2 players)."""
    if state.stacks[landscape] <= 0:
        left = [t for t in LANDSCAPES if state.stacks[t] > 0]
        raise illegal(f"the {landscape} stack is empty; choose from: {', '.join(left)}",
                      "place-lot")


def _decide_keep(state: State, seat: int, cmd: Keep) -> list[Event]:
    p = state.players[seat]
    if state.phase != "keep" or not p.dealt:
        raise illegal("professions are kept once, right after the deal", "keep")
    kept = state.rules.professions_kept
    if len(cmd.cards) != kept or len(set(cmd.cards)) != len(cmd.cards):
        raise illegal(f"keep {kept} different professions", "keep")
    for c in cmd.cards:
        if c not in p.dealt:
            raise illegal(f"{c!r} was not dealt to you", "keep")
    returned = tuple([c for c in p.dealt if c not in cmd.cards])
    return [ProfessionsKept(seat, cmd.cards, returned)]


_PLAY: dict[type[Any], Callable[[State, int, Any], list[Event]]] = {
    **AUCTION, **ACTIONS, CharacterBid: characters.decide_bid}
"""The auction and action commands' decisions by command type (see `apply_in_place`)."""

_CHANCE_STEPS = frozenset((Deal, Draw))
"""The chance commands that `_decide_chance` decides."""

_PENDING_STEPS = frozenset((Choose, Place))
"""The commands that answer a pending choice or placement (`_decide_pending`)."""

_PLAYING = frozenset(("auction", "action", "roundend", "scored", characters.PHASE))
"""The phases past setup and before the end (where `_PLAY` applies)."""


# --------------------------------------------------------------------------- automatic


def automatic(state: State) -> list[Event]:
    """The events that follow by themselves from this state, if any."""
    if state.pending is not None:
        return []
    phase = state.phase
    if phase == "action":
        return _action_automatic(state)
    if phase == "auction":
        if state.turn is not None:  # the common case first
            return []
        if state.lot is None:
            return [AuctionEnded(state.round)]
        assert state.high is not None
        p = state.players[state.high]
        return [auction_won(state.high, state.lot, state.price,
                            fame_sold(state.rules, p, state.price))]
    if phase == characters.PHASE:
        return characters.automatic(state)
    if phase == "keep":
        return [RoundStarted(1, 0)] if all(not p.dealt for p in state.players) else []
    if phase == "roundend":
        if state.round < state.rules.rounds:
            return [RoundStarted(state.round + 1, (state.start + 1) % len(state.players))]
        rules, players = state.rules, state.players
        out: list[Event] = [
            PrestigeScored(seat, card, prestige_points(rules, players, seat, card))
            for seat, p in enumerate(players) for card in p.prestige_hand
        ]
        return out or [_game_ended(players)]
    if phase == "scored":
        return [_game_ended(state.players)]
    return []


def _action_automatic(state: State) -> list[Event]:
    players = state.players
    turn = state.turn
    if turn is not None:
        limit = state.rules.limits["actions"]
        if state.court is not None:
            limit += characters.extra_actions(state, turn)
        if players[turn].actions >= limit:
            return [TURN_ENDED[turn]]
        return []
    best = max(p.best_wv for p in players)
    seats = tuple(i for i, p in enumerate(players) if best and p.best_wv == best)
    return [RoundEnded(state.round, seats, best)]


def _game_ended(players: Sequence[Player]) -> GameEnded:
    """Most fame wins, then most florins; a tie that remains is shared (R16)."""
    final = [(p.fame, p.florins) for p in players]
    top = max(final)
    return GameEnded(tuple(i for i, f in enumerate(final) if f == top))
