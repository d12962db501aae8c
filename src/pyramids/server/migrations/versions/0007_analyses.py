"""Computer analyses of finished games (issue 30): one row per analysed table.

``analyses``: the table's id (its primary key; the row goes with its table), the search
level, iterations per decision and seed it was computed with, the analysis itself as JSON
(``pyramids.bots.advice.Analysis.to_json``), the processor seconds it took, and when.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the table."""
    op.create_table(
        "analyses",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("cpu_seconds", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("analyses")
