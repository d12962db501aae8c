"""Bad input gets a clear error and changes nothing (issue 4, PROTOCOL "Client to server").

Each case checks the documented error code, then that the game's seq and the stored
action rows are exactly what they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from pyramids.flaming.tiles import NAMES
from pyramids.server import Settings
from tests.server.conftest import HUMAN, bot, create, db_counts, receive, receive_until


@contextmanager
def two_humans(
    client: TestClient,
) -> Iterator[tuple[str, list[str], WebSocketTestSession, WebSocketTestSession, dict[str, Any]]]:
    """A running two-human table with both seats connected; yields seat 0's first state."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    tokens = [i["token"] for i in body["invites"]]
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as ws1,
    ):
        # the invites are used: the seats' credentials are the hellos' (issue 29)
        tokens = [receive(ws)["seat_token"] for ws in (ws0, ws1)]
        state = receive_until(ws0, lambda m: m["type"] == "state" and m["status"] == "running")
        receive_until(ws1, lambda m: m["type"] == "state" and m["status"] == "running")
        yield tid, tokens, ws0, ws1, state


def next_error(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next error message (skipping table messages about connections)."""
    msg = receive_until(ws, lambda m: m["type"] not in ("table",))
    assert msg["type"] == "error", msg
    assert msg["message"], msg
    return msg


def assert_alive(ws: WebSocketTestSession) -> None:
    """The connection still answers."""
    ws.send_json({"type": "ping", "id": "alive"})
    assert receive_until(ws, lambda m: m["type"] == "pong")["id"] == "alive"


def test_malformed_json_and_unknown_types_are_refused(
    client: TestClient, settings: Settings
) -> None:
    """malformed: not JSON, not an object, unknown type, action without seq or text."""
    with two_humans(client) as (tid, _tokens, ws0, _ws1, state):
        before = db_counts(settings, tid)
        for raw in ("{not json", "[1, 2]", '"action"', '{"type": "dance"}', "{}"):
            ws0.send_text(raw)
            assert next_error(ws0)["code"] == "malformed", raw
        ws0.send_bytes(b"\xff\xfe")
        assert next_error(ws0)["code"] == "malformed"
        bad_actions: list[dict[str, Any]] = [
            {"type": "action", "id": "x", "action": state["legal"][0]},
            {"type": "action", "id": "x", "seq": "0", "action": state["legal"][0]},
            {"type": "action", "id": "x", "seq": True, "action": state["legal"][0]},
            {"type": "action", "id": "x", "seq": 0},
            {"type": "action", "id": "x", "seq": 0, "action": 5},
        ]
        for message in bad_actions:
            ws0.send_json(message)
            error = next_error(ws0)
            assert error["code"] == "malformed", message
            assert error["id"] == "x"
        assert_alive(ws0)
        assert db_counts(settings, tid) == before == (0, 0)


def test_unparseable_notation_is_malformed(client: TestClient, settings: Settings) -> None:
    """malformed: the action text is not the game's notation."""
    with two_humans(client) as (tid, _tokens, ws0, _ws1, state):
        ws0.send_json({"type": "action", "id": 1, "seq": state["seq"], "action": "R40@@"})
        error = next_error(ws0)
        assert (error["code"], error["id"]) == ("malformed", 1)
        assert db_counts(settings, tid) == (0, 0)


def test_illegal_action_gets_the_engines_reason(client: TestClient, settings: Settings) -> None:
    """illegal: well-formed but not legal here; the message is the engine's reason."""
    with two_humans(client) as (tid, _tokens, ws0, _ws1, state):
        hand = state["view"]["hand"]
        on_board = {cell.split("@")[0] for cell in state["view"]["pyramid"]}
        other = next(t for t in NAMES if t not in hand and t not in on_board)
        ws0.send_json({"type": "action", "id": "i", "seq": state["seq"], "action": f"{other}@0,0"})
        error = next_error(ws0)
        assert error["code"] == "illegal"
        assert other in error["message"] or "hand" in error["message"]
        ws0.send_json({"type": "action", "id": "i", "seq": state["seq"], "action": "left"})
        assert next_error(ws0)["code"] == "illegal"
        assert db_counts(settings, tid) == (0, 0)


def test_out_of_turn_and_spectator_actions_are_refused(
    client: TestClient, settings: Settings
) -> None:
    """out_of_turn: not your seat's decision, or a spectator acting."""
    with two_humans(client) as (tid, tokens, ws0, ws1, state):
        legal = state["legal"][0]
        ws1.send_json({"type": "action", "id": "o", "seq": state["seq"], "action": legal})
        error = next_error(ws1)
        assert error["code"] == "out_of_turn"
        assert "seat 0" in error["message"]
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            receive(spectator)
            receive(spectator)
            spectator.send_json({"type": "action", "id": "s", "seq": state["seq"], "action": legal})
            assert next_error(spectator)["code"] == "out_of_turn"
        r = client.post(
            f"/api/tables/{tid}/actions", json={"token": tokens[1], "seq": 0, "action": legal}
        )
        assert r.status_code == 409
        assert r.json()["error"]["code"] == "out_of_turn"
        assert db_counts(settings, tid) == (0, 0)
        assert_alive(ws0)


def test_stale_seq_is_refused(client: TestClient, settings: Settings) -> None:
    """stale: the action was decided on another seq than the current one."""
    with two_humans(client) as (tid, _tokens, ws0, _ws1, state):
        for seq in (state["seq"] + 1, 99):
            ws0.send_json({"type": "action", "id": "s", "seq": seq, "action": state["legal"][0]})
            error = next_error(ws0)
            assert error["code"] == "stale"
            assert f"seq {seq}" in error["message"]
        assert db_counts(settings, tid) == (0, 0)


def test_oversize_message_is_refused_and_the_connection_stays(
    client: TestClient, settings: Settings
) -> None:
    """too_large: a message over 4096 bytes; the connection stays open."""
    with two_humans(client) as (tid, _tokens, ws0, _ws1, state):
        big = {
            "type": "action",
            "id": "b",
            "seq": state["seq"],
            "action": state["legal"][0],
            "pad": "x" * 5000,
        }
        ws0.send_json(big)
        error = next_error(ws0)
        assert error["code"] == "too_large"
        assert "4096" in error["message"]
        assert_alive(ws0)
        assert db_counts(settings, tid) == (0, 0)


def test_unknown_table_closes_with_4404(client: TestClient) -> None:
    """unknown_table: error, then the socket closes with code 4404."""
    with client.websocket_connect("/ws/tables/nosuchtabl") as ws:
        error = receive(ws)
        assert error["code"] == "unknown_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4404


def test_wrong_token_closes_with_4403_and_changes_nothing(
    client: TestClient, settings: Settings
) -> None:
    """bad_token: error, then close 4403; over HTTP 403; the seat stays unclaimed."""
    body = create(client, [HUMAN, bot()])
    tid = body["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}?token=wrong") as ws:
        error = receive(ws)
        assert error["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": "wrong", "seq": 0, "action": "left"}
    )
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "bad_token"
    r = client.get(f"/api/tables/{tid}/state", params={"token": "x" * 40})
    assert r.status_code == 403
    table = client.get(f"/api/tables/{tid}").json()
    assert table["status"] == "open"
    assert not table["seats"][0]["claimed"]
    assert db_counts(settings, tid) == (0, 0)


