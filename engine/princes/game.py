"""The rules: commands are decided into events; events are folded into state.

`decide` checks a command against every rule and returns the events it causes,
followed by the automatic ones (an auction settled, a turn or round ended, the
final scoring). `evolve` folds one event into the state and never checks
anything: a failure there is a bug. `replay(events)` rebuilds any state.

This module starts a game, replays one and says which events undo may not cross;
the work is done in `queries` (questions about a state), `decide` with `auction` and
`actions` (deciding), and `evolve` (folding). Their public names are importable here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import __version__
from engine.errors import IllegalMoveError

from .decide import apply, apply_in_place, automatic, decide
from .events import (
    CardChosen,
    CardsDrawn,
    Event,
    GameEnded,
    GameStarted,
    ProfessionsDealt,
    ProfessionsKept,
    Reverted,
    WorkCompleted,
)
from .evolve import evolve, started_state
from .queries import (
    auction_left,
    can_acquire,
    can_pay,
    chance_due,
    object_error,
    played,
    seeded_chance,
    stack_open,
    to_act,
)
from .ruleset import FREEDOMS as FREEDOM_TYPES
from .ruleset import NO_EXPANSION, STANDARD, TWO_PLAYER, rules_for
from .state import State, replace

__all__ = [
    "UNDO_BARRIERS", "VARIANTS", "apply", "apply_in_place", "auction_left", "automatic",
    "can_acquire", "can_pay", "chance_due", "crossing_error", "decide", "evolve", "new_state",
    "object_error", "played", "replay", "seeded_chance", "stack_open", "start_game",
    "to_act", "undo_error",
]

VARIANTS = (STANDARD, TWO_PLAYER)
"""The variants offered for play (the rules data may describe more)."""


def start_game(
    players: Sequence[str], *, variant: str = STANDARD, money_open: bool = False,
    seeded: bool = True, commitment: str = "", freedoms: int = 0,
    expansions: str = NO_EXPANSION, character_raise: str = "higher",
    merchant_points: str = "ahead", muse_princess: str = "yes",
) -> GameStarted:
    """The first event of a new game, stamped with the rules edition and the engine
    version; `commitment` is the published commitment to the seed, if any; `freedoms`
    the freedoms in the supply when an option chooses them (0: as the variant says).

    Raises:
        IllegalMoveError: an unsupported player count, variant, or repeated name, or
            a number of freedoms the variant cannot have.
    """
    if variant not in VARIANTS:
        raise IllegalMoveError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}",
                               "setup")
    rules = rules_for(variant, expansions)
    if not rules.min_players <= len(players) <= rules.max_players:
        counts = (f"{rules.min_players}" if rules.min_players == rules.max_players
                  else f"{rules.min_players} to {rules.max_players}")
        raise IllegalMoveError(
            f"the {variant} game is for {counts} players, not {len(players)}", "setup")
    if len(set(players)) != len(players):
        raise IllegalMoveError("two players have the same name", "setup")
    if freedoms:
        base = rules.freedoms_per_type(len(players)) * len(FREEDOM_TYPES)
        if not rules.freedom_extra or not base <= freedoms <= base + len(FREEDOM_TYPES):
            raise IllegalMoveError(f"the {variant} game has no option of {freedoms} freedoms",
                                   "setup")
    return GameStarted(tuple(players), variant, money_open, seeded, rules.edition, __version__,
                       commitment, freedoms, expansions, character_raise, merchant_points,
                       muse_princess)


def new_state(started: GameStarted) -> State:
    """The state right after `started`, carrying its variant's rules."""
    return started_state(started)


def replay(events: Iterable[Event]) -> State:
    """The state after a sequence of events, starting with GameStarted.

    A `Reverted` event brings back the state at its `to_version` (the events in
    between stay in the log but no longer count); the version keeps counting.
    """
    it = iter(events)
    first = next(it)
    assert isinstance(first, GameStarted)
    state = new_state(first)
    history = [state]
    for e in it:
        if isinstance(e, Reverted):
            state = replace(history[e.to_version - 1], version=state.version + 1)
        else:
            state = evolve(state, e)
        history.append(state)
    return state


# Events that no undo may cross: chance, and hidden information made known.
UNDO_BARRIERS = (ProfessionsDealt, ProfessionsKept, CardsDrawn, CardChosen, WorkCompleted,
                 GameEnded, Reverted)


def undo_error(events: Sequence[Event], to_version: int) -> str | None:
    """Why the game may not go back to `to_version` (events[:to_version] kept), or None.

    An undo never crosses a deal or draw, a choice among drawn cards, a work (it
    shows a card from hand), the end of the game or another undo.
    """
    if not 1 <= to_version < len(events):
        return "there is nothing to undo"
    return crossing_error(events[to_version:])


def crossing_error(undone: Iterable[Event]) -> str | None:
    """Why the events `undone` may not be taken back (see `undo_error`), or None."""
    for e in undone:
        if isinstance(e, UNDO_BARRIERS):
            return ("an undo may not go back past a deal, a draw, a choice of cards, "
                    "a work or another undo")
    return None
