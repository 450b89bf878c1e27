"""State snapshots: a game's state after its last commit, so a new process need not
replay the game (`pbem.snapshots`).

A cache only: a row names the game version, the number of stored commands and the
engine it was written for, and is ignored when any of them differs. Games stored
before this revision have no row until their next commit; until then they are
replayed as before.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pbem_snapshot",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("engine", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["pbem_game.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("pbem_snapshot")
