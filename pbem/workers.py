"""Several workers on one database: who claims what.

On PostgreSQL any number of `pbem serve` and `pbem poll --once` processes may run
against one database, reading the same IMAP folder:

* an inbound mail is processed under a transaction-level advisory lock on its
  Message-ID: of the mails a worker fetched, one statement takes the first that is
  neither stored nor held by another worker (`claim_next`), so the mails the others
  hold or have stored cost nothing each; once the holder commits, the mail is a
  duplicate by its stored Message-ID (`claim_mail` takes one given mail);
* a game's reminder, late notice or automatic move is made under the game's row lock,
  taken with SKIP LOCKED (`lock_game`), and decided on the row as locked;
* the outbox is claimed a batch at a time with a lease (`pbem.store.claim_due`);
  a lease held by a dead process of the same machine is void at once
  (`void_dead_claims`), any other one when it expires.

On SQLite one worker runs at a time (`single_worker`): its transactions are
serialised by the database anyway, and a second process is refused with a message
naming the one that runs.
"""

from __future__ import annotations

import fcntl
import os
import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import IO

from sqlalchemy import text, update
from sqlmodel import Session, col, select

from .errors import PbemError
from .store import Game, InboundMail, OutMail, Store

_MAIL_LOCKS = 0x70626D  # the advisory-lock namespace of inbound Message-IDs ("pbm")


class WorkerBusy(PbemError):
    """Another worker already runs on this SQLite database."""


@cache
def _boot() -> str:
    """This kernel's boot and pid namespace, so a pid is compared only with processes
    that could be the same one (not with another machine's, or another container's)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
        pidns = "".join(c for c in os.readlink("/proc/self/ns/pid") if c.isdigit())
    except OSError:
        return "-"
    return f"{boot}.{pidns}"


def worker_name() -> str:
    """This process, as outbox claims name it: `host:pid:boot.pidns`."""
    return f"{socket.gethostname()}:{os.getpid()}:{_boot()}"


def holder_is_dead(claim: str) -> bool:
    """Whether a claim (`worker_name()/batch`) was made by a process of this machine,
    since its last boot, that no longer runs (a killed worker)."""
    host, _, rest = claim.partition("/")[0].partition(":")
    pid, _, boot = rest.partition(":")
    if _boot() == "-" or (host, boot) != (socket.gethostname(), _boot()) \
            or not pid.isdigit():
        return False  # another machine or namespace, or one that cannot tell
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def void_dead_claims(store: Store, now: datetime) -> int:
    """Free the outbox rows whose lease is held by a dead process of this machine, so
    a restarted worker sends them at once instead of when the lease expires. Returns
    how many rows were freed."""
    with store.read() as s:
        holders = set(s.exec(select(OutMail.claimed_by).where(OutMail.status == "pending")
                             .where(col(OutMail.claimed_until) > now)))
    dead = [h for h in holders if h and holder_is_dead(h)]
    if not dead:
        return 0
    with store.transaction() as s:
        result = s.execute(update(OutMail).where(col(OutMail.claimed_by).in_(dead))
                           .where(col(OutMail.status) == "pending")
                           .values(claimed_by="", claimed_until=None))
        return int(result.rowcount)  # type: ignore[attr-defined]


def claim_mail(s: Session, message_id: str) -> bool:
    """Take the inbound mail `message_id` for this transaction; False when another
    worker is processing it right now (PostgreSQL; SQLite has one worker)."""
    if s.get_bind().dialect.name != "postgresql":
        return True
    got = s.execute(text("SELECT pg_try_advisory_xact_lock(:ns, hashtext(:mid))"),
                    {"ns": _MAIL_LOCKS, "mid": message_id}).scalar()
    return bool(got)


_CLAIM_NEXT = text(
    "SELECT m FROM unnest(CAST(:mids AS text[])) AS m WHERE CASE"
    " WHEN EXISTS (SELECT 1 FROM pbem_inbound WHERE pbem_inbound.message_id = m) THEN false"
    " ELSE pg_try_advisory_xact_lock(:ns, hashtext(m)) END LIMIT 1")
"""The first of the Message-IDs not stored whose lock this transaction gets: the CASE
tries a lock only on a mail not stored, and LIMIT 1 stops at the first one taken."""


def claim_next(s: Session, message_ids: Sequence[str]) -> str | None:
    """Take the first of `message_ids` that is not stored and that no other worker is
    processing, for this transaction (its advisory lock, as `claim_mail`); None when
    none is left. One statement however many are stored or held by others. On SQLite
    (one worker) the first not stored.

    The statement sees the mails stored before it began: one that another worker
    committed while it ran may be taken again, and is then refused at the commit by
    the unique Message-ID (the caller tries it again as a duplicate)."""
    if not message_ids:
        return None
    if s.get_bind().dialect.name != "postgresql":
        stored = stored_among(s, message_ids)
        return next((m for m in message_ids if m not in stored), None)
    got = s.execute(_CLAIM_NEXT, {"mids": list(message_ids), "ns": _MAIL_LOCKS}).scalar()
    return None if got is None else str(got)


def stored_among(s: Session, message_ids: Sequence[str]) -> set[str]:
    """Those of `message_ids` that are stored (processed by some worker)."""
    if not message_ids:
        return set()
    return set(s.exec(select(InboundMail.message_id)
                      .where(col(InboundMail.message_id).in_(message_ids))))


def lock_game(s: Session, game_id: str) -> Game | None:
    """The game row locked for this transaction (`FOR UPDATE SKIP LOCKED`), read as
    it is now; None when another transaction holds it (or there is no such game).
    On SQLite the transaction's write lock does the same."""
    return s.get(Game, game_id, with_for_update={"skip_locked": True},
                 populate_existing=True)


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".worker-lock")


@contextmanager
def single_worker(store: Store, db_path: Path) -> Iterator[None]:
    """Hold the SQLite database's worker lock (an exclusive `flock` on a file next to
    it, dropped by the kernel when the process dies) while the block runs. Nothing
    on PostgreSQL.

    Raises:
        WorkerBusy: another process holds it.
    """
    if not store.is_sqlite or store.url in ("sqlite://", "sqlite:///:memory:"):
        yield
        return
    path = lock_path(db_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    f: IO[str] = path.open("a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            raise WorkerBusy(
                f"a pbem worker ({holder}) is already running on the SQLite database "
                f"{db_path}; SQLite takes one worker at a time (lock file {path}). Use "
                "PostgreSQL (DATABASE_URL) to run several.") from None
        f.seek(0)
        f.truncate()
        f.write(f"pid {os.getpid()} on {socket.gethostname()}\n")
        f.flush()
        try:
            yield
        finally:
            f.seek(0)
            f.truncate()
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
    finally:
        f.close()
