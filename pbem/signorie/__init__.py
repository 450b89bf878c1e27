"""Signorie in the shell: its presenter (`PRESENTER`), the words of its mails and its
text board. Its status template is `templates/signorie/status.*`."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.signorie.state import State
from engine.signorie.views import View, view_for

from . import context
from .board import FullView, render_view
from .describe import describe_event, summarise_commands


class SignoriePresenter:
    """The words of Signorie (`pbem.presenter.Presenter`)."""

    name = "signorie"
    id_prefix = "sig"
    template_dir = "signorie"
    catalogue = ("signorie", Path(__file__).resolve().parent / "locale")  # pbem.i18n
    typos = ("tkae yellow 3 florins", "take pink 3 florins", "take red 9 hire 1", "pas",
             "hello moderator")

    def describe_event(self, event: Any, names: Sequence[str], viewer: int | None) -> str:
        return describe_event(event, names, viewer)

    def summarise_commands(self, cmds: Sequence[Any], view: View | None = None) -> list[str]:
        """The legal commands grouped: a line per die with the viewer's cost."""
        from notation.registry import grammar_for

        return summarise_commands(cmds, view, grammar_for(self.name).format_command)

    def private_news(self, event: Any) -> bool:
        """Nothing in Signorie is told to one seat alone: a face-down tile is seen by
        nobody, its owner included (S8)."""
        return False

    def headline(self, view: View, viewer: str | None) -> str:
        return context.headline(view, viewer)

    def turn_line(self, view: View, viewer: str | None) -> str:
        return context.turn_line(view, viewer)

    def status_context(self, view: View) -> dict[str, Any]:
        return context.status_context(view)

    def render_text(self, view: View | FullView) -> str:
        return render_view(view)

    def board_png(self, view: View | FullView) -> bytes:
        """The board as a PNG picture (`pbem.signorie.picture`)."""
        from .picture import board_png  # Pillow loads when a picture is drawn

        return board_png(view)

    def full_view(self, state: State) -> FullView:
        """The public view and every face-down alliance tile: for a referee only."""
        face_down = tuple((p.name, row, tile) for p in state.players
                          for row, tile in zip(p.face_down, p.hidden, strict=False))
        return FullView(view_for(state, None), face_down)

    def view_to_json(self, view: View | FullView) -> dict[str, object]:
        if isinstance(view, FullView):
            return {**dataclasses.asdict(view.view),
                    "face_down": [list(t) for t in view.face_down]}
        return dataclasses.asdict(view)

    def demo_command(self, state: State, seat: int, rng: random.Random) -> Any:
        from engine.signorie.definition import GAME

        return GAME.random_command(state, seat, rng)


PRESENTER = SignoriePresenter()
