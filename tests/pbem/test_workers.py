"""Several workers on one database: outbox claims, deadline locks and inbound mail
claims, on SQLite and (when `scripts/test.sh` started it) PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlmodel import col, func, select

from pbem import inbound, moderator
from pbem.config import Config
from pbem.deadlines import check_deadlines
from pbem.errors import TransportError
from pbem.moderator import Moderator, Outcome
from pbem.outbound import make_mail, send_due
from pbem.runner import PassReport, process_inbox
from pbem.store import MoveRow, OutMail, Store, claim_due
from pbem.workers import claim_mail, holder_is_dead, lock_game, worker_name

from .fakes import NOW, PLAYERS, FakeMailbox, mail

CFG = Config(moderator_address="moderator@example.org", send_lease_seconds=60)
LEASE = timedelta(seconds=60)



@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    s.create_all()
    yield s
    s.dispose()


def queue_mails(store: Store, n: int) -> list[str]:
    ids = []
    with store.transaction() as s:
        for i in range(n):
            m = make_mail(CFG, game_id=None, kind="notice", to=f"p{i}@example.org",
                          subject=f"mail {i}", text="hello\n", html="", now=NOW)
            s.add(m)
            ids.append(m.message_id)
    return ids


class Recorder:
    """A sender that counts every message it is given, from any thread."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.sent: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.fail_after = fail_after

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None:
        for i, msg in enumerate(messages):
            with self.lock:
                if self.fail_after is not None and sum(self.sent.values()) >= self.fail_after:
                    raise RuntimeError("the sender died")
                self.sent[str(msg["Message-ID"])] += 1
            done(i, None)


def pending(store: Store) -> list[OutMail]:
    with store.read() as s:
        return list(s.exec(select(OutMail).where(OutMail.status == "pending")))


def test_claims_are_disjoint_and_cover_every_due_row(store: Store) -> None:
    queue_mails(store, 30)
    a = claim_due(store, NOW, 10, "a", LEASE)
    b = claim_due(store, NOW, 10, "b", LEASE)
    c = claim_due(store, NOW, 20, "c", LEASE)
    ids = [r.id for r in [*a, *b, *c]]
    assert (len(a), len(b), len(c)) == (10, 10, 10)
    assert len(set(ids)) == 30
    assert claim_due(store, NOW, 20, "d", LEASE) == []
    owners = Counter(r.claimed_by for r in pending(store))
    assert owners == {"a": 10, "b": 10, "c": 10}


def test_claims_that_share_split_the_end_of_a_backlog(store: Store) -> None:
    """With `share`, a claim takes half of what is due (at least `share`): of the last
    30 rows, one worker's batch of 20 would leave the next worker 10 and the others
    nothing; shared, four workers get 15, 8, 6 and 1."""
    queue_mails(store, 30)
    got = [claim_due(store, NOW, 20, w, LEASE, share=6) for w in "abcde"]
    assert [len(rows) for rows in got] == [15, 8, 6, 1, 0]
    assert len({r.id for rows in got for r in rows}) == 30


def test_claims_without_share_take_whole_batches(store: Store) -> None:
    queue_mails(store, 30)
    assert [len(claim_due(store, NOW, 20, w, LEASE)) for w in "abc"] == [20, 10, 0]


def test_concurrent_claims_never_hand_a_row_to_two_workers(store: Store, url: str) -> None:
    queue_mails(store, 150)
    got: list[list[int]] = [[] for _ in range(4)]
    start = threading.Barrier(4)

    def worker(k: int) -> None:
        own = Store(url)  # its own connections, as another process has
        start.wait()
        while rows := claim_due(own, NOW, 7, f"w{k}", LEASE):
            got[k].extend(r.id for r in rows if r.id is not None)
        own.dispose()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [i for g in got for i in g]
    assert len(every) == 150 and len(set(every)) == 150


def test_an_expired_lease_is_taken_over_and_a_live_one_is_not(store: Store) -> None:
    queue_mails(store, 5)
    assert len(claim_due(store, NOW, 10, "killed", LEASE)) == 5
    assert claim_due(store, NOW + timedelta(seconds=59), 10, "other", LEASE) == []
    taken = claim_due(store, NOW + timedelta(seconds=61), 10, "other", LEASE)
    assert len(taken) == 5 and {r.claimed_by for r in pending(store)} == {"other"}


