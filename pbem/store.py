"""Storage: games, seats, the append-only event log, inbound mails and the outbox.

SQLModel over SQLite (the default: one file, WAL mode) or PostgreSQL (when the URL
names one). Every change a mail causes is written in one transaction by
`pbem.moderator`: the mail's Message-ID and IMAP UID, the new events and the mails
to send. So a mail is either fully processed or not at all, and it is never
processed twice.

The event log is a hash chain, the engine's own (`engine.chain`): each row stores
`payload` (`engine.chain.canonical_json(event)`), `prev_hash` (the previous row's
`hash`, or `engine.chain.GENESIS` for the first event of a game) and
`hash = engine.chain.link(prev_hash, event, seed)`, i.e. sha256 over the previous
hash, a newline and the payload, with the hidden cards of private events sealed by
the game's seed. Anyone can recompute it from the rows and the seed once the seed is
revealed; nobody can before (docs/trust.md).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    LargeBinary,
    Row,
    Text,
    UniqueConstraint,
    bindparam,
    event,
    func,
    insert,
    inspect,
    or_,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.pool import StaticPool
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from engine.chain import GENESIS, canonical_json, link
from engine.registry import get_game as registered_game

from .errors import ConflictError, UnknownGameError
from .schema import VERSION_TABLE, Migration, migrate

GENESIS_HASH = GENESIS


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(dt: datetime | None) -> datetime | None:
    """A stored datetime as an aware UTC datetime (SQLite gives naive ones back)."""
    if dt is None:
        return None
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _ts(**kw: Any) -> Any:
    return Field(sa_column=Column(DateTime(timezone=True), **kw))


class Game(SQLModel, table=True):
    __tablename__ = "pbem_game"

    id: str = Field(primary_key=True)  # short name: the game's id prefix and a number
    game: str  # the registered game's name (engine.registry), e.g. its log [Game] tag
    variant: str = "standard"
    seed: str = ""  # secret until the game ends
    salt: str = ""  # for the published seed commitment (engine.chain.seed_commitment)
    created: datetime = _ts(nullable=False)
    version: int = 0  # events stored; the state version players quote as @vN
    finished: bool = False
    paused: bool = False
    # Deadline policy: hours per turn (0: no deadline), reminder lead, what happens late
    turn_hours: float = 0
    reminder_hours: float = 0
    late_policy: str = "wait"  # wait | auto
    deadline: datetime | None = _ts(nullable=True)
    reminded: bool = False
    late_notified: bool = False
    # When a deadline pass next has something to do for the game (`next_due`), kept
    # by the mapper on every write of the row; indexed, so a pass reads only due games.
    due_at: datetime | None = _ts(nullable=True, index=True)


def next_due(game: Game) -> datetime | None:
    """When a deadline pass next has something to do for `game`: its reminder time
    until it is reminded (with a reminder lead), then its deadline until the late
    policy has acted for good (`wait`: once the late notice is sent; `auto` acts at
    every pass while the deadline stands). None when finished, paused, or without a
    deadline."""
    deadline = as_utc(game.deadline)
    if game.finished or game.paused or deadline is None:
        return None
    if not game.reminded and game.reminder_hours > 0:
        return deadline - timedelta(hours=game.reminder_hours)
    if game.late_policy == "auto" or not game.late_notified:
        return deadline
    return None


@event.listens_for(Game, "before_insert")
@event.listens_for(Game, "before_update")
def _keep_due_at(_mapper: Any, _connection: Any, game: Game) -> None:
    game.due_at = next_due(game)


class Seat(SQLModel, table=True):
    __tablename__ = "pbem_seat"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="pbem_game.id", index=True)
    seat: int
    name: str  # the seat's name in the game and the notation; never changes
    person: str = ""  # who plays it now (a replacement changes this)
    email: str
    tz: str = "UTC"
    token: str = Field(unique=True, index=True)
    mailed_version: int = 0  # the version of the last status mail this seat was sent
    # how often the seat is mailed: every | turn | daily (pbem.mail_settings)
    mail: str = Field(default="every", sa_column_kwargs={"server_default": "every"},
                      index=True)
    # the language of the seat's mails: en | nl | el (pbem.i18n)
    language: str = Field(default="en", sa_column_kwargs={"server_default": "en"})


class SeatAddress(SQLModel, table=True):
    """A further address registered for a seat (the main one is `Seat.email`, where
    mails are sent). A command is played only from a registered address."""

    __tablename__ = "pbem_seat_address"
    __table_args__ = (UniqueConstraint("game_id", "seat", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="pbem_game.id", index=True)
    seat: int
    address: str = Field(index=True)  # lowercased


class GameAuth(SQLModel, table=True):
    """A game's demand on the moderator's Authentication-Results header: the From
    address must be aligned by `require` (dmarc, dkim or spf). No row: none."""

    __tablename__ = "pbem_game_auth"

    game_id: str = Field(foreign_key="pbem_game.id", primary_key=True)
    require: str = "none"


class StrangerReply(SQLModel, table=True):
    """When the moderator last answered an address registered for no seat."""

    __tablename__ = "pbem_stranger_reply"

    address: str = Field(primary_key=True)
    last_reply: datetime = _ts(nullable=False)


class EventRow(SQLModel, table=True):
    __tablename__ = "pbem_event"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="pbem_game.id", index=True)
    seq: int  # 0-based; the state after this event has version seq + 1
    type: str
    payload: str = Field(sa_column=Column(Text, nullable=False))
    prev_hash: str
    hash: str
    created: datetime = _ts(nullable=False)


class MoveRow(SQLModel, table=True):
    """The commands behind the events, for `pbem export`: one row per command,
    including the seeded deals and draws (seat -1)."""

    __tablename__ = "pbem_move"
    __table_args__ = (UniqueConstraint("game_id", "n"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="pbem_game.id", index=True)
    n: int  # 0-based order within the game
    seat: int  # -1: chance
    command: str  # canonical notation (notation.format_command)
    version: int  # state version the command was applied to
    source: str = ""  # mail Message-ID, "setup", "auto" (deadline) ...
    created: datetime = _ts(nullable=False)


class InboundMail(SQLModel, table=True):
    __tablename__ = "pbem_inbound"

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, index=True)
    imap_uid: str = Field(default="", index=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    received: datetime = _ts(nullable=False)
    sender: str = ""
    subject: str = ""
    game_id: str | None = None
    seat: int | None = None
    status: str = ""  # accepted | rejected | ignored
    note: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class PlayedMail(SQLModel, table=True):
    """Every accepted player mail by its content (`pbem.guard.mail_digest`): a mail
    sent again under a new Message-ID is found here and not played twice."""

    __tablename__ = "pbem_played_mail"
    __table_args__ = (UniqueConstraint("game_id", "digest"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="pbem_game.id", index=True)
    seat: int
    digest: str  # sha256 hex of (seat, commands, Date, In-Reply-To)
    version: int  # the version its commands were played at
    message_id: str = ""
    created: datetime = _ts(nullable=False)


class OutMail(SQLModel, table=True):
    __tablename__ = "pbem_outbox"

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, index=True)
    game_id: str | None = Field(default=None, index=True)
    kind: str = ""  # status | echo | error | private | notice | reminder
    to_addr: str
    subject: str
    text: str = Field(sa_column=Column(Text, nullable=False))
    html: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    headers: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    # The HTML part's inline picture (PNG, `pbem.mime.IMAGE_CID`), if it has one.
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    status: str = Field(default="pending", index=True)  # pending | sent | failed
    attempts: int = 0
    next_attempt: datetime = _ts(nullable=False)
    last_error: str = ""
    created: datetime = _ts(nullable=False)
    sent_at: datetime | None = _ts(nullable=True)
    # The send lease (`claim_due`): which worker's batch may send this row, until when.
    claimed_by: str = ""
    claimed_until: datetime | None = _ts(nullable=True)


class Snapshot(SQLModel, table=True):
    """A game's state after its last commit, with the undo protocol's tracker, so a
    new process (`pbem poll --once` from cron) need not replay the game
    (`pbem.snapshots`). Only a cache: valid while `version`, `moves` and `engine`
    match the game, its stored commands and the engine; a replay otherwise."""

    __tablename__ = "pbem_snapshot"

    game_id: str = Field(foreign_key="pbem_game.id", primary_key=True)
    version: int  # the game's version it shows
    moves: int  # the commands stored then (undo, agree and refuse add no events)
    engine: str  # `pbem.snapshots.engine_stamp` of the code that wrote it
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


TABLES = [Game.__table__, Seat.__table__, EventRow.__table__, MoveRow.__table__,
          InboundMail.__table__, OutMail.__table__, SeatAddress.__table__, GameAuth.__table__,
          StrangerReply.__table__, PlayedMail.__table__, Snapshot.__table__]


class Store:
    """A database: an engine plus table creation and transactions."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url, **kwargs)
        self._reader: Engine = self.engine if url.startswith("sqlite") else \
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    def create_all(self) -> Migration:
        """Create the tables, or upgrade them in place, to the newest schema revision
        (`pbem.schema.migrate`); cheap when the database is up to date."""
        return migrate(self.engine)

    def drop_all(self) -> None:
        """Drop pbem's tables and its schema revision (for tests)."""
        SQLModel.metadata.drop_all(self.engine, tables=TABLES)
        with self.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TABLE IF EXISTS {VERSION_TABLE}")

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose changes are committed at the end, or rolled back on error."""
        with Session(self.engine, expire_on_commit=False) as session:
            if self.is_sqlite:
                # Take the write lock up front: no deadlock between two readers upgrading.
                session.connection().exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session to read in. On PostgreSQL its statements run without a
        transaction around them (each sees what was committed when it began, as in
        a READ COMMITTED transaction, and one that writes commits at once): no BEGIN
        and no ROLLBACK to wait for."""
        with Session(self._reader, expire_on_commit=False) as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # pysqlite's own transaction handling would BEGIN on its own; we BEGIN explicitly.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    if cur.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        _set_wal(cur)
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _set_wal(cur: Any) -> None:
    """Switch a database to WAL (a setting kept in the file). Connections opened at
    once on a new file race for it, and SQLite answers "database is locked" at once,
    without its busy wait, to all but one: they try again until the winner is done."""
    for attempt in range(100):
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or attempt == 99:
                raise
            time.sleep(0.05)


