"""`pbem address`: the addresses a seat's commands are played from.

Exit codes: 0 done; 1 refused (unknown game or seat, an address of another seat, the
last address); 2 a usage error.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .cli_mail import DbOption, _fail, _moderate, _moderator
from .errors import PbemError

app = typer.Typer(help="Register or remove the addresses a seat plays from.",
                  no_args_is_help=True, rich_markup_mode=None)


@app.command("list")
def list_command(game: str, seat: Annotated[str, typer.Argument(help="the seat's name")],
                 as_json: Annotated[bool, typer.Option("--json")] = False,
                 db: DbOption = None) -> None:
    """The seat's registered addresses; mails go to the first."""
    mod = _moderator(db)
    try:
        found = mod.addresses(game, seat)
    except PbemError as e:
        _fail(str(e))
    if as_json:
        import json  # here: `pbem --help` builds this command without it

        typer.echo(json.dumps(found))
    else:
        typer.echo("\n".join(found))


@app.command("add")
def add_command(game: str, seat: Annotated[str, typer.Argument(help="the seat's name")],
                address: str, db: DbOption = None) -> None:
    """Register one more address for a seat (its owner is told)."""
    _moderate(db, lambda m, now: m.add_address(game, seat, address, now),
              f"{game}: {address} registered for {seat}")


@app.command("remove")
def remove_command(game: str, seat: Annotated[str, typer.Argument(help="the seat's name")],
                   address: str, db: DbOption = None) -> None:
    """Unregister an address of a seat; the last one cannot be removed."""
    _moderate(db, lambda m, now: m.remove_address(game, seat, address, now),
              f"{game}: {address} removed from {seat}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="address")
