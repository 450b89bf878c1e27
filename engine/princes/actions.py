"""Deciding the action phase: done, recruit, build, work, take a card, introduce a
freedom."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import decks
from engine.errors import article

from .characters import extra_wv
from .checks import illegal, placement_error, require_action, require_action_turn, require_cash
from .commands import Build, Command, Done, Freedom, Recruit, TakeBonus, TakeProfession, Work
from .events import (
    TURN_ENDED,
    BuildingBuilt,
    CardBought,
    Event,
    FreedomIntroduced,
    Recruited,
    WorkCompleted,
)
from .queries import played
from .ruleset import FREEDOMS
from .scoring import work_value
from .state import State


def decide_action(state: State, seat: int, cmd: Command) -> list[Event]:
    """The events of an action-phase command.

    Raises:
        IllegalMoveError: the command breaks a rule of the action phase.
    """
    return ACTIONS[type(cmd)](state, seat, cmd)


def _done(state: State, seat: int, cmd: Done) -> list[Event]:
    if state.turn != seat or state.phase != "action":
        require_action_turn(state, seat)
    return [TURN_ENDED[seat]]


def recruits_now(state: State, seat: int) -> bool:
    """Whether the seat has just won a recruiting card and may use it at once, out of
    its action turn (ruling R19): after the sale, before anyone names the next object
    or declines to, or, when that sale ended the auction phase, before anyone takes an
    action or ends a turn. Another recruit ends this moment too."""
    sold = state.sold
    if sold is None or sold[0] != seat or sold[1] != "recruiting":
        return False
    if state.phase == "auction":
        return True
    return state.phase == "action" and state.turn != seat \
        and all(not p.actions and not p.turn_done for p in state.players)


def _recruit(state: State, seat: int, cmd: Recruit) -> list[Event]:
    p = state.players[seat] if recruits_now(state, seat) else require_action_turn(state, seat)
    if p.recruiting < 1:
        raise illegal("you have no recruiting card", "recruit-card")
    try:
        victim = state.seat_of(cmd.victim)
    except KeyError:
        raise illegal(f"there is no player {cmd.victim!r}", "recruit-player") from None
    if victim == seat:
        raise illegal("you may not recruit your own profession", "recruit-own")
    if cmd.profession not in state.players[victim].table:
        raise illegal(f"{cmd.victim} has no {cmd.profession} face up on the table",
                      "recruit-face-up")
    return [Recruited(seat, cmd.profession, victim)]


def _build(state: State, seat: int, cmd: Build) -> list[Event]:
    p = require_action(state, seat, "build")
    rules = state.rules
    b = cmd.building
    if b not in rules.buildings:
        raise illegal(f"{b!r} is not a building", "build-unknown")
    if p.has_building(b):
        raise illegal(f"you have {article(b)} already; each building once per principality",
                      "build-once")
    if state.buildings_left[b] <= 0:
        raise illegal(f"no {b} is left in the supply", "build-supply")
    cost = rules.building_cost[p.builders]
    if p.florins < cost:
        require_cash(p, cost, article(b))
    why = placement_error(rules, p, b, cmd.cells, building=True)
    if why:
        raise illegal(why, "build-placement")
    return [BuildingBuilt(seat, b, cmd.cells, cost, rules.fame_building)]


def _work(state: State, seat: int, cmd: Work) -> list[Event]:
    p = require_action(state, seat, "work")
    rules = state.rules
    if cmd.profession not in p.hand:
        raise illegal(f"you have no {cmd.profession} in hand", "work-card")
    if len(set(cmd.bonuses)) != len(cmd.bonuses):
        raise illegal("a bonus card is named twice", "work-bonus")
    for b in cmd.bonuses:
        if b not in p.bonus_hand:
            raise illegal(f"you have no bonus card {b} in hand", "work-bonus")
    wv = work_value(rules, played(p, cmd.profession, cmd.bonuses), cmd.profession,
                    cmd.bonuses)
    if state.court is not None:
        wv += extra_wv(state, seat)  # the Muse
    minimum = rules.min_wv[state.round - 1]
    if wv < minimum:
        raise illegal(f"this work is worth {wv} and round {state.round} needs at least "
                      f"{minimum}", "work-minimum")
    payment = wv * 100
    most = payment // rules.florins_per_pp
    if cmd.pp < 0:
        raise illegal("fame is converted from the payment, never back into money", "work-pp")
    if cmd.pp > most:
        raise illegal(f"a payment of {payment} converts into at most {most} fame", "work-pp")
    return [WorkCompleted(seat, cmd.profession, cmd.bonuses, wv, payment, cmd.pp)]


def _take_card(state: State, seat: int, cmd: TakeProfession | TakeBonus) -> list[Event]:
    deck = "profession" if isinstance(cmd, TakeProfession) else "bonus"
    p = require_action(state, seat, deck)
    if not decks.deck_size(state.decks[deck]):
        raise illegal(f"the {deck} deck is empty", f"{deck}-empty")
    rules = state.rules
    cost = rules.profession_cost if deck == "profession" else rules.bonus_cost
    require_cash(p, cost, f"a {deck} card")
    return [CardBought(seat, deck, cost)]


def _freedom(state: State, seat: int, cmd: Freedom) -> list[Event]:
    p = require_action(state, seat, "freedom")
    if cmd.freedom not in FREEDOMS:
        raise illegal(f"{cmd.freedom!r} is not a freedom", "freedom-unknown")
    if cmd.freedom in p.freedoms:
        raise illegal(f"you have introduced {cmd.freedom} already", "freedom-once")
    if state.freedoms_left[cmd.freedom] <= 0:
        raise illegal(f"no {cmd.freedom} freedom is left", "freedom-supply")
    cost = state.rules.freedom_cost
    require_cash(p, cost, "a freedom")
    return [FreedomIntroduced(seat, cmd.freedom, cost)]


ACTIONS: dict[type[Any], Callable[[State, int, Any], list[Event]]] = {
    Done: _done,
    Recruit: _recruit,
    Build: _build,
    Work: _work,
    TakeProfession: _take_card,
    TakeBonus: _take_card,
    Freedom: _freedom,
}
"""Each action-phase command's decision, by command type (its checks in full)."""
