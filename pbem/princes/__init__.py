"""The Princes of Florence in the shell: its presenter (`PRESENTER`), the words of its
mails and its text board. Its status template is `templates/princes/status.*`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.princes.commands import Command
from engine.princes.events import CardsDrawn, Event, ProfessionsDealt, Recruited
from engine.princes.legal import legal_commands
from engine.princes.state import State
from engine.princes.views import View
from pbem.i18n import N_

from . import context
from .describe import describe_event, summarise_commands
from .render_text import full_view, render_view, view_to_json


class PrincesPresenter:
    """The words of The Princes of Florence (`pbem.presenter.Presenter`)."""

    name = "princes-of-florence"
    id_prefix = "pof"
    template_dir = "princes"
    catalogue = ("princes", Path(__file__).resolve().parent / "locale")  # pbem.i18n
    chance_noun = "cards"  # what a chance line names (pbem.presenter.chance_noun)
    private_title = N_("your cards (private)")  # a private mail's title
    typos = ("bild theater a1", "pas", "open unicorn", "bid 1", "hello moderator")

    def describe_event(self, event: Event, names: Sequence[str], viewer: int | None) -> str:
        return describe_event(event, names, viewer)

    def summarise_commands(self, cmds: Sequence[Command], view: View | None = None) -> list[str]:
        """The legal commands grouped; with the seat's view, builds name their cost."""
        cost = None
        if view is not None and view.viewer is not None:
            costs = view.building_costs
            cost = costs[min(view.players[view.viewer].builders, len(costs) - 1)]
        return summarise_commands(cmds, cost)

    def private_news(self, event: Event) -> bool:
        return isinstance(event, CardsDrawn | ProfessionsDealt)

    def concerns(self, event: Event, seat: int) -> bool:
        """A move of another seat that happened to `seat`: a profession recruited
        from it (`pbem.notifying.concerned`)."""
        return isinstance(event, Recruited) and event.victim == seat

    def headline(self, view: View, viewer: str | None) -> str:
        return context.headline(view, viewer)

    def turn_line(self, view: View, viewer: str | None) -> str:
        return context.turn_line(view, viewer)

    def status_context(self, view: View) -> dict[str, Any]:
        return context.status_context(view)

    def render_text(self, view: View) -> str:
        return render_view(view)

    def board_png(self, view: View) -> bytes:
        """Every principality as a PNG picture (`pbem.princes.picture`)."""
        from .picture import board_png  # Pillow loads when a picture is drawn

        return board_png(view)

    def full_view(self, state: State) -> View:
        return full_view(state)

    def view_to_json(self, view: View) -> dict[str, object]:
        return view_to_json(view)

    def demo_command(self, state: State, seat: int, rng: random.Random) -> Command:
        """A uniformly random legal command, never a sale of fame out of turn."""
        return rng.choice(legal_commands(state, seat, free=False))


PRESENTER = PrincesPresenter()
