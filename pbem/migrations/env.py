"""Alembic's environment for pbem: migrate the connection `pbem.schema` hands over.

Only pbem's own tables are compared and migrated (`pbem.schema.include_object`);
other tables sharing the database are left alone.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import pbem.store  # noqa: F401  (puts the models on SQLModel.metadata)
from pbem.schema import VERSION_TABLE, include_object

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("pbem's migrations run through pbem.schema, with a connection")


context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  version_table=VERSION_TABLE, include_object=include_object,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
