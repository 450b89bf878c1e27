"""The Princes of Florence's part of a status mail: the headline, whose turn, the
players' table, the principalities and the supply, from one seat's view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.princes.views import View
from pbem.i18n import N_, ngettext, tr
from pbem.i18n import gettext as _

from . import board, situation
from .render_text import stacks_text
from .situation import phase_name
from .terms import name, names


def _winners(view: View) -> str:
    """Who won, as a sentence's end ("anna wins", "anna, bas win")."""
    if len(view.winners) == 1:
        return tr("%(winners)s wins", winners=view.winners[0])
    return tr("%(winners)s win", winners=", ".join(view.winners))


def headline(view: View, viewer: str | None) -> str:
    """What the first line of a status mail says: the round and its phase, and whose
    turn ("Round 2 of 7, auction phase — your turn"; in the current language,
    `pbem.i18n`)."""
    if view.phase == "over":
        return tr("game over: %(winners)s", winners=_winners(view))
    where = _("Setup") if view.phase in ("deal", "keep") else tr(
        "Round %(round)s of %(rounds)s, %(phase)s", round=view.round, rounds=view.rounds,
        phase=tr("%(phase)s phase", phase=phase_name(view.phase)))
    if viewer is not None and viewer in view.to_act:
        return tr("%(where)s — your turn", where=where)
    acting = [n for n in view.to_act if n != "chance"]
    return tr("%(where)s — %(players)s to act", where=where, players=", ".join(acting)) \
        if acting else where


def turn_line(view: View, viewer: str | None, phase: bool = True) -> str:
    """Whose turn it is, with the phase unless `phase` is false (a status mail says
    the phase in its round line)."""
    if view.phase == "over":
        return tr("The game is over. %(winners)s.", winners=_winners(view))
    if view.phase == "keep":
        waiting = ", ".join(n for n in view.to_act)
        line = tr("Setup: waiting for %(players)s to keep their professions.", players=waiting)
        if viewer in view.to_act:
            line += " " + _("It is your turn: keep 3 of your 4 professions.")
        return line
    said = phase_name(view.phase)
    if viewer is not None and viewer in view.to_act:
        return tr("It is your turn (%(phase)s phase).", phase=said) if phase \
            else _("It is your turn.")
    waiting = ", ".join(view.to_act) or _("nobody")
    return tr("Waiting for %(players)s (%(phase)s phase).", players=waiting, phase=said) \
        if phase else tr("Waiting for %(players)s.", players=waiting)


def round_line(view: View) -> str:
    """Round N of the rules' rounds, the phase in words and the round's minimum work
    value (`situation.round_line`)."""
    return situation.round_line(view)


def left_line(view: View) -> str:
    """The actions and works left to the viewer in its action turn (else nothing)."""
    if view.viewer is None or view.phase != "action":
        return ""
    me = view.players[view.viewer]
    if me.name not in view.to_act:
        return ""
    if not me.actions_left:
        return _("You have no actions left this turn.")
    actions = ngettext("%(n)s action", "%(n)s actions", me.actions_left) % {
        "n": me.actions_left}
    works = ngettext("%(n)s work", "%(n)s works", me.works_left) % {"n": me.works_left}
    return tr("You have %(actions)s left this turn, of which at most %(works)s.",
              actions=actions, works=works)


CARDS_LEGEND = N_("cards: professions + bonus (b) + prestige (p) cards in hand")


def _grid_lines(view: View) -> list[str]:
    return board.text_lines(view)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player's row of the players' table, as this seat sees it ("?": florins
    hidden). The templates read attributes: a dict's keys would cost Jinja2 a failed
    attribute lookup each."""

    name: str
    fame: int
    florins: int | str
    builders: int
    jesters: int
    cards: str  # professions + bonus (b) + prestige (p) cards in hand
    display: str  # freedoms and works on display ("-": none)


@dataclass(frozen=True, slots=True)
class Me:
    """The reader's own line: its counts and, in its language, its cards."""

    name: str
    fame: int
    florins: int | None
    builders: int
    jesters: int
    hand: tuple[str, ...]
    recruiting: int
    bonus_hand: tuple[str, ...]
    prestige_hand: tuple[str, ...]
    dealt: tuple[str, ...]


def status_context(view: View) -> dict[str, Any]:
    """The names `templates/princes/status.*` shows beside the shared ones."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    players = [
        PlayerRow(p.name, p.fame, "?" if p.florins is None else p.florins, p.builders,
                  p.jesters, f"{p.hand_count}+{p.bonus_count}b+{p.prestige_count}p",
                  names([*p.freedoms, *p.table]) or "-")
        for p in view.players]
    pending_line = ""
    if view.pending is not None:
        pd = view.pending
        if pd.kind == "choose" and pd.cards is not None:
            pending_line = tr("You drew %(cards)s: keep one with 'choose CARD'.",
                              cards=names(pd.cards))
        elif pd.kind == "choose":
            pending_line = tr("%(player)s is choosing one of %(n)s %(deck)s cards.",
                              player=pd.player, n=pd.count, deck=name(pd.deck))
        elif pd.kind == "place" and pd.tile == "landscape":
            pending_line = _("You must place the landscape just won, of the type chosen: "
                             "'place forest|lake|park CELLS'.") if pd.player == me.name \
                else tr("%(player)s must place the landscape just won, of the type chosen: "
                        "'place forest|lake|park CELLS'.", player=pd.player)
        elif pd.kind == "place":
            pending_line = tr("You must place the %(tile)s just won.", tile=name(pd.tile)) \
                if pd.player == me.name else tr("%(player)s must place the %(tile)s just won.",
                                                player=pd.player, tile=name(pd.tile))
    auction_line = situation.auction_line(view)
    characters_line = ""
    if view.characters:
        characters_line = tr("Characters: %(characters)s",
                             characters="; ".join(_character(c) for c in view.characters))
    supply = "; ".join([
        tr("objects %(left)s", left=stacks_text(view)),
        tr("buildings %(left)s", left=", ".join(f"{name(k)} {v}"
                                                for k, v in view.buildings_left)),
        tr("freedoms %(left)s", left=", ".join(f"{name(k)} {v}"
                                              for k, v in view.freedoms_left)),
    ])
    return {
        "headline": headline(view, me.name),
        "turn_line": turn_line(view, me.name, phase=not round_line(view)),
        "pending_line": pending_line, "auction_line": auction_line,
        "characters_line": characters_line,
        "round_line": round_line(view), "left_line": left_line(view),
        "cards_legend": _(CARDS_LEGEND), "game_over": view.phase == "over",
        "me": Me(me.name, me.fame, me.florins, me.builders, me.jesters,
                 tuple(name(c) for c in me.hand or ()), me.recruiting, me.bonus_hand or (),
                 me.prestige_hand or (), tuple(name(c) for c in me.dealt or ())),
        "players": players, "grid_lines": _grid_lines(view), "supply": supply,
        "board_legend": board.legend_lines(), "boards": board.html_boards(view),
        "board_kinds": board.html_legend(),
        **situation.situation(view),
    }


def _character(c: Any) -> str:
    """A character card in a line: its florins (the Banker), who holds it or bids."""
    text = name(c.name)
    if c.name == "banker":
        text = tr("%(character)s (%(n)s florins)", character=text, n=c.money)
    if c.holder is not None:
        return tr("%(character)s held by %(player)s", character=text, player=c.holder)
    if c.bidder is not None:
        return tr("%(character)s: %(player)s bids %(n)s", character=text, player=c.bidder,
                  n=c.bid)
    return text
