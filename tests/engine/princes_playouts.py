"""Random self-played games shared by the engine tests (each is played once per run)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.princes.commands import Command
from engine.princes.definition import GAME
from engine.princes.events import Event
from engine.princes.game import apply, new_state, start_game
from engine.princes.state import State
from engine.selfplay import Playout, play_random


@cache
def playout(n_players: int, seed: int) -> Playout:
    return play_random(GAME, n_players, seed)


def steps(game: Playout) -> Iterator[tuple[State, int, Command, State, list[Event]]]:
    """(state before, seat, command, state after, new events) for every move of a game."""
    state = new_state(start_game(game.players))
    for seat, cmd in game.moves:
        after, new = apply(state, seat, cmd)
        yield state, seat, cmd, after, new
        state = after
