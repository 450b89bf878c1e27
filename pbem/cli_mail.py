"""Moderator commands of the `pbem` command line: init, new, serve, poll, status,
export, pause, resume, replace, extend, outbox and demo.

Settings come from PBEM_* environment variables and an optional TOML file (see
`pbem.config` and docs/moderator.md). Exit codes: 0 done; 1 the command failed
(unknown game, server unreachable...); 2 a usage error; 3 the database cannot be
opened, read or written (one line on stderr, never a traceback).

The database and mail stack (SQLModel, SQLAlchemy, the moderator, the transports) is
imported inside the commands that use it, and so are json and logging, so that `pbem
--help` (which builds every command) and the log tools start without them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .cli_games import GAME_HELP, GameOption, GamesCommand
from .errors import PbemError, StoreError

if TYPE_CHECKING:
    from .config import Config
    from .moderator import Moderator


def _config(db: Path | None = None) -> Config:
    from .config import load_config

    try:
        return load_config(db_path=db) if db else load_config()
    except PbemError as e:
        _fail(str(e), 2)
        raise  # unreachable


EXIT_DATABASE = 3


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"pbem: {message}", err=True)
    raise typer.Exit(code)


def _first_line(e: BaseException) -> str:
    """The driver's own message (not SQLAlchemy's SQL and link), on one line."""
    cause = getattr(e, "orig", None) or e
    lines = str(cause).strip().splitlines() or [type(cause).__name__]
    return lines[0][:300]


def _database_guard(command: Callable[..., None]) -> Callable[..., None]:
    """Run a command; a database that cannot be opened, read or written ends it with
    one line on stderr and exit code 3."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        from sqlalchemy.exc import SQLAlchemyError  # every guarded command opens the database

        try:
            command(*args, **kwargs)
        except (SQLAlchemyError, StoreError) as e:
            _fail(f"database: {_first_line(e)}", EXIT_DATABASE)
        except OSError as e:  # e.g. the SQLite file's folder cannot be created
            where = f"{e.filename}: " if e.filename else ""
            _fail(f"database: {where}{e.strerror or e}", EXIT_DATABASE)

    return run


def _moderator(db: Path | None = None) -> Moderator:
    from .runner import open_moderator

    try:
        return open_moderator(_config(db))
    except StoreError:
        raise  # exit code 3 (`_database_guard`)
    except PbemError as e:
        _fail(str(e))
        raise


def _logging(verbose: bool) -> None:
    import logging

    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


DbOption = Annotated[Path | None, typer.Option("--db", help="SQLite file (else $PBEM_DB, "
                                                "$DATABASE_URL or ./var/pbem.sqlite)")]


