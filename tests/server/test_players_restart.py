"""Issue 15: "a restart keeps accounts, ratings, chat and banks", with a real ``pyramids
serve`` process killed with SIGKILL (as a crash or a power cut would) and started again on
the same database: the sessions still log their players in, the ratings and the player's
page are as they were, the chat is still there, and the turn-based table's banks and
deadline are the same."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.live import LiveServer, live_server

PASSWORD = "correct horse battery"
WAIT = 60.0


def account(server: LiveServer, name: str) -> httpx.Client:
    """A browser of its own (cookie jar) signed up and logged in as ``name``."""
    client = httpx.Client(base_url=server.url, timeout=30)
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf"]
    return client


def table_for(ann: httpx.Client, bob: httpx.Client, **extra: Any) -> tuple[str, str, str]:
    """A public rated table of Ann (seat 0) and Bob (seat 1), both seats taken logged in."""
    body = {"game": "flaming", "seats": [{"kind": "human"}] * 2, "public": True, "rated": True}
    r = ann.post("/api/tables", json={**body, **extra})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    tokens = []
    for seat, who in enumerate((ann, bob)):
        claimed = who.post(f"/api/tables/{tid}/seats/{seat}/claim", json={})
        assert claimed.status_code == 200, claimed.text
        tokens.append(claimed.json()["token"])
    return tid, tokens[0], tokens[1]


def move(who: httpx.Client, tid: str, token: str) -> bool:
    """Play the seat's first legal action if it is its turn; False once the game is over."""
    state = who.get(f"/api/tables/{tid}/state", params={"token": token}).json()
    if state["to_move"] is None:
        return False
    if state["legal"]:
        r = who.post(
            f"/api/tables/{tid}/actions",
            json={"token": token, "seq": state["seq"], "action": state["legal"][0]},
        )
        assert r.status_code in (200, 409), r.text
    return True


async def say(server: LiveServer, tid: str, token: str, text: str) -> dict[str, Any]:
    """Say ``text`` at the table over its WebSocket; the server's answer to it."""
    async with connect(f"{server.ws_url}/ws/tables/{tid}?token={token}") as ws:
        await ws.send(json.dumps({"type": "chat", "id": "c1", "text": text}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            if msg.get("id") == "c1":
                return dict(msg)


def test_a_sigkill_and_restart_keep_accounts_ratings_chat_and_banks() -> None:
    with live_server() as server:
        ann, bob = account(server, "Ann"), account(server, "Bob")
        # a rated game played to the end: both rated
        done, a0, b0 = table_for(ann, bob, options={"preset": "basic"})
        deadline = time.monotonic() + WAIT
        while move(ann, done, a0) and move(bob, done, b0):
            assert time.monotonic() < deadline, "the rated game did not finish"
        page: dict[str, Any] = {}
        while time.monotonic() < deadline and not page.get("ratings"):
            page = ann.get("/api/players/Ann").json()
        assert [r["pool"] for r in page["ratings"]] == ["rated"]
        # a turn-based table under way: Ann has moved once, Bob's decision is running
        clock = {"mode": "turn_based", "per_move": 86400, "bank": 3 * 86400}
        running, a1, b1 = table_for(ann, bob, clock=clock)
        assert move(ann, running, a1)
        said = asyncio.run(say(server, running, b1, "<b>see you tomorrow</b>"))
        assert said["type"] == "ack", said
        before = ann.get(f"/api/tables/{running}").json()
        assert before["clocks"] and any(c["running"] for c in before["clocks"])
        cookies = {"Ann": dict(ann.cookies), "Bob": dict(bob.cookies)}

        server.kill()
        server.start()

        for name, jar in cookies.items():
            again = httpx.Client(base_url=server.url, cookies=jar, timeout=30)
            assert again.get("/api/session").json()["account"]["name"] == name
        ann = httpx.Client(base_url=server.url, cookies=cookies["Ann"], timeout=30)
        assert ann.get("/api/players/Ann").json()["ratings"] == page["ratings"]
        assert ann.get("/api/players/Ann").json()["history"] == page["history"]
        after = ann.get(f"/api/tables/{running}").json()
        assert after["clocks"] == before["clocks"]
        assert (after["seq"], after["to_move"]) == (before["seq"], before["to_move"])
        chat = ann.get(f"/api/tables/{running}/chat", params={"token": a1}).json()
        assert [(m["name"], m["text"]) for m in chat["messages"]] == [
            ("Bob", "<b>see you tomorrow</b>")
        ]
