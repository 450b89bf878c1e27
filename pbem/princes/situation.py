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
from pbem.i18n import N_, ngettext, pgettext, tr
from pbem.i18n import gettext as _

from .render_text import lot_text
from .terms import NP_, card_text, name, names

PHASES = {
    "deal": N_("the professions are dealt"),
    "keep": N_("each player keeps 3 of the professions dealt"),
    "auction": N_("in turn, each player names an object and the others bid for it; "
                  "each player wins one object at most"),
    "characters": N_("the character auction: in turn, each player bids on a character "
                     "card or passes"),
    "action": N_("in turn, each player takes their actions: build, complete works, take "
                 "cards, introduce freedoms"),
}
"""Each phase of a round in words (a phase not named here is shown by its name)."""

PHASE_NAMES = {"deal": NP_("phase", "deal"), "keep": NP_("phase", "keep"),
               "auction": NP_("phase", "auction"), "characters": NP_("phase", "characters"),
               "action": NP_("phase", "action"), "over": NP_("phase", "over")}


def phase_name(phase: str) -> str:
    """A phase's name in the current language."""
    return pgettext("phase", PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase


def phase_words(phase: str) -> str:
    """The phase of a round and what happens in it."""
    what = PHASES.get(phase)
    if what:
        return tr("%(phase)s phase (%(what)s)", phase=phase_name(phase), what=_(what))
    return tr("%(phase)s phase", phase=phase_name(phase))


def round_line(view: View) -> str:
    """Round N of the rules' rounds, the phase in words and the round's minimum work
    value (nothing at setup or once the game is over)."""
    if view.phase == "over" or view.round == 0:
        return ""
    return tr("Round %(round)s of %(rounds)s, %(phase)s. A work needs a work value of at "
              "least %(wv)s this round.", round=view.round, rounds=view.rounds,
              phase=phase_words(view.phase), wv=view.min_wv)


def auction_line(view: View) -> str:
    """The auction in progress: the object, the bid and its bidder, who may still
    bid, and the reader's next legal bid (nothing while no object is out)."""
    if view.lot is None:
        return ""
    me = view.players[view.viewer].name if view.viewer is not None else None
    high = _("you") if view.high == me else view.high
    line = tr("Auction: the %(lot)s, highest bid %(price)s by %(high)s.", lot=lot_text(view),
              price=view.price, high=high)
    others = [(_("you") if b == me else b) for b in view.bidders]
    if len(others) > 1:
        line += " " + tr("Still to bid: %(players)s, in this order.", players=", ".join(others))
    elif others:
        line += " " + tr("Still to bid: %(players)s.", players=others[0])
    else:
        line += " " + _("Nobody else may bid.")
    if me is not None and view.high == me:
        line += " " + _("You hold the highest bid.")
    elif me is not None and me in view.bidders:
        line += " " + tr("Your next bid is %(n)s ('bid %(n)s'), or 'pass'.", n=view.next_bid)
    return line


def profession_line(p: ProfessionView, me: PlayerView, min_wv: int) -> str:
    """A profession in the reader's hand: the building, landscape and freedom its work
    needs, which the reader has, and the work value it would reach now against the
    round's minimum."""
    built = {name for name, _ in me.buildings}
    lands = {name for name, _ in me.landscapes}
    mine = [k for k, v in ((p.building, p.building in built), (p.landscape, p.landscape in lands),
                           (p.freedom, p.freedom in me.freedoms)) if v]
    have = (_("you have none of them") if not mine else _("you have all three")
            if len(mine) == 3 else tr("you have %(things)s",
                                      things=_(" and ").join(name(k) for k in mine)))
    line = tr("%(profession)s: needs %(building)s, %(landscape)s and %(freedom)s (%(have)s); "
              "work value %(wv)s now", profession=name(p.name), building=name(p.building),
              landscape=name(p.landscape), freedom=name(p.freedom), have=have, wv=p.wv)
    bonus = sum(c.value for c in me.cards or () if c.deck == "bonus")
    if bonus:
        line += tr(" (%(wv)s with all your bonus cards)", wv=p.wv + bonus)
    if not min_wv:
        return line + "."
    if p.wv >= min_wv:
        return line + tr(", enough for this round's minimum of %(wv)s.", wv=min_wv)
    if p.wv + bonus >= min_wv:
        return line + tr(", enough for this round's minimum of %(wv)s with bonus cards.",
                         wv=min_wv)
    return line + tr(", %(n)s short of this round's minimum of %(wv)s.", n=min_wv - p.wv,
                     wv=min_wv)


def card_line(c: CardView) -> str:
    """A bonus or prestige card in the reader's hand: its text and its value now."""
    text = card_text(c.name, c.text)
    if c.deck == "bonus":
        return tr("%(card)s: %(text)s Now: +%(n)s.", card=c.name, text=text, n=c.value)
    return tr("%(card)s: %(text)s If the game ended now: %(n)s fame.", card=c.name, text=text,
              n=c.value)


def character_lines(view: View) -> list[str]:
    """The text of the characters the reader holds; in the character auction, of every
    character (the reader is choosing)."""
    me = view.players[view.viewer].name if view.viewer is not None else None
    everyone = view.phase == "characters"
    return [(tr("%(character)s (yours): %(text)s", character=name(c.name),
                text=card_text(c.name, c.text)) if c.holder == me else
             tr("%(character)s: %(text)s", character=name(c.name),
                text=card_text(c.name, c.text)))
            for c in view.characters if c.text and (everyone or c.holder == me)]


def display_line(p: PlayerView) -> str:
    """An opponent's public display: works (each with its work value), buildings,
    landscapes, freedoms, jesters, builders, recruiting cards, cards in hand (counted)
    and the best work this round."""
    works = ", ".join(tr("%(profession)s (value %(wv)s)", profession=name(prof), wv=wv)
                      for prof, wv in p.works) or _("none")
    if p.recruiters:
        works += " " + ngettext("(+%(n)s recruiting card of others)",
                                "(+%(n)s recruiting cards of others)",
                                p.recruiters) % {"n": p.recruiters}
    buildings = ", ".join(name(b) for b, _n in p.buildings)
    kinds = [k for k, _n in p.landscapes]
    lands = ", ".join(f"{name(k)} {kinds.count(k)}" for k in dict.fromkeys(kinds))
    parts = [
        tr("works %(works)s", works=works),
        tr("buildings %(n)s", n=len(p.buildings)) + (f" ({buildings})" if buildings else ""),
        tr("landscapes %(n)s", n=len(p.landscapes)) + (f" ({lands})" if lands else ""),
        tr("freedoms %(freedoms)s", freedoms=names(p.freedoms) or _("none")),
        tr("jesters %(n)s", n=p.jesters), tr("builders %(n)s", n=p.builders),
    ]
    if p.recruiting:
        parts.append(tr("unused recruiting cards %(n)s", n=p.recruiting))
    hand = ngettext("%(n)s profession", "%(n)s professions", p.hand_count) % {
        "n": p.hand_count}
    parts.append(tr("in hand %(hand)s, %(bonus)s bonus, %(prestige)s prestige", hand=hand,
                    bonus=p.bonus_count, prestige=p.prestige_count))
    if p.best_wv:
        parts.append(tr("best work this round %(wv)s", wv=p.best_wv))
    return tr("%(player)s: fame %(fame)s; %(parts)s.", player=p.name, fame=p.fame,
              parts="; ".join(parts))


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
