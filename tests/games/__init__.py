"""Games that only the tests register (`register_test_games`)."""

from __future__ import annotations

from collections.abc import Callable

from engine.registry import GAMES

from .highcard import GAME as HIGH_CARD

TEST_GAMES = (HIGH_CARD,)


def register_test_games() -> Callable[[], None]:
    """Register the test games not registered yet; returns what removes them again."""
    removers = [GAMES.register(g) for g in TEST_GAMES if g.name not in GAMES.names()]

    def unregister() -> None:
        for remove in removers:
            remove()

    return unregister
