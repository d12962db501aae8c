"""The runtime: every table this instance holds, its lifecycle, and the parts that play it.

:class:`TableManager` holds the tables in memory (a cache of the database: running ones,
and the finished ones recently asked for), creates them, binds their seats and attaches
the sockets. It gives the game's work to its parts:

- ``authority.Authority``: the one path by which any action is validated, applied,
  committed (``SqlActionStore``: the writer thread) and published (``SocketPublisher``);
- ``bots.ServerMoves``: its scheduler, which starts the bots, chance draws and stand-ins;
- ``timers.Timers``: the end of a human's decision (``turn_time``, the players' clocks);
- ``presence.Presence``: the seats' sockets, absence clocks and takeovers;
- ``ownership``: which tables this instance runs (all of them alone on SQLite; in a
  cluster those whose lease it holds, ``LeaseOwnership``);
- ``pubsub.Listener``: in a cluster, what the other instances committed
  (``docs/CLUSTER.md``);
- ``replay``: the replay of a finished game.

Time comes from an injected :class:`~pyramids.server.clocks.Clock` (real time unless a
test passes a ``ManualClock``).
"""

from __future__ import annotations

import asyncio
import copyreg
import datetime as dt
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pyramids import texts
from pyramids.core.errors import PyramidsError
from pyramids.core.fairness import commitment
from pyramids.games import descriptor, make_game
from pyramids.server import cluster_store, store
from pyramids.server.auth import Account
from pyramids.server.authority import (
    ACTION_NOTICE,
    Authority,
    SeqTakenError,
    SocketPublisher,
    StoreUnavailableError,
    notice,
)
from pyramids.server.bots import ServerMoves
from pyramids.server.clocks import FORFEITED, Clock, SystemClock
from pyramids.server.config import Settings
from pyramids.server.db import make_engine, migrate
from pyramids.server.finished import FinishedCache
from pyramids.server.limits import ClientLimits
from pyramids.server.live import (
    EXPIRED,
    FINISHED,
    OPEN,
    RUNNING,
    Client,
    Invite,
    LiveTable,
    ProtocolError,
    Rebuilt,
    SeatSpec,
    StartupError,
    TableSettings,
    default_bot_hints,
    default_hints,
    dumps,
    hash_token,
    invite_used,
    is_older_rules,
    is_table_id,
    new_table_id,
    new_token,
    rebuild,
    stored_summary,
    viewers,
)
from pyramids.server.ownership import LeaseOwnership, LocalOwnership, Ownership
from pyramids.server.presence import PRESENCE_NOTICE, Presence
from pyramids.server.pubsub import Listener, Notice
from pyramids.server.replay import replay
from pyramids.server.search import SearchPool
from pyramids.server.store import ActionRecord, ActionWrite, SeatRecord, TableRecord, Writer
from pyramids.server.timers import Timers, forfeit_end, resumed_turn_time, turn_time_of

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

SALT_BYTES = 16
"""Random bytes of a table's salt (32 hex digits), hashed with the seed into its commitment."""
IDLE_AFTER = 15.0
"""Seconds a table another instance owns stays in memory here without a socket or request."""
CHANGED_NOTICE = "m"
"""Notification kind: a table's row or seats changed (a binding, its status, a forfeit, a
takeover): the other instances read them again."""


