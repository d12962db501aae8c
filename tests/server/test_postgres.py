"""The PostgreSQL path: API and WebSocket smoke tests, restart durability, and two server
processes racing for the same decision on one database.

Needs env ``PYRAMIDS_TEST_POSTGRES`` (see tests/postgres.py: skipped without it, failed
under CI); `.ci/run` starts a throwaway cluster. Each test starts from an empty schema.
docs/PROTOCOL.md: "Two actions for the same decision: the first to reach the table is
applied, the second gets `stale`. [...] the storage refuses a second action with the same
seq, so this holds even for two server processes sharing one PostgreSQL database."
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import connect

from pyramids.core import GameRecord, fairness
from pyramids.games import make_game
from tests.live import LiveServer, live_server
from tests.server.test_durability import (
    TableRun,
    check_records,
    claim,
    drive,
    run_durability_scenario,
    table_body,
)
from tests.server.test_seat_binding import RACE_ENV, RACE_TRIALS, race_invite, race_seat


def _create(server: LiveServer, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/tables", json=table_body(seats, seed), timeout=30)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


async def _play_one_seat_to_the_end(server: LiveServer, table: str, token: str) -> list[str]:
    """Play one seat (bots play the rest) over a WebSocket; return the message types seen."""
    kinds: list[str] = []
    async with connect(f"{server.ws_url}/ws/tables/{table}?token={token}") as ws:
        await ws.send(json.dumps({"type": "ping"}))
        async for raw in ws:
            msg = json.loads(raw)
            kinds.append(msg["type"])
            if msg["type"] == "error":
                raise AssertionError(f"server refused: {msg}")
            if msg["type"] != "state":
                continue
            if msg["status"] == "finished":
                assert msg["to_move"] is None and msg["ranking"]
                return kinds
            if msg["legal"]:
                action = {"type": "action", "id": f"q{msg['seq']}", "seq": msg["seq"]}
                await ws.send(json.dumps({**action, "action": msg["legal"][0]}))
    raise AssertionError("the connection closed before the end of the game")


def test_postgres_api_and_websocket_play_a_whole_game(postgres_url: str) -> None:
    """Issue 4: "API and WebSocket tests against [...] the PostgreSQL path": a human and two
    bots play a game to the end; the record and the replay are then served."""
    with live_server(postgres_url) as server:
        games = httpx.get(f"{server.url}/api/games", timeout=30)
        assert games.status_code == 200
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * 2
        created = _create(server, seats, seed=7)
        table = created["table"]["id"]
        token = created["invites"][0]["token"]
        with httpx.Client(base_url=server.url, timeout=30) as client:
            assert client.get(f"/api/tables/{table}/record").status_code == 409
            bad = client.get(f"/api/tables/{table}/state", params={"token": "x" * 32})
            assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"
            unknown = client.get("/api/tables/AAAAAAAAAA")
            assert unknown.status_code == 404
            assert unknown.json()["error"]["code"] == "unknown_table"
        kinds = asyncio.run(asyncio.wait_for(_play_one_seat_to_the_end(server, table, token), 120))
        assert kinds[0] == "hello" and "pong" in kinds and "ack" in kinds
        with httpx.Client(base_url=server.url, timeout=30) as client:
            summary = client.get(f"/api/tables/{table}").json()
            assert summary["status"] == "finished"
            listed = client.get("/api/tables", params={"status": "finished"}).json()
            assert table in json.dumps(listed)
            steps = client.get(f"/api/tables/{table}/replay").json()
            assert [step["seq"] for step in steps][-1] == summary["seq"]
            record = client.get(f"/api/tables/{table}/record").json()
            assert len(record["actions"]) == summary["seq"]
        # issue 12: the commitment and seeded mark survive the database; the record verifies
        assert summary["commitment"] == created["table"]["commitment"]
        assert summary["seeded"] is True and record["seeded"] is True
        rec = GameRecord.from_json(record)
        verdict = fairness.verify_record(make_game(rec.game, rec.players, rec.options), rec)
        assert verdict.is_verified, verdict.failure


def test_postgres_sigkill_in_mid_game_loses_no_acknowledged_action(postgres_url: str) -> None:
    """Issue 4: "A server killed with SIGKILL in the middle of games and restarted continues
    every game where it was, nothing lost" (PostgreSQL, one kill)."""
    with live_server(postgres_url) as server:
        runs = run_durability_scenario(server, humans=2, http_tables=1, kills=1, per_phase=10)
    assert all(run.finished for run in runs)


