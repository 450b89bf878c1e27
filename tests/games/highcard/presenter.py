"""high-card in the shell: its presenter (`pbem.presenter.Presenter`), the words of its
mails and its text board. Its status templates live beside it, in `templates/`: the
presenter names that folder by its absolute path, which the Renderer's lookup
(`template_dir / folder`) takes as it is."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.consent import Reverted

from .commands import Bid, Command
from .events import (
    BidPassed,
    BidRaised,
    CardPlayed,
    CardRevealed,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    LotDiscarded,
    LotWon,
    TrickShown,
)
from .game import GAME
from .notation import format_command
from .state import State
from .views import View, view_for

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) or "none"


def _who(seat: int, names: Sequence[str], viewer: int | None) -> str:
    return "you" if seat == viewer else names[seat]


def describe_event(event: Event, names: Sequence[str], viewer: int | None) -> str:
    """One line about an event already redacted for `viewer`: another seat's hidden
    cards are `?` there, and are not named here either."""
    match event:
        case GameStarted(players=players):
            return f"the game starts: {', '.join(players)}"
        case HandDealt(seat=seat, cards=cards):
            if seat == viewer:
                return f"you were dealt {_cards(cards)}"
            return f"{names[seat]} was dealt {len(cards)} cards"
        case CardRevealed(round=rnd, card=card):
            return f"round {rnd}: card {card} is up for auction"
        case BidRaised(seat=seat, amount=amount):
            return f"{_who(seat, names, viewer)} bid {amount}"
        case BidPassed(seat=seat):
            return f"{_who(seat, names, viewer)} passed"
        case LotWon(seat=seat, card=card, price=price):
            return f"{_who(seat, names, viewer)} won card {card} for {price} coins"
        case LotDiscarded(card=card):
            return f"nobody bid: card {card} is discarded"
        case CardPlayed(seat=seat, card=card):
            if seat == viewer:
                return f"you played {card} face down"
            return f"{names[seat]} played a card face down"
        case TrickShown(round=rnd, cards=cards, winner=winner, points=points):
            return (f"round {rnd}: the cards {_cards(cards)} are shown; "
                    f"{_who(winner, names, viewer)} took the trick ({points} points)")
        case GameEnded(winners=winners):
            return "the game is over: " + ", ".join(_who(w, names, viewer) for w in winners) \
                + (" won" if winners else "")
        case Reverted(seat=seat, to_version=version):
            return f"{_who(seat, names, viewer)}'s command was taken back (to v{version})"
    return type(event).__name__


def summarise_commands(cmds: Sequence[Any]) -> list[str]:
    """The commands in short: the bids as one range, every other one as written."""
    bids = [c.amount for c in cmds if isinstance(c, Bid)]
    lines = [format_command(c) for c in cmds if not isinstance(c, Bid)]
    if bids:
        low, high = min(bids), max(bids)
        lines.insert(0, f"bid {low}" if low == high else f"bid N ({low} to {high})")
    return lines


def headline(view: View, viewer: str | None) -> str:
    if view.phase == "over":
        return "game over: " + ", ".join(view.winners) + (" wins" if len(view.winners) == 1
                                                          else " win")
    where = "Setup" if view.round == 0 else f"Round {view.round} of {view.rounds}"
    waiting = _waiting(view)
    if viewer is not None and viewer in waiting:
        return f"{where} — your turn"
    return f"{where} — {', '.join(waiting)} to act" if waiting else where


def _waiting(view: View) -> list[str]:
    if view.phase == "auction":
        return [view.turn] if view.turn is not None else []
    if view.phase == "play":
        return [p.name for p in view.players if not p.played]
    return []


def turn_line(view: View, viewer: str | None) -> str:
    if view.phase == "over":
        return "The game is over. " + headline(view, viewer).removeprefix("game over: ") + "."
    waiting = _waiting(view)
    if viewer is not None and viewer in waiting:
        return f"It is your turn ({view.phase} phase)."
    return f"Waiting for {', '.join(waiting) or 'chance'} ({view.phase} phase)."


def status_context(view: View) -> dict[str, Any]:
    """The names `templates/status.*` shows beside the shared ones."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    auction_line = ""
    if view.phase == "auction" and view.lot is not None:
        auction_line = (f"Auction: card {view.lot}, highest bid {view.price} by {view.high}."
                        if view.high is not None else f"Auction: card {view.lot}, no bid yet.")
    return {
        "headline": headline(view, me.name), "turn_line": turn_line(view, me.name),
        "auction_line": auction_line,
        "me": {"name": me.name, "hand": _cards(me.hand or ()),
               "played": me.card or "", "coins": me.money, "points": me.points},
        "players": [{"name": p.name, "coins": p.money, "points": p.points,
                     "tricks": p.tricks, "lots": _cards(p.lots), "cards": p.hand_count,
                     "played": "yes" if p.played else "no"} for p in view.players],
        "deck": view.deck_size,
    }


def render_view(view: View) -> str:
    """The position as text: the round, the auction, every player, the viewer's hand."""
    if view.phase == "over":
        lines = [f"Game over after round {view.round}: won by {', '.join(view.winners)}"]
    else:
        lines = [f"Round {view.round} of {view.rounds}, {view.phase} phase"]
        if view.lot is not None:
            lines.append(f"Auction: card {view.lot}, bid {view.price} by {view.high or '-'}")
    for p in view.players:
        line = (f"  {p.name}: {p.points} points, {p.money} coins, {p.tricks} tricks, "
                f"lots {_cards(p.lots)}, {p.hand_count} cards")
        if p.hand is not None:
            line += f", hand {_cards(p.hand)}"
        if p.card is not None:
            line += f", face down {p.card}"
        elif p.played:
            line += ", a card face down"
        lines.append(line)
    return "\n".join(lines) + "\n"


class HighCardPresenter:
    """The words of high-card (`pbem.presenter.Presenter`)."""

    name = GAME.name
    id_prefix = "hc"
    template_dir = str(TEMPLATES)
    typos = ("bdi 3", "play 99", "pas", "hello moderator")

    def describe_event(self, event: Event, names: Sequence[str], viewer: int | None) -> str:
        return describe_event(event, names, viewer)

    def summarise_commands(self, cmds: Sequence[Command], view: View | None = None) -> list[str]:
        return summarise_commands(cmds)

    def private_news(self, event: Event) -> bool:
        return isinstance(event, HandDealt)

    def headline(self, view: View, viewer: str | None) -> str:
        return headline(view, viewer)

    def turn_line(self, view: View, viewer: str | None) -> str:
        return turn_line(view, viewer)

    def status_context(self, view: View) -> dict[str, Any]:
        return status_context(view)

    def render_text(self, view: View) -> str:
        return render_view(view)

    def full_view(self, state: State) -> View:
        return view_for(state, None, reveal_all=True)

    def view_to_json(self, view: View) -> dict[str, object]:
        return dataclasses.asdict(view)

    def demo_command(self, state: State, seat: int, rng: random.Random) -> Command:
        return GAME.random_command(state, seat, rng)


PRESENTER = HighCardPresenter()
