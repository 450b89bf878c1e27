"""Rules as a value: each variant's data (engine.princes.ruleset.rules_for), carried by
the game's state and never by an event."""

from __future__ import annotations

import copy
import pickle
from importlib import resources

import pytest

from engine.errors import IllegalMoveError
from engine.princes.commands import Keep, Open, Pass
from engine.princes.definition import GAME
from engine.princes.events import GameStarted, ObjectNamed, to_dict
from engine.princes.game import apply, new_state, replay, seeded_chance, start_game, to_act
from engine.princes.ruleset import STANDARD_RULES, load_rules, rules_for
from engine.princes.state import CHANCE, State

TWO_PLAYER_CHANGES = {"variant": "two-player", "start_florins": 2500, "auction_open": 300,
                      "min_players": 2, "max_players": 2, "freedom_per_type": 1,
                      "freedom_extra": 2, "landscape_lot": True,
                      "objects": ("landscape", "jester", "builder", "prestige", "recruiting")}


def test_the_standard_rules_are_built_once_and_are_the_module_default() -> None:
    rules = rules_for("standard")
    assert rules is rules_for("standard") is STANDARD_RULES
    assert (rules.start_florins, rules.auction_open) == (3500, 200)
    assert (rules.min_players, rules.max_players) == (3, 5)
    assert GAME.variants["standard"].admits(3) and not GAME.variants["standard"].admits(2)


def test_two_player_data_overrides_only_its_own_values() -> None:
    two, std = rules_for("two-player"), STANDARD_RULES
    for name, value in TWO_PLAYER_CHANGES.items():
        assert getattr(two, name) == value, name
    same = [f for f in std.__dataclass_fields__ if f not in TWO_PLAYER_CHANGES]
    assert {f: getattr(two, f) for f in same} == {f: getattr(std, f) for f in same}
    assert two.edition == std.edition and two != std


def test_a_variant_overlays_single_keys_of_a_table() -> None:
    text = rules_text().replace("[variants.two-player]",
                                "[variants.rich]\nplayers = [3, 4]\nsetup.rounds = 5\n\n"
                                "[variants.two-player]")
    rich = load_rules(text, "rich")
    assert (rich.rounds, rich.start_florins, rich.professions_kept) == (5, 3500, 3)
    assert (rich.min_players, rich.max_players) == (3, 4)
    assert load_rules(text) == STANDARD_RULES  # equal by value, not the same object


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(IllegalMoveError, match="unknown variant 'solo'.*standard, two-player"):
        rules_for("solo")


def test_only_offered_variants_start_and_player_counts_come_from_the_rules() -> None:
    with pytest.raises(IllegalMoveError, match="unknown variant 'solo'; known: standard, "
                                               "two-player"):
        start_game(["a", "b"], variant="solo")
    with pytest.raises(IllegalMoveError, match="the standard game is for 3 to 5 players, not 2"):
        start_game(["a", "b"])
    with pytest.raises(IllegalMoveError, match="the two-player game is for 2 players, not 3"):
        start_game(["a", "b", "c"], variant="two-player")


def test_the_state_carries_its_variants_rules_and_no_event_does() -> None:
    started = start_game(["a", "b", "c"])
    assert "rules" not in to_dict(started)
    assert set(to_dict(started)) == {"type", "v", "players", "variant", "money_open",
                                     "seeded", "edition", "engine", "commitment"}
    assert new_state(started).rules is STANDARD_RULES


def test_a_two_player_state_plays_by_its_own_numbers() -> None:
    """The engine reads the state's rules: florins and the opening bid of the 2-player
    data (the event built by hand, as stored games hold it)."""
    started = GameStarted(("a", "b"), "two-player", False, True, STANDARD_RULES.edition,
                          GAME.version, "")
    state = new_state(started)
    assert state.rules is rules_for("two-player")
    assert [p.florins for p in state.players] == [2500, 2500]
    events = [started]
    while state.phase != "auction":
        seat = to_act(state)[0]
        cmd = seeded_chance(state, "seed") if seat == CHANCE else Keep(
            state.players[seat].dealt[:state.rules.professions_kept])
        state, new = apply(state, seat, cmd)
        events.extend(new)
    seat = to_act(state)[0]
    state, new = apply(state, seat, Open("jester"))
    assert new[0] == ObjectNamed(seat, "jester", 300)
    events.extend(new)
    state, new = apply(state, to_act(state)[0], Pass())
    events.extend(new)
    assert state.players[seat].florins == 2500 - 300
    rebuilt = replay(events)
    assert rebuilt == state and rebuilt.rules is state.rules


def test_copies_of_a_state_share_its_rules() -> None:
    state = new_state(start_game(["a", "b", "c"]))
    assert copy.deepcopy(state).rules is state.rules
    back: State = pickle.loads(pickle.dumps(state))
    assert back == state and back.rules is state.rules


def rules_text() -> str:
    return resources.files("engine.princes").joinpath("data/princes.toml").read_text("utf-8")


def test_the_summary_offers_the_rules_player_counts() -> None:
    """The summary help pages list (engine.princes.summary) matches the rules data."""
    from engine.princes.summary import SUMMARY

    variant = SUMMARY.variants[STANDARD_RULES.variant]
    assert (variant.min_players, variant.max_players) == \
        (STANDARD_RULES.min_players, STANDARD_RULES.max_players)
