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
from .auction import table_reading
from .characters import PHASE as CHARACTER_PHASE
from .commands import AddFreedoms, Choose, Command, Deal, Done, Draw, Keep, Pass, Place, Sell
from .legal import legal_commands
from .ruleset import STANDARD_RULES
from .state import FREEDOMS_DUE, State, owned_copy, replace
from .summary import (
    CHARACTER_RAISE,
    EXPANSIONS,
    FREEDOMS,
    MERCHANT_POINTS,
    MONEY,
    MUSE_PRINCESS,
    SUMMARY,
)

if TYPE_CHECKING:
    import random

    from .views import View


class PrincesOfFlorence:
    """The Princes of Florence (Alea, 2000): 3-5 players (2 in the 2-player variant),
    seven rounds."""

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
        offered = self.variants.get(variant)
        known = {o.name: o for o in (offered.options if offered is not None else (MONEY,))}
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
        freedoms = chosen.get(FREEDOMS.name, FREEDOMS.default)
        return rules_game.start_game(
            players, variant=variant, money_open=chosen[MONEY.name] == "open",
            seeded=seeded, commitment=commitment,
            freedoms=0 if freedoms == FREEDOMS.default else int(freedoms),
            expansions=chosen.get(EXPANSIONS.name, EXPANSIONS.default),
            character_raise=chosen.get(CHARACTER_RAISE.name, CHARACTER_RAISE.default),
            merchant_points=chosen.get(MERCHANT_POINTS.name, MERCHANT_POINTS.default),
            muse_princess=chosen.get(MUSE_PRINCESS.name, MUSE_PRINCESS.default))

    # The hot methods are the rules' own functions (no extra call on replay's path).
    new_state = staticmethod(rules_game.new_state)

    def setup(self, first: ev.GameStarted) -> Setup:
        options = {MONEY.name: "open" if first.money_open else "hidden",
                   EXPANSIONS.name: first.expansions,
                   CHARACTER_RAISE.name: first.character_raise,
                   MERCHANT_POINTS.name: first.merchant_points,
                   MUSE_PRINCESS.name: first.muse_princess}
        offered = self.variants.get(first.variant)
        if offered is not None and FREEDOMS in offered.options:
            options[FREEDOMS.name] = str(first.freedoms) if first.freedoms else FREEDOMS.default
        return Setup(first.players, first.variant, options, first.seeded,
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

    def resolve_chance(self, state: State, seed: str) -> Deal | Draw | AddFreedoms:
        """The deal or draw the seed gives now.

        Raises:
            IllegalMoveError: no deal or draw is due.
        """
        return rules_game.seeded_chance(state, seed)

    def same_chance(self, state: State, command: Any) -> bool:
        due = rules_game.chance_due(state)
        if due is None or not isinstance(command, (Deal, Draw, AddFreedoms)):
            return False
        if isinstance(command, AddFreedoms) or due.kind == FREEDOMS_DUE:
            return isinstance(command, AddFreedoms) and due.kind == FREEDOMS_DUE
        if isinstance(command, Deal) != (due.kind == "deal"):
            return False
        if command.player != state.players[due.seat].name:
            return False
        return not isinstance(command, Draw) or command.deck == due.deck

    def chance_mismatch(self, stated: Any, seeded: Deal | Draw | AddFreedoms) -> str | None:
        if isinstance(seeded, AddFreedoms):
            if sorted(stated.freedoms) == sorted(seeded.freedoms):
                return None
            return f"the seed adds {' and '.join(seeded.freedoms)}"
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
        if due.kind == FREEDOMS_DUE:
            return f"the {due.n} freedoms added to the supply, each of another type"
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

    # engine.protocol.TableLog: a `pass` that a table log may mean as R18's pass.
    two_way = frozenset((Pass,))
    table_reading = staticmethod(table_reading)

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
