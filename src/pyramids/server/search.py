"""The search bots' worker processes, and the order in which tables get them.

A search bot (ISMCTS) holds a CPU for about a second per decision, so it runs in a worker
process (:data:`SEARCH_WORKERS` of them across all tables). :class:`SearchPool` keeps the
waiting searches in its own queues instead of the executor's one first-come queue, and
hands a worker to:

1. a search of a table with a human seat (including stand-in and timeout bots), first
   come first served, whenever a worker is free;
2. else a hint a player asked for (``advice.py``), first come first served;
3. else a search of an all-bot table or the analysis of a finished game (``advice.py``;
   each analysis takes its turn as one more table), round robin over those tables, but
   only while fewer than ``workers - reserved`` of them run (at least one), and never two
   at once for one table.

A table has a person while one of its human seats is really there (``presence.py``: a
socket, or a sign of life within its absence time), not merely bound: ``run`` takes that
as a question (``still_human``) asked again when the search's turn comes, so a search
queued while its table had a person and left waiting after the person went away joins
the all-bot tables' round instead of going first.

So at least ``reserved`` workers are kept for tables with people: a human table's bot
waits for no all-bot search, however many all-bot tables are busy, and the all-bot
tables and analyses together take at most ``workers - reserved`` cores (with two workers
and one reserved, one core), each an equal turn of it. A hint waits only for the people's
bots; an analysis also for the hints, and takes its turns with the all-bot tables.
``submit`` answers a :class:`Ticket` whose ``position`` says how many searches would
start before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.reduction import ForkingPickler
from types import MappingProxyType
from typing import Any, NamedTuple

log = logging.getLogger("pyramids.server")

SEARCH_WORKERS = 2
"""Worker processes for search bots across all tables: a search holds the CPU for a
second, which in the server's process would hold the interpreter lock against every table."""
SEARCH_RESERVED = 1
"""Workers kept for tables with a human seat (all-bot tables never use them)."""
HISTORY = 2048
"""Dispatch events remembered (for tests and debugging)."""


BOT, HINT, ANALYSIS = "bot", "hint", "analysis"
"""What a search is for: a bot's decision, a hint for a player, a finished game's analysis."""
KINDS = (BOT, HINT, ANALYSIS)


class Dispatch(NamedTuple):
    """One event of the pool: a search ``queued``, ``started``, ``demoted`` (its table no
    longer had a person when its turn came) or ``done``."""

    event: str
    job: int
    table_id: str
    human: bool
    at: float
    kind: str = BOT


@dataclass(eq=False)
class _Job:
    number: int
    table_id: str
    human: bool
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    started: bool = False
    still_human: Callable[[], bool] | None = None
    kind: str = BOT

    @property
    def shared(self) -> bool:
        """Whether it runs under the all-bot share (an all-bot table's search, an analysis)."""
        return self.kind == ANALYSIS or (self.kind == BOT and not self.human)


@dataclass
class _Queues:
    human: deque[_Job] = field(default_factory=deque)
    hints: deque[_Job] = field(default_factory=deque)
    bots: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    """Per all-bot table (and per analysis), in round-robin order (the table served last
    goes to the end)."""


class Ticket:
    """A search handed to the pool (``SearchPool.submit``): await ``future``; ``position``
    says where it stands."""

    def __init__(self, pool: SearchPool, job: _Job) -> None:
        self._pool = pool
        self._job = job
        self.future = job.future

    @property
    def started(self) -> bool:
        """Whether a worker is running it (or ran it)."""
        return self._job.started

    def position(self) -> int:
        """How many waiting searches would start before this one (0: it starts next; also
        0 once started)."""
        return 0 if self._job.started else self._pool.ahead_of(self._job)

    def cancel(self) -> None:
        """Drop it if it has not started (a started search runs to its end, unread)."""
        if not self._job.started:
            self._pool.forget(self._job)
            self._job.future.cancel()


