"""Signorie folded in place (`engine.protocol.InPlace`, the replay path): a refused
command changes nothing, even one refused after part of it was folded (a die paid
for, then its action refused); the states that `Game.apply` and `Game.evolve` return
and the states they were given stay as they are while a match in place goes on
changing its own (they share boards, each copied before it changes).

tests/contract/test_in_place.py plays random games of every player count on both
paths; these are the cases a random game rarely reaches on purpose.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.match import Match
from engine.protocol import CHANCE, InPlace
from engine.selfplay import play_random
from engine.signorie import events as ev
from engine.signorie.commands import Florins, Hire, Offspring, Take, Task
from engine.signorie.decide import apply_in_place
from engine.signorie.definition import GAME
from engine.signorie.positions import opening
from engine.signorie.state import State, replace_board

NAMES = ("anna", "bas", "cleo", "dirk")


def _opening() -> State:
    """Round 1, anna to take a die: a purple die shows 1 (it costs 2 florins), the
    yellow dice 3 (free), and anna has 2 florins."""
    return replace_board(opening(NAMES, roll={"purple": (1, 6, 6, 6)}), 0, florins=2)


def test_signorie_replays_in_place() -> None:
    assert isinstance(GAME, InPlace)


@pytest.mark.parametrize("action", [
    Task("no-such-task", 1),  # the die is taken and paid for, then the task refused
    Hire(99),  # the die is taken, then the helper space refused
])
def test_a_command_refused_after_its_die_is_taken_changes_nothing(action: Any) -> None:
    state = _opening()
    kept = GAME.owned_copy(state)
    boards = state.players
    with pytest.raises(IllegalMoveError):
        apply_in_place(state, 0, Take("purple", 1, action))
    assert state == kept
    assert state.players == boards and all(
        a is b for a, b in zip(state.players, boards, strict=True))  # the boards as they were
    assert apply_in_place(state, 0, Take("purple", 1, Offspring()))[0] == ev.DieTaken(
        0, "purple", 1, 2, False)
    assert state.players[0].florins == 0 and kept.players[0].florins == 2


def test_apply_and_evolve_never_change_the_state_given_or_returned() -> None:
    state = _opening()
    kept = GAME.owned_copy(state)
    after, _ = GAME.apply(state, 0, Take("yellow", 3, Florins()))
    after_kept = GAME.owned_copy(after)
    assert state == kept and after != state
    # the match in place owns a copy of `after`; the two share nothing it changes
    match = Match(GAME, after, [], in_place=True)
    for seat in (1, 2):
        match.play(seat, Take("yellow", 3, Florins()))
    assert after == after_kept and state == kept
    folded = GAME.evolve(match.state, ev.FlorinsGained(3, 5))
    mine = GAME.owned_copy(match.state)
    match.play(3, Take("yellow", 3, Florins()))
    assert folded.players[3].florins == mine.players[3].florins + 5
    assert folded.version == mine.version + 1 and folded != match.state


def test_a_replay_in_place_keeps_no_state_of_the_caller() -> None:
    """A match in place given a state (`Match(game, state, ...)`) plays on its own
    copy, and the states a by-value match passed through stay as they were."""
    p = play_random(GAME, 4, "in-place-kept")
    slow = Match.start(GAME, p.players, seed=p.seed)
    states = []
    for seat, command in p.moves[:60]:
        slow.play(seat, command)
        states.append((slow.state, GAME.owned_copy(slow.state)))
    fast = Match(GAME, slow.state, list(slow.events), seed=p.seed, in_place=True)
    for seat, command in p.moves[60:]:
        fast.play(seat, command)
    assert fast.finished and fast.state == p.state
    for given, kept in states:
        assert given == kept


def test_stray_commands_at_every_position_change_nothing() -> None:
    """Every command a seat might have given at another moment, tried in place at each
    position of a game: the refused ones leave the state equal to a copy."""
    p = play_random(GAME, 3, "in-place-stray")
    match = Match.start(GAME, p.players, seed=p.seed, in_place=True)
    given = [(seat, c) for seat, c in p.moves if seat != CHANCE]
    refused = 0
    for k, (seat, command) in enumerate(p.moves):
        if k % 5 == 0:
            for other_seat, other in given[k % len(given)::37]:
                kept = GAME.owned_copy(match.state)
                try:
                    trial = GAME.owned_copy(match.state)
                    GAME.apply_in_place(trial, other_seat, other)
                except IllegalMoveError:
                    refused += 1
                    assert trial == kept
                assert match.state == kept
        match.play(seat, command)
    assert refused > 50
    assert match.state == p.state
