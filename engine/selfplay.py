"""Random legal games: for tests, fuzzing and benchmarks.

The generator is a local `random.Random(seed)`, never the global one; deals and
draws come from the game seed as in a real seeded game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import GameError
from .princes.commands import Command, Sell
from .princes.events import Event
from .princes.game import apply, new_state, seeded_chance, start_game, to_act
from .princes.legal import legal_commands
from .princes.state import CHANCE, State
from .registry import default_name, get_game

NAMES = ("anna", "bas", "chris", "dirk", "eva")


@dataclass(frozen=True, slots=True)
class Playout:
    """A finished random game: who played what, the events, and the final state."""

    players: tuple[str, ...]
    seed: str
    moves: tuple[tuple[int, Command], ...]  # (seat or CHANCE, command)
    events: tuple[Event, ...]
    state: State


def play_random(
    n_players: int = 4, seed: int | str = 0, *, players: Sequence[str] | None = None,
    sell_chance: float = 0.02, max_moves: int = 5000, game: str | None = None,
) -> Playout:
    """Play a whole game with uniformly random legal choices.

    Selling fame is offered only now and then (`sell_chance`), so games look like
    games. `game`: the registered game to play (None: the default game).

    Raises:
        AssertionError: the game does not end within `max_moves`.
        UnknownGameError: no game called `game` is registered.
        GameError: `game` is not the default game, the only one self-play knows so far.
    """
    if game is not None and get_game(game).name != default_name():
        raise GameError(f"self-play knows only {default_name()!r} so far, not {game!r}")
    names = tuple(players or NAMES[:n_players])
    rng = random.Random(f"selfplay|{seed}")
    started = start_game(names)
    state = new_state(started)
    events: list[Event] = [started]
    moves: list[tuple[int, Command]] = []
    game_seed = f"selfplay-{seed}"
    while not state.finished:
        assert len(moves) < max_moves, "random game did not end"
        actors = to_act(state)
        seat = rng.choice(actors)
        if seat == CHANCE:
            cmd: Command = seeded_chance(state, game_seed)
        else:
            options = legal_commands(state, seat, free=False)
            if state.players[seat].fame and rng.random() < sell_chance:
                cmd = Sell(1)
            else:
                cmd = rng.choice(options)
        state, new = apply(state, seat, cmd)
        moves.append((seat, cmd))
        events.extend(new)
    return Playout(names, game_seed, tuple(moves), tuple(events), state)
