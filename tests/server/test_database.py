"""The database gateway (``server/database.py``): one way into the database for every feature.

The gateway is made from the settings and started and stopped by the app's lifespan,
around the table manager that receives it; before its start and after its stop a job is
refused as the server not running (503 ``unavailable``); a write nobody waits for logs
its failure instead of raising it.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, text

from pyramids.server import create_app, store
from pyramids.server.database import Database
from pyramids.server.protocol import ProtocolError
from tests.server.conftest import make_settings


async def refusal(database: Database) -> tuple[str, int] | None:
    """The code and status a read is refused with (None: it was answered)."""
    try:
        await database.read(store.ping)
    except ProtocolError as exc:
        return exc.code, exc.status
    return None


def count_rows(conn: Connection) -> int:
    """How many rows the test's own table holds."""
    return int(conn.execute(text("SELECT COUNT(*) FROM t")).scalar_one())


def test_the_gateway_answers_between_its_start_and_its_stop(tmp_path: Path) -> None:
    """Before the start and after the stop a job is refused (``unavailable``, 503) and the
    health check says no; started, the schema is there (migrated), a committed write is
    read back and the health check says yes."""

    async def scenario() -> list[tuple[str, object]]:
        database = Database(make_settings(tmp_path))
        seen: list[tuple[str, object]] = [
            ("refused before", await refusal(database)),
            ("healthy before", await database.healthy()),
        ]
        await database.start()
        try:
            seen.append(("migrated", await database.read(lambda c: store.list_tables(c, None, 10))))
            await database.write(lambda c: c.execute(text("CREATE TABLE t (k INTEGER)")))
            await database.write(lambda c: c.execute(text("INSERT INTO t VALUES (1)")))
            seen.append(("read back", await database.read(count_rows)))
            seen.append(("healthy", await database.healthy()))
        finally:
            await database.stop()
        seen.append(("refused after", await refusal(database)))
        seen.append(("healthy after", await database.healthy()))
        return seen

    assert asyncio.run(scenario()) == [
        ("refused before", ("unavailable", 503)),
        ("healthy before", False),
        ("migrated", []),
        ("read back", 1),
        ("healthy", True),
        ("refused after", ("unavailable", 503)),
        ("healthy after", False),
    ]


def test_a_write_nobody_waits_for_logs_its_failure(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``write_quietly``: a write the database refuses is logged as not stored, never
    raised (its caller has nobody to tell)."""
    caplog.set_level(logging.WARNING, "pyramids.server")

    async def scenario() -> None:
        database = Database(make_settings(tmp_path))
        await database.start()
        try:
            job = lambda c: c.execute(text("INSERT INTO nosuch VALUES (1)"))  # noqa: E731
            await database.write_quietly(job, "the test's row")
        finally:
            await database.stop()

    asyncio.run(scenario())
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "the test's row was not stored"
    ]


def test_the_app_gives_its_one_database_to_the_table_manager(tmp_path: Path) -> None:
    """``create_app``: the gateway on the app's state is the one the table manager uses;
    the lifespan starts it (the health check answers) and stops it at the end."""
    app = create_app(make_settings(tmp_path))
    database = app.state.database
    assert app.state.manager.database is database
    with TestClient(app) as client:
        assert client.get("/healthz").json()["ok"] is True
        assert database.is_running
    assert not database.is_running