def _mapping_proxy(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


# Views carry their rules options as read-only mappings; let them cross to the workers.
copyreg.pickle(MappingProxyType, lambda m: (_mapping_proxy, (dict(m),)))


def _log_failure(task: asyncio.Task[Any]) -> None:
    """Log the exception a table's task ended with (nobody awaits those tasks)."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.error("a task of a table failed: %r", exc, exc_info=exc)


@dataclass(frozen=True)
class SeatUse:
    """The seat a token holds, and the seat's fresh credential when this use of its invite
    bound it (handed out once, to this user only: the invite is dead from then on)."""

    seat: int
    token: str | None = None


def seat_has_account(seat: int) -> ProtocolError:
    """The refusal of a link to an account for a seat another account holds."""
    return ProtocolError(
        "seat_has_account", texts.message("seats.has_account", "en", seat=seat), 409
    )


class SqlActionStore:
    """The authority's store: the writer thread commits, a reading connection reads."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    async def store_action(self, write: ActionWrite) -> None:
        """Commit one action row, grouped with others by the writer thread."""
        try:
            await self.m.store_action(write)
        except IntegrityError:
            raise SeqTakenError(f"{write.table_id} seq {write.seq}") from None
        except SQLAlchemyError as exc:
            raise StoreUnavailableError(str(exc)) from None

    async def actions_after(self, table_id: str, seq: int) -> list[ActionRecord]:
        """The stored actions of ``table_id`` after ``seq``."""
        try:
            return await self.m.read(partial(store.action_rows_after, table_id=table_id, seq=seq))
        except SQLAlchemyError as exc:
            raise StoreUnavailableError(str(exc)) from None


class TableManager:
    """Every live table, the database behind them, and the tasks that play for absent seats."""

    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        """The time of every action, start and clock timer (may be replaced before
        ``start``: tests pass a ``clocks.ManualClock``)."""
        self.limits = ClientLimits(settings.limits)
        self._creating: Counter[str] = Counter()
        self._started = False
        self.finished_hooks: list[Callable[[LiveTable], Coroutine[Any, Any, None]]] = []
        """Called (as a task of the table) once a table's game is over and committed:
        ``ratings.py`` rates it there. Each must be idempotent: a restart between the last
        action's commit and a hook's work runs the hook again (``start``)."""
        self.started_hooks: list[Callable[[], Coroutine[Any, Any, None]]] = []
        """Called once after ``start`` resumed the tables (catch-up work of the other
        modules, such as rating games that finished while the server was down)."""
        self.remote_handlers: dict[str, Callable[[LiveTable, str], Coroutine[Any, Any, None]]] = {}
        """What another instance's notification of a kind means here (cluster mode): the
        other modules register theirs (``chat.py``: a message was said at that table). Each
        is called, as a task of the table, for tables this instance holds."""
        self.cluster = bool(settings.cluster)
        """One instance of several sharing a PostgreSQL database (``Settings.cluster``)."""
        self.presence = Presence(self)
        self.timers = Timers(self)
        self.moves = ServerMoves(self)
        self._reset()

    def _reset(self) -> None:
        """Forget every table and open nothing (the state before ``start``)."""
        self.tables: dict[str, LiveTable] = {}
        self._finished = FinishedCache(
            self.settings.finished_cache, self.settings.finished_cache_bytes
        )
        self._loading: dict[str, asyncio.Lock] = {}
        self._inflight: set[asyncio.Task[Any]] = set()
        self._engine: Engine | None = None
        self._reader: Engine | None = None
        self._writer: Writer | None = None
        self._lease_engine: Engine | None = None
        self._stopping = False
        self._sweeper: asyncio.Task[None] | None = None
        self.searches = SearchPool(self.settings.search_workers, self.settings.search_reserved)
        self.origin = f"{self.settings.instance}/{secrets.token_hex(4)}"
        """This run of this instance (a new one at every start): the owner of its leases,
        the origin of its notifications."""
        self.authority = Authority(
            SqlActionStore(self),
            self.clock,
            SocketPublisher(),
            self.moves,
            origin=self.origin if self.cluster else None,
            snapshot_every=self.settings.snapshot_every,
        )
        self.ownership: Ownership = LocalOwnership()
        self._listener: Listener | None = None
        self._following: set[str] = set()
        self._follow_again: set[str] = set()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the database, migrate it, and resume every unfinished table (once)."""
        if self._started:
            return
        self._reset()
        self._started = True
        self._engine = make_engine(self.settings.db_url, writer=True)
        self._reader = make_engine(self.settings.db_url, writer=False)
        await asyncio.to_thread(migrate, self._engine)
        self._writer = Writer(self._engine)
        self._writer.start()
        if self.cluster:
            # no expiry of every table here: another instance may hold some; each owner
            # expires its own (``expire_due``), telling the others
            await self._join_cluster()
        else:
            cutoff = self._expiry_cutoff()
            expired = await self._write(partial(store.expire_open_tables, before=cutoff))
            if expired:
                log.info("%d open tables expired (never started)", len(expired))
            loaded = await asyncio.to_thread(self._load_unfinished)
            for record, rebuilt in loaded:
                table = self._make_live(record, rebuilt)
                self.tables[table.id] = table
                if table.status == FINISHED:
                    self.remember_finished(table.id)
            for table in list(self.tables.values()):
                self.moves.resume(table)
            log.info("resumed %d tables", len(loaded))
        if self.settings.limits.open_table_ttl > 0:
            self._sweeper = asyncio.create_task(self._expire_loop())
        for hook in self.started_hooks:
            await hook()

    async def stop(self) -> None:
        """Stop bots and timers, finish the writes in flight, close the database."""
        if not self._started:
            return
        self._started = False
        self._stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
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
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await asyncio.to_thread(listener.stop)
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.to_thread(writer.stop)
        for engine in (self._engine, self._reader, self._lease_engine):
            if engine is not None:
                engine.dispose()

    def _load_unfinished(self) -> list[tuple[TableRecord, Rebuilt]]:
        """Every unfinished table, replayed. A table that does not replay stops the start,
        except one recorded under an older rules version of its game: that one is left in
        the database as it is (nothing is lost), logged, and not resumed; opening it
        answers ``unavailable`` with the reason."""
        assert self._reader is not None
        out: list[tuple[TableRecord, Rebuilt]] = []
        with self._reader.connect() as conn:
            ids = store.unfinished_ids(conn)
            for table_id in ids:
                record = store.load_table(conn, table_id)
                if record is None:
                    continue
                try:
                    out.append((record, rebuild(record)))
                except StartupError as exc:
                    if not is_older_rules(record):
                        raise
                    log.warning("not resumed: %s", exc)
        return out

    def _make_live(
        self, record: TableRecord, rebuilt: Rebuilt, taken_over: set[int] | None = None
    ) -> LiveTable:
        settings = TableSettings.from_json(
            record.settings, self.settings, hints=default_hints(record.options)
        )
        stored_turn_time = settings.turn_time if "turn_time" in record.settings else 0.0
        settings.turn_time = resumed_turn_time(
            stored_turn_time, rated=record.rated, defaults=self.settings
        )
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

    def _expiry_cutoff(self) -> dt.datetime:
        """Open tables created before this are expired (``open_table_ttl``; 0: none)."""
        ttl = self.settings.limits.open_table_ttl
        if ttl <= 0:
            return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
        return self.clock.now() - dt.timedelta(seconds=ttl)

    async def _expire_loop(self) -> None:
        """Expire the open tables that waited too long, every so often, until stopped."""
        every = min(60.0, max(0.05, self.settings.limits.open_table_ttl / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_due()
            except Exception:
                log.exception("cannot expire the open tables that waited too long")

    async def expire_due(self) -> list[str]:
        """Mark ``expired`` every live table still open after ``open_table_ttl``; their ids."""
        cutoff = self._expiry_cutoff()
        due = [
            t
            for t in self.tables.values()
            if t.status == OPEN and t.created < cutoff and self.owns(t)
        ]
        done: list[str] = []
        for table in due:
            async with table.lock:
                if table.status != OPEN:
                    continue
                ids = await self._write(partial(self._expire_job, table, cutoff))
                if not ids:
                    continue  # started elsewhere meanwhile
                table.status = EXPIRED
                self.cancel_timers(table)
                table.changed(state=True)
                table.broadcast_table()
                table.broadcast_state()
                done.append(table.id)
                self.remember_finished(table.id)
        if done:
            log.info("%d open tables expired (never started)", len(done))
        return done

    def _expire_job(self, table: LiveTable, cutoff: dt.datetime, conn: Connection) -> list[str]:
        ids = store.expire_open_tables(conn, before=cutoff, table_id=table.id)
        if ids:
            self.notify_changed(conn, table)
        return ids

    async def read(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` on a reading connection in a worker thread (the other modules'
        way into the database)."""
        return await self._read(job)

    async def write(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` in one committed write transaction (the writer thread)."""
        return await self._write(job)

    async def _read(self, job: Callable[[Connection], T]) -> T:
        """Run a read in a worker thread on its own connection."""
        reader = self._reader
        if reader is None:
            raise ProtocolError("unavailable", "the server is not running", 503)

        def run() -> T:
            with reader.connect() as conn:
                return job(conn)

        return await asyncio.to_thread(run)

    async def _write(self, job: Callable[[Connection], T]) -> T:
        """Commit a write through the writer thread."""
        if self._writer is None:
            raise ProtocolError("unavailable", "the server is not running", 503)
        return await self._writer.run(job)

    async def store_action(self, write: ActionWrite) -> None:
        """Commit one action row (grouped with others by the writer thread)."""
        if self._writer is None:
            raise ProtocolError("unavailable", "the server is not running", 503)
        await self._writer.store_action(write)

    async def write_quietly(self, job: Callable[[Connection], Any], what: str) -> None:
        """Commit ``job`` and log (not raise) a failure: writes nobody waits for."""
        try:
            await self._write(job)
        except (SQLAlchemyError, ProtocolError) as exc:
            log.warning("%s was not stored: %s", what, exc)

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
        if not self._started or self._stopping or self._reader is None:
            return False
        try:
            await self._read(store.ping)
        except SQLAlchemyError:
            return False
        return True

    # --- finding tables --------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        """A table by id, loading a finished one from the database; ProtocolError if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            if table.status == FINISHED:
                self.remember_finished(table_id)
            return table
        if not is_table_id(table_id):
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    table = await self._load(table_id)
        finally:  # an unknown id too: its lock must not stay (one per id asked for)
            if not lock.locked():
                self._loading.pop(table_id, None)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        cluster = self.cluster

        def job(conn: Connection) -> tuple[TableRecord, Rebuilt, set[int]] | None:
            record = store.load_table(conn, table_id)
            if record is None:
                return None
            taken = cluster_store.taken_over(conn, table_id) if cluster else set()
            return record, rebuild(record), taken

        try:
            found = await self._read(job)
        except StartupError as exc:
            raise ProtocolError("unavailable", str(exc), 503) from None
        if found is None:
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        table = self._make_live(*found)
        self.tables[table_id] = table
        if table.status == FINISHED:
            self.remember_finished(table_id)
            return table
        if self.cluster:
            # what other instances committed between the read and now (their notifications
            # came before the table was here to take them)
            await self._sync(table)
            await self.presence.refresh([table])
        self.moves.resume(table)
        return table

    def remember_finished(self, table_id: str) -> None:
        """A finished table was just used: keep it, within the cache's bounds (``finished.py``)."""
        self._finished.remember(table_id, self.tables)

    async def list_tables(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """The lobby's list: public tables' summaries, newest first (live ones as they are
        in memory). A private table is reached only by its id and its invite links."""
        records = await self._read(
            partial(store.list_tables, status=status, limit=limit, public_only=True)
        )
        out: list[dict[str, Any]] = []
        for record in records:
            table = self.tables.get(record.id)
            out.append(table.summary() if table is not None else stored_summary(record))
        return out

    # --- creating and claiming -------------------------------------------------------------

    async def create_table(
        self,
        game_name: str,
        seats: Sequence[SeatSpec],
        options: Mapping[str, Any],
        seed: int | None,
        settings: TableSettings,
        *,
        public: bool = False,
        created_by: str | None = None,
        hints: bool | None = None,
        rated: bool = False,
        match_id: str | None = None,
        bot_hints: bool | None = None,
    ) -> tuple[LiveTable, list[Invite]]:
        """Create and store a table; one invite per human seat. ProtocolError(bad_options) if
        refused. A ``public`` table is listed in the lobby, where anyone may take a free seat.

        The seed is drawn with ``secrets`` and committed to (:mod:`pyramids.core.fairness`);
        a client's ``seed`` makes a "seeded" table, allowed only when every seat but at most
        one is a bot (ProtocolError(seed_not_allowed) otherwise): whoever knows the seed
        knows every hidden thing. ``created_by`` is the creator's client address.
        ``hints``: whether the state messages carry the game's hints (None: on, except at a
        call-out table, ``live.default_hints``); stored in ``settings``, and so is
        ``bot_hints``: whether a seat may ask the search for a hint (None:
        ``live.default_bot_hints``). ``rated``: the game
        counts for ratings (``ratings.py``); ``match_id``: the series of rematches the table
        belongs to (``rematch.py``). ``settings.turn_time`` 0: the server's default for the
        table's kind; ProtocolError(bad_turn_time) outside a rated table's bounds
        (``timers.turn_time_of``)."""
        try:
            game = make_game(game_name, len(seats), options)
        except PyramidsError as exc:
            raise ProtocolError("bad_options", str(exc), 422) from None
        self._check_option_caps(game_name, game.options)
        settings.hints = default_hints(game.options) if hints is None else hints
        settings.bot_hints = (
            default_bot_hints(game.options, rated=rated) if bot_hints is None else bot_hints
        )
        settings.turn_time = turn_time_of(
            settings.turn_time, rated=rated, clocked=bool(settings.clock), defaults=self.settings
        )
        if not any(spec.kind == "human" for spec in seats):
            # all-bot tables would otherwise take the search pool and the loop at full speed
            settings.bot_delay = max(settings.bot_delay, self.settings.limits.min_all_bot_delay)
        if created_by is not None:
            unfinished = sum(
                1
                for t in self.tables.values()
                if t.created_by == created_by and t.status in (OPEN, RUNNING)
            )
            self.limits.check_tables(created_by, unfinished + self._creating[created_by])
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif sum(spec.kind == "human" for spec in seats) > 1:
            raise ProtocolError(
                "seed_not_allowed",
                "a seed may be chosen only for a table where every other seat is a bot: "
                "whoever knows the seed knows every hidden tile and draw",
                422,
            )
        salt = secrets.token_hex(SALT_BYTES)
        seat_records: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(seats):
            if spec.kind == "human":
                token = new_token()
                tokens[i] = token
                name = spec.name or f"Seat {i + 1}"
                seat_records.append(SeatRecord(i, "human", None, name, hash_token(token), False))
            else:
                bot = spec.bot or "greedy"
                seat_records.append(SeatRecord(i, "bot", bot, spec.name or bot, None, True))
        now = self.clock.now()
        record = TableRecord(
            id="",
            game=game_name,
            players=len(seats),
            options=dict(game.options),
            seed=seed,
            rules_version=game.info.rules_version,
            status=RUNNING if not tokens else OPEN,
            settings=settings.to_json(),
            created=now,
            updated=now,
            finished=None,
            seq=0,
            ranking=None,
            salt=salt,
            commitment=commitment(seed, salt),
            seeded=seeded,
            public=public,
            created_by=created_by,
            started=None if tokens else now,
            rated=rated,
            match_id=match_id,
            seats=seat_records,
        )
        if created_by is not None:
            self._creating[created_by] += 1  # counted by check_tables while being stored
        try:
            await self._insert(record)
        finally:
            if created_by is not None:
                self._creating[created_by] -= 1
                if self._creating[created_by] <= 0:
                    del self._creating[created_by]
        state = game.new_initial_state(seed)
        rebuilt = Rebuilt(game, state, [], [[] for _ in viewers(len(seats))])
        table = LiveTable(record, rebuilt, settings)
        self.tables[table.id] = table
        self.ownership.took(table.id)
        invites = [
            Invite(i, table.seats[i].name, token, f"/t/{table.id}?token={token}")
            for i, token in tokens.items()
        ]
        self.moves.resume(table)
        return table, invites

    def _check_option_caps(self, game_name: str, options: Mapping[str, Any]) -> None:
        """Refuse (bad_options) an int option over its descriptor's ``maximum``, or a
        ``max_turns`` over the server's cap (``LimitSettings.max_turns``)."""
        for spec in descriptor(game_name).options:
            value = options.get(spec.name)
            if spec.kind != "int" or not isinstance(value, int):
                continue
            cap = spec.maximum
            if spec.name == "max_turns" and self.settings.limits.max_turns > 0:
                cap = min(cap or self.settings.limits.max_turns, self.settings.limits.max_turns)
            if cap is not None and value > cap:
                raise ProtocolError(
                    "bad_options", f"{spec.name} is at most {cap} on this server, not {value}", 422
                )

    async def _insert(self, record: TableRecord) -> None:
        """Store a new table under a fresh id (set in ``record``)."""
        for _attempt in range(5):
            record.id = new_table_id()
            if record.id in self.tables:
                continue
            try:
                await self._write(partial(self._insert_job, record))
                return
            except IntegrityError:
                continue
            except SQLAlchemyError as exc:
                log.error("cannot store a new table: %s", exc)
                raise ProtocolError(
                    "unavailable", "the table could not be stored; try again", 503
                ) from None
        raise ProtocolError("unavailable", "could not find a free table id; try again", 503)

    def _insert_job(self, record: TableRecord, conn: Connection) -> None:
        store.insert_table(conn, record)
        self.ownership.created(conn, record.id)

    async def claim(
        self, table: LiveTable, seat: int, name: str | None, account: Account | None = None
    ) -> Invite:
        """Take a free human seat of a public table from the lobby: a new token replaces the
        unused invite. ProtocolError(private_table) for an invite-only table; (seat_taken)
        once the seat is bound, by its invite or an earlier claim. A logged-in ``account``
        takes the seat under its own name and the seat is bound to it."""
        if not table.public:
            raise ProtocolError(
                "private_table",
                f"table {table.id} is invite-only: its seats are taken through their invite links",
                403,
            )
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "unknown_seat", f"table {table.id} has seats 0 to {table.players - 1}", 404
            )
        s = table.seats[seat]
        if not s.is_human:
            raise ProtocolError("seat_taken", f"seat {seat} is played by the {s.bot} bot", 409)
        token = new_token()
        ok = await self.critical(
            self._mark_claimed(table, seat, hash_token(token), name, account=account)
        )
        if not ok:
            raise ProtocolError("seat_taken", f"seat {seat}'s invite has already been used", 409)
        return Invite(seat, s.name, token, f"/t/{table.id}?token={token}")

    async def bind_seat(
        self,
        table: LiveTable,
        seat: int,
        token_hash: str,
        name: str | None = None,
        account: Account | None = None,
        *,
        notices: Sequence[str] = (),
    ) -> bool:
        """Bind a free human seat to a new token (its hash), as a lobby claim does but for a
        caller another module has authorised (``rematch.py``): False when the seat was bound
        first. The table starts once every human seat is bound. ``notices``: published to
        the other instances in the binding's transaction, if it binds."""
        return await self.critical(
            self._mark_claimed(table, seat, token_hash, name, account=account, notices=notices)
        )

    async def _mark_claimed(
        self,
        table: LiveTable,
        seat: int,
        token_hash: str | None,
        name: str | None,
        *,
        invite_hash: str | None = None,
        account: Account | None = None,
        notices: Sequence[str] = (),
    ) -> bool:
        """Bind a seat to one token, atomically; start the table once every seat is bound.

        ``token_hash`` (a lobby claim, or the fresh credential of an invite's first use)
        replaces the invite; ``invite_hash`` (an invite's first use) binds only while the
        seat carries that invite, and is kept as the seat's used invite. False when the seat was bound first: here (the table's lock
        orders the two) or by another process (the conditional update in the database),
        whose binding is then read back so that this process refuses the loser too.
        A logged-in ``account`` binds the seat to itself, under its name.
        """
        if account is not None:
            name = account.name
        async with table.lock:
            if table.status == EXPIRED:
                raise ProtocolError(
                    "expired", "this table expired before every seat was taken", 410
                )
            s = table.seats[seat]
            if s.claimed:
                return False
            now = self.clock.now()
            try:
                claim = partial(
                    store.claim_seat,
                    table_id=table.id,
                    seat=seat,
                    token_hash=token_hash,
                    name=name,
                    invite_hash=invite_hash,
                    account_id=account.id if account is not None else None,
                    now=now,
                )

                def job(conn: Connection) -> tuple[bool, bool]:
                    ok, started = claim(conn)
                    if ok:
                        self.notify_changed(conn, table)
                        for text in notices:
                            cluster_store.notify(conn, text)
                    return ok, started

                ok, started = await self._write(job)
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a claim: %s", table.id, exc)
                raise ProtocolError(
                    "unavailable", "the claim could not be stored; try again", 503
                ) from None
            if not ok:
                stored = await self._reload_seat(table, seat)
                self._bound(table, started=stored == RUNNING and table.status == OPEN)
                return False
            if started:
                table.started = now
            s.claimed = True
            if token_hash is not None:
                s.token_hash = token_hash
                if invite_hash is not None:
                    s.invite_hash = invite_hash  # the invite is dead from now on
            if name is not None:
                s.name = name
            if account is not None:
                s.account_id = account.id
            table.changed()
            if started:
                for other in table.seats:
                    if other.is_human and not other.claimed:  # bound by another process
                        await self._reload_seat(table, other.seat)
            self._bound(table, started=started)
            return True

    def _bound(self, table: LiveTable, *, started: bool) -> None:
        """Tell a seat's binding; when it bound the last free seat, the open table runs."""
        if started:
            table.status = RUNNING
            table.started = table.started or self.clock.now()
        table.changed()
        table.broadcast_table()
        if started:
            table.broadcast_state()
            self.moves.resume(table)

    async def _reload_seat(self, table: LiveTable, seat: int) -> str | None:
        """Take a seat's binding (token, name) as another process stored it; the table's
        stored status (None if the seat is unknown)."""
        try:
            found = await self._read(partial(store.load_seat, table_id=table.id, seat=seat))
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read seat %d back: %s", table.id, seat, exc)
            raise ProtocolError(
                "unavailable", "the seat could not be read; try again", 503
            ) from None
        if found is None:
            return None
        stored, status = found
        table.seats[seat].take_binding(stored)
        table.changed()
        return status

    async def seat_of(
        self, table: LiveTable, token: str, account: Account | None = None
    ) -> SeatUse:
        """The seat a token holds. An invite's first use binds the seat to a fresh seat
        credential, returned here once (``SeatUse.token``) for its user alone, and kills
        the invite (issue 29: used once); ``account``, given only by a same-origin write
        with the CSRF token, binds the seat to that account too (a GET never does).

        ProtocolError(bad_token) if the token is no seat's; (invite_used) if it is an
        invite already used, here or by another process first; (seat_taken) if it is an
        invite whose seat was taken from the lobby first: a seat has one token at a time.
        """
        seat = table.seat_for_token(token)
        if table.seats[seat].claimed:
            return SeatUse(seat)
        digest = hash_token(token)
        credential = new_token()
        bound = await self.critical(
            self._mark_claimed(
                table, seat, hash_token(credential), None, invite_hash=digest, account=account
            )
        )
        if bound:
            return SeatUse(seat, credential)
        used = table.seats[seat].invite_hash
        if used is not None and hmac.compare_digest(used, digest):
            raise invite_used()
        raise ProtocolError(
            "seat_taken", f"seat {seat} was taken from the lobby before this invite was used", 409
        )

    async def link_account(self, table: LiveTable, token: str, account: Account) -> SeatUse:
        """Bind the seat ``token`` holds to ``account`` (the player's own click: a
        same-origin write with the CSRF token, ``POST /api/tables/{id}/link``). An unused
        invite is used first (its fresh credential returned). 409 ``seat_has_account``
        when another account holds the seat; ``finished`` once the game is over."""
        use = await self.seat_of(table, token, account)
        s = table.seats[use.seat]
        if s.account_id == account.id:
            return use
        if s.account_id is not None:
            raise seat_has_account(use.seat)
        if table.status not in (OPEN, RUNNING):
            raise ProtocolError("finished", texts.message("seats.link_over", "en"), 409)
        held = s.token_hash
        assert held is not None  # the seat's token was found above
        async with table.lock:

            def job(conn: Connection) -> bool:
                ok = store.link_seat_account(
                    conn,
                    table.id,
                    use.seat,
                    token_hash=held,
                    account_id=account.id,
                    name=account.name,
                )
                if ok:
                    self.notify_changed(conn, table)
                return ok

            try:
                ok = await self.critical(self._write(job))
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a seat's account: %s", table.id, exc)
                raise ProtocolError(
                    "unavailable", "the seat could not be stored; try again", 503
                ) from None
            if ok:
                s.account_id, s.name = account.id, account.name
        if not ok:
            await self._reload_seat(table, use.seat)
            if s.account_id != account.id:
                raise seat_has_account(use.seat)
        table.changed()
        table.broadcast_table()
        return use

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
            use = await self.seat_of(table, token)  # a socket never binds an account
            seat, fresh = use.seat, use.token
        elif seat is not None:
            self.check_account_seat(table, seat, account)
        client.seat = seat
        if seat is not None:
            self.presence.connected(table, seat)
        table.attach(client)
        hello = table.hello(seat)
        if fresh is not None:
            hello["seat_token"] = fresh  # this connection's invite bound the seat
        client.send(dumps(hello))
        client.send(table.state_text(seat))

    def check_account_seat(self, table: LiveTable, seat: int, account: Account | None) -> None:
        """Refuse (403 ``not_your_seat``) a seat asked for by account that is not bound to it."""
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "unknown_seat", f"table {table.id} has seats 0 to {table.players - 1}", 404
            )
        if account is None:
            raise ProtocolError(
                "not_logged_in", "log in to take your seat without its invite link", 401
            )
        if table.seats[seat].account_id != account.id:
            raise ProtocolError(
                "not_your_seat",
                f"seat {seat} of table {table.id} is not bound to the account {account.name}",
                403,
            )

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
        use = await self.seat_of(table, token, account)
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

    # --- the cluster -----------------------------------------------------------------------

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
        return notice(kind, table_id, self.origin, data)

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances that ``table``'s row or seats
        changed (they read them again once it commits)."""
        cluster_store.notify(conn, self.notice(CHANGED_NOTICE, table.id))

    async def _join_cluster(self) -> None:
        """Listen to the other instances, then take the tables nobody owns (cluster mode)."""
        self._lease_engine = make_engine(self.settings.db_url, writer=True)
        self.ownership = LeaseOwnership(self, self._lease_engine)
        self._listener = Listener(self.settings.db_url, self._on_notice, self._resync)
        await self._listener.start()
        await self.ownership.start()
        log.info("instance %s: %d tables owned", self.origin, len(self.owned_running()))

    async def taken(self, table_id: str) -> None:
        """This instance has just taken ``table_id``'s lease: load or bring it up to date,
        then resume it (its bots, timers, absence clocks)."""
        table = self.tables.get(table_id)
        if table is None:
            await self.get(table_id)  # loads it, reads the presence and resumes it
            return
        await self._sync(table)
        await self.presence.refresh([table])
        self.moves.resume(table)

    def forget_idle(self, after: float = IDLE_AFTER) -> int:
        """Drop the unfinished tables held only to follow them (another instance owns them)
        that had no socket and no request for ``after`` seconds; how many."""
        now = time.monotonic()
        idle = [
            t
            for t in self.tables.values()
            if t.status in (OPEN, RUNNING)
            and not self.owns(t)
            and not t.clients
            and not t.lock.locked()
            and now - t.used > after
        ]
        for table in idle:
            del self.tables[table.id]
        return len(idle)

    def lost(self, table_id: str) -> None:
        """Another instance owns ``table_id`` now: stop running it here (its sockets stay,
        following the table through the notifications)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        self.cancel_timers(table)
        table.scheduled_seq = -1
        if not table.clients and not table.lock.locked():
            del self.tables[table_id]  # nobody here follows it: no need to read its moves
        log.info("table %s: no longer owned by %s", table_id, self.origin)

    def _on_notice(self, n: Notice) -> None:
        """Another instance's notification (on the event loop)."""
        if n.origin == self.origin or self._stopping:
            return
        table = self.tables.get(n.table_id)
        if table is None:
            return
        if n.kind == ACTION_NOTICE:
            if n.data.isdigit() and int(n.data) <= table.seq:
                return
            self._follow(table)
        elif n.kind == CHANGED_NOTICE:
            self.spawn(table, self._reload(table))
        elif n.kind == PRESENCE_NOTICE:
            self.spawn(table, self.presence.refresh([table]))
        elif (handler := self.remote_handlers.get(n.kind)) is not None:
            self.spawn(table, handler(table, n.data))

    def _resync(self) -> None:
        """The notifications were lost for a while: read every held table again."""
        held = [t for t in self.tables.values() if t.status in (OPEN, RUNNING)]
        for table in held:
            self.spawn(table, self._sync(table))
        if held:
            self.spawn(held[0], self.presence.refresh(held))

    def _follow(self, table: LiveTable) -> None:
        """Read the actions another instance committed to ``table`` (one reader at a time
        per table; notifications arriving meanwhile make it read once more)."""
        if table.id in self._following:
            self._follow_again.add(table.id)
            return
        self._following.add(table.id)
        self.spawn(table, self._follow_task(table))

    async def _follow_task(self, table: LiveTable) -> None:
        try:
            while True:
                self._follow_again.discard(table.id)
                async with table.lock:
                    await self.authority.catch_up(table)
                if table.id not in self._follow_again:
                    return
        finally:
            self._following.discard(table.id)

    async def _sync(self, table: LiveTable) -> None:
        """Bring ``table`` up to date with the database: its row, seats and actions."""
        await self._reload(table)
        async with table.lock:
            await self.authority.catch_up(table)

    async def _reload(self, table: LiveTable) -> None:
        """Read ``table``'s row and seats again (another instance changed them)."""

        def job(conn: Connection) -> tuple[TableRecord | None, set[int]]:
            record = store.load_table(conn, table.id, full=False)
            return record, cluster_store.taken_over(conn, table.id)

        try:
            record, taken = await self._read(job)
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read it again: %s", table.id, exc)
            return
        if record is None:
            return
        async with table.lock:
            self._apply_record(table, record, taken)

    def _apply_record(self, table: LiveTable, record: TableRecord, taken: set[int]) -> None:
        """Take what another instance stored of ``table``'s row and seats into memory."""
        for stored in record.seats:
            s = table.seats[stored.seat]
            s.take_binding(stored)
            if not self.owns(table):
                s.taken_over = s.is_human and stored.seat in taken
        table.started = record.started or table.started
        table.rematch_id = record.rematch_id or table.rematch_id
        was = table.status
        if record.forfeits and len(record.forfeits) > len(table.forfeits):
            table.forfeits = list(record.forfeits)
        if was == OPEN and record.status == RUNNING:
            table.status = RUNNING
            self.moves.resume(table)
        elif was == OPEN and record.status == EXPIRED:
            table.status = EXPIRED
            self.cancel_timers(table)
            self.remember_finished(table.id)
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
            self.game_over(table, run_hooks=self.owns(table))
        table.changed(state=True)
        table.broadcast_table()
        table.broadcast_state()

    # --- finished games --------------------------------------------------------------------

    async def replay(self, table: LiveTable) -> list[dict[str, Any]]:
        """Every step of a finished game; ProtocolError(not_finished) before the end."""
        return await replay(table)
