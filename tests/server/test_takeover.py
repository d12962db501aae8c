"""Absent and slow humans: the takeover bot plays for them (issue 4, PROTOCOL).

"absent_after: a human seat whose every connection has been gone this long is played by
takeover_bot until someone reconnects with its token." "turn_time: a human who has not
decided within this time has that one decision made by takeover_bot."

Time is the runtime's one clock (issue 31): the apps here run on a ``ManualClock``, so an
absence or a turn time ends when a test advances the clock, never by waiting. The first
test runs presence, the timers and the move scheduler on fakes alone
(``fakes.MemoryRuntime``: no database, no sockets).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.server import Settings
from pyramids.server.clocks import ManualClock
from tests.server.conftest import (
    HUMAN,
    advance,
    bot,
    create,
    make_settings,
    manager_of,
    receive,
    receive_until,
    start_app,
)
from tests.server.fakes import MemoryRuntime, live_table
from tests.waiting import until, wait_until

ABSENT_AFTER = 30.0
TURN_TIME = 60.0


@pytest.fixture
def clock() -> ManualClock:
    """The time the app runs on."""
    return ManualClock()


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """A started app whose time is ``clock``."""
    with start_app(settings, clock) as c:
        yield c


def absence_runs_out(client: TestClient, clock: ManualClock, tid: str, seat: int) -> None:
    """Once ``seat``'s absence clock runs (its last socket closed), let it run out."""
    portal, manager = client.portal, manager_of(client)
    assert portal is not None
    table = manager.tables[tid]

    def armed() -> bool:
        return seat in portal.call(manager.presence.absence_clocks, table)

    wait_until(armed, f"seat {seat}'s absence clock")
    advance(client, clock, ABSENT_AFTER)


def turn_time_runs_out(
    client: TestClient, clock: ManualClock, turn_time: float = TURN_TIME
) -> None:
    """Once the turn time of the decision just started is set, let it run out."""
    portal = client.portal
    assert portal is not None
    deadline = clock.now() + dt.timedelta(seconds=turn_time)
    wait_until(lambda: deadline in portal.call(clock.pending), "the decision's turn time")
    advance(client, clock, turn_time)


def poll(client: TestClient, tid: str, done: Any) -> dict[str, Any]:
    """GET the table until ``done(summary)``."""

    def table() -> dict[str, Any] | None:
        got: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        return got if done(got) else None

    return wait_until(table, f"table {tid}: the expected state")


def seat_actions(settings: Settings, tid: str, seat: int) -> int:
    """How many stored actions seat ``seat`` made."""
    engine = create_engine(settings.db_url)
    with engine.connect() as conn:
        n = conn.execute(
            text("SELECT COUNT(*) FROM actions WHERE table_id = :t AND seat = :s"),
            {"t": tid, "s": seat},
        ).scalar_one()
    engine.dispose()
    return int(n)


def test_the_takeover_starts_when_the_clock_passes_absent_after_and_its_bot_waits_bot_delay(
    tmp_path: Path,
) -> None:
    """Alice's seat has no socket: her absence clock runs 30 s (not 29.9), then the takeover
    bot plays her decision after the table's 2 s ``bot_delay``, logged ``absent``. Presence,
    the timers and the scheduler on fakes and a manual clock, as the authority is tested."""

    async def scenario() -> list[tuple[str, Any]]:
        clock = ManualClock()
        runtime = MemoryRuntime(make_settings(tmp_path), clock)
        table = live_table(seats=("human", "greedy"))  # seat 0 (Alice) is to move
        table.settings.absent_after, table.settings.bot_delay = ABSENT_AFTER, 2.0
        seen: list[tuple[str, Any]] = []
        try:
            runtime.moves.resume(table)
            seen.append(("armed", runtime.presence.absence_clocks(table)))
            clock.advance(ABSENT_AFTER - 0.1)
            seen.append(("taken over at 29.9 s", table.seats[0].taken_over))
            clock.advance(0.1)
            seen.append(("taken over at 30 s", table.seats[0].taken_over))
            await until(clock.pending, "the takeover bot's pause")
            seen.append(("pause ends", clock.pending()))
            clock.advance(1.9)
            seen.append(("stored after 1.9 s", len(runtime.store.stored())))
            clock.advance(0.1)
            await until(runtime.store.stored, "the takeover bot's move")
            first = runtime.store.stored()[0]
            seen.append(("first move", (first.seq, first.seat, first.played_by)))
        finally:
            await runtime.stop(table)
        return seen

    at = ManualClock.EPOCH + dt.timedelta(seconds=ABSENT_AFTER + 2.0)
    assert asyncio.run(scenario()) == [
        ("armed", [0]),
        ("taken over at 29.9 s", False),
        ("taken over at 30 s", True),
        ("pause ends", [at]),
        ("stored after 1.9 s", 0),
        ("first move", (1, 0, "absent")),
    ]


