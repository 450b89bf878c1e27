"""The pbem notation: one command per line, and game logs made of such lines.

This package holds what every game's notation shares: game logs (`notation.log`),
vocabularies and messages (`notation.words`), the token reader, the bounds, and the
seam (`Grammar`, found by game name with `grammar_for`). Each game's commands are
read and written by its own grammar, in its package under `notation/`.
See docs/notation.md for the notation itself.
"""

from engine.errors import AmbiguousError, NotationError

from .grammar import Grammar
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
    known_tags,
    parse_log,
    split_players,
)
from .registry import GRAMMARS, grammar_for
from .words import MIN_PREFIX, ROUND_WORDS, UNDO_VERBS, Vocabulary, player_vocabulary

__all__ = [
    "AmbiguousError",
    "Chance",
    "Comment",
    "GRAMMARS",
    "GameLog",
    "Grammar",
    "KNOWN_TAGS",
    "LogEntry",
    "LogItem",
    "MIN_PREFIX",
    "Move",
    "NotationError",
    "ROUND_WORDS",
    "RoundMarker",
    "Tag",
    "UNDO_VERBS",
    "Vocabulary",
    "format_item",
    "format_log",
    "grammar_for",
    "iter_log",
    "known_tags",
    "parse_log",
    "player_vocabulary",
    "split_players",
]
