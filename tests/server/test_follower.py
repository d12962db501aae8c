"""The cluster follower (``server/follower.py``) on a fake runtime: no database, no cluster.

The follower takes the other instances' notifications into the tables held here, through
the few operations it asks of the runtime (``follower.FollowedTables``); here a fake
runtime counts what it was asked. The reads of the database are the cluster tests' own
(``tests/server/test_cluster_instances.py``, ``tests/cluster``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from pyramids.server.authority import ACTION_NOTICE
from pyramids.server.clocks import ManualClock
from pyramids.server.database import Database
from pyramids.server.follower import ClusterFollower
from pyramids.server.live import LiveTable
from pyramids.server.presence import PRESENCE_NOTICE
from pyramids.server.pubsub import Notice
from pyramids.server.wire import Client
from tests.server.conftest import make_settings
from tests.server.fakes import live_table
from tests.waiting import until

HERE, THERE = "here/1", "there/2"
"""This instance's origin, and another's."""


class FakeAuthority:
    """Counts the reads of a table's actions; each waits for ``gate``."""

    def __init__(self) -> None:
        self.reads = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def catch_up(self, table: LiveTable, *, strict: bool = False) -> int:
        self.reads += 1
        await self.gate.wait()
        return 0


class FakePresence:
    """Remembers which tables' sockets were read."""

    def __init__(self) -> None:
        self.refreshed: list[list[str]] = []

    async def refresh(self, tables: Sequence[LiveTable]) -> None:
        self.refreshed.append([t.id for t in tables])


class FakeMoves:
    """Remembers which tables were resumed."""

    def __init__(self) -> None:
        self.resumed: list[str] = []

    def resume(self, table: LiveTable) -> None:
        self.resumed.append(table.id)


class FakeRuntime:
    """The runtime as the follower sees it (``FollowedTables``), in memory."""

    def __init__(self, *tables: LiveTable) -> None:
        self.tables = {t.id: t for t in tables}
        self.origin = HERE
        self.stopping = False
        self.authority = FakeAuthority()
        self.presence = FakePresence()
        self.moves = FakeMoves()
        self.owned: set[str] = set()
        self.cancelled: list[str] = []
        self.tasks: list[asyncio.Future[None]] = []
        self.clock = ManualClock()

    def owns(self, table: LiveTable) -> bool:
        return table.id in self.owned

    def spawn(self, table: LiveTable, coro: Coroutine[Any, Any, None]) -> None:
        self.tasks.append(asyncio.ensure_future(coro))

    async def get(self, table_id: str) -> LiveTable:
        return self.tables[table_id]

    def cancel_timers(self, table: LiveTable) -> None:
        self.cancelled.append(table.id)

    def remember_finished(self, table_id: str) -> None:
        pass

    def game_over(self, table: LiveTable, *, run_hooks: bool) -> None:
        pass

    async def settle(self) -> None:
        """Return once every task spawned (those they spawned too) has ended."""
        while self.tasks:
            await self.tasks.pop(0)


def follower_of(runtime: FakeRuntime, tmp_path: Path) -> ClusterFollower:
    """A follower of ``runtime`` (its database never started: nothing here reads it)."""
    return ClusterFollower(runtime, Database(make_settings(tmp_path)))


def test_actions_are_read_once_per_table_and_once_more_for_those_that_came_meanwhile(
    tmp_path: Path,
) -> None:
    """A notice of this instance's own, of a seq already held or of a table not held is
    not followed; another's new action is read by one reader per table, and the notices
    that arrive while it reads make it read once more, not once each."""

    async def scenario() -> list[tuple[str, int]]:
        table = live_table()
        runtime = FakeRuntime(table)
        follower = follower_of(runtime, tmp_path)
        follower.on_notice(Notice(ACTION_NOTICE, table.id, HERE, str(table.seq + 1)))
        follower.on_notice(Notice(ACTION_NOTICE, table.id, THERE, str(table.seq)))
        follower.on_notice(Notice(ACTION_NOTICE, "elsewhere0", THERE, "1"))
        seen = [("followed", len(runtime.tasks))]
        runtime.authority.gate.clear()
        follower.on_notice(Notice(ACTION_NOTICE, table.id, THERE, str(table.seq + 1)))
        await until(lambda: runtime.authority.reads == 1, "the first read")
        follower.on_notice(Notice(ACTION_NOTICE, table.id, THERE, str(table.seq + 2)))
        follower.on_notice(Notice(ACTION_NOTICE, table.id, THERE, str(table.seq + 3)))
        seen.append(("readers", len(runtime.tasks)))
        runtime.authority.gate.set()
        await runtime.settle()
        seen.append(("reads", runtime.authority.reads))
        return seen

    assert asyncio.run(scenario()) == [("followed", 0), ("readers", 1), ("reads", 2)]


def test_presence_and_other_modules_notices_go_where_they_belong(tmp_path: Path) -> None:
    """A presence notice reads the table's sockets on the other instances; a kind another
    module registered (``chat.py``'s, say) goes to its handler with the notice's data; a
    kind nobody registered is dropped."""

    table = live_table()

    async def scenario() -> tuple[list[list[str]], list[tuple[str, str]], int]:
        runtime = FakeRuntime(table)
        follower = follower_of(runtime, tmp_path)
        said: list[tuple[str, str]] = []

        async def on_chat(held: LiveTable, data: str) -> None:
            said.append((held.id, data))

        follower.remote_handlers["c"] = on_chat
        follower.on_notice(Notice(PRESENCE_NOTICE, table.id, THERE, ""))
        follower.on_notice(Notice("c", table.id, THERE, "42"))
        follower.on_notice(Notice("z", table.id, THERE, "?"))
        spawned = len(runtime.tasks)
        await runtime.settle()
        return runtime.presence.refreshed, said, spawned

    assert asyncio.run(scenario()) == ([[table.id]], [(table.id, "42")], 2)


def test_a_lost_table_stops_here_and_stays_only_for_its_sockets(tmp_path: Path) -> None:
    """``lost``: another instance owns the table now: its timers stop and nothing more is
    scheduled for it here; it stays while a socket here follows it, else it is dropped."""
    watched, alone = live_table(table_id="watched001"), live_table(table_id="alone00001")
    watched.attach(Client(None))
    runtime = FakeRuntime(watched, alone)
    follower = follower_of(runtime, tmp_path)
    follower.lost(watched.id)
    follower.lost(alone.id)
    follower.lost("unknown001")
    assert runtime.cancelled == [watched.id, alone.id]
    assert watched.scheduled_seq == -1
    assert list(runtime.tables) == [watched.id]


def test_idle_tables_another_instance_owns_are_forgotten(tmp_path: Path) -> None:
    """``forget_idle``: an unfinished table held only to follow it (owned elsewhere, no
    socket here) that nobody used for ``after`` seconds is dropped; one this instance owns,
    one with a socket, and one used just now stay."""
    idle, owned, watched, recent = (
        live_table(table_id=f"{name:0<10}") for name in ("idle", "owned", "watched", "recent")
    )
    runtime = FakeRuntime(idle, owned, watched, recent)
    for table in (idle, owned, watched):
        table.used = runtime.clock.monotonic()
    runtime.clock.advance(100.0)  # the server's clock: 100 s later, recent is asked for
    recent.used = runtime.clock.monotonic()
    watched.attach(Client(None))
    runtime.owned.add(owned.id)
    follower = follower_of(runtime, tmp_path)
    assert follower.forget_idle(after=15.0) == 1
    assert sorted(runtime.tables) == sorted([owned.id, watched.id, recent.id])
