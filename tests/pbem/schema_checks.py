"""Checks of the migrations that run on any database URL: SQLite in tests/pbem,
PostgreSQL in tests/integration (the same functions)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Integer, MetaData, Table, inspect
from sqlalchemy import select as select_columns
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, col, select

from pbem import schema
from pbem.schema import VERSION_TABLE, Migration, include_object
from pbem.store import TABLES, EventRow, Game, OutMail, Seat, Store, as_utc, next_due

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator
from .helpers import keep_line, run, send, state_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "schema"
# The first release's tables, parents first.
RELEASE_TABLES = ("pbem_game", "pbem_seat", "pbem_event", "pbem_move", "pbem_inbound",
                  "pbem_outbox")


def schema_diff(engine: Engine) -> list[object]:
    """What alembic's autogenerate would change to make the database match the models."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={
            "compare_type": True, "include_object": include_object,
            "version_table": VERSION_TABLE})
        return list(compare_metadata(context, SQLModel.metadata))


def make_release_database(url: str) -> str:
    """A database as the first release made it (its own DDL, no version table), holding
    a game just dealt by a moderator: seats, events, moves and pending outbox rows.
    Returns the game's id."""
    store = Store(url)
    store.drop_all()
    ddl = (FIXTURES / f"first_release_{store.engine.dialect.name}.sql").read_text()
    with store.engine.begin() as conn:
        for statement in ddl.split(";"):
            if "CREATE" in statement:
                conn.exec_driver_sql(statement)
    game_id = _copy_a_new_game(store, RELEASE_TABLES)
    store.dispose()
    return game_id


def _copy_a_new_game(store: Store, tables: tuple[str, ...]) -> str:
    """Deal a game with today's code in memory and copy its rows into `store`'s
    `tables` (the columns the database has only). Returns the game's id."""
    source = make_moderator()  # a game played by today's code, in memory
    game_id = source.new_game(PLAYERS, NOW, game_id="pof-1", seed="release-seed")
    legacy = MetaData()
    with store.engine.begin() as dst, source.store.engine.connect() as src:
        for name in tables:
            table = Table(name, legacy, autoload_with=dst)  # the database's columns only
            model = SQLModel.metadata.tables[name]
            # Serial ids are left to the database, which numbers them as the release did.
            wanted = [model.c[c.name] for c in table.columns if c.name in model.c
                      and not (c.name == "id" and isinstance(c.type, Integer))]
            # Columns a later revision dropped (revision 0004: the first game's one
            # option column, a NOT NULL flag) get what the old code wrote by default.
            dropped = {c.name: False for c in table.columns if c.name not in model.c}
            query = select_columns(*wanted).order_by(*model.primary_key.columns)
            rows = [dict(r._mapping) | dropped for r in src.execute(query)]
            if rows:
                dst.execute(table.insert(), rows)
    source.store.dispose()
    return game_id


def make_revision_database(url: str, revision: str) -> str:
    """A database the migrations brought to `revision` (an older pbem's newest),
    holding a game just dealt. Returns the game's id."""
    store = Store(url)
    store.drop_all()
    with store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # as pbem.schema.migrate does
        command.upgrade(schema.alembic_config(conn), revision)
        conn.commit()
    have = set(inspect(store.engine).get_table_names())
    game_id = _copy_a_new_game(store, tuple(t.name for t in TABLES if t.name in have))
    store.dispose()
    return game_id


def rows_of(engine: Engine) -> dict[str, list[dict[str, object]]]:
    """Every row of every pbem table, as the database holds them, in key order."""
    found = MetaData()
    found.reflect(engine, only=lambda name, _: name.startswith("pbem_"))
    with engine.connect() as conn:
        return {name: [dict(r._mapping) for r in conn.execute(
                    table.select().order_by(*table.primary_key.columns))]
                for name, table in found.tables.items()}


