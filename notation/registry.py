"""The grammar of each registered game, by name.

Temporary; replaced by the notation seam (`notation.registry` with the grammars of
the entry-point group `pbem.grammars`). Until then `grammar_for` gives an adapter
over today's notation functions, which hold the default game's grammar, so that the
log tools already call the notation through the seam's API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.registry import GAMES, UnknownGameError, default_name

from .commands import format_command, is_hidden, parse_chance, parse_command
from .words import VERBS, Vocabulary


@dataclass(frozen=True, slots=True)
class _Grammar:
    """A game's command grammar (temporary adapter; see the module docstring)."""

    name: str
    verbs: Vocabulary
    tags: tuple[str, ...]

    def parse_command(self, text: str, players: Sequence[str] = ()) -> Any:
        """A player's command.

        Raises:
            NotationError: the text is not a command of this game.
        """
        return parse_command(text, players)

    def format_command(self, cmd: Any) -> str:
        return format_command(cmd)

    def parse_chance(self, text: str, players: Sequence[str] = ()) -> Any:
        """A chance line's command (without its `*`).

        Raises:
            NotationError: the text is not a chance command of this game.
        """
        return parse_chance(text, players)

    def is_hidden(self, cmd: Any) -> bool:
        return is_hidden(cmd)


_GRAMMARS: dict[str, _Grammar] = {}


def grammar_for(name: str | None = None) -> _Grammar:
    """The grammar of the game called `name` (None: the default game).

    Raises:
        UnknownGameError: no grammar of that name.
    """
    wanted = name or default_name()
    found = _GRAMMARS.get(wanted)
    if found is not None:
        return found
    if wanted != default_name():
        raise UnknownGameError(wanted, GAMES.names())
    option_tags = tuple(o.tag for v in GAMES.get(wanted).variants.values() for o in v.options)
    grammar = _Grammar(wanted, VERBS, tuple(dict.fromkeys(option_tags)))
    _GRAMMARS[wanted] = grammar
    return grammar