def init_command(db: DbOption = None,
                 as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Create the database, or upgrade it in place to this pbem's schema (safe to run
    again; every command also upgrades on opening)."""
    from .store import Store

    cfg = _config(db)
    store = Store(cfg.sqlalchemy_url())
    try:
        done = store.create_all()
    finally:
        store.dispose()
    where = cfg.database_url.split("@")[-1] if cfg.database_url else str(cfg.db_path)
    if as_json:
        import json

        typer.echo(json.dumps({"database": where, "before": done.before, "after": done.after,
                               "changed": done.changed}))
    else:
        typer.echo(f"{done.describe()}: {where}")


def new_command(
    ctx: typer.Context,
    player: Annotated[list[str], typer.Option(
        "--player", "-p", help="NAME:ADDRESS[,ADDRESS...][:TIMEZONE], in seat order (as "
        "many as a variant of the game admits: --help lists them); mails go to the first "
        "address, commands are played from any of them")],
    game: Annotated[str | None, typer.Option(
        "--game", metavar="NAME", help=f"{GAME_HELP}; a value that names no game is taken "
        "as the game's id, as --game did before --id")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--id", help="game id (default: the game's prefix and the next number)")]
    = None,
    variant: Annotated[str | None, typer.Option(
        help="the game's variant (default: the one for the number of players)")] = None,
    seed: Annotated[str | None, typer.Option(help="deal seed (default: random, secret)")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (repeatable); each game's options and their flags are listed "
             "below")] = None,
    turn_hours: Annotated[float, typer.Option(help="hours per turn; 0 = no deadline")] = 0,
    reminder_hours: Annotated[float, typer.Option(help="remind this long before")] = 0,
    late: Annotated[str, typer.Option(help="at the deadline: wait | auto")] = "wait",
    require_auth: Annotated[str, typer.Option(
        help="sender check the moderator's mail server must vouch for in its "
             "Authentication-Results header ($PBEM_AUTHSERV_ID): dmarc | dkim | spf | none")]
    = "none",
    mail: Annotated[list[str] | None, typer.Option(
        "--mail", metavar="[NAME=]SETTING",
        help="how often a player is mailed: every (after every move, the default) | turn "
             "(when they must act or a move concerns them, with every move since) | daily "
             "(their turns and a daily digest at $PBEM_DIGEST_HOUR UTC); NAME=SETTING for "
             "one player, a bare SETTING for all the others (repeatable)")] = None,
    lang: Annotated[list[str] | None, typer.Option(
        "--lang", metavar="[NAME=]LANGUAGE",
        help="the language of a player's mails: en (English, the default) | nl (Dutch) | "
             "el (Greek); NAME=LANGUAGE for one player, a bare LANGUAGE for all the "
             "others (repeatable); commands stay in English")] = None,
    db: DbOption = None,
) -> None:
    """Start a game: deal from the seed and mail every player their first status."""
    from engine.errors import GameError

    game, game_id = _game_and_id(game, game_id)
    from .games import game_options

    try:
        options = game_options(game, option or [], ctx.args)
    except (ValueError, GameError) as e:
        raise typer.BadParameter(str(e), param_hint="--option") from None

    import dataclasses

    from .i18n import languages_for
    from .mail_settings import settings_for
    from .moderator import PlayerSpec
    from .store import utcnow

    try:
        specs = [PlayerSpec.parse(p) for p in player]
    except ValueError as e:
        _fail(str(e), 2)
    try:
        settings = settings_for([p.name for p in specs], mail or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--mail") from None
    try:
        languages = languages_for([p.name for p in specs], lang or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None
    specs = [dataclasses.replace(p, mail=settings[p.name], language=languages[p.name])
             for p in specs]
    mod = _moderator(db)
    try:
        game_id = mod.new_game(specs, utcnow(), game_id=game_id, variant=variant, seed=seed,
                               options=options or None,
                               turn_hours=turn_hours,
                               reminder_hours=reminder_hours, late_policy=late,
                               require_auth=require_auth, game=game)
    except StoreError:
        raise  # exit code 3 (`_database_guard`)
    except (ValueError, PbemError) as e:
        _fail(str(e), 2)
    except GameError as e:  # engine refusal (player count, names)
        _fail(e.message, 2)
    typer.echo(f"created {game_id}: {', '.join(s.name for s in specs)}; status mails queued "
               "(sent by `pbem poll` or `pbem serve`)")


def _game_and_id(game: str | None, game_id: str | None) -> tuple[str | None, str | None]:
    """`pbem new`'s game and game id. --game names the game; before there were several
    it gave the game's id, so a value that names no game is still the id when --id is
    not given (`pbem new --game g-17` keeps working). With --id, --game must name a
    game (else a usage error, exit 2)."""
    from engine.registry import GAMES

    from .cli_games import checked_game

    if game is None:
        return None, game_id
    if game.strip().lower() in GAMES.names() or game_id is not None:
        return checked_game(game), game_id
    return None, game


def poll_command(
    once: Annotated[bool, typer.Option("--once", help="one pass (the only mode; for cron)")] = True,
    no_send: Annotated[bool, typer.Option("--no-send", help="leave the outbox unsent")] = False,
    verbose: Annotated[bool, typer.Option("-v")] = False,
    db: DbOption = None,
) -> None:
    """One pass: fetch and process all waiting mail, check deadlines, send the outbox."""
    from .runner import poll_once, transports
    from .workers import WorkerBusy, single_worker

    _logging(verbose)
    mod = _moderator(db)
    inbox, sender = transports(mod.cfg)
    try:
        with single_worker(mod.store, mod.cfg.db_path):
            report = poll_once(mod, inbox, sender, send=not no_send)
    except WorkerBusy as e:
        # cron while `serve` runs: that worker does this pass's work
        typer.echo(f"skipped: {e}")
        return
    except StoreError:
        raise  # exit code 3 (`_database_guard`)
    except PbemError as e:
        _fail(str(e))
    typer.echo(report.summary())


def serve_command(verbose: Annotated[bool, typer.Option("-v")] = True,
                  db: DbOption = None) -> None:
    """Run the moderator: IMAP IDLE (or polling), deadlines and the sender.

    SIGTERM or Ctrl-C (SIGINT) stops it cleanly: the mail in hand is finished, then it
    exits 0. A second signal stops it at once (exit 130)."""
    from .runner import Stopper, serve, transports, warm
    from .workers import WorkerBusy, single_worker, worker_name

    _logging(verbose)
    mod = _moderator(db)
    inbox, sender = transports(mod.cfg)
    stopper = Stopper()
    try:
        with single_worker(mod.store, mod.cfg.db_path):
            stopper.install()
            warm(mod)
            typer.echo(f"serving {mod.cfg.moderator_address} ({mod.cfg.transport}) as "
                       f"{worker_name()}; Ctrl-C or SIGTERM stops")
            serve(mod, inbox, sender, stop=stopper)
    except WorkerBusy as e:
        _fail(str(e))
    except KeyboardInterrupt:
        typer.echo("pbem serve: stopped at once", err=True)
        raise typer.Exit(130) from None
    finally:
        mod.store.dispose()
    typer.echo("pbem serve: stopped")


def status_command(
    game: str,
    as_player: Annotated[str | None, typer.Option("--as", help="show this seat's view")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    db: DbOption = None,
) -> None:
    """A game's position (public view, or one seat's with --as), deadline and mail queue."""
    from sqlmodel import col, func, select

    from .store import OutMail, as_utc, get_game, seats_of

    mod = _moderator(db)
    with mod.store.read() as s:
        try:
            g = get_game(s, game)
        except PbemError as e:
            _fail(str(e))
        seats = seats_of(s, game)
        loaded = mod.games.load(s, g)
        presenter, names = loaded.rules.presenter, loaded.names
        viewer = None
        if as_player is not None:
            match = [x for x in seats if x.name == as_player.lower()]
            if not match:
                _fail(f"game {game} has no player {as_player!r}", 2)
            viewer = match[0].seat
        outbox = dict(s.exec(select(OutMail.status, func.count()).where(OutMail.game_id == game)
                             .group_by(col(OutMail.status))).all())
        tracker = mod.tracker(s, g)
        undo: dict[str, Any] | None = None
        if tracker.request is not None and tracker.last is not None:
            undo = {"asked_by": names[tracker.request.seat],
                    "command": loaded.rules.grammar.format_command(tracker.last.command),
                    "to_version": tracker.request.to_version,
                    "waiting_for": [names[i] for i in tracker.waiting_for(len(names))]}
        view = loaded.view(viewer)
        meta = {
            "game": g.id, "variant": g.variant, "version": g.version, "finished": g.finished,
            "paused": g.paused, "deadline": d.isoformat() if (d := as_utc(g.deadline)) else None,
            "late_policy": g.late_policy, "turn_hours": g.turn_hours,
            "players": [{"seat": x.seat, "name": x.name, "person": x.person, "email": x.email,
                         "tz": x.tz, "mail": x.mail, "language": x.language}
                        for x in seats],
            "outbox": outbox, "undo": undo,
        }
    if as_json:
        import json

        typer.echo(json.dumps({**meta, "view": presenter.view_to_json(view)}, indent=2))
        return
    flags = " (paused)" if g.paused else " (finished)" if g.finished else ""
    typer.echo(f"{g.id}{flags}: v{g.version}, deadline {meta['deadline'] or 'none'}, "
               f"outbox {outbox or 'empty'}")
    for x in meta["players"]:  # type: ignore[attr-defined]
        typer.echo(f"  {x['name']}: {x['person']} <{x['email']}> {x['tz']}, mail {x['mail']}, "
                   f"language {x['language']}")
    if undo is not None:
        typer.echo(f"undo asked by {undo['asked_by']} ('{undo['command']}', back to "
                   f"v{undo['to_version']}); waiting for {', '.join(undo['waiting_for'])}")
    typer.echo(presenter.render_text(view))


def export_command(
    game: str,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="file (default stdout)")] = None,
    full: Annotated[bool, typer.Option(
        "--full", help="the referee's view of a running game: every hidden value dealt, "
                       "drawn, kept or chosen (never give it to a player)")]
    = False,
    db: DbOption = None,
) -> None:
    """The game's log in the notation, every line with the hash-chain head after it.

    Once the game is over it holds every hidden value, the seed and the salt, and `pbem
    verify` checks it offline (docs/trust.md). While the game runs it is the public log:
    every value only one player saw (dealt, drawn, kept or chosen) is written
    as '?', and `pbem replay` checks it up to its first '?' line. --full gives the
    referee's view instead."""
    from .export import export_game

    mod = _moderator(db)
    try:
        text = export_game(mod, game, full=full)
    except PbemError as e:
        _fail(str(e))
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}")


