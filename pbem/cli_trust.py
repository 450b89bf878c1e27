"""Trust commands of the `pbem` command line: verify.

`pbem verify FILE...` checks exported logs offline (pbem.verify, docs/trust.md).
Exit codes: 0 every log verifies; 1 a log does not (or cannot be read, or its seed
is not revealed yet); 2 a usage error. `pbem.verify` (and the engine with it) is
imported when the command runs, so that `pbem --help` starts without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from .verify import VerifyResult


def verify_file(path: Path, heads: list[str]) -> VerifyResult:
    from .logfile import LogFileError, read_log_file
    from .verify import Problem, VerifyResult, verify_log

    try:
        text = read_log_file(path)
    except LogFileError as e:
        r = VerifyResult(str(path))
        r.problem = Problem(e.line, "io", e.message)
        return r
    return verify_log(text, file=str(path), heads=heads)


def verify_command(
    files: Annotated[list[Path], typer.Argument(
        help="Logs written by `pbem export` (- for standard input).")],
    head: Annotated[list[str] | None, typer.Option(
        "--head", help="A position quoted in one of your status mails, e.g. "
        "'v37 sha256:ab12cd34ef56ab12'; it must be in the log's chain (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file.")] = False,
) -> None:
    """Verify finished games offline from their exported logs alone.

    Checks that the revealed seed and salt match the commitment of the first mail,
    that every deal and draw is what the seed gives, that every move is legal, that
    every line's hash annotation is the recomputed chain head, and that the Head and
    Result tags match the end. Prints OK, or the first problem as FILE:LINE: CHECK:
    MESSAGE. Exit 0 only when everything holds for every file.
    """
    bad = False
    for f in files:
        r = verify_file(f, head or [])
        bad = bad or not r.ok
        if as_json:
            import json  # here: `pbem --help` builds this command without it

            typer.echo(json.dumps(r.to_json(), ensure_ascii=False))
            continue
        typer.echo(r.summary())
        for note in r.notes:
            typer.echo(f"  note: {note}")
    raise typer.Exit(1 if bad else 0)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("verify")(verify_command)
