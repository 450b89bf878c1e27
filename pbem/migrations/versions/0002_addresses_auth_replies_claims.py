"""Seat addresses, a game's sender check, answers to strangers, played-mail digests
and the outbox's send lease.

Databases made between the first release and the migrations by `create_all` may
already hold some of these tables or columns; only what is missing is added.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _game_fk() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["pbem_game.id"])


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = set(inspector.get_table_names())
    if "pbem_seat_address" not in have:
        op.create_table(
            "pbem_seat_address",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("game_id", sa.String(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("address", sa.String(), nullable=False),
            _game_fk(), sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("game_id", "seat", "address"),
        )
        op.create_index("ix_pbem_seat_address_address", "pbem_seat_address", ["address"])
        op.create_index("ix_pbem_seat_address_game_id", "pbem_seat_address", ["game_id"])
    if "pbem_game_auth" not in have:
        op.create_table(
            "pbem_game_auth",
            sa.Column("game_id", sa.String(), nullable=False),
            sa.Column("require", sa.String(), nullable=False),
            _game_fk(), sa.PrimaryKeyConstraint("game_id"),
        )
    if "pbem_stranger_reply" not in have:
        op.create_table(
            "pbem_stranger_reply",
            sa.Column("address", sa.String(), nullable=False),
            sa.Column("last_reply", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("address"),
        )
    if "pbem_played_mail" not in have:
        op.create_table(
            "pbem_played_mail",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("game_id", sa.String(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("digest", sa.String(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("message_id", sa.String(), nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            _game_fk(), sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("game_id", "digest"),
        )
        op.create_index("ix_pbem_played_mail_game_id", "pbem_played_mail", ["game_id"])
    outbox = {c["name"] for c in inspector.get_columns("pbem_outbox")}
    with op.batch_alter_table("pbem_outbox") as batch:
        if "claimed_by" not in outbox:
            # Rows queued before the lease existed are unclaimed.
            batch.add_column(sa.Column("claimed_by", sa.String(), nullable=False,
                                       server_default=""))
        if "claimed_until" not in outbox:
            batch.add_column(sa.Column("claimed_until", sa.DateTime(timezone=True),
                                       nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pbem_outbox") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
    for table in ("pbem_played_mail", "pbem_stranger_reply", "pbem_game_auth",
                  "pbem_seat_address"):
        op.drop_table(table)
