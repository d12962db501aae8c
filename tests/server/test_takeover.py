"""Absent and slow humans: the takeover bot plays for them (issue 4, PROTOCOL).

"absent_after: a human seat whose every connection has been gone this long is played by
takeover_bot until someone reconnects with its token." "turn_time: a human who has not
decided within this time has that one decision made by takeover_bot."
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.server import Settings
from tests.server.conftest import HUMAN, bot, create, receive, receive_until
from tests.waiting import wait_until


def poll(client: TestClient, tid: str, done: Any) -> dict[str, Any]:
    """GET the table until ``done(summary)``."""

    def table() -> dict[str, Any] | None:
        got: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        return got if done(got) else None

    return wait_until(table, f"table {tid}: the expected state")


def seat_actions(settings: Settings, tid: str, seat: int) -> int:
    """How many stored actions seat ``seat`` made."""
    engine = create_engine(settings.db_url)
    with engine.connect() as conn:
        n = conn.execute(
            text("SELECT COUNT(*) FROM actions WHERE table_id = :t AND seat = :s"),
            {"t": tid, "s": seat},
        ).scalar_one()
    engine.dispose()
    return int(n)


def test_absent_human_is_played_by_the_takeover_bot(client: TestClient, settings: Settings) -> None:
    """A human who leaves is taken over after absent_after and the game goes on to the end."""
    body = create(client, [HUMAN, bot("greedy"), bot("random")], absent_after=0.05)
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert receive(ws)["table"]["status"] == "running"
    table = poll(client, tid, lambda t: t["status"] == "finished")
    assert table["seats"][0]["taken_over"] is True
    assert table["seats"][0]["connected"] is False
    assert seat_actions(settings, tid, 0) > 0
    assert sorted(table["ranking"]) == [0, 1, 2]


def test_reconnecting_ends_the_takeover(client: TestClient, settings: Settings) -> None:
    """Someone reconnecting with the token gets the seat back: the bot stops playing it."""
    body = create(client, [HUMAN, HUMAN], absent_after=0.05, bot_delay=0.5)
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with client.websocket_connect(f"/ws/tables/{tid}?token={t1}") as ws1:
        t1 = receive(ws1)["seat_token"]  # the invites are used: the seats' credentials
        with client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws0:
            t0 = receive(ws0)["seat_token"]
        table = receive_until(
            ws1, lambda m: m["type"] == "table" and m["table"]["seats"][0]["taken_over"]
        )
        assert table["table"]["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws0:
            hello = receive(ws0)
            assert hello["table"]["seats"][0]["taken_over"] is False
            back = receive_until(
                ws1, lambda m: m["type"] == "table" and not m["table"]["seats"][0]["taken_over"]
            )
            assert back["table"]["seats"][0]["connected"] is True
            receive(ws0)

            def seat_0_decides() -> dict[str, Any] | None:
                """Seat 1 plays its decisions; seat 0's state once it has one."""
                s1 = client.get(f"/api/tables/{tid}/state", params={"token": t1}).json()
                if s1["legal"]:
                    r = client.post(
                        f"/api/tables/{tid}/actions",
                        json={"token": t1, "seq": s1["seq"], "action": s1["legal"][0]},
                    )
                    assert r.status_code == 200, r.text
                    return None
                s0: dict[str, Any] = client.get(
                    f"/api/tables/{tid}/state", params={"token": t0}
                ).json()
                return s0 if s0["legal"] else None

            s0 = wait_until(seat_0_decides, "seat 0's decision")
            # Seat 0 is back: its decision waits for it and its own action is applied.
            before = seat_actions(settings, tid, 0)
            ws0.send_json({"type": "action", "id": 1, "seq": s0["seq"], "action": s0["legal"][0]})
            answer = receive_until(ws0, lambda m: m["type"] in ("ack", "error"))
            assert answer["type"] == "ack", answer
            assert seat_actions(settings, tid, 0) == before + 1


def test_turn_time_lets_the_bot_make_one_slow_decision(
    client: TestClient, settings: Settings
) -> None:
    """A connected human who does not decide in turn_time has that decision made for them."""
    body = create(client, [HUMAN, bot("greedy")], turn_time=0.05)
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        receive(ws)
        state = receive(ws)
        assert state["legal"]
        after = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        assert after["last"]["seat"] == 0  # made by the takeover bot, for seat 0
        assert after["seats"][0]["taken_over"] is False
        assert after["seats"][0]["connected"] is True
        # Nobody at seat 0 ever decides: every one of its decisions times out.
        final = receive_until(ws, lambda m: m["type"] == "state" and m["to_move"] is None)
    assert final["status"] == "finished"
