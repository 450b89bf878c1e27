"""The seam between the generic notation and a game's own: what every game's notation
gives the log reader and the shell.

A game's log lines are `ACTOR: command` moves and `* ...` chance lines; their words
are the game's (`Grammar`). Everything else in a log is the same in every game and
read by `notation.log`: header tags, `round N` markers, comments, the players'
names, the bounds of `notation.limits`. Grammars are found by the game's name in
`notation.registry`, the name of the [Game] tag and of `engine.protocol.Game.name`.

The log reader reads each line by a fast path first (`fast_command`, `fast_chance`),
which recognises common well-formed lines with plain dict lookups and returns None for
anything else (it may be asked twice about such a line), then, only for those, by the
slow path (`read_command`, `read_chance`) that parses or explains, with exact columns.
A fast result always equals the slow one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .reader import Reader
from .words import Vocabulary


@runtime_checkable
class Grammar(Protocol):
    """A game's notation: its commands as text and back.

    Commands are the game's own values (`engine.protocol.Game.apply` takes them);
    `parse_command(format_command(c)) == c` for every valid command. Each function
    takes `players`, the seated players (a `Vocabulary` of their lowercased names, or
    None to take any name), for commands that name a player.
    """

    name: str
    """The game's name, as in `engine.protocol.Game.name` and the [Game] tag."""

    verbs: Vocabulary
    """The words that start a command: a line of a mail is a command if it starts
    with one (`pbem.replies`). They include `notation.words.UNDO_VERBS`."""

    tags: tuple[str, ...]
    """The game's own header tags (its options), spelled as written; read
    case-insensitively, like the generic `notation.log.KNOWN_TAGS`."""

    def parse_command(self, text: str, players: Sequence[str] = ()) -> Any:
        """One player command, e.g. from a line of a mail (a `#` comment is cut off).

        Raises:
            NotationError: `text` is no command (`column` says where); chance lines
                are refused too. AmbiguousError when a prefix fits several words.
        """
        ...

    def parse_chance(self, text: str, players: Sequence[str] = ()) -> Any:
        """One chance line, `* ...` (a `#` comment is cut off).

        Raises:
            NotationError: `text` is no chance line.
        """
        ...

    def format_command(self, cmd: Any) -> str:
        """The canonical text of a command; a chance command as its `* ...` line.

        Raises:
            TypeError: `cmd` is no command of this game.
        """
        ...

    def is_hidden(self, cmd: Any) -> bool:
        """True if the command holds hidden values (a line of a public log)."""
        ...

    def public(self, cmd: Any) -> Any:
        """The command as every player may see it: its hidden values (cards only
        one player saw) written as `?`, so that `is_hidden` is true of it; any other
        command as it is."""
        ...

    def naming(self, player: str) -> Any | None:
        """A command that names the player `player` (e.g. a card given to them), or
        None if no command of the game names a player: how `pbem.names` checks that
        a name survives the notation."""
        ...

    # -- what the log reader calls, line by line ---------------------------------

    def fast_command(self, toks: list[str], players: Vocabulary | None) -> Any | None:
        """The command the tokens after `ACTOR:` spell if they are a common
        well-formed command, else None (never raises). A value of its arguments
        alone: the log reader reuses it for every line of a log with the same text
        after `ACTOR:`, so the command must be an immutable value. A command that
        names a player is None when `players` knows no one (`notation.log.NOBODY`):
        the reader shares the commands read so across logs."""
        ...

    def read_command(self, r: Reader, players: Vocabulary | None) -> Any:
        """The command of the tokens of `r` (those after `ACTOR:`).

        Raises:
            NotationError: they are no command, placed by `r`.
        """
        ...

    def hidden_command(self, text: str) -> Any | None:
        """The command of `text` (after `ACTOR:`) if it is one a public log writes
        with hidden values, else None (never raises)."""
        ...

    def fast_chance(self, text: str, star: int, players: Vocabulary | None) -> Any | None:
        """The chance command of a common well-formed chance line whose `*` is at
        index `star` of `text` (its comment cut off), else None (never raises)."""
        ...

    def read_chance(self, text: str, star: int, players: Vocabulary | None) -> Any:
        """The chance command of the chance line whose `*` is at index `star`.

        Raises:
            NotationError: the line is no chance line of this game.
        """
        ...
