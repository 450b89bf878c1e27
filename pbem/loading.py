"""A stored game as the moderator plays it: its rules, grammar and presenter (by the
game's name), its events and state, and the undo protocol's tracker, cached per
version (the log is append-only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from engine.match import Match
from engine.protocol import CHANCE
from engine.registry import get_game
from engine.undo import Tracker
from notation.registry import grammar_for

from .playing import UNDO_VERBS, Played, rebuild_tracker
from .presenter import Presenter
from .registry import presenter_for
from .store import Game, MoveRow, count_moves, load_events


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


@dataclass(frozen=True)
class Loaded:
    """A stored game at one version: its rules, events and state."""

    rules: Rules
    events: list[Any]
    state: Any

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


class Games:
    """The moderator's cache of loaded games and their trackers."""

    def __init__(self) -> None:
        self._loaded: dict[str, tuple[int, Loaded]] = {}
        # game -> (version, commands stored, tracker): undo, agree and refuse add
        # commands but no events, so the tracker is keyed by both counts.
        self._trackers: dict[str, tuple[int, int, Tracker]] = {}

    def load(self, s: Session, row: Game) -> Loaded:
        """The game's events and state (cached per version)."""
        hit = self._loaded.get(row.id)
        if hit is not None and hit[0] == row.version:
            return hit[1]
        rules = Rules.of(row)
        match = Match.from_events(rules.game, load_events(s, row.id), seed=row.seed)
        loaded = Loaded(rules, match.events, match.state)
        self._loaded[row.id] = (row.version, loaded)
        return loaded

    def tracker(self, s: Session, row: Game) -> Tracker:
        """The undo protocol's tracker: the last command and any pending request,
        rebuilt from the stored commands since the last player command
        (`playing.rebuild_tracker`)."""
        n = count_moves(s, row.id)
        hit = self._trackers.get(row.id)
        if hit is not None and hit[:2] == (row.version, n):
            return hit[2]
        loaded = self.load(s, row)
        tail: list[tuple[int, str, int]] = []
        for move in s.exec(select(MoveRow).where(MoveRow.game_id == row.id)
                           .order_by(col(MoveRow.n).desc())):
            tail.append((move.seat, move.command, move.version))
            if move.seat != CHANCE and move.command not in UNDO_VERBS:
                break
        tail.reverse()
        tracker = rebuild_tracker(loaded.rules.game, loaded.rules.grammar, loaded.events,
                                  loaded.state, tail)
        self._trackers[row.id] = (row.version, n, tracker)
        return tracker

    def remember(self, row: Game, loaded: Loaded, moves: int, tracker: Tracker) -> None:
        """The game after a commit: at `row.version`, with `moves` commands stored."""
        self._loaded[row.id] = (row.version, loaded)
        self._trackers[row.id] = (row.version, moves, tracker)

    def forget(self, game_id: str | None = None) -> None:
        """Drop a game from the cache (None: every game), after a lost race."""
        if game_id is None:
            self._loaded.clear()
        else:
            self._loaded.pop(game_id, None)

    # the old name, for callers that clear the cache after a concurrent write
    def clear(self) -> None:
        self.forget()

    def pop(self, game_id: str, default: object = None) -> None:
        self.forget(game_id)
