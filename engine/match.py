"""One game in play, whatever the game: the match driver.

The moderator, the log replayer, `pbem verify`, `pbem export` and self-play all play
through a `Match`: play a command (undo by consent included), let the seed resolve
the chance that is due, and rebuild a game from its stored events. The game itself
is a value implementing `engine.protocol.Game`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .consent import Reverted
from .errors import IllegalMoveError
from .protocol import CHANCE, Game, variant_for
from .undo import START, UNDO_TYPES, Last, Tracker, legal_undo_commands
from .undo import play as play_command


def fold(game: Game[Any], events: Iterable[Any]) -> Any:
    """The state after a game's events, the first event first.

    A `Reverted` event brings back the state at its `to_version` (the events in
    between stay in the log but no longer count); the version keeps counting.

    Raises:
        ValueError: no events.
    """
    it = iter(events)
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("a game has at least its first event") from None
    state = game.new_state(first)
    history = [state]
    evolve = game.evolve
    for e in it:
        if isinstance(e, Reverted):
            state = game.with_version(history[e.to_version - 1], state.version + 1)
        else:
            state = evolve(state, e)
        history.append(state)
    return state


class Match:
    """A game in play: its state, every event so far, and the undo protocol's tracker.

    `seed` resolves chance (`resolve_chance`); without one, chance commands must be
    played like moves (a recorded log states every deal and draw). A refused command
    changes nothing.

    `in_place=True` makes a match for replaying: its `state` is its own and each
    command is folded into it in place (`InPlace.apply_in_place`; a game without it
    plays by `Game.apply`), and the undo tracker is only worked out when something
    asks for it (`tracker`, `legal`, an undo command), after which the match plays
    as any other. The events are kept either way. A caller that keeps `state` across
    `play` must copy it first (`InPlace.owned_copy`); a state assigned to `state` is
    copied before it is changed.
    """

    __slots__ = ("game", "state", "events", "_tracker", "seed", "_apply", "_own", "_owned",
                 "_seat", "_command", "_at")

    def __init__(self, game: Game[Any], state: Any, events: list[Any], *,
                 tracker: Tracker = START, seed: str | None = None,
                 in_place: bool = False) -> None:
        self.game = game
        self.state = state
        self.events = events
        self.seed = seed
        self._tracker: Tracker | None = tracker
        # In place (while `_tracker` is None): the game's in-place hook (None once the
        # tracker is worked out), the state this match owns, and the last command
        # given: its seat, the command and the index of its first event (-1: none).
        self._apply: Callable[[Any, int, Any], list[Any]] | None = None
        self._own: Callable[[Any], Any] | None = None
        self._owned: Any = None
        self._seat = CHANCE
        self._command: Any = None
        self._at = -1
        if in_place and tracker == START:
            self._tracker = None
            # isinstance(game, InPlace), without a runtime protocol check's cost
            apply, own = (getattr(game, name, None) for name in ("apply_in_place",
                                                                 "owned_copy"))
            if apply is not None and own is not None:
                self._apply, self._own = apply, own

    @classmethod
    def start(cls, game: Game[Any], players: Sequence[str], *, variant: str | None = None,
              options: Mapping[str, str] | None = None, seed: str | None = None,
              commitment: str = "", seeded: bool | None = None,
              in_place: bool = False) -> Match:
        """A new game (`variant` None: the one for this many players, the game's first
        if it admits them: `engine.protocol.variant_for`).

        Raises:
            IllegalMoveError: as `Game.start`.
        """
        first = game.start(players, variant=variant or variant_for(game.variants, len(players)),
                           options=dict(options or {}), commitment=commitment,
                           seeded=seed is not None if seeded is None else seeded)
        return cls(game, game.new_state(first), [first], seed=seed, in_place=in_place)

    @classmethod
    def from_events(cls, game: Game[Any], events: Sequence[Any], *,
                    seed: str | None = None, tracker: Tracker = START,
                    in_place: bool = False) -> Match:
        """A game rebuilt from its stored events (`in_place`: as `Match`, and only
        with no tracker given).

        Raises:
            ValueError: no events.
        """
        return cls(game, fold(game, events), list(events), tracker=tracker, seed=seed,
                   in_place=in_place)

    @property
    def tracker(self) -> Tracker:
        """The undo protocol's tracker (worked out from the events for a match in
        place, which from then on plays as any other)."""
        if self._tracker is None:
            self._tracker, self._apply = START, None
            at = self._at
            if at >= 0:
                self._tracker = Tracker(Last(self._seat, fold(self.game, self.events[:at]),
                                             self._command, tuple(self.events[at:])))
        return self._tracker

    @tracker.setter
    def tracker(self, tracker: Tracker) -> None:
        self._tracker, self._apply = tracker, None

    # ------------------------------------------------------------------- queries

    @property
    def version(self) -> int:
        return int(self.state.version)

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    @property
    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self.state.names
        return names

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def chance_due(self) -> bool:
        return self.game.chance_due(self.state) is not None

    def legal(self, seat: int) -> list[Any]:
        """The commands `seat` may give now, the undo protocol's last."""
        if seat == CHANCE:
            return []
        return [*self.game.legal_commands(self.state, seat),
                *legal_undo_commands(self.game, self.state, self.tracker, seat)]

    # ------------------------------------------------------------------- play

    def play(self, seat: int, command: Any) -> list[Any]:
        """Decide one command for `seat` (CHANCE for a stated deal or draw): its
        events, which are now part of the match.

        Raises:
            IllegalMoveError: the command is refused; nothing changes.
        """
        apply = self._apply
        if apply is not None and type(command) not in UNDO_TYPES:
            # In place (`in_place`), with no tracker to keep: the common case first.
            state = self.state
            if state is not self._owned:
                assert self._own is not None
                state = self.state = self._owned = self._own(state)
            new = apply(state, seat, command)
            events = self.events
            if seat != CHANCE:
                self._seat, self._command, self._at = seat, command, len(events)
            events += new
            return new
        if self._tracker is None and type(command) not in UNDO_TYPES:
            # In place, and the game has no in-place hook: the same rules, by value.
            self.state, new = self.game.apply(self.state, seat, command)
            events = self.events
            if seat != CHANCE:
                self._seat, self._command, self._at = seat, command, len(events)
            events += new
            return new
        self.state, events, self._tracker = play_command(self.game, self.state, self.tracker,
                                                         seat, command)
        self.events.extend(events)
        return events

    def resolve_chance(self) -> list[Any]:
        """Play the chance the seed gives, while chance is due: the events.

        Raises:
            IllegalMoveError: the match has no seed.
        """
        game = self.game
        if game.chance_due(self.state) is None:
            return []
        if self.seed is None:
            raise IllegalMoveError("chance is due and this game has no seed: the log must "
                                   "state it", "chance")
        out: list[Any] = []
        while game.chance_due(self.state) is not None:
            out.extend(self.play(CHANCE, game.resolve_chance(self.state, self.seed)))
        return out

    def seeded_command(self) -> Any:
        """The chance command the seed gives now.

        Raises:
            IllegalMoveError: no seed, or no chance is due.
        """
        if self.seed is None:
            raise IllegalMoveError("this game has no seed", "chance")
        return self.game.resolve_chance(self.state, self.seed)
