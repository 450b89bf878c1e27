"""The registered games, by name.

Each layer keeps its own registry of the same games: the rules here (group
`pbem.games`) and their summaries for help pages (`pbem.summaries`, optional), the
grammar in `notation.registry` (`pbem.grammars`), the presenter in `pbem.registry`
(`pbem.presenters`). Built-in games are entry points of those groups in
`pyproject.toml`, so adding a game adds lines there and changes no generic module;
tests register a game of their own with `register`.

Entry points are read once, the first time a registry is asked: every group at once,
in one search of the installed packages (`importlib.metadata.entry_points()`; a
search per group cost about a millisecond each). Each game's module is imported only
when that game is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, EntryPoints, entry_points
from typing import Any, Generic, TypeVar

from .errors import GameError

T = TypeVar("T")

DEFAULT_GROUP = "pbem.default"
"""The entry-point group whose one entry, `game`, is the default game (its `Game` or,
cheaper to load, its `Summary`): the game of a log without a [Game] tag and of commands
without --game (pbem's first game, so that every older log and command means what it
meant)."""


_installed: list[Any] = []
"""What `entry_points()` read, once read (before Python 3.12 a mapping of the groups,
from then on all the entry points; `select(group=...)` works on either)."""


def installed_entry_points(group: str) -> EntryPoints:
    """The entry points of `group` among the installed packages, in the order
    `importlib.metadata.entry_points(group=group)` gives them. The first call reads
    every group (one search of the installed packages for all the registries); the
    others select from what it read.
    """
    if not _installed:
        _installed.append(entry_points())
    points: EntryPoints = _installed[0].select(group=group)
    return points


class UnknownGameError(GameError):
    """No game of that name is registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known) or 'none'}")
        self.name = name
        self.known = list(known)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its arguments: raised in a worker process, it reaches the
        parent whole (a pool cannot rebuild it from the message alone)."""
        return (type(self), (self.name, self.known))


class Registry(Generic[T]):
    """Games of one layer by name: entry points of `group`, plus those registered."""

    def __init__(self, group: str, name_of: Callable[[T], str]) -> None:
        self.group = group
        self._name_of = name_of
        self._points: dict[str, EntryPoint] | None = None
        self._loaded: dict[str, T] = {}

    def _entry_points(self) -> dict[str, EntryPoint]:
        if self._points is None:
            self._points = {ep.name: ep for ep in installed_entry_points(self.group)}
        return self._points

    def names(self) -> list[str]:
        """Every registered game's name, built-in ones first, in registration order."""
        names = list(self._entry_points())
        names.extend(n for n in self._loaded if n not in names)
        return names

    def get(self, name: str) -> T:
        """The game called `name`.

        Raises:
            UnknownGameError: no such game is registered.
        """
        found = self._loaded.get(name)
        if found is not None:
            return found
        point = self._entry_points().get(name)
        if point is None:
            raise UnknownGameError(name, self.names())
        value: T = point.load()
        if self._name_of(value) != name:
            raise GameError(f"entry point {name!r} of {self.group} loads the game "
                            f"{self._name_of(value)!r}")
        self._loaded[name] = value
        return value

    def all(self) -> list[T]:
        """Every registered game (importing each)."""
        return [self.get(n) for n in self.names()]

    def register(self, value: T) -> Callable[[], None]:
        """Add a game (tests do); returns the function that removes it again.

        Raises:
            GameError: a game of that name is registered already.
        """
        name = self._name_of(value)
        if name in self._loaded or name in self._entry_points():
            raise GameError(f"a game called {name!r} is registered already")
        self._loaded[name] = value

        def unregister() -> None:
            self._loaded.pop(name, None)

        return unregister


def _game_name(game: Any) -> str:
    return str(game.name)


GAMES: Registry[Any] = Registry("pbem.games", _game_name)
"""The rules of every registered game (`engine.protocol.Game`)."""


SUMMARIES: Registry[Any] = Registry("pbem.summaries", _game_name)
"""What help pages list of every registered game (`engine.protocol.Summary`): a tiny
module per game, so that listing the games imports none of their rules."""


def summary_of(name: str) -> Any:
    """The name, title and variants of the game called `name`: its summary, or the
    game itself when it registers none (it has the same attributes).

    Raises:
        UnknownGameError: no such game is registered.
    """
    if name in SUMMARIES.names():
        return SUMMARIES.get(name)
    return GAMES.get(name)


_default: list[str] = []


def default_name() -> str:
    """The name of the default game (see DEFAULT_GROUP).

    Raises:
        GameError: the installed package names no default game.
    """
    if not _default:
        points = list(installed_entry_points(DEFAULT_GROUP).select(name="game"))
        if not points:
            raise GameError(f"no default game: the entry point 'game' of {DEFAULT_GROUP} "
                            "is missing (is pbem installed?)")
        _default.append(_game_name(points[0].load()))
    return _default[0]


def get_game(name: str | None = None) -> Any:
    """The rules of the game called `name` (None: the default game).

    Raises:
        UnknownGameError: no such game is registered.
    """
    return GAMES.get(name or default_name())
