"""A stored game as the moderator plays it: its rules, grammar and presenter (by the
game's name), its events and state, and the undo protocol's tracker, cached per
version (the log is append-only) for the games used last. A game not in the cache
is loaded from its state snapshot (`pbem.snapshots`), its events read only when
asked for; without a snapshot that fits, it is replayed."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from sqlmodel import Session, col, func, select

from engine.match import fold
from engine.protocol import CHANCE
from engine.registry import get_game
from engine.undo import Tracker
from notation.registry import grammar_for

from . import snapshots
from .playing import UNDO_VERBS, Played, rebuild_tracker
from .presenter import Presenter
from .registry import presenter_for
from .store import Game, MoveRow, count_moves, known_head, load_events


@dataclass(frozen=True)
class Rules:
    """One game's rules, notation and words."""

    game: Any  # engine.protocol.Game
    grammar: Any  # notation.registry grammar
    presenter: Presenter

    @classmethod
    def named(cls, name: str | None) -> Rules:
        """The game called `name` (None: the default game).

        Raises:
            UnknownGameError: no such game is registered.
        """
        game = get_game(name)
        return cls(game, grammar_for(game.name), presenter_for(game.name))

    @classmethod
    def of(cls, row: Game) -> Rules:
        """The rules of a stored game (a row from before games had names: the default
        game)."""
        return cls.named(getattr(row, "game", None))


class EventLog(Sequence[Any]):
    """A stored game's events, read from the database from `start` on only when they
    are asked for (a game loaded from its snapshot reads none until a mail needs
    the changes since some version). Events never change once stored, so what was
    read is kept; the reading is done in the session of the latest `Games.load`."""

    def __init__(self, s: Session, game_id: str, start: int, tail: Sequence[Any] = ()) -> None:
        self.session, self.game_id = s, game_id
        self.start = start
        self._items = list(tail)

    def __len__(self) -> int:
        return self.start + len(self._items)

    def _read_from(self, lo: int) -> None:
        if lo < self.start:
            self._items[:0] = load_events(self.session, self.game_id, lo, self.start)
            self.start = lo

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            lo, hi, step = i.indices(len(self))
            if step != 1:
                self._read_from(0)
                return self._items[i]
            self._read_from(lo)
            return self._items[lo - self.start:max(lo, hi) - self.start]
        n = i + len(self) if i < 0 else i
        if not 0 <= n < len(self):
            raise IndexError(i)
        self._read_from(n)
        return self._items[n - self.start]

    def __iter__(self) -> Iterator[Any]:
        self._read_from(0)
        return iter(self._items)

    def extended(self, events: Sequence[Any]) -> EventLog:
        """These events and then `events` (a commit's)."""
        return EventLog(self.session, self.game_id, self.start, [*self._items, *events])


def extended(events: Sequence[Any], new: Sequence[Any]) -> Sequence[Any]:
    """A game's events and then `new` ones, read no earlier than they were."""
    if isinstance(events, EventLog):
        return events.extended(new)
    return [*events, *new]


@dataclass(frozen=True)
class Loaded:
    """A stored game at one version: its rules, events and state."""

    rules: Rules
    events: Sequence[Any]  # a list, or an `EventLog` that reads them when asked
    state: Any
    head: str | None = None  # the hash chain's head after the events, when known

    @property
    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self.state.names
        return names

    def view(self, seat: int | None) -> Any:
        return self.rules.game.view(self.state, seat)

    def played(self, seed: str, tracker: Tracker) -> Played:
        """Commands about to be played on this state, through a match of their own
        (a refused mail leaves this game as it was)."""
        return Played.on(self.rules.game, self.rules.grammar, self.state, seed=seed,
                         tracker=tracker)


DEFAULT_CACHE_GAMES = 1000
"""Games a worker keeps loaded (`Config.game_cache_size`): 37-54 KiB each."""