def test_a_row_is_marked_only_while_its_lease_is_ours(store: Store) -> None:
    from pbem.outbound import Marks, SendReport

    queue_mails(store, 2)
    slow = claim_due(store, NOW, 10, "slow", LEASE)
    later = NOW + timedelta(seconds=61)
    fast = claim_due(store, later, 10, "fast", LEASE)
    report = SendReport()
    marks = Marks(store, report, later, 5, claim="slow")
    marks.record(slow[0], None)  # the lease passed to "fast"
    marks.flush()
    assert report.sent == 0 and len(pending(store)) == 2
    marks = Marks(store, report, later, 5, claim="fast")
    marks.record(fast[0], None)
    marks.flush()
    assert report.sent == 1
    with store.read() as s:
        sent = s.exec(select(OutMail).where(OutMail.status == "sent")).one()
    assert sent.claimed_by == "fast" and sent.claimed_until is None


def _set(store: Store, mail_id: int | None, **values: object) -> None:
    with store.transaction() as s:
        row = s.get(OutMail, mail_id)
        assert row is not None
        for k, v in values.items():
            setattr(row, k, v)
        s.add(row)


def test_a_batch_sent_whole_is_marked_by_one_guarded_statement(store: Store) -> None:
    """Every mail of the batch sent: one UPDATE marks them all, and only the rows
    still pending under this batch's lease (said in its WHERE clause, so a lease
    that passed meanwhile is never overwritten)."""
    from pbem.outbound import Marks, SendReport

    queue_mails(store, 3)
    rows = claim_due(store, NOW, 10, "me", LEASE)
    _set(store, rows[2].id, claimed_by="other")  # its lease passed to another worker
    seen: list[str] = []

    def record(_c: object, _cur: object, statement: str, *_: object) -> None:
        seen.append(statement)

    report = SendReport()
    marks = Marks(store, report, NOW, 5, claim="me")
    for row in rows:
        marks.record(row, None)
    event.listen(store.engine, "before_cursor_execute", record)
    try:
        marks.flush()
    finally:
        event.remove(store.engine, "before_cursor_execute", record)
    writes = [x for x in seen if not x.startswith(("BEGIN", "SELECT"))]
    assert len(writes) == 1 and writes[0].startswith("UPDATE pbem_outbox")
    assert "claimed_by" in writes[0].split("WHERE", 1)[1]
    assert report.sent == 2
    with store.read() as s:
        got = {r.id: r for r in s.exec(select(OutMail))}
    assert [(got[r.id].status, got[r.id].attempts, got[r.id].claimed_by) for r in rows] == [
        ("sent", 1, "me"), ("sent", 1, "me"), ("pending", 0, "other")]
    assert got[rows[0].id].claimed_until is None and got[rows[0].id].sent_at is not None


def test_a_mixed_batch_is_marked_row_by_row(store: Store) -> None:
    """Sent, a retry, a permanent refusal, the last allowed attempt, a lease passed,
    a row another worker marked already: each row gets what it got before."""
    from pbem.outbound import Marks, PermanentFailure, SendReport

    queue_mails(store, 6)
    rows = claim_due(store, NOW, 10, "me", LEASE)
    _set(store, rows[3].id, attempts=4)
    _set(store, rows[4].id, claimed_by="other")
    _set(store, rows[5].id, status="failed")
    report = SendReport()
    marks = Marks(store, report, NOW, 5, claim="me")
    for row, error in zip(rows, [None, TransportError("down"), PermanentFailure("no such user"),
                                 TransportError("down"), TransportError("down"), None],
                          strict=True):
        marks.record(row, error)
    marks.flush()
    assert (report.sent, report.retry, report.failed) == (1, 1, 2)
    with store.read() as s:
        got = {r.id: r for r in s.exec(select(OutMail))}
    state = [(got[r.id].status, got[r.id].attempts, got[r.id].claimed_by,
              got[r.id].claimed_until is None, got[r.id].last_error) for r in rows]
    assert state == [
        ("sent", 1, "me", True, ""),
        ("pending", 1, "", True, "down"),
        ("failed", 1, "me", True, "no such user"),
        ("failed", 5, "me", True, "down (attempt 5 of 5)"),
        ("pending", 0, "other", False, ""),
        ("failed", 0, "me", False, ""),
    ]
    retry = got[rows[1].id].next_attempt
    assert retry is not None and retry.replace(tzinfo=None) == (NOW + timedelta(seconds=30)
                                                                ).replace(tzinfo=None)


