"""Issue 29, item 5: revision 0005 gives every account its name's skeleton under a unique
index. Accounts whose names already look alike keep their names and log-ins: the oldest
holds the skeleton, the others none (NULL), and a new look-alike of either is refused.
On SQLite and PostgreSQL; the schema then equals the models exactly."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from pyramids.server.accounts import insert_account
from pyramids.server.config import sqlite_url
from pyramids.server.db import MIGRATIONS_DIR, Base, make_engine, migrate
from pyramids.server.names import skeleton_key
from pyramids.server.store import utcnow
from tests.postgres import postgres_url  # noqa: F401  (the fixture)

REVISION = "0005"
"""The revision that adds ``accounts.name_skeleton``."""
OLD_ACCOUNTS = ["Ann", "\u0410nn", "bob"]
"""Stored at revision 0004: "Ann", then "Аnn" with a Cyrillic А (a look-alike accepted
before this revision), and "bob"."""


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def _before() -> str:
    """The revision just before :data:`REVISION`."""
    down = ScriptDirectory.from_config(_config()).get_revision(REVISION).down_revision
    assert isinstance(down, str)
    return down


def _before_with_look_alike_accounts(engine: Engine) -> None:
    config = _config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, _before())
        for name in OLD_ACCOUNTS:  # one by one: ids 1, 2, 3 from the database
            conn.execute(
                text(
                    "INSERT INTO accounts (name, name_key, password_hash, created)"
                    " VALUES (:name, :key, 'h', '2026-06-01 00:00:00')"
                ),
                {"name": name, "key": name.casefold()},
            )


def _check_upgraded(engine: Engine) -> None:
    with engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        rows = conn.execute(text("SELECT id, name, name_skeleton FROM accounts ORDER BY id")).all()
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert version == ScriptDirectory.from_config(_config()).get_current_head()
    assert [(r.id, r.name, r.name_skeleton) for r in rows] == [
        (1, "Ann", skeleton_key("Ann")),
        (2, "\u0410nn", None),  # looks like the older "Ann": keeps its name, no skeleton
        (3, "bob", skeleton_key("bob")),
    ]
    assert diff == [], diff
    with engine.begin() as conn:
        assert insert_account(conn, "\u0430nn", "h", utcnow()) is None  # looks like "Ann"
        assert insert_account(conn, "carol", "h", utcnow()) == 4


def test_migration_0005_on_sqlite_gives_the_oldest_look_alike_the_skeleton(
    tmp_path: Path,
) -> None:
    """SQLite: the revision before, with two look-alike accounts, then ``migrate`` (twice: idempotent)."""
    engine = make_engine(sqlite_url(tmp_path / "names.sqlite3"), writer=True)
    _before_with_look_alike_accounts(engine)
    migrate(engine)
    migrate(engine)
    _check_upgraded(engine)
    engine.dispose()


def test_migration_0005_on_postgres_gives_the_oldest_look_alike_the_skeleton(
    postgres_url: str,  # noqa: F811
) -> None:
    """PostgreSQL: the same upgrade, then the same checks."""
    engine = make_engine(postgres_url, writer=True)
    try:
        _before_with_look_alike_accounts(engine)
        migrate(engine)
        _check_upgraded(engine)
    finally:
        engine.dispose()


def test_migration_0005_downgrades_and_up_again(tmp_path: Path) -> None:
    """The downgrade drops exactly the column and its index, keeping every account."""
    engine = make_engine(sqlite_url(tmp_path / "down.sqlite3"), writer=True)
    _before_with_look_alike_accounts(engine)
    migrate(engine)
    config = _config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, _before())
    with engine.connect() as conn:
        columns = {r[1] for r in conn.execute(text("PRAGMA table_info(accounts)"))}
        count = conn.execute(text("SELECT count(*) FROM accounts")).scalar_one()
    assert "name_skeleton" not in columns and count == 3
    migrate(engine)
    _check_upgraded(engine)
    engine.dispose()
