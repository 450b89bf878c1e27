"""Self-played game logs for the log tests, and an independent one-line oracle."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from engine.errors import IllegalMoveError, NotationError
from engine.princes.definition import GAME
from engine.princes.game import apply, chance_due, seeded_chance
from engine.princes.state import CHANCE, State
from engine.selfplay import Playout, play_random
from notation.princes import parse_chance, parse_command
from pbem.logs import format_game_log, result_tag

HEADER = (("Game", "princes-of-florence"), ("Variant", "standard"))


@functools.cache
def playout(n_players: int, seed: int) -> Playout:
    return play_random(GAME, n_players, f"logs-test-{seed}")


def seeded_log(p: Playout, *, chance: bool = False, result: bool = True) -> str:
    tags = [*HEADER, ("Seed", p.seed)]
    if result:
        tags.append(("Result", result_tag(p.state)))
    return format_game_log(p.players, p.moves, tags, include_chance=chance)


def recorded_log(p: Playout, *, result: bool = True) -> str:
    tags = list(HEADER)
    if result:
        tags.append(("Result", result_tag(p.state)))
    return format_game_log(p.players, p.moves, tags, include_chance=True)


def same_position(a: State | None, b: State) -> bool:
    """Equal states, whatever the `seeded` flag (self-play always starts seeded)."""
    return a is not None and dataclasses.replace(a, seeded=b.seeded) == b


def body_start(text: str) -> int:
    """The 1-based number of the first line after the header tags and blank lines."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip() and not line.lstrip().startswith("["):
            return number
    raise AssertionError("no body")


def line_after(state: State, line: str, players: Sequence[str], seed: str | None) -> State | None:
    """The state after one log line (a move, a chance line or a round marker), or None if
    the line is not legal there. Independent of pbem.logs: notation and engine only."""
    content = line.split("#")[0].strip()
    try:
        if not content:
            return state
        if content.startswith("*"):
            cmd = parse_chance(content, players)
            if seed is not None and chance_due(state) is not None:
                want = seeded_chance(state, seed)
                if (type(want), want.player, sorted(want.cards)) != \
                        (type(cmd), cmd.player, sorted(cmd.cards)):
                    return None
            return apply(state, CHANCE, cmd)[0]
        if ":" not in content:
            words = content.split()
            ok = len(words) == 2 and words[0].lower() == "round" and words[1].isdigit() \
                and int(words[1]) == state.round
            return state if ok else None
        actor, rest = content.split(":", 1)
        if actor.strip().lower() not in players:
            return None
        seat = list(players).index(actor.strip().lower())
        if seed is not None:
            while chance_due(state) is not None:
                state = apply(state, CHANCE, seeded_chance(state, seed))[0]
        elif chance_due(state) is not None:
            return None
        return apply(state, seat, parse_command(rest, players))[0]
    except (NotationError, IllegalMoveError):
        return None
