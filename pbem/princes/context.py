"""The Princes of Florence's part of a status mail: the headline, whose turn, the
players' table, the principalities and the supply, from one seat's view."""

from __future__ import annotations

from typing import Any

from engine.princes.views import View

from . import board, situation
from .render_text import stacks_text


def headline(view: View, viewer: str | None) -> str:
    """What the first line of a status mail says: round and whose turn."""
    if view.phase == "over":
        return "game over: " + (", ".join(view.winners) + (" wins" if len(view.winners) == 1
                                                           else " win"))
    where = "Setup" if view.phase in ("deal", "keep") else f"Round {view.round}"
    if viewer is not None and viewer in view.to_act:
        return f"{where} — your turn"
    acting = [n for n in view.to_act if n != "chance"]
    return f"{where} — {', '.join(acting)} to act" if acting else where


def turn_line(view: View, viewer: str | None, phase: bool = True) -> str:
    """Whose turn it is, with the phase unless `phase` is false (a status mail says
    the phase in its round line)."""
    if view.phase == "over":
        return "The game is over. " + headline(view, viewer).removeprefix("game over: ") + "."
    if view.phase == "keep":
        waiting = ", ".join(n for n in view.to_act)
        mine = " It is your turn: keep 3 of your 4 professions." if viewer in view.to_act else ""
        return f"Setup: waiting for {waiting} to keep their professions.{mine}"
    if viewer is not None and viewer in view.to_act:
        return f"It is your turn ({view.phase} phase)." if phase else "It is your turn."
    waiting = ", ".join(view.to_act) or "nobody"
    return f"Waiting for {waiting} ({view.phase} phase)." if phase else f"Waiting for {waiting}."


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
        return "You have no actions left this turn."
    return (f"You have {_count(me.actions_left, 'action')} left this turn, "
            f"of which at most {_count(me.works_left, 'work')}.")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


CARDS_LEGEND = "cards: professions + bonus (b) + prestige (p) cards in hand"


def _grid_lines(view: View) -> list[str]:
    return board.text_lines(view)


def _grid_blocks(view: View) -> list[list[str]]:
    """The principalities one by one, each as the lines of its own small grid: the
    HTML part sets them side by side where the screen is wide enough and one below
    the other on a phone."""
    return [["   " + p.name, *(f"{7 - r}  {line}" for r, line in enumerate(p.grid)),
             "   abcdefg"] for p in view.players]


def status_context(view: View) -> dict[str, Any]:
    """The names `templates/princes/status.*` shows beside the shared ones."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    players = []
    for p in view.players:
        display = ", ".join([*p.freedoms, *p.table]) or "-"
        players.append({
            "name": p.name, "fame": p.fame,
            "florins": "?" if p.florins is None else p.florins,
            "builders": p.builders, "jesters": p.jesters,
            "cards": f"{p.hand_count}+{p.bonus_count}b+{p.prestige_count}p", "display": display,
        })
    pending_line = ""
    if view.pending is not None:
        pd = view.pending
        if pd.kind == "choose" and pd.cards is not None:
            pending_line = f"You drew {', '.join(pd.cards)}: keep one with 'choose CARD'."
        elif pd.kind == "choose":
            pending_line = f"{pd.player} is choosing one of {pd.count} {pd.deck} cards."
        elif pd.kind == "place" and pd.tile == "landscape":
            who = "You" if pd.player == me.name else pd.player
            pending_line = (f"{who} must place the landscape just won, of the type "
                            "chosen: 'place forest|lake|park CELLS'.")
        elif pd.kind == "place":
            who = "You" if pd.player == me.name else pd.player
            pending_line = f"{who} must place the {pd.tile} just won."
    auction_line = situation.auction_line(view)
    characters_line = ""
    if view.characters:
        characters_line = "Characters: " + "; ".join(_character(c) for c in view.characters)
    supply = "; ".join([
        "objects " + stacks_text(view),
        "buildings " + ", ".join(f"{k} {v}" for k, v in view.buildings_left),
        "freedoms " + ", ".join(f"{k} {v}" for k, v in view.freedoms_left),
    ])
    return {
        "headline": headline(view, me.name),
        "turn_line": turn_line(view, me.name, phase=not round_line(view)),
        "pending_line": pending_line, "auction_line": auction_line,
        "characters_line": characters_line,
        "round_line": round_line(view), "left_line": left_line(view),
        "cards_legend": CARDS_LEGEND, "game_over": view.phase == "over",
        "me": {
            "name": me.name, "fame": me.fame, "florins": me.florins, "builders": me.builders,
            "jesters": me.jesters, "hand": me.hand or (), "recruiting": me.recruiting,
            "bonus_hand": me.bonus_hand or (), "prestige_hand": me.prestige_hand or (),
            "dealt": me.dealt or (),
        },
        "players": players, "grid_lines": _grid_lines(view), "supply": supply,
        "board_legend": board.legend_lines(), "boards": board.html_boards(view),
        "board_kinds": board.html_legend(),
        **situation.situation(view),
        "grid_blocks": _grid_blocks(view),
    }


def _character(c: Any) -> str:
    """A character card in a line: its florins (the Banker), who holds it or bids."""
    text = c.name + (f" ({c.money} florins)" if c.name == "banker" else "")
    if c.holder is not None:
        return f"{text} held by {c.holder}"
    if c.bidder is not None:
        return f"{text}: {c.bidder} bids {c.bid}"
    return text
