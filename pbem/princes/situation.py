"""The whole situation in a status mail, in sentences: the phase in words, the auction
in progress, what each profession in the reader's hand needs and would be worth now,
the text of the reader's bonus, prestige and character cards, and each opponent's
public display.

Everything comes from one seat's view (`engine.princes.views.View`): the reader's own
hand is in it, an opponent's never is. The card texts come from the rules data
(`engine/princes/data/princes.toml`). Each line is one whole sentence made here, so a
later translation has whole sentences to work on.
"""

from __future__ import annotations

from engine.princes.views import CardView, PlayerView, ProfessionView, View

from .render_text import lot_text

PHASES = {
    "deal": "the professions are dealt",
    "keep": "each player keeps 3 of the professions dealt",
    "auction": "in turn, each player names an object and the others bid for it; "
               "each player wins one object at most",
    "characters": "the character auction: in turn, each player bids on a character "
                  "card or passes",
    "action": "in turn, each player takes their actions: build, complete works, take "
              "cards, introduce freedoms",
}
"""Each phase of a round in words (a phase not named here is shown by its name)."""


def phase_words(phase: str) -> str:
    """The phase of a round and what happens in it."""
    what = PHASES.get(phase)
    return f"{phase} phase ({what})" if what else f"{phase} phase"


def round_line(view: View) -> str:
    """Round N of the rules' rounds, the phase in words and the round's minimum work
    value (nothing at setup or once the game is over)."""
    if view.phase == "over" or view.round == 0:
        return ""
    return (f"Round {view.round} of {view.rounds}, {phase_words(view.phase)}. A work needs "
            f"a work value of at least {view.min_wv} this round.")


def auction_line(view: View) -> str:
    """The auction in progress: the object, the bid and its bidder, who may still
    bid, and the reader's next legal bid (nothing while no object is out)."""
    if view.lot is None:
        return ""
    me = view.players[view.viewer].name if view.viewer is not None else None
    high = "you" if view.high == me else view.high
    line = f"Auction: the {lot_text(view)}, highest bid {view.price} by {high}."
    others = [("you" if b == me else b) for b in view.bidders]
    if len(others) > 1:
        line += f" Still to bid: {', '.join(others)}, in this order."
    elif others:
        line += f" Still to bid: {others[0]}."
    else:
        line += " Nobody else may bid."
    if me is not None and view.high == me:
        line += " You hold the highest bid."
    elif me is not None and me in view.bidders:
        line += (f" Your next bid is {view.next_bid} ('bid {view.next_bid}'), "
                 "or 'pass'.")
    return line


def profession_line(p: ProfessionView, me: PlayerView, min_wv: int) -> str:
    """A profession in the reader's hand: the building, landscape and freedom its work
    needs, which the reader has, and the work value it would reach now against the
    round's minimum."""
    built = {name for name, _ in me.buildings}
    lands = {name for name, _ in me.landscapes}
    mine = [k for k, v in ((p.building, p.building in built), (p.landscape, p.landscape in lands),
                           (p.freedom, p.freedom in me.freedoms)) if v]
    have = ("you have none of them" if not mine else "you have all three" if len(mine) == 3
            else f"you have {' and '.join(mine)}")
    line = (f"{p.name}: needs {p.building}, {p.landscape} and {p.freedom} ({have}); "
            f"work value {p.wv} now")
    bonus = sum(c.value for c in me.cards or () if c.deck == "bonus")
    if bonus:
        line += f" ({p.wv + bonus} with all your bonus cards)"
    if not min_wv:
        return line + "."
    if p.wv >= min_wv:
        return line + f", enough for this round's minimum of {min_wv}."
    if p.wv + bonus >= min_wv:
        return line + f", enough for this round's minimum of {min_wv} with bonus cards."
    return line + f", {min_wv - p.wv} short of this round's minimum of {min_wv}."


def card_line(c: CardView) -> str:
    """A bonus or prestige card in the reader's hand: its text and its value now."""
    if c.deck == "bonus":
        return f"{c.name}: {c.text} Now: +{c.value}."
    return f"{c.name}: {c.text} If the game ended now: {c.value} fame."


def character_lines(view: View) -> list[str]:
    """The text of the characters the reader holds; in the character auction, of every
    character (the reader is choosing)."""
    me = view.players[view.viewer].name if view.viewer is not None else None
    everyone = view.phase == "characters"
    return [f"{c.name}{' (yours)' if c.holder == me else ''}: {c.text}"
            for c in view.characters if c.text and (everyone or c.holder == me)]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def display_line(p: PlayerView) -> str:
    """An opponent's public display: works (each with its work value), buildings,
    landscapes, freedoms, jesters, builders, recruiting cards, cards in hand (counted)
    and the best work this round."""
    works = ", ".join(f"{prof} (value {wv})" for prof, wv in p.works) or "none"
    if p.recruiters:
        works += f" (+{_count(p.recruiters, 'recruiting card', 'recruiting cards')} of others)"
    buildings = ", ".join(name for name, _ in p.buildings)
    kinds = [name for name, _ in p.landscapes]
    lands = ", ".join(f"{k} {kinds.count(k)}" for k in dict.fromkeys(kinds))
    parts = [
        f"works {works}",
        f"buildings {len(p.buildings)}" + (f" ({buildings})" if buildings else ""),
        f"landscapes {len(p.landscapes)}" + (f" ({lands})" if lands else ""),
        f"freedoms {', '.join(p.freedoms) or 'none'}",
        f"jesters {p.jesters}", f"builders {p.builders}",
    ]
    if p.recruiting:
        parts.append(f"unused recruiting cards {p.recruiting}")
    parts.append(f"in hand {_count(p.hand_count, 'profession', 'professions')}, "
                 f"{p.bonus_count} bonus, {p.prestige_count} prestige")
    if p.best_wv:
        parts.append(f"best work this round {p.best_wv}")
    return f"{p.name}: fame {p.fame}; " + "; ".join(parts) + "."


def situation(view: View) -> dict[str, object]:
    """The context keys of the reader's hand and the others' displays."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    min_wv = view.min_wv if view.phase != "over" else 0
    return {
        "profession_lines": [profession_line(p, me, min_wv) for p in me.professions or ()],
        "card_lines": [card_line(c) for c in me.cards or ()],
        "character_lines": character_lines(view),
        "display_lines": [display_line(p) for p in view.players if p.seat != view.viewer],
    }
