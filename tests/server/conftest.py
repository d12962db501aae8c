"""Fixtures for the server tests: a real SQLite database per test and a running app.

Every test gets its own database file under pytest's ``tmp_path`` (xdist-safe), bots
that play at once (``bot_delay`` 0) and no takeovers unless a test asks for them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from pyramids.server import Settings, create_app
from pyramids.server.clocks import ManualClock
from pyramids.server.config import LimitSettings, sqlite_url
from pyramids.server.tables import TableManager

RECEIVE_TIMEOUT = 30.0
"""Seconds a test waits for a server message before failing (a hang, not a timing test)."""


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings on a fresh SQLite file in ``tmp_path``: instant bots, no takeover."""
    base: dict[str, Any] = {
        "db_url": sqlite_url(tmp_path / "pyramids.sqlite3"),
        "data_dir": tmp_path,
        "bot_delay": 0.0,
        "absent_after": 0.0,
        # tests play faster than people: no per-address limit on the test client, and
        # all-bot tables at once too (tests/server/test_limits.py tests the limits)
        "limits": LimitSettings(min_all_bot_delay=0.0, exempt="testclient"),
        # spectators get each message at once, not with the others of the next 0.2 s
        # (the real server of tests/server/test_fanout.py keeps it)
        "spectator_linger": 0.0,
    }
    base.update(overrides)
    return Settings(**base)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The default test settings."""
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A started app (lifespan run) on the test database."""
    with TestClient(create_app(settings)) as c:
        yield c


def create(
    client: TestClient, seats: list[dict[str, Any]], game: str = "flaming", **extra: Any
) -> dict[str, Any]:
    """Create a table and return the response body (asserting 201).

    Seed 7 unless said otherwise, but only where a client may choose the seed (every seat
    but at most one a bot); other tables get the server's secret seed."""
    body: dict[str, Any] = {"game": game, "seats": seats, **extra}
    if "seed" not in body and sum(s.get("kind") == "human" for s in seats) <= 1:
        body["seed"] = 7
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


HUMAN: dict[str, Any] = {"kind": "human"}


def bot(name: str = "greedy") -> dict[str, Any]:
    """A bot seat."""
    return {"kind": "bot", "bot": name}


def receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message from the server, failing instead of hanging after ``timeout``."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return dict(json.loads(message["text"]))


def receive_until(
    ws: WebSocketTestSession,
    stop: Callable[[dict[str, Any]], bool],
    seen: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Receive messages (kept in ``seen``) until one satisfies ``stop``; return it."""
    while True:
        msg = receive(ws)
        if seen is not None:
            seen.append(msg)
        if stop(msg):
            return msg


def start_app(settings: Settings, clock: ManualClock) -> TestClient:
    """The app on ``settings`` with ``clock`` as its time (not entered yet: ``with`` starts it)."""
    app = create_app(settings)
    app.state.manager.clock = clock
    return TestClient(app)


def manager_of(client: TestClient) -> TableManager:
    """The started app's table manager."""
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    """Move the app's time on, in the app's event loop (where its timers fire)."""
    assert client.portal is not None
    client.portal.call(clock.advance, seconds)


def socket_refusal(client: TestClient, url: str) -> tuple[str, int]:
    """The error code and close code of a refused table socket."""
    with client.websocket_connect(url) as ws:
        error = receive(ws)
        try:
            receive(ws)
        except WebSocketDisconnect as closed:
            return str(error["code"]), closed.code
    raise AssertionError("the socket stayed open")


def db_counts(settings: Settings, table_id: str) -> tuple[int, int]:
    """(the table row's seq, the number of stored actions), read straight from the file."""
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            seq = conn.execute(text("SELECT seq FROM tables WHERE id = :i"), {"i": table_id})
            n = conn.execute(
                text("SELECT COUNT(*) FROM actions WHERE table_id = :i"), {"i": table_id}
            )
            return int(seq.scalar_one()), int(n.scalar_one())
    finally:
        engine.dispose()


def play_to_end(
    ws: WebSocketTestSession,
    first: dict[str, Any],
    seen: list[dict[str, Any]] | None = None,
    choose: Callable[[list[str]], str] = lambda legal: legal[0],
) -> dict[str, Any]:
    """Play the connection's seat (first legal action each time) until the game ends.

    ``first`` is the latest ``state`` already received; returns the final state.
    """
    state = first
    counter = 0
    while state.get("to_move") is not None:
        if state["legal"]:
            counter += 1
            ws.send_json(
                {
                    "type": "action",
                    "id": f"c{counter}",
                    "seq": state["seq"],
                    "action": choose(state["legal"]),
                }
            )
        msg = receive_until(ws, lambda m: m["type"] in ("state", "error"), seen)
        assert msg["type"] == "state", msg
        state = msg
    return state
