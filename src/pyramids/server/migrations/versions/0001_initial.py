"""Initial schema: tables, seats, actions (one per (table, seq)) and snapshots.

Revision ID: 0001
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("rules_version", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("ranking", sa.JSON, nullable=True),
    )
    op.create_index("ix_tables_status_created", "tables", ["status", "created"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "snapshots",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("position", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("snapshots")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_tables_status_created", table_name="tables")
    op.drop_table("tables")
