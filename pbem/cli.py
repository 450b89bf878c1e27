"""The `pbem` command line. Each group of commands lives in its own module."""

from __future__ import annotations

import typer

from . import cli_address, cli_logs, cli_mail, cli_trust
from .cli_games import GamesGroup

app = typer.Typer(
    name="pbem",
    help="Play-by-email moderator and game-log adjudicator for board games.",
    no_args_is_help=True,
    add_completion=False,
    cls=GamesGroup,  # its help lists the registered games
    rich_markup_mode=None,  # plain help and errors: rich would double the start-up time
)

for module in (cli_logs, cli_mail, cli_trust, cli_address):
    module.register(app)
