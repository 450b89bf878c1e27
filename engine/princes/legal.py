"""Every legal command of a seat right now: for help in mails, random play and fuzzing."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, repeat

from engine import decks

from . import characters
from .actions import recruits_now
from .auction import skipped_bidder
from .commands import (
    Bid,
    Build,
    Choose,
    Command,
    Done,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    Recruit,
    Sell,
    Take,
    TakeBonus,
    TakeProfession,
    Work,
)
from .grid import Grid
from .queries import auction_left, can_pay, lot_landscapes, object_error, played
from .ruleset import FREEDOMS, LANDSCAPE_LOT
from .scoring import work_value
from .state import CHANCE, CHANCE_KINDS, State


def legal_commands(state: State, seat: int, *, free: bool = True) -> list[Command]:
    """The commands `seat` may give now, in a stable order.

    Placements list every position of every shape the tile may take (while the
    printed shapes are unknown, every connected shape of its size: ruling R11).
    `free=False` leaves
    out selling fame, which is legal at any time. Deals and draws (CHANCE) are not
    listed: `game.seeded_chance` gives them.
    """
    if state.phase == "over" or seat == CHANCE or not 0 <= seat < len(state.players):
        return []
    out: list[Command] = []
    rules = state.rules
    grid = rules.grid
    p = state.players[seat]
    if free and p.fame and rules.fame_for_money:
        out.extend(Sell(k) for k in range(1, p.fame + 1))
    if skipped_bidder(state, seat):
        out.append(Pass())  # out of turn, recorded only (R18)
    pending = state.pending
    if pending is not None:
        if pending.seat != seat or pending.kind in CHANCE_KINDS:
            return out
        if pending.kind == "choose":
            return out + [Choose(c) for c in pending.cards]
        zone = grid.playable & ~p.occupied
        tiles = (lot_landscapes(state, seat) if pending.tile == LANDSCAPE_LOT
                 else [pending.tile])
        return out + [Place(tile, cells) for tile in tiles
                      for cells in grid.placements(tile, zone)]
    if state.phase == "keep":
        if p.dealt:
            out.extend(Keep(c) for c in combinations(p.dealt, rules.professions_kept))
        return out
    if recruits_now(state, seat):
        out.extend(_recruits(state, seat))  # out of turn, at once (R19)
    if state.court is not None:
        out.extend(characters.legal_uses(state, seat))
    if state.turn != seat:
        return out
    if state.phase == characters.PHASE:
        return out + characters.legal_bids(state, seat)
    if state.phase == "auction":
        if state.lot is not None:
            if can_pay(rules, p, state.price + rules.raise_step):
                out.append(Bid(state.price + rules.raise_step))
            return out + [Pass()]
        last = auction_left(state) == [seat]
        verb = Take if last else Open
        out.extend(verb(o) for o in rules.objects if object_error(state, seat, o) is None)
        return out + [Pass()]
    # Action phase.
    if p.recruiting:
        out.extend(_recruits(state, seat))
    if p.actions < rules.limits["actions"] + characters.extra_actions(state, seat):
        used = p.used
        if used.get("work", 0) < rules.limits["work"]:
            out.extend(_works(state, seat))
        if used.get("build", 0) < rules.limits["build"]:
            cost = rules.building_cost[p.builders]
            if p.florins >= cost:
                zone = grid.building_zone(p.occupied | grid.palazzo, p.building_cells,
                                          p.builders)
                for b in rules.buildings:
                    if not p.has_building(b) and state.buildings_left[b] > 0:
                        out.extend(_builds(grid, b, zone))
        if p.florins >= rules.profession_cost and used.get("profession", 0) < 1 \
                and decks.deck_size(state.decks["profession"]):
            out.append(TakeProfession())
        if used.get("freedom", 0) < rules.limits["freedom"] and p.florins >= rules.freedom_cost:
            out.extend(Freedom(f) for f in FREEDOMS
                       if f not in p.freedoms and state.freedoms_left[f] > 0)
        if p.florins >= rules.bonus_cost and used.get("bonus", 0) < rules.limits["bonus"] \
                and decks.deck_size(state.decks["bonus"]):
            out.append(TakeBonus())
    out.append(Done())
    return out


@lru_cache(maxsize=64)
def _builds(grid: Grid, building: str, zone: int) -> tuple[Build, ...]:
    """Every build of `building` inside `zone`: while shapes are unknown, hundreds a
    building; a seat's zone stays the same until it builds, so its next status mail
    lists the same (commands are values: sharing them is safe)."""
    return tuple(map(Build, repeat(building), grid.placements(building, zone)))


def _recruits(state: State, seat: int) -> list[Command]:
    return [Recruit(prof, v.name) for victim, v in enumerate(state.players) if victim != seat
            for prof in dict.fromkeys(v.table)]


def _works(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    rules = state.rules
    minimum = rules.min_wv[state.round - 1]
    extra = characters.extra_wv(state, seat)  # the Muse
    bonus = p.bonus_hand[:6]  # more than 6 bonus cards in hand: list subsets of the first 6
    out: list[Command] = []
    for prof in dict.fromkeys(p.hand):
        for k in range(len(bonus) + 1):
            for combo in combinations(bonus, k):
                wv = work_value(rules, played(p, prof, combo), prof, combo) + extra
                if wv >= minimum:
                    most = wv * 100 // rules.florins_per_pp
                    out.extend(Work(prof, combo, pp) for pp in range(most + 1))
    return out
