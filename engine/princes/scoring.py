"""Work values, bonus cards and prestige cards: counting a principality by the rules
of the game's variant."""

from __future__ import annotations

from collections.abc import Sequence

from .ruleset import FREEDOMS, LANDSCAPES, Rules
from .state import Player


def count(rules: Rules, p: Player, what: str) -> int:
    """How many of `what` a principality holds, as bonus and prestige cards count.

    The Palazzo is not a building here. Recruiting cards count as professions.
    """
    if what == "building":
        return len(p.buildings)
    if what in ("large", "medium", "small"):
        return sum(1 for b, _ in p.buildings if rules.buildings[b] == what)
    if what == "building-size":
        return len({rules.buildings[b] for b, _ in p.buildings})
    if what == "landscape":
        return len(p.landscapes)
    if what in LANDSCAPES:
        return p.count_landscape(what)
    if what == "landscape-type":
        return len({name for name, _ in p.landscapes})
    if what == "freedom":
        return len(p.freedoms)
    if what in FREEDOMS:
        return int(what in p.freedoms)
    if what == "jester":
        return p.jesters
    if what == "builder":
        return p.builders
    if what == "prestige":
        return len(p.prestige_hand)
    if what == "hand-card":
        return p.hand_cards()
    if what in ("table-card", "work"):
        return p.table_cards()
    if what == "empty":
        return rules.grid.playable_count - bin(p.occupied).count("1")
    raise ValueError(f"unknown count {what!r}")


def bonus_value(rules: Rules, p: Player, card: str) -> int:
    """What a bonus card adds to a work, for a player whose card is already played."""
    spec = rules.bonus[card]
    total = sum(count(rules, p, what) for what in spec.counts)
    total += sum(1 for what in spec.distinct if count(rules, p, what))
    return spec.per * total


def work_value(rules: Rules, p: Player, profession: str, bonuses: Sequence[str]) -> int:
    """The work value of `profession` for a player in whose display it already lies
    (moved from hand to table), with the given bonus cards played."""
    card = rules.professions[profession]
    wv = 0
    if p.has_building(card.building):
        wv += rules.wv_building
    if p.count_landscape(card.landscape):
        wv += rules.wv_landscape
    if card.freedom in p.freedoms:
        wv += rules.wv_freedom
    wv += rules.wv_jester * p.jesters
    wv += rules.wv_card * (p.hand_cards() + p.table_cards())
    return wv + sum(bonus_value(rules, p, b) for b in bonuses)


def prestige_points(rules: Rules, players: Sequence[Player], seat: int, card: str) -> int:
    """Fame a prestige card gives its holder at game end (ruling R7)."""
    spec = rules.prestige[card]
    me = players[seat]
    if spec.kind == "at-least":
        ok = all(count(rules, me, what) >= n for what, n in spec.thresholds.items())
        return spec.full if ok else 0
    mine = count(rules, me, spec.counts)
    others = [count(rules, p, spec.counts) for i, p in enumerate(players) if i != seat]
    if spec.kind == "most":
        if mine == 0 or any(o > mine for o in others):
            return 0
    elif any(o < mine for o in others):
        return 0
    return spec.tie if mine in others else spec.full
