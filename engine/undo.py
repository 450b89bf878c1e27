"""Undo by consent: a player takes back their own last command when everyone agrees.

The protocol, shared by the moderator and the log replayer:

* `undo`: the player who gave the last command (a move, not chance) asks to take
  it back, while nobody has moved since. Refused when the command's events, or the
  chance events after it, cross a barrier (the game's `crossing_error`: chance,
  hidden information made known, the end of the game; and always another undo), or
  when a request is already waiting.
* `agree`: each other player must agree. When the last one does, a `Reverted`
  event is appended and the game goes back to where the command was given.
* `refuse` by anyone, or any other accepted command, cancels the request.

`undo`, `agree` and `refuse` cause no events of their own (only the final
`Reverted`), so the game's version does not move while a request waits. The
reverted events stay in the log. `Tracker` holds what the protocol needs: the last
command with the state it was given in, and the pending request; it is rebuilt by
playing the commands again from the start (`play` on each).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .consent import Agree, Refuse, Reverted, Undo
from .errors import GameOverError, IllegalMoveError
from .frozen import dataclass
from .protocol import CHANCE, Game, GameState


@dataclass(frozen=True, slots=True)
class Last:
    """The last command given: who gave it, the state it was given in, the command,
    and every event since (its own, the automatic ones and the deals and draws)."""

    seat: int
    before: Any  # the game's state
    command: Any
    events: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Request:
    """An undo waiting for agreement: who asked, the version to go back to, and who
    agreed so far."""

    seat: int
    to_version: int
    agreed: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Tracker:
    last: Last | None = None
    request: Request | None = None

    def waiting_for(self, players: int) -> tuple[int, ...]:
        """The seats that still have to agree to the pending request (none if none)."""
        r = self.request
        if r is None:
            return ()
        return tuple(s for s in range(players) if s != r.seat and s not in r.agreed)


START = Tracker()
UNDO_COMMANDS = (Undo, Agree, Refuse)
UNDO_TYPES = frozenset(UNDO_COMMANDS)
"""The undo commands' types: `type(cmd) in UNDO_TYPES` is `is_undo_command(cmd)` (they
have no subclasses), and quicker."""


def is_undo_command(cmd: object) -> bool:
    return isinstance(cmd, UNDO_COMMANDS)


def crossing_error(game: Game[Any], undone: Iterable[Any]) -> str | None:
    """Why the events `undone` may not be taken back, or None: another undo, or what
    the game forbids (`Game.crossing_error`)."""
    undone = tuple(undone)
    why = game.crossing_error(undone)
    if why is None and any(isinstance(e, Reverted) for e in undone):
        return "an undo may not go back past another undo"
    return why


def undo_refusal(game: Game[Any], state: GameState, tracker: Tracker,
                 seat: int) -> IllegalMoveError | None:
    """Why `seat` may not ask for an undo now, or None."""
    if state.finished:
        return GameOverError("the game is over", "over")
    request = tracker.request
    if request is not None:
        who = state.names[request.seat]
        return IllegalMoveError(f"{who}'s undo request is already waiting for agreement",
                                "undo-pending")
    last = tracker.last
    if last is None:
        return IllegalMoveError("there is nothing to undo: no command was given since the "
                                "last undo (or since the start)", "undo-nothing")
    if last.seat != seat:
        who = state.names[last.seat]
        return IllegalMoveError(f"the last command was {who}'s; you may take back only your "
                                "own last command, while nobody has moved since", "undo-own")
    why = crossing_error(game, last.events)
    if why is None and game.chance_due(state) is not None:
        why = ("an undo may not go back past a chance event (a deal, a draw, a roll), "
                "and one is due now")
    if why:
        return IllegalMoveError(why, "undo-barrier")
    return None


def legal_undo_commands(game: Game[Any], state: GameState, tracker: Tracker,
                        seat: int) -> list[Any]:
    """The undo commands `seat` may give now."""
    if seat == CHANCE or state.finished:
        return []
    if tracker.request is not None:
        if seat in tracker.waiting_for(len(state.names)):
            return [Agree(), Refuse()]
        return [Refuse()] if seat == tracker.request.seat else []
    return [Undo()] if undo_refusal(game, state, tracker, seat) is None else []


def play(game: Game[Any], state: Any, tracker: Tracker, seat: int,
         cmd: Any) -> tuple[Any, list[Any], Tracker]:
    """Decide any command, the undo protocol's included: the new state, the events
    and the new tracker.

    Raises:
        IllegalMoveError: as `Game.apply`, or the undo protocol refuses the command.
            Nothing changes then.
    """
    if isinstance(cmd, Undo):
        why = undo_refusal(game, state, tracker, seat)
        if why is not None:
            raise why
        assert tracker.last is not None
        return state, [], Tracker(tracker.last, Request(seat, tracker.last.before.version))
    if isinstance(cmd, (Agree, Refuse)):
        request = tracker.request
        if state.finished:
            raise GameOverError("the game is over", "over")
        if request is None:
            raise IllegalMoveError(f"there is no undo request to {cmd.verb} to", "undo-none")
        if isinstance(cmd, Refuse):
            return state, [], Tracker(tracker.last, None)
        if seat == request.seat:
            raise IllegalMoveError("you asked for this undo; the other players agree to it",
                                   "undo-agree-own")
        if seat in request.agreed:
            raise IllegalMoveError("you have agreed to this undo already", "undo-agreed")
        request = replace_request(request, request.agreed | {seat})
        if tracker.waiting_for(len(state.names)) != (seat,):
            return state, [], Tracker(tracker.last, request)
        assert tracker.last is not None
        event = Reverted(request.seat, request.to_version)
        back = game.with_version(tracker.last.before, state.version + 1)
        return back, [event], START
    new_state, events = game.apply(state, seat, cmd)
    if seat == CHANCE:
        last = tracker.last
        if last is not None:
            last = Last(last.seat, last.before, last.command, last.events + tuple(events))
        return new_state, events, Tracker(last, tracker.request)
    return new_state, events, Tracker(Last(seat, state, cmd, tuple(events)), None)


def replace_request(request: Request, agreed: frozenset[int]) -> Request:
    return Request(request.seat, request.to_version, agreed)
