"""Fan-out that scales with viewers: one serialisation per distinct view, not per socket.

"A state is serialised once per distinct view (each seat, and one public view for all
spectators), not once per socket." Counted in the app (how many times a state message is
built for the spectators' view against how many states each spectator received), and
checked end to end on a real `pyramids serve`, whose sockets get the frames made once
per view (server/fanout.py) in one write per batch.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect

from pyramids.server.live import LiveTable
from pyramids.server.wire import Outgoing, text_frame
from tests.live import live_server
from tests.server.conftest import HUMAN, bot, create, play_to_end, receive, receive_until
from tests.waiting import until

SPECTATORS = 12


def test_spectators_share_one_serialisation_of_each_state(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve spectators watch a whole game: the public view is built once per state."""
    built: Counter[int | None] = Counter()
    original = LiveTable.state_message

    def counting(self: LiveTable, viewer: int | None) -> dict[str, Any]:
        built[viewer] += 1
        return original(self, viewer)

    monkeypatch.setattr(LiveTable, "state_message", counting)
    body = create(client, [HUMAN, bot("greedy")])
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    seen: list[list[dict[str, Any]]] = [[] for _ in range(SPECTATORS)]
    watchers = [client.websocket_connect(f"/ws/tables/{tid}") for _ in range(SPECTATORS)]
    sockets = [w.__enter__() for w in watchers]
    try:
        for ws in sockets:
            assert receive(ws)["type"] == "hello"
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as player:
            receive(player)
            state = receive_until(player, lambda m: m["type"] == "state" and m["legal"])
            play_to_end(player, state)
        for ws, got in zip(sockets, seen, strict=True):
            receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "finished", got)
    finally:
        for w in watchers:
            w.__exit__(None, None, None)
    states = [[m for m in got if m["type"] == "state"] for got in seen]
    assert all(s == states[0] for s in states), "spectators saw different states"
    assert len(states[0]) > 10
    # One build per state the spectators were sent, whatever their number.
    assert built[None] == len(states[0])
    assert built[0] < 2 * len(states[0])


def test_a_text_frame_is_rfc_6455_for_every_length() -> None:
    """Short, 16-bit and 64-bit payload lengths (RFC 6455 5.2), unmasked, FIN + text."""
    for n, head in ((5, bytes((0x81, 5))), (300, bytes((0x81, 126, 1, 44)))):
        assert text_frame(b"x" * n) == head + b"x" * n
    big = text_frame(b"y" * 70_000)
    assert big[:2] == bytes((0x81, 127)) and int.from_bytes(big[2:10], "big") == 70_000
    out = Outgoing('{"é":1}')
    assert out.frame is out.frame  # built once, the same bytes for every socket
    assert out.frame[2:].decode() == '{"é":1}'


def test_spectators_of_a_real_server_get_every_state_in_order() -> None:
    """`pyramids serve` writes the shared frames: clients parse them as usual, none lost."""

    async def scenario(url: str, ws_url: str) -> tuple[list[list[int]], dict[str, Any]]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            r = await http.post(
                "/api/tables",
                json={"game": "flaming", "seats": [HUMAN, bot("greedy")], "bot_delay": 0},
            )
            r.raise_for_status()
            tid = r.json()["table"]["id"]
            token = r.json()["invites"][0]["token"]

        hellos: list[int] = []

        async def watch() -> list[int]:
            seqs: list[int] = []
            async with connect(f"{ws_url}/ws/tables/{tid}") as ws:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "hello":
                        hellos.append(1)
                    elif msg["type"] == "state":
                        seqs.append(msg["seq"])
                        if msg["status"] == "finished":
                            return seqs
            return seqs

        watchers = [asyncio.create_task(watch()) for _ in range(5)]
        await until(lambda: len(hellos) == 5, "every spectator's hello")  # before any move
        final: dict[str, Any] = {}
        async with connect(f"{ws_url}/ws/tables/{tid}?token={token}") as player:
            async for raw in player:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    final = msg
                    if msg["status"] == "finished":
                        break
                    if msg["legal"]:
                        action = {"type": "action", "seq": msg["seq"], "action": msg["legal"][0]}
                        await player.send(json.dumps(action))
        return await asyncio.wait_for(asyncio.gather(*watchers), 60), final

    with live_server() as server:
        seen, final = asyncio.run(scenario(server.url, server.ws_url))
    assert final["status"] == "finished"
    for seqs in seen:
        assert seqs[-1] == final["seq"]
        assert seqs == sorted(seqs)
        assert set(range(1, final["seq"] + 1)) <= set(seqs), "a spectator missed a state"
