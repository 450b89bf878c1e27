"""The Princes of Florence behind the game seam: `GAME` implements
`engine.protocol.Game` with the rules of `engine.princes.game`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine import __version__
from engine.errors import IllegalMoveError
from engine.protocol import Result, Setup, Standing, Variant

from . import events as ev
from . import game as rules_game
from .characters import PHASE as CHARACTER_PHASE
from .commands import Choose, Command, Deal, Done, Draw, Keep, Pass, Place, Sell
from .legal import legal_commands
from .ruleset import STANDARD_RULES
from .state import State, owned_copy, replace
from .summary import (
    CHARACTER_RAISE,
    EXPANSION_OPTIONS,
    EXPANSIONS,
    MERCHANT_POINTS,
    MONEY,
    MUSE_PRINCESS,
    SUMMARY,
)

if TYPE_CHECKING:
    import random

    from .views import View


class PrincesOfFlorence:
    """The Princes of Florence (Alea, 2000): 3-5 players, seven rounds."""

    name = SUMMARY.name
    title = SUMMARY.title
    version = __version__
    edition = STANDARD_RULES.edition  # one data file: every variant's edition
    variants: Mapping[str, Variant] = SUMMARY.variants

    # ------------------------------------------------------------------- setup

    def start(self, players: Sequence[str], *, variant: str, options: Mapping[str, str],
              commitment: str, seeded: bool) -> ev.GameStarted:
        """The first event of a new game.

        Raises:
            IllegalMoveError: an unknown variant or option value, a player count the
                variant does not admit, or a repeated name.
        """
        known = {o.name: o for o in (MONEY, *EXPANSION_OPTIONS)}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise IllegalMoveError(f"unknown option {unknown[0]!r}; known: "
                                   f"{', '.join(known)}", "setup")
        chosen = {}
        for name, o in known.items():
            value = options.get(name, o.default).strip().lower()
            if value not in o.choices:
                spelled = " or ".join(repr(c) for c in (
                    ("open", "hidden") if o is MONEY else o.choices))
                raise IllegalMoveError(f"the {o.tag} option is {spelled}, not {value!r}",
                                       "setup")
            chosen[name] = value
        return rules_game.start_game(players, variant=variant,
                                     money_open=chosen[MONEY.name] == "open",
                                     seeded=seeded, commitment=commitment,
                                     expansions=chosen[EXPANSIONS.name],
                                     character_raise=chosen[CHARACTER_RAISE.name],
                                     merchant_points=chosen[MERCHANT_POINTS.name],
                                     muse_princess=chosen[MUSE_PRINCESS.name])

    # The hot methods are the rules' own functions (no extra call on replay's path).
    new_state = staticmethod(rules_game.new_state)

    def setup(self, first: ev.GameStarted) -> Setup:
        return Setup(first.players, first.variant,
                     {MONEY.name: "open" if first.money_open else "hidden",
                      EXPANSIONS.name: first.expansions,
                      CHARACTER_RAISE.name: first.character_raise,
                      MERCHANT_POINTS.name: first.merchant_points,
                      MUSE_PRINCESS.name: first.muse_princess}, first.seeded,
                     first.edition, first.engine, first.commitment)

    # ------------------------------------------------------------------- play

    apply = staticmethod(rules_game.apply)
    evolve = staticmethod(rules_game.evolve)
    # engine.protocol.InPlace: the replay path, the same decisions and fold.
    apply_in_place = staticmethod(rules_game.apply_in_place)
    owned_copy = staticmethod(owned_copy)

    def with_version(self, state: State, version: int) -> State:
        return replace(owned_copy(state), version=version)

    to_act = staticmethod(rules_game.to_act)
    chance_due = staticmethod(rules_game.chance_due)

    def resolve_chance(self, state: State, seed: str) -> Deal | Draw:
        """The deal or draw the seed gives now.

        Raises:
            IllegalMoveError: no deal or draw is due.
        """
        return rules_game.seeded_chance(state, seed)

    def same_chance(self, state: State, command: Any) -> bool:
        due = rules_game.chance_due(state)
        if due is None or not isinstance(command, (Deal, Draw)):
            return False
        if isinstance(command, Deal) != (due.kind == "deal"):
            return False
        if command.player != state.players[due.seat].name:
            return False
        return not isinstance(command, Draw) or command.deck == due.deck

    def chance_mismatch(self, stated: Any, seeded: Deal | Draw) -> str | None:
        if sorted(stated.cards) == sorted(seeded.cards):
            return None
        stray = [c for c in stated.cards if c not in seeded.cards]
        if stray:
            return f"{stray[0]!r} is not among its cards"
        return f"it gives {len(seeded.cards)} cards, not {len(stated.cards)}"

    def chance_wanted(self, state: State) -> str:
        due = rules_game.chance_due(state)
        if due is None:
            return "nothing"
        who = state.players[due.seat].name
        if due.kind == "deal":
            return f"the {due.n} cards dealt to {who}"
        return f"the {due.n} cards {who} draws from the {due.deck} deck"

    def legal_commands(self, state: State, seat: int, *, anytime: bool = True) -> list[Command]:
        return legal_commands(state, seat, free=anytime)

    def late_command(self, state: State, seat: int) -> Command:
        """Pass in an auction, `done` in the action phase, the first card of a pending
        choice, the first professions dealt, the first listed placement."""
        pending = state.pending
        if pending is not None and pending.seat == seat:
            if pending.kind == "choose":
                return Choose(pending.cards[0])
            if pending.kind == "place":
                places = [c for c in legal_commands(state, seat) if isinstance(c, Place)]
                if places:
                    return places[0]
        if state.phase == "keep":
            return Keep(state.players[seat].dealt[:state.rules.professions_kept])
        if state.phase in ("auction", CHARACTER_PHASE):
            return Pass()
        return Done()

    def random_command(self, state: State, seat: int, rng: random.Random) -> Command:
        """A uniformly random legal command, except that selling fame (legal at any
        time) is offered only now and then, so that games look like games.

        Raises:
            IllegalMoveError: `seat` has nothing to do.
        """
        options = legal_commands(state, seat, free=False)
        if state.players[seat].fame and state.rules.fame_for_money \
                and rng.random() < SELL_CHANCE:
            return Sell(1)
        if not options:
            raise IllegalMoveError("this seat has nothing to do now", "turn")
        return rng.choice(options)

    def crossing_error(self, events: Iterable[ev.Event]) -> str | None:
        return rules_game.crossing_error(events)

    def result(self, state: State) -> Result | None:
        """Most fame (PP) wins, then most florins; a tie that remains is shared (R16)."""
        if not state.finished:
            return None
        return Result(self.standings(state), state.winners)

    def standings(self, state: State) -> tuple[Standing, ...]:
        keys = [(p.fame, p.florins) for p in state.players]
        return tuple(
            Standing(seat, p.name, p.fame, (p.florins,),
                     1 + sum(1 for k in keys if k > keys[seat]),
                     {"pp": p.fame, "florins": p.florins})
            for seat, p in enumerate(state.players))

    def progress(self, state: State) -> tuple[int, str]:
        return state.round, state.phase

    # ------------------------------------------------------------------- views, events

    def view(self, state: State, seat: int | None) -> View:
        from .views import view_for  # only `show` and the moderator look: not on replay's path

        return view_for(state, seat)

    def redact(self, event: ev.Event, seat: int | None) -> ev.Event:
        return ev.redact(event, seat)

    def is_visible(self, event: ev.Event, seat: int | None) -> bool:
        return ev.is_visible(event, seat)

    def to_dict(self, event: ev.Event) -> dict[str, Any]:
        return ev.to_dict(event)

    def from_dict(self, data: dict[str, Any]) -> ev.Event:
        """Rebuild an event.

        Raises:
            KeyError: an unknown event type.
        """
        return ev.from_dict(data)


SELL_CHANCE = 0.02
"""How often a random player with fame sells some (self-play only)."""

GAME = PrincesOfFlorence()