# --------------------------------------------------------------------------- games


def get_game(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise UnknownGameError(f"no game {game_id!r}")
    return game


def seats_of(session: Session, game_id: str) -> list[Seat]:
    """The game's seats in order (as `seat_by_token` read them in this session, if it
    did)."""
    known = session.info.get(("seats", game_id))
    if known is not None:
        return list(known[0])
    return list(session.exec(select(Seat).where(Seat.game_id == game_id).order_by(
        col(Seat.seat))))


_TOKEN_GAME = select(Seat.game_id).where(Seat.token == bindparam("token")) \
    .correlate(None).scalar_subquery()
_SEATS_BY_TOKEN = select(Seat, Game, GameAuth.require, SeatAddress.address,
                         select(func.count()).select_from(MoveRow)
                         .where(MoveRow.game_id == _TOKEN_GAME).correlate(None)
                         .scalar_subquery()) \
    .join(Game, col(Game.id) == col(Seat.game_id)) \
    .outerjoin(GameAuth, col(GameAuth.game_id) == col(Seat.game_id)) \
    .outerjoin(SeatAddress, (col(SeatAddress.game_id) == col(Seat.game_id))
               & (col(SeatAddress.seat) == col(Seat.seat))) \
    .where(Seat.game_id == _TOKEN_GAME) \
    .order_by(col(Seat.seat), col(SeatAddress.id))
"""A game's seats, row, sender check, further addresses and stored commands, by a
seat's token (built once)."""


def seat_by_token(session: Session, token: str) -> Seat | None:
    """The seat with this token. Its game's seats, row, sender check, further
    addresses and number of stored commands are read in the same query and kept for
    the session: `seats_of`, `get_game`, `required_auth`, `seat_addresses` and
    `count_moves` answer from them without asking the database again."""
    rows = session.exec(_SEATS_BY_TOKEN, params={"token": token}).all()
    if not rows:
        return None
    by_no: dict[int, Seat] = {}
    extra: dict[int, list[str]] = {}
    for seat, _, _, address, _ in rows:
        by_no[seat.seat] = seat
        more = extra.setdefault(seat.seat, [])
        if address is not None:
            more.append(address)
    seats, game = list(by_no.values()), rows[0][1]
    session.info[("seats", game.id)] = (seats, game)  # held: the identity map keeps them
    session.info[("auth", game.id)] = "none" if rows[0][2] is None else rows[0][2]
    session.info[("addresses", game.id)] = extra
    session.info.setdefault(("moves", game.id), int(rows[0][4]))
    return next((x for x in seats if x.token == token), None)


def seat_addresses(session: Session, seat: Seat) -> list[str]:
    """Every address registered for a seat, the main one first (as `seat_by_token`
    read them in this session, if it did)."""
    known = session.info.get(("addresses", seat.game_id))
    extra = known.get(seat.seat, ()) if known is not None else session.exec(
        select(SeatAddress.address).where(SeatAddress.game_id == seat.game_id)
        .where(SeatAddress.seat == seat.seat).order_by(col(SeatAddress.id)))
    return [seat.email, *(a for a in extra if a != seat.email)]


def is_registered(session: Session, address: str) -> bool:
    """Whether an address is registered for any seat of any game."""
    if session.exec(select(Seat.id).where(Seat.email == address)).first() is not None:
        return True
    return session.exec(select(SeatAddress.id).where(SeatAddress.address == address)
                        ).first() is not None


def required_auth(session: Session, game_id: str) -> str:
    """The game's Authentication-Results demand: none, dmarc, dkim or spf."""
    known = session.info.get(("auth", game_id))
    if known is not None:
        return str(known)
    row = session.get(GameAuth, game_id)
    return row.require if row is not None else "none"


def active_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).where(col(Game.finished).is_(False))))