def pause_command(game: str, reason: Annotated[str, typer.Option()] = "",
                  db: DbOption = None) -> None:
    """Pause a game (no deadlines, mails refused) and tell every player."""
    _moderate(db, lambda m, now: m.pause(game, now, reason), f"{game} paused")


def resume_command(game: str, db: DbOption = None) -> None:
    """Resume a paused game (a fresh deadline starts) and tell every player."""
    _moderate(db, lambda m, now: m.resume(game, now), f"{game} resumed")


def extend_command(game: str, hours: Annotated[float, typer.Argument(help="hours to add")],
                   db: DbOption = None) -> None:
    """Move the current deadline later and tell every player."""
    _moderate(db, lambda m, now: m.extend(game, hours, now), f"{game}: deadline extended")


def replace_command(
    game: str,
    seat: Annotated[str, typer.Argument(help="the seat's name in the game")],
    email: Annotated[list[str], typer.Option(
        help="the new player's address (repeat for more; mails go to the first)")],
    name: Annotated[str | None, typer.Option(help="the new player's name")] = None,
    tz: Annotated[str | None, typer.Option(help="the new player's time zone")] = None,
    db: DbOption = None,
) -> None:
    """Give a seat to a new player (new address and reply token); tell every player."""
    _moderate(db, lambda m, now: m.replace(game, seat, now, emails=email, person=name, tz=tz),
              f"{game}: {seat} now played by {', '.join(email)}")


