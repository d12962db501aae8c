"""Look-alike names (issue 29, item 5): each account's name skeleton, unique.

On ``accounts``: ``name_skeleton``, the SHA-256 of the name's UTS #39 skeleton
(``pyramids.server.names.skeleton_key``), under a unique index, so that no two accounts'
names look alike. Every existing account gets its skeleton, oldest account first; an
account whose name looks like an older account's keeps its name and its log-in but gets
no skeleton (NULL: the unique index allows several), and one line is logged for it. Names
that break the newer rules (an invisible character, two scripts) are kept as they are:
the name is the account's log-in, so renaming it behind its owner's back would lock them
out; the owner may rename it (``PATCH /api/accounts/me``), and a rename follows the rules.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from pyramids.server.names import skeleton_key

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    """Add the column, fill it oldest account first, then index it (unique)."""
    with op.batch_alter_table("accounts", recreate="never") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(64), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    conn = op.get_bind()
    holders: dict[str, str] = {}
    for row in conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        key = skeleton_key(row.name)
        if key in holders:
            log.warning(
                "account %s (%r) looks like %r: its name keeps working but holds no skeleton",
                row.id,
                row.name,
                holders[key],
            )
            continue
        holders[key] = row.name
        conn.execute(sa.update(accounts).where(accounts.c.id == row.id).values(name_skeleton=key))
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts", recreate="never") as batch:
        batch.drop_column("name_skeleton")
