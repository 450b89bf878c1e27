#!/usr/bin/env python3
"""Measure the moderator: latency of one move, throughput of one worker, and
throughput of several `pbem serve` workers on one PostgreSQL database.

  .venv/bin/python scripts/bench_moderator.py [--moves N] [--players 4]
  .venv/bin/python scripts/bench_moderator.py --workers 1,2,4 [--repeat 3] [--games 6]
  .venv/bin/python scripts/bench_moderator.py --deadlines 10000 [--repeat 5] [--postgres]

Against the real mail stack when its variables are set (MAILSTACK_SMTP_PORT etc., as
exported by `scripts/services.sh start`), else with the file transport. The database
is SQLite in a temp dir, or PostgreSQL with --postgres (needs DATABASE_URL).

1. latency: a player's mail is put in the moderator's inbox (for the real stack: sent
   through Postfix and waited for until Dovecot shows it); the clock runs from then
   until a `poll --once` pass has processed it and the SMTP server (or the folder)
   has taken every status mail it caused.
2. throughput: a whole game's mails (made in advance with the engine and the game's
   seed, in a forked child: what the engine caches while making them stays out of
   the worker's process, whose caches hold only what it played, as a real worker's
   do) are put in the inbox at once; one pass processes them all, the next sends
   the outbox. --repeat runs, medians, printed next to the target (>= 50 moves/s
   with sending).
2b. cold passes: what cron's `pbem poll --once` costs after its imports (a new store
   and moderator: no game cached, no template compiled in memory) for one mail, at
   move ~10 and at move ~150 of two games, interleaved, CPU time, medians; the
   ratio is printed next to its target (~1.0x).
3. workers (--workers 1,2,4, needs DATABASE_URL): for each count, that many `pbem
   serve` processes run while scripted players play --games games of three at once
   (`pbem.scripted_tables`), each player answering its status mail as soon as it
   arrives. The clock runs from the first move until --moves moves in all have
   been applied and every mail they caused has reached its player; moves/s counts
   that whole loop, sending included. The worker counts are interleaved over
   --repeat rounds (1, 2, 4, 1, 2, 4, ...), and the medians are printed with the
   workers' CPU time per move and the duplicate deliveries seen.
4. deadlines (--deadlines N): N games wait on deadlines none of which is due; one
   deadline pass (`check_deadlines`) is timed against the walk pbem made before the
   due time was stored (every game with a deadline read and judged in Python), in
   interleaved blocks over --repeat rounds, CPU and wall time, medians. On SQLite,
   and on PostgreSQL too when DATABASE_URL names one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import multiprocessing
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from latency_relay import Relay, relay  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlmodel import col, select  # noqa: E402

from engine.match import Match  # noqa: E402
from engine.princes.definition import GAME  # noqa: E402
from engine.princes.legal import legal_commands  # noqa: E402
from engine.protocol import CHANCE  # noqa: E402
from notation.registry import grammar_for  # noqa: E402
from pbem.config import Config  # noqa: E402
from pbem.moderator import Moderator, PlayerSpec  # noqa: E402
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


DATES = datetime(2026, 1, 1, tzinfo=UTC)
"""The Date of a scripted game's first mail; each next one is a second later."""

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
    played = Match.start(GAME, [p.name for p in players], seed=seed)
    played.resolve_chance()
    mails = []
    while not played.state.finished and len(mails) < limit:
        actors = [s for s in played.to_act() if s != CHANCE]
        seat = rng.choice(actors)
        cmd = rng.choice(legal_commands(played.state, seat, free=False))
        msg = EmailMessage()
        msg["From"] = players[seat].email
        msg["To"] = f"moderator+{tokens[seat]}@{domain}"
        msg["Subject"] = "Re: your turn"
        msg["Message-ID"] = make_msgid(domain="bench.test")
        # a Date of its own: a mail server would add one to the second, and the same
        # command again within a second would be a repeated mail (pbem.guard)
        msg["Date"] = format_datetime(DATES + timedelta(seconds=len(mails)))
        msg.set_content(f"@v{played.state.version}\n{grammar_for(None).format_command(cmd)}\n")
        mails.append(msg)
        played.play(seat, cmd)
        played.resolve_chance()
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


THROUGHPUT_TARGET = 50.0
"""moves/s of one warm worker, sending its status mails included (issue 11)."""
COLD_RATIO_TARGET = 1.0
"""a cold pass's cost at move ~150 over its cost at move ~10 (issue 11: ~1.0x)."""


def fresh_game(cfg: Config, players: list[PlayerSpec], inbox: Callable[[], object],
               sender: object, seed: str, limit: int) -> tuple[Moderator, list[EmailMessage]]:
    """A new database with one game, its first status mails sent, and up to `limit`
    of its player mails made in advance."""
    mod = fresh_moderator(cfg, players)
    return mod, add_game(mod, players, inbox, sender, seed, limit)


def fresh_moderator(cfg: Config, players: list[PlayerSpec]) -> Moderator:
    """A moderator on an emptied database, the players' mailboxes emptied too."""
    clear_inboxes(cfg, players)
    store = Store(cfg.sqlalchemy_url())
    store.drop_all()
    store.create_all()
    return Moderator(store, cfg)


