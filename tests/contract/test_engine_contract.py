"""The engine-level contract, over every registered game (the test games included),
and proof that its checks fail for games that break it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.protocol import Result, Setup, Variant
from engine.registry import GAMES, summary_of
from tests.games.highcard.commands import Bid, Command, Deal, Reveal
from tests.games.highcard.events import Event, GameStarted
from tests.games.highcard.game import HighCard
from tests.games.highcard.state import State
from tests.games.highcard.views import View, view_for

from .checks import (
    check_codec,
    check_player_counts,
    check_playout,
    check_redaction,
    check_refold,
    check_result,
    check_setup,
    check_shape,
    check_undo_playout,
    check_views,
    option_sets,
    play,
    play_undoing,
)

# Each table (game, variant, player count) plays at least SEEDS random games and at
# least MOVES moves, and at least UNDO_SEEDS games with undos and UNDO_REQUESTS undo
# requests: a game with short games plays more of them.
SEEDS = 10
MOVES = 2000
UNDO_SEEDS = 5
UNDO_REQUESTS = 40
MAX_GAMES = 200
GAME_LIST = GAMES.all()
TABLES = [
    pytest.param(game, variant, n, id=f"{game.name}-{variant.name}-{n}")
    for game in GAME_LIST
    for variant in game.variants.values()
    for n in range(variant.min_players, variant.max_players + 1)
]
OPTION_TABLES = [
    pytest.param(game, variant, n, options,
                 id=f"{game.name}-{variant.name}-{n}-"
                    + "-".join(f"{k}={v}" for k, v in options.items()))
    for game in GAME_LIST
    for variant in game.variants.values()
    for i, options in enumerate(option_sets(variant))
    # all the options together at every count, each alone at the fewest players
    for n in range(variant.min_players,
                   (variant.max_players if i == 0 else variant.min_players) + 1)
]


def test_the_test_games_are_registered() -> None:
    assert {"high-card", "princes-of-florence"} <= set(GAMES.names())


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_shape(game: Any) -> None:
    check_shape(game)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_player_counts(game: Any) -> None:
    check_player_counts(game)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_the_summary_is_the_game(game: Any) -> None:
    """What help pages list of a game (its summary, when it has one) is what it plays."""
    summary = summary_of(game.name)
    assert (summary.name, summary.title, dict(summary.variants)) == \
        (game.name, game.title, dict(game.variants))


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_setup_round_trips(game: Any) -> None:
    check_setup(game)


@pytest.mark.parametrize(("game", "variant", "n"), TABLES)
def test_random_games(game: Any, variant: Any, n: int) -> None:
    seed = moves = 0
    while seed < SEEDS or moves < MOVES:
        assert seed < MAX_GAMES, f"{MAX_GAMES} games of {moves} moves in all"
        p = play(game, variant, n, seed)
        check_playout(p)
        check_refold(p)
        check_codec(p)
        check_redaction(p)
        check_views(p)
        moves += len(p.moves)
        seed += 1


@pytest.mark.parametrize(("game", "variant", "n", "options"), OPTION_TABLES)
def test_random_games_with_options(game: Any, variant: Any, n: int,
                                   options: dict[str, str]) -> None:
    """The game's options (an expansion among them) play as the defaults do."""
    for seed in range(SEEDS):
        p = play(game, variant, n, seed, options)
        assert dict(game.setup(p.first).options) == {
            o.name: options.get(o.name, o.default) for o in variant.options}
        check_playout(p)
        check_refold(p)
        check_codec(p)
        check_redaction(p)
        check_views(p)


@pytest.mark.parametrize(("game", "variant", "n"), TABLES)
def test_random_games_with_undos(game: Any, variant: Any, n: int) -> None:
    seed = undos = refusals = 0
    while seed < UNDO_SEEDS or undos + refusals < UNDO_REQUESTS:
        assert seed < MAX_GAMES, f"{MAX_GAMES} games: {undos} undos agreed, {refusals} refused"
        u = play_undoing(game, variant, n, seed)
        check_undo_playout(u)
        undos += u.undos
        refusals += u.refusals
        seed += 1
    assert undos and refusals, f"{seed} games: {undos} undos agreed, {refusals} refused"


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


class LateCheat(HighCard):
    """Bids more than anyone has when a player is late."""

    name = "high-card-late-cheat"

    def late_command(self, state: State, seat: int) -> Command:
        return Bid(1000) if state.phase == "auction" else super().late_command(state, seat)


class SelfDoubtingChance(HighCard):
    """Finds every stated deal or reveal wrong."""

    name = "high-card-self-doubting"

    def chance_mismatch(self, stated: Any, seeded: Deal | Reveal) -> str | None:
        return "that is not what the seed says"


class ForgetfulSetup(HighCard):
    """Leaves out the options that took their default."""

    name = "high-card-forgetful-setup"

    def setup(self, first: GameStarted) -> Setup:
        whole = super().setup(first)
        purse = dict(whole.options).get("purse")
        return dataclasses.replace(whole, options={} if purse == "20" else whole.options)


class StuckVersion(HighCard):
    """Goes back to the old position, old version and all, after an undo."""

    name = "high-card-stuck-version"

    def with_version(self, state: State, version: int) -> State:
        return state


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


def test_an_illegal_late_command_fails() -> None:
    with pytest.raises(AssertionError, match="late command Bid"):
        check_playout(_one_game(LateCheat()))


def test_a_seeded_chance_that_differs_from_itself_fails() -> None:
    with pytest.raises(AssertionError, match="differs from itself"):
        check_playout(_one_game(SelfDoubtingChance()))


def test_a_setup_without_its_defaults_fails() -> None:
    with pytest.raises(AssertionError, match="setup gives options"):
        check_setup(ForgetfulSetup())


def test_an_undo_that_keeps_the_old_version_fails() -> None:
    game = StuckVersion()
    with pytest.raises(AssertionError, match="version does not count"):
        for seed in range(5):
            play_undoing(game, game.variants["standard"], 3, seed)


def test_places_that_ignore_the_tiebreak_fail() -> None:
    result = HighCard().result(_one_game(HighCard()).final)
    assert result is not None
    check_result(result, [s.name for s in result.standings])
    shared = Result(tuple(dataclasses.replace(s, score=0, tiebreaks=(s.seat,), place=1)
                          for s in result.standings), tuple(range(len(result.standings))))
    with pytest.raises(AssertionError, match="does not follow"):
        check_result(shared, [s.name for s in result.standings])
