"""The replay path against the event-sourced path: `Match(..., in_place=True)` must
accept and refuse exactly what `Match` does, with the same events, errors, states and
results, for every registered game.

`check_in_place` plays a random game on two matches in lockstep: the event-sourced one
picks each command as self-play does (`Game.random_command`, the seed's chance), and
now and then a command that is mostly illegal (another seat's command, one given
earlier, an undo command). Both matches must then agree command by command.
"""

from __future__ import annotations

import random
from typing import Any

from engine.consent import Agree, Refuse, Undo
from engine.errors import IllegalMoveError
from engine.match import Match
from engine.protocol import CHANCE, InPlace, Variant
from engine.selfplay import NAMES

MAX_STEPS = 20_000
STRAY_RATE = 0.15  # how often a step first tries a command picked at random
UNDO_GAMES = 8  # one game in UNDO_GAMES also tries undo commands (the match then
# works out its tracker and plays as any other)


def outcome(match: Match, seat: int, command: Any) -> tuple[str, ...] | list[Any]:
    """The events of a command, or what refused it (the error's type, message and rule;
    any other exception by its type and text)."""
    try:
        return match.play(seat, command)
    except IllegalMoveError as e:
        return (type(e).__name__, e.message, e.rule)
    except Exception as e:  # a bug: both paths must still agree on it
        return (type(e).__name__, str(e))


def stray_command(rng: random.Random, match: Match, given: list[tuple[int, Any]],
                  undo: bool) -> tuple[int, Any]:
    """A command that is mostly illegal now: one given earlier (by its seat or chance),
    a legal command of a seat not to act, or an undo command."""
    game, state = match.game, match.state
    roll = rng.random()
    if undo and roll < 0.2:
        return rng.randrange(len(state.names)), rng.choice((Undo(), Agree(), Refuse()))
    if given and roll < 0.6:
        return rng.choice(given)
    seat = rng.randrange(len(state.names))
    options = game.legal_commands(state, seat)
    if options:
        return seat, rng.choice(options)
    return (rng.choice(given) if given else (seat, Refuse()))


def check_in_place(game: Any, variant: Variant, players: int, seed: int) -> int:
    """Play one random game on both paths; the number of commands tried."""
    rng = random.Random(f"in-place|{game.name}|{variant.name}|{players}|{seed}")
    names = NAMES[:players]
    game_seed = f"in-place-{seed}"
    slow = Match.start(game, names, variant=variant.name, seed=game_seed)
    fast = Match.start(game, names, variant=variant.name, seed=game_seed, in_place=True)
    undo = seed % UNDO_GAMES == 0
    snapshot = game.owned_copy if isinstance(game, InPlace) else None
    given: list[tuple[int, Any]] = []
    tried = 0
    while not slow.finished:
        assert tried < MAX_STEPS, f"{game.name}: the random game did not end"
        if rng.random() < STRAY_RATE:
            seat, command = stray_command(rng, slow, given, undo)
        else:
            seat = rng.choice(slow.to_act())
            if seat == CHANCE:
                command = slow.seeded_command()
            elif undo and rng.random() < 0.05:
                command = rng.choice(slow.legal(seat))  # the undo protocol's too
            else:
                command = game.random_command(slow.state, seat, rng)
        before = slow.state
        kept = snapshot(before) if snapshot is not None else None
        want = outcome(slow, seat, command)
        got = outcome(fast, seat, command)
        tried += 1
        where = f"{game.name} {players}p seed {seed}, command {tried} ({seat}, {command!r})"
        assert got == want, f"{where}: in place {got!r}, event-sourced {want!r}"
        if isinstance(want, tuple):  # refused: the event-sourced match kept its state
            assert slow.state is before, where
        else:
            given.append((seat, command))
        if kept is not None:
            assert before == kept, f"{where}: the event-sourced path changed its state"
        assert fast.state == slow.state, f"{where}: the states differ"
        assert fast.version == slow.version and fast.to_act() == slow.to_act(), where
        if undo and rng.random() < 0.02:
            assert fast.tracker == slow.tracker, f"{where}: the trackers differ"
    assert fast.finished
    assert fast.events == slow.events
    assert [game.to_dict(e) for e in fast.events] == [game.to_dict(e) for e in slow.events]
    assert game.result(fast.state) == game.result(slow.state)
    for seat in (None, *range(players)):
        assert game.view(fast.state, seat) == game.view(slow.state, seat)
    return tried
