"""TEMPORARY: the grammar registry's API, as the moderator calls it.

Another branch builds the real `notation.registry` (grammars by entry point, group
`pbem.grammars`); this file only gives `grammar_for(name=None)` over today's notation
functions, so that pbem's shell calls the notation through that API alone. It is
replaced by the real module at merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.registry import default_name, get_game

from . import commands, log, words


@dataclass(frozen=True, slots=True)
class _Grammar:
    """The notation of one game: its verbs and log tags, and its command lines."""

    name: str
    verbs: tuple[str, ...]
    tags: tuple[str, ...]

    def parse_command(self, text: str, players: Sequence[str] = ()) -> Any:
        """A player command.

        Raises:
            NotationError: the line is not a command.
        """
        return commands.parse_command(text, players)

    def format_command(self, cmd: Any) -> str:
        return commands.format_command(cmd)

    def parse_chance(self, text: str, players: Sequence[str] = ()) -> Any:
        """A chance line.

        Raises:
            NotationError: the line is not a chance line.
        """
        return commands.parse_chance(text, players)

    def is_hidden(self, cmd: Any) -> bool:
        return commands.is_hidden(cmd)


def grammar_for(name: str | None = None) -> _Grammar:
    """The grammar of the game called `name` (None: the default game).

    Raises:
        UnknownGameError: no such game is registered.
    """
    game = get_game(name or default_name())
    return _Grammar(game.name, tuple(words.VERBS.words), tuple(log.KNOWN_TAGS))
