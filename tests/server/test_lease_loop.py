"""The lease loop of a cluster instance (``ownership.LeaseOwnership``) through a database
outage, with fakes and a manual clock.

Issue 31: "While PostgreSQL is down, the owner of a running table logs 'the lease loop
failed; trying again' with a 110-line traceback every couple of seconds:
``presence.refresh`` is not guarded as ``_renew`` and ``_look`` are, and each failed round
skips ``hand_over`` and ``forget_idle``." The loop reaches the server through
``LeaseHost`` and the database through ``LeaseStore``; here both are fakes whose database
can be switched off, and time is a ``ManualClock`` (tests/cluster/test_lease_outage.py
does the same to a real cluster's PostgreSQL).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from pyramids.server.clocks import ManualClock
from pyramids.server.config import Settings
from pyramids.server.ownership import LeaseOwnership

ME, OTHER = "a/1", "b/1"
TTL, EVERY = 3.0, 1.0


class FakeDatabase:
    """The leases and socket counts of the cluster, in memory; ``down`` refuses every call
    as an unreachable PostgreSQL does."""

    def __init__(self) -> None:
        self.down = False
        self.leases: dict[str, str] = {}
        self.unfinished: list[str] = []
        self.sockets: dict[str, dict[str, int]] = {}
        """Per table, the other instances holding its players' sockets."""

    def answer(self) -> None:
        if self.down:
            raise OperationalError(
                "UPDATE table_leases ...", {}, ConnectionRefusedError("connection refused")
            )

    async def renew(self, owner: str, ttl: float) -> set[str]:
        self.answer()
        return {t for t, o in self.leases.items() if o == owner}

    async def orphans(self, limit: int) -> list[str]:
        self.answer()
        return [t for t in self.unfinished if t not in self.leases][:limit]

    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool:
        self.answer()
        if self.leases.get(table_id, owner) != owner:
            return False
        self.leases[table_id] = owner
        return True

    async def release(self, owner: str, table_ids: Any = None) -> None:
        self.answer()
        for t in list(table_ids if table_ids is not None else self.leases):
            if self.leases.get(t) == owner:
                del self.leases[t]

    async def hand_over(self, table_id: str, owner: str, to: str, ttl: float) -> bool:
        self.answer()
        if self.leases.get(table_id) != owner:
            return False
        self.leases[table_id] = to
        return True

    async def socket_holders(self, table_ids: Any, other_than: str) -> dict[str, dict[str, int]]:
        self.answer()
        return {t: dict(self.sockets[t]) for t in table_ids if t in self.sockets}


@dataclass
class FakeSeat:
    seat: int
    is_human: bool = True
    connections: int = 0
    remote: int = 0


@dataclass
class FakeTable:
    id: str
    seats: list[FakeSeat] = field(default_factory=lambda: [FakeSeat(0), FakeSeat(1, False)])


class FakePresence:
    """Reads the other instances' sockets from the fake database (fails while it is down)."""

    def __init__(self, db: FakeDatabase) -> None:
        self.db = db
        self.reads = 0

    async def refresh(self, tables: Any) -> None:
        self.db.answer()
        self.reads += 1
        for table in tables:
            holders = self.db.sockets.get(table.id, {})
            table.seats[0].remote = sum(holders.values())


class FakeHost:
    """The server whose tables the leases are for (a ``LeaseHost``)."""

    def __init__(self, db: FakeDatabase, clock: ManualClock) -> None:
        self.origin = ME
        self.settings = Settings(lease_ttl=TTL, lease_renew=EVERY)
        self.clock = clock
        self.presence = FakePresence(db)
        self.tables: dict[str, FakeTable] = {}
        self.ownership: LeaseOwnership | None = None
        self.rounds = 0
        self.round_done = asyncio.Event()
        self.lost_ids: list[str] = []
        self.taken_ids: list[str] = []

    def owned_running(self) -> list[Any]:
        assert self.ownership is not None
        return [t for t in self.tables.values() if self.ownership.owns(t.id)]

    def forget_idle(self) -> int:
        self.rounds += 1  # the last step of every round
        self.round_done.set()
        return 0

    def lost(self, table_id: str) -> None:
        self.lost_ids.append(table_id)

    async def taken(self, table_id: str) -> None:
        self.taken_ids.append(table_id)
        self.tables.setdefault(table_id, FakeTable(table_id))


def instance(db: FakeDatabase, clock: ManualClock, *tables: str) -> tuple[FakeHost, LeaseOwnership]:
    """An instance holding the leases of ``tables`` (created here) on the fake database."""
    host = FakeHost(db, clock)
    ownership = host.ownership = LeaseOwnership(host, db)  # type: ignore[arg-type]
    for table_id in tables:
        db.leases[table_id] = ME
        db.unfinished.append(table_id)
        host.tables[table_id] = FakeTable(table_id)
        ownership.took(table_id)
    return host, ownership


