"""Signorie's part of a status mail: the headline, whose turn, and the position in
sections (`board.sections`), from one seat's view."""

from __future__ import annotations

from typing import Any

from pbem.i18n import N_, _, ngettext, tr

from .board import phase_name, round_line, sections
from .board_html import board_context
from .tables import text_key
from .terms import name

SHORT_PHASES = {"actions": N_("actions"), "rewards": N_("rewards"),
                "extra": N_("extra actions"), "prepare": N_("preparation"),
                "setup": N_("setup")}


def _acting(view: Any) -> list[str]:
    return [n for n in view.to_act if n != "chance"]


def headline(view: Any, viewer: str | None) -> str:
    """What the first line of a status mail says: `Round 3 of 7, actions — anna to act`."""
    if view.phase == "over":
        return ngettext("game over: %(winners)s wins", "game over: %(winners)s win",
                        len(view.winners)) % {"winners": ", ".join(view.winners)}
    if view.round == 0:
        where = _("Setup")
    else:
        short = _(SHORT_PHASES[view.phase]) if view.phase in SHORT_PHASES else view.phase
        where = tr("Round %(round)s of %(rounds)s, %(phase)s", round=view.round,
                   rounds=view.rounds, phase=short)
    if viewer is not None and viewer in view.to_act:
        return tr("%(where)s — your turn", where=where)
    acting = _acting(view)
    return tr("%(where)s — %(players)s to act", where=where, players=", ".join(acting)) \
        if acting else where


def turn_line(view: Any, viewer: str | None) -> str:
    """One sentence on whose turn it is and what is awaited."""
    if view.phase == "over":
        return ngettext("The game is over. %(winners)s wins.",
                        "The game is over. %(winners)s win.",
                        len(view.winners)) % {"winners": ", ".join(view.winners)}
    phase = phase_name(view.phase)
    if viewer is not None and viewer in view.to_act:
        what = _your_part(view, viewer)
        return tr("It is your turn (%(phase)s): %(what)s.", phase=phase, what=what) if what \
            else tr("It is your turn (%(phase)s).", phase=phase)
    acting = _acting(view)
    return tr("Waiting for %(players)s (%(phase)s).",
              players=", ".join(acting) or _("chance"), phase=phase)


def _your_part(view: Any, viewer: str) -> str:
    """What the viewer is asked for now, in words."""
    if view.active is not None and view.active[0] == viewer:
        _player, colour, space = view.active
        return tr("a helper of your %(colour)s column from space %(space)s on, or done",
                  colour=name(colour), space=space)
    if view.phase == "actions":
        return _("take a die or pass")
    if view.phase == "rewards":
        return tr("choose your reward (%(tile)s)", tile=name(view.reward_tile))
    if view.phase == "extra":
        return _("your extra action: a leftover die, placed for free")
    return ""


def status_context(view: Any) -> dict[str, Any]:
    """The names `templates/signorie/status.*` show beside the shared ones."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    return {
        "headline": headline(view, me.name), "turn_line": turn_line(view, me.name),
        "round_line": round_line(view), "game_over": view.phase == "over",
        "me": {"name": me.name, "plan": name(me.plan), "florins": me.florins,
               "points": me.points},
        "sections": [{"title": s.title, "lines": list(s.lines)} for s in sections(view)],
        "board_key": "\n".join(text_key()), **board_context(view),
    }
