"""The game seam: what every game gives the rest of pbem.

pbem moderates, replays, verifies, exports and self-plays any game that implements
`Game` and is registered (`engine.registry`). The generic modules (`engine.match`,
`engine.undo`, `engine.chain`, `engine.selfplay`, the notation's log reader and the
whole shell) talk to a game only through this protocol; they never import a game.

The cut follows the mature multi-game engines: a game is a value with pure functions
over its own state (boardgame.io's Game object, OpenSpiel's Game/State), chance is a
seat (OpenSpiel's chance player), variants are named up front with their player
counts (python-chess's variants), and a contract test runs over every registered
game (brdgme's `Gamer` contract). What pbem adds: exact errors (`engine.errors`),
events that are stored, hash-chained and sealed (`engine.chain`), and undo by
consent (`engine.undo`).

A game's state carries the rules data of its variant as a value: never a global,
never an event field, so it never enters the hash chain.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    import random

from .frozen import dataclass, quick_init

CHANCE: Final = -1
"""The pseudo-seat that deals, draws and rolls (OpenSpiel's chance player)."""


@dataclass(frozen=True, slots=True)
class Option:
    """A game option chosen at setup, kept in the game's first event and written in
    logs as the header tag `tag` (for example `[Money "open"]`).

    `choices` are the spellings the tag may take, the first being the default.
    A `quiet` option's tag is written only when it is not the default (an option
    added later: the logs of games without it stay as they were).
    """

    name: str  # the keyword of the first event and of `Game.start`
    tag: str  # the log's header tag
    choices: tuple[str, ...]
    help: str = ""
    quiet: bool = False

    @property
    def default(self) -> str:
        return self.choices[0]


@dataclass(frozen=True, slots=True)
class Variant:
    """A way to play the game: its name, player counts and options."""

    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    help: str = ""

    def admits(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players

    @property
    def counts(self) -> str:
        """The player counts as people say them: "3-5" or "2"."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"


def variant_for(variants: Mapping[str, Variant], players: int) -> str:
    """The variant a game of `players` players is played in when none is named: the
    first (the default) if it admits the count, else the first that does, else the
    first (whose `Game.start` then says why not)."""
    first = next(iter(variants))
    if variants[first].admits(players):
        return first
    return next((name for name, v in variants.items() if v.admits(players)), first)


@dataclass(frozen=True, slots=True)
class Summary:
    """A game as help pages list it, importable without its rules: the same name,
    title and variants as its `Game` (entry-point group `pbem.summaries`)."""

    name: str
    title: str
    variants: Mapping[str, Variant]


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game's first event records: the players, variant and options (by
    `Option.name`), whether chance comes from a seed, the rules edition and engine
    version that judge the game, and the commitment to the seed."""

    players: tuple[str, ...]
    variant: str
    options: Mapping[str, str]
    seeded: bool
    edition: str
    engine: str
    commitment: str


@quick_init
@dataclass(frozen=True, slots=True)
class Standing:
    """One player's result: score (victory points, or the game's own measure), the
    tie-break values in order, and the place (1 is best; shared on a true tie)."""

    seat: int
    name: str
    score: int
    tiebreaks: tuple[int, ...]  # higher is better, compared in order
    place: int  # 1 + the number of players with a better (score, tiebreaks)
    fields: Mapping[str, int]  # the game's own numbers by name, as replay --json shows them


@quick_init
@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game: standings in seat order, and the winners."""

    standings: tuple[Standing, ...]
    winners: tuple[int, ...]

    def ranked(self) -> list[Standing]:
        """Standings best first (by place, then seat)."""
        return sorted(self.standings, key=lambda s: (s.place, s.seat))


@runtime_checkable
class GameState(Protocol):
    """What every game's state shows the generic code."""

    @property
    def version(self) -> int:
        """The number of events folded in."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        ...


class GameEvent(Protocol):
    """What every event shows the generic code: the version of its shape, and whether
    it carries hidden values. A private event names the fields that hold them in
    `secret` and the seat that may see them in a `seat` field (`engine.codec`); its
    redacted copy keeps its type, shows each hidden value as '?', and survives the
    codec (the hash chain seals that copy)."""

    private: ClassVar[bool]
    version: ClassVar[int]


S = TypeVar("S", bound=GameState)


@runtime_checkable
class Game(Protocol[S]):
    """A game pbem can moderate. All methods are pure; none keeps state.

    Commands and events are the game's own frozen dataclasses. Commands have a
    `verb`; events have `private` (hidden values inside, shown only to the event's
    `seat`) and a `version`, and their canonical JSON (`to_dict`) is what the hash
    chain covers, so their type names and fields never change once games exist.
    Every game's commands include `engine.consent`'s undo commands and its events
    `Reverted` (its `from_dict` decodes it); `engine.match` folds `Reverted` itself.

    Seats are 0-based in the order of the players; CHANCE (-1) is the seat that
    deals, draws and rolls. Scores and tie-breaks are better when higher.
    """

    name: str  # the registry key and the value of a log's [Game] tag
    title: str  # as people write it
    version: str  # the engine version that judges its games (stamped in the first event)
    edition: str  # the edition of its rules data
    variants: Mapping[str, Variant]  # the first is the default

    # --- setup
    def start(self, players: Sequence[str], *, variant: str, options: Mapping[str, str],
              commitment: str, seeded: bool) -> Any:
        """The first event of a new game (options by `Option.name`, as strings; an
        option left out takes its default).

        Raises:
            IllegalMoveError: an unknown variant or option value, a player count the
                variant does not admit, or a repeated name.
        """
        ...

    def new_state(self, first: Any) -> S:
        """The state right after the first event (version 1)."""
        ...

    def setup(self, first: Any) -> Setup:
        """What the first event records (every option, defaults filled in)."""
        ...

    # --- play
    def apply(self, state: S, seat: int, command: Any) -> tuple[S, list[Any]]:
        """Decide a command and fold its events and those that follow automatically.
        A chance command comes with `seat` CHANCE.

        Raises:
            IllegalMoveError: the command breaks a rule; nothing changes.
        """
        ...

    def evolve(self, state: S, event: Any) -> S:
        """The state after one more event (never the first, which `new_state` folds,
        and never `Reverted`, which `engine.match` folds)."""
        ...

    def with_version(self, state: S, version: int) -> S:
        """The same position at another version (after an agreed undo)."""
        ...

    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats whose move the game waits for; (CHANCE,) when chance is due.
        A game may also take free commands from other seats (e.g. selling fame at
        any time): those are in `legal_commands` but make no seat "to act"."""
        ...

    def chance_due(self, state: S) -> Any | None:
        """What chance must state next (a deal, draw or roll), or None."""
        ...

    def resolve_chance(self, state: S, seed: str) -> Any:
        """The chance command the seed gives now (a function of the seed and the
        state only).

        Raises:
            IllegalMoveError: no chance is due.
        """
        ...

    def same_chance(self, state: S, command: Any) -> bool:
        """True if a stated chance command states the chance step due now (its kind
        and whom it concerns, whatever its outcome): how a seeded log's chance lines
        are matched to the steps the seed resolves."""
        ...

    def chance_mismatch(self, stated: Any, seeded: Any) -> str | None:
        """Why a stated chance command differs from the seeded one for the same
        step (e.g. "'lute' is not among its cards"), or None if they agree."""
        ...

    def chance_wanted(self, state: S) -> str:
        """What the chance due now must state, for an error message (e.g. "the 4
        cards dealt to anna")."""
        ...

    def legal_commands(self, state: S, seat: int, *, anytime: bool = True) -> list[Any]:
        """The commands `seat` may give now, in a stable order (undo commands aside;
        none for CHANCE or a finished game; for a seat not to act, only the commands
        the rules take out of turn: free ones, such as selling fame, and those whose
        moment is now, such as a card used at once or a recorded pass). `anytime=False`
        leaves out the commands a player may give at any time, turn or not (what a
        log's error lists as the seat's alternatives)."""
        ...

    def late_command(self, state: S, seat: int) -> Any:
        """What the moderator plays for `seat`, one of the seats to act, when its
        deadline passes (each late seat gets its own).

        Raises:
            IllegalMoveError: `seat` has nothing to do.
        """
        ...

    def random_command(self, state: S, seat: int, rng: random.Random) -> Any:
        """A random legal command of a player seat (never CHANCE) for self-play
        (uniform unless the game says why not).

        Raises:
            IllegalMoveError: `seat` has nothing to do.
        """
        ...

    def crossing_error(self, events: Iterable[Any]) -> str | None:
        """Why an undo may not take these events back (chance, revealed information),
        or None."""
        ...

    def result(self, state: S) -> Result | None:
        """Scores, places and winners of a finished game; None while it runs."""
        ...

    def standings(self, state: S) -> tuple[Standing, ...]:
        """Every player's standing so far, in seat order (at the end, those of
        `result`): what a replay of an unfinished log reports."""
        ...

    def progress(self, state: S) -> tuple[int, str]:
        """The round and the phase, for summaries."""
        ...

    # --- what leaves the engine
    def view(self, state: S, seat: int | None) -> Any:
        """What `seat` may see (None: the public)."""
        ...

    def redact(self, event: Any, seat: int | None) -> Any:
        """The event as `seat` may see it (hidden values of other seats blanked)."""
        ...

    def is_visible(self, event: Any, seat: int | None) -> bool:
        """True if `seat` may see every field of the event."""
        ...

    def to_dict(self, event: Any) -> dict[str, Any]:
        """A JSON-ready dict of the event: `type`, `v` and its fields."""
        ...

    def from_dict(self, data: dict[str, Any]) -> Any:
        """Rebuild an event from `to_dict` output.

        Raises:
            KeyError: an unknown event type.
        """
        ...


@runtime_checkable
class InPlace(Protocol):
    """What a game may add for fast replay (`Match(..., in_place=True)`): the same
    rules, folded into a state the caller owns instead of into a new one. A game
    without it replays through `Game.apply`. `apply_in_place(s, seat, c)` must leave
    `s` as `Game.apply(s, seat, c)` returns it and give the same events and errors."""

    def apply_in_place(self, state: Any, seat: int, command: Any) -> list[Any]:
        """Decide a command and fold its events, and those that follow
        automatically, into `state` itself: the events.

        Raises:
            IllegalMoveError: as `Game.apply`; `state` is unchanged then.
        """
        ...

    def owned_copy(self, state: Any) -> Any:
        """A copy of the state that `apply_in_place` may change without changing
        `state` (or any state it shares values with)."""
        ...


@runtime_checkable
class TableLog(Protocol):
    """What a game may add for logs written at a table, where a line may mean either
    of two commands that pbem's own logs never mix up (say, a `pass` that ends the
    player's part, or one that only records what the players at a table say first,
    before that player goes on). Log replay (`pbem.logs.replay_log`) asks `table_reading`
    about each move whose command type is in `two_way`, and plays the other command
    only when the same player's next lines are accepted further with it than with
    the command as read; a log that replays as it stands replays the same."""

    two_way: ClassVar[frozenset[type]]
    """The command types that may mean something else (looked up for every move of a
    replayed log: keep it small)."""

    def table_reading(self, state: Any, seat: int, command: Any) -> Any | None:
        """The other command that `command` (of a type in `two_way`) from `seat` may
        mean in this state, or None if it means only itself. Never a command the
        notation reads: the notation writes both the same."""
        ...
