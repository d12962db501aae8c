"""In-memory fakes of the table authority's parts, and tables built without a database.

:class:`MemoryActionStore` stands for the ``actions`` table of a cluster's shared
database: one row per (table, seq), a second write for a taken seq refused with
``SeqTakenError``, failures on demand (``StoreUnavailableError``) and rows written "by
another instance" straight into it. :class:`RecordingPublisher` and
:class:`RecordingScheduler` write down what the authority asked of them, and a shared
:class:`Journal` keeps the order of store, publish and schedule across the three.
:func:`live_table` builds a :class:`~pyramids.server.live.LiveTable` from a
``TableRecord`` through ``rebuild.rebuild``, as a restart would, with the real rules engines.

:class:`MemoryRuntime` is the table runtime as presence, the decision timers and the move
scheduler see it (``server/ports.py``), on these fakes and a ``ManualClock``: the real
parts, no database, no sockets, no real time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from pyramids.core import CHANCE
from pyramids.core.fairness import chance_rng
from pyramids.games import make_game
from pyramids.server.authority import (
    Authority,
    Committed,
    SeqTakenError,
    StoreUnavailableError,
)
from pyramids.server.bots import ServerMoveScheduler
from pyramids.server.clocks import ManualClock
from pyramids.server.config import Settings
from pyramids.server.live import RUNNING, LiveTable
from pyramids.server.presence import Presence
from pyramids.server.rebuild import rebuild
from pyramids.server.store import ActionRecord, ActionWrite, SeatRecord, TableRecord
from pyramids.server.table_log import viewers
from pyramids.server.table_settings import TableSettings
from pyramids.server.timers import Timers, forfeit_end
from pyramids.server.wire import encode

TABLE_ID = "t1"
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")
"""The names of the human seats, seat 0 first."""

Journal = list[tuple[str, int]]
"""What the fakes did, in order: ("store", seq) once a write was accepted, ("publish",
seq), ("schedule", seq)."""


class MemoryActionStore:
    """The actions of every table, keyed by (table id, seq), as a shared database keeps them."""

    def __init__(self, journal: Journal | None = None) -> None:
        self.rows: dict[tuple[str, int], ActionWrite] = {}
        """Every stored action (written by an authority or by :meth:`insert_other`)."""
        self.attempts: list[ActionWrite] = []
        """Every write an authority asked for, accepted or not, in order."""
        self.journal = journal
        self.before_accept: Callable[[ActionWrite], None] | None = None
        """Called with a write just before it is stored (to look at the table then)."""
        self._fail_writes = 0
        self._commit_anyway = False
        self._fail_reads = 0

    def fail_next(self, n: int = 1, *, commit_anyway: bool = False) -> None:
        """The next ``n`` writes raise StoreUnavailableError; ``commit_anyway``: after the
        row was stored (a commit whose answer was lost)."""
        self._fail_writes = n
        self._commit_anyway = commit_anyway

    def fail_reads(self, n: int = 1) -> None:
        """The next ``n`` reads (``actions_after``) raise StoreUnavailableError."""
        self._fail_reads = n

    async def store_action(self, write: ActionWrite) -> None:
        """Store ``write`` unless its (table, seq) is taken (SeqTakenError)."""
        self.attempts.append(write)
        # a database answers later: let other tasks run first, as they would meanwhile
        await asyncio.sleep(0)  # one turn of the loop, no time
        if self._fail_writes > 0:
            self._fail_writes -= 1
            if self._commit_anyway:
                self._put(write)
            raise StoreUnavailableError("the database is unreachable")
        if self.before_accept is not None:
            self.before_accept(write)
        self._put(write)
        if self.journal is not None:
            self.journal.append(("store", write.seq))

    def _put(self, write: ActionWrite) -> None:
        key = (write.table_id, write.seq)
        if key in self.rows:
            raise SeqTakenError(f"{write.table_id} seq {write.seq}")
        self.rows[key] = write

    async def actions_after(self, table_id: str, seq: int) -> list[ActionRecord]:
        """The stored actions of ``table_id`` after ``seq``, in seq order."""
        await asyncio.sleep(0)  # one turn of the loop (a database answers later), no time
        if self._fail_reads > 0:
            self._fail_reads -= 1
            raise StoreUnavailableError("the database is unreachable")
        return [
            ActionRecord(w.seq, w.seat, w.action, w.created, w.played_by)
            for (tid, s), w in sorted(self.rows.items())
            if tid == table_id and s > seq
        ]

    def insert_other(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        created: dt.datetime = ManualClock.EPOCH,
        *,
        played_by: str | None = None,
        status: str = RUNNING,
    ) -> ActionWrite:
        """Store an action as another instance did: straight into the rows."""
        write = ActionWrite(
            table_id=table_id,
            seq=seq,
            seat=seat,
            action=action,
            created=created,
            status=status,
            ranking=None,
            finished=None,
            snapshot=None,
            played_by=played_by,
            notice=f"a {table_id} other/0 {seq}",
        )
        self._put(write)
        return write

    def stored(self, table_id: str = TABLE_ID) -> list[ActionWrite]:
        """The stored actions of ``table_id``, in seq order."""
        return [w for (tid, _), w in sorted(self.rows.items()) if tid == table_id]


@dataclass(frozen=True)
class Published:
    """One publish call: the table, the committed action, and what each viewer would get."""

    table_id: str
    committed: Committed
    table_seq: int
    """The table's seq when it was published."""
    messages: list[dict[str, Any]]
    """Each viewer's ``state`` message as JSON (the seats in order, then the spectator)."""


