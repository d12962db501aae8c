"""Issue 12, point 2: private by default, and one token per seat, atomically.

"Tables are invite-only unless the creator makes them public; only public tables can be
claimed from the lobby. A seat is bound to one token at a time, atomically: the first of
an invite connection and a claim wins, the other is refused (a test of many concurrent
trials)." The race runs against the real server (``pyramids serve`` on SQLite here; two
server processes on one PostgreSQL database in test_postgres.py).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import httpx
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.live import LiveServer, live_server
from tests.server.conftest import HUMAN, bot, receive
from tests.waiting import until

RACE_TRIALS = 40
RACE_ENV = {"PYRAMIDS_EXEMPT": "127.0.0.1,::1"}
"""The race makes 40 tables and 120 claims a minute from loopback: no per-address limits."""
CLOSE_CODES = {"seat_taken": 4409, "bad_token": 4403, "invite_used": 4403}


def _new_table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "flaming", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _listed(client: TestClient) -> set[str]:
    ids: set[str] = set()
    for params in ({}, {"status": "open"}, {"status": "running"}, {"status": "finished"}):
        r = client.get("/api/tables", params=params)
        assert r.status_code == 200, r.text
        ids |= {t["id"] for t in r.json()["tables"]}
    return ids


def test_a_new_table_is_private_unlisted_and_not_claimable(client: TestClient) -> None:
    """ "Private by default: tables are invite-only unless the creator makes them public;
    only public tables can be claimed from the lobby." Its id still shows it to spectators."""
    created = _new_table(client, [HUMAN, bot()])
    tid = created["table"]["id"]
    assert created["table"]["public"] is False
    assert tid not in _listed(client)
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Mallory"})
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "private_table"
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["public"] is False and not summary["seats"][0]["claimed"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert receive(ws)["seat"] is None  # watching by id, as before
    # The invite still works: it binds the seat and starts the table.
    token = created["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert receive(ws)["seat"] == 0
    assert client.get(f"/api/tables/{tid}").json()["status"] == "running"


def test_a_public_table_is_listed_and_its_free_seat_claimable(client: TestClient) -> None:
    """ "Only public tables can be claimed from the lobby": a public one can; its invite then
    gives no seat, and a second claim is refused."""
    created = _new_table(client, [HUMAN, bot(), HUMAN], public=True)
    tid = created["table"]["id"]
    assert created["table"]["public"] is True
    assert tid in _listed(client)
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Bea"})
    assert r.status_code == 200, r.text
    again = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Cy"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    old = client.get(f"/api/tables/{tid}/state", params={"token": created["invites"][0]["token"]})
    assert old.status_code == 403 and old.json()["error"]["code"] == "bad_token"
    mine = client.get(f"/api/tables/{tid}/state", params={"token": r.json()["token"]})
    assert mine.status_code == 200


def test_an_invite_used_first_binds_its_seat_against_a_later_claim(client: TestClient) -> None:
    """ "The first of an invite connection and a claim wins": any use of the invite (here
    reading the seat's state over HTTP) binds the seat, and the claim is refused."""
    created = _new_table(client, [HUMAN, HUMAN], public=True)
    tid = created["table"]["id"]
    invite = created["invites"][1]["token"]
    assert client.get(f"/api/tables/{tid}/state", params={"token": invite}).status_code == 200
    r = client.post(f"/api/tables/{tid}/seats/1/claim", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    assert client.post(f"/api/tables/{tid}/seats/0/claim", json={}).status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["status"] == "running"


def test_public_is_a_strict_boolean(client: TestClient) -> None:
    """The schema refuses anything but true or false (``malformed``)."""
    r = client.post(
        "/api/tables", json={"game": "flaming", "seats": [HUMAN, bot()], "public": "yes"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"


# --- the race -------------------------------------------------------------------------------


async def _invite_connect(server: LiveServer, table: str, token: str) -> tuple[bool, Any]:
    """Connect with the invite: (True, (the open socket, the seat's new credential from the
    hello)) if it got the seat, else (False, the refusal's code). ``seat_taken`` (close
    4409): the claim won while the invite was being bound; ``bad_token`` (4403): the claim
    had already replaced the invite."""
    ws = await connect(f"{server.ws_url}/ws/tables/{table}?token={token}")
    first = json.loads(await ws.recv())
    if first["type"] == "hello":
        assert first["seat"] == 0, first
        return True, (ws, first["seat_token"])
    assert first["type"] == "error" and first["code"] in CLOSE_CODES, first
    try:
        await ws.recv()
    except ConnectionClosed as exc:
        assert exc.rcvd is not None and exc.rcvd.reason == first["code"], exc
        assert exc.rcvd.code == CLOSE_CODES[first["code"]], exc
        return False, first["code"]
    raise AssertionError("the refused invite's socket stayed open")


async def _claim(client: httpx.AsyncClient, table: str) -> httpx.Response:
    return await client.post(f"/api/tables/{table}/seats/0/claim", json={"name": "Lobby"})


async def _can_act(client: httpx.AsyncClient, table: str, token: str) -> bool:
    """Whether ``token`` plays seat 0: wait for its turn, then send a legal action."""

    async def answer() -> tuple[bool] | None:
        """(whether the action was taken) once seat 0 decides; None: not its turn yet."""
        r = await client.get(f"/api/tables/{table}/state", params={"token": token})
        if r.status_code != 200:
            return (False,)
        state = r.json()
        if state["to_move"] != 0 or not state["legal"]:
            return None
        body = {"token": token, "seq": state["seq"], "action": state["legal"][0]}
        act = await client.post(f"/api/tables/{table}/actions", json=body)
        if act.status_code == 409 and act.json()["error"]["code"] == "stale":
            return None  # the bot moved first: its next turn
        return (act.status_code == 200,)

    (played,) = await until(answer, f"seat 0 of {table}: a decision")
    return played


async def _refused(client: httpx.AsyncClient, table: str, token: str) -> bool:
    """Whether ``token`` is refused for every use: state, action, WebSocket."""
    r = await client.get(f"/api/tables/{table}/state", params={"token": token})
    act = await client.post(
        f"/api/tables/{table}/actions", json={"token": token, "seq": 0, "action": "x"}
    )
    return r.status_code in (403, 409) and act.status_code in (403, 409)


async def race_seat(
    servers: Sequence[LiveServer], trials: int = RACE_TRIALS, seed: int = 12
) -> Counter[str]:
    """``trials`` tables, each with one human seat raced for by its invite's WebSocket
    connection (on one server) and a lobby claim (on another, or the same): exactly one of
    the two gets the seat and can act for it; the loser is refused everywhere."""
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    clients = [httpx.AsyncClient(base_url=s.url, timeout=30) for s in servers]
    try:
        for trial in range(trials):
            home, away = trial % len(servers), (trial + 1) % len(servers)
            body = {
                "game": "flaming",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                "public": True,
                "bot_delay": 0,
                "absent_after": 0,
                "turn_time": 0,
            }
            created = await clients[0].post("/api/tables", json=body)
            assert created.status_code == 201, created.text
            table = created.json()["table"]["id"]
            invite = created.json()["invites"][0]["token"]
            # Jitter either side by up to 3 ms so both orders occur.
            lead = rng.uniform(-0.003, 0.003)

            async def later(delay: float, job: Any) -> Any:
                await asyncio.sleep(max(0.0, delay))  # the race's jitter: both orders occur
                return await job

            (got_seat, held), claimed = await asyncio.gather(
                later(lead, _invite_connect(servers[home], table, invite)),
                later(-lead, _claim(clients[away], table)),
            )
            what = f"trial {trial} (table {table})"
            if claimed.status_code == 200:
                assert not got_seat, f"{what}: the invite and the claim both got seat 0"
                winner, loser = claimed.json()["token"], invite
                where = away
                wins[f"claim (invite: {held})"] += 1
            else:
                assert claimed.status_code == 409, f"{what}: {claimed.text}"
                assert claimed.json()["error"]["code"] == "seat_taken", claimed.text
                assert got_seat, f"{what}: neither the invite nor the claim got seat 0"
                ws, winner = held
                await ws.close()
                loser = invite  # used once: the seat's credential is the hello's
                where = home
                wins["invite"] += 1
            for c in clients:
                again = await _claim(c, table)
                assert again.status_code == 409, f"{what}: a second claim {again.text}"
                if loser is not None:
                    assert await _refused(c, table, loser), f"{what}: the loser still plays"
            assert await _can_act(clients[where], table, winner), f"{what}: the winner cannot act"
    finally:
        for c in clients:
            await c.aclose()
    return wins


def test_invite_against_claim_race_exactly_one_holds_the_seat_sqlite() -> None:
    """ "The first of an invite connection and a claim wins, the other is refused": 40 races
    on a real server on SQLite, each won by exactly one, the loser refused for every use."""
    with live_server(env=RACE_ENV) as server:
        wins = asyncio.run(asyncio.wait_for(race_seat([server]), 300))
    assert sum(wins.values()) == RACE_TRIALS
    print(f"seat races on SQLite: {dict(wins)}")


# --- one invite, two users at once ----------------------------------------------------------


async def race_invite(
    servers: Sequence[LiveServer], trials: int = RACE_TRIALS, seed: int = 29
) -> Counter[str]:
    """Issue 29, item 1, "the binding and the credential switch are atomic": ``trials``
    tables, each with one human seat whose invite two clients use at once (over HTTP, on
    two servers when there are two): exactly one gets the seat and its new credential, the
    other ``invite_used``; then the invite is refused on every server and the credential
    plays. The creator keeping the invite is the second client."""
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    clients = [httpx.AsyncClient(base_url=s.url, timeout=30) for s in servers]
    try:
        for trial in range(trials):
            one, two = clients[trial % len(clients)], clients[(trial + 1) % len(clients)]
            body = {
                "game": "flaming",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                "bot_delay": 0,
                "absent_after": 0,
                "turn_time": 0,
            }
            created = await one.post("/api/tables", json=body)
            assert created.status_code == 201, created.text
            table = created.json()["table"]["id"]
            invite = created.json()["invites"][0]["token"]
            lead = rng.uniform(-0.003, 0.003)

            async def use(
                client: httpx.AsyncClient, delay: float, table: str = table, invite: str = invite
            ) -> httpx.Response:
                await asyncio.sleep(max(0.0, delay))  # the race's jitter: both orders occur
                return await client.get(f"/api/tables/{table}/state", params={"token": invite})

            answers = await asyncio.gather(use(one, lead), use(two, -lead))
            what = f"trial {trial} (table {table})"
            won = [r for r in answers if r.status_code == 200]
            lost = [r for r in answers if r.status_code != 200]
            assert len(won) == 1, f"{what}: {[r.text for r in answers]}"
            assert lost[0].status_code == 403, f"{what}: {lost[0].text}"
            assert lost[0].json()["error"]["code"] == "invite_used", lost[0].text
            credential = won[0].json()["seat_token"]
            assert credential and credential != invite, what
            wins["first" if answers[0] is won[0] else "second"] += 1
            for c in clients:
                assert await _refused(c, table, invite), f"{what}: the used invite still plays"
            assert await _can_act(two, table, credential), f"{what}: the credential cannot act"
    finally:
        for c in clients:
            await c.aclose()
    return wins


def test_two_uses_of_one_invite_at_once_exactly_one_gets_the_seat_sqlite() -> None:
    """Issue 29, item 1: 40 races of one invite used twice at once on a real server on
    SQLite: one use binds and gets the credential, the other is refused ``invite_used``."""
    with live_server(env=RACE_ENV) as server:
        wins = asyncio.run(asyncio.wait_for(race_invite([server]), 300))
    assert sum(wins.values()) == RACE_TRIALS
    print(f"invite races on SQLite: {dict(wins)}")
