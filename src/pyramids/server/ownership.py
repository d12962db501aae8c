"""Which instance owns which table: one owner per unfinished table.

Only a table's owner runs its bots, timers, chance draws, absence clocks and expiry; any
instance may hold the table for its sockets, follow it (``pubsub.py``) and apply its
players' actions through the database (the (table, seq) key keeps them exactly once).

:class:`LocalOwnership` is a server alone on its database (SQLite, the default): it owns
every table. :class:`LeaseOwnership` is one instance of a cluster on PostgreSQL: a table's
owner holds its row in ``table_leases`` and renews all its leases every ``lease_renew``
seconds with one UPDATE; a lease not renewed for ``lease_ttl`` seconds has expired. Every
``lease_renew`` seconds each instance also looks for unfinished tables without a live
lease and takes them (a conditional upsert: one instance wins each), loads them from the
database and resumes them. So an instance killed with ``kill -9`` loses its tables about
``lease_ttl`` seconds after its last renewal and another resumes them within
``lease_renew`` more. An instance that fails to renew for ``lease_ttl`` seconds (its
database unreachable) stops running every table it held, since another may have taken
them; the (table, seq) key still refuses a second action should two owners overlap for a
moment, and chance draws and bots are deterministic in (seed, seq), so an overlap cannot
even propose different moves. A clean stop gives every lease up at once.

The lease loop rides out a database outage quietly: each step of a round (renew, look,
read the other instances' sockets, hand over) runs whatever the others did, and the
outage is logged once when it starts and once when it ends (:class:`DatabaseOutage`), not
once a round. The loop reaches the server through :class:`LeaseHost` and the database
through :class:`LeaseStore` (:class:`SqlLeaseStore`: ``cluster_store`` in worker
threads), and its pauses and durations are the host's clock (``clocks.Clock``), so a test
runs it with fakes and a ``ManualClock``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from typing import Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import (
    DisconnectionError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from pyramids.server import cluster_store
from pyramids.server.clocks import Clock
from pyramids.server.config import Settings
from pyramids.server.live import LiveTable

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

TAKE_AT_ONCE = 64
"""The most ownerless tables one instance takes in one look (the rest at the next)."""
DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    DisconnectionError,
    PoolTimeoutError,
    OSError,
)
"""What a step of the lease loop raises when the database does not answer: an outage,
told once (any other error is a fault, logged with its traceback)."""


class Ownership(Protocol):
    """Says whether this instance owns a table, and keeps it so."""

    def owns(self, table_id: str) -> bool:
        """Whether this instance runs ``table_id``'s bots, timers and chance draws."""
        ...

    def created(self, conn: Connection, table_id: str) -> None:
        """In the transaction that stores a new table: take it (this instance created it)."""
        ...

    def took(self, table_id: str) -> None:
        """The transaction of ``created`` committed."""
        ...

    async def start(self) -> None:
        """Start keeping the leases (after the tables of a previous run were resumed)."""
        ...

    async def stop(self) -> None:
        """Stop, giving up every lease."""
        ...

    def finished(self, table_id: str) -> None:
        """``table_id`` is over: its lease is no longer needed."""
        ...


class LocalOwnership:
    """A server alone on its database owns every table."""

    def owns(self, table_id: str) -> bool:
        """Always: no other instance shares the database."""
        return True

    def created(self, conn: Connection, table_id: str) -> None:
        """Nothing to store."""

    def took(self, table_id: str) -> None:
        """Nothing to remember."""

    async def start(self) -> None:
        """Nothing to keep."""

    async def stop(self) -> None:
        """Nothing to give up."""

    def finished(self, table_id: str) -> None:
        """Nothing to release."""


# --- what the lease loop uses ----------------------------------------------------------------


class PresenceReader(Protocol):
    """Reads the other instances' socket counts of tables (``presence.Presence``)."""

    async def refresh(self, tables: Sequence[LiveTable]) -> None:
        """Read them for ``tables`` (a table left without a player starts its absence)."""
        ...


