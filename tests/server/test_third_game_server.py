"""The server's HTTP and WebSocket API with a game it has never heard of (issue 9).

Pebble Pyramid (``tests.thirdgame``) is registered in the test process for the in-process
app, and through ``$PYRAMIDS_GAMES`` for a real server subprocess: the catalogue offers
it with its options, a table is created, a human plays it over the socket against the
game's greedy policy, its secret stays hidden, and the finished record replays to the
same result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from pyramids.core.record import GameRecord, replay
from pyramids.games import make_game
from tests.http_play import wait_finished
from tests.live import live_server
from tests.server.conftest import HUMAN, bot, create, play_to_end, receive, receive_until
from tests.thirdgame import ENV, registered

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pebbles() -> Iterator[str]:
    """The third game, registered for one test."""
    with registered() as name:
        yield name


def test_the_catalogue_offers_the_third_game_with_its_options(
    client: TestClient, pebbles: str
) -> None:
    """GET /api/games: the entry comes from the descriptor (titles, presets, options) and
    the words from the catalogue."""
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    entry = games[pebbles]
    assert entry["title"] == "Pebble Pyramid"
    assert entry["title_fr"] == "Pyramide de galets"
    assert [p["name"] for p in entry["presets"]] == ["small", "classic"]
    assert [o["name"] for o in entry["options"]] == ["rows"]
    # the words come from the game's own catalogue entries (its descriptor's ``messages``)
    assert (entry["options"][0]["help"], entry["options"][0]["help_fr"]) == (
        "Rows of the pyramid.",
        "Rangées de la pyramide.",
    )
    assert [(p["label_en"], p["label_fr"]) for p in entry["presets"]] == [
        ("Small: 3 tiles", "Petite : 3 tuiles"),
        ("Classic: 6 tiles", "Classique : 6 tuiles"),
    ]
    r = client.post(
        "/api/tables", json={"game": pebbles, "seats": [HUMAN, bot()], "options": {"rows": 9}}
    )
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "bad_options"
    assert "'rows' must be from 2 to 4, not 9" in r.json()["error"]["message"]


def test_a_human_plays_the_third_game_over_the_socket_to_the_end(
    client: TestClient, pebbles: str
) -> None:
    """hello, states with legal actions, acks, the bot's replies, a finished table, a record."""
    body = create(client, [HUMAN, bot("greedy")], game=pebbles, options={"rows": 3})
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert receive(ws)["type"] == "hello"
        first = receive_until(ws, lambda m: m["type"] == "state", seen)
        assert first["view"]["secret"] in (1, 2, 3)
        ws.send_json({"type": "action", "id": "bad", "seq": first["seq"], "action": "take:9,9"})
        refused = receive_until(ws, lambda m: m["type"] == "error", seen)
        assert refused["code"] == "illegal"
        final = play_to_end(ws, first, seen)
    assert final["status"] == "finished"
    for message in seen:
        if message["type"] == "state":
            assert "secrets" not in json.dumps(message["view"])  # only the own secret
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished"
    assert sorted(summary["ranking"]) == [0, 1]
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["game"] == pebbles
    steps = client.get(f"/api/tables/{tid}/replay").json()
    assert steps[-1]["state"]["tiles"] == {}
    events = [e for step in steps for e in step["events"]]
    assert any(e["kind"] == "take" and "scores" in e["text_en"] for e in events)
    assert any(e["kind"] == "coin" and "la pièce" in e["text_fr"] for e in events)


def test_a_real_server_subprocess_plays_the_third_game_from_pyramids_games() -> None:
    """`pyramids serve` with $PYRAMIDS_GAMES: an all-bot table plays to the end over HTTP."""
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    with live_server(env=env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        names = [g["name"] for g in http.get("/api/games").json()["games"]]
        assert "pebbles" in names
        r = http.post(
            "/api/tables",
            json={"game": "pebbles", "seats": [bot("greedy"), bot("ismcts")], "seed": 11},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        wait_finished(http, tid)
        data = http.get(f"/api/tables/{tid}/record").json()
    with registered():
        record = GameRecord.from_json(data)
        game = make_game(record.game, record.players, record.options)
        *_, (_, final) = replay(game, record)
        assert final.is_terminal()
        assert final.outcome().is_over
