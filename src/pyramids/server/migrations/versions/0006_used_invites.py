"""Invites that are used once: a seat remembers the invite it was bound through.

On ``seats``: ``invite_hash`` (the SHA-256 of the invite whose first use bound the seat; the
seat's own credential is then ``token_hash``). Null for every seat stored before: their
invite stays their token, as it was when they were bound.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column."""
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop it again."""
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("invite_hash")
