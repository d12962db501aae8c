"""The tables this instance holds in memory: a cache of the database.

:class:`TableCache` holds the running tables and the finished ones recently asked for
(bounded by ``finished.FinishedCache``), loads a table from its record on first use (one
load per id at a time: ``loading``), and answers the lobby's list. A table is rebuilt from
its record by replaying it (``rebuild.rebuild``); a table loaded while unfinished is handed
to the runtime's ``opened`` (``TableManager``: brought up to date in a cluster, then
resumed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from sqlalchemy import Connection

from pyramids.games.engine import Engine
from pyramids.server import cluster_store, store
from pyramids.server.clocks import Clock
from pyramids.server.config import Settings
from pyramids.server.database import Database
from pyramids.server.finished import FinishedCache
from pyramids.server.live import FINISHED, LiveTable, stored_summary
from pyramids.server.protocol import ProtocolError, is_table_id
from pyramids.server.rebuild import GameSoFar, StartupError, is_older_rules, rebuild
from pyramids.server.store import TableRecord
from pyramids.server.table_settings import TableSettings, default_hints
from pyramids.server.timers import resumed_turn_time

log = logging.getLogger("pyramids.server")


def live_table(
    record: TableRecord,
    rebuilt: GameSoFar,
    defaults: Settings,
    taken_over: set[int] | None = None,
) -> LiveTable:
    """The live table of a stored one, replayed (``rebuilt``); ``taken_over``: its human
    seats a stand-in plays (cluster mode). The stored actions win over the row's seq."""
    settings = TableSettings.from_json(
        record.settings, defaults, hints=default_hints(record.options)
    )
    stored_turn_time = settings.turn_time if "turn_time" in record.settings else 0.0
    settings.turn_time = resumed_turn_time(stored_turn_time, rated=record.rated, defaults=defaults)
    table = LiveTable(record, rebuilt, settings)
    for seat in taken_over or ():
        table.seats[seat].taken_over = table.seats[seat].is_human
    table.seq = len(rebuilt.actions)
    if record.seq != table.seq:
        log.warning(
            "table %s: its row says seq %d but %d actions are stored; the actions win",
            record.id,
            record.seq,
            table.seq,
        )
    return table


class TableCache:
    """The tables held in memory, by id, and how one is loaded from the database."""

    def __init__(
        self,
        settings: Settings,
        database: Database,
        opened: Callable[[LiveTable], Awaitable[None]],
        clock: Clock,
    ) -> None:
        self.settings = settings
        self.database = database
        self.clock = clock
        """Whose ``monotonic`` marks when a table was last asked for (``LiveTable.used``)."""
        self.opened = opened
        """Called with an unfinished table just loaded (before anyone else gets it)."""
        self.tables: dict[str, LiveTable] = {}
        self.finished = FinishedCache(settings.finished_cache, settings.finished_cache_bytes)
        self.loading: dict[str, asyncio.Lock] = {}
        """One lock per id being loaded (gone once loaded, or found unknown)."""

    async def get(self, table_id: str) -> LiveTable:
        """A table by id, loading it from the database; ProtocolError if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            table.used = self.clock.monotonic()
            if table.status == FINISHED:
                self.remember_finished(table_id)
            return table
        if not is_table_id(table_id):
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        lock = self.loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    table = await self._load(table_id)
        finally:  # an unknown id too: its lock must not stay (one per id asked for)
            if not lock.locked():
                self.loading.pop(table_id, None)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        cluster = bool(self.settings.cluster)
        engine = self.settings.engine

        def job(conn: Connection) -> tuple[TableRecord, GameSoFar, set[int]] | None:
            record = store.load_table(conn, table_id)
            if record is None:
                return None
            taken = cluster_store.taken_over(conn, table_id) if cluster else set()
            return record, rebuild(record, engine), taken

        try:
            found = await self.database.read(job)
        except StartupError as exc:
            raise ProtocolError("unavailable", str(exc), 503) from None
        if found is None:
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        record, rebuilt, taken = found
        table = live_table(record, rebuilt, self.settings, taken)
        table.used = self.clock.monotonic()
        table.server_clock = self.clock
        self.tables[table_id] = table
        if table.status == FINISHED:
            self.remember_finished(table_id)
            return table
        await self.opened(table)
        return table

    def remember_finished(self, table_id: str) -> None:
        """A finished table was just used: keep it, within the cache's bounds (``finished.py``)."""
        self.finished.remember(table_id, self.tables)

    async def load_unfinished(self) -> list[LiveTable]:
        """Hold every unfinished table, replayed (at the start of a server alone); them.

        A table that does not replay stops the start, except one recorded under an older
        rules version of its game: that one is left in the database as it is (nothing is
        lost), logged, and not resumed; opening it answers ``unavailable`` with the reason."""
        loaded = await self.database.read(partial(_replay_unfinished, engine=self.settings.engine))
        tables = [live_table(record, rebuilt, self.settings) for record, rebuilt in loaded]
        for table in tables:
            table.used = self.clock.monotonic()
            table.server_clock = self.clock
            self.tables[table.id] = table
            if table.status == FINISHED:
                self.remember_finished(table.id)
        return tables

    async def list_tables(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """The lobby's list: public tables' summaries, newest first (live ones as they are
        in memory). A private table is reached only by its id and its invite links."""
        records = await self.database.read(
            partial(store.list_tables, status=status, limit=limit, public_only=True)
        )
        out: list[dict[str, Any]] = []
        for record in records:
            table = self.tables.get(record.id)
            out.append(table.summary() if table is not None else stored_summary(record))
        return out


def _replay_unfinished(
    conn: Connection, engine: Engine | None = None
) -> list[tuple[TableRecord, GameSoFar]]:
    """Every unfinished table's record, replayed on ``engine``, but those of older rules
    that do not."""
    out: list[tuple[TableRecord, GameSoFar]] = []
    for table_id in store.unfinished_ids(conn):
        record = store.load_table(conn, table_id)
        if record is None:
            continue
        try:
            out.append((record, rebuild(record, engine)))
        except StartupError as exc:
            if not is_older_rules(record):
                raise
            log.warning("not resumed: %s", exc)
    return out
