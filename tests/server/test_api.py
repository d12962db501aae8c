"""The HTTP API of docs/PROTOCOL.md against a real SQLite database.

Lobby: games, creating, listing, claiming; playing over HTTP; record and replay once a
game is over. Every error is ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.core import GameRecord, replay
from pyramids.games import make_game
from pyramids.server import Settings, create_app
from pyramids.server.config import sqlite_url
from tests import http_play
from tests.http_play import HttpSeat, play_out
from tests.server.conftest import HUMAN, bot, create, db_counts, make_settings


def wait_finished(client: TestClient, table_id: str) -> dict[str, Any]:
    """A table of bots' summary once it is over."""
    return http_play.wait_finished(client, table_id)


def error_code(response: Any) -> str:
    """The protocol error code of a response."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return str(body["error"]["code"])


def test_games_lists_both_games_their_options_and_the_bots(client: TestClient) -> None:
    """GET /api/games: the games, seat range, presets and option fields, the seat bots."""
    body = client.get("/api/games").json()
    games = {g["name"]: g for g in body["games"]}
    assert set(games) >= {"flaming", "flags"}
    assert (games["flaming"]["min_players"], games["flaming"]["max_players"]) == (2, 6)
    assert (games["flags"]["min_players"], games["flags"]["max_players"]) == (2, 4)
    assert [p["name"] for p in games["flaming"]["presets"]] == ["basic", "family", "standard"]
    assert {o["name"] for o in games["flaming"]["options"]} >= {"preset", "curse", "fire_die"}
    assert {o["name"] for o in games["flags"]["options"]} >= {"actions", "max_turns"}
    assert [b["name"] for b in body["bots"]] == ["random", "beginner", "greedy", "normal", "hard"]


def test_create_table_gives_one_invite_per_human_seat(client: TestClient) -> None:
    """POST /api/tables: 201 with the summary and an invite (32-character token) per human."""
    body = create(client, [{"kind": "human", "name": "Ann"}, bot("greedy"), HUMAN])
    table = body["table"]
    assert len(table["id"]) == 10
    assert table["status"] == "open"
    assert table["seq"] == 0
    assert table["to_move"] == 0
    assert table["options"]["preset"] == "standard"
    assert [s["name"] for s in table["seats"]] == ["Ann", "greedy", "Seat 3"]
    assert [s["claimed"] for s in table["seats"]] == [False, True, False]
    invites = body["invites"]
    assert [i["seat"] for i in invites] == [0, 2]
    for invite in invites:
        assert len(invite["token"]) == 32
        assert invite["url"] == f"/t/{table['id']}?token={invite['token']}"
    assert table["created"].endswith("Z")


def test_tokens_are_stored_only_as_hashes(client: TestClient, settings: Settings) -> None:
    """PROTOCOL: the server stores only the SHA-256 of a token."""
    body = create(client, [HUMAN, HUMAN])
    engine = create_engine(settings.db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT token_hash FROM seats ORDER BY seat")).all()
        dump = "\n".join(str(r) for r in conn.execute(text("SELECT * FROM seats")).all())
    engine.dispose()
    assert all(r.token_hash and len(r.token_hash) == 64 for r in rows)
    for invite in body["invites"]:
        assert invite["token"] not in dump


def test_options_are_refused_with_the_games_own_message(client: TestClient) -> None:
    """bad_options: the game refuses the options and says why."""
    r = client.post(
        "/api/tables",
        json={"game": "flaming", "seats": [HUMAN, HUMAN], "options": {"preset": "huge"}},
    )
    assert r.status_code == 422
    assert error_code(r) == "bad_options"
    assert "unknown preset 'huge'" in r.json()["error"]["message"]
    r = client.post(
        "/api/tables",
        json={"game": "flags", "seats": [HUMAN, HUMAN], "options": {"preset": "family"}},
    )
    assert error_code(r) == "bad_options"
    assert "preset" in r.json()["error"]["message"]
    r = client.post("/api/tables", json={"game": "flags", "seats": [HUMAN] * 5})
    assert r.status_code == 422
    assert error_code(r) == "bad_options"
    assert "2 to 4 players" in r.json()["error"]["message"]


def test_a_table_of_bots_runs_at_once_to_the_end(client: TestClient) -> None:
    """PROTOCOL: a table whose seats are all bots starts running at once."""
    body = create(client, [bot("greedy"), bot("random"), bot("greedy")])
    assert body["table"]["status"] == "running"
    assert body["invites"] == []
    table = wait_finished(client, body["table"]["id"])
    assert table["to_move"] is None
    assert sorted(table["ranking"]) == [0, 1, 2]
    assert table["finished"] is not None


def test_list_tables_newest_first_and_by_status(client: TestClient) -> None:
    """GET /api/tables: newest first, filtered by status, at most limit (public tables only:
    test_seat_binding.py checks that a private one is not listed)."""
    first = create(client, [HUMAN, HUMAN], public=True)["table"]["id"]
    second = create(client, [HUMAN, bot()], public=True)["table"]["id"]
    ids = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert ids.index(second) < ids.index(first)
    open_ids = [t["id"] for t in client.get("/api/tables?status=open").json()["tables"]]
    assert set(open_ids) == {first, second}
    assert client.get("/api/tables?status=running").json()["tables"] == []
    assert len(client.get("/api/tables?limit=1").json()["tables"]) == 1
    r = client.get("/api/tables?status=lost")
    assert r.status_code == 422
    assert error_code(r) == "malformed"


def test_unknown_table_is_404_everywhere(client: TestClient) -> None:
    """unknown_table (404) on every table route."""
    for path in ("", "/state", "/record", "/replay"):
        r = client.get(f"/api/tables/nosuchtabl{path}")
        assert r.status_code == 404, path
        assert error_code(r) == "unknown_table"
    r = client.post(
        "/api/tables/nosuchtabl/actions", json={"token": "x", "seq": 0, "action": "left"}
    )
    assert error_code(r) == "unknown_table"
    r = client.post("/api/tables/..%2F..%2Fetc/seats/0/claim", json={})
    assert r.status_code == 404


def test_claim_takes_a_free_seat_once_and_starts_the_table(client: TestClient) -> None:
    """Claim: a new token for a free human seat of a public table; seat_taken once used;
    running when all used."""
    body = create(client, [HUMAN, bot(), HUMAN], public=True)
    tid = body["table"]["id"]
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Bea"})
    assert r.status_code == 200, r.text
    claim = r.json()
    assert claim["seat"] == 0
    assert len(claim["token"]) == 32
    assert claim["token"] != body["invites"][0]["token"]
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Bea"
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Cy"})
    assert r.status_code == 409
    assert error_code(r) == "seat_taken"
    r = client.post(f"/api/tables/{tid}/seats/1/claim", json={})
    assert error_code(r) == "seat_taken"
    r = client.post(f"/api/tables/{tid}/seats/5/claim", json={})
    assert r.status_code == 404
    assert error_code(r) == "unknown_seat"
    # The replaced invite no longer plays; the new token does.
    r = client.get(f"/api/tables/{tid}/state", params={"token": body["invites"][0]["token"]})
    assert error_code(r) == "bad_token"
    assert client.get(f"/api/tables/{tid}").json()["status"] == "open"
    assert client.post(f"/api/tables/{tid}/seats/2/claim", json={}).status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["status"] == "running"


def test_state_gives_legal_actions_only_to_the_seat_to_move(client: TestClient) -> None:
    """GET state: the seat's view and legal list; the spectator's public view, no legal."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    tokens = [i["token"] for i in body["invites"]]
    mover = client.get(f"/api/tables/{tid}/state", params={"token": tokens[0]}).json()
    public = client.get(f"/api/tables/{tid}/state").json()
    assert mover["type"] == "state"
    assert mover["status"] == "open"
    assert mover["legal"] == []  # nobody moves while the table is open (seat 1 is free)
    assert mover["view"]["hand"] is None  # no hand before the deal is fixed (issue 29)
    assert public["view"]["hand"] is None
    # Reading bound seat 0 to a new credential (the invite is used); an HTTP action binds
    # seat 1: the table starts, and only seat 0 has a legal list.
    tokens[0] = mover["seat_token"]
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": tokens[1], "seq": 0, "action": "left"}
    )
    assert error_code(r) == "out_of_turn"
    tokens[1] = r.json()["error"]["seat_token"]
    assert client.get(f"/api/tables/{tid}").json()["status"] == "running"
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": tokens[0], "seq": 0, "action": "nonsense"}
    )
    assert error_code(r) == "malformed"
    mover = client.get(f"/api/tables/{tid}/state", params={"token": tokens[0]}).json()
    other = client.get(f"/api/tables/{tid}/state", params={"token": tokens[1]}).json()
    public = client.get(f"/api/tables/{tid}/state").json()
    assert other["view"]["hand"] != mover["view"]["hand"]
    assert mover["legal"]
    assert other["legal"] == []
    assert public["legal"] == []


