"""Self-healing: a server-made move whose write fails is retried until storage is back.

"A failed bot, chance, stand-in or timeout write is retried with back-off until storage is
back": the writes the server makes on its own (a bot's move, a chance draw, the takeover
bot playing for an absent human, a move made when a turn's time ran out) fail at the
database a few times each, on the real SQLite file; every table must move on by itself
to the end, with each seq stored exactly once.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError

from pyramids.core import CHANCE
from pyramids.server import Settings
from tests.http_play import wait_finished
from tests.server.conftest import HUMAN, bot, create, receive

FAILURES = 3
"""Failed attempts of each kind of write, per table (back-off 0.1 + 0.2 + 0.4 s)."""


class FlakyActions:
    """Makes ``INSERT INTO actions`` fail at the database, FAILURES times per (table, seat):
    the database gateway's writer thread (database.Writer) sees an OperationalError exactly
    as from a full disk, then the storage recovers."""

    def __init__(self) -> None:
        self.failed: Counter[tuple[str, int]] = Counter()

    def __call__(
        self,
        _conn: Any,
        _cursor: Any,
        statement: str,
        parameters: Any,
        _context: Any,
        executemany: bool,
    ) -> None:
        if not statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
            return
        columns = [
            c.strip() for c in statement[statement.index("(") + 1 : statement.index(")")].split(",")
        ]
        rows = parameters if executemany else [parameters]
        for row in rows:
            values = dict(zip(columns, row, strict=True)) if not isinstance(row, dict) else row
            key = (str(values["table_id"]), int(values["seat"]))
            if self.failed[key] < FAILURES:
                self.failed[key] += 1
                raise OperationalError(statement, row, sqlite3.OperationalError("disk I/O error"))


@pytest.fixture
def flaky() -> Iterator[FlakyActions]:
    """Every engine's action inserts go through a FlakyActions (removed afterwards)."""
    hook = FlakyActions()
    event.listen(Engine, "before_cursor_execute", hook)
    try:
        yield hook
    finally:
        event.remove(Engine, "before_cursor_execute", hook)


def stored_seqs(settings: Settings, tid: str) -> list[int]:
    """The seqs of a table's stored actions, in order (duplicates would show)."""
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT seq FROM actions WHERE table_id = :t ORDER BY seq"), {"t": tid}
            )
            return [int(r.seq) for r in rows]
    finally:
        engine.dispose()


def until_finished(client: TestClient, tids: list[str]) -> dict[str, dict[str, Any]]:
    """Every table's summary once all are finished."""
    return {tid: wait_finished(client, tid) for tid in tids}


def test_server_moves_are_retried_until_the_storage_is_back(
    client: TestClient, settings: Settings, flaky: FlakyActions
) -> None:
    """Bot, chance, stand-in and timeout writes fail three times each; every game still ends."""
    # two bots and chance (the fire die's rolls)
    fire = {"preset": "standard", "fire_die": True}
    dealt = create(client, [bot("greedy"), bot("greedy")], options=fire)["table"]["id"]
    # a human gone for good: the takeover bot stands in (absent_after)
    absent = create(client, [HUMAN, bot("greedy")], absent_after=0.05)
    # a human who never decides: each turn times out (turn_time)
    slow = create(client, [HUMAN, bot("greedy")], turn_time=0.05)
    for body in (absent, slow):
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            assert receive(ws)["table"]["status"] == "running"
    tids = [dealt, absent["table"]["id"], slow["table"]["id"]]
    tables = until_finished(client, tids)

    for tid in tids:
        seqs = stored_seqs(settings, tid)
        assert seqs == list(range(1, len(seqs) + 1)), "an action is missing or stored twice"
        assert tables[tid]["seq"] == len(seqs)
        assert tables[tid]["ranking"] is not None
    # Every kind of server-made write did fail, FAILURES times, before it was stored.
    assert flaky.failed[(dealt, CHANCE)] == FAILURES
    assert flaky.failed[(dealt, 0)] == FAILURES  # a bot
    assert flaky.failed[(absent["table"]["id"], 0)] == FAILURES  # the stand-in
    assert flaky.failed[(slow["table"]["id"], 0)] == FAILURES  # a timeout
    assert tables[absent["table"]["id"]]["seats"][0]["taken_over"] is True
