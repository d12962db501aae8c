"""The search pool weighs tables by the people really at them (issue 29, item 10).

"A bound seat with no socket for its absence time no longer counts as a person." Tables
whose one human seat an attacker binds and abandons, with ISMCTS bots, used to count as
tables with people for ever and went before the all-bot tables, starving real people's
bots. Now a human seat counts while it has a socket or showed a sign of life (a socket
closing, its own action) less than its absence time ago. Time is the injected clock.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path
from typing import Any

from pyramids.server.clocks import ManualClock
from pyramids.server.live import SeatSpec
from pyramids.server.search import SearchPool
from pyramids.server.table_settings import TableSettings
from pyramids.server.tables import TableManager
from pyramids.server.wire import Client
from tests.waiting import HANG, until

from .conftest import make_settings

SEATS = [SeatSpec("human", "Ann"), SeatSpec("bot", bot="ismcts")]
SEED = 1
"""A seeded table (one human seat may be seeded): the same game every run."""
CLOCKED = TableSettings(
    bot_delay=0.0,
    absent_after=0.0,
    turn_time=0.0,
    takeover_bot="greedy",
    clock={"mode": "realtime", "bank": 60, "on_expiry": "stand_in"},
)


def test_a_seat_without_a_socket_stops_counting_as_a_person_after_its_absence_time(
    tmp_path: Path,
) -> None:
    """Ann's socket closes; 29 s later she still counts, 31 s later (30 s absence) not;
    her socket back, she counts again."""

    async def scenario() -> list[bool]:
        clock = ManualClock()
        manager = TableManager(make_settings(tmp_path, absent_after=30.0), clock)
        await manager.start()
        try:
            table, invites = await manager.seating.create_table("flaming", SEATS, {}, None, CLOCKED)
            client = Client(None)
            # the invite's first use binds the seat to a credential (issue 29)
            token = (await manager.seating.seat_of(table, invites[0].token)).token
            assert token is not None
            await manager.connect(table, token, client)
            seen = [manager.presence.has_person(table)]
            manager.disconnect(table, client)
            clock.advance(29)
            seen.append(manager.presence.has_person(table))
            clock.advance(2)
            seen.append(manager.presence.has_person(table))
            again = Client(None)
            await manager.connect(table, token, again)
            seen.append(manager.presence.has_person(table))
            return seen
        finally:
            await manager.stop()

    assert asyncio.run(scenario()) == [True, True, False, True]


def test_an_abandoned_seat_s_table_searches_as_an_all_bot_table(tmp_path: Path) -> None:
    """Ann plays her first move herself: the ISMCTS reply is searched as a table with a
    person. Then she is gone: her clock runs out 61 s later, a stand-in plays for her,
    and every ISMCTS reply from then on waits its turn with the all-bot tables."""

    async def scenario() -> tuple[list[bool], list[bool]]:
        clock = ManualClock()
        manager = TableManager(make_settings(tmp_path, ismcts_spec="ismcts:20"), clock)
        await manager.start()
        pool = manager.searches
        try:
            table, invites = await manager.seating.create_table("flaming", SEATS, {}, SEED, CLOCKED)

            def queued() -> list[bool]:
                return [
                    d.human for d in pool.history if d.event == "queued" and d.table_id == table.id
                ]

            # the invite's first use binds the seat, to a credential (issue 29)
            token = (await manager.seating.seat_of(table, invites[0].token)).token
            assert token is not None
            await until(lambda: table.to_move == 0, "Ann's first decision")
            await manager.act_with_token(table, token, table.seq, table.legal_texts()[0])
            await until(lambda: queued() and table.to_move == 0, "the bot's searched reply")
            searched = len(queued())
            clock.advance(61)  # Ann's bank runs out: the stand-in plays her decisions
            await until(lambda: len(queued()) > searched, "the next searched reply")
            flags = queued()
            return flags[:searched], flags[searched:]
        finally:
            await manager.stop()

    present, gone = asyncio.run(scenario())
    assert present and all(present), present
    assert gone and not any(gone), gone


def wait_for_gate(gate: Any) -> str:
    """A search that holds its worker until ``gate`` (a manager's Event) is set."""
    gate.wait(HANG)
    return "done"


def test_a_search_queued_for_a_person_who_left_waits_with_the_all_bot_tables() -> None:
    """One worker, busy. A search is queued while its table has a person, then an all-bot
    table's; the person leaves before the worker is free: the all-bot search goes first,
    the other joins the all-bot round after it."""

    async def scenario() -> list[tuple[str, str]]:
        pool = SearchPool(workers=1, reserved=0)
        manager = multiprocessing.get_context("spawn").Manager()
        gate = manager.Event()
        present = {"left": True}
        try:
            busy = asyncio.create_task(pool.run("busy", False, wait_for_gate, gate))
            await until(lambda: any(d.event == "started" for d in pool.history), "busy starts")
            left = asyncio.create_task(pool.run("left", lambda: present["left"], str, "x"))
            bots = asyncio.create_task(pool.run("bots", False, str, "y"))
            await until(lambda: pool.waiting == 2, "both queued")
            present["left"] = False
            gate.set()
            await asyncio.gather(busy, left, bots)
            return [(d.event, d.table_id) for d in pool.history if d.event != "queued"]
        finally:
            pool.shutdown()
            manager.shutdown()

    events = asyncio.run(scenario())
    started = [t for e, t in events if e == "started"]
    assert started == ["busy", "bots", "left"], events
    assert ("demoted", "left") in events