def load_events(session: Session, game_id: str, start: int = 0,
                stop: int | None = None) -> list[Any]:
    """A stored game's events (those with `start <= seq < stop`), decoded by its
    game's codec.

    Raises:
        UnknownGameError: no such game.
    """
    row = get_game(session, game_id)
    from_dict = registered_game(row.game).from_dict
    q = select(EventRow.payload).where(EventRow.game_id == game_id)
    if start:
        q = q.where(EventRow.seq >= start)
    if stop is not None:
        q = q.where(EventRow.seq < stop)
    return [from_dict(json.loads(payload)) for payload in session.exec(q.order_by(
        col(EventRow.seq)))]


def head_hash(session: Session, game_id: str, version: int) -> str:
    """The chain hash after `version` events (GENESIS for 0)."""
    if version == 0:
        return GENESIS
    known = session.info.get(("head", game_id, version))
    if known is not None:
        return str(known)
    h = session.exec(select(EventRow.hash).where(EventRow.game_id == game_id)
                     .where(EventRow.seq == version - 1)).first()
    return h or GENESIS


def event_rows(session: Session, game_id: str) -> list[EventRow]:
    return list(session.exec(select(EventRow).where(EventRow.game_id == game_id)
                             .order_by(col(EventRow.seq))))


_GAME = Game.__table__
_MOVE_ON = update(_GAME).where(_GAME.c.id == bindparam("b_id")) \
    .where(_GAME.c.version == bindparam("b_from")).values(version=bindparam("b_to"))
