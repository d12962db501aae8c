"""Issue 16: two `pyramids serve` instances on one PostgreSQL database are one server.

"GET /state and the sockets serve memory [...] so clients connected to the other process
freeze; both processes resume every unfinished table and race its bots, timers and chance
draws; the switch from open to running is decided from in-memory claims". Each test runs
real server processes on the `postgres_url` database (skipped without PostgreSQL, failed
under CI) and talks to them only through the protocol.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect

from pyramids.core import GameRecord, fairness
from pyramids.games import make_game
from pyramids.server.config import Settings
from tests.http_play import use_invite
from tests.live import LiveServer
from tests.server.test_durability import table_body
from tests.waiting import HANG, until, wait_until

FAST_LEASES = {"PYRAMIDS_LEASE_TTL": "2", "PYRAMIDS_LEASE_RENEW": "0.5"}
"""Leases that expire 2 s after the last renewal: the takeover tests wait less."""


@contextmanager
def instances(url: str, tmp: Path, names: list[str]) -> Iterator[list[LiveServer]]:
    """One server process per name on the database at ``url``, stopped after the block."""
    with ExitStack() as stack:
        servers = []
        for name in names:
            data = tmp / name
            data.mkdir()
            server = LiveServer(url, data, {"PYRAMIDS_INSTANCE": name, **FAST_LEASES})
            server.start()
            stack.callback(server.stop)
            servers.append(server)
        yield servers


def create(server: LiveServer, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def summary(server: LiveServer, table: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/tables/{table}", timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def committed_seq(url: str, table: str) -> int:
    """The seq of the last action of ``table`` committed in the database (0: none)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = :t"),
                {"t": table},
            ).scalar_one()
    finally:
        engine.dispose()
    return int(found)


