"""Random self-played games shared by the engine tests (each is played once per run)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.commands import Command
from engine.events import Event
from engine.game import apply, new_state, start_game
from engine.selfplay import Playout, play_random
from engine.state import State


@cache
def playout(n_players: int, seed: int) -> Playout:
    return play_random(n_players, seed)


def steps(game: Playout) -> Iterator[tuple[State, int, Command, State, list[Event]]]:
    """(state before, seat, command, state after, new events) for every move of a game."""
    state = new_state(start_game(game.players))
    for seat, cmd in game.moves:
        after, new = apply(state, seat, cmd)
        yield state, seat, cmd, after, new
        state = after
