#!/usr/bin/env python3
"""Measure the moderator: latency of one move and throughput of one worker.

  .venv/bin/python scripts/bench_moderator.py [--moves N] [--players 4]

Against the real mail stack when its variables are set (MAILSTACK_SMTP_PORT etc., as
exported by `scripts/services.sh start`), else with the file transport. The database
is SQLite in a temp dir, or PostgreSQL with --postgres (needs DATABASE_URL).

1. latency: a player's mail is put in the moderator's inbox (for the real stack: sent
   through Postfix and waited for until Dovecot shows it); the clock runs from then
   until a `poll --once` pass has processed it and the SMTP server (or the folder)
   has taken every status mail it caused.
2. throughput: a whole game's mails (made in advance with the engine and the game's
   seed) are put in the inbox at once and one pass processes them all.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.game import new_state, start_game, to_act  # noqa: E402
from engine.legal import legal_commands  # noqa: E402
from engine.state import CHANCE  # noqa: E402
from notation import format_command  # noqa: E402
from pbem.config import Config  # noqa: E402
from pbem.moderator import Moderator, Played, PlayerSpec, resolve_chance  # noqa: E402
from pbem.runner import poll_once  # noqa: E402
from pbem.store import Seat, Store, utcnow  # noqa: E402
from pbem.transport import (  # noqa: E402
    DirInbox,
    DirSender,
    ImapInbox,
    MailDirs,
    SmtpSender,
    message_bytes,
)


def real_stack() -> dict[str, str] | None:
    env = os.environ
    if "MAILSTACK_SMTP_PORT" not in env:
        return None
    return env  # type: ignore[return-value]


BENCH_RATE = 10**9
"""The bench plays far faster than a person: no per-seat hourly limit (pbem.guard)."""


def setup(tmp: Path, n_players: int, postgres: bool) -> tuple[Config, list[PlayerSpec], str]:
    stack = real_stack()
    url = os.environ["DATABASE_URL"] if postgres else ""
    if stack:
        domain = stack["MAILSTACK_DOMAIN"]
        users = dict(u.split(":", 1) for u in stack["MAILSTACK_USERS"].split())
        cfg = Config(
            database_url=url, db_path=tmp / "bench.sqlite", transport="imap",
            moderator_address=f"moderator@{domain}", imap_host=stack["MAILSTACK_IMAP_HOST"],
            imap_port=int(stack["MAILSTACK_IMAP_PORT"]), imap_user=f"moderator@{domain}",
            imap_password=users["moderator"], imap_tls="starttls",
            smtp_host=stack["MAILSTACK_SMTP_HOST"], smtp_port=int(stack["MAILSTACK_SMTP_PORT"]),
            smtp_tls="starttls", ca_file=stack["MAILSTACK_CA_CERT"], idle=False,
            seat_mails_per_hour=BENCH_RATE)
        players = [PlayerSpec(f"p{i + 1}", f"p{i + 1}@{domain}") for i in range(n_players)]
        return cfg, players, "Postfix + Dovecot on loopback (STARTTLS)"
    cfg = Config(database_url=url, db_path=tmp / "bench.sqlite", transport="files",
                 mail_dir=tmp / "mail", moderator_address="moderator@example.org",
                 seat_mails_per_hour=BENCH_RATE)
    players = [PlayerSpec(f"p{i + 1}", f"p{i + 1}@example.org") for i in range(n_players)]
    return cfg, players, "file transport (no server)"


def scripted_game(players: list[PlayerSpec], seed: str, tokens: list[str], domain: str,
                  limit: int) -> list[EmailMessage]:
    """A random game's player mails, made in advance with the engine and the seed."""
    rng = random.Random(seed)
    played = Played(new_state(start_game([p.name for p in players])))
    resolve_chance(played, seed)
    mails = []
    while not played.state.finished and len(mails) < limit:
        actors = [s for s in to_act(played.state) if s != CHANCE]
        seat = rng.choice(actors)
        cmd = rng.choice(legal_commands(played.state, seat, free=False))
        msg = EmailMessage()
        msg["From"] = players[seat].email
        msg["To"] = f"moderator+{tokens[seat]}@{domain}"
        msg["Subject"] = "Re: your turn"
        msg["Message-ID"] = make_msgid(domain="bench.test")
        msg.set_content(f"@v{played.state.version}\n{format_command(cmd)}\n")
        mails.append(msg)
        from engine.game import apply

        played.state, _ = apply(played.state, seat, cmd)
        resolve_chance(played, seed)
    return mails