class LeaseHost(Protocol):
    """The server whose tables the leases are for (``TableManager`` is one)."""

    @property
    def origin(self) -> str:
        """This instance's name in the leases (``INSTANCE/RUN``)."""
        ...

    @property
    def settings(self) -> Settings:
        """Its settings: ``lease_ttl`` and ``lease_renew``."""
        ...

    @property
    def clock(self) -> Clock:
        """The clock of the loop's pauses and of how long renewals have failed."""
        ...

    @property
    def presence(self) -> PresenceReader:
        """Who is at its tables."""
        ...

    def owned_running(self) -> list[LiveTable]:
        """The running tables this instance owns."""
        ...

    def forget_idle(self) -> int:
        """Drop the tables held only to follow them that nobody used for a while."""
        ...

    def lost(self, table_id: str) -> None:
        """Another instance owns ``table_id`` now: stop running it here."""
        ...

    async def taken(self, table_id: str) -> None:
        """This instance has just taken ``table_id``'s lease: load or sync it, resume it."""
        ...


class LeaseStore(Protocol):
    """The leases and socket counts in the database (``cluster_store``), awaited."""

    async def renew(self, owner: str, ttl: float) -> set[str]:
        """Extend every lease of ``owner``; the tables it still holds."""
        ...

    async def orphans(self, limit: int) -> list[str]:
        """Unfinished tables without a live lease, oldest first."""
        ...

    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool:
        """Take ``table_id``'s lease if nobody holds a live one; whether ``owner`` has it."""
        ...

    async def release(self, owner: str, table_ids: Iterable[str] | None = None) -> None:
        """Give up ``owner``'s leases (all, or those of ``table_ids``)."""
        ...

    async def hand_over(self, table_id: str, owner: str, to: str, ttl: float) -> bool:
        """Give ``owner``'s lease of ``table_id`` to ``to``; False if it no longer held it."""
        ...

    async def socket_holders(
        self, table_ids: Sequence[str], other_than: str
    ) -> dict[str, dict[str, int]]:
        """The other instances holding human sockets of ``table_ids``, with their counts."""
        ...


