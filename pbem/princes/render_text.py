"""Plain-text rendering of a game position as one seat sees it (for `pbem show` and mails).

Everything here works from an `engine.princes.views.View`, so it can only show what that view
holds: another player's hand is never in a seat's view, hence never in its text.
"""

from __future__ import annotations

import dataclasses

from engine.princes.state import State
from engine.princes.views import PlayerView, View, view_for
from pbem.i18n import gettext as _
from pbem.i18n import tr

from .terms import name

COLUMNS = "abcdefg"


def full_view(state: State) -> View:
    """A view with every hand and all money shown: for a referee, never for a player."""
    public = view_for(state, None)
    players = tuple(view_for(state, seat).players[seat] for seat in range(len(state.players)))
    pending = public.pending
    if state.pending is not None:
        pending = view_for(state, state.pending.seat).pending
    return dataclasses.replace(public, players=players, pending=pending, money_open=True)


def _cards(cards: tuple[str, ...] | None) -> str:
    if cards is None:
        return "?"
    return " ".join(cards) if cards else "-"


def _grid(rows: tuple[str, ...]) -> list[str]:
    n = len(rows)
    out = [f"  {n - i} {row}" for i, row in enumerate(rows)]
    out.append("    " + COLUMNS[: len(rows[0]) if rows else 0])
    return out


def _player(p: PlayerView, to_act: tuple[str, ...]) -> list[str]:
    florins = "hidden" if p.florins is None else f"{p.florins} florins"
    mark = "  <- to act" if p.name in to_act else ""
    lines = [f"{p.name}: {p.fame} PP, {florins}{mark}"]
    have = []
    if p.builders:
        have.append(f"{p.builders} builder{'s' if p.builders > 1 else ''}")
    if p.jesters:
        have.append(f"{p.jesters} jester{'s' if p.jesters > 1 else ''}")
    if p.recruiting:
        have.append(f"{p.recruiting} recruiting card{'s' if p.recruiting > 1 else ''}")
    if p.freedoms:
        have.append("freedoms " + " ".join(p.freedoms))
    if have:
        lines.append("  has " + ", ".join(have))
    buildings = " ".join(name for name, _ in p.buildings)
    landscapes = " ".join(name for name, _ in p.landscapes)
    if buildings:
        lines.append(f"  buildings: {buildings}")
    if landscapes:
        lines.append(f"  landscapes: {landscapes}")
    table = " ".join(p.table) if p.table else "-"
    if p.recruiters:
        table += f" (+{p.recruiters} recruited)"
    lines.append(f"  works on the table: {table}")
    lines.append(f"  in hand: {p.hand_count} professions, {p.bonus_count} bonus, "
                 f"{p.prestige_count} prestige cards")
    if p.hand is not None:
        lines.append(f"  professions: {_cards(p.hand)}")
    if p.bonus_hand is not None:
        lines.append(f"  bonus cards: {_cards(p.bonus_hand)}")
    if p.prestige_hand is not None:
        lines.append(f"  prestige cards: {_cards(p.prestige_hand)}")
    if p.dealt:
        lines.append(f"  dealt, to keep 3: {_cards(p.dealt)}")
    if p.best_wv or p.actions:
        lines.append(f"  this round: {p.actions} actions, best work {p.best_wv}")
    lines.extend(_grid(p.grid))
    return lines


def render_view(view: View) -> str:
    """The position as text: round and phase, who is to act, the auction, what is
    pending, every player (fame, florins if visible, grid rows, table, hand counts, own
    hand), and the supply."""
    if view.phase == "over":
        head = f"Game over after round {view.round}: won by {', '.join(view.winners)}"
    elif view.round == 0:
        head = f"Setup ({view.phase} phase)"
    else:
        head = (f"Round {view.round} of {view.rounds}, {view.phase} phase "
                f"(works need {view.min_wv}+); start player {view.start}")
    lines = [head]
    if view.to_act:
        lines.append("To act: " + ", ".join(view.to_act))
    if view.lot:
        lines.append(f"Auction: {lot_text(view)}, high bid {view.price} by {view.high}")
    if view.pending is not None:
        pd = view.pending
        what = pd.tile or pd.deck
        line = f"Pending: {pd.player} must {pd.kind} ({what}, {pd.count})"
        if pd.kind == "freedoms":
            line = f"Pending: chance must state the {pd.count} freedoms added to the supply"
        if pd.cards is not None:
            line += ": " + " ".join(pd.cards)
        lines.append(line)
    if view.marked:
        lines.append("Stacks used this round: " + " ".join(view.marked))
    if view.characters:
        lines.append("Characters (The Muse and the Princess; fame is not sold):")
        for c in view.characters:
            line = f"  {c.name}" + (f": {c.money} florins on it" if c.name == "banker" else "")
            if c.holder is not None:
                line += f", held by {c.holder}"
            elif c.bidder is not None:
                line += f", {c.bidder} bids {c.bid}"
            lines.append(line)
    for p in view.players:
        lines.append("")
        lines.extend(_player(p, view.to_act))
    lines.append("")
    lines.append("Stacks: " + stacks_text(view))
    lines.append("Buildings left: " + ", ".join(f"{k} {v}" for k, v in view.buildings_left))
    lines.append("Freedoms left: " + ", ".join(f"{k} {v}" for k, v in view.freedoms_left))
    lines.append("Decks: " + ", ".join(f"{k} {v}" for k, v in view.deck_sizes))
    return "\n".join(lines) + "\n"


def stacks_text(view: View) -> str:
    """The auction stacks and what is left in each: "forest 6, lake 5, ...", or with
    the landscapes as one lot "landscape lot (forest 6, lake 5, park 6), ..."."""
    parts = [f"{name(k)} {v}" for k, v in view.stacks]
    if not view.landscape_lot:
        return ", ".join(parts)
    kinds = ("forest", "lake", "park")
    lot = ", ".join(f"{name(k)} {v}" for k, v in view.stacks if k in kinds)
    rest = [f"{name(k)} {v}" for k, v in view.stacks if k not in kinds]
    return ", ".join([tr("landscape lot (%(stacks)s)", stacks=lot), *rest])


def lot_text(view: View) -> str:
    """The object under auction as players read it (in the current language)."""
    if view.lot == "landscape":
        return _("landscape lot (its winner chooses forest, lake or park)")
    return name(view.lot) if view.lot is not None else ""


def view_to_json(view: View) -> dict[str, object]:
    """The view as plain JSON data (tuples become lists)."""
    return dataclasses.asdict(view)
