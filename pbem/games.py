"""The games pbem hosts, as the shell names and lists them: resolved through the
engine's registry (`engine.registry`), never by importing a game.
"""

from __future__ import annotations

from engine.errors import GameError
from engine.registry import GAMES, default_name, get_game


def game_name(name: str | None = None) -> str:
    """The registered game's name (None: the default game's).

    Raises:
        UnknownGameError: no game of that name is registered.
    """
    return str(get_game(name).name)


def listing() -> list[str]:
    """One line per registered game: its name, then its variants with their player
    counts, the default game marked ("name: standard (3-5), short (2-4) (default)").
    A game that cannot be loaded is listed with why."""
    lines = []
    try:
        default: str | None = default_name()
    except GameError:
        default = None
    for name in GAMES.names():
        try:
            game = GAMES.get(name)
        except (GameError, ImportError, AttributeError) as e:
            lines.append(f"{name}: cannot be loaded ({e})")
            continue
        variants = ", ".join(f"{key} ({variant.counts})"
                             for key, variant in game.variants.items())
        lines.append(f"{name}: {variants}{' (default)' if name == default else ''}")
    return lines
