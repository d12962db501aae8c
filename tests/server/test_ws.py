"""The table WebSocket of docs/PROTOCOL.md: hello, states, acting, acks, resync.

Whole games are played through the socket against server-side bots (no delay), in
Flaming Pyramids and in Pyramids and Flags, to the final ranking.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from pyramids.server import Settings
from tests.server.conftest import (
    HUMAN,
    bot,
    create,
    db_counts,
    play_to_end,
    receive,
    receive_until,
)


def connect_path(table_id: str, token: str | None = None) -> str:
    """The WebSocket path of a table (with a seat's token)."""
    return f"/ws/tables/{table_id}" + (f"?token={token}" if token else "")


def test_hello_then_state_on_connect(client: TestClient) -> None:
    """PROTOCOL: the server first sends hello (summary, seat, log), then a state."""
    body = create(client, [HUMAN, bot()])
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(connect_path(tid, token)) as ws:
        hello = receive(ws)
        assert hello["type"] == "hello"
        assert hello["seat"] == 0
        assert hello["table"]["id"] == tid
        assert hello["table"]["status"] == "running"  # the only invite is now used
        assert hello["log"] == []
        assert hello["seat_token"] not in (None, token)  # the seat's credential (issue 29)
        state = receive(ws)
        assert state["type"] == "state"
        assert state["seq"] == 0
        assert state["last"] is None
        assert state["to_move"] == 0
        assert state["legal"]
        assert state["view"]["hand"] is not None
        ws.send_json({"type": "ping", "id": 3})
        assert receive(ws) == {"type": "pong", "id": 3}


def test_legal_list_only_for_the_seat_to_move(client: TestClient) -> None:
    """PROTOCOL: legal lists the connection's actions when it is that seat's decision."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with (
        client.websocket_connect(connect_path(tid, t0)) as ws0,
        client.websocket_connect(connect_path(tid, t1)) as ws1,
        client.websocket_connect(connect_path(tid)) as spectator,
    ):
        s0 = receive_until(ws0, lambda m: m["type"] == "state" and m["status"] == "running")
        s1 = receive_until(ws1, lambda m: m["type"] == "state")
        sp = receive_until(spectator, lambda m: m["type"] == "state")
        assert s0["to_move"] == 0
        assert s0["legal"]
        assert s1["legal"] == []
        assert sp["legal"] == []
        assert sp["view"]["hand"] is None


def test_open_table_waits_for_every_invite(client: TestClient) -> None:
    """PROTOCOL: open until every human seat's invite has been used; nobody moves before."""
    body = create(client, [HUMAN, bot(), HUMAN])
    tid = body["table"]["id"]
    t0, t2 = body["invites"][0]["token"], body["invites"][1]["token"]
    with client.websocket_connect(connect_path(tid, t0)) as ws0:
        hello = receive(ws0)
        assert hello["table"]["status"] == "open"
        state = receive(ws0)
        assert state["status"] == "open"
        assert state["legal"] == []
        ws0.send_json({"type": "action", "id": "a", "seq": 0, "action": "R40@0,0"})
        error = receive(ws0)
        assert error["type"] == "error"
        assert error["id"] == "a"
        assert error["code"] == "out_of_turn"
        assert db_counts_ok(client, tid)
        with client.websocket_connect(connect_path(tid, t2)) as ws2:
            assert receive(ws2)["table"]["status"] == "running"
            table = receive_until(
                ws0, lambda m: m["type"] == "table" and m["table"]["status"] == "running"
            )
            assert table["table"]["seats"][2]["claimed"]
            again = receive_until(ws0, lambda m: m["type"] == "state")
            assert again["seq"] == 0
            assert again["status"] == "running"
            assert again["legal"]


def db_counts_ok(client: TestClient, table_id: str) -> bool:
    """The table is still at seq 0."""
    return bool(client.get(f"/api/tables/{table_id}").json()["seq"] == 0)


def test_acting_gets_state_then_ack(client: TestClient, settings: Settings) -> None:
    """PROTOCOL: an action is committed, its state broadcast, then acknowledged."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with (
        client.websocket_connect(connect_path(tid, t0)) as ws0,
        client.websocket_connect(connect_path(tid, t1)) as ws1,
    ):
        state = receive_until(ws0, lambda m: m["type"] == "state" and m["legal"])
        action = state["legal"][0]
        ws0.send_json({"type": "action", "id": "c1", "seq": state["seq"], "action": action})
        after = receive_until(ws0, lambda m: m["type"] != "table")
        assert after["type"] == "state"
        assert after["seq"] == 1
        assert after["last"]["seat"] == 0
        assert after["last"]["action"] == action
        assert {"game", "kind", "data", "text_en", "text_fr"} <= set(after["last"]["events"][0])
        assert receive(ws0) == {"type": "ack", "id": "c1", "seq": 1}
        other = receive_until(ws1, lambda m: m["type"] == "state" and m["seq"] == 1)
        assert other["last"]["action"] == action
    assert db_counts(settings, tid) == (1, 1)


def test_full_flaming_game_one_human_against_two_bots(client: TestClient) -> None:
    """Issue 4: a whole Flaming Pyramids game (3 seats) through the socket, to the ranking."""
    body = create(client, [HUMAN, bot("greedy"), bot("random")], options={"preset": "standard"})
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(connect_path(tid, token)) as ws:
        receive(ws)
        first = receive(ws)
        final = play_to_end(ws, first, seen)
    assert final["status"] == "finished"
    assert final["to_move"] is None
    assert sorted(final["ranking"]) == [0, 1, 2]
    assert final["view"].get("winner") == final["ranking"][0] or "ranking" in final["view"]
    states = [m for m in seen if m["type"] == "state"]
    assert [m["seq"] for m in states] == list(range(1, final["seq"] + 1))
    acks = [m for m in seen if m["type"] == "ack"]
    assert acks
    assert all(m["type"] != "error" for m in seen)
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished"
    assert summary["ranking"] == final["ranking"]
    assert len(client.get(f"/api/tables/{tid}/record").json()["actions"]) == final["seq"]


def test_full_flags_game_one_human_against_two_bots(client: TestClient) -> None:
    """Issue 4: a whole Pyramids and Flags game (3 seats) through the socket, to the end."""
    body = create(client, [bot("greedy"), HUMAN, bot("greedy")], game="flags")
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    rng = random.Random(4)
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(connect_path(tid, token)) as ws:
        assert receive(ws)["seat"] == 1
        first = receive(ws)
        final = play_to_end(ws, first, seen, choose=rng.choice)
    assert final["status"] == "finished"
    assert sorted(final["ranking"]) == [0, 1, 2]
    assert any(m["type"] == "ack" for m in seen)
    for m in seen:
        if m["type"] == "state":
            assert "?" not in m["view"]["hands"][1]  # seat 1 sees its own hand


def test_reconnect_and_sync_bring_the_client_back_in_sync(client: TestClient) -> None:
    """PROTOCOL: a client that reconnects rebuilds its log from hello; sync answers the same."""
    body = create(client, [HUMAN, bot("greedy"), bot("random")])
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    log: dict[int, dict[str, Any]] = {}
    with client.websocket_connect(connect_path(tid, token)) as ws:
        token = receive(ws)["seat_token"]  # the invite is used: reconnect with the credential
        state = receive(ws)
        for _ in range(3):
            ws.send_json({"type": "action", "seq": state["seq"], "action": state["legal"][0]})
            while True:
                msg = receive(ws)
                if msg["type"] == "state":
                    log[msg["seq"]] = msg["last"]
                    state = msg
                    if msg["legal"] or msg["to_move"] is None:
                        break
        last_state = state
    with client.websocket_connect(connect_path(tid, token)) as ws:
        hello = receive(ws)
        again = receive(ws)
        assert again["seq"] == last_state["seq"]
        assert again["view"] == last_state["view"]
        assert again["legal"] == last_state["legal"]
        assert hello["log"] == [log[s] for s in sorted(log)]
        assert [e["seq"] for e in hello["log"]] == list(range(1, again["seq"] + 1))
        ws.send_json({"type": "sync"})
        assert receive(ws) == hello
        assert receive(ws) == again


def test_spectator_follows_the_game(client: TestClient) -> None:
    """PROTOCOL: without a token, a connection watches: public view, every state in order."""
    body = create(client, [bot("greedy"), bot("greedy")], bot_delay=0)
    tid = body["table"]["id"]
    with client.websocket_connect(connect_path(tid)) as ws:
        hello = receive(ws)
        assert hello["seat"] is None
        state = receive(ws)
        seqs = [state["seq"]]
        while state["to_move"] is not None:
            state = receive_until(ws, lambda m: m["type"] == "state")
            seqs.append(state["seq"])
            assert state["view"]["hand"] is None
            assert state["legal"] == []
        assert seqs == list(range(seqs[0], seqs[-1] + 1))
        assert sorted(state["ranking"]) == [0, 1]