def add_game(mod: Moderator, players: list[PlayerSpec], inbox: Callable[[], object],
             sender: object, seed: str, limit: int, game_id: str | None = None
             ) -> list[EmailMessage]:
    """One more game, its first status mails sent; up to `limit` of its player mails."""
    game = mod.new_game(players, utcnow(), seed=seed, game_id=game_id)
    with mod.store.read() as s:
        tokens = list(s.exec(select(Seat.token).where(Seat.game_id == game)
                             .order_by(col(Seat.seat))))
    poll_once(mod, inbox, sender)  # type: ignore[arg-type]
    with multiprocessing.get_context("fork").Pool(1) as child:
        made = child.apply(scripted_mails, (players, seed, tokens, mod.cfg.moderator_domain,
                                            limit))
    return [message_from_bytes(m, policy=policy.default) for m in made]


def scripted_mails(players: list[PlayerSpec], seed: str, tokens: list[str], domain: str,
                   limit: int) -> list[bytes]:
    """`scripted_game`'s mails as bytes (run in the child that makes them, whose
    engine caches the worker then does not share: the legal builds, the placements
    and fits checked, all of which the worker works out anew)."""
    return [bytes(m) for m in scripted_game(players, seed, tokens, domain, limit)]


def deliver_in_order(cfg: Config, deliver: Callable[[EmailMessage], None],
                     mails: list[EmailMessage]) -> None:
    """Put `mails` in the inbox in their order (a mail server delivers mails sent at
    once in any order, and a mail ahead of the game is refused as stale)."""
    for i, m in enumerate(mails):
        deliver(m)
        if cfg.transport != "files":
            wait_inbox(cfg, i + 1)


def cpu() -> float:
    return time.process_time()


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
    print(f"transport: {transport}; database: {db}; {args.players} players; "
          f"{args.repeat} runs of each phase, medians")

    # 1. latency
    mod, mails = fresh_game(cfg, players, inbox, sender, "bench-latency", args.moves)
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
    mod.store.dispose()
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"latency, move in inbox -> every status mail taken by the server "
          f"({len(times)} moves): median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")

    # 2. throughput of one warm worker, sending included
    runs: list[dict[str, float]] = []
    for r in range(args.repeat):
        mod, mails = fresh_game(cfg, players, inbox, sender, f"bench-throughput-{r}",
                                args.moves)
        deliver_in_order(cfg, deliver, mails)
        t0, c0 = time.perf_counter(), cpu()
        report = poll_once(mod, inbox, sender, send=False)  # type: ignore[arg-type]
        t1 = time.perf_counter()
        report2 = poll_once(mod, inbox, sender)  # type: ignore[arg-type]
        t2, c2 = time.perf_counter(), cpu()
        mod.store.dispose()
        accepted = sum(o.status == "accepted" for o in report.outcomes)
        assert accepted == len(mails), report.summary()
        runs.append({"processed": accepted / (t1 - t0), "sent": report2.sent.sent / (t2 - t1),
                     "together": accepted / (t2 - t0),
                     "cpu_ms": (c2 - c0) * 1000 / accepted, "mails": report2.sent.sent,
                     "moves": accepted})
        print(f"  run {r + 1}: {runs[-1]['together']:.1f} moves/s with sending "
              f"({accepted} moves, {report2.sent.sent} mails)", flush=True)
    med = {k: statistics.median(x[k] for x in runs) for k in runs[0]}
    print(f"throughput, one warm worker, {med['moves']:.0f} moves queued at once: "
          f"{med['processed']:.1f} moves/s processed (fetch, decide, store, render "
          f"{med['mails']:.0f} mails into the outbox), then {med['sent']:.1f} mails/s sent; "
          f"together {med['together']:.1f} moves/s (target >= {THROUGHPUT_TARGET:.0f}: "
          f"{'met' if med['together'] >= THROUGHPUT_TARGET else 'NOT met'}); "
          f"{med['cpu_ms']:.1f} ms CPU per move, sending included: "
          f"{1000 / med['cpu_ms']:.1f} moves/s on a free core (target "
          f"{'met' if 1000 / med['cpu_ms'] >= THROUGHPUT_TARGET else 'NOT met'}; "
          f"load average {os.getloadavg()[0]:.2f})")

    # 3. cold passes (cron): a new moderator on the database for each pass
    cold_passes(cfg, players, inbox, sender, deliver, args.repeat)


def cold_pass(cfg: Config, inbox: Callable[[], object], sender: object) -> float:
    """One `pbem poll --once` pass after its imports: a new store and moderator (no
    cached game, no compiled template in memory), one mail processed and its status
    mails sent. Returns the CPU seconds."""
    c0 = cpu()
    store = Store(cfg.sqlalchemy_url())
    store.create_all()
    report = poll_once(Moderator(store, cfg), inbox, sender)  # type: ignore[arg-type]
    took = cpu() - c0
    store.dispose()
    assert [o.status for o in report.outcomes] == ["accepted"], report.outcomes
    return took