class SearchPool:
    """Worker processes for search bots, dispatched with tables with humans first."""

    def __init__(self, workers: int = SEARCH_WORKERS, reserved: int = SEARCH_RESERVED) -> None:
        self.workers = max(1, workers)
        self.bot_share = max(1, self.workers - max(0, reserved))
        """How many all-bot searches may run at once."""
        self._executor: ProcessPoolExecutor | None = None
        self._queues = _Queues()
        self._running = 0
        self._running_bots = 0
        self._busy_tables: set[str] = set()
        self._closed = False
        self._jobs = 0
        self.history: deque[Dispatch] = deque(maxlen=HISTORY)

    @property
    def waiting(self) -> int:
        """Searches queued and not yet started."""
        q = self._queues
        return len(q.human) + len(q.hints) + sum(len(d) for d in q.bots.values())

    def waiting_of(self, kind: str) -> int:
        """Searches of ``kind`` queued and not yet started."""
        q = self._queues
        if kind == HINT:
            return len(q.hints)
        queued = [j for d in q.bots.values() for j in d]
        if kind == ANALYSIS:
            return sum(j.kind == ANALYSIS for j in queued)
        return len(q.human) + sum(j.kind == BOT for j in queued)

    def ahead_of(self, job: _Job) -> int:
        """Waiting searches that go before ``job`` (by the order of the module docstring;
        the all-bot tables' round counted whole ahead of an analysis)."""
        q = self._queues
        if job.kind == HINT:
            return len(q.human) + _index(q.hints, job)
        if job.human:
            return _index(q.human, job)
        ahead = len(q.human) + len(q.hints)
        for key, line in q.bots.items():  # one search per table a round, in round order
            if key == _round_key(job):
                return ahead + _index(line, job) * len(q.bots)
            ahead += 1
        return ahead

    async def run(
        self,
        table_id: str,
        human: bool | Callable[[], bool],
        fn: Callable[..., Any],
        *args: Any,
    ) -> Any:
        """``fn(*args)`` in a worker once it is this search's turn (BrokenProcessPool if the
        worker died: the pool is replaced for the next searches). ``human``: whether the
        table has a person, or a function that says so now (asked again at dispatch)."""
        ticket = self.submit(table_id, human, fn, *args)
        try:
            return await ticket.future
        except asyncio.CancelledError:
            ticket.cancel()
            raise

    def submit(
        self,
        table_id: str,
        human: bool | Callable[[], bool],
        fn: Callable[..., Any],
        *args: Any,
        kind: str = BOT,
    ) -> Ticket:
        """Queue ``fn(*args)`` as a search of ``kind`` (``human`` matters to a bot's only);
        its ``Ticket``'s future gets the result (BrokenProcessPool as for ``run``)."""
        if self._closed:
            raise BrokenProcessPool("the search pool is shut down")
        if kind not in KINDS:
            raise ValueError(f"unknown kind of search {kind!r} (kinds: {', '.join(KINDS)})")
        loop = asyncio.get_running_loop()
        self._jobs += 1
        check = human if callable(human) and kind == BOT else None
        is_human = check() if check is not None else bool(human) and kind == BOT
        job = _Job(
            self._jobs, table_id, is_human, fn, args, loop.create_future(), False, check, kind
        )
        if kind == HINT:
            self._queues.hints.append(job)
        elif is_human:
            self._queues.human.append(job)
        else:
            self._queues.bots.setdefault(_round_key(job), deque()).append(job)
        self._note("queued", job)
        self._dispatch()
        return Ticket(self, job)

    def shutdown(self) -> None:
        """Stop the workers and drop every waiting search."""
        self._closed = True
        q = self._queues
        for job in [*q.human, *q.hints, *(j for d in q.bots.values() for j in d)]:
            if not job.future.done():
                job.future.cancel()
        q.human.clear()
        q.hints.clear()
        q.bots.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            # A running search is not waited for (a shutdown under load must take well
            # under 2 s, and the interpreter's exit would join the executor, which waits
            # for its workers): stop them, with terminate_workers() where Python has it
            # (3.14), else through the executor's table of processes (an internal, read
            # defensively: without it the workers finish their current search and exit).
            terminate = getattr(executor, "terminate_workers", None)
            if callable(terminate):
                with contextlib.suppress(Exception):
                    terminate()
                return
            workers = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                with contextlib.suppress(Exception):
                    process.terminate()

    # --- dispatching -----------------------------------------------------------------------

    def _note(self, event: str, job: _Job) -> None:
        self.history.append(
            Dispatch(event, job.number, job.table_id, job.human, time.monotonic(), job.kind)
        )

    def forget(self, job: _Job) -> None:
        """Drop a waiting search from its queue."""
        q = self._queues
        for line in (q.human, q.hints):
            if job in line:
                line.remove(job)
                return
        key = _round_key(job)
        waiting = q.bots.get(key)
        if waiting is not None and job in waiting:
            waiting.remove(job)
            if not waiting:
                del q.bots[key]

    def _next(self) -> _Job | None:
        """The search to start now, by the rules of the module docstring (None: wait)."""
        q = self._queues
        while q.human:
            job = q.human.popleft()
            if job.future.done():
                continue
            if job.still_human is not None and not job.still_human():
                job.human = False  # the person left while it waited: the all-bot round
                q.bots.setdefault(job.table_id, deque()).append(job)
                self._note("demoted", job)
                continue
            return job
        while q.hints:
            job = q.hints.popleft()
            if not job.future.done():
                return job
        if self._running_bots >= self.bot_share:
            return None
        for table_id in list(q.bots):
            if table_id in self._busy_tables:
                continue
            waiting = q.bots.pop(table_id)  # served: to the end of the round
            job = waiting.popleft()
            if waiting:
                q.bots[table_id] = waiting
            if not job.future.done():
                return job
        return None

    def _dispatch(self) -> None:
        while not self._closed and self._running < self.workers:
            job = self._next()
            if job is None:
                return
            self._start(job)

    def _start(self, job: _Job) -> None:
        if self._executor is None:
            self._executor = start_workers(self.workers)
        executor = self._executor
        job.started = True
        self._running += 1
        if job.shared:
            self._running_bots += 1
        if job.shared:
            self._busy_tables.add(_round_key(job))
        self._note("started", job)
        loop = job.future.get_loop()
        try:
            cf = executor.submit(job.fn, *job.args)
        except (BrokenProcessPool, RuntimeError) as exc:
            self._done(job, executor, None, exc)
            return

        def finished(f: Future[Any]) -> None:
            exc = f.exception() if not f.cancelled() else BrokenProcessPool("cancelled")
            result = None if exc is not None else f.result()
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._done, job, executor, result, exc)

        cf.add_done_callback(finished)

    def _done(
        self,
        job: _Job,
        executor: ProcessPoolExecutor,
        result: Any,
        exc: BaseException | None,
    ) -> None:
        self._running -= 1
        if job.shared:
            self._running_bots -= 1
        if job.shared:
            self._busy_tables.discard(_round_key(job))
        self._note("done", job)
        if isinstance(exc, BrokenProcessPool) and executor is self._executor:
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None  # the next search starts new workers
        if not job.future.done():
            if exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(result)
        self._dispatch()