async def asleep(clock: ManualClock) -> None:
    """Return once the loop waits on ``clock`` (its pause is set: advancing wakes it)."""
    while not clock.pending():
        await asyncio.sleep(0)  # one turn of the loop, no time: the loop task runs to its pause


def lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the server logged at WARNING or above."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_short_outage_is_one_line_down_and_one_back_and_the_hand_over_is_not_skipped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """PostgreSQL down for two rounds (less than the lease's ttl): one warning when it goes,
    none in between, no traceback; every round still forgets its idle tables; once back,
    one line, and the table whose player moved to another instance meanwhile is handed
    over in that very round."""
    caplog.set_level(logging.INFO, "pyramids.server")

    async def run() -> None:
        db, clock = FakeDatabase(), ManualClock()
        host, ownership = instance(db, clock, "t1")
        await ownership.run_round()
        assert lines(caplog) == [] and host.presence.reads == 1
        db.down = True
        for _ in range(2):
            clock.advance(EVERY)
            await ownership.run_round()
        assert host.rounds == 3, "forget_idle ran in every round, the database down or not"
        down = lines(caplog)
        assert [r.getMessage().split(" (")[0] for r in down] == [
            "the database does not answer the lease loop"
        ]
        assert "connection refused" in down[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert ownership.owns("t1") and host.lost_ids == []
        db.sockets["t1"] = {OTHER: 1}  # meanwhile the player's socket went to b
        db.down = False
        clock.advance(EVERY)
        await ownership.run_round()
        back = lines(caplog)[1:]
        assert [r.getMessage() for r in back] == [
            "the database answers the lease loop again, after 2 s"
        ]
        assert db.leases["t1"] == OTHER and host.lost_ids == ["t1"]
        assert not ownership.owns("t1")

    asyncio.run(run())


def test_an_outage_past_the_ttl_gives_the_tables_up_once_and_takes_them_back_after(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Down for longer than ``lease_ttl``: one warning, then one error as the tables are
    given up (another instance may take them), nothing more while it lasts; once back,
    one line, and the tables nobody took are taken and resumed again."""
    caplog.set_level(logging.INFO, "pyramids.server")

    async def run() -> None:
        db, clock = FakeDatabase(), ManualClock()
        host, ownership = instance(db, clock, "t1", "t2")
        db.down = True
        for _ in range(6):
            clock.advance(EVERY)
            await ownership.run_round()
        assert [r.levelname for r in lines(caplog)] == ["WARNING", "ERROR"]
        assert "giving up 2 tables" in lines(caplog)[1].getMessage()
        assert sorted(host.lost_ids) == ["t1", "t2"] and not ownership.held
        db.leases.clear()  # their leases expired in the database meanwhile
        db.down = False
        clock.advance(EVERY)
        await ownership.run_round()
        assert len(lines(caplog)) == 3
        assert lines(caplog)[2].getMessage().startswith("the database answers")
        assert sorted(host.taken_ids) == ["t1", "t2"] and ownership.held == {"t1", "t2"}
        assert not any(r.exc_info for r in caplog.records)

    asyncio.run(run())


def test_a_fault_in_one_step_is_told_with_its_traceback_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A step that fails for another reason than the database (a bug) is logged with its
    traceback, every round; the hand-over and the forgetting after it run all the same."""
    caplog.set_level(logging.INFO, "pyramids.server")

    async def run() -> None:
        db, clock = FakeDatabase(), ManualClock()
        host, ownership = instance(db, clock, "t1")

        async def broken(tables: Any) -> None:
            raise RuntimeError("a bug")

        host.presence.refresh = broken  # type: ignore[method-assign]
        host.tables["t1"].seats[0].remote = 1
        db.sockets["t1"] = {OTHER: 1}
        await ownership.run_round()
        (told,) = lines(caplog)
        assert told.exc_info is not None and "read the other instances' sockets" in (
            told.getMessage()
        )
        assert db.leases["t1"] == OTHER and host.rounds == 1

    asyncio.run(run())


def test_the_loop_keeps_the_leases_on_the_hosts_clock() -> None:
    """The loop's pause is the host's clock: a round runs once the manual clock has moved a
    ``lease_renew`` on (no real time waited), and a stop gives every lease up."""

    async def run() -> None:
        db, clock = FakeDatabase(), ManualClock()
        host, ownership = instance(db, clock, "t1")
        db.unfinished.append("t0")  # an ownerless table: taken at the start
        await ownership.start()
        assert host.taken_ids == ["t0"] and host.rounds == 0
        for round_no in (1, 2):
            host.round_done.clear()
            await asleep(clock)
            clock.advance(EVERY)
            await asyncio.wait_for(host.round_done.wait(), 60)
            assert host.rounds == round_no
        await ownership.stop()
        assert db.leases == {} and not ownership.held

    asyncio.run(run())