def cold_passes(cfg: Config, players: list[PlayerSpec], inbox: Callable[[], object],
                sender: object, deliver: Callable[[EmailMessage], None], repeat: int,
                early: int = 10, late: int = 150) -> None:
    """A cold pass at move ~`early` and at move ~`late` of two games of one
    database, interleaved over `repeat` rounds of 3 passes; CPU time, medians."""
    mails: dict[int, list[EmailMessage]] = {}
    mod, _ = fresh_game(cfg, players, inbox, sender, "bench-cold", 0)
    for at in (early, late):
        for k in range(20):  # a seed whose game lasts long enough
            got_mails = add_game(mod, players, inbox, sender, f"bench-cold-{at}-{k}",
                                 at + 3 * repeat, game_id=f"cold-{at}-{k}")
            if len(got_mails) == at + 3 * repeat:
                break
        else:
            raise SystemExit(f"no game of {at + 3 * repeat} mails in 20 seeds")
        deliver_in_order(cfg, deliver, got_mails[:at])
        poll_once(mod, inbox, sender)  # type: ignore[arg-type]
        mails[at] = got_mails[at:]
    mod.store.dispose()
    got: dict[int, list[float]] = {early: [], late: []}
    for i in range(3 * repeat):
        for at, rest in mails.items():
            while inbox_count(cfg):  # the last pass's mail is out of the inbox
                time.sleep(0.01)
            deliver(rest[i])
            wait_inbox(cfg, 1)
            got[at].append(cold_pass(cfg, inbox, sender))
    a, b = (statistics.median(got[x]) for x in (early, late))
    ratio = b / a
    print(f"cold pass (pbem poll --once after its imports: one mail, its status mails "
          f"sent), CPU: move ~{early} {a * 1000:.1f} ms, move ~{late} {b * 1000:.1f} ms "
          f"(medians of {3 * repeat}, interleaved); ratio {ratio:.2f}x (target "
          f"~{COLD_RATIO_TARGET:.1f}x: {'met' if ratio <= 1.1 else 'NOT met'})")


class ImapPlayers:
    """The players' mailboxes on the real stack (`pbem.scripted.PlayerPost`)."""

    def __init__(self, cfg: Config) -> None:
        import ssl

        from imap_tools import MailBoxStartTls

        self.cfg = cfg
        self.users = dict(u.split(":", 1) for u in os.environ["MAILSTACK_USERS"].split())
        self.ctx = ssl.create_default_context(cafile=cfg.ca_file)
        self.boxes: dict[str, MailBoxStartTls] = {}
        self.send = deliver_fn(cfg)

    def receive(self, address: str) -> list[EmailMessage]:
        from imap_tools import MailBoxStartTls

        from pbem.transport import parse_raw

        if address not in self.boxes:
            self.boxes[address] = MailBoxStartTls(
                self.cfg.imap_host, self.cfg.imap_port, ssl_context=self.ctx).login(
                address, self.users[address.split("@")[0]])
        mb = self.boxes[address]
        mb.client.noop()
        fetched = list(mb.fetch(mark_seen=False, bulk=True))
        if fetched:
            mb.delete([m.uid for m in fetched])  # only these: more may have come
        return [parse_raw(m.obj.as_bytes()) for m in fetched]

    def close(self) -> None:
        for mb in self.boxes.values():
            mb.logout()


