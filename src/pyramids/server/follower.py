"""Following the other instances of a cluster: what they committed, read into the tables here.

In a cluster (``docs/CLUSTER.md``) any instance may hold a table for its sockets while
another owns it (``ownership.py``). Every commit publishes a notification (``pubsub.py``):
an action (``authority.ACTION_NOTICE``), a change of the table's row or seats
(:data:`CHANGED_NOTICE`: a binding, its status, a forfeit, a takeover), the seats' sockets
(``presence.PRESENCE_NOTICE``), or a kind another module registered in
:attr:`ClusterFollower.remote_handlers` (``chat.py``). :class:`ClusterFollower` takes each
into the table held here: it reads the actions after the table's seq (one reader per
table), reads its row and seats again, or hands the notice to its handler. It also
resumes a table whose lease this instance has just taken (``taken``), stops running one
it lost (``lost``), and drops the tables held only to follow them once nobody looks
(``forget_idle``). On SQLite, a server alone, nothing is published and nothing followed.

It reaches the tables through :class:`FollowedTables`, which the runtime
(``tables.TableManager``) is, and the database through the gateway (``database.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from pyramids.server import cluster_store, store
from pyramids.server.authority import ACTION_NOTICE, notice
from pyramids.server.clocks import FORFEITED, Clock
from pyramids.server.database import Database
from pyramids.server.live import EXPIRED, FINISHED, OPEN, RUNNING, LiveTable
from pyramids.server.ownership import Ownership
from pyramids.server.presence import PRESENCE_NOTICE
from pyramids.server.pubsub import Listener, Notice
from pyramids.server.store import TableRecord
from pyramids.server.timers import forfeit_end

log = logging.getLogger("pyramids.server")

IDLE_AFTER = 15.0
"""Seconds a table another instance owns stays in memory here without a socket or request."""
CHANGED_NOTICE = "m"
"""Notification kind: a table's row or seats changed (a binding, its status, a forfeit, a
takeover): the other instances read them again."""

RemoteHandler = Callable[[LiveTable, str], Coroutine[Any, Any, None]]
"""What another instance's notification of one kind means here: called with the table and
the notice's data."""


class CatchesUp(Protocol):
    """Reads a table's actions committed elsewhere into it (``authority.Authority``)."""

    async def catch_up(self, table: LiveTable, *, strict: bool = False) -> int:
        """Apply the stored actions after ``table.seq``; how many."""
        ...


class RefreshesPresence(Protocol):
    """Reads the other instances' sockets of tables (``presence.Presence``)."""

    async def refresh(self, tables: Sequence[LiveTable]) -> None:
        """Read the socket counts of ``tables`` on the other instances."""
        ...


class Resumes(Protocol):
    """Starts what comes next at a table (the server's own moves: bots, draws, timers)."""

    def resume(self, table: LiveTable) -> None:
        """Start whatever ``table`` waits for from this server."""
        ...


