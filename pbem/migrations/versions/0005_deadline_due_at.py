"""When each game's deadline pass is next due: `pbem_game.due_at`, indexed.

A deadline pass used to read every game with a deadline and decide in Python which
had something due; at 10,000 idle games that took most of a minute. The column holds
the time the pass next has something to do for the game (`pbem.store.next_due`):
its reminder time until it is reminded, then its deadline until the late policy
has acted for good; NULL when finished, paused or without a deadline. The pass
selects `due_at <= now` through the index.

Existing rows are filled here by the rule as it is at this revision (written out,
not imported: a migration must upgrade the same way whatever the code becomes).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_games = sa.table(
    "pbem_game",
    sa.column("id", sa.String()),
    sa.column("finished", sa.Boolean()),
    sa.column("paused", sa.Boolean()),
    sa.column("deadline", sa.DateTime(timezone=True)),
    sa.column("reminder_hours", sa.Float()),
    sa.column("late_policy", sa.String()),
    sa.column("reminded", sa.Boolean()),
    sa.column("late_notified", sa.Boolean()),
    sa.column("due_at", sa.DateTime(timezone=True)),
)


def _due_at(row: Any) -> datetime | None:
    if row.deadline is None or row.finished or row.paused:
        return None
    deadline: datetime = row.deadline
    deadline = deadline.replace(tzinfo=UTC) if deadline.tzinfo is None \
        else deadline.astimezone(UTC)
    if not row.reminded and row.reminder_hours > 0:
        return deadline - timedelta(hours=row.reminder_hours)
    if row.late_policy == "auto" or not row.late_notified:
        return deadline
    return None


def upgrade() -> None:
    with op.batch_alter_table("pbem_game") as batch:
        batch.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_pbem_game_due_at", ["due_at"], unique=False)
    bind = op.get_bind()
    rows = bind.execute(sa.select(_games).where(_games.c.deadline.is_not(None)))
    due = [{"key": r.id, "due": d} for r in rows if (d := _due_at(r)) is not None]
    if due:
        bind.execute(_games.update().where(_games.c.id == sa.bindparam("key"))
                     .values(due_at=sa.bindparam("due")), due)


def downgrade() -> None:
    with op.batch_alter_table("pbem_game") as batch:
        batch.drop_index("ix_pbem_game_due_at")
        batch.drop_column("due_at")
