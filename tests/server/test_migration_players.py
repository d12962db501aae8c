"""Issue 15, item 7: "Alembic migrations on SQLite and PostgreSQL". Revision 0003 (players'
home) upgrades a database holding revision-0002 tables without losing them: old tables are
unrated, in no series, without a clock; the new tables exist and the schema then equals the
models exactly (no difference for Alembic's autogenerate), on both databases."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Engine, text

from pyramids.server.config import sqlite_url
from pyramids.server.db import MIGRATIONS_DIR, Base, make_engine, migrate
from pyramids.server.store import load_table
from tests.postgres import postgres_url  # noqa: F401  (the fixture)

NEW_TABLES = {"accounts", "sessions", "ratings", "rating_history", "results", "chat"}


def _at_0002_with_a_finished_table(engine: Engine) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0002")
        conn.execute(
            text(
                "INSERT INTO tables (id, game, players, options, seed, rules_version, status,"
                " settings, created, updated, seq, ranking, seeded, public) VALUES ('old',"
                " 'flaming', 2, '{}', 7, 'v', 'finished', '{}', '2026-06-01 00:00:00',"
                " '2026-06-01 00:00:00', 0, '[1, 0]', false, true)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, claimed)"
                " VALUES ('old', 0, 'human', NULL, 'Ann', 'h', true),"
                " ('old', 1, 'bot', 'greedy', 'greedy', NULL, true)"
            )
        )


def _check_upgraded(engine: Engine) -> None:
    with engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        table = load_table(conn, "old", full=False)
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        counts = {
            name: conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
            for name in NEW_TABLES
        }
    assert version == "0007"  # head: 0004 (cluster), 0005 (name skeletons), 0006 (used
    # invites) and 0007 (analyses) add, never drop
    assert table is not None
    assert (table.status, table.ranking, table.public) == ("finished", [1, 0], True)
    assert (table.rated, table.match_id, table.rematch_id, table.forfeits, table.ended) == (
        False,
        None,
        None,
        None,
        None,
    )
    assert table.started is None
    assert [(s.name, s.account_id) for s in table.seats] == [("Ann", None), ("greedy", None)]
    assert counts == dict.fromkeys(NEW_TABLES, 0)
    assert diff == [], diff


def test_migration_0003_on_sqlite_keeps_old_tables_and_matches_the_models(tmp_path: Path) -> None:
    """SQLite: 0002 with a finished table, then ``migrate`` (twice: idempotent)."""
    engine = make_engine(sqlite_url(tmp_path / "old.sqlite3"), writer=True)
    _at_0002_with_a_finished_table(engine)
    migrate(engine)
    migrate(engine)
    _check_upgraded(engine)
    engine.dispose()


def test_migration_0003_on_postgres_keeps_old_tables_and_matches_the_models(
    postgres_url: str,  # noqa: F811
) -> None:
    """PostgreSQL: the same upgrade, then the same checks."""
    engine = make_engine(postgres_url, writer=True)
    try:
        _at_0002_with_a_finished_table(engine)
        migrate(engine)
        migrate(engine)
        _check_upgraded(engine)
    finally:
        engine.dispose()


def test_migration_0003_downgrades_to_0002_and_up_again(tmp_path: Path) -> None:
    """The downgrade drops exactly what 0003 added; upgrading again restores it."""
    engine = make_engine(sqlite_url(tmp_path / "down.sqlite3"), writer=True)
    _at_0002_with_a_finished_table(engine)
    migrate(engine)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0002")
    with engine.connect() as conn:
        names = {
            r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))
        }
        columns = {r[1] for r in conn.execute(text("PRAGMA table_info(tables)"))}
    assert not names & NEW_TABLES
    assert "rated" not in columns and "seeded" in columns
    migrate(engine)
    _check_upgraded(engine)
    engine.dispose()


def test_upgrading_from_0001_keeps_every_seat_and_action(tmp_path: Path) -> None:
    """The SQLite upgrades alter ``tables`` in place: rebuilding it (Alembic's batch copy,
    drop and rename) would let ``ON DELETE CASCADE`` empty ``seats`` and ``actions``."""
    engine = make_engine(sqlite_url(tmp_path / "v1.sqlite3"), writer=True)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(
            text(
                "INSERT INTO tables (id, game, players, options, seed, rules_version, status,"
                " settings, created, updated, seq) VALUES ('v1', 'flaming', 2, '{}', 7, 'v',"
                " 'running', '{}', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, claimed)"
                " VALUES ('v1', 0, 'bot', 'random', 'r', NULL, true),"
                " ('v1', 1, 'bot', 'random', 'r2', NULL, true)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO actions (table_id, seq, seat, action, created)"
                " VALUES ('v1', 1, -1, 'deal', '2026-01-01 00:00:01')"
            )
        )
    migrate(engine)
    with engine.connect() as conn:
        table = load_table(conn, "v1")
    engine.dispose()
    assert table is not None
    assert [s.name for s in table.seats] == ["r", "r2"]
    assert table.actions == [(1, -1, "deal")]
