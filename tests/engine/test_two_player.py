"""The 2-player game end to end in the engine: self-play of both its freedoms options,
replay, the first event's option, the variant chosen by the player count and the
notation of its lot and its freedoms. Its rules one by one are cases
(tests/cases/princes/two-player.case)."""

from __future__ import annotations

import json

import pytest
from test_selfplay import fold_checked

from engine.errors import IllegalMoveError
from engine.match import Match
from engine.princes.commands import AddFreedoms, Open, Place
from engine.princes.definition import GAME
from engine.princes.events import (
    AuctionWon,
    FreedomsAdded,
    GameStarted,
    LandscapePlaced,
    RoundStarted,
    from_dict,
    to_dict,
)
from engine.princes.game import replay
from engine.princes.ruleset import FREEDOMS, LANDSCAPES
from engine.protocol import variant_for
from engine.selfplay import play_random
from notation.princes import format_command, parse_chance, parse_command

GAMES = [(freedoms, seed) for freedoms in ("5", "4") for seed in range(12)]


@pytest.mark.parametrize(("freedoms", "seed"), GAMES, ids=[f"{f}f-{s}" for f, s in GAMES])
def test_a_random_two_player_game(freedoms: str, seed: int) -> None:
    game = play_random(GAME, 2, f"two|{seed}", options={"freedoms": freedoms})
    state = game.state
    assert state.finished and state.variant == "two-player" and state.winners
    assert replay(game.events) == state == fold_checked(game.events)
    for e in game.events:
        assert from_dict(json.loads(json.dumps(to_dict(e)))) == e
    added = [e for e in game.events if isinstance(e, FreedomsAdded)]
    assert len(added) == 1 and len(added[0].freedoms) == int(freedoms) - 3
    supply = {f: state.freedoms_left[f] + sum(f in p.freedoms for p in state.players)
              for f in FREEDOMS}
    assert sum(supply.values()) == int(freedoms)
    # One landscape a round at most, taken as the lot and placed as a type.
    per_round: dict[int, int] = {}
    rnd = 0
    for e in game.events:
        if isinstance(e, RoundStarted):
            rnd = e.round
        elif isinstance(e, AuctionWon):
            assert e.obj not in LANDSCAPES
        elif isinstance(e, LandscapePlaced):
            per_round[rnd] = per_round.get(rnd, 0) + 1
    assert max(per_round.values(), default=0) <= 1


def test_self_play_reaches_the_lot() -> None:
    won = [e for seed in range(4) for e in play_random(GAME, 2, f"two|{seed}").events
           if isinstance(e, AuctionWon) and e.obj == "landscape"]
    assert won


def test_the_freedoms_option_is_in_the_first_event_only_when_chosen() -> None:
    four = GAME.start(["a", "b"], variant="two-player", options={"freedoms": "4"},
                      commitment="", seeded=True)
    five = GAME.start(["a", "b"], variant="two-player", options={}, commitment="", seeded=True)
    assert to_dict(four)["freedoms"] == 4 and "freedoms" not in to_dict(five)
    assert from_dict(to_dict(four)) == four and from_dict(to_dict(five)) == five
    expansion = {"expansion": "none", "character-raise": "higher", "merchant-points": "ahead",
                 "muse-princess": "yes"}  # the expansion's options, at their defaults
    assert GAME.setup(four).options == {"money": "hidden", "freedoms": "4", **expansion}
    assert GAME.setup(five).options == {"money": "hidden", "freedoms": "5", **expansion}
    standard = GAME.start(["a", "b", "c"], variant="standard", options={}, commitment="",
                          seeded=True)
    assert set(GAME.setup(standard).options) == {"money", *expansion}
    # A standard game's first event is stored as before the option existed.
    assert set(to_dict(standard)) == {"type", "v", "players", "variant", "money_open",
                                      "seeded", "edition", "engine", "commitment"}


def test_the_freedoms_option_is_the_two_player_games_only() -> None:
    with pytest.raises(IllegalMoveError, match="unknown option 'freedoms'; known: money"):
        GAME.start(["a", "b", "c"], variant="standard", options={"freedoms": "4"},
                   commitment="", seeded=True)
    with pytest.raises(IllegalMoveError, match="'5' or '4', not '3'"):
        GAME.start(["a", "b"], variant="two-player", options={"freedoms": "3"},
                   commitment="", seeded=True)


def test_the_variant_follows_the_player_count() -> None:
    assert variant_for(GAME.variants, 2) == "two-player"
    assert [variant_for(GAME.variants, n) for n in (3, 4, 5)] == ["standard"] * 3
    assert variant_for(GAME.variants, 6) == "standard"  # whose start says why not
    match = Match.start(GAME, ["anna", "bas"], seed="s")
    first = match.events[0]
    assert isinstance(first, GameStarted) and first.variant == "two-player"
    assert Match.start(GAME, ["a", "b", "c"], seed="s").events[0].variant == "standard"


def test_the_notation_of_the_lot_and_the_freedoms() -> None:
    assert parse_command("open landscape") == Open("landscape")
    assert parse_command("open lands") == Open("landscape")
    assert parse_command("place lake a3 b3 c3") == Place("lake", ("a3", "b3", "c3"))
    line = "* freedoms: travel opinion"
    assert parse_chance(line) == AddFreedoms(("travel", "opinion"))
    assert parse_chance("*  Freedoms:  TRAV  opin # seeded") == AddFreedoms(("travel", "opinion"))
    assert format_command(parse_chance(line)) == line
