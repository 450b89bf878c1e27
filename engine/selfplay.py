"""Random legal games of any game: for tests, fuzzing and benchmarks.

The generator is a local `random.Random(seed)`, never the global one; chance comes
from the game seed as in a real seeded game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .frozen import dataclass
from .match import Match
from .protocol import CHANCE, Game

NAMES = ("anna", "bas", "chris", "dirk", "eva", "femke", "gijs", "hanna")


@dataclass(frozen=True, slots=True)
class Playout:
    """A finished random game: who played what, the events, and the final state."""

    players: tuple[str, ...]
    seed: str
    moves: tuple[tuple[int, Any], ...]  # (seat or CHANCE, command)
    events: tuple[Any, ...]
    state: Any


def play_random(
    game: Game[Any], n_players: int, seed: int | str = 0, *,
    players: Sequence[str] | None = None, variant: str | None = None,
    options: Mapping[str, str] | None = None, max_moves: int = 5000,
) -> Playout:
    """Play a whole game with random legal choices (`Game.random_command`); `variant`
    None: the one for this many players; `options` by `Option.name` (left out: the
    defaults).

    Raises:
        IllegalMoveError: the game refuses the player count, variant or options.
        AssertionError: the game does not end within `max_moves`.
    """
    names = tuple(players or NAMES[:n_players])
    rng = random.Random(f"selfplay|{seed}")
    game_seed = f"selfplay-{seed}"
    match = Match.start(game, names, variant=variant, options=options, seed=game_seed)
    moves: list[tuple[int, Any]] = []
    while not match.finished:
        assert len(moves) < max_moves, "random game did not end"
        seat = rng.choice(match.to_act())
        if seat == CHANCE:
            cmd = match.seeded_command()
        else:
            cmd = game.random_command(match.state, seat, rng)
        match.play(seat, cmd)
        moves.append((seat, cmd))
    return Playout(names, game_seed, tuple(moves), tuple(match.events), match.state)
