"""The moderator against real servers: Postfix + Dovecot on loopback, PostgreSQL and SQLite.

Scripted players read their status mails over IMAP and answer with a random legal
command as a real mail through Postfix to the moderator's `+token` address; the
moderator runs `poll --once` passes (IMAP in, SMTP out with STARTTLS).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from imap_tools import MailBoxStartTls
from sqlmodel import func, select

from pbem.config import Config
from pbem.loading import Rules
from pbem.moderator import Moderator, PlayerSpec
from pbem.runner import poll_once
from pbem.scripted import ScriptedPlayer, pick_actor
from pbem.store import EventRow, Game, InboundMail, OutMail, Store, utcnow
from pbem.transport import ImapInbox, SmtpSender, parse_raw

from .conftest import MailStack

pytestmark = pytest.mark.integration

TIMEOUT = 15.0


def moderator_config(stack: MailStack, db_url: str) -> Config:
    mod = stack.moderator
    return Config(
        database_url=db_url, transport="imap", moderator_address=mod.address,
        imap_host=stack.imap_host, imap_port=stack.imap_port, imap_user=mod.address,
        imap_password=mod.password, imap_tls="starttls",
        smtp_host=stack.smtp_host, smtp_port=stack.smtp_port, smtp_tls="starttls",
        ca_file=str(stack.ca_cert), idle=False, poll_seconds=0.2,
        seat_mails_per_hour=100_000)  # a whole game in minutes: far past a person's pace


def env_for(cfg: Config) -> dict[str, str]:
    """The same configuration as environment variables, for a `pbem` subprocess."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update({
        "DATABASE_URL": cfg.database_url, "PBEM_TRANSPORT": "imap",
        "PBEM_SEAT_MAILS_PER_HOUR": str(cfg.seat_mails_per_hour),
        "PBEM_MODERATOR_ADDRESS": cfg.moderator_address,
        "PBEM_IMAP_HOST": cfg.imap_host, "PBEM_IMAP_PORT": str(cfg.imap_port),
        "PBEM_IMAP_USER": cfg.imap_user, "PBEM_IMAP_PASSWORD": cfg.imap_password,
        "PBEM_IMAP_TLS": cfg.imap_tls, "PBEM_SMTP_HOST": cfg.smtp_host,
        "PBEM_SMTP_PORT": str(cfg.smtp_port), "PBEM_SMTP_TLS": cfg.smtp_tls,
        "PBEM_CA_FILE": cfg.ca_file,
    })
    if cfg.database_url.startswith("sqlite:///"):
        env.pop("DATABASE_URL")
        env["PBEM_DB"] = cfg.database_url.removeprefix("sqlite:///")
    return env


class ImapPost:
    """Each player's real mailbox: IMAP to read (read mails are deleted), SMTP to send."""

    def __init__(self, stack: MailStack) -> None:
        self.stack = stack
        self.boxes: dict[str, MailBoxStartTls] = {}
        self.received: Counter[str] = Counter()  # Message-IDs, over all players

    def box(self, address: str) -> MailBoxStartTls:
        if address not in self.boxes:
            local = address.split("@")[0]
            acc = self.stack.account(local)
            self.boxes[address] = MailBoxStartTls(
                self.stack.imap_host, self.stack.imap_port,
                ssl_context=self.stack.ssl_context()).login(acc.address, acc.password)
        return self.boxes[address]

    def receive(self, address: str) -> list[EmailMessage]:
        """The mails in the inbox; those read are deleted, and only those: a mail may
        arrive between reading the folder and deleting (the next call reads it)."""
        mb = self.box(address)
        mb.client.noop()
        fetched = list(mb.fetch(mark_seen=False, bulk=True))
        if fetched:
            mb.delete([m.uid for m in fetched])
        msgs = [parse_raw(m.obj.as_bytes()) for m in fetched]
        for m in msgs:
            self.received[str(m["Message-ID"]).strip()] += 1  # a long one is folded
        return msgs

    def send(self, msg: EmailMessage) -> None:
        asyncio.run(aiosmtplib.send(msg, hostname=self.stack.smtp_host,
                                    port=self.stack.smtp_port, start_tls=True,
                                    tls_context=self.stack.ssl_context()))

    def clear(self, *addresses: str) -> None:
        for a in addresses:
            self.receive(a)
        self.received.clear()

    def close(self) -> None:
        for mb in self.boxes.values():
            mb.logout()