def start_workers(workers: int) -> ProcessPoolExecutor:
    """``workers`` new worker processes (spawned, so nothing of the server is shared). The
    views sent to them carry their rules options as read-only mappings
    (``MappingProxyType``), and so do the memories and views sent back: the pickler of the
    pool's queues is taught to send those, here and in each worker (``teach_pickler``)."""
    teach_pickler()
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=teach_pickler
    )


def teach_pickler() -> None:
    """Let multiprocessing's pickler (not the process-wide ``copyreg``) send read-only
    mappings."""
    ForkingPickler.register(MappingProxyType, _reduce_mapping_proxy)


def _reduce_mapping_proxy(
    mapping: MappingProxyType[str, Any],
) -> tuple[Callable[[dict[str, Any]], MappingProxyType[str, Any]], tuple[dict[str, Any]]]:
    return _mapping_proxy, (dict(mapping),)


def _mapping_proxy(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    """A read-only mapping again, in the worker (``MappingProxyType`` has no name to
    unpickle by)."""
    return MappingProxyType(data)


def _round_key(job: _Job) -> str:
    """The key of ``job``'s place in the all-bot round: its table's id, or for an analysis
    ``analysis/<table id>`` (an analysis takes its turns apart from its table)."""
    return f"analysis/{job.table_id}" if job.kind == ANALYSIS else job.table_id


def _index(line: deque[_Job], job: _Job) -> int:
    """``job``'s place in ``line`` (its length when not there)."""
    for i, other in enumerate(line):
        if other is job:
            return i
    return len(line)