async def _race(
    a: httpx.AsyncClient,
    b: httpx.AsyncClient,
    path: str,
    body_a: dict[str, Any],
    body_b: dict[str, Any],
) -> tuple[httpx.Response, httpx.Response]:
    ra, rb = await asyncio.gather(a.post(path, json=body_a), b.post(path, json=body_b))
    return ra, rb


def test_postgres_two_servers_same_decision_exactly_one_applied(postgres_url: str) -> None:
    """PROTOCOL: "Two actions for the same decision: the first to reach the table is applied,
    the second gets `stale` [...] even for two server processes sharing one PostgreSQL
    database." Decision after decision, each server gets an action for the same seq at once."""
    with live_server(postgres_url) as one, live_server(postgres_url) as two:
        seats = [{"kind": "human", "name": f"P{s}"} for s in range(2)]
        created = _create(one, seats, seed=3)
        table = created["table"]["id"]
        with httpx.Client(base_url=one.url, timeout=30) as client:
            tokens = [claim(client, table, seat) for seat in range(2)]
        # Server two first hears of the table now, from the database: running, at seq 0.
        path = f"/api/tables/{table}/actions"
        winners: dict[int, str] = {}

        async def rounds() -> None:
            async with (
                httpx.AsyncClient(base_url=one.url, timeout=30) as a,
                httpx.AsyncClient(base_url=two.url, timeout=30) as b,
            ):
                for _ in range(40):
                    views = [(await c.get(f"/api/tables/{table}/state")).json() for c in (a, b)]
                    # The loser of each race catches up from the database: both agree.
                    assert views[0]["seq"] == views[1]["seq"], views
                    if winners:
                        assert views[0]["last"]["action"] == views[1]["last"]["action"]
                        assert views[0]["last"]["action"] == winners[views[0]["seq"]]
                    if views[0]["status"] == "finished":
                        return
                    seat = views[0]["to_move"]
                    params = {"token": tokens[seat]}
                    mine = (await a.get(f"/api/tables/{table}/state", params=params)).json()
                    seq, legal = mine["seq"], mine["legal"]
                    # Two different decisions when there are two, so the record shows which won.
                    act_a, act_b = legal[0], legal[-1]
                    body = {"token": tokens[seat], "seq": seq}
                    ra, rb = await asyncio.gather(
                        a.post(path, json={**body, "action": act_a}),
                        b.post(path, json={**body, "action": act_b}),
                    )
                    ok = [r for r in (ra, rb) if r.status_code == 200]
                    assert len(ok) == 1, (
                        f"seq {seq}: {ra.status_code} {ra.text} / {rb.status_code} {rb.text}"
                    )
                    loser = rb if ok[0] is ra else ra
                    assert loser.status_code == 409, loser.text
                    assert loser.json()["error"]["code"] == "stale", loser.text
                    assert ok[0].json()["seq"] == seq + 1
                    winners[seq + 1] = act_a if ok[0] is ra else act_b

        asyncio.run(asyncio.wait_for(rounds(), 120))
        assert len(winners) >= 10
        # Finish the game on server one; the record holds every winner at its seq.
        run = TableRun(0, table, "http", tokens, acked=dict(winners), seq=max(winners))
        asyncio.run(asyncio.wait_for(drive(one, run), 120))
        check_records(one, [run])


def test_postgres_two_servers_invite_against_claim_exactly_one_holds_the_seat(
    postgres_url: str,
) -> None:
    """Issue 12: "A seat is bound to one token at a time, atomically: the first of an invite
    connection and a claim wins, the other is refused", with the invite on one server
    process and the claim on another (alternating), both on one PostgreSQL database: only
    the conditional update in the database can order them. 40 trials."""
    with (
        live_server(postgres_url, env=RACE_ENV) as one,
        live_server(postgres_url, env=RACE_ENV) as two,
    ):
        wins = asyncio.run(asyncio.wait_for(race_seat([one, two]), 300))
    assert sum(wins.values()) == RACE_TRIALS
    print(f"seat races on PostgreSQL, two servers: {dict(wins)}")


def test_postgres_two_servers_one_invite_used_twice_at_once_binds_once(
    postgres_url: str,
) -> None:
    """Issue 29, item 1: one invite used at once on two server processes sharing one
    PostgreSQL database: one use binds the seat and gets its new credential, the other
    gets ``invite_used``, and the invite is dead on both servers. 40 trials."""
    with (
        live_server(postgres_url, env=RACE_ENV) as one,
        live_server(postgres_url, env=RACE_ENV) as two,
    ):
        wins = asyncio.run(asyncio.wait_for(race_invite([one, two]), 300))
    assert sum(wins.values()) == RACE_TRIALS
    print(f"invite races on PostgreSQL, two servers: {dict(wins)}")