def clear_moderator(stack: MailStack) -> None:
    acc = stack.moderator
    with MailBoxStartTls(stack.imap_host, stack.imap_port,
                         ssl_context=stack.ssl_context()).login(acc.address, acc.password) as mb:
        uids = mb.uids()
        if uids:
            mb.delete(uids)


@pytest.fixture
def post(mailstack: MailStack) -> Iterator[ImapPost]:
    p = ImapPost(mailstack)
    clear_moderator(mailstack)
    p.clear(*(a.address for a in mailstack.players[:4]))
    yield p
    p.close()


def fresh_store(url: str) -> Store:
    store = Store(url)
    store.drop_all()
    store.create_all()
    return store


def new_game(stack: MailStack, store: Store, cfg: Config, game_id: str,
             n: int = 4, game: str | None = None) -> tuple[Moderator, list[ScriptedPlayer]]:
    mod = Moderator(store, cfg)
    accounts = stack.players[:n]
    specs = [PlayerSpec(a.local_part, a.address, "Europe/Amsterdam") for a in accounts]
    mod.new_game(specs, utcnow(), game_id=game_id, game=game, seed=f"{game_id}-seed")
    rules = Rules.named(game)
    players = [ScriptedPlayer(s.name, i, s.email, random.Random(f"{game_id}{i}"), rules=rules)
               for i, s in enumerate(specs)]
    return mod, players


def current(mod: Moderator, game_id: str):  # noqa: ANN201
    mod._cache.clear()
    with mod.store.read() as s:
        g = s.get(Game, game_id)
        assert g is not None
        return mod.load(s, g)[1]


def read_until_ready(post: ImapPost, players: list[ScriptedPlayer], mod: Moderator,
                     game_id: str) -> None:
    """Read mail until every seat to act has seen the current version (or game over)."""
    state = current(mod, game_id)
    deadline = time.monotonic() + TIMEOUT
    while True:
        for p in players:
            for msg in post.receive(p.address):
                p.read(msg)
        acting = [p for p in players if p.seat in players[0].rules.game.to_act(state)]
        if all(p.version_seen == state.version for p in (acting or players)):
            return
        assert time.monotonic() < deadline, f"status mails for v{state.version} never came"
        time.sleep(0.03)


def moderator_pass_until(mod: Moderator, cfg: Config, count: int) -> None:
    """Run poll passes until `count` mails in all have been stored."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
        with mod.store.read() as s:
            if s.exec(select(func.count()).select_from(InboundMail)).one() >= count:
                return
        assert time.monotonic() < deadline, "the moderator never got the player's mail"
        time.sleep(0.03)


def play(post: ImapPost, mod: Moderator, cfg: Config, players: list[ScriptedPlayer],
         game_id: str, max_moves: int) -> tuple[int, list[str]]:
    rng = random.Random(game_id)
    sent: list[str] = []
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    for _ in range(max_moves):
        read_until_ready(post, players, mod, game_id)
        state = current(mod, game_id)
        if state.finished:
            break
        actor = pick_actor(state, players, rng)
        assert actor is not None
        msg = actor.move(state)
        post.send(msg)
        sent.append(str(msg["Message-ID"]))
        moderator_pass_until(mod, cfg, len(sent))
    return len(sent), sent


def read_all_outbox(post: ImapPost, players: list[ScriptedPlayer], mod: Moderator) -> None:
    """Read mail until every outbox row the moderator sent has arrived somewhere (not only
    the last status version: a private mail can come after it), or TIMEOUT passes."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        with mod.store.read() as s:
            ids = s.exec(select(OutMail.message_id).where(OutMail.status == "sent")).all()
        if all(post.received[m] for m in ids):
            return
        if time.monotonic() > deadline:
            return  # audit() names what never came
        for p in players:
            for msg in post.receive(p.address):
                p.read(msg)
        time.sleep(0.05)


