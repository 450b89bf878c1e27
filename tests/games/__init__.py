"""Games that only the tests register (`register_test_games`): the rules and the
grammar of each."""

from __future__ import annotations

from collections.abc import Callable

from engine.registry import GAMES
from notation.registry import GRAMMARS

from .highcard import GAME as HIGH_CARD
from .highcard.notation import GRAMMAR as HIGH_CARD_GRAMMAR

TEST_GAMES = (HIGH_CARD,)
TEST_GRAMMARS = (HIGH_CARD_GRAMMAR,)


def register_test_games() -> Callable[[], None]:
    """Register the test games (rules and grammars) not registered yet; returns what
    removes them again."""
    removers = [GAMES.register(g) for g in TEST_GAMES if g.name not in GAMES.names()]
    removers += [GRAMMARS.register(g) for g in TEST_GRAMMARS if g.name not in GRAMMARS.names()]

    def unregister() -> None:
        for remove in removers:
            remove()

    return unregister
