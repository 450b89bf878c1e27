"""Signorie behind the game seam: `GAME` implements `engine.protocol.Game` and
`engine.protocol.InPlace`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine import __version__, codec
from engine.consent import Reverted
from engine.protocol import Result, Setup, Standing, Variant

from . import chance, legal
from . import events as ev
from .decide import apply, apply_in_place
from .evolve import copy_state, evolve, owned_copy
from .ruleset import load
from .scoring import standings
from .setup import new_state, setup_of, start
from .state import State
from .summary import SUMMARY

if TYPE_CHECKING:
    from .views import View

UNDO_BARRIERS = (*ev.CHANCE_EVENTS, ev.GameEnded, Reverted)
"""Events no undo may go back past: chance, the face-down tiles revealed, an undo."""


class Signorie:
    """Signorie (Chiarvesio & Zizzi, What's Your Game?, 2015): 2-4 players, seven
    rounds of dice drafting."""

    name = SUMMARY.name
    title = SUMMARY.title
    version = __version__
    edition = load().edition
    variants: Mapping[str, Variant] = SUMMARY.variants

    def start(self, players: Sequence[str], *, variant: str, options: Mapping[str, str],
              commitment: str, seeded: bool) -> ev.GameStarted:
        return start(players, variant=variant, options=options, commitment=commitment,
                     seeded=seeded)

    def new_state(self, first: ev.GameStarted) -> State:
        return new_state(first)

    def setup(self, first: ev.GameStarted) -> Setup:
        return setup_of(first)

    def apply(self, state: State, seat: int, command: Any) -> tuple[State, list[Any]]:
        return apply(state, seat, command)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event)

    # InPlace: the functions themselves (the replay path calls them once per line)
    apply_in_place = staticmethod(apply_in_place)
    owned_copy = staticmethod(owned_copy)

    def with_version(self, state: State, version: int) -> State:
        new = copy_state(state)
        new.version = version
        return new

    def to_act(self, state: State) -> tuple[int, ...]:
        return state.waiting()

    def chance_due(self, state: State) -> chance.Due | None:
        return chance.chance_due(state)

    def resolve_chance(self, state: State, seed: str) -> Any:
        return chance.resolve_chance(state, seed)

    def same_chance(self, state: State, command: Any) -> bool:
        return chance.same_chance(state, command)

    def chance_mismatch(self, stated: Any, seeded: Any) -> str | None:
        return chance.chance_mismatch(stated, seeded)

    def chance_wanted(self, state: State) -> str:
        return chance.chance_wanted(state)

    def legal_commands(self, state: State, seat: int, *, anytime: bool = True) -> list[Any]:
        return legal.legal_commands(state, seat)  # no command is legal at any time

    def late_command(self, state: State, seat: int) -> Any:
        return legal.late_command(state, seat)

    def random_command(self, state: State, seat: int, rng: random.Random) -> Any:
        return legal.random_command(state, seat, rng)

    def crossing_error(self, events: Iterable[Any]) -> str | None:
        for e in events:
            if isinstance(e, UNDO_BARRIERS):
                return ("an undo may not go back past chance (dice, tiles, the turn order), "
                        "the final scoring or another undo")
        return None

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        return Result(standings(state), state.winners)

    def standings(self, state: State) -> tuple[Standing, ...]:
        return standings(state)

    def progress(self, state: State) -> tuple[int, str]:
        return state.round, state.phase

    def view(self, state: State, seat: int | None) -> View:
        from .views import view_for  # only `show` and the moderator look: not on replay's path

        shown = legal.legal_commands(state, seat) if seat is not None else ()
        return view_for(state, seat, shown)

    def redact(self, event: Any, seat: int | None) -> Any:
        return codec.redact(event, seat)

    def is_visible(self, event: Any, seat: int | None) -> bool:
        return codec.is_visible(event, seat)

    def to_dict(self, event: Any) -> dict[str, Any]:
        return codec.to_dict(event)

    def from_dict(self, data: dict[str, Any]) -> Any:
        return ev.from_dict(data)


GAME = Signorie()
