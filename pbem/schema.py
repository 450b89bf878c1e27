"""The database schema's revision: bring a database to the newest one with alembic.

The migrations live in the package (`pbem/migrations/versions/`), so an installed
pbem migrates too; alembic is configured here, without an alembic.ini. The revision
a database is at is kept in the table `pbem_alembic_version` (pbem's prefix, so a
database shared with another alembic user keeps the two apart).

`migrate` is called whenever a moderator opens the database (`Store.create_all`):
an up-to-date database costs one look at the version table; a new one is created by
the migrations; one made before the migrations (tables, no version table) is
stamped at the baseline and upgraded in place. Of two processes starting at once
only one migrates: on PostgreSQL an advisory lock, on SQLite the write lock of
`BEGIN IMMEDIATE` is held around the upgrade, and the revision is read again under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import Engine

from .errors import StoreError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "pbem_alembic_version"
BASELINE = "0001"  # the schema of the first release, made by create_all before migrations
HEAD = "0009"  # the newest revision in migrations/versions (tests/pbem/test_schema.py checks)
_LEGACY_TABLE = "pbem_game"
_PG_LOCK_KEY = 0x70_62_65_6D_73_63_68  # "pbemsch": pg_advisory_xact_lock's key


@dataclass(frozen=True)
class Migration:
    """What `migrate` did: the revision before (None: no pbem tables yet) and after."""

    before: str | None
    after: str
    from_legacy: bool = False  # the database predates the migrations (stamped at BASELINE)

    @property
    def changed(self) -> bool:
        return self.before != self.after or self.from_legacy

    def describe(self) -> str:
        if self.before is None:
            return f"database created at revision {self.after}"
        if not self.changed:
            return f"database up to date at revision {self.after}"
        origin = f"{self.before} (made before migrations)" if self.from_legacy else self.before
        return f"database upgraded from revision {origin} to {self.after}"


def include_object(_obj: Any, name: str | None, type_: str, _reflected: bool,
                   _compare_to: Any) -> bool:
    """Alembic's filter: only pbem's tables (a shared database may hold others)."""
    return type_ != "table" or (name or "").startswith("pbem_")


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for pbem's migrations, run on `connection`."""
    # alembic is imported only when a migration runs: it adds ~0.15 s to every command.
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("version_table", VERSION_TABLE)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def current(connection: Connection) -> str | None:
    """The revision the database is at; None when it has no version table."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    found = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return str(found) if found is not None else None


def migrate(engine: Engine) -> Migration:
    """Bring the database to `HEAD`; see the module's docstring."""
    target = HEAD
    with engine.connect() as conn:
        if current(conn) == target:
            return Migration(target, target)
    from alembic import command
    from alembic.util import CommandError

    with engine.connect() as conn:
        _lock(conn)
        before = current(conn)
        legacy = before is None and inspect(conn).has_table(_LEGACY_TABLE)
        try:
            if legacy:
                command.stamp(alembic_config(conn), BASELINE)
                before_known: str | None = BASELINE
            else:
                before_known = before
            if before_known != target:
                command.upgrade(alembic_config(conn), "head")
        except CommandError as e:
            raise StoreError(f"the database is at schema revision {before}, which this pbem "
                             f"does not know (made by a newer pbem?): {e}") from e
        conn.commit()
    return Migration(before_known, target, from_legacy=legacy)


def _lock(conn: Connection) -> None:
    """Hold the migration lock until `conn` commits or rolls back."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
    elif conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