"""The compare-and-set of a game's version (one statement, built once)."""
_ADD_EVENTS = insert(EventRow.__table__)


def append_events(session: Session, game: Game, events: Sequence[Any],
                  now: datetime) -> str:
    """Append events to a game's log, chained to the last stored hash.

    The game's version moves from the value it had when read to that plus
    len(events) with a compare-and-set, so of two concurrent writers one fails.

    Returns the chain hash after the last event.

    Raises:
        ConflictError: the game moved on since it was read.
    """
    start = game.version
    if not events:
        return head_hash(session, game.id, start)
    last = session.info.get(("head", game.id, start)) if start else None
    if last is None and start:
        last = session.exec(select(EventRow.hash).where(EventRow.game_id == game.id)
                            .where(EventRow.seq == start - 1)).first()
    prev = last if last is not None else GENESIS_HASH
    if inspect(game).pending:  # a new game's row first (its events refer to it)
        session.flush()
    result = session.connection().execute(
        _MOVE_ON, {"b_id": game.id, "b_from": start, "b_to": start + len(events)})
    if result.rowcount != 1:
        raise ConflictError(f"game {game.id} moved on from version {start}")
    rows = []
    for i, e in enumerate(events):
        h = link(prev, e, game.seed)
        rows.append({"game_id": game.id, "seq": start + i, "type": type(e).__name__,
                     "payload": canonical_json(e), "prev_hash": prev, "hash": h,
                     "created": now})
        prev = h
    session.connection().execute(_ADD_EVENTS, rows)
    set_committed_value(game, "version", start + len(events))  # as stored
    known_head(session, game.id, game.version, prev)
    return prev


def known_head(session: Session, game_id: str, version: int, digest: str) -> None:
    """The chain hash after `version` events, known to this session (`head_hash`)."""
    session.info[("head", game_id, version)] = digest


