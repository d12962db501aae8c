"""Players' home: accounts and sessions, ratings and their history, results, table chat,
rematch series and clocks.

New tables: ``accounts`` (unique case-folded name, argon2id hash), ``sessions`` (SHA-256
of the cookie's token, CSRF token, expiry), ``ratings`` (per account, game, player-count
band and pool), ``rating_history``, ``results`` (one row per seat of a finished game) and
``chat``. On ``tables``: ``started``, ``rated``, ``match_id``, ``rematch_id``,
``forfeits`` and ``ended``; on ``seats``: ``account_id``. Tables stored before this
revision are unrated, in no series, with no clock (``started`` NULL).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the six tables and add the columns."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("expires", WHEN, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("band", sa.String(8), primary_key=True),
        sa.Column("pool", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("band", sa.String(8), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=True, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("pool", sa.String(8), nullable=True),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.Column("finished", WHEN, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.add_column(sa.Column("started", WHEN, nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("match_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("forfeits", sa.JSON, nullable=True))
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))
        batch.create_index("ix_tables_match_id", ["match_id"])
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    """Drop the columns and the six tables."""
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("account_id")
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_index("ix_tables_match_id")
        for name in ("ended", "forfeits", "rematch_id", "match_id", "rated", "started"):
            batch.drop_column(name)
    for name in ("chat", "results", "rating_history", "ratings", "sessions", "accounts"):
        op.drop_table(name)