def test_a_crashing_sender_frees_its_batch_for_the_next_pass(store: Store) -> None:
    """A sender that raises is charged a temporary failure for the mail in hand (so
    one broken transport cannot stop every later mail); no row stays claimed."""
    ids = queue_mails(store, 6)
    dying = Recorder(fail_after=2)
    report = send_due(store, dying, CFG, NOW)
    assert report.sent == 2
    left = pending(store)
    assert len(left) == 4 and all(r.claimed_by == "" and r.claimed_until is None
                                  for r in left)
    again = Recorder()
    assert send_due(store, again, CFG, NOW + timedelta(hours=1)).sent == 4
    assert dying.sent + again.sent == Counter(ids)


def test_a_retry_clears_the_claim(store: Store) -> None:
    queue_mails(store, 2)

    class Down:
        def send_batch(self, messages: Sequence[EmailMessage],
                       done: Callable[[int, Exception | None], None]) -> None:
            for i in range(len(messages)):
                done(i, TransportError("connection refused"))

    report = send_due(store, Down(), CFG, NOW)
    assert report.retry == 2
    assert all(r.claimed_by == "" and r.claimed_until is None and r.attempts == 1
               for r in pending(store))


def test_the_claim_of_a_dead_process_here_is_void_at_once(store: Store) -> None:
    queue_mails(store, 4)
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    me = worker_name()
    host, _, boot = me.split(":")
    dead = f"{host}:{proc.stdout.strip()}:{boot}/batch"
    alive = f"{host}:{os.getppid()}:{boot}/batch"
    elsewhere = f"other-host:{proc.stdout.strip()}:{boot}/batch"
    assert holder_is_dead(dead)
    assert not holder_is_dead(alive) and not holder_is_dead(elsewhere)
    assert not holder_is_dead(f"{me}/mine")
    rows = claim_due(store, NOW, 4, "x", LEASE)
    with store.transaction() as s:
        for row, holder in zip(rows, [dead, dead, alive, elsewhere], strict=True):
            fresh = s.get(OutMail, row.id)
            assert fresh is not None
            fresh.claimed_by = holder
            s.add(fresh)
    rec = Recorder()
    assert send_due(store, rec, CFG, NOW).sent == 2
    assert sorted(r.claimed_by for r in pending(store)) == sorted([alive, elsewhere])


def test_four_senders_at_once_send_every_mail_exactly_once(store: Store, url: str) -> None:
    ids = queue_mails(store, 160)
    rec = Recorder()
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker() -> None:
        own = Store(url)
        start.wait()
        try:
            send_due(own, rec, CFG, NOW, limit=5)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
        own.dispose()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    send_due(store, rec, CFG, NOW)  # whatever a worker left when its batch came short
    assert rec.sent == Counter(ids)
    assert pending(store) == []


def _games(url: str, n: int, **policy: object) -> list[str]:
    store = Store(url)
    store.create_all()
    mod = Moderator(store, CFG)
    ids = [mod.new_game(PLAYERS, NOW, game_id=f"pof-{i}", seed=f"s{i}", turn_hours=48,
                        reminder_hours=12, **policy) for i in range(n)]  # type: ignore[arg-type]
    store.dispose()
    return ids


def _race(url: str, now_offset: timedelta, workers: int = 3) -> list[object]:
    reports: list[object] = []
    start = threading.Barrier(workers)

    def worker() -> None:
        mod = Moderator(Store(url), CFG)
        start.wait()
        try:
            reports.append(check_deadlines(mod, NOW + now_offset))
        except BaseException as e:  # pragma: no cover - asserted below
            reports.append(e)
        mod.store.dispose()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return reports


def test_concurrent_deadline_passes_remind_once(store: Store, url: str) -> None:
    games = _games(url, 6)
    reports = _race(url, timedelta(hours=37))
    assert not [r for r in reports if isinstance(r, BaseException)], reports
    reminded = Counter(g for r in reports for g in r.reminded)  # type: ignore[attr-defined]
    assert reminded == Counter(games)
    with store.read() as s:
        n = s.exec(select(func.count()).select_from(OutMail)
                   .where(OutMail.kind == "reminder")).one()
    assert n == len(games) * len(PLAYERS)  # setup: every seat keeps, so every seat acts


def test_concurrent_deadline_passes_play_for_late_seats_once(store: Store, url: str) -> None:
    games = _games(url, 5, late_policy="auto")
    reports = _race(url, timedelta(hours=49))
    assert not [r for r in reports if isinstance(r, BaseException)], reports
    auto = [line for r in reports for line in r.auto]  # type: ignore[attr-defined]
    assert len(auto) == len(games) * len(PLAYERS)
    with store.read() as s:
        moves = Counter(s.exec(select(MoveRow.game_id).where(MoveRow.source == "auto")))
        notices = s.exec(select(func.count()).select_from(OutMail)
                         .where(col(OutMail.subject).contains("played for"))).one()
    assert moves == {g: len(PLAYERS) for g in games}
    assert notices == 0  # the notice rides in the status mails, one set per game


