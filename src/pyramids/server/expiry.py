"""The expiry of open tables: a table nobody started within ``open_table_ttl`` is ``expired``.

An expired table is kept (its record can still be read), never resumed, and its seats can
no longer be taken. A server alone expires the stored ones at its start
(:meth:`OpenTableExpiry.expire_stored`); then, on the injected clock, it sweeps the tables
it holds every quarter of the ttl (but at least once a minute, and at most every 50 ms).
In a cluster each owner expires only its own tables and tells the others
(``follower.py``).
Time is the runtime's :class:`~pyramids.server.clocks.Clock`, so a test drives the sweep
with a ``ManualClock``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from functools import partial
from typing import Protocol

from sqlalchemy import Connection

from pyramids.server import store
from pyramids.server.clocks import Clock
from pyramids.server.database import Database
from pyramids.server.live import EXPIRED, OPEN, LiveTable
from pyramids.server.table_cache import TableCache

log = logging.getLogger("pyramids.server")

SWEEP_AT_MOST = 60.0
"""Seconds between sweeps, at most (the ttl's quarter when shorter)."""
SWEEP_AT_LEAST = 0.05
"""Seconds between sweeps, at least (however short the ttl)."""


class ExpiringTables(Protocol):
    """What the expiry asks of the runtime that holds the tables (``TableManager``)."""

    def owns(self, table: LiveTable) -> bool:
        """Whether this instance runs ``table`` (only the owner expires it)."""
        ...

    def cancel_timers(self, table: LiveTable) -> None:
        """Stop ``table``'s absence clocks and its decision's timer."""
        ...

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances ``table`` changed."""
        ...


class OpenTableExpiry:
    """Marks ``expired`` the open tables nobody started within ``ttl`` seconds (0: never)."""

    def __init__(
        self,
        ttl: float,
        clock: Clock,
        database: Database,
        cache: TableCache,
        runtime: ExpiringTables,
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self.database = database
        self.cache = cache
        self.runtime = runtime
        self.every = min(SWEEP_AT_MOST, max(SWEEP_AT_LEAST, ttl / 4))
        """Seconds of the clock between two sweeps."""
        self._sweeper: asyncio.Task[None] | None = None

    def cutoff(self) -> dt.datetime:
        """Open tables created before this are expired (``open_table_ttl``; 0: none)."""
        if self.ttl <= 0:
            return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
        return self.clock.now() - dt.timedelta(seconds=self.ttl)

    async def expire_stored(self) -> list[str]:
        """Mark ``expired`` every stored table still open after the ttl (the start of a
        server alone, before anything is replayed); their ids."""
        expired = await self.database.write(partial(store.expire_open_tables, before=self.cutoff()))
        if expired:
            log.info("%d open tables expired (never started)", len(expired))
        return expired

    # --- the sweep ---------------------------------------------------------------------------

    def start(self) -> None:
        """Sweep every ``every`` seconds of the clock from now on (nothing if the ttl is 0)."""
        if self.ttl > 0 and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        """Stop sweeping (a sweep under way is cancelled)."""
        if self._sweeper is not None:
            sweeper, self._sweeper = self._sweeper, None
            sweeper.cancel()
            await asyncio.gather(sweeper, return_exceptions=True)

    async def _sweep(self) -> None:
        """Expire the open tables that waited too long, every so often, until stopped."""
        while True:
            await self.clock.sleep(self.every)
            try:
                await self.expire_due()
            except Exception:
                log.exception("cannot expire the open tables that waited too long")

    # --- expiring ------------------------------------------------------------------------------

    async def expire_due(self) -> list[str]:
        """Mark ``expired`` every held table still open after the ttl; their ids."""
        cutoff = self.cutoff()
        due = [
            t
            for t in self.cache.tables.values()
            if t.status == OPEN and t.created < cutoff and self.runtime.owns(t)
        ]
        done: list[str] = []
        for table in due:
            async with table.lock:
                if table.status != OPEN:
                    continue
                ids = await self.database.write(partial(self._expire_job, table, cutoff))
                if not ids:
                    continue  # started elsewhere meanwhile
                table.status = EXPIRED
                self.runtime.cancel_timers(table)
                table.changed(state=True)
                table.broadcast_table()
                table.broadcast_state()
                done.append(table.id)
                self.cache.remember_finished(table.id)
        if done:
            log.info("%d open tables expired (never started)", len(done))
        return done

    def _expire_job(self, table: LiveTable, cutoff: dt.datetime, conn: Connection) -> list[str]:
        ids = store.expire_open_tables(conn, before=cutoff, table_id=table.id)
        if ids:
            self.runtime.notify_changed(conn, table)
        return ids
