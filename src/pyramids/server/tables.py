"""The runtime: every table this instance holds, its lifecycle, and the parts that play it.

:class:`TableManager` starts and stops the tables this instance runs, attaches the sockets
and takes the humans' actions; it gives the rest to its parts:

- ``database.Database``: the engines and the writer thread (received, shared with every
  other feature; a manager made without one runs its own);
- ``table_cache.TableCache``: the tables held in memory, a cache of the database (running
  ones, and the finished ones recently asked for), loaded on first use;
- ``seating.Seating``: creating tables and binding their seats (invites, lobby claims,
  accounts);
- ``expiry.OpenTableExpiry``: the open tables nobody started in time;
- ``authority.Authority``: the one path by which any action is validated, applied,
  committed (``database.SqlActionStore``) and published (``SocketPublisher``);
- ``bots.ServerMoveScheduler``: its scheduler, which starts the bots, chance draws and
  stand-ins;
- ``timers.Timers``: the end of a human's decision (``turn_time``, the players' clocks);
- ``presence.Presence``: the seats' sockets, absence clocks and takeovers;
- ``ownership``: which tables this instance runs (all of them alone on SQLite; in a
  cluster those whose lease it holds, ``LeaseOwnership``);
- ``follower.ClusterFollower``: in a cluster, what the other instances committed
  (``docs/CLUSTER.md``);
- ``replay``: the replay of a finished game.

The parts reach back only through the narrow protocols they declare (``ports.py``,
``follower.FollowedTables``, ``seating.SeatingRuntime``, ``expiry.ExpiringTables``), which
the manager satisfies. Time comes from an injected :class:`~pyramids.server.clocks.Clock`
(real time unless a test passes a ``ManualClock``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from pyramids.server.auth import Account
from pyramids.server.authority import Authority, SocketPublisher
from pyramids.server.bots import ServerMoveScheduler
from pyramids.server.clocks import Clock, SystemClock
from pyramids.server.config import Settings
from pyramids.server.database import Database, SqlActionStore
from pyramids.server.db import make_engine
from pyramids.server.expiry import OpenTableExpiry
from pyramids.server.follower import ClusterFollower, RemoteHandler
from pyramids.server.limits import ClientLimits
from pyramids.server.live import RUNNING, LiveTable
from pyramids.server.ownership import LeaseOwnership, LocalOwnership, Ownership
from pyramids.server.presence import Presence
from pyramids.server.protocol import ProtocolError
from pyramids.server.replay import replay
from pyramids.server.search import SearchPool
from pyramids.server.seating import Seating
from pyramids.server.table_cache import TableCache
from pyramids.server.timers import Timers, forfeit_end
from pyramids.server.wire import Client, dumps

log = logging.getLogger("pyramids.server")

T = TypeVar("T")


def _log_failure(task: asyncio.Task[Any]) -> None:
    """Log the exception a table's task ended with (nobody awaits those tasks)."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.error("a task of a table failed: %r", exc, exc_info=exc)