def test_a_game_another_worker_holds_is_skipped(store: Store, url: str) -> None:
    if store.is_sqlite:
        pytest.skip("SQLite serialises whole transactions instead")
    (game,) = _games(url, 1)
    other = Store(url)
    with store.transaction() as s1:
        assert lock_game(s1, game) is not None
        with other.transaction() as s2:
            assert lock_game(s2, game) is None
    with other.transaction() as s2:
        assert lock_game(s2, game) is not None
    other.dispose()


def test_a_mail_another_worker_is_processing_stays_in_the_inbox(store: Store,
                                                                url: str) -> None:
    if store.is_sqlite:
        pytest.skip("one worker on SQLite")
    _games(url, 1)
    mod = Moderator(store, CFG)
    box = FakeMailbox()
    msg = mail("anna@example.org", "moderator@example.org", "game pof-0\npass\n")
    uid = box.put(msg)
    other = Store(url)
    with other.transaction() as s:
        assert claim_mail(s, str(msg["Message-ID"]))
        report = PassReport()
        assert process_inbox(mod, box, lambda: NOW, report) == 1
        assert report.outcomes == [] and uid in box.mails  # left to the holder
    other.dispose()
    report = PassReport()
    process_inbox(mod, box, lambda: NOW, report)
    assert [o.status for o in report.outcomes] == ["rejected"] and box.processed == [uid]
    with store.read() as s:
        assert s.exec(select(func.count()).select_from(OutMail)
                      .where(col(OutMail.kind) == "error")).one() == 1


