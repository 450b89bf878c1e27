"""Each seat's language: en | nl | el (`pbem.i18n`).

Existing seats get `en`, the language every mail had before (the server default
fills them, so nothing is read or written row by row).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pbem_seat") as batch:
        batch.add_column(sa.Column("language", sa.String(), server_default="en",
                                   nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("pbem_seat") as batch:
        batch.drop_column("language")
