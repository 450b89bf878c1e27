"""Games that only the tests register (`register_test_games`): the rules, the grammar
and the presenter of each."""

from __future__ import annotations

from collections.abc import Callable

from engine.registry import GAMES
from notation.registry import GRAMMARS
from pbem.registry import PRESENTERS

from .highcard import GAME as HIGH_CARD
from .highcard.notation import GRAMMAR as HIGH_CARD_GRAMMAR
from .highcard.presenter import PRESENTER as HIGH_CARD_PRESENTER

TEST_GAMES = (HIGH_CARD,)
TEST_GRAMMARS = (HIGH_CARD_GRAMMAR,)
TEST_PRESENTERS = (HIGH_CARD_PRESENTER,)


def register_test_games() -> Callable[[], None]:
    """Register the test games (rules, grammars, presenters) not registered yet;
    returns what removes them again."""
    removers = [GAMES.register(g) for g in TEST_GAMES if g.name not in GAMES.names()]
    removers += [GRAMMARS.register(g) for g in TEST_GRAMMARS if g.name not in GRAMMARS.names()]
    removers += [PRESENTERS.register(p) for p in TEST_PRESENTERS
                 if p.name not in PRESENTERS.names()]

    def unregister() -> None:
        for remove in removers:
            remove()

    return unregister
