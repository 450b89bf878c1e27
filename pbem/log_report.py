"""What the log tools print about a replayed log: the OK line with the standings, or
the bad line as FILE:LINE:COLUMN: KIND: MESSAGE with the rule and the alternatives.

`pbem.cli_logs` imports this (and through it the engine and the notation) only when a
command runs, so that `pbem --help` does not load them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import typer

from .logfile import LogFileError, read_log_file
from .logs import LogError, ReplayResult, replay_log, standing_text

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


def replay_file(path: Path, *, game: str | None = None) -> ReplayResult:
    """Replay a log file (`game`: the game of a log without a [Game] tag)."""
    text, error = read_log(path)
    if text is None:
        assert error is not None
        return io_result(str(path), error)
    return replay_log(text, file=str(path), game=game)


def summary_line(r: ReplayResult) -> str:
    """`OK file: finished, winner dirk — dirk 22 PP (100 fl), …`, for a valid log."""
    scores = ", ".join(standing_text(s) for s in r.standings())
    if r.hidden:
        return (f"OK {r.file}: public log, read to the end; line {r.hidden} holds values "
                f"the public may not see ('?'), so moves are checked up to line {r.hidden - 1} "
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


def report(r: ReplayResult, as_json: bool) -> str:
    if as_json:
        import json

        return json.dumps(r.to_json(), ensure_ascii=False)
    return summary_line(r) if r.ok else "\n".join(error_lines(r))


def file_report(path: Path, game: str | None, as_json: bool) -> tuple[bool, str]:
    """Whether the log file is valid, and what replay prints about it (a worker's job
    under --jobs: it returns only text, never the replayed state)."""
    r = replay_file(path, game=game)
    return r.ok, report(r, as_json)


def file_reports(files: list[Path], *, game: str | None = None, as_json: bool = False,
                 jobs: int = 1) -> Iterator[tuple[bool, str]]:
    """`file_report` of each file, in the order given, by up to `jobs` worker processes
    (one, this process, when a file is `-`: standard input is read here)."""
    from .parallel import ordered_map

    if any(str(f) == "-" for f in files):
        jobs = 1
    return ordered_map(functools.partial(file_report, game=game, as_json=as_json), files,
                       jobs=jobs)


def print_reports(reports: Iterable[tuple[bool, str]]) -> bool:
    """Print each report as it comes; True if every log was valid."""
    good = True
    for ok, text in reports:  # one at a time: a result is dropped once printed
        good = good and ok
        typer.echo(text)
    return good


def print_with_bar(reports: Iterable[tuple[bool, str]], total: int) -> bool:
    """Print each report as it comes, under a progress bar on stderr; True if every
    log was valid.

    When stdout is the same terminal, reports are printed through the bar's console,
    above the bar, so that the bar stays intact.
    """
    from rich.console import Console
    from rich.progress import Progress

    good = True
    with Progress(console=Console(stderr=True), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as bar:
        task = bar.add_task("replaying", total=total)
        for ok, text in reports:
            good = good and ok
            if sys.stdout.isatty():
                bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
            else:
                typer.echo(text)
            bar.advance(task)
    return good
