"""The pbem notation: one command per line, and game logs made of such lines.

Text in, typed `engine.princes.commands` out, and back: `parse_command(format_command(c)) == c`
for every valid command, and `format_command(parse_command(s))` is the canonical
spelling of `s` (lowercase, full names, single spaces, cells sorted, no comment).
See docs/notation.md for the notation itself.
"""

from engine.errors import AmbiguousError, NotationError

from .commands import HIDDEN, format_command, is_hidden, parse_chance, parse_command
from .log import (
    KNOWN_TAGS,
    Chance,
    Comment,
    GameLog,
    LogEntry,
    LogItem,
    Move,
    RoundMarker,
    Tag,
    format_item,
    format_log,
    iter_log,
    parse_log,
    split_players,
)
from .words import (
    BONUS_CARDS,
    BUILDINGS,
    CARDS,
    CELL_ORDER,
    DECK_CARDS,
    FREEDOM_WORDS,
    LANDSCAPE_WORDS,
    MIN_PREFIX,
    OBJECT_WORDS,
    PRESTIGE_CARDS,
    PROFESSIONS,
    VERBS,
    Vocabulary,
    player_vocabulary,
)

__all__ = [
    "AmbiguousError",
    "BONUS_CARDS",
    "BUILDINGS",
    "CARDS",
    "CELL_ORDER",
    "Chance",
    "Comment",
    "DECK_CARDS",
    "FREEDOM_WORDS",
    "GameLog",
    "HIDDEN",
    "KNOWN_TAGS",
    "LANDSCAPE_WORDS",
    "LogEntry",
    "LogItem",
    "MIN_PREFIX",
    "Move",
    "NotationError",
    "OBJECT_WORDS",
    "PRESTIGE_CARDS",
    "PROFESSIONS",
    "RoundMarker",
    "Tag",
    "VERBS",
    "Vocabulary",
    "format_command",
    "format_item",
    "format_log",
    "is_hidden",
    "iter_log",
    "parse_chance",
    "parse_command",
    "parse_log",
    "player_vocabulary",
    "split_players",
]