def test_acting_after_the_end_is_refused(client: TestClient, settings: Settings) -> None:
    """finished: no action once the game is over."""
    body = create(client, [bot(), bot()])
    tid = body["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive(ws)
        state = receive_until(ws, lambda m: m["type"] == "state" and m["to_move"] is None)
        ws.send_json({"type": "action", "id": "f", "seq": state["seq"], "action": "left"})
        assert next_error(ws)["code"] == "finished"
    assert db_counts(settings, tid) == (state["seq"], state["seq"])


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess", "seats": [HUMAN, HUMAN]}, 422),
        ({"game": "flaming", "seats": [HUMAN]}, 422),
        ({"game": "flaming", "seats": [HUMAN] * 7}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "colour": "red"}, 422),
        ({"game": "flaming", "seats": [{"kind": "human", "name": "x" * 41}, HUMAN]}, 422),
        ({"game": "flaming", "seats": [{"kind": "bot"}, HUMAN]}, 422),
        ({"game": "flaming", "seats": [{"kind": "bot", "bot": "oracle"}, HUMAN]}, 422),
        ({"game": "flaming", "seats": [{"kind": "human", "bot": "greedy"}, HUMAN]}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "seed": -1}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "seed": "12"}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "bot_delay": 11}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "options": {"preset": [1]}}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "options": {"max_turns": 0}}, 422),
        ({"game": "flaming", "seats": [HUMAN, HUMAN], "options": {"first_player": 5}}, 422),
    ],
)
def test_create_table_refuses_bad_bodies(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    """malformed / bad_options: the schema or the game refuses; no table is made."""
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] in ("malformed", "bad_options")
    assert r.json()["error"]["message"]
    assert client.get("/api/tables").json()["tables"] == []


def test_http_body_errors(client: TestClient) -> None:
    """400 for a body that is not JSON, 413 too_large for one over 64 KiB."""
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "malformed"
    r = client.post(
        "/api/tables",
        content=b'{"game": "flaming", "seats": [], "pad": "' + b"x" * 70000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "too_large"
    r = client.delete("/api/tables")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "method_not_allowed"
    r = client.get("/api/nothing")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
