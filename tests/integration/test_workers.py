"""Four `pbem serve` workers on one PostgreSQL database, reading one IMAP folder and
sending through Postfix, while scripted players play several games at once by real
mail; then the same with workers killed (SIGKILL) and restarted at random moments.

Counted at the end: every player mail stored once and applied once (0 lost, 0
doubled moves), every outbox mail delivered (0 lost) and delivered once (0
duplicates; with kills, at most one per kill: the documented window between the SMTP
server's acceptance and the row being marked sent).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import func, select

from engine.princes.state import CHANCE
from pbem.config import Config
from pbem.moderator import Moderator, PlayerSpec
from pbem.scripted_tables import Tables
from pbem.store import EventRow, Game, InboundMail, MoveRow, OutMail, Store, utcnow
from pbem.transport import ImapInbox

from .conftest import MailStack
from .test_moderator_mail import (
    ImapPost,
    clear_moderator,
    env_for,
    fresh_store,
    moderator_config,
)

pytestmark = pytest.mark.integration

WORKERS = 4
STALL = 90.0  # seconds without any game moving before the test gives up


class Workers:
    """`pbem serve` subprocesses; each one's output goes to its own log file."""

    def __init__(self, cfg: Config, logs: Path) -> None:
        self.env = {**env_for(cfg), "PBEM_IDLE": "true", "PBEM_POLL_SECONDS": "1",
                    "PBEM_SEND_LEASE_SECONDS": "60", "PYTHONUNBUFFERED": "1"}
        self.logs = logs
        self.procs: list[subprocess.Popen[bytes]] = []
        self.started = 0
        self.log_of: dict[int, Path] = {}  # pid -> its log file
        self.killed: set[Path] = set()  # the logs of the workers killed

    def start(self) -> subprocess.Popen[bytes]:
        self.started += 1
        log = (self.logs / f"worker-{self.started}.log").open("wb")
        proc = subprocess.Popen([sys.executable, "-c", "from pbem.cli import app; app()",
                                 "serve"], env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.procs.append(proc)
        self.log_of[proc.pid] = self.logs / f"worker-{self.started}.log"
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.procs.remove(proc)
        self.killed.add(self.log_of[proc.pid])

    def batches(self) -> dict[int, set[Path]]:
        """Each outbox row id, with the logs of the workers that claimed it for sending
        (`send_due` logs every claimed batch before it sends it)."""
        found: dict[int, set[Path]] = {}
        for path in self.logs.glob("worker-*.log"):
            for line in path.read_text(errors="replace").splitlines():
                _, hit, ids = line.partition(": sending outbox ")
                if hit:
                    for i in ids.split(","):
                        found.setdefault(int(i), set()).add(path)
        return found

    def stop(self) -> None:
        for p in self.procs:
            p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:  # pragma: no cover - a hung worker
                p.kill()
                p.wait()
        self.procs.clear()

    def troubles(self) -> list[str]:
        """Log lines of crashes and of passes given up (e.g. a race the IMAP server
        refused): none may happen while no worker is killed."""
        return [line for p in sorted(self.logs.glob("worker-*.log"))
                for line in p.read_text(errors="replace").splitlines()
                if "Traceback" in line or "; retrying in" in line]


def seating(stack: MailStack) -> list[list[PlayerSpec]]:
    """Three games of three among six mailboxes: p1 and p3 and p5 play in two."""
    p = [PlayerSpec(a.local_part, a.address) for a in stack.players[:6]]
    return [[p[0], p[1], p[2]], [p[3], p[4], p[5]], [p[4], p[0], p[2]]]


@pytest.fixture
def post(mailstack: MailStack) -> Iterator[ImapPost]:
    """Six players' mailboxes and the moderator's, emptied."""
    p = ImapPost(mailstack)
    clear_moderator(mailstack)
    p.clear(*(a.address for a in mailstack.players[:6]))
    yield p
    p.close()


@pytest.fixture
def setup(mailstack: MailStack, database_url: str, post: ImapPost,
          tmp_path: Path) -> Iterator[tuple[Tables, Workers, Store]]:
    cfg = moderator_config(mailstack, database_url)
    store = fresh_store(database_url)
    mod = Moderator(store, cfg)
    tables = Tables.start(mod, post, seating(mailstack), utcnow())
    workers = Workers(cfg, tmp_path)
    yield tables, workers, store
    workers.stop()
    store.dispose()


def play(tables: Tables, until: Callable[[], bool], between: Callable[[], None] = lambda: None,
         send: bool = True) -> None:
    """Drive the games until `until()`; fail if no game moves for STALL seconds."""
    versions = tables.versions()
    moved = time.monotonic()
    while not until():
        tables.step(send)
        between()
        now = tables.versions()
        if now != versions:
            versions, moved = now, time.monotonic()
        assert time.monotonic() - moved < STALL, f"no game moved for {STALL:.0f} s: {now}"
        time.sleep(0.02)


def settle(tables: Tables, store: Store) -> None:
    """Wait until every outbox row is sent and has arrived, then read whatever else
    the servers still deliver."""
    end = time.monotonic() + STALL
    while True:
        tables.read_mail()
        with store.read() as s:
            rows = s.exec(select(OutMail.message_id, OutMail.status)).all()
        if all(st == "sent" for _, st in rows) and all(tables.received[m] for m, _ in rows):
            break
        assert time.monotonic() < end, "the outbox never drained"
        time.sleep(0.05)


def audit(tables: Tables, store: Store) -> dict[str, int]:
    """Counts of lost and doubled moves and mails; every move accepted once."""
    sent = tables.sent
    with store.read() as s:
        stored = Counter(s.exec(select(InboundMail.message_id)).all())
        statuses = Counter(s.exec(select(InboundMail.status)).all())
        applied = Counter(s.exec(select(MoveRow.source).where(MoveRow.seat != CHANCE)).all())
        rows = s.exec(select(OutMail)).all()
        for game in s.exec(select(Game)).all():
            seqs = s.exec(select(EventRow.seq).where(EventRow.game_id == game.id)
                          .order_by(EventRow.seq)).all()
            assert list(seqs) == list(range(game.version)), game.id
        total_inbound = s.exec(select(func.count()).select_from(InboundMail)).one()
    return {
        "moves": len(sent),
        "lost_moves": sum(1 for m in sent if applied[m] == 0),
        "doubled_moves": sum(applied[m] - 1 for m in sent if applied[m] > 1)
        + sum(stored[m] - 1 for m in sent if stored[m] > 1),
        "rejected": total_inbound - statuses["accepted"],
        "mails": len(rows),
        "lost_mails": sum(1 for r in rows if tables.received[r.message_id] == 0),
        "duplicate_mails": sum(n - 1 for n in tables.received.values() if n > 1),
        "duplicate_rows": [r.id for r in rows if tables.received[r.message_id] > 1],
        "senders": len({r.claimed_by.partition("/")[0] for r in rows}),
    }


def test_four_workers_play_several_games_exactly_once(setup) -> None:  # noqa: ANN001
    tables, workers, store = setup
    for _ in range(WORKERS):
        workers.start()
    t0 = time.monotonic()
    play(tables, tables.finished)
    settle(tables, store)
    took = time.monotonic() - t0
    workers.stop()
    tables.read_mail()
    counts = audit(tables, store)
    print(f"\n{WORKERS} workers, {len(tables.tables)} games: {counts} in {took:.1f} s")
    assert not workers.troubles()
    assert counts["lost_moves"] == counts["doubled_moves"] == counts["rejected"] == 0
    assert counts["lost_mails"] == counts["duplicate_mails"] == 0
    assert tables.stray == 0
    assert counts["senders"] > 1  # the outbox really was shared


def test_killed_workers_lose_and_double_nothing(setup) -> None:  # noqa: ANN001
    """Workers are killed with SIGKILL at random moments and a new one started each
    time, while the games go on; then the survivors finish the job."""
    tables, workers, store = setup
    for _ in range(WORKERS):
        workers.start()
    rng = random.Random(11)
    kills = 0
    next_kill = time.monotonic() + rng.uniform(1.0, 4.0)
    target = 60  # moves in all, over the three games, and at least 8 kills

    def chaos() -> None:
        nonlocal kills, next_kill
        if time.monotonic() >= next_kill:
            workers.kill(rng.choice(workers.procs))
            kills += 1
            workers.start()
            next_kill = time.monotonic() + rng.uniform(1.0, 4.0)

    play(tables, lambda: (tables.moves() >= target and kills >= 8) or tables.finished(), chaos)
    play(tables, tables.answered, send=False)  # the last moves applied
    settle(tables, store)
    workers.stop()
    tables.read_mail()
    counts = audit(tables, store)
    print(f"\nchaos: {kills} kills; {counts}")
    assert workers.batches()  # the workers log every batch they claim
    assert kills >= 8
    assert counts["lost_moves"] == counts["doubled_moves"] == counts["rejected"] == 0
    assert counts["lost_mails"] == 0
    # Only the one-mail window per kill: every mail delivered twice was in a batch that
    # a killed worker had claimed (and, the server having taken it, not yet marked).
    assert counts["duplicate_mails"] <= kills
    claimed_by = workers.batches()
    for row_id in counts["duplicate_rows"]:
        assert claimed_by.get(row_id, set()) & workers.killed, (
            f"outbox {row_id} went out twice, but no killed worker had claimed it")


def test_two_workers_move_the_same_mail_without_error(mailstack: MailStack, post: ImapPost,
                                                      tmp_path: Path) -> None:
    """Two workers fetched the same mail; the second one's move finds it gone."""
    cfg = moderator_config(mailstack, "sqlite://")
    msg = EmailMessage()
    msg["From"], msg["To"] = mailstack.players[0].address, cfg.moderator_address
    msg["Subject"] = "x"
    msg["Message-ID"] = "<race@test>"
    msg.set_content("pass\n")
    post.send(msg)
    with ImapInbox(cfg) as a, ImapInbox(cfg) as b:
        end = time.monotonic() + 15
        while not (fa := a.fetch()):
            assert time.monotonic() < end
            time.sleep(0.05)
        fb = b.fetch()
        assert [f.uid for f in fa] == [f.uid for f in fb]
        a.done(fa[0].uid)
        a.flush()
        b.done(fb[0].uid)
        b.flush()  # gone already: no error
        assert b.fetch() == [] and a.fetch() == []


def test_a_waiting_worker_wakes_for_new_mail_not_for_another_workers_move(
        mailstack: MailStack, post: ImapPost, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker in IDLE is not woken when another worker moves a mail away (the
    folder shrank: EXPUNGE), and is when a new mail arrives (EXISTS)."""
    import dataclasses
    import imaplib
    import threading

    from pbem import transport

    cfg = dataclasses.replace(moderator_config(mailstack, "sqlite://"), idle=True)
    moderator = mailstack.moderator.address

    def note(text: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = mailstack.players[0].address, moderator, text
        msg.set_content(text)
        return msg

    post.send(note("first"))
    with ImapInbox(cfg) as waiter, ImapInbox(cfg) as mover:
        end = time.monotonic() + 30
        while not (fetched := mover.fetch()):
            assert time.monotonic() < end, "the first mail never arrived"
            time.sleep(0.05)
        # The waiter has seen the mail too: else IDLE would begin by telling it (EXISTS).
        assert waiter.fetch() == fetched
        lines: list[bytes | None] = []  # what the waiter read in IDLE
        waiting = threading.Event()
        next_line = transport.next_line

        def spy(client: imaplib.IMAP4, seconds: float) -> bytes | None:
            waiting.set()
            lines.append(next_line(client, seconds))
            return lines[-1]

        monkeypatch.setattr(transport, "next_line", spy)
        thread = threading.Thread(target=waiter.wait, args=(60,), daemon=True)
        thread.start()
        assert waiting.wait(timeout=30), "the waiter never waited"
        mover.done(fetched[0].uid)
        mover.flush()  # another worker took the mail: EXPUNGE for the waiter
        while not any(b"EXPUNGE" in (r or b"") for r in lines):  # it came, the waiter waits on
            assert thread.is_alive() and time.monotonic() < end, lines
            time.sleep(0.02)
        post.send(note("second"))
        thread.join(timeout=30)
        assert not thread.is_alive(), "new mail did not end the wait"
        assert lines[-1] is not None and b"EXISTS" in lines[-1]
    clear_moderator(mailstack)
