"""Table chat (docs/PLAYERS.md, "Table chat"): the seats' channel, the spectators' channel
the players can switch off, plain text limited in length and rate, stored with the game.

Issue 15: "per table, plain text (never rendered as HTML), length-limited and rate-limited,
visible to seats, with a separate spectator channel the table can switch off; stored with
the game and shown in the replay".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from pyramids.server import Settings, create_app
from pyramids.server.config import LimitSettings
from tests.http_play import use_invite
from tests.server.conftest import HUMAN, bot, create, make_settings, play_to_end, receive_until
from tests.server.rate_clock import RateClock

TWO_PEOPLE: dict[str, Any] = {"options": {"preset": "basic"}}


@pytest.fixture(autouse=True)
def rate_clock(monkeypatch: pytest.MonkeyPatch) -> RateClock:
    """Every rate here counts on a stopped clock (``tests/server/rate_clock.py``): eight
    messages are "in ten seconds" however slowly a busy machine sends them."""
    return RateClock(monkeypatch)


def path(table_id: str, token: str | None = None) -> str:
    """The WebSocket path of a table (with a seat's token)."""
    return f"/ws/tables/{table_id}" + (f"?token={token}" if token else "")


def history(ws: WebSocketTestSession) -> dict[str, Any]:
    """The chat_history the server sends after hello and state (when there is anything to
    read) or after a change of what this connection may read."""
    return receive_until(ws, lambda m: m["type"] == "chat_history")


def opened(ws: WebSocketTestSession) -> bool:
    """Read a new connection's hello and state; whether its spectators' channel is open."""
    seen: list[dict[str, Any]] = []
    receive_until(ws, lambda m: m["type"] == "state", seen)
    hello = next(m for m in seen if m["type"] == "hello")
    return bool(hello["table"]["settings"]["spectator_chat"])


def next_chat(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next chat message (or error) this connection gets."""
    msg = receive_until(ws, lambda m: m["type"] in ("chat", "error"))
    assert msg["type"] == "chat", msg
    return dict(msg["message"])


def say(ws: WebSocketTestSession, text: Any, msg_id: str = "m", **extra: Any) -> dict[str, Any]:
    """Send a chat message; the server's answer to it (ack or error)."""
    ws.send_json({"type": "chat", "id": msg_id, "text": text, **extra})
    return receive_until(ws, lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id)


def table_of_two(client: TestClient) -> tuple[str, str, str]:
    """A table of two people, both seated: its id and both seats' credentials (each invite
    used once, issue 29)."""
    body = create(client, [HUMAN, HUMAN], **TWO_PEOPLE)
    tid = body["table"]["id"]
    t0, t1 = (use_invite(client, tid, i["token"]) for i in body["invites"])
    return tid, t0, t1


def test_the_seats_channel_reaches_the_players_and_not_the_spectators(
    client: TestClient,
) -> None:
    """A seated player's message goes to the seats; spectators read only their own channel
    while the game runs."""
    tid, t0, t1 = table_of_two(client)
    with (
        client.websocket_connect(path(tid, t0)) as ws0,
        client.websocket_connect(path(tid, t1)) as ws1,
        client.websocket_connect(path(tid)) as watcher,
    ):
        for ws in (ws0, ws1, watcher):
            assert opened(ws) is True  # nothing said yet: no chat_history
        answer = say(ws0, "  good luck  ", "a1")
        assert answer["type"] == "ack" and isinstance(answer["message_id"], int)
        got = next_chat(ws1)
        assert got["channel"] == "seats" and got["seat"] == 0 and got["name"] == "Seat 1"
        assert got["text"] == "good luck" and got["seq"] == 0 and got["id"] == answer["message_id"]
        say(ws1, "hello watchers", "a2", channel="spectators")
        seen = next_chat(watcher)
        assert (seen["text"], seen["channel"], seen["seat"]) == ("hello watchers", "spectators", 1)
        assert say(watcher, "nice move", "a3")["type"] == "ack"
        assert next_chat(ws0)["text"] == "hello watchers"
        from_watcher = next_chat(ws0)
        assert (from_watcher["name"], from_watcher["seat"]) == ("Spectator", None)
        assert from_watcher["channel"] == "spectators"
        refused = say(watcher, "let me in", "a4", channel="seats")
        assert refused["type"] == "error" and refused["code"] == "forbidden"
    spectators = client.get(f"/api/tables/{tid}/chat").json()["messages"]
    assert [m["text"] for m in spectators] == ["hello watchers", "nice move"]
    seated = client.get(f"/api/tables/{tid}/chat", params={"token": t1}).json()["messages"]
    assert [m["text"] for m in seated] == ["good luck", "hello watchers", "nice move"]
    bad = client.get(f"/api/tables/{tid}/chat", params={"token": "not-a-token"})
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"


def test_a_player_switches_the_spectators_channel_off_and_on(client: TestClient) -> None:
    """Switched off: spectators' messages are refused (chat_off), nobody reads that channel;
    the setting is stored in the table's settings; spectators cannot switch it."""
    tid, t0, _t1 = table_of_two(client)
    with (
        client.websocket_connect(path(tid, t0)) as ws0,
        client.websocket_connect(path(tid)) as watcher,
    ):
        opened(ws0)
        opened(watcher)
        assert say(watcher, "first", "w1")["type"] == "ack"
        ws0.send_json({"type": "chat_settings", "id": "off", "spectators": False})
        told = receive_until(watcher, lambda m: m["type"] == "chat_settings")
        assert told == {"type": "chat_settings", "spectators": False, "by": 0}
        assert history(watcher) == {"type": "chat_history", "messages": [], "spectators": False}
        refused = say(watcher, "still here?", "w2")
        assert refused["type"] == "error" and refused["code"] == "chat_off"
        watcher.send_json({"type": "chat_settings", "id": "w3", "spectators": True})
        msg = receive_until(watcher, lambda m: m.get("id") == "w3")
        assert msg["type"] == "error" and msg["code"] == "forbidden"
        ws0.send_json({"type": "chat_settings", "id": "bad", "spectators": "no"})
        msg = receive_until(ws0, lambda m: m.get("id") == "bad")
        assert msg["type"] == "error" and msg["code"] == "malformed"
        assert client.get(f"/api/tables/{tid}").json()["settings"]["spectator_chat"] is False
        assert client.get(f"/api/tables/{tid}/chat").json() == {
            "messages": [],
            "spectators": False,
        }
        ws0.send_json({"type": "chat_settings", "id": "on", "spectators": True})
        receive_until(watcher, lambda m: m["type"] == "chat_settings" and m["spectators"])
        again = history(watcher)
        assert [m["text"] for m in again["messages"]] == ["first"] and again["spectators"]
        assert say(watcher, "back", "w4")["type"] == "ack"


def test_blank_long_and_control_character_messages_are_refused(client: TestClient) -> None:
    """1 to 300 characters after stripping, one line (line breaks become spaces), no
    control characters or direction overrides; the reason is said."""
    tid, t0, _t1 = table_of_two(client)
    with client.websocket_connect(path(tid, t0)) as ws:
        opened(ws)
        cases: list[tuple[Any, str]] = [
            ("   ", "empty"),
            ("", "empty"),
            ("x" * 301, "at most 300"),
            ("bell\x07", "U+0007"),
            ("evil\u202etxt", "U+202E"),
            (42, "string"),
            (None, "string"),
        ]
        for i, (text, reason) in enumerate(cases):
            answer = say(ws, text, f"bad{i}")
            assert answer["type"] == "error" and answer["code"] == "malformed", (text, answer)
            assert reason in answer["message"], (text, answer["message"])
        assert say(ws, "y" * 300, "long")["type"] == "ack"
        assert say(ws, "two\nlines\tand tab", "lines")["type"] == "ack"
        assert say(ws, "ok", "chan", channel="everyone")["code"] == "malformed"
    texts = [
        m["text"]
        for m in client.get(f"/api/tables/{tid}/chat", params={"token": t0}).json()["messages"]
    ]
    assert texts == ["y" * 300, "two lines and tab"]


def test_html_and_script_are_kept_verbatim_as_text(client: TestClient) -> None:
    """Chat is plain text: markup is neither stripped nor escaped by the server, only
    carried as the string it is (the page shows it with textContent)."""
    tid, t0, t1 = table_of_two(client)
    payloads = ["<img src=x onerror=alert(1)>", "<script>alert('x')</script>", "<b>bold</b> &amp;"]
    with (
        client.websocket_connect(path(tid, t0)) as ws0,
        client.websocket_connect(path(tid, t1)) as ws1,
    ):
        opened(ws0)
        opened(ws1)
        for i, text in enumerate(payloads):
            assert say(ws0, text, f"h{i}")["type"] == "ack"
            assert next_chat(ws1)["text"] == text
    stored = client.get(f"/api/tables/{tid}/chat", params={"token": t1}).json()["messages"]
    assert [m["text"] for m in stored] == payloads


def test_one_connection_sends_at_most_eight_messages_in_ten_seconds(
    client: TestClient, rate_clock: RateClock
) -> None:
    """The per-connection cap (``rate_chat_connection``, by default 8 in any 10 seconds)
    holds even for an address without limits (the test client); another connection of
    the same address is not affected, and after ``retry_after`` seconds the first may
    write again."""
    tid, t0, t1 = table_of_two(client)
    with (
        client.websocket_connect(path(tid, t0)) as ws,
        client.websocket_connect(path(tid, t1)) as other,
    ):
        opened(ws)
        opened(other)
        for i in range(8):
            assert say(ws, f"m{i}", f"c{i}")["type"] == "ack"
        answer = say(ws, "one too many", "c8")
        assert answer["type"] == "error" and answer["code"] == "rate_limited"
        assert answer["message"].startswith("too many chat messages on this connection")
        assert 1 <= answer["retry_after"] <= 10
        assert say(other, "my own count", "o1")["type"] == "ack"
        rate_clock.advance(answer["retry_after"])
        assert say(ws, "again", "c9")["type"] == "ack"


def test_the_per_connection_cap_is_a_setting(tmp_path: Path) -> None:
    """``rate_chat_connection`` sets it (issue 31: every rate is a setting): at 2 per
    minute the third message of a connection is refused, switches of the spectators'
    channel count too, and messages refused as malformed do not."""
    limits = LimitSettings(exempt="testclient", rate_chat_connection="2/minute")
    with TestClient(create_app(make_settings(tmp_path, limits=limits))) as client:
        tid, t0, _t1 = table_of_two(client)
        with client.websocket_connect(path(tid, t0)) as ws:
            opened(ws)
            assert say(ws, "", "blank")["code"] == "malformed"
            assert say(ws, "one", "r1")["type"] == "ack"
            ws.send_json({"type": "chat_settings", "id": "off", "spectators": False})
            receive_until(ws, lambda m: m.get("id") == "off" and m["type"] == "ack")
            answer = say(ws, "three", "r3")
            assert answer["type"] == "error" and answer["code"] == "rate_limited"
            assert "at most 2 in 60 s" in answer["message"]


def test_the_address_rate_limit_refuses_with_retry_after(tmp_path: Path) -> None:
    """``rate_chat`` counts every chat message of an address, on every table."""
    settings = make_settings(tmp_path, limits=LimitSettings(rate_chat="2/minute", exempt=""))
    with TestClient(create_app(settings)) as client:
        tid, t0, _t1 = table_of_two(client)
        other = create(client, [HUMAN, bot()], options={"preset": "basic"})["table"]["id"]
        with (
            client.websocket_connect(path(tid, t0)) as ws,
            client.websocket_connect(path(other)) as watcher,
        ):
            opened(ws)
            opened(watcher)
            assert say(ws, "one", "r1")["type"] == "ack"
            assert say(watcher, "two", "r2")["type"] == "ack"
            answer = say(ws, "three", "r3")
            assert answer["type"] == "error" and answer["code"] == "rate_limited"
            assert 1 <= answer["retry_after"] <= 60


def test_chat_and_its_setting_are_kept_across_a_restart(settings: Settings) -> None:
    """Stored before it is sent: a new server on the same database shows it again."""
    with TestClient(create_app(settings)) as client:
        tid, t0, t1 = table_of_two(client)
        with client.websocket_connect(path(tid, t0)) as ws:
            opened(ws)
            assert say(ws, "remember me", "k1")["type"] == "ack"
            assert say(ws, "and me", "k2", channel="spectators")["type"] == "ack"
            ws.send_json({"type": "chat_settings", "id": "k3", "spectators": False})
            receive_until(ws, lambda m: m.get("id") == "k3")
    with TestClient(create_app(settings)) as client:
        with client.websocket_connect(path(tid, t1)) as ws:
            again = history(ws)
        assert [(m["text"], m["channel"]) for m in again["messages"]] == [("remember me", "seats")]
        assert again["spectators"] is False
        assert client.get(f"/api/tables/{tid}").json()["settings"]["spectator_chat"] is False


def test_a_finished_table_shows_both_channels_at_their_seq(client: TestClient) -> None:
    """Once the game is over everyone reads both channels (the replay shows each message at
    the seq it was said)."""
    body = create(client, [HUMAN, bot()], options={"preset": "basic", "max_turns": 1})
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(path(tid, token)) as ws:
        seen: list[dict[str, Any]] = []
        state = receive_until(ws, lambda m: m["type"] == "state", seen)
        assert say(ws, "before", "f1")["type"] == "ack"
        final = play_to_end(ws, state)
        assert say(ws, "gg", "f2")["type"] == "ack"
    assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"
    chat = client.get(f"/api/tables/{tid}/chat").json()["messages"]
    assert [(m["text"], m["channel"], m["seq"]) for m in chat] == [
        ("before", "seats", state["seq"]),
        ("gg", "seats", final["seq"]),
    ]
    with client.websocket_connect(path(tid)) as watcher:
        assert [m["text"] for m in history(watcher)["messages"]] == ["before", "gg"]
    assert client.get("/api/tables/nosuchtab1/chat").json()["error"]["code"] == "unknown_table"
