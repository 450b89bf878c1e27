"""Alembic's environment for pbem: migrate the connection `pbem.schema` hands over.

Only pbem's own tables are compared and migrated (`pbem.schema.include_object`);
other tables sharing the database are left alone.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

import pbem.store  # noqa: F401  (puts the models on SQLModel.metadata)
from pbem.schema import VERSION_TABLE, include_object

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("pbem's migrations run through pbem.schema, with a connection")




def render_item(type_: str, obj: Any, _context: Any) -> str | bool:
    """Autogenerate writes SQLModel's `str` columns as plain `sa.String()`."""
    if type_ == "type" and isinstance(obj, AutoString):
        return "sa.String()"
    return False


context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  version_table=VERSION_TABLE, include_object=include_object,
                  render_as_batch=True, render_item=render_item)
with context.begin_transaction():
    context.run_migrations()