class Games:
    """The moderator's cache of loaded games and their trackers: the `size` games
    used last (least recently used evicted first, a whole game at a time)."""

    def __init__(self, size: int = DEFAULT_CACHE_GAMES) -> None:
        self.size = max(1, size)
        # game -> (version, loaded) and (version, commands stored, tracker): undo,
        # agree and refuse add commands but no events, so the tracker is keyed by both.
        self._games: OrderedDict[str, tuple[tuple[int, Loaded] | None,
                                            tuple[int, int, Tracker] | None]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def _get(self, game_id: str) -> tuple[tuple[int, Loaded] | None,
                                          tuple[int, int, Tracker] | None]:
        hit = self._games.get(game_id)
        if hit is None:
            return None, None
        self._games.move_to_end(game_id)
        return hit

    def _put(self, game_id: str, loaded: tuple[int, Loaded] | None,
             tracker: tuple[int, int, Tracker] | None) -> None:
        self._games[game_id] = (loaded, tracker)
        self._games.move_to_end(game_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def load(self, s: Session, row: Game) -> Loaded:
        """The game's events and state (cached per version): its state from the
        game's snapshot when one fits (`pbem.snapshots`), else replayed."""
        hit, tracker = self._get(row.id)
        if hit is not None and hit[0] == row.version:
            if isinstance(hit[1].events, EventLog):
                hit[1].events.session = s  # read any older events in this session
            if hit[1].head is not None:  # the next commit chains to it unread
                known_head(s, row.id, row.version, hit[1].head)
            return hit[1]
        rules = Rules.of(row)
        snap = snapshots.restore(s, row, rules.game)
        if snap is None:
            events = load_events(s, row.id)
            loaded = Loaded(rules, events, fold(rules.game, events))
        else:
            state, restored, moves = snap
            loaded = Loaded(rules, EventLog(s, row.id, row.version), state)
            tracker = (row.version, moves, restored)
        self._put(row.id, (row.version, loaded), tracker)
        return loaded

    def tracker(self, s: Session, row: Game) -> Tracker:
        """The undo protocol's tracker: the last command and any pending request,
        rebuilt from the stored commands since the last player command
        (`playing.rebuild_tracker`)."""
        n = count_moves(s, row.id)
        hit = self._get(row.id)[1]
        if hit is not None and hit[:2] == (row.version, n):
            return hit[2]
        loaded = self.load(s, row)
        tracker = rebuild_tracker(loaded.rules.game, loaded.rules.grammar, loaded.events,
                                  loaded.state, moves_since_player_command(s, row.id))
        self._put(row.id, self._get(row.id)[0], (row.version, n, tracker))
        return tracker

    def remember(self, row: Game, loaded: Loaded, moves: int, tracker: Tracker) -> None:
        """The game after a commit: at `row.version`, with `moves` commands stored."""
        self._put(row.id, (row.version, loaded), (row.version, moves, tracker))

    def forget(self, game_id: str | None = None) -> None:
        """Drop a game from the cache (None: every game), after a lost race."""
        if game_id is None:
            self._games.clear()
        else:
            self._games.pop(game_id, None)

    # the old name, for callers that clear the cache after a concurrent write
    def clear(self) -> None:
        self.forget()

    def pop(self, game_id: str, default: object = None) -> None:
        self.forget(game_id)


def moves_since_player_command(s: Session, game_id: str) -> list[tuple[int, str, int]]:
    """The stored commands (seat, command, version) from the last player command that
    is not the undo protocol's on, oldest first (all of them when there is none)."""
    last = s.exec(select(func.max(MoveRow.n)).where(MoveRow.game_id == game_id)
                  .where(MoveRow.seat != CHANCE)
                  .where(col(MoveRow.command).not_in(UNDO_VERBS))).one()
    q = select(MoveRow.seat, MoveRow.command, MoveRow.version) \
        .where(MoveRow.game_id == game_id).order_by(col(MoveRow.n))
    if last is not None:
        q = q.where(MoveRow.n >= last)
    return [(seat, command, version) for seat, command, version in s.exec(q)]
