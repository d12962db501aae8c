"""Hardening (issue 12, points 7 and 8): security headers, the WebSocket Origin check, a
clean shutdown under load, and the notice that a bot played for a human.

"CSP without inline script, frame-ancestors 'none', Referrer-Policy: no-referrer,
nosniff; WebSocket Origin checked (same origin by default, configurable list); clean
shutdown in under 2 s under load." "When time runs out the table, the log and the replay
say 'time ran out: a bot played for Alice'."
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from pyramids.server import create_app
from pyramids.server.hardening import CSP, is_origin_allowed, normalize_origin
from tests.http_play import wait_finished
from tests.live import live_server
from tests.server.conftest import (
    HUMAN,
    bot,
    create,
    make_settings,
    receive,
    receive_until,
)
from tests.waiting import HANG, wait_until

ALICE: dict[str, Any] = {"kind": "human", "name": "Alice"}
TIMED_OUT_EN = "time ran out: a bot played for Alice"
TIMED_OUT_FR = "temps écoulé : un bot a joué pour Alice"


# --- response headers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/", "/t/abcdefghij", "/t/abcdefghij/replay", "/static/js/table.js", "/api/games"]
)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    """Pages, static files and the API: CSP without inline script, no framing, no referrer."""
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_errors_carry_them_too(client: TestClient) -> None:
    """A 404 and a 422 are answers like any other."""
    for r in (client.get("/api/tables/nosuchtable"), client.post("/api/tables", json={})):
        assert r.status_code in (404, 422)
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-frame-options"] == "DENY"


def test_the_policy_allows_no_inline_script_or_style(client: TestClient) -> None:
    """The CSP has no 'unsafe-inline' and the pages have no inline script or style."""
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP
    assert "frame-ancestors 'none'" in CSP and "base-uri 'none'" in CSP
    for path in ("/", "/t/abcdefghij", "/t/abcdefghij/replay"):
        html = client.get(path).text
        assert "style=" not in html, path
        for chunk in html.split("<script")[1:]:
            assert " src=" in chunk.split(">", 1)[0], f"inline script in {path}"


# --- the WebSocket Origin check -------------------------------------------------------------


def _refused(client: TestClient, url: str, origin: str) -> tuple[dict[str, Any], int]:
    with client.websocket_connect(url, headers={"origin": origin}) as ws:
        error = receive(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    return error, closed.value.code


def test_a_page_of_another_origin_cannot_open_a_table_socket(client: TestClient) -> None:
    """Cross-site WebSocket hijacking: refused with bad_origin, closed with 1008."""
    tid = create(client, [HUMAN, bot()])["table"]["id"]
    error, code = _refused(client, f"/ws/tables/{tid}", "http://evil.example")
    assert error["type"] == "error" and error["code"] == "bad_origin"
    assert code == 1008


def test_same_origin_and_clients_without_origin_are_allowed(client: TestClient) -> None:
    """The server's own pages (Origin's host is the Host header) and non-browser clients."""
    tid = create(client, [HUMAN, bot()])["table"]["id"]
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
            assert receive(ws)["type"] == "hello"


def test_the_allow_list_admits_other_origins(tmp_path: Path) -> None:
    """``allowed_origins`` (``pyramids serve --allowed-origin``) lets a front end elsewhere in."""
    settings = make_settings(tmp_path, allowed_origins=("https://play.example.org",))
    with TestClient(create_app(settings)) as client:
        tid = create(client, [HUMAN, bot()])["table"]["id"]
        url = f"/ws/tables/{tid}"
        with client.websocket_connect(
            url, headers={"origin": "https://PLAY.example.org:443"}
        ) as ws:
            assert receive(ws)["type"] == "hello"
        assert _refused(client, url, "https://other.example.org")[1] == 1008


def test_origin_comparison_rules() -> None:
    """Scheme, host and port count; default ports and case do not; ``null`` is refused."""
    host = [(b"host", b"127.0.0.1:8000")]
    assert is_origin_allowed(host, ())
    assert is_origin_allowed([*host, (b"origin", b"http://127.0.0.1:8000")], ())
    assert not is_origin_allowed([*host, (b"origin", b"http://127.0.0.1:8001")], ())
    assert not is_origin_allowed([*host, (b"origin", b"null")], ())
    assert is_origin_allowed([(b"host", b"a.org"), (b"origin", b"https://a.org:443")], ())
    assert is_origin_allowed([*host, (b"origin", b"http://x.org")], ("*",))
    assert normalize_origin("HTTPS://A.org:443") == "https://a.org"


# --- "time ran out: a bot played for Alice" -------------------------------------------------


def _stand_in_texts(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["text_en"], e["text_fr"]) for e in events if e["kind"] == "stand_in"]


def test_a_timed_out_turn_says_a_bot_played_in_the_log_and_the_replay(tmp_path: Path) -> None:
    """A connected human who does not decide in turn_time: the bot's action for them carries
    the notice first in its log entry, for every viewer, live, after a restart and in the
    replay; it is the server's notice (game ``server``), not a rules event."""
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        body = create(client, [ALICE, bot("greedy")], turn_time=0.05)
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            receive(ws)
            state = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
            after = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
            assert after["last"]["seat"] == 0
            notice = after["last"]["events"][0]
            assert notice["game"] == "server" and notice["kind"] == "stand_in"
            assert notice["data"] == {"seat": 0, "name": "Alice", "reason": "timeout"}
            assert (notice["text_en"], notice["text_fr"]) == (TIMED_OUT_EN, TIMED_OUT_FR)
            with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
                seen = receive(spectator)["log"]
            assert any(_stand_in_texts(e["events"]) for e in seen)
            receive_until(ws, lambda m: m["type"] == "state" and m["to_move"] is None)
        replay = client.get(f"/api/tables/{tid}/replay").json()
        timed_out = [s["seq"] for s in replay if _stand_in_texts(s["events"])]
        assert timed_out and all(replay[q]["seat"] == 0 for q in timed_out)
    # Stored with the action: a restarted server says it too.
    with TestClient(create_app(settings)) as client:
        replay = client.get(f"/api/tables/{tid}/replay").json()
        assert [s["seq"] for s in replay if _stand_in_texts(s["events"])] == timed_out
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            log = receive(spectator)["log"]
        assert [e["seq"] for e in log if _stand_in_texts(e["events"])] == timed_out


