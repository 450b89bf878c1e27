"""The command line's `--game` option and the games its help lists.

The list is made when a help page is shown (`GamesGroup`, `GamesCommand`), not when
`pbem` starts, so that the log tools start as fast as before; it imports each game's
definition (`engine.registry`), never the database stack.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup


def games_epilog(options: bool = False) -> str:
    from .games import listing, option_lines

    lines = listing() or ["none registered"]
    if options:
        from engine.registry import GAMES

        for name in GAMES.names():
            try:
                lines += [f"{name} options: {line}" for line in option_lines(name)]
            except Exception:  # listed as not loadable above
                continue
    return "\n\n".join(["Games (--game NAME: its variants and player counts):", *lines])


class GamesGroup(TyperGroup):
    """The top-level app: its help ends with the registered games, and its commands
    convert plain values without pydantic (`pbem.cli_values`)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        from .cli_values import convert_plainly

        found = super().get_command(ctx, cmd_name)
        if found is not None:
            convert_plainly(found, ctx)
        return found

    def get_help_option(self, ctx: Any) -> Any:
        from .cli_values import convert_plainly

        option = super().get_help_option(ctx)
        if option is not None:
            convert_plainly(option)
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.epilog = games_epilog()
        super().format_help(ctx, formatter)


class GamesCommand(TyperCommand):
    """A command with --game: its help ends with the registered games (and, for one
    that takes game options, their options)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.epilog = games_epilog(options=any(p.name == "option" for p in self.params))
        super().format_help(ctx, formatter)


def checked_game(value: str | None) -> str | None:
    """--game's check: a registered game's name, or a usage error (exit 2) naming the
    known games. None (not given) stays None: the callee takes the default game."""
    if value is None:
        return None
    from engine.errors import GameError

    from .games import game_name

    try:
        return game_name(value.strip().lower())
    except GameError as e:
        raise typer.BadParameter(e.message) from None


GAME_HELP = "the game (default: the default game; --help lists them)"

GameOption = Annotated[str | None, typer.Option("--game", help=GAME_HELP,
                                                callback=checked_game, metavar="NAME")]


def command(app: typer.Typer, name: str, context_settings: dict[str, Any] | None = None) -> Any:
    """`app.command(name)` for a command that takes --game."""
    return app.command(name, cls=GamesCommand, context_settings=context_settings)
