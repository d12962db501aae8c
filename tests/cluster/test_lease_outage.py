"""A cluster's PostgreSQL goes down and comes back (issue 31, item 8): the lease loop of
every instance tells the outage in one line and its end in one more, with no traceback
and no line a round, and keeps every step once the database is back (the hand-over
below comes after it).

The module's cluster is two instances whose leases outlast the outage (``lease_ttl``
60 s, renewed every 0.5 s), so nobody gives tables up meanwhile; tests/server/
test_lease_loop.py covers an outage past the ttl, and the exact rounds, with fakes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect

from tests.cluster.cluster import Cluster
from tests.cluster.conftest import cluster_dir, require_services
from tests.http_play import use_invite
from tests.live import TEST_LIMITS
from tests.server.test_cluster_instances import next_state
from tests.waiting import until

OWNER, OTHER = "i1", "i2"
DOWN = "the database does not answer the lease loop"
BACK = "the database answers the lease loop again"
LONG_LEASES = {"PYRAMIDS_LEASE_TTL": "60", "PYRAMIDS_LEASE_RENEW": "0.5"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Two instances with leases that outlast the outage, and a balancer."""
    require_services()
    with (
        cluster_dir() as tmp,
        Cluster(Path(tmp), instances=2, env={**TEST_LIMITS, **LONG_LEASES}) as c,
    ):
        yield c


def owner(cluster: Cluster, table: str) -> str | None:
    """The instance holding a live lease on ``table`` (its name, without the run)."""
    engine = create_engine(cluster.db_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t AND expires >= now()"),
                {"t": table},
            ).scalar_one_or_none()
    finally:
        engine.dispose()
    return None if found is None else str(found).split("/")[0]


def told(cluster: Cluster, name: str, line: str) -> int:
    """How many lines of instance ``name``'s log hold ``line``."""
    text_ = cluster.log_path(name).read_text(encoding="utf-8", errors="replace")
    return sum(line in row for row in text_.splitlines())


async def anns_turn(ws: ClientConnection) -> dict[str, Any]:
    """Play Ann's first legal actions until the running table waits for her (the bot has
    answered): then nothing moves until she does."""
    state = await next_state(ws, 0)
    while state["status"] != "running" or state["to_move"] != 0:
        state = await next_state(ws, state["seq"] + 1)
    return state


def test_an_outage_is_one_line_down_one_back_and_the_hand_over_still_comes(
    cluster: Cluster,
) -> None:
    """A table of Ann and a bot on i1, Ann's turn, her socket on i1. PostgreSQL is killed
    (SIGKILL) until both instances have told the outage, then started again: each tells
    its end once. Ann then moves her socket to i2, and i1 hands the table over (its loop
    kept every step), where she and the bot play on."""
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
        "options": {"preset": "basic"},
        "seed": 11,
        "bot_delay": 0,
    }
    r = httpx.post(f"{cluster.instance_url(OWNER)}/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    with httpx.Client(base_url=cluster.instance_url(OWNER), timeout=30) as http:
        ann = use_invite(http, table, r.json()["invites"][0]["token"])
    path = f"/ws/tables/{table}?token={ann}"
    names = (OWNER, OTHER)

    async def outage_then_move() -> None:
        async with connect(cluster.instance_url(OWNER).replace("http", "ws") + path) as ws:
            state = await anns_turn(ws)
            assert owner(cluster, table) == OWNER
            await asyncio.to_thread(cluster.kill, "postgres")
            await until(lambda: all(told(cluster, n, DOWN) for n in names), "both tell the outage")
            await asyncio.to_thread(cluster.restart, "postgres")
            await until(lambda: all(told(cluster, n, BACK) for n in names), "both tell its end")
        async with connect(cluster.instance_url(OTHER).replace("http", "ws") + path) as ws:
            await until(lambda: owner(cluster, table) == OTHER, "i1 hands the table to i2")
            seq = state["seq"]
            move = {"type": "action", "id": "m", "seq": seq, "action": state["legal"][0]}
            await ws.send(json.dumps(move))
            after = await next_state(ws, seq + 1)
            while after["status"] == "running" and after["to_move"] != 0:
                after = await next_state(ws, after["seq"] + 1)  # the bot, run by i2 now

    asyncio.run(outage_then_move())
    for name in names:
        log = cluster.log(name, tail=200)
        assert told(cluster, name, DOWN) == 1, log
        assert told(cluster, name, BACK) == 1, log
        assert told(cluster, name, "Traceback") == 0, log
        assert told(cluster, name, "the lease loop could not") == 0, log
        assert told(cluster, name, "lost the cluster's notifications") <= 1, log
