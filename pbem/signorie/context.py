"""Signorie's part of a status mail: the headline, whose turn, and the position in
sections (`board.sections`), from one seat's view."""

from __future__ import annotations

from typing import Any

from .board import PHASES, round_line, sections
from .board_html import board_context
from .tables import text_key

SHORT_PHASES = {"actions": "actions", "rewards": "rewards", "extra": "extra actions",
                "prepare": "preparation", "setup": "setup"}


def _acting(view: Any) -> list[str]:
    return [n for n in view.to_act if n != "chance"]


def headline(view: Any, viewer: str | None) -> str:
    """What the first line of a status mail says: `Round 3 of 7, actions — anna to act`."""
    if view.phase == "over":
        return "game over: " + ", ".join(view.winners) + (" wins" if len(view.winners) == 1
                                                          else " win")
    if view.round == 0:
        where = "Setup"
    else:
        where = (f"Round {view.round} of {view.rounds}, "
                 f"{SHORT_PHASES.get(view.phase, view.phase)}")
    if viewer is not None and viewer in view.to_act:
        return f"{where} — your turn"
    acting = _acting(view)
    return f"{where} — {', '.join(acting)} to act" if acting else where


def turn_line(view: Any, viewer: str | None) -> str:
    """One sentence on whose turn it is and what is awaited."""
    if view.phase == "over":
        return "The game is over. " + headline(view, viewer).removeprefix("game over: ") + "."
    phase = PHASES.get(view.phase, view.phase)
    if viewer is not None and viewer in view.to_act:
        what = _your_part(view, viewer)
        return f"It is your turn ({phase}): {what}." if what else f"It is your turn ({phase})."
    acting = _acting(view)
    return f"Waiting for {', '.join(acting) or 'chance'} ({phase})."


def _your_part(view: Any, viewer: str) -> str:
    """What the viewer is asked for now, in words."""
    if view.active is not None and view.active[0] == viewer:
        _, colour, space = view.active
        return f"a helper of your {colour} column from space {space} on, or done"
    if view.phase == "actions":
        return "take a die or pass"
    if view.phase == "rewards":
        return f"choose your reward ({view.reward_tile})"
    if view.phase == "extra":
        return "your extra action: a leftover die, placed for free"
    return ""


def status_context(view: Any) -> dict[str, Any]:
    """The names `templates/signorie/status.*` show beside the shared ones."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    return {
        "headline": headline(view, me.name), "turn_line": turn_line(view, me.name),
        "round_line": round_line(view), "game_over": view.phase == "over",
        "me": {"name": me.name, "plan": me.plan, "florins": me.florins, "points": me.points},
        "sections": [{"title": s.title, "lines": list(s.lines)} for s in sections(view)],
        "board_key": "\n".join(text_key()), **board_context(view),
    }