def worker_env(cfg: Config, tree: Path | None = None) -> dict[str, str]:
    """The workers' environment: `cfg` as PBEM_* variables; with `tree`, the pbem of
    that checkout (--before) imported instead of this one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        env["PBEM_TEMPLATES"] = str(tree / "templates")
    for f in dataclasses.fields(Config):
        value = getattr(cfg, f.name)
        if f.name not in ("extra", "database_url") and value not in ("", None):
            env[f"PBEM_{f.name.upper()}"] = str(value).lower() if isinstance(value, bool) \
                else str(value)
    env.update(DATABASE_URL=cfg.database_url, PBEM_IDLE="true", PBEM_POLL_SECONDS="1")
    return env


def one_run(cfg: Config, specs: list[PlayerSpec], n_workers: int, n_games: int, moves: int,
            seed: str, tmp: Path, away: Away, tree: Path | None = None) -> dict[str, float]:
    """`n_workers` serve processes while scripted players play `n_games` games."""
    from pbem.scripted import DirPost
    from pbem.scripted_tables import Tables
    from pbem.store import OutMail

    if cfg.transport == "files":
        cfg = dataclasses.replace(cfg, mail_dir=tmp / f"mail-{seed}-{n_workers}")
        post: Any = DirPost(MailDirs(cfg.mail_dir))
    else:
        clear_inboxes(cfg, specs)
        post = ImapPlayers(cfg)
    store = Store(cfg.sqlalchemy_url())
    store.drop_all()
    store.create_all()
    mod = Moderator(store, cfg)
    seats = [[specs[(g + k) % len(specs)] for k in range(3)] for g in range(n_games)]
    tables = Tables.start(mod, post, seats, utcnow(), prefix="bench", seed=seed)
    env = worker_env(away.worker_cfg(cfg), tree)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    relay0 = away.relay_cpu()
    procs = [subprocess.Popen([sys.executable, "-c", "from pbem.cli import app; app()", "serve"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              cwd=tree)
             for _ in range(n_workers)]
    try:
        while not all(p.reply_to for t in tables.tables.values() for p in t.players):
            tables.read_mail()  # the first status mails: the workers are up
            time.sleep(0.01)
        t0 = time.perf_counter()
        while tables.moves() < moves and not tables.finished():
            tables.step()
        while not tables.answered():
            tables.step(send=False)
        while True:
            tables.read_mail()
            with store.read() as s:
                rows = s.exec(select(OutMail.message_id, OutMail.status)).all()
            if all(st == "sent" and tables.received[m] for m, st in rows):
                break
        took = time.perf_counter() - t0
        relay = away.relay_cpu() - relay0
    finally:
        for p in procs:
            p.send_signal(signal.SIGINT)
        for p in procs:
            p.wait()
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    tables.read_mail()
    if isinstance(post, ImapPlayers):
        post.close()
    store.dispose()
    applied = tables.moves()
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    return {"moves_s": applied / took, "cpu_ms_per_move": cpu * 1000 / applied,
            "duplicates": sum(n - 1 for n in tables.received.values() if n > 1),
            **({"cpu relay": relay * 1000 / applied} if away.ms else {}),
            "moves": applied, "mails": len(rows), "seconds": took}


@dataclasses.dataclass(frozen=True)
class Away:
    """Where the workers find the servers: on loopback (ms 0), or `ms` milliseconds
    away through the latency relay (scripts/latency_relay.py), whose local ports
    stand in for the real ones. The bench itself always talks to them directly."""

    ms: float = 0.0
    relay: Relay | None = None

    @property
    def relay_pid(self) -> int | None:
        return self.relay.pid if self.relay else None

    def worker_cfg(self, cfg: Config) -> Config:
        """`cfg` with SMTP, IMAP and PostgreSQL reached through the relay."""
        if self.relay is None:
            return cfg
        url = make_url(cfg.database_url)
        assert url.host is not None and url.port is not None
        return dataclasses.replace(
            cfg, smtp_port=self.relay.port(cfg.smtp_host, cfg.smtp_port),
            imap_port=self.relay.port(cfg.imap_host, cfg.imap_port),
            database_url=url.set(port=self.relay.port(url.host, url.port))
            .render_as_string(hide_password=False))

    def relay_cpu(self) -> float:
        return _cpu_seconds(self.relay.pid) if self.relay else 0.0

    def round_trips(self, cfg: Config) -> dict[str, int]:
        """Round trips through the relay to each server so far (0s on loopback)."""
        counts = self.relay.counts() if self.relay else {}
        return {name: counts[target].round_trips if target in counts else 0
                for name, target in servers(cfg).items()}


def servers(cfg: Config) -> dict[str, tuple[str, int]]:
    """The servers a worker talks to: SMTP, IMAP, PostgreSQL."""
    url = make_url(cfg.database_url)
    assert url.host is not None
    return {"SMTP": (cfg.smtp_host, cfg.smtp_port), "IMAP": (cfg.imap_host, cfg.imap_port),
            "PostgreSQL": (url.host, url.port or 5432)}


def check_relay(cfg: Config, away: Away, tries: int = 15) -> None:
    """Print what the relay adds, next to the same done directly: the time from the
    connect to the first byte back (SMTP's and IMAP's greeting; PostgreSQL's answer to
    an SSLRequest), and a request on an open connection (NOOP; `SELECT 1`), medians of
    `tries`, interleaved."""
    import psycopg
    from latency_relay import PG_SSL_REQUEST, exchange_ms, first_byte_ms

    assert away.relay is not None
    url = make_url(cfg.database_url)

    def select_1_ms(port: int) -> list[float]:
        with psycopg.connect(host=url.host, port=port, user=url.username, dbname=url.database,
                             password=url.password, autocommit=True) as conn:
            times = []
            for _ in range(tries):
                t0 = time.perf_counter()
                conn.execute("SELECT 1").fetchone()
                times.append((time.perf_counter() - t0) * 1000)
            return times

    first, request = [], []
    for name, (host, port) in servers(cfg).items():
        relayed_port = away.relay.port(host, port)
        send = PG_SSL_REQUEST if name == "PostgreSQL" else b""
        direct, relayed = [], []
        for _ in range(tries):
            direct.append(first_byte_ms(host, port, send))
            relayed.append(first_byte_ms("127.0.0.1", relayed_port, send))
        d, r = statistics.median(direct), statistics.median(relayed)
        first.append(f"{name} {r:.1f} ms (direct {d:.1f})")
        if name == "PostgreSQL":
            d, r = (statistics.median(select_1_ms(x)) for x in (port, relayed_port))
        else:
            noop = b"a1 NOOP\r\n" if name == "IMAP" else b"NOOP\r\n"
            d, r = (statistics.median(exchange_ms("127.0.0.1", x, noop, tries))
                    for x in (port, relayed_port))
        request.append(f"{name} {r:.1f} ms (direct {d:.1f})")
    print(f"relay check, medians of {tries}: connect -> first byte: {'; '.join(first)}; "
          f"a request on an open connection (NOOP, SELECT 1): {'; '.join(request)}")


def where(ms: float) -> str:
    return (f"servers {ms:g} ms away (round trip added by the relay)" if ms
            else "servers on loopback (this machine)")


def run_workers(args: argparse.Namespace) -> None:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("--workers needs PostgreSQL: set DATABASE_URL")
    counts = [int(x) for x in args.workers.split(",")]
    latencies = [float(x) for x in args.latency.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    cfg, specs, transport = setup(tmp, 6, True)
    if cfg.transport == "files" and any(latencies):
        raise SystemExit("--latency needs the real mail stack (scripts/services.sh)")
    if args.backlog:
        if cfg.transport == "files":
            raise SystemExit("--backlog needs the real mail stack (scripts/services.sh)")
        print(f"transport: {transport}; database: PostgreSQL; a backlog of {args.backlog} "
              f"first moves of as many games, drained by the workers; workers {counts} "
              f"interleaved over {args.repeat} rounds")
    else:
        print(f"transport: {transport}; database: PostgreSQL; {args.games} games of 3 at "
              f"once, {args.moves} moves per run; workers {counts} interleaved over "
              f"{args.repeat} rounds")
    with contextlib.ExitStack() as stack:
        aways = {}
        for ms in latencies:
            if not ms:
                aways[ms] = Away()
                continue
            r = stack.enter_context(relay(list(servers(cfg).values()), ms))
            aways[ms] = Away(ms, r)
            print(f"{where(ms)}: the workers reach SMTP, IMAP and PostgreSQL through a relay "
                  f"(process {r.pid}) that holds each chunk {ms / 2:g} ms each way; TLS end "
                  "to end")
            check_relay(cfg, aways[ms])
        if len(latencies) > 1:
            print(f"latencies {latencies} ms interleaved too (each round: every latency, "
                  "every worker count)")
        trees: dict[str, Path | None] = {"this": None}
        if args.before:
            trees["before"] = Path(args.before).resolve()
            print(f"each run also with the workers of {trees['before']} (before), interleaved")
        results = workers_rounds(args, cfg, specs, counts, aways, tmp, trees)
    for code in trees:
        for ms in latencies:
            print_curve(ms, counts, {(m, n): rs for (c, m, n), rs in results.items()
                                     if c == code}, code if len(trees) > 1 else "")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores shared by the workers, the servers, the bench "
          f"and whatever else runs; load average {load} (1, 5, 15 min)")


def workers_rounds(args: argparse.Namespace, cfg: Config, specs: list[PlayerSpec],
                   counts: list[int], aways: dict[float, Away], tmp: Path,
                   trees: dict[str, Path | None]
                   ) -> dict[tuple[str, float, int], list[dict[str, float]]]:
    """Every (latency, worker count, code) once per round, interleaved, over --repeat
    rounds; `trees`: the code to run ("this" tree, and the --before one)."""
    results: dict[tuple[str, float, int], list[dict[str, float]]] = {
        (code, ms, n): [] for code in trees for ms in aways for n in counts}
    for r in range(args.repeat):
        for ms, away in aways.items():
            for n in counts:
                for code, tree in trees.items():
                    logs = (Path(args.worker_logs) / f"{code}-{ms:g}ms-{n}w-r{r + 1}"
                            if args.worker_logs else None)
                    res = (drain_run(cfg, specs, n, args.backlog, f"r{r}", away, tree, logs)
                           if args.backlog else
                           one_run(cfg, specs, n, args.games, args.moves, f"r{r}", tmp, away,
                                   tree))
                    results[(code, ms, n)].append(res)
                    report_run(r, ms, n, code if len(trees) > 1 else "", res, len(aways) > 1)
    return results


def report_run(r: int, ms: float, n: int, code: str, res: dict[str, float],
               several_latencies: bool) -> None:
    """One run's line."""
    busy = (f", machine {res['machine_busy']:.0%} busy"
            if "machine_busy" in res else "")
    split = ", ".join(f"{k[4:]} {v:.0f}" for k, v in res.items()
                      if k.startswith("cpu "))
    busy += f"; CPU ms per move: {split}" if split else ""
    if res.get("cpu_clamped"):
        busy += (f" ({res['cpu_clamped']:.0f} group(s) below 0, counted as 0: a process "
                 "ended whose parent was not seen)")
    trips = ", ".join(f"{k[6:]} {v:.1f}" for k, v in res.items()
                      if k.startswith("trips "))
    busy += f"; round trips per move: {trips}" if trips else ""
    at = f" at {ms:g} ms" if several_latencies else ""
    at += f", {code}" if code else ""
    print(f"  round {r + 1}{at}, {n} worker(s): {res['moves_s']:.2f} moves/s, "
          f"{res['cpu_ms_per_move']:.0f} ms worker CPU per move, "
          f"{res['duplicates']:.0f} duplicates ({res['moves']:.0f} moves, "
          f"{res['mails']:.0f} mails, {res['seconds']:.1f} s{busy})", flush=True)