class FollowedTables(Protocol):
    """What the follower asks of the runtime that holds the tables (``TableManager``)."""

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables held in memory, by id."""
        ...

    @property
    def origin(self) -> str:
        """This run of this instance: the origin of its notifications."""
        ...

    @property
    def stopping(self) -> bool:
        """Whether the server is stopping."""
        ...

    @property
    def authority(self) -> CatchesUp:
        """The authority, which applies what was committed."""
        ...

    @property
    def presence(self) -> RefreshesPresence:
        """The seats' sockets."""
        ...

    @property
    def moves(self) -> Resumes:
        """The scheduler of the server's own moves."""
        ...

    @property
    def clock(self) -> Clock:
        """The server's clock (``monotonic``: when a table was last asked for)."""
        ...

    def owns(self, table: LiveTable) -> bool:
        """Whether this instance runs ``table``."""
        ...

    def spawn(self, table: LiveTable, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task of ``table``."""
        ...

    async def get(self, table_id: str) -> LiveTable:
        """The table, loaded (and brought up to date, resumed) if it is not held."""
        ...

    def cancel_timers(self, table: LiveTable) -> None:
        """Stop ``table``'s absence clocks and its decision's timer."""
        ...

    def remember_finished(self, table_id: str) -> None:
        """Keep a finished table among the finished ones held."""
        ...

    def game_over(self, table: LiveTable, *, run_hooks: bool) -> None:
        """``table``'s game is over."""
        ...


class ClusterFollower:
    """Takes what the other instances committed into the tables held here (cluster mode)."""

    def __init__(self, runtime: FollowedTables, database: Database) -> None:
        self.runtime = runtime
        self.database = database
        self.remote_handlers: dict[str, RemoteHandler] = {}
        """What another instance's notification of a kind means here: the other modules
        register theirs (``chat.py``: a message was said at that table). Each is called,
        as a task of the table, for tables this instance holds."""
        self.reset()

    def reset(self) -> None:
        """Follow nothing (the state before ``join``; the handlers stay registered)."""
        self._listener: Listener | None = None
        self._following: set[str] = set()
        self._follow_again: set[str] = set()

    # --- publishing --------------------------------------------------------------------------

    def notice(self, kind: str, table_id: str, data: str = "") -> str:
        """The text of a notification from this instance."""
        return notice(kind, table_id, self.runtime.origin, data)

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances that ``table``'s row or seats
        changed (they read them again once it commits)."""
        cluster_store.notify(conn, self.notice(CHANGED_NOTICE, table.id))

    # --- joining and leaving -------------------------------------------------------------

    async def join(self, url: str, ownership: Ownership) -> None:
        """Listen to the other instances, then take the tables nobody owns."""
        self._listener = Listener(url, self.on_notice, self.resync)
        await self._listener.start()
        await ownership.start()

    async def leave(self) -> None:
        """Stop listening."""
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await asyncio.to_thread(listener.stop)

    # --- leases ------------------------------------------------------------------------------

    async def taken(self, table_id: str) -> None:
        """This instance has just taken ``table_id``'s lease: load or bring it up to date,
        then resume it (its bots, timers, absence clocks)."""
        runtime = self.runtime
        table = runtime.tables.get(table_id)
        if table is None:
            await runtime.get(table_id)  # loads it, reads the presence and resumes it
            return
        await self.sync(table)
        await runtime.presence.refresh([table])
        runtime.moves.resume(table)

    def forget_idle(self, after: float = IDLE_AFTER) -> int:
        """Drop the unfinished tables held only to follow them (another instance owns them)
        that had no socket and no request for ``after`` seconds; how many."""
        runtime = self.runtime
        now = runtime.clock.monotonic()
        idle = [
            t
            for t in runtime.tables.values()
            if t.status in (OPEN, RUNNING)
            and not runtime.owns(t)
            and not t.clients
            and not t.lock.locked()
            and now - t.used > after
        ]
        for table in idle:
            del runtime.tables[table.id]
        return len(idle)

    def lost(self, table_id: str) -> None:
        """Another instance owns ``table_id`` now: stop running it here (its sockets stay,
        following the table through the notifications)."""
        runtime = self.runtime
        table = runtime.tables.get(table_id)
        if table is None:
            return
        runtime.cancel_timers(table)
        table.scheduled_seq = -1
        if not table.clients and not table.lock.locked():
            del runtime.tables[table_id]  # nobody here follows it: no need to read its moves
        log.info("table %s: no longer owned by %s", table_id, runtime.origin)

    # --- notifications ---------------------------------------------------------------------

    def on_notice(self, n: Notice) -> None:
        """Another instance's notification (on the event loop)."""
        runtime = self.runtime
        if n.origin == runtime.origin or runtime.stopping:
            return
        table = runtime.tables.get(n.table_id)
        if table is None:
            return
        if n.kind == ACTION_NOTICE:
            if n.data.isdigit() and int(n.data) <= table.seq:
                return
            self._follow(table)
        elif n.kind == CHANGED_NOTICE:
            runtime.spawn(table, self._reload(table))
        elif n.kind == PRESENCE_NOTICE:
            runtime.spawn(table, runtime.presence.refresh([table]))
        elif (handler := self.remote_handlers.get(n.kind)) is not None:
            runtime.spawn(table, handler(table, n.data))

    def resync(self) -> None:
        """The notifications were lost for a while: read every held table again."""
        runtime = self.runtime
        held = [t for t in runtime.tables.values() if t.status in (OPEN, RUNNING)]
        for table in held:
            runtime.spawn(table, self.sync(table))
        if held:
            runtime.spawn(held[0], runtime.presence.refresh(held))

    def _follow(self, table: LiveTable) -> None:
        """Read the actions another instance committed to ``table`` (one reader at a time
        per table; notifications arriving meanwhile make it read once more)."""
        if table.id in self._following:
            self._follow_again.add(table.id)
            return
        self._following.add(table.id)
        self.runtime.spawn(table, self._follow_task(table))

    async def _follow_task(self, table: LiveTable) -> None:
        try:
            while True:
                self._follow_again.discard(table.id)
                async with table.lock:
                    await self.runtime.authority.catch_up(table)
                if table.id not in self._follow_again:
                    return
        finally:
            self._following.discard(table.id)

    # --- reading a table again -------------------------------------------------------------

    async def sync(self, table: LiveTable) -> None:
        """Bring ``table`` up to date with the database: its row, seats and actions."""
        await self._reload(table)
        async with table.lock:
            await self.runtime.authority.catch_up(table)

    async def _reload(self, table: LiveTable) -> None:
        """Read ``table``'s row and seats again (another instance changed them)."""

        def job(conn: Connection) -> tuple[TableRecord | None, set[int]]:
            record = store.load_table(conn, table.id, full=False)
            return record, cluster_store.taken_over(conn, table.id)

        try:
            record, taken = await self.database.read(job)
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read it again: %s", table.id, exc)
            return
        if record is None:
            return
        async with table.lock:
            self._apply_record(table, record, taken)

    def _apply_record(self, table: LiveTable, record: TableRecord, taken: set[int]) -> None:
        """Take what another instance stored of ``table``'s row and seats into memory."""
        runtime = self.runtime
        for stored in record.seats:
            s = table.seats[stored.seat]
            s.take_binding(stored)
            if not runtime.owns(table):
                s.taken_over = s.is_human and stored.seat in taken
        table.started = record.started or table.started
        table.rematch_id = record.rematch_id or table.rematch_id
        was = table.status
        if record.forfeits and len(record.forfeits) > len(table.forfeits):
            table.forfeits = list(record.forfeits)
        if was == OPEN and record.status == RUNNING:
            table.status = RUNNING
            runtime.moves.resume(table)
        elif was == OPEN and record.status == EXPIRED:
            table.status = EXPIRED
            runtime.cancel_timers(table)
            runtime.remember_finished(table.id)
        elif (
            was == RUNNING
            and record.status == FINISHED
            and record.ended == FORFEITED
            and record.ranking is not None
            and table.forfeits
        ):
            forfeit_end(
                table, table.forfeits[-1], list(record.ranking), record.finished or record.updated
            )
            runtime.game_over(table, run_hooks=runtime.owns(table))
        table.changed(state=True)
        table.broadcast_table()
        table.broadcast_state()