def test_absent_human_is_played_by_the_takeover_bot(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """A human who leaves is taken over after absent_after and the game goes on to the end."""
    body = create(client, [HUMAN, bot("greedy"), bot("random")], absent_after=ABSENT_AFTER)
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert receive(ws)["table"]["status"] == "running"
    absence_runs_out(client, clock, tid, 0)
    table = poll(client, tid, lambda t: t["status"] == "finished")
    assert table["seats"][0]["taken_over"] is True
    assert table["seats"][0]["connected"] is False
    assert seat_actions(settings, tid, 0) > 0
    assert sorted(table["ranking"]) == [0, 1, 2]


def test_reconnecting_ends_the_takeover(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """Someone reconnecting with the token gets the seat back: the bot stops playing it.
    (Its pause of ``bot_delay`` never ends here: the clock is not advanced past it.)"""
    body = create(client, [HUMAN, HUMAN], absent_after=ABSENT_AFTER, bot_delay=0.5)
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with client.websocket_connect(f"/ws/tables/{tid}?token={t1}") as ws1:
        t1 = receive(ws1)["seat_token"]  # the invites are used: the seats' credentials
        with client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws0:
            t0 = receive(ws0)["seat_token"]
        absence_runs_out(client, clock, tid, 0)
        table = receive_until(
            ws1, lambda m: m["type"] == "table" and m["table"]["seats"][0]["taken_over"]
        )
        assert table["table"]["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/tables/{tid}?token={t0}") as ws0:
            hello = receive(ws0)
            assert hello["table"]["seats"][0]["taken_over"] is False
            back = receive_until(
                ws1, lambda m: m["type"] == "table" and not m["table"]["seats"][0]["taken_over"]
            )
            assert back["table"]["seats"][0]["connected"] is True
            receive(ws0)

            def seat_0_decides() -> dict[str, Any] | None:
                """Seat 1 plays its decisions; seat 0's state once it has one."""
                s1 = client.get(f"/api/tables/{tid}/state", params={"token": t1}).json()
                if s1["legal"]:
                    r = client.post(
                        f"/api/tables/{tid}/actions",
                        json={"token": t1, "seq": s1["seq"], "action": s1["legal"][0]},
                    )
                    assert r.status_code == 200, r.text
                    return None
                s0: dict[str, Any] = client.get(
                    f"/api/tables/{tid}/state", params={"token": t0}
                ).json()
                return s0 if s0["legal"] else None

            s0 = wait_until(seat_0_decides, "seat 0's decision")
            # Seat 0 is back: its decision waits for it and its own action is applied.
            before = seat_actions(settings, tid, 0)
            ws0.send_json({"type": "action", "id": 1, "seq": s0["seq"], "action": s0["legal"][0]})
            answer = receive_until(ws0, lambda m: m["type"] in ("ack", "error"))
            assert answer["type"] == "ack", answer
            assert seat_actions(settings, tid, 0) == before + 1


def test_turn_time_lets_the_bot_make_one_slow_decision(
    client: TestClient, clock: ManualClock
) -> None:
    """A connected human who does not decide in turn_time has that decision made for them."""
    body = create(client, [HUMAN, bot("greedy")], turn_time=TURN_TIME)
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        receive(ws)
        state = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
        turn_time_runs_out(client, clock)
        after = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        assert after["last"]["seat"] == 0  # made by the takeover bot, for seat 0
        assert after["seats"][0]["taken_over"] is False
        assert after["seats"][0]["connected"] is True
        # Nobody at seat 0 ever decides: every one of its decisions times out.
        timed_out = state["seq"]
        while after["to_move"] is not None:
            if after["legal"] and after["seq"] > timed_out:
                timed_out = after["seq"]
                turn_time_runs_out(client, clock)
            after = receive_until(ws, lambda m: m["type"] == "state")
    assert after["status"] == "finished"