class TableManager:
    """Every live table, and the tasks that play for absent seats."""

    def __init__(
        self, settings: Settings, clock: Clock | None = None, database: Database | None = None
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        """The time of every action, start and clock timer (may be replaced before
        ``start``: tests pass a ``clocks.ManualClock``)."""
        self.database = database or Database(settings)
        """The database gateway; started and stopped by the app's lifespan, or by this
        manager when it made its own (``database`` None: a manager alone, in tests)."""
        self._runs_database = database is None
        self.limits = ClientLimits(settings.limits)
        self._started = False
        self.finished_hooks: list[Callable[[LiveTable], Coroutine[Any, Any, None]]] = []
        """Called (as a task of the table) once a table's game is over and committed:
        ``ratings.py`` rates it there. Each must be idempotent: a restart between the last
        action's commit and a hook's work runs the hook again (``start``)."""
        self.started_hooks: list[Callable[[], Coroutine[Any, Any, None]]] = []
        """Called once after ``start`` resumed the tables (catch-up work of the other
        modules, such as rating games that finished while the server was down)."""
        self.cluster = bool(settings.cluster)
        """One instance of several sharing a PostgreSQL database (``Settings.cluster``)."""
        self.presence = Presence(self)
        self.timers = Timers(self)
        self.moves = ServerMoveScheduler(self)
        self.follower = ClusterFollower(self, self.database)
        self._reset()

    def _reset(self) -> None:
        """Forget every table and open nothing (the state before ``start``)."""
        self.cache = TableCache(self.settings, self.database, self._opened, self.clock)
        self._inflight: set[asyncio.Task[Any]] = set()
        self._lease_engine: Engine | None = None
        self._stopping = False
        self.searches = SearchPool(self.settings.search_workers, self.settings.search_reserved)
        self.origin = f"{self.settings.instance}/{secrets.token_hex(4)}"
        """This run of this instance (a new one at every start): the owner of its leases,
        the origin of its notifications."""
        self.authority = Authority(
            SqlActionStore(self.database),
            self.clock,
            SocketPublisher(),
            self.moves,
            origin=self.origin if self.cluster else None,
            snapshot_every=self.settings.snapshot_every,
        )
        self.ownership: Ownership = LocalOwnership()
        self.follower.reset()
        self.seating = Seating(
            self.settings,
            self.clock,
            self.database,
            self.cache,
            limits=self.limits,
            runtime=self,
        )
        self.expiry = OpenTableExpiry(
            self.settings.limits.open_table_ttl, self.clock, self.database, self.cache, self
        )

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables held in memory, by id (``table_cache.TableCache``)."""
        return self.cache.tables

    @property
    def remote_handlers(self) -> dict[str, RemoteHandler]:
        """What another instance's notification of a kind means here (``follower.py``):
        the other modules register theirs (``chat.py``)."""
        return self.follower.remote_handlers

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume every unfinished table (once), after starting the database if this
        manager made its own (the app's lifespan starts the app's before this)."""
        if self._started:
            return
        self._reset()
        self._started = True
        if self._runs_database:
            await self.database.start()
        if self.cluster:
            # no expiry of every table here: another instance may hold some; each owner
            # expires its own (``expire_due``), telling the others
            self._lease_engine = make_engine(self.settings.db_url, writer=True)
            self.ownership = LeaseOwnership(self, self._lease_engine)
            await self.follower.join(self.settings.db_url, self.ownership)
            log.info("instance %s: %d tables owned", self.origin, len(self.owned_running()))
        else:
            await self.expiry.expire_stored()
            loaded = await self.cache.load_unfinished()
            for table in list(self.tables.values()):
                self.moves.resume(table)
            log.info("resumed %d tables", len(loaded))
        self.expiry.start()
        for hook in self.started_hooks:
            await hook()

    async def stop(self) -> None:
        """Stop bots and timers, finish the writes in flight, let the leases go."""
        if not self._started:
            return
        self._started = False
        self._stopping = True
        await self.expiry.stop()
        for table in self.tables.values():
            self.cancel_timers(table)
            for task in list(table.tasks):
                task.cancel()
            for client in list(table.clients):
                client.close(1001)
        tasks = [t for table in self.tables.values() for t in table.tasks]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._inflight:
            await asyncio.gather(*list(self._inflight), return_exceptions=True)
        self.searches.shutdown()
        await self.ownership.stop()  # a clean stop: the other instances take over at once
        await self.follower.leave()
        if self._runs_database:
            await self.database.stop()
        if self._lease_engine is not None:
            self._lease_engine.dispose()

    async def _opened(self, table: LiveTable) -> None:
        """An unfinished table just loaded: in a cluster, what the other instances committed
        between the read and now (their notifications came before the table was here to
        take them) and their sockets; then resume it."""
        if self.cluster:
            await self.follower.sync(table)
            await self.presence.refresh([table])
        self.moves.resume(table)

    async def expire_due(self) -> list[str]:
        """Mark ``expired`` every held table still open after ``open_table_ttl``; their ids."""
        return await self.expiry.expire_due()

    async def read(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` on a reading connection (the parts' way into the database)."""
        return await self.database.read(job)

    async def write(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` in one committed write transaction (the writer thread)."""
        return await self.database.write(job)

    async def write_quietly(self, job: Callable[[Connection], Any], what: str) -> None:
        """Commit ``job`` and log (not raise) a failure: writes nobody waits for."""
        await self.database.write_quietly(job, what)

    async def critical(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to the end even if the caller is cancelled (memory must follow the DB)."""
        if self._stopping:
            coro.close()
            raise ProtocolError("unavailable", "the server is shutting down", 503)
        task = asyncio.ensure_future(coro)
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        return await asyncio.shield(task)

    def spawn(self, table: LiveTable, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task of ``table`` (cancelled when the server stops)."""
        if self._stopping:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)
        task.add_done_callback(_log_failure)

    async def healthy(self) -> bool:
        """Whether this instance serves: started, not stopping, and its database answers."""
        if not self._started or self._stopping:
            return False
        return await self.database.healthy()

    # --- finding, creating and seating (``table_cache.py``, ``seating.py``) ---------------

    async def get(self, table_id: str) -> LiveTable:
        """A table by id, loading it from the database; ProtocolError if unknown."""
        return await self.cache.get(table_id)

    def remember_finished(self, table_id: str) -> None:
        """A finished table was just used: keep it, within the cache's bounds (``finished.py``)."""
        self.cache.remember_finished(table_id)

    async def list_tables(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """The lobby's list: public tables' summaries, newest first."""
        return await self.cache.list_tables(status, limit)

    # --- connections -----------------------------------------------------------------------

    async def connect(
        self,
        table: LiveTable,
        token: str | None,
        client: Client,
        account: Account | None = None,
        seat: int | None = None,
    ) -> None:
        """Attach a connection, then send it hello and state. Its seat comes from the token,
        or, without one, from ``seat`` when that seat is bound to the logged-in ``account``
        (a player's own seat on another device); neither: a spectator. An invite used here
        first binds its seat (never to ``account``: a cross-site navigation may have opened
        the page) and the hello carries the seat's new credential, ``seat_token``."""
        fresh: str | None = None
        if token:
            use = await self.seating.seat_of(table, token)  # a socket never binds an account
            seat, fresh = use.seat, use.token
        elif seat is not None:
            self.seating.check_account_seat(table, seat, account)
        client.seat = seat
        if seat is not None:
            self.presence.connected(table, seat)
        table.attach(client)
        hello = table.hello(seat)
        if fresh is not None:
            hello["seat_token"] = fresh  # this connection's invite bound the seat
        client.send(dumps(hello))
        client.send(table.state_text(seat))

    def disconnect(self, table: LiveTable, client: Client) -> None:
        """Detach a connection; a human seat left with none starts its absence clock."""
        if client not in table.clients:
            return
        table.clients.discard(client)
        if client.seat is not None:
            self.presence.disconnected(table, client.seat)

    def cancel_timers(self, table: LiveTable) -> None:
        """Stop ``table``'s absence clocks and its decision's timer."""
        self.presence.cancel(table)
        self.timers.cancel(table)

    # --- acting ----------------------------------------------------------------------------

    async def act_with_token(
        self, table: LiveTable, token: str, seq: int, text: str, account: Account | None = None
    ) -> tuple[int, str | None]:
        """An action sent over HTTP: the token names the seat (and uses its invite). The
        new seq once committed, and the seat's new credential when this used its invite."""
        use = await self.seating.seat_of(table, token, account)
        seat = use.seat
        s = table.seats[seat]
        if s.connections == 0 and table.status == RUNNING:
            self.presence.present(table, seat)
            self.presence.start_absence(table, seat)
        try:
            return await self.act(table, seat, seq, text), use.token
        except ProtocolError as exc:
            exc.seat_token = use.token  # bound all the same: the refusal hands it over
            raise

    async def act(self, table: LiveTable, seat: int | None, seq: int, text: str) -> int:
        """A human's action (``seat`` None: a spectator); the new seq once committed."""
        return await self.critical(self.authority.act(table, seat, seq, text=text))

    def game_over(self, table: LiveTable, *, run_hooks: bool) -> None:
        """``table``'s game is over (committed): stop its timers, keep it among the finished,
        give its lease up and (``run_hooks``) run the finished hooks."""
        self.cancel_timers(table)
        self.remember_finished(table.id)
        if run_hooks:
            for hook in self.finished_hooks:
                self.spawn(table, hook(table))
        self.ownership.finished(table.id)

    def end_by_forfeit(
        self, table: LiveTable, seat: int, ranking: list[int], now: dt.datetime
    ) -> None:
        """The forfeit of ``seat`` (stored) left one seat standing: the game is over."""
        forfeit_end(table, seat, ranking, now)
        self.game_over(table, run_hooks=True)

    # --- the cluster (``follower.py``, ``ownership.py``) -------------------------------------

    @property
    def stopping(self) -> bool:
        """Whether the server is stopping (no new moves, timers or writes start)."""
        return self._stopping

    def owns(self, table: LiveTable) -> bool:
        """Whether this instance runs ``table``'s bots, timers and chance draws."""
        return self.ownership.owns(table.id)

    def owned_running(self) -> list[LiveTable]:
        """The running tables this instance owns."""
        return [t for t in self.tables.values() if t.status == RUNNING and self.owns(t)]

    def notice(self, kind: str, table_id: str, data: str = "") -> str:
        """The text of a notification from this instance."""
        return self.follower.notice(kind, table_id, data)

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances that ``table``'s row or seats
        changed (they read them again once it commits)."""
        self.follower.notify_changed(conn, table)

    async def taken(self, table_id: str) -> None:
        """This instance has just taken ``table_id``'s lease: load or bring it up to date,
        then resume it (``ClusterFollower.taken``)."""
        await self.follower.taken(table_id)

    def lost(self, table_id: str) -> None:
        """Another instance owns ``table_id`` now: stop running it here."""
        self.follower.lost(table_id)

    def forget_idle(self) -> int:
        """Drop the tables held only to follow them that nobody used for a while; how many."""
        return self.follower.forget_idle()

    # --- finished games --------------------------------------------------------------------

    async def replay(self, table: LiveTable) -> list[dict[str, Any]]:
        """Every step of a finished game; ProtocolError(not_finished) before the end."""
        return await replay(table)