def test_own_and_bot_moves_carry_no_notice(client: TestClient) -> None:
    """Only a bot choosing for a human seat is announced: not Alice's own moves, not the
    bot's seat."""
    body = create(client, [ALICE, bot("greedy")])
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        receive(ws)
        state = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
        for n in range(6):
            ws.send_json(
                {"type": "action", "id": n, "seq": state["seq"], "action": state["legal"][0]}
            )
            seen: list[dict[str, Any]] = []
            assert receive_until(ws, lambda m: m["type"] in ("ack", "error"), seen)["type"] == "ack"
            states = [m for m in seen if m["type"] == "state"]
            if states and states[-1]["legal"]:
                state = states[-1]
            else:
                state = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            log = receive(spectator)["log"]
    assert {e["seat"] for e in log} >= {0, 1}
    assert not any(_stand_in_texts(e["events"]) for e in log)


def test_an_absent_player_is_announced_too(client: TestClient) -> None:
    """The stand-in for a player who left: "Alice is away: a bot played for them"."""
    body = create(client, [ALICE, bot("greedy"), bot("random")], absent_after=0.05)
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        receive(ws)
    wait_finished(client, tid)
    replay = client.get(f"/api/tables/{tid}/replay").json()
    said = {t for s in replay for t in _stand_in_texts(s["events"])}
    assert said == {
        ("Alice is away: a bot played for them", "Alice est absent : un bot a joué à sa place")
    }


# --- clean shutdown under load ------------------------------------------------------------

BOT_TABLES = 10


def test_sigterm_under_bot_load_ends_the_server_cleanly() -> None:
    """Ten all-bot tables of six ISMCTS bots searching in the worker pool, spectators
    connected: SIGTERM ends the process with status 0. That it waits for no search is
    exact in tests/server/test_search_pool.py (a worker ten minutes into a search is
    stopped at once); how soon the process ends ("under 2 s under load") is a figure of
    bench/attacks.py (attack 6, shutdown), not asserted here on a shared machine."""
    with live_server() as server, httpx.Client(base_url=server.url, timeout=30) as http:
        tables: list[str] = []
        for _ in range(BOT_TABLES):
            r = http.post(
                "/api/tables",
                json={
                    "game": "flaming",
                    "seats": [bot("ismcts")] * 6,
                    "bot_delay": 0,
                    "public": True,  # listed, so the watchers below find it
                },
            )
            if r.status_code == 429:  # the per-address cap: enough load anyway
                break
            assert r.status_code == 201, r.text
            tables.append(r.json()["table"]["id"])
        assert len(tables) >= 2
        watchers = [
            connect(f"{server.ws_url}/ws/tables/{tables[i % len(tables)]}") for i in range(20)
        ]
        for tid in tables:  # the searches are running: every table's bots have moved
            wait_until(
                lambda tid=tid: http.get(f"/api/tables/{tid}").json()["seq"] >= 2,
                f"table {tid}: its bots' first moves",
            )
        pid = server.pid
        assert pid is not None
        os.killpg(pid, signal.SIGTERM)
        proc = server.proc
        assert proc is not None
        status = proc.wait(HANG)
        for ws in watchers:
            ws.close()
    assert status == 0