def test_http_action_is_committed_and_answers_the_new_seq(
    client: TestClient, settings: Settings
) -> None:
    """POST actions: 200 {"seq": n} once committed (the invite's first use starts the table)."""
    body = create(client, [HUMAN, bot()])
    tid = body["table"]["id"]
    token = body["invites"][0]["token"]
    legal = client.post(
        f"/api/tables/{tid}/actions", json={"token": token, "seq": 0, "action": "left"}
    )
    assert legal.status_code == 409  # not a decision of this state, but the invite is used
    assert legal.json()["error"]["code"] == "illegal"
    token = legal.json()["error"]["seat_token"]  # the seat's credential from now on
    state = client.get(f"/api/tables/{tid}/state", params={"token": token}).json()
    assert state["status"] == "running"
    r = client.post(
        f"/api/tables/{tid}/actions",
        json={"token": token, "seq": 0, "action": state["legal"][0]},
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"seq": 1, "seat_token": None}
    assert db_counts(settings, tid)[1] >= 1
    after = client.get(f"/api/tables/{tid}/state", params={"token": token}).json()
    assert after["seq"] >= 1


def play_http_to_end(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    """Play a seat over HTTP (first legal action) until the game is over."""
    return play_out(tid, [HttpSeat(token, client)])


def test_record_and_replay_only_once_finished_and_they_replay_the_game(
    client: TestClient,
) -> None:
    """record/replay: 409 not_finished before the end; after it, they reproduce the game."""
    body = create(
        client, [HUMAN, bot("greedy"), bot("random")], options={"preset": "family"}, public=True
    )
    tid = body["table"]["id"]
    token = client.post(f"/api/tables/{tid}/seats/0/claim", json={}).json()["token"]
    for path in ("record", "replay"):
        r = client.get(f"/api/tables/{tid}/{path}")
        assert r.status_code == 409
        assert error_code(r) == "not_finished"
    final = play_http_to_end(client, tid, token)
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["game"] == "flaming"
    assert record["seed"] == 7
    assert record["options"]["preset"] == "family"
    assert len(record["actions"]) == final["seq"]
    game = make_game("flaming", 3, record["options"])
    states = [s.clone() for _, s in replay(game, GameRecord.from_json(record))]
    assert states[-1].is_terminal()
    steps = client.get(f"/api/tables/{tid}/replay").json()
    assert len(steps) == final["seq"] + 1
    assert steps[0]["seq"] == 0
    assert steps[0]["action"] is None
    assert steps[0]["state"] == game.new_initial_state(7).to_json()
    for step, state, text_ in zip(steps[1:], states, record["actions"], strict=True):
        assert step["action"] == text_
        assert step["state"] == state.to_json()


def test_openapi_document_is_complete(client: TestClient) -> None:
    """/openapi.json: every API route has request and response schemas and error models."""
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    assert set(paths) >= {
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/seats/{seat}/claim",
        "/api/tables/{table_id}/state",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/replay",
    }
    schemas = doc["components"]["schemas"]
    assert schemas["CreateTableIn"]["additionalProperties"] is False
    assert "HTTPValidationError" not in schemas
    for path, item in paths.items():
        for method, op in item.items():
            ok = [c for c in op["responses"] if c.startswith("2")]
            if ok == ["204"]:
                continue  # no content (log out, delete the account): nothing to describe
            assert ok, (path, method)
            assert "$ref" in str(op["responses"][ok[0]]) or "items" in str(
                op["responses"][ok[0]]
            ), (path, method)


def test_static_files_never_escape_the_static_directory(client: TestClient) -> None:
    """/static/*: files of the package's static directory only."""
    r = client.get("/static/../app.py")
    assert r.status_code == 404
    r = client.get("/static/%2e%2e/app.py")
    assert r.status_code == 404
    r = client.get("/static/no-such-file.js")
    assert r.status_code == 404
    assert error_code(r) == "not_found"


def test_an_ismcts_seat_plays_with_the_configured_search(tmp_path: Path) -> None:
    """The "ismcts" seat plays ``settings.ismcts_spec`` (here a tiny budget, for speed)."""
    settings = make_settings(tmp_path, ismcts_spec="ismcts:5")
    with TestClient(create_app(settings)) as client:
        body = create(client, [bot("ismcts"), bot("greedy")])
        table = wait_finished(client, body["table"]["id"])
        assert table["seats"][0]["bot"] == "ismcts"
        assert sorted(table["ranking"]) == [0, 1]


def test_serve_command_prints_its_address_and_stops_on_sigterm(tmp_path: Path) -> None:
    """`pyramids serve --port 0` prints the real address once listening; SIGTERM ends it (0)."""
    db = sqlite_url(tmp_path / "serve.sqlite3")
    command = [sys.executable, "-m", "pyramids.cli.main", "serve", "--port", "0", "--db", db]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        match = re.fullmatch(r"pyramids: serving on http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        r = httpx.get(f"http://127.0.0.1:{match.group(1)}/api/games", timeout=10)
        assert r.status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


class _DeadPool:
    """An executor whose worker processes are gone, as after a crash or an OOM kill."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        """Takes what ProcessPoolExecutor takes."""

    def submit(self, *_args: Any, **_kwargs: Any) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        raise BrokenProcessPool("a worker process died")

    def shutdown(self, *_args: Any, **_kwargs: Any) -> None:
        """Nothing to stop."""


def test_a_dead_search_worker_does_not_stall_the_table(tmp_path: Path, monkeypatch: Any) -> None:
    """When the ISMCTS worker processes die, the fallback bot plays and the game ends."""
    from pyramids.server import search

    monkeypatch.setattr(search, "ProcessPoolExecutor", _DeadPool)
    settings = make_settings(tmp_path, ismcts_spec="ismcts:5")
    with TestClient(create_app(settings)) as client:
        body = create(client, [bot("ismcts"), bot("greedy")])
        table = wait_finished(client, body["table"]["id"])
        assert sorted(table["ranking"]) == [0, 1]
