"""The notation of Signorie: its commands as text and back.

Text in, typed `engine.signorie.commands` out, and back: `parse_command(format_command(c))
== c` for every valid command, and `format_command(parse_command(s))` is the canonical
spelling of `s` (lowercase, full names, steps as `mil2>5`, single spaces, no comment).
`GRAMMAR` is what the generic log reader and the shell use (`notation.grammar`). See
docs/notation-signorie.md for the notation itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.signorie.commands import ChanceCommand, Command, PlayerCommand
from notation.reader import Reader
from notation.words import player_vocabulary, quote

from .commands import (
    HIDDEN,
    format_action,
    format_command,
    format_step,
    hidden_command,
    is_hidden,
    public,
    read_chance,
    read_command,
)
from .fast import fast_chance, fast_command
from .words import VERBS

NAME = "signorie"
"""The game's name (`engine.signorie` and the [Game] tag)."""

TAGS: tuple[str, ...] = ()
"""The game's own header tags: none (Signorie has no options)."""


def _strip_comment(text: str) -> str:
    hash_at = text.find("#")
    return text if hash_at < 0 else text[:hash_at]


def parse_command(text: str, players: Sequence[str] = ()) -> PlayerCommand:
    """One player command, e.g. `take red 3 marry firenze 2 # a good match`.

    Raises:
        NotationError: `text` is no command (`column` says where); chance lines
            are refused too. AmbiguousError when a prefix fits several words.
    """
    content = _strip_comment(text)
    command = fast_command(content.split(), None)
    if command is not None:
        return command
    return read_command(Reader(content, 0, len(content), []), player_vocabulary(players))


def parse_chance(text: str, players: Sequence[str] = ()) -> ChanceCommand:
    """One chance line, e.g. `* roll yellow 1 4 6 2, red 3 3 5 1`.

    Raises:
        NotationError: `text` is no chance line of Signorie.
    """
    content = _strip_comment(text)
    stripped = content.lstrip()
    if not stripped.startswith("*"):
        r = Reader(content, 0, len(content), [])
        raise r.unexpected("a chance line starting with '*'", (quote("*"),))
    star = len(content) - len(stripped)
    vocabulary = player_vocabulary(players)
    return fast_chance(content, star, vocabulary) or read_chance(content, star, vocabulary)


class SignorieGrammar:
    """Signorie's `notation.grammar.Grammar`. Its functions are the module functions
    themselves (static), so the log reader calls them directly."""

    __slots__ = ()

    name = NAME
    verbs = VERBS
    tags = TAGS
    parse_command = staticmethod(parse_command)
    parse_chance = staticmethod(parse_chance)
    format_command = staticmethod(format_command)
    is_hidden = staticmethod(is_hidden)
    public = staticmethod(public)
    fast_command = staticmethod(fast_command)
    read_command = staticmethod(read_command)
    hidden_command = staticmethod(hidden_command)
    fast_chance = staticmethod(fast_chance)
    read_chance = staticmethod(read_chance)

    def naming(self, player: str) -> None:
        return None  # no player command names a player (chance lines do)

    def __repr__(self) -> str:
        return f"<grammar {self.name}>"


GRAMMAR = SignorieGrammar()
"""The grammar, registered as the entry point `signorie` of `pbem.grammars`."""

__all__ = [
    "GRAMMAR",
    "HIDDEN",
    "NAME",
    "TAGS",
    "Command",
    "SignorieGrammar",
    "VERBS",
    "format_action",
    "format_command",
    "format_step",
    "is_hidden",
    "parse_chance",
    "parse_command",
    "public",
]
