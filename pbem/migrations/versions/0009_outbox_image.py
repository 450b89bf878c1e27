"""The outbox's inline pictures: a status mail's HTML part may show a picture of the
board (`pbem.presenter.board_png`), sent with it as an inline image part.

Rows queued before this revision have none and are sent as before.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pbem_outbox") as batch:
        batch.add_column(sa.Column("image", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pbem_outbox") as batch:
        batch.drop_column("image")
