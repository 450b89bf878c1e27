"""`SkippedPass`: the other reading of a `pass` from the player to act next, skipped on
the object just sold (ruling R18), which only the log replay of a table log gives
(`GAME.table_reading`). It records their pass and changes nothing else, and is
refused anywhere else; the notation writes it `pass` and never reads it."""

from __future__ import annotations

import pytest
from princes_cases import Line, build_given

from engine.errors import IllegalMoveError
from engine.princes.commands import Open, Pass, SkippedPass, Take
from engine.princes.definition import GAME
from engine.princes.events import AuctionWon, BidPassed, NamingDeclined, ObjectNamed
from engine.princes.game import apply
from engine.princes.legal import legal_commands
from engine.princes.state import State
from notation.princes import format_command, parse_command

PLAYERS = ("anna", "bas", "chris", "dirk")
ANNA, BAS, CHRIS, DIRK = range(4)


def sold(*given: str) -> State:
    """Round 4: bas names a builder and wins it at once, all the others in the
    auction having 3 builders."""
    state = build_given(PLAYERS, [Line(1, "round 4, phase auction, start bas"),
                                  *(Line(i, g) for i, g in enumerate(given, 2))])
    state, events = apply(state, BAS, Open("builder"))
    assert isinstance(events[-1], AuctionWon) and state.lot is None
    return state


LAST = sold("anna: builders 3", "chris: won", "dirk: won")  # anna is the last player
NAMER = sold("supply builder 1", "anna: builders 3", "chris: builders 3",
             "dirk: won")  # chris names next


def test_the_last_player_skipped_says_pass_then_takes() -> None:
    assert LAST.turn == ANNA
    assert GAME.table_reading(LAST, ANNA, Pass()) == SkippedPass()
    state, events = apply(LAST, ANNA, SkippedPass())
    assert events == [BidPassed(ANNA)]
    assert state.turn == ANNA and state.phase == "auction" and not state.players[ANNA].out
    assert GAME.table_reading(state, ANNA, Pass()) is None  # said once
    with pytest.raises(IllegalMoveError) as refused:
        apply(state, ANNA, SkippedPass())
    assert refused.value.rule == "auction-skipped-pass"
    assert isinstance(apply(state, ANNA, Take("jester"))[1][0], AuctionWon)
    assert apply(state, ANNA, Pass())[1][0] == NamingDeclined(ANNA)


def test_the_namer_skipped_says_pass_then_names() -> None:
    assert NAMER.turn == CHRIS
    state, events = apply(NAMER, CHRIS, SkippedPass())
    assert events == [BidPassed(CHRIS)] and state.turn == CHRIS
    assert apply(state, CHRIS, Open("jester"))[1] == [ObjectNamed(CHRIS, "jester", 200)]
    # anna, skipped too but not to act, says the ordinary pass
    assert GAME.table_reading(NAMER, ANNA, Pass()) is None
    assert apply(NAMER, ANNA, Pass())[1] == [BidPassed(ANNA)]


@pytest.mark.parametrize(("state", "seat"), [
    (NAMER, ANNA),  # skipped, not to act: an ordinary pass is what they say
    (NAMER, BAS),  # the winner
    (build_given(PLAYERS, [Line(1, "round 1, phase auction, start anna")]), ANNA),
    (apply(NAMER, CHRIS, Open("jester"))[0], DIRK),  # a lot is out
])
def test_refused_anywhere_else(state: State, seat: int) -> None:
    assert GAME.table_reading(state, seat, Pass()) is None
    with pytest.raises(IllegalMoveError):
        apply(state, seat, SkippedPass())


def test_never_listed_and_written_as_pass() -> None:
    for state in (LAST, NAMER):
        for seat in range(4):
            assert SkippedPass() not in legal_commands(state, seat)
    assert Pass() in legal_commands(LAST, ANNA)
    assert format_command(SkippedPass()) == "pass"
    assert parse_command("pass", PLAYERS) == Pass()
    assert GAME.table_reading(LAST, ANNA, Take("jester")) is None
