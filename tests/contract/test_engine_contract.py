"""The engine-level contract, over every registered game (the test games included),
and proof that its checks fail for games that break it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol import Variant
from engine.registry import GAMES
from tests.games.highcard.events import Event
from tests.games.highcard.game import HighCard
from tests.games.highcard.state import State
from tests.games.highcard.views import View, view_for

from .checks import (
    check_codec,
    check_player_counts,
    check_playout,
    check_redaction,
    check_refold,
    check_shape,
    check_views,
    play,
)

SEEDS = 5
GAME_LIST = GAMES.all()
TABLES = [
    pytest.param(game, variant, n, id=f"{game.name}-{variant.name}-{n}")
    for game in GAME_LIST
    for variant in game.variants.values()
    for n in range(variant.min_players, variant.max_players + 1)
]


def test_the_test_games_are_registered() -> None:
    assert "high-card" in GAMES.names()


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_shape(game: Any) -> None:
    check_shape(game)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_player_counts(game: Any) -> None:
    check_player_counts(game)


@pytest.mark.parametrize(("game", "variant", "n"), TABLES)
def test_random_games(game: Any, variant: Any, n: int) -> None:
    for seed in range(SEEDS):
        p = play(game, variant, n, seed)
        check_playout(p)
        check_refold(p)
        check_codec(p)
        check_redaction(p)
        check_views(p)


# --------------------------------------------------------------------------- broken games


class LeakyView(HighCard):
    """Shows every hand to everyone."""

    name = "high-card-leaky-view"

    def view(self, state: State, seat: int | None) -> View:
        return view_for(state, seat, reveal_all=True)


class LeakyRedact(HighCard):
    """Redacts nothing."""

    name = "high-card-leaky-redact"

    def redact(self, event: Event, seat: int | None) -> Event:
        return event


class BadFold(HighCard):
    """Forgets the version when folding."""

    name = "high-card-bad-fold"

    def evolve(self, state: State, event: Event) -> State:
        return super().evolve(state, event) if event.private else state


class NarrowAdvert(HighCard):
    """Advertises two players but starts games for three."""

    name = "high-card-narrow"
    variants = {"standard": Variant("standard", 2, 2, HighCard.variants["standard"].options)}


def _one_game(game: HighCard) -> Any:
    return play(game, game.variants["standard"], 3, 0)


def test_a_view_that_shows_other_hands_fails() -> None:
    with pytest.raises(AssertionError, match="shows hidden"):
        check_views(_one_game(LeakyView()))
    check_views(_one_game(HighCard()))


def test_a_redaction_that_hides_nothing_fails() -> None:
    with pytest.raises(AssertionError, match="redacts to itself"):
        check_redaction(_one_game(LeakyRedact()))


def test_a_fold_that_differs_from_play_fails() -> None:
    with pytest.raises(AssertionError, match="fold of the events"):
        check_refold(_one_game(BadFold()))


def test_unadvertised_counts_accepted_fail() -> None:
    with pytest.raises(AssertionError, match="start accepts standard for 3 players"):
        check_player_counts(NarrowAdvert())
