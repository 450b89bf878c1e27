"""The migrations (pbem.schema, pbem/migrations) on SQLite: a new database, one made
by the first release, one made between the release and the migrations, two
processes starting at once. The same checks run on PostgreSQL in
tests/integration/test_schema_postgres.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import Column, String, inspect
from sqlmodel import SQLModel

from pbem import schema
from pbem.errors import StoreError
from pbem.store import TABLES, Store

from .schema_checks import (
    make_release_database,
    make_revision_database,
    openers_migrate_once,
    schema_diff,
    upgrade_and_play_on,
    upgrade_fills_due_at,
    upgrade_gives_every_seat_english,
    upgrade_gives_every_seat_every,
    upgrade_to_game_name_in_place,
)


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'pbem.sqlite'}"


def test_head_constant_is_the_newest_migration() -> None:
    scripts = ScriptDirectory.from_config(schema.alembic_config())
    assert scripts.get_current_head() == schema.HEAD
    assert scripts.get_base() == schema.BASELINE


def test_new_database_is_created_by_the_migrations_and_matches_the_models(tmp_path) -> None:
    store = Store(sqlite_url(tmp_path))
    done = store.create_all()
    assert (done.before, done.after) == (None, schema.HEAD)
    assert done.describe() == f"database created at revision {schema.HEAD}"
    assert schema_diff(store.engine) == []
    assert set(inspect(store.engine).get_table_names()) == \
        {t.name for t in TABLES} | {schema.VERSION_TABLE}


def test_schema_diff_sees_a_model_without_a_migration(tmp_path) -> None:
    # The compare test above fails when a model changes and no migration follows.
    store = Store(sqlite_url(tmp_path))
    store.create_all()
    table = SQLModel.metadata.tables["pbem_game"]
    extra = Column("engine_name", String(), nullable=False, server_default="pof")
    table.append_column(extra)
    try:
        diff = schema_diff(store.engine)
    finally:
        table._columns.remove(extra)  # leave the models as they were
    assert [d[0] for d in diff] == ["add_column"]  # type: ignore[index]
    assert schema_diff(store.engine) == []


def test_up_to_date_database_is_a_cheap_no_op(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    Store(url).create_all()
    # A new process, as every `pbem` command is: opening an up-to-date database reads
    # the version table and does not even load alembic.
    probe = ("import sys; from pbem.store import Store; "
             f"print(Store({url!r}).create_all().describe(), 'alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out == f"database up to date at revision {schema.HEAD} False\n"


def test_release_database_with_a_game_upgrades_in_place_and_plays_on(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    game_id = make_release_database(url)
    store = Store(url)
    assert schema.VERSION_TABLE not in inspect(store.engine).get_table_names()
    # the tables of 0002 (addresses, auth, replies, played mails) and 0006 (snapshots)
    assert [d[0] for d in schema_diff(store.engine) if isinstance(d, tuple)].count(
        "add_table") == 5
    done = store.create_all()
    assert (done.before, done.after, done.from_legacy) == (schema.BASELINE, schema.HEAD, True)
    assert done.describe() == (f"database upgraded from revision {schema.BASELINE} "
                               f"(made before migrations) to {schema.HEAD}")
    store.dispose()
    upgrade_and_play_on(url, game_id)


def test_database_at_0002_gets_each_games_game_in_place(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    upgrade_to_game_name_in_place(url, make_revision_database(url, "0002"))


def test_database_at_0004_gets_each_games_due_time_in_place(tmp_path) -> None:
    upgrade_fills_due_at(sqlite_url(tmp_path))


def test_database_at_0006_gets_every_seats_mail_setting_in_place(tmp_path) -> None:
    upgrade_gives_every_seat_every(sqlite_url(tmp_path))


def test_database_at_0007_gets_every_seats_language_in_place(tmp_path) -> None:
    upgrade_gives_every_seat_english(sqlite_url(tmp_path))


def test_database_made_between_release_and_migrations_is_upgraded(tmp_path) -> None:
    # create_all before the migrations made whatever the models held then: here all
    # of today's tables but the send lease's columns (and the game's game, its due
    # time, the snapshots, the seats' mail settings and languages and the outbox's
    # pictures, which came after the migrations), with the option column the models
    # had then.
    store = Store(sqlite_url(tmp_path))
    SQLModel.metadata.create_all(store.engine, tables=TABLES)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE pbem_game DROP COLUMN game")
        conn.exec_driver_sql("DROP INDEX ix_pbem_game_due_at")  # came with 0005
        conn.exec_driver_sql("ALTER TABLE pbem_game DROP COLUMN due_at")
        conn.exec_driver_sql("DROP TABLE pbem_snapshot")  # came with 0006
        conn.exec_driver_sql("DROP INDEX ix_pbem_seat_mail")  # came with 0007
        conn.exec_driver_sql("ALTER TABLE pbem_seat DROP COLUMN mail")
        conn.exec_driver_sql("ALTER TABLE pbem_seat DROP COLUMN language")  # came with 0008
        conn.exec_driver_sql("ALTER TABLE pbem_outbox DROP COLUMN image")  # came with 0009
        # the models of then held the first game's option column (dropped by 0004)
        conn.exec_driver_sql("ALTER TABLE pbem_game ADD COLUMN money_open BOOLEAN "
                             "NOT NULL DEFAULT 0")
        conn.exec_driver_sql("ALTER TABLE pbem_outbox DROP COLUMN claimed_until")
        conn.exec_driver_sql("ALTER TABLE pbem_outbox DROP COLUMN claimed_by")
    done = store.create_all()
    assert done.from_legacy and done.after == schema.HEAD
    assert schema_diff(store.engine) == []


def test_four_openers_at_once_migrate_once(tmp_path) -> None:
    openers_migrate_once(sqlite_url(tmp_path))


def test_downgrade_to_nothing_and_up_again(tmp_path) -> None:
    store = Store(sqlite_url(tmp_path))
    store.create_all()
    with store.engine.connect() as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        command.downgrade(schema.alembic_config(conn), "base")
        conn.commit()
    assert inspect(store.engine).get_table_names() == [schema.VERSION_TABLE]
    assert store.create_all().before is None
    assert schema_diff(store.engine) == []


def test_database_from_a_newer_pbem_is_refused(tmp_path) -> None:
    store = Store(sqlite_url(tmp_path))
    store.create_all()
    with store.engine.begin() as conn:
        conn.exec_driver_sql(f"UPDATE {schema.VERSION_TABLE} SET version_num = '9999'")
    with pytest.raises(StoreError, match="revision 9999.*newer pbem"):
        store.create_all()


def test_drop_all_drops_the_version_table_too(tmp_path) -> None:
    store = Store(sqlite_url(tmp_path))
    store.create_all()
    store.drop_all()
    assert inspect(store.engine).get_table_names() == []
    assert store.create_all().before is None