class Statements:
    """The SQL statements an engine runs while the block does."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.seen: list[str] = []

    def _record(self, _conn: object, _cursor: object, statement: str, *_: object) -> None:
        self.seen.append(statement)

    def __enter__(self) -> list[str]:
        event.listen(self.engine, "before_cursor_execute", self._record)
        return self.seen

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._record)


def test_mails_held_or_stored_by_other_workers_cost_one_statement(store: Store,
                                                                 url: str) -> None:
    """Of the mails a worker fetched, those another worker holds or has stored are
    skipped inside the one statement that claims the next mail: no lock is tried and
    no Message-ID looked up for each of them, and the stored ones are moved out."""
    if store.is_sqlite:
        pytest.skip("one worker on SQLite")
    mod, box, msgs, uids = _two_stored_elsewhere(store, url, 5)
    ids = [str(m["Message-ID"]) for m in msgs]
    other = Store(url)
    with other.transaction() as held:  # held by another worker, at the front too
        assert claim_mail(held, ids[2]) and claim_mail(held, ids[3])
        report = PassReport()
        with Statements(store) as seen:
            assert process_inbox(mod, box, lambda: NOW, report) == 5
    other.dispose()
    claims = [x for x in seen if "advisory" in x]
    lookups = [x for x in seen if "FROM pbem_inbound" in x]
    assert len(claims) == 2  # the fifth mail taken; then none left
    assert len(lookups) == 3  # those two, and one for the stored ones among those left
    assert [o.status for o in report.outcomes] == ["rejected", "duplicate", "duplicate"]
    assert sorted(box.processed) == sorted([uids[4], uids[0], uids[1]])
    assert set(box.mails) == {uids[2], uids[3]}  # left to their holder


def test_a_worker_reads_only_the_mails_it_takes(store: Store, url: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker fetches every new mail, but reads of each only its Message-ID
    (from the headers); the body, the sender and the rest are read by the worker that
    takes the mail. The mails another worker has stored are moved out unread."""
    mod, box, msgs, uids = _two_stored_elsewhere(store, url, 3)
    read: list[str] = []

    def parse_mail(raw: bytes, **kw: object) -> object:
        read.append(raw.decode())
        return inbound.parse_mail(raw, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(moderator, "parse_mail", parse_mail)
    report = PassReport()
    assert process_inbox(mod, box, lambda: NOW, report) == 3
    assert [o.status for o in report.outcomes] == ["rejected", "duplicate", "duplicate"]
    assert sorted(box.processed) == sorted(uids)
    assert len(read) == 1 and str(msgs[2]["Message-ID"]) in read[0]


def test_a_serving_worker_leaves_the_mails_others_stored_to_them_for_a_pass(
        store: Store, url: str) -> None:
    """A worker that serves does not move a mail another worker has stored: that
    worker moves it once through its batch. Found stored again on the next pass (its
    worker stopped first), the mail is moved then, as a duplicate; a mail its worker
    did move is not looked for again."""
    mod, box, msgs, uids = _two_stored_elsewhere(store, url, 3)
    others: set[str] = set()  # the other worker has not moved its two yet
    report = PassReport()
    assert process_inbox(mod, box, lambda: NOW, report, others=others) == 3
    assert [o.status for o in report.outcomes] == ["rejected"]
    assert box.processed == [uids[2]] and set(box.mails) == set(uids[:2])
    assert others == {str(m["Message-ID"]) for m in msgs[:2]}
    box.done(uids[0])  # the other worker moves one; it stops before the second
    report = PassReport()
    assert process_inbox(mod, box, lambda: NOW, report, others=others) == 1
    assert [o.status for o in report.outcomes] == ["duplicate"]
    assert box.mails == {} and box.processed == [uids[2], uids[0], uids[1]]
    assert others == set()


def other_worker_processes(store: Store, msg: EmailMessage) -> Outcome:
    return Moderator(store, CFG).process_mail(msg.as_bytes(), NOW, uid="elsewhere")


def _two_stored_elsewhere(store: Store, url: str, n: int
                          ) -> tuple[Moderator, FakeMailbox, list[EmailMessage], list[str]]:
    """A game, and `n` mails of it in the inbox, of which another worker has stored
    the first two: the moderator, the inbox, the mails and their uids."""
    _games(url, 1)
    mod = Moderator(store, CFG)
    box = FakeMailbox()
    msgs = [mail("anna@example.org", "moderator@example.org", f"game pof-0\npass {i}\n")
            for i in range(n)]
    uids = [box.put(m) for m in msgs]
    for m in msgs[:2]:
        assert other_worker_processes(Store(url), m).status == "rejected"
    return mod, box, msgs, uids


def test_a_mail_stored_after_the_claim_saw_the_inbox_is_a_duplicate(
        store: Store, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim statement sees the mails stored before it began: one that another
    worker commits meanwhile can be claimed again. The unique Message-ID refuses it at
    the commit, the mail is tried again as a duplicate, and nothing is sent twice."""
    _games(url, 1)
    mod = Moderator(store, CFG)
    msg = mail("anna@example.org", "moderator@example.org", "game pof-0\npass\n")
    assert other_worker_processes(store, msg).status == "rejected"
    with store.read() as s:
        before = s.exec(select(func.count()).select_from(OutMail)).one()
    mid = str(msg["Message-ID"])
    monkeypatch.setattr(moderator, "claim_next", lambda _s, ids: mid)  # a stale snapshot
    box = FakeMailbox()
    uid = box.put(msg)
    report = PassReport()
    process_inbox(mod, box, lambda: NOW, report)
    assert [o.status for o in report.outcomes] == ["duplicate"] and box.processed == [uid]
    with store.read() as s:
        assert s.exec(select(func.count()).select_from(OutMail)).one() == before


def test_a_second_worker_on_one_sqlite_database_is_refused(tmp_path: Path) -> None:
    """`pbem serve` holds the SQLite database's worker lock: a second `serve` is
    refused (exit 1, naming the first), `poll --once` from cron skips its pass, and a
    killed worker's lock is gone at once."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update(PBEM_DB=str(tmp_path / "db.sqlite"), PBEM_MAIL_DIR=str(tmp_path / "mail"),
               PBEM_MODERATOR_ADDRESS="moderator@example.org", PBEM_TRANSPORT="files",
               PBEM_POLL_SECONDS="0.2", PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-c", "from pbem.cli import app; app()"]

    def pbem(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cmd, *args], env=env, capture_output=True, text=True,
                              timeout=120)

    assert pbem("init").returncode == 0
    first = subprocess.Popen([*cmd, "serve"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().startswith("serving")  # printed once it holds the lock
        second = pbem("serve")
        assert second.returncode == 1
        assert "already running on the SQLite database" in second.stderr
        assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
        cron = pbem("poll", "--once")
        assert cron.returncode == 0 and cron.stdout.startswith("skipped: a pbem worker")
    finally:
        first.kill()
        first.wait()
    after = pbem("poll", "--once")
    assert after.returncode == 0 and after.stdout.startswith("no mail"), after.stdout
