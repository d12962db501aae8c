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
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from pyramids.server import cluster_store

if TYPE_CHECKING:
    from pyramids.server.tables import TableManager

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

TAKE_AT_ONCE = 64
"""The most ownerless tables one instance takes in one look (the rest at the next)."""


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


class LeaseOwnership:
    """One instance of a cluster: owns the tables whose lease it holds."""

    def __init__(self, manager: TableManager, engine: Engine) -> None:
        self.m = manager
        self.engine = engine
        """Its own connections: a renewal never waits behind the writer's queue of actions."""
        self.owner = manager.origin
        self.ttl = manager.settings.lease_ttl
        self.every = manager.settings.lease_renew
        self.held: set[str] = set()
        self._creating: set[str] = set()
        """Tables whose creation is being committed: their lease is ours already."""
        self._renewed = time.monotonic()
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

    async def _run(self, job: Callable[[Connection], T]) -> T:
        def run() -> T:
            with self.engine.begin() as conn:
                return job(conn)

        return await asyncio.to_thread(run)

    async def start(self) -> None:
        """Take the ownerless tables once now, then keep renewing and looking."""
        await self._look()
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
            await self._run(partial(cluster_store.release, owner=self.owner))
        except SQLAlchemyError as exc:
            log.warning("cannot give up the leases (they expire in %.0f s): %s", self.ttl, exc)
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
            await self._run(partial(cluster_store.release, owner=self.owner, table_ids=[table_id]))
        except SQLAlchemyError as exc:
            log.warning("table %s: cannot give up its lease: %s", table_id, exc)

    async def _loop(self) -> None:
        while True:
            # a little jitter, so that instances started together do not look in step
            await asyncio.sleep(self.every * random.uniform(0.8, 1.0))
            try:
                await self._renew()
                await self._look()
                await self.m.presence.refresh(self.m.owned_running())
                await self.hand_over()
                self.m.forget_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the lease loop failed; trying again")

    async def _renew(self) -> None:
        """Renew every lease; drop the tables lost, or all once renewals failed for a ttl."""
        before = set(self.held)  # tables taken while the renewal runs are not judged by it
        try:
            held = await self._run(partial(cluster_store.renew, owner=self.owner, ttl=self.ttl))
        except SQLAlchemyError as exc:
            if time.monotonic() - self._renewed >= self.ttl and self.held:
                log.error("cannot renew the leases for %.0f s (%s): giving up", self.ttl, exc)
                self._lose(set(self.held))
            else:
                log.warning("cannot renew the leases: %s", exc)
            return
        self._renewed = time.monotonic()
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
            self.m.lost(table_id)

    async def _look(self) -> None:
        """Take the unfinished tables that no instance holds, and resume them."""
        try:
            ids = await self._run(partial(cluster_store.orphans, limit=TAKE_AT_ONCE))
        except SQLAlchemyError as exc:
            log.warning("cannot look for ownerless tables: %s", exc)
            return
        for table_id in ids:
            try:
                won = await self._run(
                    partial(
                        cluster_store.acquire, table_id=table_id, owner=self.owner, ttl=self.ttl
                    )
                )
            except SQLAlchemyError as exc:
                log.warning("table %s: cannot take its lease: %s", table_id, exc)
                continue
            if not won:
                continue
            self.held.add(table_id)
            log.info("table %s: taken over by %s", table_id, self.owner)
            await self._resume(table_id)

    async def _resume(self, table_id: str) -> None:
        """A table whose lease we just got: load it or bring it up to date, and run it."""
        try:
            await self.m.taken(table_id)
        except Exception:
            log.exception("table %s: cannot resume it here; giving it up", table_id)
            self.finished(table_id)

    async def hand_over(self) -> None:
        """Give each table whose players' sockets are all on one other instance to that
        instance: their moves are then applied where they arrive, and the balancer
        (``scripts/cluster.sh``: it sends a table's requests to one instance) keeps them
        there. A table with a player's socket here, or sockets on several instances,
        stays."""
        candidates = [
            t.id
            for t in self.m.owned_running()
            if any(s.is_human for s in t.seats)
            and not any(s.connections for s in t.seats)
            and any(s.remote for s in t.seats)
        ]
        if not candidates:
            return
        holders = await self._run(
            partial(cluster_store.socket_holders, table_ids=candidates, other_than=self.owner)
        )
        for table_id in candidates:
            found = holders.get(table_id, {})
            if len(found) != 1 or table_id not in self.held:
                continue
            (to,) = found
            handed = await self._run(
                partial(
                    cluster_store.hand_over,
                    table_id=table_id,
                    owner=self.owner,
                    to=to,
                    ttl=self.ttl,
                )
            )
            if handed and table_id in self.held:
                log.info("table %s: handed over to %s, which holds its sockets", table_id, to)
                self._lose({table_id})