def upgrade_to_game_name_in_place(url: str, game_id: str) -> None:
    """A database at revision 0002 (before each game named its game) is upgraded in
    place: every row keeps its values, the games are games of the first game, and the
    moderator plays on."""
    store = Store(url)
    before = rows_of(store.engine)
    assert "game" not in before["pbem_game"][0]
    done = store.create_all()
    assert (done.before, done.after, done.from_legacy) == ("0002", schema.HEAD, False)
    assert schema_diff(store.engine) == []
    after = rows_of(store.engine)
    assert [g.pop("game") for g in after["pbem_game"]] == ["princes-of-florence"]
    assert [g.pop("money_open") for g in before["pbem_game"]] == [False]  # dropped by 0004
    assert [g.pop("due_at") for g in after["pbem_game"]] == [None]  # 0005: no deadline
    assert after.pop(VERSION_TABLE) == [{"version_num": schema.HEAD}]
    assert after.pop("pbem_snapshot") == []  # 0006's, empty until a game's next commit
    assert [x.pop("mail") for x in after["pbem_seat"]] == ["every"] * 3  # 0007's default
    assert [x.pop("language") for x in after["pbem_seat"]] == ["en"] * 3  # 0008's default
    assert {m.pop("image") for m in after["pbem_outbox"]} == {None}  # 0009: no picture
    before.pop(VERSION_TABLE)
    assert after == before and before["pbem_event"] and before["pbem_outbox"]
    with store.read() as s:
        game = s.get(Game, game_id)
        assert game is not None and game.game == "princes-of-florence"
    store.dispose()
    upgrade_and_play_on(url, game_id)


# (deadline in hours from NOW or None, reminder_hours, late_policy, reminded,
#  late_notified, paused, finished) -> due_at in hours from NOW, or None
DUE_CASES = {
    "to-remind": ((48, 12, "wait", False, False, False, False), 36),
    "reminded": ((48, 12, "wait", True, False, False, False), 48),
    "no-reminder": ((-1, 0, "wait", False, False, False, False), -1),
    "late-told": ((-1, 12, "wait", True, True, False, False), None),
    "late-auto": ((-1, 12, "auto", True, True, False, False), -1),
    "paused": ((5, 1, "wait", False, False, True, False), None),
    "finished": ((5, 1, "wait", False, False, False, True), None),
    "no-deadline": ((None, 12, "wait", False, False, False, False), None),
}


def upgrade_fills_due_at(url: str) -> None:
    """A database at revision 0004 holding games in every deadline state is upgraded
    in place: each game's `due_at` is what the moderator would store for it now
    (`pbem.store.next_due`), and the deadline pass finds the due ones by it."""
    game_id = make_revision_database(url, "0004")
    store = Store(url)
    table = Table("pbem_game", MetaData(), autoload_with=store.engine)
    with store.engine.begin() as conn:
        template = dict(conn.execute(table.select()).one()._mapping)
        for name, ((hours, lead, policy, reminded, told, paused, finished), _) \
                in DUE_CASES.items():
            conn.execute(table.insert(), [template | {
                "id": name, "reminder_hours": lead, "late_policy": policy,
                "deadline": None if hours is None else NOW + timedelta(hours=hours),
                "reminded": reminded, "late_notified": told, "paused": paused,
                "finished": finished}])
    assert store.create_all().before == "0004"
    assert schema_diff(store.engine) == []
    with store.read() as s:
        games = {g.id: g for g in s.exec(select(Game))}
    stored = {k: as_utc(g.due_at) for k, g in games.items()}
    assert stored == {game_id: None} | {
        k: None if due is None else NOW + timedelta(hours=due)
        for k, (_, due) in DUE_CASES.items()}
    assert all(as_utc(g.due_at) == next_due(g) for g in games.values())
    with store.read() as s:
        found = set(s.exec(select(Game.id).where(col(Game.due_at) <= NOW)))
    assert found == {"no-reminder", "late-auto"}
    store.dispose()