def print_curve(ms: float, counts: list[int],
                results: dict[tuple[float, int], list[dict[str, float]]],
                code: str = "") -> None:
    """The medians of one latency's rounds, and the ratio of 4 workers to 1."""
    print(f"{code + ': ' if code else ''}{where(ms)}:")
    print("  workers  median moves/s  x 1 worker  worker CPU ms/move  relay CPU ms/move  "
          "machine busy  duplicates")
    medians = {n: statistics.median(x["moves_s"] for x in results[(ms, n)]) for n in counts}
    for n in counts:
        rs = results[(ms, n)]
        times = f"{medians[n] / medians[1]:10.2f}" if 1 in medians else f"{'':10}"
        relay_cpu = (f"{statistics.median(x['cpu relay'] for x in rs):17.2f}"
                     if ms else f"{'-':>17}")
        busy = (f"{statistics.median(x['machine_busy'] for x in rs):12.0%}"
                if "machine_busy" in rs[0] else f"{'-':>12}")
        print(f"  {n:7d}  {medians[n]:14.2f}  {times}  "
              f"{statistics.median(x['cpu_ms_per_move'] for x in rs):18.0f}  {relay_cpu}  "
              f"{busy}  {sum(x['duplicates'] for x in rs):10.0f}")
    trips = [k for k in results[(ms, counts[0])][0] if k.startswith("trips ")]
    if trips:
        print("  round trips per move through the relay, median over all runs: " + ", ".join(
            f"{k[6:]} {statistics.median(x[k] for n in counts for x in results[(ms, n)]):.1f}"
            for k in trips))
    if 1 in medians and 4 in medians:
        dups = sum(x["duplicates"] for n in counts for x in results[(ms, n)])
        ratio = medians[4] / medians[1]
        met = "met" if ratio >= SCALE_TARGET and not dups else "NOT met"
        margin = "with margin" if ratio >= SCALE_AIM else "without margin"
        print(f"  4 workers / 1 worker: {ratio:.2f}x (target >= {SCALE_TARGET:.0f}x with 0 "
              f"duplicates: {met}, {margin} (>= {SCALE_AIM:.1f}x); {dups:.0f} duplicates; "
              f"{where(ms)})")