def owner(url: str, table: str) -> str | None:
    """The instance holding a live lease on ``table`` (its name, without the run)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t AND expires >= now()"),
                {"t": table},
            ).scalar_one_or_none()
    finally:
        engine.dispose()
    return None if found is None else str(found).split("/")[0]


async def next_state(ws: ClientConnection, seq: int, timeout: float = HANG) -> dict[str, Any]:
    """The first state message at ``seq`` or later."""
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                raise AssertionError(f"refused: {msg}")
            if msg["type"] == "state" and msg["seq"] >= seq:
                data: dict[str, Any] = msg
                return data


async def running(ws: ClientConnection) -> dict[str, Any]:
    """The first state message of a running table."""
    while (state := await next_state(ws, 0))["status"] != "running":
        pass
    return state


def test_moves_made_on_one_instance_reach_the_sockets_and_state_of_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    """Two friends, each connected to a different instance, play a whole game: every move,
    sent to either instance, shows on both sockets, and GET /state on either agrees."""
    with instances(postgres_url, tmp_path, ["a", "b"]) as (a, b):
        humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        body = {**table_body(humans, 1), "public": False}
        created = create(a, body)
        table = created["table"]["id"]
        servers = [a, b]
        tokens = []  # each invite used on its own instance; the credentials work on both
        for server, invite in zip(servers, created["invites"], strict=True):
            with httpx.Client(base_url=server.url, timeout=30) as http:
                tokens.append(use_invite(http, table, invite["token"]))

        async def play() -> int:
            async with (
                connect(f"{a.ws_url}/ws/tables/{table}?token={tokens[0]}") as ws0,
                connect(f"{b.ws_url}/ws/tables/{table}?token={tokens[1]}") as ws1,
            ):
                sockets = [ws0, ws1]
                states = [await running(ws) for ws in sockets]
                seq = 0
                while states[0]["status"] != "finished":
                    mover = states[0]["to_move"]
                    assert states[1]["to_move"] == mover
                    action = states[mover]["legal"][0]
                    await sockets[mover].send(
                        json.dumps(
                            {"type": "action", "id": f"m{seq}", "seq": seq, "action": action}
                        )
                    )
                    states = [await next_state(ws, seq + 1) for ws in sockets]
                    assert states[0]["seq"] == states[1]["seq"]
                    seq = states[0]["seq"]
                    if seq % 10 == 0:  # the other instance's memory agrees too
                        other = servers[1 - mover]
                        got = httpx.get(
                            f"{other.url}/api/tables/{table}/state",
                            params={"token": tokens[1 - mover]},
                            timeout=30,
                        ).json()
                        assert got["seq"] == seq
                return seq

        final = asyncio.run(asyncio.wait_for(play(), 240))
        for server in servers:
            wait_until(lambda s=server: summary(s, table)["status"] == "finished", "finished")
            assert summary(server, table)["seq"] == final


def test_only_the_owner_plays_a_tables_bots_and_another_takes_over_when_it_dies(
    postgres_url: str, tmp_path: Path
) -> None:
    """An all-bot table is played by the instance holding its lease; killed with SIGKILL,
    the other takes the table over and plays on from where the table was to the end, and
    the record has every action once (it replays and verifies). How soon the takeover
    comes is a figure of ``bench/cluster.py`` (part b), not asserted here: the wait below
    only bounds a takeover that never comes. Nor does it matter at which seq it comes
    (issue 31: the test demanded a seq past 5, and failed whenever the takeover came at
    3): what shows b playing is an action after the last one a committed, read from the
    database once b holds the lease (a's lease expired first, so a's commits are all in)."""
    with instances(postgres_url, tmp_path, ["a", "b"]) as (a, b):
        bots = [{"kind": "bot", "bot": "greedy"}] * 3
        created = create(a, table_body(bots, 5, bot_delay=0.15))
        table = created["table"]["id"]
        assert owner(postgres_url, table) == "a"

        async def watch_until_killed() -> tuple[int, int, int]:
            async with connect(f"{b.ws_url}/ws/tables/{table}") as ws:
                before = (await next_state(ws, 3))["seq"]  # b's spectator sees a's bots play
                a.kill()
                await until(lambda: owner(postgres_url, table) == "b", "b owns the table")
                last_of_a = committed_seq(postgres_url, table)  # (maybe some of b's too)
                state = await next_state(ws, last_of_a + 1)  # b's bots play on
                return before, last_of_a, state["seq"]

        before, last_of_a, after = asyncio.run(watch_until_killed())
        assert before <= last_of_a < after, (before, last_of_a, after)
        wait_until(
            lambda: summary(b, table)["status"] == "finished",
            "b plays the table to its end",
            progress=lambda: summary(b, table)["seq"],
        )
        record = httpx.get(f"{b.url}/api/tables/{table}/record", timeout=30).json()
        rec = GameRecord.from_json(record)
        verdict = fairness.verify_record(make_game(rec.game, rec.players, rec.options), rec)
        assert verdict.is_verified, verdict.failure
        assert len(rec.actions) == summary(b, table)["seq"]


def test_seats_claimed_on_two_instances_at_once_start_the_table(
    postgres_url: str, tmp_path: Path
) -> None:
    """The open-to-running switch is decided in the database: the last two seats, claimed
    at the same moment on two instances, start the table on both."""
    with instances(postgres_url, tmp_path, ["a", "b"]) as (a, b):
        for trial in range(5):
            humans = [{"kind": "human"}, {"kind": "human"}]
            table = create(a, table_body(humans, trial))["table"]["id"]

            async def both(table: str = table) -> list[int]:
                async with httpx.AsyncClient(timeout=30) as http:
                    answers = await asyncio.gather(
                        http.post(f"{a.url}/api/tables/{table}/seats/0/claim", json={}),
                        http.post(f"{b.url}/api/tables/{table}/seats/1/claim", json={}),
                    )
                return [r.status_code for r in answers]

            assert asyncio.run(both()) == [200, 200]
            for server in (a, b):
                wait_until(
                    lambda s=server, t=table: summary(s, t)["status"] == "running", "running"
                )


def test_a_player_connected_to_another_instance_is_not_taken_over_by_the_owner(
    postgres_url: str, tmp_path: Path
) -> None:
    """The owner counts the sockets every instance holds: a player whose socket is on the
    other instance is present; once it closes, the owner's takeover bot plays the seat, and
    both instances show it.

    Ann's socket is on b; Dan's on a keeps the table there (no hand-over to b). The owner's
    absence clocks run in another process, so instead of sleeping for them (issue 31) the
    test watches a witness: Cat, bound but with no socket anywhere, is taken over one
    absence period after the start, comes back for a moment and is taken over again. By
    then a wrongly started absence clock of Ann's, due before Cat's second one on the same
    event loop, would have run out."""
    with instances(postgres_url, tmp_path, ["a", "b"]) as (a, b):
        seats = [{"kind": "human", "name": n} for n in ("Ann", "Dan", "Cat")]
        body = {**table_body(seats, 3, bot_delay=0.1), "absent_after": 1.0}
        created = create(a, body)
        table = created["table"]["id"]
        ann, dan, cat_invite = (i["token"] for i in created["invites"])
        with httpx.Client(base_url=a.url, timeout=30) as http:
            cat = use_invite(http, table, cat_invite)  # bound; no socket of Cat's anywhere

        def seat(server: LiveServer, n: int) -> dict[str, Any]:
            found: dict[str, Any] = summary(server, table)["seats"][n]
            return found

        async def stay_then_leave() -> None:
            async with connect(f"{a.ws_url}/ws/tables/{table}?token={dan}") as dan_ws:
                await next_state(dan_ws, 0)  # Dan is attached on a before the table runs
                async with connect(f"{b.ws_url}/ws/tables/{table}?token={ann}") as ws:
                    await next_state(ws, 0)
                    await until(lambda: seat(a, 0)["connected"], "a counts b's socket")
                    await until(lambda: seat(a, 2)["taken_over"], "Cat taken over")
                    async with connect(f"{a.ws_url}/ws/tables/{table}?token={cat}") as cat_ws:
                        await next_state(cat_ws, 0)
                        await until(lambda: not seat(a, 2)["taken_over"], "Cat back")
                    await until(lambda: seat(a, 2)["taken_over"], "Cat taken over again")
                    assert owner(postgres_url, table) == "a"
                    for server in (a, b):
                        assert seat(server, 0)["connected"] is True, server.url
                        assert seat(server, 0)["taken_over"] is False, server.url

        asyncio.run(stay_then_leave())
        for server in (a, b):
            wait_until(lambda s=server: seat(s, 0)["taken_over"], "Ann taken over")


def test_a_table_whose_players_are_all_on_another_instance_moves_there(
    postgres_url: str, tmp_path: Path
) -> None:
    """Table affinity: the owner hands a table whose human sockets are all held by one other
    instance over to it (its players' moves are then applied where they arrive); the new
    owner plays the bots on, and the table does not come back while the players stay."""
    with instances(postgres_url, tmp_path, ["a", "b"]) as (a, b):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        created = create(a, table_body(seats, 4, bot_delay=0.05))
        table, token = created["table"]["id"], created["invites"][0]["token"]
        assert owner(postgres_url, table) == "a"

        async def play_on_b() -> int:
            async with connect(f"{b.ws_url}/ws/tables/{table}?token={token}") as ws:
                await until(lambda: owner(postgres_url, table) == "b", "b owns the table")
                state = await next_state(ws, 0)
                for _ in range(6):  # the bot answers each move: b runs it now
                    while state["status"] == "running" and state["to_move"] != 0:
                        state = await next_state(ws, state["seq"] + 1)
                    if state["status"] != "running":
                        break
                    seq = state["seq"]
                    move = {"type": "action", "id": f"m{seq}", "seq": seq}
                    await ws.send(json.dumps({**move, "action": state["legal"][0]}))
                    state = await next_state(ws, seq + 1)
                assert owner(postgres_url, table) == "b"
                return int(state["seq"])

        assert asyncio.run(asyncio.wait_for(play_on_b(), 90)) > 1


def test_cluster_mode_is_on_for_every_spelling_of_a_postgresql_url_only() -> None:
    """Issue 16: "Single-process SQLite stays the default": cluster mode (leases,
    notifications) is on for PostgreSQL however its URL is spelled, off for SQLite, and
    ``cluster`` set explicitly wins."""
    for url in ("postgresql://u@h/db", "postgres://u@h/db", "postgresql+psycopg://u@h/db"):
        assert Settings(db_url=url).cluster is True, url
    assert Settings(db_url="sqlite:///x.db").cluster is False
    assert Settings(db_url="postgresql://u@h/db", cluster=False).cluster is False