class RecordingPublisher:
    """Records every publish, with the state message each viewer would be sent."""

    def __init__(self, journal: Journal | None = None) -> None:
        self.published: list[Published] = []
        self.journal = journal

    def publish(self, table: LiveTable, committed: Committed) -> None:
        """Record what every viewer of ``table`` would get now."""
        messages = [orjson.loads(encode(table.state_message(v))) for v in viewers(table.players)]
        self.published.append(Published(table.id, committed, table.seq, messages))
        if self.journal is not None:
            self.journal.append(("publish", committed.seq))

    def seqs(self) -> list[tuple[int, bool]]:
        """(seq, here) of every publish, in order."""
        return [(p.committed.seq, p.committed.here) for p in self.published]


@dataclass(frozen=True)
class Scheduled:
    """One ``committed`` call of the scheduler."""

    table_id: str
    committed: Committed
    table_seq: int
    published: int
    """How many publishes the publisher had recorded by then (-1: no publisher given)."""


class RecordingScheduler:
    """Records every ``committed`` call (and starts nothing)."""

    def __init__(
        self, journal: Journal | None = None, publisher: RecordingPublisher | None = None
    ) -> None:
        self.calls: list[Scheduled] = []
        self.journal = journal
        self.publisher = publisher

    def committed(self, table: LiveTable, committed: Committed) -> None:
        """Record the call."""
        published = -1 if self.publisher is None else len(self.publisher.published)
        self.calls.append(Scheduled(table.id, committed, table.seq, published))
        if self.journal is not None:
            self.journal.append(("schedule", committed.seq))

    def seqs(self) -> list[int]:
        """The seq of every call, in order."""
        return [c.committed.seq for c in self.calls]


@dataclass
class Parts:
    """An authority on in-memory fakes, and the fakes to look at."""

    authority: Authority
    store: MemoryActionStore
    clock: ManualClock
    publisher: RecordingPublisher
    scheduler: RecordingScheduler
    journal: Journal


def memory_authority(
    store: MemoryActionStore | None = None,
    clock: ManualClock | None = None,
    *,
    origin: str | None = "test/1",
    snapshot_every: int = 0,
) -> Parts:
    """An authority whose store, publisher and scheduler are the fakes (one journal); pass
    ``store`` (and ``clock``) to make a second instance of the same cluster."""
    journal: Journal = []
    store = store if store is not None else MemoryActionStore(journal)
    clock = clock if clock is not None else ManualClock()
    publisher = RecordingPublisher(journal)
    scheduler = RecordingScheduler(journal, publisher)
    authority = Authority(
        store, clock, publisher, scheduler, origin=origin, snapshot_every=snapshot_every
    )
    return Parts(authority, store, clock, publisher, scheduler, journal)


def playout(
    game: str, players: int, seed: int, n: int | None = None, options: dict[str, Any] | None = None
) -> list[str]:
    """The first ``n`` actions (None: all) of a seeded game where every seat plays its first
    legal action and chance draws as the server does (``fairness.chance_rng(seed, seq)``)."""
    state = make_game(game, players, options or {}).new_initial_state(seed)
    texts: list[str] = []
    while not state.is_terminal() and (n is None or len(texts) < n):
        if state.current_player() == CHANCE:
            action = state.sample_chance(chance_rng(seed, len(texts)))
        else:
            action = state.legal_actions()[0]
        texts.append(state.action_to_string(action))
        state.apply(action)
    if n is not None and len(texts) < n:
        raise ValueError(f"the {game} game of seed {seed} ends after {len(texts)} actions")
    return texts