SCALE_TARGET = 3.0
"""Throughput at 4 workers over that at 1 (issue 11), with 0 duplicate deliveries."""
SCALE_AIM = 3.3
"""The ratio that meets `SCALE_TARGET` with a margin above this machine's noise."""


def first_moves(mod: Moderator, specs: list[PlayerSpec], n_games: int, seed: str,
                domain: str) -> list[EmailMessage]:
    """`n_games` new games (their setup mails marked sent: not part of the measure)
    and one legal move mail for each, from a seat that is to act."""
    from sqlalchemy import update

    from pbem.store import Game, OutMail

    rng = random.Random(seed)
    mails = []
    for g in range(n_games):
        players = [specs[(g + k) % len(specs)] for k in range(3)]
        game_id = mod.new_game(players, utcnow(), game_id=f"drain-{g + 1}",
                               seed=f"{seed}-{g}")
        with mod.store.read() as s:
            row = s.get(Game, game_id)
            assert row is not None
            state = mod.load(s, row)[1]
            tokens = list(s.exec(select(Seat.token).where(Seat.game_id == game_id)
                                 .order_by(Seat.seat)))
        seat = rng.choice([x for x in GAME.to_act(state) if x != CHANCE])
        cmd = rng.choice(legal_commands(state, seat, free=False))
        msg = EmailMessage()
        msg["From"] = players[seat].email
        msg["To"] = f"moderator+{tokens[seat]}@{domain}"
        msg["Subject"] = f"Re: [{game_id}] your turn"
        msg["Message-ID"] = make_msgid(domain="bench.test")
        msg.set_content(f"@v{state.version}\n{grammar_for(None).format_command(cmd)}\n")
        mails.append(msg)
    with mod.store.transaction() as s:
        s.execute(update(OutMail).values(status="sent"))
    return mails


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


MAIL_SERVERS = {"master", "smtpd", "cleanup", "qmgr", "lmtp", "trivial-rewrite", "pickup",
                "tlsmgr", "anvil", "scache", "postlogd", "dovecot", "imap", "imap-login",
                "auth", "config", "log", "stats", "indexer", "submission"}