def audit(mod: Moderator, post: ImapPost, sent: list[str], max_doubles: int = 0) -> None:
    with mod.store.read() as s:
        stored = Counter(s.exec(select(InboundMail.message_id)).all())
        rows = s.exec(select(OutMail)).all()
        seqs = s.exec(select(EventRow.seq).order_by(EventRow.seq)).all()
    assert all(stored[m] == 1 for m in sent) and sum(stored.values()) == len(sent)
    assert all(r.status == "sent" for r in rows)
    assert seqs == list(range(len(seqs)))
    missing = [r.message_id for r in rows if post.received[r.message_id] == 0]
    assert not missing, f"{len(missing)} outbox mails never arrived"
    doubles = sum(n - 1 for n in post.received.values() if n > 1)
    assert doubles <= max_doubles


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_full_game_by_real_mail(mailstack: MailStack, database_url: str, post: ImapPost,
                                tmp_path: Path, backend: str) -> None:
    url = database_url if backend == "postgresql" else f"sqlite:///{tmp_path / 'pbem.sqlite'}"
    cfg = moderator_config(mailstack, url)
    store = fresh_store(url)
    game_id = f"pof-{backend}"
    mod, players = new_game(mailstack, store, cfg, game_id)
    t0 = time.monotonic()
    moves, sent = play(post, mod, cfg, players, game_id, max_moves=400)
    state = current(mod, game_id)
    assert state.finished, f"not finished after {moves} moves"
    read_until_ready(post, players, mod, game_id)
    read_all_outbox(post, players, mod)
    audit(mod, post, sent)
    with mod.store.read() as s:
        assert s.exec(select(InboundMail.status).where(InboundMail.status != "accepted")
                      ).all() == []
    print(f"\n{backend}: {moves} moves by real mail in {time.monotonic() - t0:.1f} s")
    store.dispose()


def test_signorie_game_by_real_mail(mailstack: MailStack, database_url: str,
                                    post: ImapPost) -> None:
    """The second game through the same moderator and servers: a whole 2-player game
    of Signorie on PostgreSQL, every mail delivered once, every command accepted."""
    cfg = moderator_config(mailstack, database_url)
    store = fresh_store(database_url)
    game_id = "sig-real"
    mod, players = new_game(mailstack, store, cfg, game_id, n=2, game="signorie")
    moves, sent = play(post, mod, cfg, players, game_id, max_moves=300)
    state = current(mod, game_id)
    assert state.finished, f"not finished after {moves} moves"
    read_until_ready(post, players, mod, game_id)
    read_all_outbox(post, players, mod)
    audit(mod, post, sent)
    with mod.store.read() as s:
        assert s.exec(select(InboundMail.status).where(InboundMail.status != "accepted")
                      ).all() == []
        assert s.get(Game, game_id).game == "signorie"  # type: ignore[union-attr]
    store.dispose()


