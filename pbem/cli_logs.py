"""Game-log commands of the `pbem` command line: replay, show, selfplay.

Exit codes: 0 every log is valid; 1 a log is invalid or cannot be read (a missing or
unreadable file is reported as an error of kind "io" for that file, and the other
files are still checked); 2 a usage error (bad option, unknown player for --as).

This module holds only the commands' signatures and help; each command imports the
engine, the notation and `pbem.log_report` when it runs, so that `pbem --help` starts
without them (tests/logs/test_startup.py, scripts/bench_startup.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .cli_games import GameOption, command


def replay_command(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE", help="Game log files to check (- for standard input).")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line per file.")]
    = False,
    game: GameOption = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help="Worker processes for many files (default: the CPU "
        "count; 1: one file at a time in this process).")] = None,
) -> None:
    """Check game logs: every line must parse and be legal where it stands.

    Prints OK and the standings for a valid log (one that stops mid-game is valid if
    every line is legal), or the first bad line as FILE:LINE:COLUMN: KIND: MESSAGE.
    Exit 0 if all logs are valid, 1 if any is not (or cannot be read), 2 on usage errors.
    A log's [Game] tag names its game; --game is the game of logs without one (a log
    whose tag names another game is invalid). With --jobs, files are replayed side by
    side and reported in the order given, exactly as one at a time; a progress bar
    shows on a terminal's stderr (not with --json).
    """
    from .log_report import PROGRESS_MIN_FILES, file_reports, print_reports, print_with_bar
    from .parallel import cpu_count

    reports = file_reports(files, game=game, as_json=as_json,
                           jobs=cpu_count() if jobs is None else jobs)
    if not as_json and len(files) >= PROGRESS_MIN_FILES and sys.stderr.isatty():
        good = print_with_bar(reports, len(files))
    else:
        good = print_reports(reports)
    raise typer.Exit(0 if good else 1)


def show_command(
    file: Annotated[Path, typer.Argument(metavar="FILE",
                                         help="A game log file (- for standard input).")],
    at: Annotated[int | None, typer.Option("--at", min=0, help="Show the position after this "
                                           "line (default: the end).")] = None,
    as_player: Annotated[str | None, typer.Option("--as", help="See the game as this player "
                                                  "sees it (its own hidden values only).")] = None,
    full: Annotated[bool, typer.Option("--full", help="Show every hidden value "
                                       "(referee view).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the view as JSON.")] = False,
    png: Annotated[Path | None, typer.Option("--png", metavar="FILE", help="Also write the "
                                             "picture of the board to FILE (PNG), as the "
                                             "status mails show it.")] = None,
    game: GameOption = None,
) -> None:
    """Show the position at any point of a log: the public view by default, one
    player's view with --as, or everything with --full. With --png, the picture of
    the board at that position is written to a file too.

    If the log has an error before that point, the position before the bad line is
    shown, the error goes to stderr, and the exit status is 1. A log's [Game] tag names
    its game; --game is the game of a log without one.
    """
    from .log_report import error_lines, io_result, read_log
    from .logs import LogError, replay_log
    from .presenter import board_png
    from .registry import presenter_for

    if full and as_player:
        raise typer.BadParameter("--as and --full exclude each other", param_hint="--as")
    text, io_error = read_log(file)
    r = (replay_log(text, file=str(file), upto=at, game=game) if text is not None
         else io_result(str(file), io_error or LogError(0, 0, "io", "unreadable")))
    if r.state is None:
        typer.echo("\n".join(error_lines(r)), err=True)
        raise typer.Exit(1)
    seat: int | None = None
    if as_player is not None:
        try:
            seat = r.state.names.index(as_player.strip().lower())
        except ValueError:
            names = ", ".join(r.state.names)
            raise typer.BadParameter(f"{as_player!r} is not a player of this game ({names})",
                                     param_hint="--as") from None
    assert r.game is not None
    presenter = presenter_for(r.game.name)
    view = presenter.full_view(r.state) if full else r.game.view(r.state, seat)
    if png is not None:
        _write_png(png, board_png(presenter, view), r.game.name)
    line = r.error.line - 1 if r.error is not None and r.error.line else r.lines
    if as_json:
        import json

        typer.echo(json.dumps({"file": r.file, "line": line, "ok": r.ok,
                               "error": r.error.to_json() if r.error else None,
                               "view": presenter.view_to_json(view)}, ensure_ascii=False))
    else:
        where = f"after line {line}" if line else "at the start"
        who = "full view" if full else (f"as {as_player.lower()}" if as_player else "public view")
        typer.echo(f"{r.file} {where}, {who}")
        typer.echo(presenter.render_text(view), nl=False)
    if r.error is not None:
        if r.error.line:
            typer.echo(f"(stopped before line {r.error.line}; the log is bad there)", err=True)
        typer.echo("\n".join(error_lines(r)), err=True)
        raise typer.Exit(1)


def _write_png(path: Path, picture: bytes | None, game: str) -> None:
    """Write the board's picture for `show --png`: a game without one is a usage
    error (exit 2), a file that cannot be written an error (exit 1)."""
    if picture is None:
        raise typer.BadParameter(f"{game} has no picture of its board", param_hint="--png")
    try:
        path.write_bytes(picture)
    except OSError as e:
        typer.echo(f"cannot write {path}: {e.strerror or e}", err=True)
        raise typer.Exit(1) from None



def selfplay_command(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", "-n", min=1, max=20,
                                         help="Number of players: the game's variant for "
                                              "that many (--help lists them).")] = 4,
    seed: Annotated[str | None, typer.Option("--seed", help="Seed of the random game "
                                             "(default: a fresh random one).")] = None,
    recorded: Annotated[bool, typer.Option("--recorded", help="Write a recorded log: no "
                                           "Seed tag, every deal and draw as a chance line.")]
    = False,
    game: GameOption = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (repeatable), as for `pbem new` (also --NAME VALUE)")] = None,
) -> None:
    """Print a complete random legal game as a log (seeded unless --recorded)."""
    import secrets

    from engine.errors import GameError
    from engine.protocol import variant_for
    from engine.registry import get_game
    from engine.selfplay import play_random

    from .games import game_options
    from .logs import format_game_log, result_tag

    chosen = get_game(game)
    variant = variant_for(chosen.variants, players)
    try:
        options = game_options(game, option or [], ctx.args)
    except (ValueError, GameError) as e:
        raise typer.BadParameter(str(e), param_hint="--option") from None
    game_seed = seed if seed is not None else secrets.token_hex(8)
    try:
        playout = play_random(chosen, players, game_seed, variant=variant, options=options)
    except GameError as e:
        raise typer.BadParameter(e.message, param_hint="--players") from None
    tags = [("Game", chosen.name), ("Variant", variant)]
    for o in chosen.variants[variant].options:
        if o.name in options and (options[o.name] != o.default or not o.quiet):
            tags.append((o.tag, options[o.name]))
    if not recorded:
        tags.append(("Seed", playout.seed))
    tags.append(("Result", result_tag(playout.state, chosen)))
    typer.echo(format_game_log(playout.players, playout.moves, tags, include_chance=recorded),
               nl=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    command(app, "replay")(replay_command)
    command(app, "show")(show_command)
    command(app, "selfplay", context_settings={
        "allow_extra_args": True, "ignore_unknown_options": True})(selfplay_command)
