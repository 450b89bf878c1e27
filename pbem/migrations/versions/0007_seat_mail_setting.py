"""Each seat's mail setting: every | turn | daily (`pbem.mail_settings`).

Existing seats get `every`, what every seat had before (the server default fills
them, so nothing is read or written row by row). Indexed: the deadline pass looks
up the `daily` seats for their digest.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pbem_seat") as batch:
        batch.add_column(sa.Column("mail", sa.String(), server_default="every",
                                   nullable=False))
        batch.create_index("ix_pbem_seat_mail", ["mail"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("pbem_seat") as batch:
        batch.drop_index("ix_pbem_seat_mail")
        batch.drop_column("mail")
