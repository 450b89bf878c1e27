"""The `pbem` command line. Each group of commands lives in its own module.

A command is built when it is first looked up, its module imported then: `pbem
replay` loads `pbem.cli_logs` and has typer build `replay` alone, not the moderator's
commands and their modules (tests/logs/test_startup.py, scripts/bench_startup.py). A
help page that lists the commands imports their modules but builds none: it lists each
by a stand-in of the same class, name and help (`listed_command`; to make them all,
their parameters read from the functions' signatures, cost `pbem --help` a fifth of
`import typer` more).
"""

from __future__ import annotations

import gc
import inspect
from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperCommand
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

    def __contains__(self, name: object) -> bool:
        return name in self._entries  # without making the command

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def listed(self, name: str) -> Any:
        """The command `name` as a help page lists it: the command if built, else its
        stand-in (`listed_command`)."""
        found = self._entries[name]
        return listed_command(name, found) if isinstance(found, str) else found


_registered: dict[str, typer.Typer] = {}


def registered(module: str) -> typer.Typer:
    """A Typer with the commands `pbem.<module>` registers (made once)."""
    found = _registered.get(module)
    if found is None:
        found = _registered[module] = typer.Typer()
        import_module(f"{__package__}.{module}").register(found)
    return found


def listed_command(name: str, module: str) -> Any:
    """A stand-in of the click command `name` that `pbem.<module>` registers, for a
    help page's list of commands: of the class typer would build, with its name and
    the help, short help, hidden and deprecated marks typer would give it (the list
    shows nothing else), and no parameters, so that nothing is read from the
    function's signature. A group of commands is built whole."""
    for info in registered(module).registered_commands:
        if info.name == name:
            assert info.callback is not None
            use_help = (inspect.getdoc(info.callback) if info.help is None
                        else inspect.cleandoc(info.help))
            return (info.cls or TyperCommand)(
                name=name, help=use_help, short_help=info.short_help, hidden=info.hidden,
                deprecated=info.deprecated, rich_markup_mode=app.rich_markup_mode)
    return build_command(name, module)


def build_command(name: str, module: str) -> Any:
    """The click command `name` that `pbem.<module>` registers, built as typer builds
    the commands of `app`."""
    registered_ = registered(module)
    for info in registered_.registered_commands:
        if info.name == name:
            return get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                         rich_markup_mode=app.rich_markup_mode)
    for group in registered_.registered_groups:
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
        self._listing = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if self._listing and isinstance(self.commands, LazyCommands) \
                and cmd_name in self.commands:
            return self.commands.listed(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands' names, in order (typer's own reads the commands: builds them)."""
        return list(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The list of commands, of stand-ins for those not built yet."""
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


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
