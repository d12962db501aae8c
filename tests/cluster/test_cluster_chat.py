"""Table chat and rematch across a cluster's instances (docs/CLUSTER.md, docs/PLAYERS.md).

A table's sockets may be held by any instance: each test connects the seats (and
spectators) straight to different instances, past the balancer, and the table is created
on a third one, which owns it. What one instance stores (a chat message, the switch of
the spectators' channel, a rematch ask) reaches the sockets of the others by PostgreSQL
notifications, under the same rules as on one server: the seats' channel goes to the
seats only while the game runs, the spectators' channel to everyone while it is open.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.cluster.cluster import Cluster
from tests.http_play import HttpSeat, play_out, use_invite

INSTANCE_HEADER = "X-Pyramids-Instance"
RECEIVE_TIMEOUT = 20.0
"""Seconds a test waits for a message before failing (a hang, not a timing test)."""
OWNER = "i3"
"""The instance the tables are created on (their owner): neither seat's."""
ONE_TURN: dict[str, Any] = {"preset": "basic", "max_turns": 1}

Message = dict[str, Any]


def create(cluster: Cluster, names: tuple[str, str], **options: Any) -> tuple[str, list[str]]:
    """A Flaming Pyramids table of two people created on ``OWNER``: its id and the seats'
    credentials (each invite used once, on the owner)."""
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": n} for n in names],
        "options": options or {"preset": "basic"},
    }
    r = httpx.post(f"{cluster.instance_url(OWNER)}/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    assert r.headers[INSTANCE_HEADER] == OWNER
    data = r.json()
    table = data["table"]["id"]
    with httpx.Client(base_url=cluster.instance_url(OWNER), timeout=30) as http:
        return table, [use_invite(http, table, inv["token"]) for inv in data["invites"]]


async def receive_until(
    ws: ClientConnection, wanted: Callable[[Message], bool], seen: list[Message] | None = None
) -> Message:
    """The first message ``wanted`` accepts (those before it go to ``seen``)."""
    async with asyncio.timeout(RECEIVE_TIMEOUT):
        while True:
            msg: Message = json.loads(await ws.recv())
            if wanted(msg):
                return msg
            if seen is not None:
                seen.append(msg)


async def next_chat(ws: ClientConnection) -> Message:
    """The next chat message this socket gets."""
    return dict((await receive_until(ws, lambda m: m["type"] == "chat"))["message"])


async def say(ws: ClientConnection, text: str, msg_id: str, **extra: Any) -> Message:
    """Send a chat message; the server's answer to it (ack or error)."""
    await ws.send(json.dumps({"type": "chat", "id": msg_id, "text": text, **extra}))
    return await receive_until(ws, lambda m: m["type"] in ("ack", "error") and m["id"] == msg_id)


async def switch(ws: ClientConnection, spectators: bool, msg_id: str) -> None:
    """Switch the spectators' channel; returns once the server acknowledged it."""
    await ws.send(json.dumps({"type": "chat_settings", "id": msg_id, "spectators": spectators}))
    answer = await receive_until(ws, lambda m: m.get("id") == msg_id)
    assert answer["type"] == "ack", answer


@asynccontextmanager
async def socket(
    cluster: Cluster, instance: str, table: str, token: str | None = None
) -> AsyncIterator[ClientConnection]:
    """A table socket opened on ``instance`` itself (a seat's with ``token``; else a
    spectator's), once its hello and state have come."""
    url = cluster.instance_url(instance).replace("http", "ws", 1) + f"/ws/tables/{table}"
    async with connect(url + (f"?token={token}" if token else "")) as ws:
        assert ws.response is not None
        assert ws.response.headers[INSTANCE_HEADER] == instance
        await receive_until(ws, lambda m: m["type"] == "state")
        yield ws


def test_chat_said_on_one_instance_reaches_the_others_under_the_channel_rules(
    cluster: Cluster,
) -> None:
    """The seats' channel reaches the other seat on another instance but no spectator on
    any; the spectators' channel reaches everyone, wherever their socket is."""
    table, (ann_token, bob_token) = create(cluster, ("Ann", "Bob"))

    async def run() -> None:
        async with (
            socket(cluster, "i1", table, ann_token) as ann,
            socket(cluster, "i2", table, bob_token) as bob,
            socket(cluster, "i2", table) as watcher2,
            socket(cluster, "i1", table) as watcher1,
        ):
            said = await say(ann, "good luck", "a1")
            assert said["type"] == "ack", said
            got = await next_chat(bob)
            assert (got["id"], got["channel"], got["seat"], got["name"], got["text"]) == (
                said["message_id"],
                "seats",
                0,
                "Ann",
                "good luck",
            )
            assert (await say(ann, "hello watchers", "a2", channel="spectators"))["type"] == "ack"
            # the remote spectator's first message is the second one said: the seats'
            # message never reached it (an instance tells another's messages in order)
            for watcher in (watcher2, watcher1):
                first = await next_chat(watcher)
                assert (first["text"], first["channel"], first["seat"]) == (
                    "hello watchers",
                    "spectators",
                    0,
                )
            assert (await next_chat(bob))["text"] == "hello watchers"
            assert (await say(watcher2, "nice move", "w1"))["type"] == "ack"
            for seat in (ann, bob):
                from_watcher = await next_chat(seat)
                assert from_watcher["text"] == "nice move"
                assert (from_watcher["name"], from_watcher["seat"]) == ("Spectator", None)
            assert (await next_chat(watcher1))["text"] == "nice move"

    asyncio.run(run())
    with httpx.Client(base_url=cluster.instance_url(OWNER), timeout=30) as http:
        spectators = http.get(f"/api/tables/{table}/chat").json()["messages"]
        seated = http.get(f"/api/tables/{table}/chat", params={"token": bob_token}).json()
    assert [m["text"] for m in spectators] == ["hello watchers", "nice move"]
    assert [m["text"] for m in seated["messages"]] == ["good luck", "hello watchers", "nice move"]


def test_the_spectators_switch_on_one_instance_reaches_the_others(cluster: Cluster) -> None:
    """Ann (on i1) switches the spectators' channel off: a spectator on i2 is told, reads
    nothing more and is refused (chat_off) by its own instance; Bob (on i2) switches it on
    again: a spectator on i1 is told and gets the channel's history back."""
    table, (ann_token, bob_token) = create(cluster, ("Ann", "Bob"))

    async def run() -> None:
        async with (
            socket(cluster, "i1", table, ann_token) as ann,
            socket(cluster, "i2", table, bob_token) as bob,
            socket(cluster, "i2", table) as watcher2,
            socket(cluster, "i1", table) as watcher1,
        ):
            assert (await say(watcher2, "first", "w1"))["type"] == "ack"
            assert (await next_chat(watcher1))["text"] == "first"
            await switch(ann, False, "off")
            told = await receive_until(watcher2, lambda m: m["type"] == "chat_settings")
            assert told == {"type": "chat_settings", "spectators": False, "by": 0}
            history = await receive_until(watcher2, lambda m: m["type"] == "chat_history")
            assert history == {"type": "chat_history", "messages": [], "spectators": False}
            refused = await say(watcher2, "still here?", "w2")
            assert refused["type"] == "error" and refused["code"] == "chat_off", refused
            summary = await receive_until(
                bob,
                lambda m: m["type"] == "table" and not m["table"]["settings"]["spectator_chat"],
            )
            assert summary["table"]["id"] == table
            await switch(bob, True, "on")
            told = await receive_until(
                watcher1, lambda m: m["type"] == "chat_settings" and m["spectators"]
            )
            assert told == {"type": "chat_settings", "spectators": True, "by": 1}
            history = await receive_until(
                watcher1, lambda m: m["type"] == "chat_history" and m["spectators"]
            )
            assert [m["text"] for m in history["messages"]] == ["first"]
            assert (await say(watcher1, "back", "w3"))["type"] == "ack"
            assert (await next_chat(watcher2))["text"] == "back"

    asyncio.run(run())
    r = httpx.get(f"{cluster.instance_url(OWNER)}/api/tables/{table}", timeout=30)
    assert r.json()["settings"]["spectator_chat"] is True


def finish(cluster: Cluster, table: str, tokens: list[str]) -> None:
    """Play each seat's first legal action over HTTP (on ``OWNER``) until the game is over."""
    with httpx.Client(base_url=cluster.instance_url(OWNER), timeout=30) as http:
        play_out(table, [HttpSeat(token, http) for token in tokens], accept=(200,))


def test_a_rematch_asked_on_one_instance_is_offered_on_the_other(cluster: Cluster) -> None:
    """Ann asks on i1: Bob's page on i2 hears "Ann wants a rematch" with the new table's
    id, and the old table's summary there names it; Bob joins on i2: Ann's page on i1
    hears it, and the rematch runs."""
    old, (ann_token, bob_token) = create(cluster, ("Ann", "Bob"), **ONE_TURN)
    finish(cluster, old, [ann_token, bob_token])

    async def run() -> str:
        async with (
            socket(cluster, "i1", old, ann_token) as ann,
            socket(cluster, "i2", old, bob_token) as bob,
            httpx.AsyncClient(timeout=30) as http,
        ):
            r = await http.post(
                f"{cluster.instance_url('i1')}/api/tables/{old}/rematch",
                json={"token": ann_token},
            )
            assert r.status_code == 200, r.text
            assert r.headers[INSTANCE_HEADER] == "i1"
            new = str(r.json()["table"]["id"])
            before: list[Message] = []
            offer = await receive_until(bob, lambda m: m["type"] == "rematch", before)
            assert offer == {"type": "rematch", "table_id": new, "seat": 0, "name": "Ann"}
            # the old table's summary names its rematch first (as on Ann's instance)
            shown = [m["table"] for m in before if m["type"] == "table"]
            assert shown and shown[-1]["rematch_id"] == new and shown[-1]["match_id"] == old
            r = await http.post(
                f"{cluster.instance_url('i2')}/api/tables/{old}/rematch",
                json={"token": bob_token},
            )
            assert r.status_code == 200, r.text
            assert r.json()["table"]["id"] == new and r.json()["seat"] == 1
            joined = await receive_until(ann, lambda m: m["type"] == "rematch" and m["seat"] == 1)
            assert joined == {"type": "rematch", "table_id": new, "seat": 1, "name": "Bob"}
            return new

    new = asyncio.run(run())
    with httpx.Client(timeout=30) as http:
        summary = http.get(f"{cluster.instance_url(OWNER)}/api/tables/{new}").json()
        assert summary["status"] == "running" and summary["match_id"] == old
        for name in cluster.names:
            seen = http.get(
                f"{cluster.instance_url(name)}/api/tables/{old}", params={"token": ann_token}
            ).json()
            assert seen["rematch_id"] == new, (name, seen)
