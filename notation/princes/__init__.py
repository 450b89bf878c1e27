"""The notation of The Princes of Florence: its commands as text and back.

Text in, typed `engine.princes.commands` out, and back: `parse_command(format_command(c)) == c`
for every valid command, and `format_command(parse_command(s))` is the canonical
spelling of `s` (lowercase, full names, single spaces, cells sorted, no comment).
`GRAMMAR` is what the generic log reader and the shell use (`notation.grammar`).
See docs/notation.md for the notation itself.
"""

from __future__ import annotations

from engine.princes.commands import Choose, Command, Deal, Draw, Keep, Recruit

from . import commands
from .commands import HIDDEN, format_command, is_hidden, parse_chance, parse_command
from .words import (
    BONUS_CARDS,
    BUILDINGS,
    CARDS,
    CELL_ORDER,
    DECK_CARDS,
    FREEDOM_WORDS,
    LANDSCAPE_WORDS,
    OBJECT_WORDS,
    PRESTIGE_CARDS,
    PROFESSIONS,
    VERBS,
)

NAME = "princes-of-florence"
"""The game's name (`engine.princes` and the [Game] tag)."""

TAGS = ("Money", "Freedoms", "Expansions", "CharacterRaise", "MerchantPoints", "MusePrincess")
"""The game's own header tags, its options: `Money` (`hidden` or `open`), the 2-player
game's `Freedoms` (`5` or `4`), `Expansions` (`none` or `muse-and-princess`), and the
expansion's disputed readings `CharacterRaise` (`higher` or `next`), `MerchantPoints`
(`ahead` or `level`) and `MusePrincess` (`yes` or `no`)."""


class PrincesGrammar:
    """The Princes of Florence's `notation.grammar.Grammar`. Its functions are the
    module functions themselves (static), so the log reader calls them directly."""

    __slots__ = ()

    name = NAME
    verbs = VERBS
    tags = TAGS
    parse_command = staticmethod(commands.parse_command)
    parse_chance = staticmethod(commands.parse_chance)
    format_command = staticmethod(commands.format_command)
    is_hidden = staticmethod(commands.is_hidden)
    fast_command = staticmethod(commands.fast_command)
    read_command = staticmethod(commands.read_command)
    hidden_command = staticmethod(commands.hidden_command)
    fast_chance = staticmethod(commands.fast_chance)
    read_chance = staticmethod(commands.read_chance)

    def public(self, cmd: Command) -> Command:
        """The cards of a deal, a draw, a keep or a choice as `?`."""
        match cmd:
            case Deal(player, cards):
                return Deal(player, (HIDDEN,) * len(cards))
            case Draw(player, deck, cards):
                return Draw(player, deck, (HIDDEN,) * len(cards))
            case Keep(cards):
                return Keep((HIDDEN,) * len(cards))
            case Choose():
                return Choose(HIDDEN)
        return cmd

    def naming(self, player: str) -> Recruit:
        return Recruit(next(iter(PROFESSIONS.words)), player)

    def __repr__(self) -> str:
        return f"<grammar {self.name}>"


GRAMMAR = PrincesGrammar()
"""The grammar, registered as the entry point `princes-of-florence` of
`pbem.grammars`."""

__all__ = [
    "BONUS_CARDS",
    "BUILDINGS",
    "CARDS",
    "CELL_ORDER",
    "DECK_CARDS",
    "FREEDOM_WORDS",
    "GRAMMAR",
    "HIDDEN",
    "LANDSCAPE_WORDS",
    "NAME",
    "OBJECT_WORDS",
    "PRESTIGE_CARDS",
    "PROFESSIONS",
    "PrincesGrammar",
    "TAGS",
    "VERBS",
    "format_command",
    "is_hidden",
    "parse_chance",
    "parse_command",
]
