"""A game's options live in its first event only: the games table loses the one
option column it had.

Revision 0001 stored the only option of the first game pbem hosted as a column of
its own. Options differ by game, and every game's options are recorded in its first
event (`engine.protocol.Game.setup`), which export, verify and the moderator read;
nothing read the column. Dropping it keeps no game's words in the shared schema.
SQLite has dropped columns in place since 3.35 (Python 3.11 ships a newer one).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

OLD_COLUMN = "money_open"  # revision 0001's column, by its name then


def upgrade() -> None:
    op.execute(f"ALTER TABLE pbem_game DROP COLUMN {OLD_COLUMN}")


def downgrade() -> None:
    op.add_column("pbem_game", sa.Column(OLD_COLUMN, sa.Boolean(), nullable=False,
                                         server_default=sa.false()))
