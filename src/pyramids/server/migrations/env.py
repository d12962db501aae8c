"""Alembic environment of the server's schema: runs migrations on the server's connection.

``pyramids.server.db.migrate`` passes an open connection in ``config.attributes``; run
from the ``alembic`` command line instead, the URL comes from ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from pyramids.server.db import Base, make_engine


def run_migrations(connection: Connection) -> None:
    """Run the pending migrations on ``connection``."""
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Migrate the connection handed over by the server, else the configured URL."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url") or ""
    engine = make_engine(url, writer=True)
    with engine.begin() as conn:
        run_migrations(conn)
    engine.dispose()


main()