def _moderate(db: Path | None, action: object, done: str) -> None:
    from .store import utcnow

    mod = _moderator(db)
    try:
        action(mod, utcnow())  # type: ignore[operator]
    except (PbemError, ValueError) as e:
        _fail(str(e))
    typer.echo(done + "; announcement queued")


def outbox_command(game: Annotated[str | None, typer.Argument()] = None,
                   db: DbOption = None) -> None:
    """Mails waiting or failed in the outbox."""
    from sqlmodel import col, select

    from .store import OutMail

    mod = _moderator(db)
    with mod.store.read() as s:
        q = select(OutMail).where(OutMail.status != "sent").order_by(col(OutMail.id))
        if game:
            q = q.where(OutMail.game_id == game)
        for m in s.exec(q):
            typer.echo(f"{m.id} {m.status} attempts={m.attempts} next={m.next_attempt} "
                       f"to={m.to_addr} {m.subject!r} {m.last_error}")


def demo_command(
    ctx: typer.Context,
    out: Annotated[Path, typer.Option("--out", help="folder for the database and mails")]
    = Path("demo-out"),
    players: Annotated[int, typer.Option(
        "--players", "-n", min=1, max=20,
        help="number of players: the game's variant for that many (--help lists them)")]
    = 4,
    seed: int = 1,
    game: GameOption = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (repeatable), as for `pbem new`")] = None,
) -> None:
    """Play a whole game by mail among scripted players, with no server: SQLite and
    folders of .eml files stand in for the mail servers."""
    from engine.errors import GameError

    from .demo import run_demo
    from .games import game_options

    try:
        options = game_options(game, option or [], ctx.args)
    except (ValueError, GameError) as e:
        raise typer.BadParameter(str(e), param_hint="--option") from None
    try:
        r = run_demo(out, players=players, seed=seed, game=game, options=options or None)
    except GameError as e:
        raise typer.BadParameter(e.message, param_hint="--players") from None
    scores = ", ".join(f"{k} {v}" for k, v in sorted(r.scores.items(), key=lambda kv: -kv[1]))
    typer.echo(f"Game {r.game_id} played to the end by mail in {r.seconds:.1f} s:")
    typer.echo(f"  {r.moves} moves from {r.mails_in} player mails "
               f"({r.rejected} refused with an error reply), {r.mails_out} mails sent")
    typer.echo(f"  undo: {r.undo_requests} asked, {r.undos} agreed by everyone")
    typer.echo(f"  winner: {', '.join(r.winners)}; scores: {scores}")
    typer.echo(f"  database: {r.db_path}")
    typer.echo(f"  check it: pbem export {r.game_id} --db {r.db_path} -o game.log && "
               "pbem verify game.log")
    typer.echo(f"  mails:    {r.out_dir / 'mail'}/<address>/cur/*.eml "
               "(each player's inbox; the moderator's is moderator@example.org/processed)")
    first = sorted((r.out_dir / "mail" / "anna@example.org" / "cur").glob("*.eml"))
    if first:
        typer.echo(f"  e.g.      {first[len(first) // 2]}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    for name, command in (
            ("init", init_command), ("new", new_command), ("poll", poll_command),
            ("serve", serve_command), ("status", status_command), ("export", export_command),
            ("pause", pause_command), ("resume", resume_command), ("extend", extend_command),
            ("replace", replace_command), ("outbox", outbox_command), ("demo", demo_command)):
        cls = GamesCommand if name in ("new", "demo") else None
        # `new` takes each game's option flags (`--NAME-CHOICE`), checked by the game
        extra = {"allow_extra_args": True, "ignore_unknown_options": True} \
            if name in ("new", "demo") else None
        app.command(name, cls=cls, context_settings=extra)(_database_guard(command))
