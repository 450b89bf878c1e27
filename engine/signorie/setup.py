"""A new game of Signorie: the first event, and the state it gives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import __version__
from engine.errors import IllegalMoveError
from engine.protocol import Setup

from .commands import CITIES
from .events import GameStarted
from .ruleset import Rules, load
from .state import EMPTY, Board, CityState, State
from .summary import SUMMARY


def start(players: Sequence[str], *, variant: str = "standard",
          options: Mapping[str, str] | None = None, commitment: str = "",
          seeded: bool = True) -> GameStarted:
    """The first event of a new game.

    Raises:
        IllegalMoveError: an unknown variant or option, a player count the variant does
            not admit, or a repeated name.
    """
    chosen = SUMMARY.variants.get(variant)
    if chosen is None:
        raise IllegalMoveError(f"unknown variant {variant!r}; known: "
                               f"{', '.join(SUMMARY.variants)}", "setup")
    if options:
        raise IllegalMoveError(f"Signorie has no option {sorted(options)[0]!r}", "setup")
    if not chosen.admits(len(players)):
        raise IllegalMoveError(f"Signorie is for {chosen.counts} players, not {len(players)}",
                               "setup")
    if len(set(players)) != len(players):
        raise IllegalMoveError("two players have the same name", "setup")
    return GameStarted(tuple(players), variant, seeded, load().edition, __version__, commitment)


def setup_of(first: GameStarted) -> Setup:
    return Setup(first.players, first.variant, {}, first.seeded, first.edition, first.engine,
                 first.commitment)


def state_for(players: Sequence[str], rules: Rules | None = None, *, seeded: bool = True) -> State:
    """The state before any chance: every board as the rules set it up (seat florins
    come with the turn order), the cities all in play when the player count uses all."""
    r = rules or load()
    boards = tuple(
        Board(name=name, plan=r.plan_colours[i], florins=r.start_florins,
              males=r.start_available[0], females=r.start_available[1],
              general_m=r.start_general[0], general_f=r.start_general[1])
        for i, name in enumerate(players))
    n = len(players)
    cities: tuple[CityState, ...] = ()
    if r.city_count[n] >= len(CITIES):
        cities = city_states(r, CITIES)
    removed = r.alliance_removed[n]
    return State(rules=r, players=boards, seeded=seeded, cities=cities,
                 pool=tuple(sorted(r.alliance_tiles)),
                 family_left=tuple(len(r.family_tiles) - removed for _ in r.families),
                 version=1)


def city_states(rules: Rules, names: Sequence[str]) -> tuple[CityState, ...]:
    """Empty cities, in CITIES order."""
    return tuple(
        CityState(c, tuple(EMPTY for _ in rules.cities[c].marriage),
                  tuple(EMPTY for _ in rules.cities[c].mission))
        for c in CITIES if c in names)


def new_state(first: GameStarted) -> State:
    """The state right after the first event."""
    return state_for(first.players, seeded=first.seeded)