def test_killed_moderator_loses_and_doubles_nothing(mailstack: MailStack, database_url: str,
                                                    post: ImapPost) -> None:
    """`pbem poll --once` subprocesses killed with SIGKILL at random points; after a
    clean pass every player mail is stored once and every outbox mail has arrived.
    SMTP cannot be exactly-once: a kill between the server's 250 and the commit that
    marks the row sent resends that one mail (same Message-ID), so at most one double
    per kill is allowed."""
    cfg = moderator_config(mailstack, database_url)
    store = fresh_store(database_url)
    game_id = "pof-kill"
    mod, players = new_game(mailstack, store, cfg, game_id)
    env = env_for(cfg)
    cmd = [sys.executable, "-c", "from pbem.cli import app; app()", "poll", "--once"]
    rng = random.Random(99)
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    sent: list[str] = []
    kills = 0
    for _ in range(15):
        read_until_ready(post, players, mod, game_id)
        state = current(mod, game_id)
        actor = pick_actor(state, players, rng)
        assert actor is not None
        msg = actor.move(state)
        post.send(msg)
        sent.append(str(msg["Message-ID"]))
        time.sleep(0.1)  # let Postfix deliver
        for _attempt in range(2):
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.2, 1.6))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait()
        moderator_pass_until(mod, cfg, len(sent))
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    read_until_ready(post, players, mod, game_id)
    read_all_outbox(post, players, mod)
    assert kills > 0
    audit(mod, post, sent, max_doubles=kills)
    store.dispose()


def test_serve_with_idle_reacts_to_new_mail(mailstack: MailStack, post: ImapPost,
                                            tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """`serve` waits in IMAP IDLE and processes a player's mail as it arrives: its
    next look at the folder without IDLE would be `poll_seconds` (10 minutes) away,
    and no error made it connect again meanwhile."""
    import dataclasses
    import logging
    import threading

    from pbem.runner import serve

    url = f"sqlite:///{tmp_path / 'serve.sqlite'}"
    cfg = dataclasses.replace(moderator_config(mailstack, url), idle=True, poll_seconds=600)
    store = fresh_store(url)
    mod, players = new_game(mailstack, store, cfg, "pof-serve", n=3)
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(mod, lambda: ImapInbox(cfg),
                                                  SmtpSender(cfg), stop), daemon=True)
    caplog.set_level(logging.INFO, logger="pbem")
    thread.start()
    try:
        read_until_ready(post, players, mod, "pof-serve")  # first status mails were sent
        state = current(mod, "pof-serve")
        post.send(players[0].move(state))
        end = time.monotonic() + TIMEOUT
        while current(mod, "pof-serve").version == state.version:
            assert time.monotonic() < end, "IDLE did not wake the moderator for the mail"
            time.sleep(0.02)
    finally:
        stop.set()
        wake = EmailMessage()  # new mail ends the wait; the loop then sees `stop`
        wake["From"], wake["To"], wake["Subject"] = players[0].address, cfg.moderator_address, "x"
        post.send(wake)
        thread.join(timeout=TIMEOUT)
    assert not thread.is_alive()
    clear_moderator(mailstack)  # the wake-up mail
    assert not [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    store.dispose()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serve_in_idle_stops_cleanly_on_a_signal(mailstack: MailStack, post: ImapPost,
                                                 tmp_path: Path, signum: int) -> None:
    """`pbem serve` waiting in IMAP IDLE (for up to 60 s) stops at once on SIGTERM or
    SIGINT and exits 0; a mail sent before the signal is processed and answered."""
    url = f"sqlite:///{tmp_path / 'stop.sqlite'}"
    cfg = moderator_config(mailstack, url)
    store = fresh_store(url)
    mod, players = new_game(mailstack, store, cfg, "pof-stop", n=3)
    env = {**env_for(cfg), "PBEM_IDLE": "true", "PBEM_POLL_SECONDS": "60"}
    proc = subprocess.Popen([sys.executable, "-c", "from pbem.cli import app; app()", "serve"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        read_until_ready(post, players, mod, "pof-stop")
        state = current(mod, "pof-stop")
        post.send(players[0].move(state))
        end = time.monotonic() + TIMEOUT
        while current(mod, "pof-stop").version == state.version:
            assert time.monotonic() < end, "serve never processed the mail"
            time.sleep(0.05)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "pbem serve: stopped" in out and "Traceback" not in err
    store.dispose()