def upgrade_gives_every_seat_every(url: str) -> None:
    """A database at revision 0006 (before the mail settings) is upgraded in place:
    every seat of its game is mailed as before (`every`), every other value stays,
    and a seat's setting is then stored and read back."""
    game_id = make_revision_database(url, "0006")
    store = Store(url)
    before = rows_of(store.engine)
    assert "mail" not in before["pbem_seat"][0]
    assert store.create_all().before == "0006"
    assert schema_diff(store.engine) == []
    after = rows_of(store.engine)
    assert [x.pop("mail") for x in after["pbem_seat"]] == ["every"] * len(PLAYERS)
    assert [x.pop("language") for x in after["pbem_seat"]] == ["en"] * len(PLAYERS)
    assert {m.pop("image") for m in after["pbem_outbox"]} == {None}  # 0009: no picture
    after.pop(VERSION_TABLE)
    before.pop(VERSION_TABLE)
    assert after == before
    with store.transaction() as s:
        seat = s.exec(select(Seat).where(Seat.game_id == game_id)
                      .where(Seat.seat == 1)).one()
        seat.mail = "daily"
        s.add(seat)
    store.dispose()
    store = Store(url)
    with store.read() as s:
        assert [x.mail for x in s.exec(select(Seat).where(Seat.game_id == game_id)
                                       .order_by(col(Seat.seat)))] == ["every", "daily", "every"]
    store.dispose()
    upgrade_and_play_on(url, game_id)


def upgrade_gives_every_seat_english(url: str) -> None:
    """A database at revision 0007 (before the languages) is upgraded in place: every
    seat of its game reads English as before, every other value stays, and a seat's
    language is then stored and read back by a new store."""
    game_id = make_revision_database(url, "0007")
    store = Store(url)
    before = rows_of(store.engine)
    assert "language" not in before["pbem_seat"][0]
    assert store.create_all().before == "0007"
    assert schema_diff(store.engine) == []
    after = rows_of(store.engine)
    assert [x.pop("language") for x in after["pbem_seat"]] == ["en"] * len(PLAYERS)
    assert {m.pop("image") for m in after["pbem_outbox"]} == {None}  # 0009: no picture
    after.pop(VERSION_TABLE)
    before.pop(VERSION_TABLE)
    assert after == before
    with store.transaction() as s:
        seat = s.exec(select(Seat).where(Seat.game_id == game_id)
                      .where(Seat.seat == 2)).one()
        seat.language = "el"
        s.add(seat)
    store.dispose()
    store = Store(url)
    with store.read() as s:
        assert [x.language for x in s.exec(select(Seat).where(Seat.game_id == game_id)
                                           .order_by(col(Seat.seat)))] == ["en", "en", "el"]
    store.dispose()
    upgrade_and_play_on(url, game_id)


def upgrade_and_play_on(url: str, game_id: str) -> None:
    """Open a moderator on a release database: it is upgraded in place, its pending
    mails are sent and a player's move is played."""
    mod = make_moderator(url)  # Store.create_all: stamp at the baseline, upgrade
    assert schema_diff(mod.store.engine) == []
    with mod.store.read() as s:
        game = s.get(Game, game_id)
        assert game is not None and game.version > 0
        pending = list(s.exec(select(OutMail).where(OutMail.status == "pending")))
        events = len(list(s.exec(select(EventRow).where(EventRow.game_id == game_id))))
    assert pending and all(m.claimed_by == "" and m.claimed_until is None for m in pending)
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    run(mod, mailbox, smtp)  # the mails queued before the upgrade go out
    assert {str(m["Message-ID"]) for m in smtp.sent} >= {m.message_id for m in pending}
    state = state_of(mod, game_id)
    assert state.version == events
    send(mailbox, smtp, "anna@example.org", f"@v{state.version}\n{keep_line(state, 0)}\n")
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["accepted"]
    assert state_of(mod, game_id).version == state.version + 1
    assert {str(m["To"]) for m in smtp.sent} == {p.email for p in PLAYERS}
    mod.store.dispose()


def openers_migrate_once(url: str, openers: int = 4) -> None:
    """`openers` stores opened at once on a new database: exactly one migrates it, the
    others find it up to date, none fails, and the schema equals the models."""
    results: list[Migration] = []
    errors: list[BaseException] = []
    start = threading.Barrier(openers)

    def open_store() -> None:
        store = Store(url)
        start.wait()
        try:
            results.append(store.create_all())
        except BaseException as e:  # reported below
            errors.append(e)
        finally:
            store.dispose()

    threads = [threading.Thread(target=open_store) for _ in range(openers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(r.before is None for r in results) == [False] * (openers - 1) + [True]
    store = Store(url)
    assert schema_diff(store.engine) == []
    store.dispose()