class SqlLeaseStore:
    """:class:`LeaseStore` on PostgreSQL: ``cluster_store`` run in a worker thread, each
    call one transaction on the engine's own connections (a renewal never waits behind
    the writer's queue of actions)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def _run(self, job: Callable[[Connection], T]) -> T:
        def run() -> T:
            with self.engine.begin() as conn:
                return job(conn)

        return await asyncio.to_thread(run)

    async def renew(self, owner: str, ttl: float) -> set[str]:
        """``cluster_store.renew``."""
        return await self._run(partial(cluster_store.renew, owner=owner, ttl=ttl))

    async def orphans(self, limit: int) -> list[str]:
        """``cluster_store.orphans``."""
        return await self._run(partial(cluster_store.orphans, limit=limit))

    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool:
        """``cluster_store.acquire``."""
        return await self._run(
            partial(cluster_store.acquire, table_id=table_id, owner=owner, ttl=ttl)
        )

    async def release(self, owner: str, table_ids: Iterable[str] | None = None) -> None:
        """``cluster_store.release``."""
        ids = list(table_ids) if table_ids is not None else None
        await self._run(partial(cluster_store.release, owner=owner, table_ids=ids))

    async def hand_over(self, table_id: str, owner: str, to: str, ttl: float) -> bool:
        """``cluster_store.hand_over``."""
        return await self._run(
            partial(cluster_store.hand_over, table_id=table_id, owner=owner, to=to, ttl=ttl)
        )

    async def socket_holders(
        self, table_ids: Sequence[str], other_than: str
    ) -> dict[str, dict[str, int]]:
        """``cluster_store.socket_holders``."""
        return await self._run(
            partial(cluster_store.socket_holders, table_ids=table_ids, other_than=other_than)
        )


def first_line(exc: BaseException) -> str:
    """An error in one line (a driver's message may run over several)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class DatabaseOutage:
    """Whether the database answered the lease loop's last round, logged only when that
    changes: one warning when an outage starts, one when it ends (with how long it took)."""

    def __init__(self, clock: Clock, every: float) -> None:
        self.clock = clock
        self.every = every
        self.since: float | None = None
        """When the outage began (the clock's ``monotonic``); None: the database answers."""

    @property
    def is_down(self) -> bool:
        """Whether the last round found the database unreachable."""
        return self.since is not None

    def round_done(self, failure: BaseException | None) -> None:
        """A round ended, failing with the database (``failure``) or not (None)."""
        if failure is not None and self.since is None:
            self.since = self.clock.monotonic()
            log.warning(
                "the database does not answer the lease loop (%s); trying again every %.1f s",
                first_line(failure),
                self.every,
            )
        elif failure is None and self.since is not None:
            down = self.clock.monotonic() - self.since
            self.since = None
            log.warning("the database answers the lease loop again, after %.0f s", down)


class LeaseOwnership:
    """One instance of a cluster: owns the tables whose lease it holds."""

    def __init__(self, host: LeaseHost, leases: Engine | LeaseStore) -> None:
        self.host = host
        self.leases: LeaseStore = SqlLeaseStore(leases) if isinstance(leases, Engine) else leases
        """The leases in the database (an engine: ``cluster_store`` on its connections)."""
        self.clock = host.clock
        self.owner = host.origin
        self.ttl = host.settings.lease_ttl
        self.every = host.settings.lease_renew
        self.held: set[str] = set()
        self._creating: set[str] = set()
        """Tables whose creation is being committed: their lease is ours already."""
        self._renewed = self.clock.monotonic()
        self.outage = DatabaseOutage(self.clock, self.every)
        self._task: asyncio.Task[None] | None = None
        self._releases: set[asyncio.Task[None]] = set()

    def owns(self, table_id: str) -> bool:
        """Whether this instance holds ``table_id``'s lease (as of its last renewal)."""
        return table_id in self.held

    def created(self, conn: Connection, table_id: str) -> None:
        """Take the new table's lease in the transaction that stores it."""
        self._creating.add(table_id)  # (the writer thread: a set's add is atomic)
        cluster_store.acquire(conn, table_id, self.owner, self.ttl)

    def took(self, table_id: str) -> None:
        """The new table's lease is ours."""
        self.held.add(table_id)
        self._creating.discard(table_id)

    async def start(self) -> None:
        """Take the ownerless tables once now, then keep renewing and looking."""
        try:
            await self._look()
        except DATABASE_ERRORS as exc:
            self.outage.round_done(exc)
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop the loop and give every lease up (another instance takes them at once)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._releases:
            await asyncio.gather(*self._releases, return_exceptions=True)
        try:
            await self.leases.release(self.owner)
        except (SQLAlchemyError, OSError) as exc:
            log.warning(
                "cannot give up the leases (they expire in %.0f s): %s", self.ttl, first_line(exc)
            )
        self.held.clear()

    def finished(self, table_id: str) -> None:
        """Give the finished table's lease up."""
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        task = asyncio.ensure_future(self._release(table_id))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, table_id: str) -> None:
        try:
            await self.leases.release(self.owner, [table_id])
        except (SQLAlchemyError, OSError) as exc:
            log.warning("table %s: cannot give up its lease: %s", table_id, first_line(exc))

    async def _loop(self) -> None:
        while True:
            # a little jitter, so that instances started together do not look in step
            await self.clock.sleep(self.every * random.uniform(0.8, 1.0))
            await self.run_round()

    async def run_round(self) -> None:
        """One round of the loop: renew, take the ownerless tables, read the other
        instances' sockets, hand tables over, forget the idle ones. Each step runs whatever
        the others did; a database outage is told once (:attr:`outage`), any other
        failure with its traceback."""
        steps: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("renew the leases", self._renew),
            ("look for ownerless tables", self._look),
            ("read the other instances' sockets", self._refresh_presence),
            ("hand tables over", self.hand_over),
        ]
        failure: BaseException | None = None
        for what, step in steps:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except DATABASE_ERRORS as exc:
                failure = failure or exc
            except Exception:
                log.exception("the lease loop could not %s; trying again", what)
        try:
            self.host.forget_idle()  # in memory: no database needed
        except Exception:
            log.exception("the lease loop could not forget the idle tables; trying again")
        self.outage.round_done(failure)

    async def _renew(self) -> None:
        """Renew every lease; drop the tables lost, or all once renewals failed for a ttl."""
        before = set(self.held)  # tables taken while the renewal runs are not judged by it
        try:
            held = await self.leases.renew(self.owner, self.ttl)
        except Exception as exc:  # an outage or not: past the ttl another may own them
            if self.clock.monotonic() - self._renewed >= self.ttl and self.held:
                log.error(
                    "cannot renew the leases for %.0f s (%s): giving up %d tables",
                    self.ttl,
                    first_line(exc),
                    len(self.held),
                )
                self._lose(set(self.held))
            raise
        self._renewed = self.clock.monotonic()
        lost = (before - held) & self.held
        if lost:
            log.warning("lost the leases of %d tables to other instances", len(lost))
            self._lose(lost)
        for table_id in held - self.held - self._creating:  # handed over to us
            self.held.add(table_id)
            log.info("table %s: handed over to %s", table_id, self.owner)
            await self._resume(table_id)

    def _lose(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            self.held.discard(table_id)
            self.host.lost(table_id)

    async def _look(self) -> None:
        """Take the unfinished tables that no instance holds, and resume them (a table
        whose lease could not be taken is tried again at the next look; the first such
        failure is raised once the others were tried)."""
        ids = await self.leases.orphans(TAKE_AT_ONCE)
        failure: BaseException | None = None
        for table_id in ids:
            try:
                won = await self.leases.acquire(table_id, self.owner, self.ttl)
            except DATABASE_ERRORS as exc:
                failure = failure or exc
                continue
            if not won:
                continue
            self.held.add(table_id)
            log.info("table %s: taken over by %s", table_id, self.owner)
            await self._resume(table_id)
        if failure is not None:
            raise failure

    async def _resume(self, table_id: str) -> None:
        """A table whose lease we just got: load it or bring it up to date, and run it."""
        try:
            await self.host.taken(table_id)
        except Exception:
            log.exception("table %s: cannot resume it here; giving it up", table_id)
            self.finished(table_id)

    async def _refresh_presence(self) -> None:
        """Read the other instances' sockets of the tables this instance runs."""
        await self.host.presence.refresh(self.host.owned_running())

    async def hand_over(self) -> None:
        """Give each table whose players' sockets are all on one other instance to that
        instance: their moves are then applied where they arrive, and the balancer
        (``scripts/cluster.sh``: it sends a table's requests to one instance) keeps them
        there. A table with a player's socket here, or sockets on several instances,
        stays."""
        candidates = [
            t.id
            for t in self.host.owned_running()
            if any(s.is_human for s in t.seats)
            and not any(s.connections for s in t.seats)
            and any(s.remote for s in t.seats)
        ]
        if not candidates:
            return
        holders = await self.leases.socket_holders(candidates, self.owner)
        for table_id in candidates:
            found = holders.get(table_id, {})
            if len(found) != 1 or table_id not in self.held:
                continue
            (to,) = found
            handed = await self.leases.hand_over(table_id, self.owner, to, self.ttl)
            if handed and table_id in self.held:
                log.info("table %s: handed over to %s, which holds its sockets", table_id, to)
                self._lose({table_id})
