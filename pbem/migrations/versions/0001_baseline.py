"""Baseline: the schema of the first release (games, seats, events, moves, inbound
mails and the outbox), as `Store.create_all` made it before migrations.

A database made by that release has these tables and no version table; it is
stamped at this revision and upgraded from here (`pbem.schema.migrate`).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _str(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.String(), nullable=nullable)


def _int(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.Integer(), nullable=nullable)


def _game_fk() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["pbem_game.id"])


def upgrade() -> None:
    op.create_table(
        "pbem_game",
        _str("id"), _str("variant"),
        sa.Column("money_open", sa.Boolean(), nullable=False),
        _str("seed"), _str("salt"), _ts("created"), _int("version"),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("turn_hours", sa.Float(), nullable=False),
        sa.Column("reminder_hours", sa.Float(), nullable=False),
        _str("late_policy"), _ts("deadline", nullable=True),
        sa.Column("reminded", sa.Boolean(), nullable=False),
        sa.Column("late_notified", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "pbem_seat",
        _int("id"), _str("game_id"), _int("seat"), _str("name"), _str("person"),
        _str("email"), _str("tz"), _str("token"), _int("mailed_version"),
        _game_fk(), sa.PrimaryKeyConstraint("id"), sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("ix_pbem_seat_game_id", "pbem_seat", ["game_id"])
    op.create_index("ix_pbem_seat_token", "pbem_seat", ["token"], unique=True)
    op.create_table(
        "pbem_event",
        _int("id"), _str("game_id"), _int("seq"), _str("type"),
        sa.Column("payload", sa.Text(), nullable=False),
        _str("prev_hash"), _str("hash"), _ts("created"),
        _game_fk(), sa.PrimaryKeyConstraint("id"), sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index("ix_pbem_event_game_id", "pbem_event", ["game_id"])
    op.create_table(
        "pbem_move",
        _int("id"), _str("game_id"), _int("n"), _int("seat"), _str("command"),
        _int("version"), _str("source"), _ts("created"),
        _game_fk(), sa.PrimaryKeyConstraint("id"), sa.UniqueConstraint("game_id", "n"),
    )
    op.create_index("ix_pbem_move_game_id", "pbem_move", ["game_id"])
    op.create_table(
        "pbem_inbound",
        _int("id"), _str("message_id"), _str("imap_uid"),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        _ts("received"), _str("sender"), _str("subject"), _str("game_id", nullable=True),
        _int("seat", nullable=True), _str("status"),
        sa.Column("note", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_pbem_inbound_imap_uid", "pbem_inbound", ["imap_uid"])
    op.create_index("ix_pbem_inbound_message_id", "pbem_inbound", ["message_id"], unique=True)
    op.create_table(
        "pbem_outbox",
        _int("id"), _str("message_id"), _str("game_id", nullable=True), _str("kind"),
        _str("to_addr"), _str("subject"),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("headers", sa.Text(), nullable=False),
        _str("status"), _int("attempts"), _ts("next_attempt"), _str("last_error"),
        _ts("created"), _ts("sent_at", nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_pbem_outbox_game_id", "pbem_outbox", ["game_id"])
    op.create_index("ix_pbem_outbox_message_id", "pbem_outbox", ["message_id"], unique=True)
    op.create_index("ix_pbem_outbox_status", "pbem_outbox", ["status"])


def downgrade() -> None:
    for table in ("pbem_outbox", "pbem_inbound", "pbem_move", "pbem_event", "pbem_seat",
                  "pbem_game"):
        op.drop_table(table)