def cpu_by_group(workers: list[int], relay: int | None = None
                 ) -> dict[tuple[int, int], tuple[str, float]]:
    """Every process now, by (pid, start time): its group (the workers, PostgreSQL,
    the mail servers, this bench, the latency relay if any, everything else) and
    its CPU seconds (its own and its reaped children's). `cpu_used` of two calls is
    what each group used between them."""
    tick = os.sysconf("SC_CLK_TCK")
    seen: dict[tuple[int, int], tuple[str, float]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        pid, comm = int(stat.parent.name), head.split("(", 1)[1]
        f = rest.split()
        cpu = sum(int(x) for x in f[11:15]) / tick
        group = ("workers" if pid in workers else "bench" if pid == os.getpid()
                 else "relay" if pid == relay
                 else "postgres" if comm.startswith("postgres")
                 else "mail servers" if comm in MAIL_SERVERS else "other")
        seen[(pid, int(f[19]))] = (group, cpu)
    return seen


CPU_GROUPS = ("workers", "postgres", "mail servers", "bench", "relay", "other")


def cpu_used(before: dict[tuple[int, int], tuple[str, float]],
             after: dict[tuple[int, int], tuple[str, float]]) -> tuple[dict[str, float], int]:
    """CPU seconds each group used between two `cpu_by_group` calls, and how many
    groups came out below zero and were counted as 0.

    A process seen at both ends counts its growth; one started since, all of it. One
    that ended since counts minus what it had used at the start: the rest of it is
    in its parent's counter of reaped children, when the parent was seen at both
    ends (Postfix's, Dovecot's and PostgreSQL's masters). A parent elsewhere (or
    not yet reaping) leaves a group short, even below zero: clamped and counted."""
    groups = dict.fromkeys(CPU_GROUPS, 0.0)
    for key, (group, cpu) in after.items():
        groups[group] += cpu - before[key][1] if key in before else cpu
    for key, (group, cpu) in before.items():
        if key not in after:
            groups[group] -= cpu
    clamped = sum(1 for v in groups.values() if v < 0)
    return {k: max(0.0, v) for k, v in groups.items()}, clamped


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, every core."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / tick, sum(fields) / tick


PROFILE = False
"""--profile: each worker of a run with --worker-logs runs under cProfile (CPU time),
from the start of the clock to its end (SIGUSR1, SIGUSR2), and writes `worker-N.prof`
beside its log when it stops, and `worker-N.sql.json`: each SQL statement it ran in
that time, with the milliseconds from sending it to its answer."""


def worker_code(logs: Path | None, k: int) -> str:
    """The `python -c` program of worker `k`: `pbem serve`, under cProfile with
    --profile (enabled by SIGUSR1, disabled by SIGUSR2, written when it stops)."""
    if not PROFILE or logs is None:
        return "from pbem.cli import app; app()"
    stem = str(logs / f"worker-{k + 1}")
    return ("import cProfile, json, signal, time\nfrom pbem.cli import app\n"
            "from sqlalchemy import event\nfrom sqlalchemy.engine import Engine\n"
            "p = cProfile.Profile(time.process_time)\non, sql, t0 = [], [], {}\n"
            "def start(*_):\n    on.append(1)\n    p.enable()\n"
            "def stop(*_):\n    on.clear()\n    p.disable()\n"
            "signal.signal(signal.SIGUSR1, start)\nsignal.signal(signal.SIGUSR2, stop)\n"
            "@event.listens_for(Engine, 'before_cursor_execute')\n"
            "def _b(conn, cur, st, *_):\n    t0[id(cur)] = time.perf_counter()\n"
            "@event.listens_for(Engine, 'after_cursor_execute')\n"
            "def _a(conn, cur, st, *_):\n"
            "    if on:\n"
            "        sql.append((' '.join(st.split())[:70],"
            " (time.perf_counter() - t0.pop(id(cur), 0)) * 1000))\n"
            "try:\n    app()\nfinally:\n    p.disable()\n"
            f"    p.dump_stats({stem + '.prof'!r})\n"
            f"    json.dump(sql, open({stem + '.sql.json'!r}, 'w'))")


def drain_run(cfg: Config, specs: list[PlayerSpec], n_workers: int, n_games: int,
              seed: str, away: Away, tree: Path | None = None,
              logs: Path | None = None) -> dict[str, float]:
    """`n_games` first moves wait at once in a staging folder; `n_workers` serve
    processes are started and ready; the mails are moved into the inbox in one IMAP
    MOVE and the clock runs until every move is applied and every status mail it
    caused is taken by the SMTP server."""
    import ssl

    from imap_tools import MailBoxStartTls
    from sqlmodel import col, func

    from pbem.store import InboundMail, OutMail

    mod = fresh_moderator(cfg, specs)
    store = mod.store
    mails = first_moves(mod, specs, n_games, seed, cfg.moderator_domain)
    deliver = deliver_fn(cfg)
    for m in mails:
        deliver(m)
    wait_inbox(cfg, n_games)
    users = dict(u.split(":", 1) for u in os.environ["MAILSTACK_USERS"].split())
    box = MailBoxStartTls(cfg.imap_host, cfg.imap_port, ssl_context=ssl.create_default_context(
        cafile=cfg.ca_file)).login(cfg.moderator_address, users["moderator"])
    if not box.folder.exists("staging"):
        box.folder.create("staging")
    box.move(box.uids("ALL"), "staging")
    env = worker_env(away.worker_cfg(cfg), tree)
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    procs = [subprocess.Popen([sys.executable, "-c", worker_code(logs, k), "serve"],
                              env=env, stdout=subprocess.PIPE, text=True, cwd=tree,
                              stderr=(logs / f"worker-{k + 1}.log").open("w")
                              if logs is not None else subprocess.DEVNULL)
             for k in range(n_workers)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().startswith("serving")
        # each has done its first pass (some 20 round trips) and waits for mail
        time.sleep(0.5 + 40 * away.ms / 1000)
        cpu0 = sum(_cpu_seconds(p.pid) for p in procs)
        busy0, total0 = _machine_busy()
        groups0 = cpu_by_group([p.pid for p in procs], away.relay_pid)
        trips0 = away.round_trips(cfg)
        if PROFILE and logs is not None:
            for p in procs:
                p.send_signal(signal.SIGUSR1)
        t0, start = time.perf_counter(), time.time()
        box.folder.set("staging")
        box.move(box.uids("ALL"), "INBOX")
        while True:
            with store.read() as s:
                done = s.exec(select(func.count()).select_from(InboundMail)).one()
                pending = s.exec(select(func.count()).select_from(OutMail)
                                 .where(OutMail.status != "sent")).one()
            if done >= n_games and pending == 0:
                break
            time.sleep(0.02)
        took = time.perf_counter() - t0
        if PROFILE and logs is not None:
            for p in procs:
                p.send_signal(signal.SIGUSR2)
        if logs is not None:
            (logs / "clock").write_text(f"{start} {start + took}\n")
        cpu = sum(_cpu_seconds(p.pid) for p in procs) - cpu0
        busy1, total1 = _machine_busy()
        groups1 = cpu_by_group([p.pid for p in procs], away.relay_pid)
        trips1 = away.round_trips(cfg)
    finally:
        box.logout()
        for p in procs:
            p.send_signal(signal.SIGINT)
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                print(f"  worker {p.pid} did not stop within 60 s of SIGINT; killed")
                p.kill()
                p.wait()
    used, clamped = cpu_used(groups0, groups1)
    with store.read() as s:
        statuses = list(s.exec(select(InboundMail.status)))
        sent = s.exec(select(func.count()).select_from(OutMail)
                      .where(col(OutMail.sent_at).is_not(None))).one()
    assert statuses.count("accepted") == n_games, statuses
    post = ImapPlayers(cfg)
    received: dict[str, int] = {}
    for address in sorted({s.email for s in specs}):
        for msg in post.receive(address):
            mid = str(msg["Message-ID"])
            received[mid] = received.get(mid, 0) + 1
    post.close()
    store.dispose()
    return {"moves_s": n_games / took, "cpu_ms_per_move": cpu * 1000 / n_games,
            "duplicates": sum(n - 1 for n in received.values() if n > 1),
            "machine_busy": (busy1 - busy0) / (total1 - total0),
            **{f"cpu {k}": v * 1000 / n_games for k, v in used.items()
               if k != "relay" or away.relay_pid},
            "cpu_clamped": clamped,
            **({f"trips {k}": (trips1[k] - trips0[k]) / n_games for k in trips0}
               if away.relay else {}),
            "moves": n_games, "mails": sent, "seconds": took}


DEADLINE_TARGET = 0.3
"""Seconds for an idle deadline pass at 10,000 games (issue 11: selecting only the
due games; the walk took 45 s on SQLite and 98 s on PostgreSQL there)."""


def fill_idle_games(store: Store, n: int, now: Any) -> None:
    """`n` games with a deadline none of which is due at `now`: the games table only,
    which is all an idle pass reads (rows written by the ORM, so `due_at` is kept)."""
    from datetime import timedelta

    from pbem.store import Game

    with store.transaction() as s:
        for i in range(n):
            deadline = now + timedelta(hours=24 + i % 48)
            s.add(Game(id=f"idle-{i}", game=GAME.name, created=now, turn_hours=72,
                       reminder_hours=12, late_policy="auto" if i % 2 else "wait",
                       deadline=deadline, reminded=i % 3 == 0))


def walk_every_game(mod: Moderator, now: Any) -> list[str]:
    """The deadline pass's selection before `due_at`: every unfinished game with a
    deadline, judged in Python."""
    from sqlmodel import col

    from pbem.deadlines import action_due
    from pbem.store import Game

    with mod.store.read() as s:
        return [g.id for g in s.exec(select(Game).where(col(Game.finished).is_(False))
                                     .where(col(Game.deadline).is_not(None)))
                if action_due(g, now)]


def run_deadlines(args: argparse.Namespace) -> None:
    from pbem.deadlines import check_deadlines

    urls = [("SQLite (WAL)", f"sqlite:///{tempfile.mkdtemp(prefix='pbem-bench-')}/dl.sqlite")]
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        urls.append(("PostgreSQL", os.environ["DATABASE_URL"]))
    now = utcnow()
    print(f"deadline pass over {args.deadlines} idle games (none due), {args.repeat} "
          "interleaved rounds, medians; target <= "
          f"{DEADLINE_TARGET} s at 10,000 games")
    for name, url in urls:
        store = Store(url)
        store.drop_all()
        store.create_all()
        fill_idle_games(store, args.deadlines, now)
        mod = Moderator(store, Config(moderator_address="moderator@example.org"))
        ways: dict[str, Callable[[Moderator, Any], object]] = {
            "pass by due_at (now)": check_deadlines,
            "walk every game (before)": walk_every_game}
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in ways}
        for _ in range(args.repeat):
            for way, fn in ways.items():
                w0, c0 = time.perf_counter(), time.process_time()
                fn(mod, now)
                times[way].append((time.perf_counter() - w0, time.process_time() - c0))
        for way, ts in times.items():
            wall = statistics.median(w for w, _ in ts)
            cpu = statistics.median(c for _, c in ts)
            target = f"  (target <= {DEADLINE_TARGET} s)" if way.endswith("(now)") else ""
            print(f"  {name}, {way}: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms "
                  f"CPU{target}")
        store.drop_all()
        store.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60,
                    help="moves per phase (max one game); with --workers, moves per run")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--postgres", action="store_true", help="use $DATABASE_URL")
    ap.add_argument("--workers", default="",
                    help="comma-separated worker counts, e.g. 1,2,4 (PostgreSQL)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of --workers runs")
    ap.add_argument("--games", type=int, default=6, help="games at once with --workers")
    ap.add_argument("--backlog", type=int, default=0,
                    help="with --workers: drain this many waiting first moves instead of "
                         "scripted players answering their mail")
    ap.add_argument("--latency", default="0",
                    help="with --workers: comma-separated round trips in ms (e.g. 0,20) "
                         "added between the workers and SMTP, IMAP and PostgreSQL by a "
                         "relay (scripts/latency_relay.py); 0: on loopback as they are")
    ap.add_argument("--before", default="",
                    help="with --workers: a checkout of the code before (e.g. a git "
                         "worktree); every run is made with its workers too, interleaved, "
                         "and its curve printed beside this one's")
    ap.add_argument("--worker-logs", default="",
                    help="with --backlog: keep each run's worker logs (and its start and "
                         "end time, in `clock`) in a folder of this folder")
    ap.add_argument("--profile", action="store_true",
                    help="with --worker-logs: run each worker under cProfile and keep its "
                         "stats (worker-N.prof) and its statements' times "
                         "(worker-N.sql.json) beside its log")
    ap.add_argument("--deadlines", type=int, default=0,
                    help="time an idle deadline pass over this many games")
    args = ap.parse_args()
    global PROFILE
    PROFILE = args.profile
    if args.deadlines:
        run_deadlines(args)
    elif args.workers:
        run_workers(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
