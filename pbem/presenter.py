"""The game seam of the shell: what a game's mails and text boards say.

The moderator decides, stores and routes mails for any game through the engine's
`Game` protocol; the words are the game's own. A `Presenter` gives them: a few words per
event, the legal commands in short, the game's part of the status mail, the text
board, and the demo's scripted moves; optionally a picture of the board
(`board_png`). Each game's status template lives in its own
folder, `templates/<template_dir>/`, beside the shared ones in `templates/` (an
absolute `template_dir` names a folder elsewhere, as a game outside pbem needs).

Presenters are registered by entry point (`pbem.registry`, group `pbem.presenters`).

Optional, looked up with getattr (a game without it gets the default):
`concerns(event, seat) -> bool`, an event of another seat's move that happened to
`seat` through a field other than its own `seat` (a card taken from it), so that a
seat whose mail setting is `turn` or `daily` is told at once
(`pbem.notifying.concerned`; default: only events whose `seat` is the seat).
`catalogue = (DOMAIN, LOCALE_DIR)`, the game's gettext catalogue of its own words
(`pbem.i18n`; default: none, the shell's catalogue alone).
`chance_noun`, what a chance line names and a seat draws in secret, as an English
plural noun for the shell's messages (`chance_noun(presenter)`; default "values").
`private_title`, the title of a seat's private mail, a message of the game's catalogue
(`private_title(presenter)`; default "your private information").
The shell names no game's objects: its words come from here, else the neutral default.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from .i18n import N_, gettext


class Presenter(Protocol):
    """The words of one game, for its players' mails and the operator's screen."""

    name: str  # the game's name (engine.registry)
    id_prefix: str  # game ids the moderator makes up: "<id_prefix>-<n>"
    template_dir: str  # the folder under templates/ (or absolute) with the game's templates
    typos: tuple[str, ...]  # lines a careless scripted player may send (refused)

    def describe_event(self, event: Any, names: Sequence[str], viewer: int | None) -> str:
        """A line about an event (already redacted for `viewer`), "you" for the
        viewer; a long one may wrap onto indented lines of at most 74 characters."""
        ...

    def summarise_commands(self, cmds: Sequence[Any], view: Any = None) -> list[str]:
        """A seat's legal commands, grouped to a readable list (`view`: the seat's
        view, for what the lines quote, such as a price)."""
        ...

    def private_news(self, event: Any) -> bool:
        """True for an event that tells its seat something new in secret (cards dealt
        or drawn): it gets a private mail at once, and a mail's commands after the
        one that caused it are refused (the sender has not seen it yet)."""
        ...

    def headline(self, view: Any, viewer: str | None) -> str:
        """What a status mail's first line says: the round and whose turn."""
        ...

    def turn_line(self, view: Any, viewer: str | None) -> str:
        """One sentence on whose turn it is, for `viewer` (a seat's name)."""
        ...

    def status_context(self, view: Any) -> dict[str, Any]:
        """The game's part of a seat's status mail context (its template's names)."""
        ...

    def render_text(self, view: Any) -> str:
        """The position as text (`pbem show`)."""
        ...

    def full_view(self, state: Any) -> Any:
        """A view with everything shown: for a referee, never for a player."""
        ...

    def view_to_json(self, view: Any) -> dict[str, object]:
        """The view as plain JSON data."""
        ...

    def demo_command(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A scripted player's move: a random legal command of `seat`."""
        ...


def board_png(presenter: Presenter, view: Any) -> bytes | None:
    """The presenter's picture of the board in `view` as PNG bytes, for the status
    mail's inline image and `pbem show --png`: None for a game without one.

    Optional: a presenter may define `board_png(view) -> bytes | None`; the same view
    must give the same bytes, and the picture shows only what `view` holds."""
    draw = getattr(presenter, "board_png", None)
    return draw(view) if draw is not None else None


CHANCE_NOUN = "values"
PRIVATE_TITLE = N_("your private information")


def chance_noun(presenter: Presenter | None) -> str:
    """What a chance line names and a seat draws in secret, as an English plural noun
    ("cards"), for messages that stay English (a log's chance hint, a refusal): the
    presenter's optional `chance_noun`, else "values"."""
    return getattr(presenter, "chance_noun", None) or CHANCE_NOUN


def private_title(presenter: Presenter | None) -> str:
    """The title of a seat's private mail in the current language: the presenter's
    optional `private_title` (a message of its catalogue), else "your private
    information"."""
    return gettext(getattr(presenter, "private_title", None) or PRIVATE_TITLE)
