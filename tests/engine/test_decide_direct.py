"""Commands built directly (not through the notation) are checked by `decide` too.

The notation cannot write some commands (negative numbers, cells off the grid, unknown
names); anything else that builds commands (tools, tests, a future API) can. `decide`
must refuse them like any illegal move, leaving the state as it was.
"""

from __future__ import annotations

import copy

import pytest
from princes_cases import Line, build_given

from engine.errors import IllegalMoveError
from engine.princes.commands import (
    Bid,
    Build,
    Command,
    Draw,
    Freedom,
    Open,
    Recruit,
    Sell,
    Work,
)
from engine.princes.game import decide
from engine.princes.state import CHANCE

PLAYERS = ("anna", "bas", "chris", "dirk")
ACTION = build_given(PLAYERS, [
    Line(1, "round 1, phase action, start anna"),
    Line(2, "anna: hand poet painter doctor, jesters 3, recruiting 1"),
    Line(3, "bas: table jurist"),
])
AUCTION = build_given(PLAYERS, [Line(1, "round 1, phase auction, start anna")])


@pytest.mark.parametrize(("cmd", "rule"), [
    (Work("poet", (), -3), "work-pp"),  # would turn fame into money, below 0 fame
    (Work("dragon-tamer"), "work-card"),
    (Work("poet", ("per-nothing",)), "work-bonus"),
    (Build("castle", ("e4", "e5", "e6")), "build-unknown"),
    (Build("tower", ("e4", "e5", "e9")), "build-placement"),
    (Build("tower", ("e4", "e4", "e5")), "build-placement"),
    (Build("tower", ()), "build-placement"),
    (Freedom("speech"), "freedom-unknown"),
    (Recruit("jurist", "zed"), "recruit-player"),
    (Sell(-2), "sell"),
])
def test_action_phase(cmd: Command, rule: str) -> None:
    before = copy.deepcopy(ACTION)
    with pytest.raises(IllegalMoveError) as refused:
        decide(ACTION, 0, cmd)
    assert refused.value.rule == rule
    assert ACTION == before


@pytest.mark.parametrize(("seat", "cmd", "rule"), [
    (0, Open("dragon"), "auction-open"),
    (0, Bid(-100), "auction-naming"),
    (7, Open("jester"), "seat"),
    (CHANCE, Draw("anna", "bonus", ("per-park",)), "chance"),
])
def test_auction_phase(seat: int, cmd: Command, rule: str) -> None:
    before = copy.deepcopy(AUCTION)
    with pytest.raises(IllegalMoveError) as refused:
        decide(AUCTION, seat, cmd)
    assert refused.value.rule == rule
    assert AUCTION == before
