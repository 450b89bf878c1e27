"""Game-log commands of the `pbem` command line: replay, show, selfplay.

Exit codes: 0 every log is valid; 1 a log is invalid or cannot be read (a missing or
unreadable file is reported as an error of kind "io" for that file, and the other
files are still checked); 2 a usage error (bad option, unknown player for --as).
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.selfplay import play_random
from engine.views import view_for

from .logfile import LogFileError, read_log_file
from .logs import LogError, ReplayResult, format_game_log, replay_log, result_tag
from .render_text import full_view, render_view, view_to_json

PROGRESS_MIN_FILES = 2
"""A progress bar is shown from this many files on (stderr a terminal, no --json)."""


def read_log(path: Path) -> tuple[str | None, LogError | None]:
    """The text of a log file (`-`: standard input), or an "io" error: unreadable, not
    a regular file, or over a bound of pbem.logfile. Bytes that are not UTF-8 are
    replaced (the reader then reports the line they are on)."""
    try:
        return read_log_file(path), None
    except LogFileError as e:
        return None, LogError(e.line, 1 if e.line else 0, "io", e.message)


def io_result(file: str, error: LogError) -> ReplayResult:
    return ReplayResult(file=file, ok=False, error=error, finished=False, round=0,
                        phase="setup", players=(), winners=(), to_act=(), seeded=False,
                        tags=(), state=None, events=(), lines=0)


def replay_file(path: Path) -> ReplayResult:
    text, error = read_log(path)
    if text is None:
        assert error is not None
        return io_result(str(path), error)
    return replay_log(text, file=str(path))


def summary_line(r: ReplayResult) -> str:
    """`OK file: finished, winner dirk — dirk 22 PP (100 fl), …`, for a valid log."""
    scores = ", ".join(f"{s.name} {s.fame} PP ({s.florins} fl)" for s in r.standings())
    if r.hidden:
        return (f"OK {r.file}: public log, read to the end; line {r.hidden} holds cards only "
                f"their player saw ('?'), so moves are checked up to line {r.hidden - 1} "
                "and the rest for their notation only")
    if r.finished:
        won = "winners " if len(r.winners) > 1 else "winner "
        head = f"finished, {won}{' and '.join(r.winners)}"
    elif r.round:
        head = f"not finished: round {r.round}, {r.phase} phase"
        if r.to_act:
            head += f", to act: {', '.join(r.to_act)}"
    else:
        head = f"not finished: setup ({r.phase} phase)"
    return f"OK {r.file}: {head} — {scores}" if scores else f"OK {r.file}: {head}"


def error_lines(r: ReplayResult) -> list[str]:
    """`file:line:column: kind: message`, then the rule and the legal alternatives."""
    e = r.error
    assert e is not None
    where = f"{r.file}:{e.line}:{e.column}" if e.line else r.file
    out = [f"{where}: {e.kind}: {e.message}"]
    if e.rule:
        out.append(f"  rule: {e.rule}")
    if e.candidates:
        if "did you mean" not in e.message:
            out.append(f"  did you mean: {', '.join(e.candidates)}")
    elif e.expected:
        out.append(f"  expected: {', '.join(e.expected)}")
    if e.kind == "illegal" and e.rule and e.rule != "result":
        if e.legal:
            more = f" (and {e.legal_more} more)" if e.legal_more else ""
            out.append(f"  legal now: {', '.join(e.legal)}{more}")
        elif r.to_act:
            out.append(f"  to act now: {', '.join(r.to_act)}")
    return out


def _report(r: ReplayResult, as_json: bool) -> str:
    if as_json:
        return json.dumps(r.to_json(), ensure_ascii=False)
    return summary_line(r) if r.ok else "\n".join(error_lines(r))


def _replay_with_bar(files: list[Path]) -> bool:
    """Replay and report each file under a progress bar on stderr; True if all are valid.

    Reports go to stdout as they come. When stdout is the same terminal, they are printed
    through the bar's console, above the bar, so that the bar stays intact.
    """
    from rich.console import Console
    from rich.progress import Progress

    good = True
    with Progress(console=Console(stderr=True), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as bar:
        task = bar.add_task("replaying", total=len(files))
        for f in files:
            r = replay_file(f)
            good = good and r.ok
            if sys.stdout.isatty():
                bar.console.print(_report(r, False), markup=False, highlight=False,
                                  soft_wrap=True)
            else:
                typer.echo(_report(r, False))
            bar.advance(task)
    return good


def replay_command(
    files: Annotated[list[Path], typer.Argument(
        help="Game log files to check (- for standard input).")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line per file.")]
    = False,
) -> None:
    """Check game logs: every line must parse and be legal where it stands.

    Prints OK and the standings for a valid log (one that stops mid-game is valid if
    every line is legal), or the first bad line as FILE:LINE:COLUMN: KIND: MESSAGE.
    Exit 0 if all logs are valid, 1 if any is not (or cannot be read), 2 on usage errors.
    """
    show_bar = (not as_json and len(files) >= PROGRESS_MIN_FILES and sys.stderr.isatty())
    if show_bar:
        bad = not _replay_with_bar(files)
    else:
        bad = False
        for f in files:  # one at a time: a result is dropped once reported
            r = replay_file(f)
            bad = bad or not r.ok
            typer.echo(_report(r, as_json))
    raise typer.Exit(1 if bad else 0)


def show_command(
    file: Annotated[Path, typer.Argument(help="A game log file (- for standard input).")],
    at: Annotated[int | None, typer.Option("--at", min=0, help="Show the position after this "
                                           "line (default: the end).")] = None,
    as_player: Annotated[str | None, typer.Option("--as", help="See the game as this player "
                                                  "sees it (own hand only).")] = None,
    full: Annotated[bool, typer.Option("--full", help="Show every hand and all money "
                                       "(referee view).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the view as JSON.")] = False,
) -> None:
    """Show the position at any point of a log: the public view by default, one
    player's view with --as, or everything with --full.

    If the log has an error before that point, the position before the bad line is
    shown, the error goes to stderr, and the exit status is 1.
    """
    if full and as_player:
        raise typer.BadParameter("--as and --full exclude each other", param_hint="--as")
    text, io_error = read_log(file)
    r = (replay_log(text, file=str(file), upto=at) if text is not None
         else io_result(str(file), io_error or LogError(0, 0, "io", "unreadable")))
    if r.state is None:
        typer.echo("\n".join(error_lines(r)), err=True)
        raise typer.Exit(1)
    seat: int | None = None
    if as_player is not None:
        try:
            seat = r.state.seat_of(as_player.strip().lower())
        except KeyError:
            names = ", ".join(p.name for p in r.state.players)
            raise typer.BadParameter(f"{as_player!r} is not a player of this game ({names})",
                                     param_hint="--as") from None
    view = full_view(r.state) if full else view_for(r.state, seat)
    line = r.error.line - 1 if r.error is not None and r.error.line else r.lines
    if as_json:
        typer.echo(json.dumps({"file": r.file, "line": line, "ok": r.ok,
                               "error": r.error.to_json() if r.error else None,
                               "view": view_to_json(view)}, ensure_ascii=False))
    else:
        where = f"after line {line}" if line else "at the start"
        who = "full view" if full else (f"as {as_player.lower()}" if as_player else "public view")
        typer.echo(f"{r.file} {where}, {who}")
        typer.echo(render_view(view), nl=False)
    if r.error is not None:
        if r.error.line:
            typer.echo(f"(stopped before line {r.error.line}; the log is bad there)", err=True)
        typer.echo("\n".join(error_lines(r)), err=True)
        raise typer.Exit(1)


def selfplay_command(
    players: Annotated[int, typer.Option("--players", "-n", min=3, max=5,
                                         help="Number of players.")] = 4,
    seed: Annotated[str | None, typer.Option("--seed", help="Seed of the random game "
                                             "(default: a fresh random one).")] = None,
    recorded: Annotated[bool, typer.Option("--recorded", help="Write a recorded log: no "
                                           "Seed tag, every deal and draw as a chance line.")]
    = False,
) -> None:
    """Print a complete random legal game as a log (seeded unless --recorded)."""
    game_seed = seed if seed is not None else secrets.token_hex(8)
    playout = play_random(players, game_seed)
    tags = [("Game", "princes-of-florence"), ("Variant", "standard")]
    if not recorded:
        tags.append(("Seed", playout.seed))
    tags.append(("Result", result_tag(playout.state)))
    typer.echo(format_game_log(playout.players, playout.moves, tags, include_chance=recorded),
               nl=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("replay")(replay_command)
    app.command("show")(show_command)
    app.command("selfplay")(selfplay_command)