def deliver_fn(cfg: Config) -> Callable[[EmailMessage], None]:
    if cfg.transport == "files":
        dirs = MailDirs(cfg.mail_dir)
        return lambda m: dirs.deliver(cfg.moderator_address, message_bytes(m),
                                      f"{time.time_ns():020d}.eml")

    import ssl

    import aiosmtplib

    ctx = ssl.create_default_context(cafile=cfg.ca_file)

    def send(m: EmailMessage) -> None:
        asyncio.run(aiosmtplib.send(m, hostname=cfg.smtp_host, port=cfg.smtp_port,
                                    start_tls=True, tls_context=ctx))

    return send


def inbox_count(cfg: Config) -> int:
    if cfg.transport == "files":
        return len(MailDirs(cfg.mail_dir).new(cfg.moderator_address))
    with ImapInbox(cfg) as box:
        return len(box.mb.uids("ALL"))


def clear_inboxes(cfg: Config, players: list[PlayerSpec]) -> None:
    if cfg.transport == "files":
        return
    import ssl

    from imap_tools import MailBoxStartTls

    users = dict(u.split(":", 1) for u in os.environ["MAILSTACK_USERS"].split())
    for addr in [cfg.moderator_address, *(p.email for p in players)]:
        local = addr.split("@")[0]
        with MailBoxStartTls(cfg.imap_host, cfg.imap_port, ssl_context=ssl.create_default_context(
                cafile=cfg.ca_file)).login(addr, users[local]) as mb:
            uids = mb.uids()
            if uids:
                mb.delete(uids)


def wait_inbox(cfg: Config, n: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while inbox_count(cfg) < n:
        if time.monotonic() > end:
            raise SystemExit(f"only {inbox_count(cfg)} of {n} mails reached the inbox")
        time.sleep(0.01)


def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    cfg, players, transport = setup(tmp, args.players, args.postgres)
    if cfg.transport == "files":
        inbox: Callable[[], object] = lambda: DirInbox(MailDirs(cfg.mail_dir),  # noqa: E731
                                                       cfg.moderator_address)
        sender: object = DirSender(MailDirs(cfg.mail_dir))
    else:
        inbox, sender = (lambda: ImapInbox(cfg)), SmtpSender(cfg)
    deliver = deliver_fn(cfg)
    db = "PostgreSQL" if args.postgres else "SQLite (WAL)"
    print(f"transport: {transport}; database: {db}; {args.players} players")

    for phase in ("latency", "throughput"):
        clear_inboxes(cfg, players)
        store = Store(cfg.sqlalchemy_url())
        store.drop_all()
        store.create_all()
        mod = Moderator(store, cfg)
        seed = f"bench-{phase}"
        game = mod.new_game(players, utcnow(), seed=seed)
        with store.read() as s:
            from sqlmodel import col, select

            tokens = list(s.exec(select(Seat.token).where(Seat.game_id == game)
                                        .order_by(col(Seat.seat))))
        poll_once(mod, inbox, sender)  # type: ignore[arg-type]
        mails = scripted_game(players, seed, tokens, cfg.moderator_domain, args.moves)
        if phase == "latency":
            times = []
            for i, m in enumerate(mails):
                deliver(m)
                wait_inbox(cfg, 1)
                t0 = time.perf_counter()
                report = poll_once(mod, inbox, sender)  # type: ignore[arg-type]
                times.append(time.perf_counter() - t0)
                assert report.outcomes and report.outcomes[0].status == "accepted", \
                    (i, report.outcomes)
                assert report.sent.sent >= len(players), report.summary()
            times.sort()
            p95 = times[int(len(times) * 0.95) - 1]
            print(f"latency, move in inbox -> every status mail taken by the server "
                  f"({len(times)} moves): median {statistics.median(times) * 1000:.1f} ms, "
                  f"p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        else:
            for m in mails:
                deliver(m)
            wait_inbox(cfg, len(mails))
            t0 = time.perf_counter()
            report = poll_once(mod, inbox, sender, send=False)  # type: ignore[arg-type]
            t_process = time.perf_counter() - t0
            t0 = time.perf_counter()
            report2 = poll_once(mod, inbox, sender)  # type: ignore[arg-type]
            t_send = time.perf_counter() - t0
            accepted = sum(o.status == "accepted" for o in report.outcomes)
            assert accepted == len(mails), report.summary()
            print(f"throughput, one worker, {accepted} moves queued at once: "
                  f"{accepted / t_process:.1f} moves/s processed (fetch, decide, store, "
                  f"render {report2.sent.sent} mails into the outbox), then "
                  f"{report2.sent.sent / t_send:.1f} mails/s sent; together "
                  f"{accepted / (t_process + t_send):.1f} moves/s")
        store.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60, help="moves per phase (max one game)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--postgres", action="store_true", help="use $DATABASE_URL")
    run(ap.parse_args())


if __name__ == "__main__":
    main()
