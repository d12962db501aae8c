"""The database gateway: the engines, the writer thread, and the one way into them.

:class:`Database` is made from the :class:`~pyramids.server.config.Settings` and started and
stopped by the app's lifespan (``create_app``), around the table manager that receives it;
starting it migrates the schema to the newest revision. Every feature (tables, accounts,
sessions, chat, players, rematches, ratings, analyses) reaches the database through it: a
route asks for it as a FastAPI dependency (a parameter annotated :data:`Db`, or
:func:`database_of`), a feature's hooks are given it when they are installed.

``read`` runs a job on a reading connection in a worker thread; ``write`` commits a job
through :class:`Writer`: one thread that takes every pending write, runs them in one
transaction and commits once (group commit), then answers each caller. If the group fails
(another process stored an action with the same (table, seq) first, say), each write is
retried alone in its own transaction so only the culprit gets the error.
:class:`SqlActionStore` is the authority's store (``authority.ActionStore``) on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, TypeVar

from fastapi import Depends
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.requests import HTTPConnection

from pyramids.server import store
from pyramids.server.authority import SeqTakenError, StoreUnavailableError
from pyramids.server.config import Settings
from pyramids.server.db import make_engine, migrate
from pyramids.server.protocol import ProtocolError
from pyramids.server.store import ActionRecord, ActionWrite, write_actions

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

MAX_GROUP = 256
"""Most writes committed in one transaction."""


def not_running() -> ProtocolError:
    """The refusal of a database job while the gateway is not started (or stopped)."""
    return ProtocolError("unavailable", "the server is not running", 503)


class Database:
    """The server's database: a reading engine, a writing engine and its writer thread."""

    def __init__(self, settings: Settings) -> None:
        self.url = settings.db_url
        self._engine: Engine | None = None
        self._reader: Engine | None = None
        self._writer: Writer | None = None

    @property
    def is_running(self) -> bool:
        """Whether it is started (and not stopped since)."""
        return self._writer is not None

    async def start(self) -> None:
        """Open the engines, migrate the schema to the newest revision and start the writer
        thread (once: a running database stays as it is)."""
        if self._writer is not None:
            return
        self._engine = make_engine(self.url, writer=True)
        self._reader = make_engine(self.url, writer=False)
        await asyncio.to_thread(migrate, self._engine)
        self._writer = Writer(self._engine)
        self._writer.start()

    async def stop(self) -> None:
        """Finish the writes in flight, stop the writer thread and close the engines."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.to_thread(writer.stop)
        for engine in (self._engine, self._reader):
            if engine is not None:
                engine.dispose()
        self._engine = self._reader = None

    async def read(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` on a reading connection of its own in a worker thread."""
        reader = self._reader
        if reader is None:
            raise not_running()

        def run() -> T:
            with reader.connect() as conn:
                return job(conn)

        return await asyncio.to_thread(run)

    async def write(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` in one committed write transaction (the writer thread)."""
        if self._writer is None:
            raise not_running()
        return await self._writer.run(job)

    async def store_action(self, write: ActionWrite) -> None:
        """Commit one action row (grouped with others by the writer thread)."""
        if self._writer is None:
            raise not_running()
        await self._writer.store_action(write)

    async def write_quietly(self, job: Callable[[Connection], Any], what: str) -> None:
        """Commit ``job`` and log (not raise) a failure: writes nobody waits for."""
        try:
            await self.write(job)
        except (SQLAlchemyError, ProtocolError) as exc:
            log.warning("%s was not stored: %s", what, exc)

    async def healthy(self) -> bool:
        """Whether it is running and the database answers."""
        if self._reader is None:
            return False
        try:
            await self.read(store.ping)
        except (SQLAlchemyError, ProtocolError):
            return False
        return True


def database_of(connection: HTTPConnection) -> Database:
    """The app's database gateway (a FastAPI dependency of routes and sockets)."""
    database: Database = connection.app.state.database
    return database


Db = Annotated[Database, Depends(database_of)]
"""A route parameter that receives the database gateway (``create_app`` keeps it on
``app.state.database``)."""


class SqlActionStore:
    """The authority's store: the writer thread commits, a reading connection reads."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def store_action(self, write: ActionWrite) -> None:
        """Commit one action row, grouped with others by the writer thread."""
        try:
            await self.database.store_action(write)
        except IntegrityError:
            raise SeqTakenError(f"{write.table_id} seq {write.seq}") from None
        except SQLAlchemyError as exc:
            raise StoreUnavailableError(str(exc)) from None

    async def actions_after(self, table_id: str, seq: int) -> list[ActionRecord]:
        """The stored actions of ``table_id`` after ``seq``."""
        try:
            return await self.database.read(
                partial(store.action_rows_after, table_id=table_id, seq=seq)
            )
        except SQLAlchemyError as exc:
            raise StoreUnavailableError(str(exc)) from None


# --- the writer thread -----------------------------------------------------------------------

Job = Callable[[Connection], Any]


@dataclass
class _Pending:
    job: Job | ActionWrite
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop

    def run(self, conn: Connection) -> Any:
        """Run this write alone."""
        if isinstance(self.job, ActionWrite):
            write_actions(conn, [self.job])
            return None
        return self.job(conn)


def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Writer:
    """One thread that commits every write, grouping those that arrive together."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="pyramids-db-writer", daemon=True)
        self._started = False
        self._conn: Connection | None = None
        """The writer thread's own connection, kept between commits (opened again after a
        failed one)."""

    def start(self) -> None:
        """Start the thread."""
        if not self._started:
            self._started = True
            self._thread.start()

    def stop(self) -> None:
        """Finish the queued writes and stop the thread."""
        if self._started:
            self._queue.put(None)
            self._thread.join()
            self._started = False

    async def run(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in a transaction of the writer thread; its result once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Pending(job, future, loop))
        return await future

    async def store_action(self, write: ActionWrite) -> None:
        """Store one action with the others of its group; returns once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Pending(write, future, loop))
        await future

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                break
            group = [first]
            while len(group) < MAX_GROUP:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                group.append(item)
            self._commit(group)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on the thread's connection, committed at the end; after an error
        the connection is closed, and the next write opens a new one."""
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self._engine.connect()
        try:
            with conn.begin():
                yield conn
        except BaseException:
            self._conn = None
            with contextlib.suppress(Exception):
                conn.close()
            raise

    def _commit(self, group: list[_Pending]) -> None:
        try:
            with self._transaction() as conn:
                results = [None if isinstance(p.job, ActionWrite) else p.job(conn) for p in group]
                write_actions(conn, [p.job for p in group if isinstance(p.job, ActionWrite)])
        except Exception as exc:
            if len(group) == 1:
                _answer(group[0], None, exc)
                return
            for p in group:
                self._commit_alone(p)
            return
        for p, r in zip(group, results, strict=True):
            _answer(p, r, None)

    def _commit_alone(self, p: _Pending) -> None:
        try:
            with self._transaction() as conn:
                result = p.run(conn)
        except Exception as exc:
            _answer(p, None, exc)
            return
        _answer(p, result, None)


def _answer(p: _Pending, result: Any, error: BaseException | None) -> None:
    try:
        p.loop.call_soon_threadsafe(_resolve, p.future, result, error)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        log.debug("a write finished after its event loop closed")
