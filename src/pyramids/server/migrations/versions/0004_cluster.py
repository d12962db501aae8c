"""The server as a cluster: table leases, per-instance presence, stored takeovers.

New tables: ``table_leases`` (which instance owns an unfinished table, until when) and
``presence`` (how many sockets of a seat an instance holds). On ``seats``:
``taken_over`` (the takeover bot plays the seat; false for every seat stored before).
Both new tables are empty after the upgrade: the first instance to start takes every
unfinished table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the two tables and add the column."""
    op.create_table(
        "table_leases",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("expires", WHEN, nullable=False),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.create_table(
        "presence",
        sa.Column("owner", sa.String(96), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("connections", sa.Integer, nullable=False),
        sa.Column("expires", WHEN, nullable=False),
    )
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.add_column(
            sa.Column("taken_over", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("taken_over")
    op.drop_table("presence")
    op.drop_index("ix_table_leases_owner", table_name="table_leases")
    op.drop_table("table_leases")