def live_table(
    game: str = "flaming",
    seats: Sequence[str] = ("human", "human"),
    seed: int = 7,
    *,
    options: dict[str, Any] | None = None,
    actions: Sequence[str] = (),
    status: str = RUNNING,
    clock: dict[str, Any] | None = None,
    created: dt.datetime = ManualClock.EPOCH,
    times: Sequence[dt.datetime] | None = None,
    stand_ins: dict[int, str] | None = None,
    forfeits: Sequence[int] = (),
    table_id: str = TABLE_ID,
) -> LiveTable:
    """A table in memory as a restart finds it (``TableRecord`` through ``rebuild``), no
    database: ``seats`` are ``human`` or a bot's spec, ``actions`` the texts already
    played (each by the seat to move; stored at ``times``, else at ``created``),
    ``stand_ins`` the seqs a bot chose for a human seat and why, ``clock`` its clock."""
    made = make_game(game, len(seats), options or {})
    state = made.new_initial_state(seed)
    stored: list[tuple[int, int, str]] = []
    for seq, text in enumerate(actions, start=1):
        stored.append((seq, state.current_player(), text))
        state.apply(state.parse_action(text))
    seat_records = [
        SeatRecord(i, "human", None, NAMES[i], None, True)
        if kind == "human"
        else SeatRecord(i, "bot", kind, kind, None, True)
        for i, kind in enumerate(seats)
    ]
    settings = TableSettings(
        bot_delay=0.0, absent_after=0.0, turn_time=0.0, takeover_bot="greedy", clock=clock
    )
    record = TableRecord(
        id=table_id,
        game=game,
        players=len(seats),
        options=dict(made.options),
        seed=seed,
        rules_version=made.info.rules_version,
        status=status,
        settings=settings.to_json(),
        created=created,
        updated=created,
        finished=None,
        seq=len(stored),
        ranking=None,
        started=created if status == RUNNING else None,
        forfeits=list(forfeits),
        seats=seat_records,
        actions=stored,
        stand_ins=dict(stand_ins or {}),
        action_times={seq: created if times is None else times[seq - 1] for seq, _, _ in stored},
    )
    return LiveTable(record, rebuild(record), settings)


def facts(table: LiveTable) -> dict[str, Any]:
    """Everything the authority may change in a table, as plain data to compare."""
    return {
        "seq": table.seq,
        "state": table.state.to_json(),
        "actions": list(table.actions),
        "action_times": list(table.action_times),
        "logs": [list(log) for log in table.logs],
        "stand_ins": dict(table.stand_ins),
        "status": table.status,
        "ranking": table.ranking,
        "finished": table.finished,
    }


class InlineSearches:
    """Runs a search bot's decision at once, in this process (no worker pool)."""

    async def run(
        self, table_id: str, human: bool | Callable[[], bool], fn: Callable[..., Any], *args: Any
    ) -> Any:
        """``fn(*args)`` here and now."""
        return fn(*args)


class MemoryRuntime:
    """The table runtime of one instance that owns every table, as its parts see it
    (``ports.PresenceRuntime``, ``TimersRuntime``, ``SchedulerRuntime``): the real
    :class:`Presence`, :class:`Timers` and :class:`ServerMoveScheduler`, an authority on a
    :class:`MemoryActionStore`, a ``ManualClock``; no cluster, no database (a part that
    writes fails loudly), no sockets."""

    def __init__(self, settings: Settings, clock: ManualClock | None = None) -> None:
        self.settings = settings
        self.clock = clock if clock is not None else ManualClock()
        self.stopping = False
        self.cluster = False
        self.origin = "test/1"
        self.store = MemoryActionStore()
        self.publisher = RecordingPublisher()
        self.searches = InlineSearches()
        self.presence = Presence(self)
        self.timers = Timers(self)
        self.moves = ServerMoveScheduler(self)
        self.authority = Authority(self.store, self.clock, self.publisher, self.moves)
        self.finished: list[str] = []
        """The ids of the tables whose game ended, in order."""

    def spawn(self, table: LiveTable, coro: Any) -> None:
        """Run ``coro`` as a task of ``table``."""
        task = asyncio.ensure_future(coro)
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)

    async def critical(self, coro: Any) -> Any:
        """Run ``coro`` (nothing cancels it here)."""
        return await coro

    def owns(self, table: LiveTable) -> bool:
        """Every table is this instance's."""
        return True

    def game_over(self, table: LiveTable, *, run_hooks: bool) -> None:
        """Stop the table's timers and note that its game ended."""
        self.presence.cancel(table)
        self.timers.cancel(table)
        self.finished.append(table.id)

    def end_by_forfeit(
        self, table: LiveTable, seat: int, ranking: list[int], now: dt.datetime
    ) -> None:
        """The forfeit left one seat standing: the game is over."""
        forfeit_end(table, seat, ranking, now)
        self.game_over(table, run_hooks=True)

    def notice(self, kind: str, table_id: str, data: str = "") -> str:
        """A notification's text (never sent: there is no cluster)."""
        return f"{kind} {table_id} {self.origin} {data}".rstrip()

    def notify_changed(self, conn: Any, table: LiveTable) -> None:
        """Nobody to tell."""

    async def read(self, job: Callable[[Any], Any]) -> Any:
        """No database here."""
        raise NotImplementedError("the memory runtime has no database")

    async def write(self, job: Callable[[Any], Any]) -> Any:
        """No database here."""
        raise NotImplementedError("the memory runtime has no database")

    async def write_quietly(self, job: Callable[[Any], Any], what: str) -> None:
        """No database here."""
        raise NotImplementedError("the memory runtime has no database")

    async def stop(self, *tables: LiveTable) -> None:
        """Cancel the tasks of ``tables`` and wait for them to end."""
        self.stopping = True
        tasks = [task for table in tables for task in table.tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
