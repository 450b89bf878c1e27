"""The `pbem` command line. Each group of commands lives in its own module.

A command is built when it is first looked up, its module imported then: `pbem
replay` loads `pbem.cli_logs` and has typer build `replay` alone, not the moderator's
commands and their modules (tests/logs/test_startup.py, scripts/bench_startup.py). A
help page that lists the commands builds them all.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import Any

import typer
from typer.main import get_command_from_info, get_group_from_info

from .cli_games import GamesGroup

COMMANDS = {
    "replay": "cli_logs", "show": "cli_logs", "selfplay": "cli_logs",
    "init": "cli_mail", "new": "cli_mail", "poll": "cli_mail", "serve": "cli_mail",
    "status": "cli_mail", "export": "cli_mail", "pause": "cli_mail", "resume": "cli_mail",
    "extend": "cli_mail", "replace": "cli_mail", "outbox": "cli_mail", "demo": "cli_mail",
    "verify": "cli_trust",
    "address": "cli_address",
}
"""Every command, in the order `pbem --help` lists them, and the module `pbem.<module>`
whose `register(app)` adds it."""


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name; a name whose value is still a module's name is
    built from that module when first looked up."""

    def __init__(self, entries: dict[str, Any]) -> None:
        self._entries = entries

    def __getitem__(self, name: str) -> Any:
        found = self._entries[name]
        if isinstance(found, str):
            found = self._entries[name] = build_command(name, found)
        return found

    def __setitem__(self, name: str, command: Any) -> None:
        self._entries[name] = command

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def build_command(name: str, module: str) -> Any:
    """The click command `name` that `pbem.<module>` registers, built as typer builds
    the commands of `app`."""
    registered = typer.Typer()
    import_module(f"{__package__}.{module}").register(registered)
    for info in registered.registered_commands:
        if info.name == name:
            return get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                         rich_markup_mode=app.rich_markup_mode)
    for group in registered.registered_groups:
        if group.name == name:
            return get_group_from_info(group, pretty_exceptions_short=app.pretty_exceptions_short,
                                       rich_markup_mode=app.rich_markup_mode,
                                       suggest_commands=app.suggest_commands)
    raise LookupError(f"pbem.{module} registers no command {name!r}")


class PbemGroup(GamesGroup):
    """The app: `GamesGroup`, with the commands of `COMMANDS` built as looked up."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands({**COMMANDS, **self.commands})


def _show_version(wanted: bool) -> None:
    if wanted:
        from .build import describe

        typer.echo(describe())
        raise typer.Exit()


def _options(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Show pbem's version and build (compiled core or pure "
                                      "Python) and exit."),
) -> None:
    """The app's own callback: its one option is --version (with it, typer makes the
    app a group of commands although none is registered with typer)."""


app = typer.Typer(
    name="pbem",
    help="Play-by-email moderator and game-log adjudicator for board games.",
    callback=_options,
    no_args_is_help=True,
    add_completion=False,
    cls=PbemGroup,  # its help lists the registered games
    rich_markup_mode=None,  # plain help and errors: rich would double the start-up time
)


STARTUP_ALLOCATIONS = 50_000
"""How many more objects the `pbem` script lets be made before the cycle collector
first runs (then it runs as usual): more than a log tool's command makes loading its
modules and a game's, so that none of its start-up is spent collecting."""


def main() -> None:
    """The `pbem` command (the console script; `app()` does the same, with the cycle
    collector as usual)."""
    # What is loaded by now (the standard library, typer) lives as long as the process:
    # frozen out of the cycle collector's way, the imports and the run of a command
    # cost some 10 ms less of CPU (scripts/bench_startup.py).
    gc.freeze()
    collect_late()
    app()


def collect_late(allocations: int = STARTUP_ALLOCATIONS) -> None:
    """Let the cycle collector first run after `allocations` more objects are made,
    and as usual from then on. What a command loads (its modules, its game's) lives
    as long as the process, so collections while it loads free nothing: the log tools
    start some 4 ms sooner without them (scripts/bench_startup.py)."""
    usual = gc.get_threshold()
    first: list[bool] = []

    def as_usual(phase: str, info: dict[str, int]) -> None:
        # stays in gc.callbacks (taking it out while they run would skip the next one)
        if not first:
            first.append(True)
            gc.set_threshold(*usual)

    gc.set_threshold(allocations, *usual[1:])
    gc.callbacks.append(as_usual)
