"""Fair tables: the seed's commitment and salt, seeded and public tables, the creator's address.

``salt`` and ``commitment`` (SHA-256 of seed and salt, see :mod:`pyramids.core.fairness`)
stay NULL for tables stored before this revision; ``seeded`` marks a table whose seed a
client chose (allowed only when every other seat is a bot); ``public`` marks a table
listed in the lobby and claimable from it; ``created_by`` is the creator's client
address, for the per-address caps. On ``actions``, ``played_by`` says why a bot chose
a human seat's action (``timeout``: the turn time ran out; ``absent``: the stand-in for a
player who left), NULL when the seat's own player or bot did.

Revision ID: 0002
Revises: 0001
Create Date: 2026-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the five columns to ``tables`` and ``played_by`` to ``actions``."""
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("salt", sa.Text, nullable=True))
        batch.add_column(sa.Column("commitment", sa.Text, nullable=True))
        batch.add_column(sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("created_by", sa.Text, nullable=True))
    with op.batch_alter_table("actions", recreate="never") as batch:
        batch.add_column(sa.Column("played_by", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop the five columns (and ``actions.played_by``)."""
    with op.batch_alter_table("actions", recreate="never") as batch:
        batch.drop_column("played_by")
    with op.batch_alter_table("tables", recreate="never") as batch:
        for name in ("created_by", "public", "seeded", "commitment", "salt"):
            batch.drop_column(name)