def moves_of(session: Session, game_id: str) -> list[MoveRow]:
    return list(session.exec(select(MoveRow).where(MoveRow.game_id == game_id)
                             .order_by(col(MoveRow.n))))


_COUNT_MOVES = select(func.count()).select_from(MoveRow) \
    .where(MoveRow.game_id == bindparam("game_id"))


def count_moves(session: Session, game_id: str) -> int:
    """How many commands the game has stored (counted once per session; `moves_added`
    keeps the count as the session adds more)."""
    known = session.info.get(("moves", game_id))
    if known is not None:
        return int(known)
    n = int(session.exec(_COUNT_MOVES, params={"game_id": game_id}).one())
    session.info[("moves", game_id)] = n
    return n


def moves_added(session: Session, game_id: str, n: int) -> None:
    """The game has `n` commands stored now, with those this session added."""
    session.info[("moves", game_id)] = n


# --------------------------------------------------------------------------- mail


def find_inbound(session: Session, message_id: str) -> InboundMail | None:
    return session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).first()


def queue(session: Session, mail: OutMail) -> OutMail:
    session.add(mail)
    return mail


def due_mails(session: Session, now: datetime, limit: int = 100) -> list[OutMail]:
    """Pending rows due by `now` whose send lease is free or expired."""
    return list(session.exec(_due(now).limit(limit)))


def _due(now: datetime, *what: Any) -> Any:
    return (select(*(what or (OutMail,))).where(OutMail.status == "pending")
            .where(col(OutMail.next_attempt) <= now)
            .where(or_(col(OutMail.claimed_until).is_(None), col(OutMail.claimed_until) <= now))
            .order_by(col(OutMail.id)))


OUTBOX = OutMail.__table__
"""The outbox table, for the statements that claim and mark its rows without ORM objects."""

MailRow = OutMail | Row[Any]
"""An outbox row: the ORM object, or its columns as `claim_due` returns them."""


@contextmanager
def writing(store: Store) -> Iterator[Connection]:
    """A connection in a transaction committed at the end, or rolled back on error
    (on SQLite holding the write lock from the start, as `Store.transaction`)."""
    with store.engine.begin() as conn:
        if store.is_sqlite:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn


def claim_due(store: Store, now: datetime, limit: int, claim: str,
              lease: timedelta, share: int = 0) -> list[Row[Any]]:
    """Claim up to `limit` due outbox rows for one batch and commit the claim; the
    claimed rows' columns (read-only rows, no ORM objects), in id order.

    One UPDATE of the rows its subquery chooses, returning them: the rows are chosen
    with `FOR UPDATE SKIP LOCKED` (on SQLite the transaction's write lock serialises
    claims instead), so of several workers each row goes to one; the lease
    (`claimed_by = claim`, `claimed_until = now + lease`) keeps it from the others
    after the commit, until it expires (a killed worker's rows are taken over then).
    On PostgreSQL the statement is committed on its own (no transaction around it).

    `share` > 0: take at most half of the rows due (rounded up), and never fewer than
    `share`, so that the last rows of a backlog are split among the workers sending
    them instead of going to one in a batch of `limit` (the count is part of the
    same statement).
    """
    size: Any = limit
    if share > 0:
        due = _due(now, func.count()).order_by(None).scalar_subquery()
        size = func.least(limit, func.greatest(share, (due + 1) // 2)) if not store.is_sqlite \
            else func.min(limit, func.max(share, (due + 1) // 2))
    chosen = _due(now, OutMail.id).limit(size).with_for_update(skip_locked=True)
    claiming = (update(OUTBOX).where(OUTBOX.c.id.in_(chosen))
                .values(claimed_by=claim, claimed_until=now + lease).returning(*OUTBOX.c))
    if store.is_sqlite:
        with writing(store) as conn:
            rows = conn.execute(claiming).all()
    else:
        with store._reader.connect() as conn:  # autocommit: the one statement alone
            rows = conn.execute(claiming).all()
    return sorted(rows, key=lambda row: int(row.id))


def release_claim(store: Store, claim: str) -> int:
    """Free the rows a batch claimed and did not finish (its sending failed)."""
    with store.transaction() as s:
        result = s.execute(
            update(OutMail).where(col(OutMail.claimed_by) == claim)
            .where(col(OutMail.status) == "pending").values(claimed_by="", claimed_until=None))
        return int(result.rowcount)  # type: ignore[attr-defined]
