"""Two actions for one decision: exactly one is applied, the other gets ``stale``.

PROTOCOL: "the first to reach the table is applied, the second gets stale. Each table
applies its actions one at a time, and the storage refuses a second action with the
same seq, so this holds even for two server processes sharing one database."
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.server import Settings
from pyramids.server.live import SeatSpec
from pyramids.server.protocol import ProtocolError
from pyramids.server.table_settings import TableSettings
from pyramids.server.tables import TableManager
from tests.http_play import use_invite, wait_finished
from tests.server.conftest import HUMAN, bot, create, db_counts, make_settings, receive_until


def test_two_connections_of_one_seat_race_exactly_one_applies(
    client: TestClient, settings: Settings
) -> None:
    """Two sockets with the same token send the same decision at once: one ack, one stale."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (use_invite(client, tid, i["token"]) for i in body["invites"])
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as b,
        client.websocket_connect(f"/ws/tables/{tid}?token={t1}"),
    ):
        state = receive_until(a, lambda m: m["type"] == "state" and m["status"] == "running")
        receive_until(b, lambda m: m["type"] == "state" and m["status"] == "running")
        legal = state["legal"]
        a.send_json({"type": "action", "id": "a", "seq": state["seq"], "action": legal[0]})
        b.send_json({"type": "action", "id": "b", "seq": state["seq"], "action": legal[-1]})
        answers = [receive_until(ws, lambda m: m["type"] in ("ack", "error")) for ws in (a, b)]
    kinds = sorted((m["type"], m.get("code")) for m in answers)
    assert kinds == [("ack", None), ("error", "stale")]
    assert db_counts(settings, tid) == (1, 1)


def test_http_and_websocket_race_exactly_one_applies(
    client: TestClient, settings: Settings
) -> None:
    """An HTTP action and a WebSocket action for the same seq: exactly one is stored."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (use_invite(client, tid, i["token"]) for i in body["invites"])
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws,
        client.websocket_connect(f"/ws/tables/{tid}?token={t1}"),
    ):
        state = receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "running")
        ws.send_json({"type": "action", "id": "w", "seq": 0, "action": state["legal"][0]})
        r = client.post(
            f"/api/tables/{tid}/actions",
            json={"token": t0, "seq": 0, "action": state["legal"][-1]},
        )
        answer = receive_until(ws, lambda m: m["type"] in ("ack", "error"))
    outcomes = sorted(
        [
            "applied" if r.status_code == 200 else r.json()["error"]["code"],
            "applied" if answer["type"] == "ack" else answer["code"],
        ]
    )
    assert outcomes == ["applied", "stale"]
    assert db_counts(settings, tid) == (1, 1)


def test_concurrent_actions_on_the_manager_apply_once(tmp_path: Path) -> None:
    """Many simultaneous submissions of one decision: one seq, every other one stale."""

    async def scenario() -> list[Any]:
        manager = TableManager(make_settings(tmp_path))
        await manager.start()
        try:
            table, _ = await manager.seating.create_table(
                "flaming",
                [SeatSpec("bot", bot="greedy"), SeatSpec("bot", bot="greedy")],
                {},
                5,
                TableSettings(bot_delay=5.0, absent_after=0, turn_time=0, takeover_bot="greedy"),
            )
            legal = table.legal_texts()
            results = await asyncio.gather(
                *(manager.act(table, 0, 0, legal[i % len(legal)]) for i in range(8)),
                return_exceptions=True,
            )
            assert table.seq == 1
            return results
        finally:
            await manager.stop()

    results = asyncio.run(scenario())
    assert sorted(r for r in results if isinstance(r, int)) == [1]
    errors = [r for r in results if not isinstance(r, int)]
    assert len(errors) == 7
    assert all(isinstance(e, ProtocolError) and e.code == "stale" for e in errors)


def test_an_action_stored_by_another_process_wins_and_the_table_catches_up(
    client: TestClient, settings: Settings
) -> None:
    """The (table, seq) key refuses a second action; the server reloads and answers stale."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws,
        client.websocket_connect(f"/ws/tables/{tid}?token={t1}"),
    ):
        state = receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "running")
        theirs, mine = state["legal"][0], state["legal"][-1]
        engine = create_engine(settings.db_url)
        with engine.begin() as conn:  # what a second server process would have stored
            conn.execute(
                text(
                    "INSERT INTO actions (table_id, seq, seat, action, created) "
                    "VALUES (:t, 1, 0, :a, :c)"
                ),
                {"t": tid, "a": theirs, "c": dt.datetime.now(dt.UTC)},
            )
            conn.execute(text("UPDATE tables SET seq = 1 WHERE id = :t"), {"t": tid})
        engine.dispose()
        ws.send_json({"type": "action", "id": "m", "seq": 0, "action": mine})
        seen: list[dict[str, Any]] = []
        error = receive_until(ws, lambda m: m["type"] == "error", seen)
        assert error["code"] == "stale"
        states = [m for m in seen if m["type"] == "state"]
        assert [s["seq"] for s in states] == [1]
        assert states[0]["last"]["action"] == theirs
    assert db_counts(settings, tid) == (1, 1)
    assert client.get(f"/api/tables/{tid}").json()["seq"] == 1


def test_many_bot_tables_at_once_all_finish_with_every_action_stored(
    client: TestClient, settings: Settings
) -> None:
    """Group commit under load: every table ends and stores exactly seq actions."""
    ids = [
        create(client, [bot("greedy"), bot("random"), bot("greedy")], seed=s)["table"]["id"]
        for s in range(12)
    ]
    for tid in ids:
        wait_finished(client, tid)
    for tid in ids:
        seq, stored = db_counts(settings, tid)
        assert seq == stored == client.get(f"/api/tables/{tid}").json()["seq"]
