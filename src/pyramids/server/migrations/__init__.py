"""Alembic migrations of the server schema (run by ``pyramids.server.db.migrate``)."""
