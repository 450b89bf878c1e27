"""Each game's game: the registered game's name (`engine.registry`), now that pbem
hosts more than one.

Every game stored before this revision is a game of The Princes of Florence, the
only game pbem had, so existing rows are filled with that name. It is written here
as a literal, not asked of the registry: a migration records what the schema and
the data were at its time, and must upgrade the same way whatever the default game
becomes later. New rows always name their game (`Moderator.new_game`); the server
default stays only because SQLite cannot drop it without rebuilding the table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

FIRST_GAME = "princes-of-florence"  # the one game of revisions 0001 and 0002


def upgrade() -> None:
    with op.batch_alter_table("pbem_game") as batch:
        batch.add_column(sa.Column("game", sa.String(), nullable=False,
                                   server_default=FIRST_GAME))


def downgrade() -> None:
    with op.batch_alter_table("pbem_game") as batch:
        batch.drop_column("game")
