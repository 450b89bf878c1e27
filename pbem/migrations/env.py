"""Alembic's environment for pbem: migrate the connection `pbem.schema` hands over.

Only pbem's own tables are compared and migrated; other tables sharing the
database are left alone.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlmodel import SQLModel

from pbem.schema import VERSION_TABLE
from pbem.store import TABLES

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("pbem's migrations run through pbem.schema, with a connection")


OURS = {t.name for t in TABLES}


def include_name(name: str | None, type_: str, _parent: Any) -> bool:
    """Only pbem's tables (a shared database may hold others)."""
    return type_ != "table" or name in OURS


context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  version_table=VERSION_TABLE, include_name=include_name,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
