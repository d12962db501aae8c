"""The runtime: every live table, and the one path by which any action is applied.

:class:`TableManager` owns the tables in play. Each table applies its actions one at a
time under its own ``asyncio.Lock``: check the seat, status, seq and legality; compute
what every viewer may see of the action *before* applying it; apply on a clone; commit
the action row to the database (``store.Writer``); and only then swap in the new
state, extend the per-viewer logs, broadcast each connection its own seat's view, and
acknowledge. Humans, bots, the takeover bot (absent seats, turn timeouts) and the
server's chance draws all use this one path.

Time comes from an injected :class:`~pyramids.server.clocks.Clock` (real time unless a
test passes a ``ManualClock``): the actions' times, the tables' start, and the timers of
the players' clocks (``clocks.py``: a stand-in plays, or the seat forfeits, when a seat's
time runs out).
"""

from __future__ import annotations

import asyncio
import copyreg
import datetime as dt
import hmac
import logging
import random
import secrets
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pyramids.core import CHANCE, State
from pyramids.core.errors import ActionParseError, IllegalActionError, PyramidsError
from pyramids.core.fairness import chance_rng, commitment
from pyramids.games import descriptor, make_game
from pyramids.server import store
from pyramids.server.auth import Account
from pyramids.server.clocks import CLOCK, FORFEIT, FORFEITED, Clock, SystemClock, deadline_of
from pyramids.server.config import Settings
from pyramids.server.db import make_engine, migrate
from pyramids.server.limits import ClientLimits
from pyramids.server.live import (
    ABSENT,
    EXPIRED,
    FINISHED,
    OPEN,
    RUNNING,
    TIMEOUT,
    Client,
    Invite,
    LiveTable,
    ProtocolError,
    Rebuilt,
    SeatSpec,
    StartupError,
    TableSettings,
    default_hints,
    dumps,
    encode,
    forfeit_end_entry,
    hash_token,
    is_older_rules,
    is_table_id,
    log_entries,
    new_table_id,
    new_token,
    ranking_order,
    rebuild,
    replay_steps,
    stand_in_event,
    stored_summary,
    think,
    viewers,
)
from pyramids.server.search import SearchPool
from pyramids.server.store import ActionWrite, SeatRecord, TableRecord, Writer

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

INLINE_BOTS = frozenset({"random", "greedy"})
"""Bot specs cheap enough to decide on the event loop; search bots use worker processes
(``search.SearchPool``: tables with a human seat first)."""
SALT_BYTES = 16
"""Random bytes of a table's salt (32 hex digits), hashed with the seed into its commitment."""
PLAYED_BY = {"timeout": TIMEOUT, "takeover": ABSENT, "clock": CLOCK, "forfeit": FORFEITED}
"""The stand-in modes of ``_bot`` that play a human seat, and what its log entry says."""
FALLBACK_BOT = "greedy"
"""Plays a search bot's move when its worker process died, so the table never stalls."""
RETRY_FIRST = 0.1
"""Seconds before a server-made move (bot, chance, stand-in, timeout) whose write failed is
tried again; the wait doubles after each failure up to ``RETRY_MAX``."""
RETRY_MAX = 5.0


def _mapping_proxy(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


# Views carry their rules options as read-only mappings; let them cross to the workers.
copyreg.pickle(MappingProxyType, lambda m: (_mapping_proxy, (dict(m),)))


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
        self._reset()

    def _reset(self) -> None:
        """Forget every table and open nothing (the state before ``start``)."""
        self.tables: dict[str, LiveTable] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self._inflight: set[asyncio.Task[Any]] = set()
        self._engine: Engine | None = None
        self._reader: Engine | None = None
        self._writer: Writer | None = None
        self._stopping = False
        self._sweeper: asyncio.Task[None] | None = None
        self.searches = SearchPool(self.settings.search_workers, self.settings.search_reserved)

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
        expired = await self._write(partial(store.expire_open_tables, before=self._expiry_cutoff()))
        if expired:
            log.info("%d open tables expired (never started)", len(expired))
        loaded = await asyncio.to_thread(self._load_unfinished)
        for record, rebuilt in loaded:
            table = self._make_live(record, rebuilt)
            self.tables[table.id] = table
            if table.status == FINISHED:
                self._remember_finished(table.id)
        for table in list(self.tables.values()):
            self._resume(table)
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
            self._cancel_timers(table)
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
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.to_thread(writer.stop)
        for engine in (self._engine, self._reader):
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

    def _make_live(self, record: TableRecord, rebuilt: Rebuilt) -> LiveTable:
        settings = TableSettings.from_json(
            record.settings, self.settings, hints=default_hints(record.options)
        )
        table = LiveTable(record, rebuilt, settings)
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
        due = [t for t in self.tables.values() if t.status == OPEN and t.created < cutoff]
        done: list[str] = []
        for table in due:
            async with table.lock:
                if table.status != OPEN:
                    continue
                ids = await self._write(
                    partial(store.expire_open_tables, before=cutoff, table_id=table.id)
                )
                if not ids:
                    continue  # started elsewhere meanwhile
                table.status = EXPIRED
                self._cancel_timers(table)
                table.changed(state=True)
                table.broadcast_table()
                table.broadcast_state()
                done.append(table.id)
                self._remember_finished(table.id)
        if done:
            log.info("%d open tables expired (never started)", len(done))
        return done

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

    async def _store_action(self, write: ActionWrite) -> None:
        """Commit one action row (grouped with others by the writer thread)."""
        if self._writer is None:
            raise ProtocolError("unavailable", "the server is not running", 503)
        await self._writer.store_action(write)

    async def _critical(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to the end even if the caller is cancelled (memory must follow the DB)."""
        if self._stopping:
            coro.close()
            raise ProtocolError("unavailable", "the server is shutting down", 503)
        task = asyncio.ensure_future(coro)
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        return await asyncio.shield(task)

    def _spawn(self, table: LiveTable, coro: Coroutine[Any, Any, None]) -> None:
        if self._stopping:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)

    # --- finding tables --------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        """A table by id, loading a finished one from the database; ProtocolError if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.status == FINISHED:
                self._remember_finished(table_id)
            return table
        if not is_table_id(table_id):
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                table = await self._load(table_id)
        self._loading.pop(table_id, None)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        def job(conn: Connection) -> tuple[TableRecord, Rebuilt] | None:
            record = store.load_table(conn, table_id)
            return None if record is None else (record, rebuild(record))

        try:
            found = await self._read(job)
        except StartupError as exc:
            raise ProtocolError("unavailable", str(exc), 503) from None
        if found is None:
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
        table = self._make_live(*found)
        self.tables[table_id] = table
        if table.status == FINISHED:
            self._remember_finished(table_id)
        else:
            self._resume(table)
        return table

    def _remember_finished(self, table_id: str) -> None:
        self._finished[table_id] = None
        self._finished.move_to_end(table_id)
        while len(self._finished) > self.settings.finished_cache:
            for old in self._finished:
                table = self.tables.get(old)
                if table is None or not table.clients:
                    del self._finished[old]
                    self.tables.pop(old, None)
                    break
            else:
                return

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
    ) -> tuple[LiveTable, list[Invite]]:
        """Create and store a table; one invite per human seat. ProtocolError(bad_options) if
        refused. A ``public`` table is listed in the lobby, where anyone may take a free seat.

        The seed is drawn with ``secrets`` and committed to (:mod:`pyramids.core.fairness`);
        a client's ``seed`` makes a "seeded" table, allowed only when every seat but at most
        one is a bot (ProtocolError(seed_not_allowed) otherwise): whoever knows the seed
        knows every hidden thing. ``created_by`` is the creator's client address.
        ``hints``: whether the state messages carry the game's hints (None: on, except at a
        call-out table, ``live.default_hints``); stored in ``settings``. ``rated``: the game
        counts for ratings (``ratings.py``); ``match_id``: the series of rematches the table
        belongs to (``rematch.py``)."""
        try:
            game = make_game(game_name, len(seats), options)
        except PyramidsError as exc:
            raise ProtocolError("bad_options", str(exc), 422) from None
        self._check_option_caps(game_name, game.options)
        settings.hints = default_hints(game.options) if hints is None else hints
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
        invites = [
            Invite(i, table.seats[i].name, token, f"/t/{table.id}?token={token}")
            for i, token in tokens.items()
        ]
        self._resume(table)
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
                await self._write(partial(store.insert_table, table=record))
                return
            except IntegrityError:
                continue
            except SQLAlchemyError as exc:
                log.error("cannot store a new table: %s", exc)
                raise ProtocolError(
                    "unavailable", "the table could not be stored; try again", 503
                ) from None
        raise ProtocolError("unavailable", "could not find a free table id; try again", 503)

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
        ok = await self._critical(
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
    ) -> bool:
        """Bind a free human seat to a new token (its hash), as a lobby claim does but for a
        caller another module has authorised (``rematch.py``): False when the seat was bound
        first. The table starts once every human seat is bound."""
        return await self._critical(
            self._mark_claimed(table, seat, token_hash, name, account=account)
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
    ) -> bool:
        """Bind a seat to one token, atomically; start the table once every seat is bound.

        ``token_hash`` (a lobby claim) replaces the invite; ``invite_hash`` (an invite's
        first use) keeps it. False when the seat was bound first: here (the table's lock
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
                ok, started = await self._write(
                    partial(
                        store.claim_seat,
                        table_id=table.id,
                        seat=seat,
                        token_hash=token_hash,
                        name=name,
                        invite_hash=invite_hash,
                        account_id=account.id if account is not None else None,
                        now=now,
                    )
                )
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
            self._resume(table)

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
        s = table.seats[seat]
        s.claimed = stored.claimed
        s.token_hash = stored.token_hash
        s.name = stored.name
        s.account_id = stored.account_id
        table.changed()
        return status

    async def seat_of(self, table: LiveTable, token: str, account: Account | None = None) -> int:
        """The seat a token holds, binding the seat to it on an invite's first use (and to
        ``account``, the logged-in player using it, if any).

        ProtocolError(bad_token) if the token is no seat's; (seat_taken) if it is an
        invite whose seat was taken from the lobby first: a seat has one token at a time.
        """
        seat = table.seat_for_token(token)
        if not table.seats[seat].claimed:
            digest = hash_token(token)
            await self._critical(
                self._mark_claimed(table, seat, None, None, invite_hash=digest, account=account)
            )
            bound = table.seats[seat].token_hash
            if bound is None or not hmac.compare_digest(bound, digest):
                raise ProtocolError(
                    "seat_taken",
                    f"seat {seat} was taken from the lobby before this invite was used",
                    409,
                )
        return seat

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
        (a player's own seat on another device); neither: a spectator."""
        if token:
            seat = await self.seat_of(table, token, account)
        elif seat is not None:
            self.check_account_seat(table, seat, account)
        client.seat = seat
        if seat is not None:
            s = table.seats[seat]
            s.connections += 1
            self._present(table, seat)
            table.changed()
            table.broadcast_table()
        table.attach(client)
        client.send(dumps(table.hello(seat)))
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
        seat = client.seat
        if seat is None:
            return
        s = table.seats[seat]
        s.connections = max(0, s.connections - 1)
        if s.connections == 0:
            self._start_absence(table, seat)
        table.changed()
        table.broadcast_table()

    def _present(self, table: LiveTable, seat: int) -> None:
        """A seat's human is here: stop its absence clock and any takeover."""
        handle = table.absent.pop(seat, None)
        if handle is not None:
            handle.cancel()
        s = table.seats[seat]
        if s.taken_over:
            s.taken_over = False
            table.changed()
            table.broadcast_table()
            self._reschedule(table)

    def _start_absence(self, table: LiveTable, seat: int) -> None:
        s = table.seats[seat]
        if (
            self._stopping
            or table.settings.absent_after <= 0
            or (table.clock is not None and table.clock.is_turn_based)
            or table.status != RUNNING
            or not s.is_human
            or s.connections > 0
            or s.taken_over
        ):
            return
        old = table.absent.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        table.absent[seat] = loop.call_later(
            table.settings.absent_after, self._take_over, table, seat
        )

    def _take_over(self, table: LiveTable, seat: int) -> None:
        table.absent.pop(seat, None)
        s = table.seats[seat]
        if table.status != RUNNING or s.connections > 0 or s.taken_over:
            return
        s.taken_over = True
        table.changed()
        table.broadcast_table()
        self._reschedule(table)

    def _cancel_timers(self, table: LiveTable) -> None:
        for handle in table.absent.values():
            handle.cancel()
        table.absent.clear()
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None

    # --- acting ----------------------------------------------------------------------------

    async def act_with_token(
        self, table: LiveTable, token: str, seq: int, text: str, account: Account | None = None
    ) -> int:
        """An action sent over HTTP: the token names the seat (and uses its invite)."""
        seat = await self.seat_of(table, token, account)
        s = table.seats[seat]
        if s.connections == 0 and table.status == RUNNING:
            self._present(table, seat)
            self._start_absence(table, seat)
        return await self.act(table, seat, seq, text)

    async def act(self, table: LiveTable, seat: int | None, seq: int, text: str) -> int:
        """A human's action (``seat`` None: a spectator); the new seq once committed."""
        return await self._critical(self._act(table, seat, seq, text=text))

    async def _act(
        self,
        table: LiveTable,
        seat: int | None,
        seq: int,
        *,
        text: str | None = None,
        action: int | None = None,
        still_valid: Callable[[], bool] | None = None,
        played_by: str | None = None,
    ) -> int:
        async with table.lock:
            if still_valid is not None and not still_valid():
                raise ProtocolError("stale", "the decision is no longer the bot's")
            state = table.state
            if table.status == FINISHED or state.is_terminal():
                raise ProtocolError("finished", "the game is over")
            if seat is None:
                raise ProtocolError(
                    "out_of_turn", "spectators cannot act: connect with a seat's token"
                )
            if seq > table.seq:
                # Another server process sharing the database may have stored actions
                # this one has not seen yet: read them before judging the seq.
                await self._catch_up(table)
                state = table.state
                if table.status == FINISHED or state.is_terminal():
                    raise ProtocolError("finished", "the game is over")
            if seq != table.seq:
                raise ProtocolError(
                    "stale", f"the action was for seq {seq} but the game is at seq {table.seq}"
                )
            if table.status == EXPIRED:
                raise ProtocolError("expired", "this table expired before it started", 410)
            if table.status == OPEN:
                raise ProtocolError(
                    "out_of_turn",
                    "the table is waiting for every invited player to join before anyone moves",
                )
            to_move = state.current_player()
            if seat != to_move:
                who = "the server's chance draw" if to_move == CHANCE else f"seat {to_move}'s"
                raise ProtocolError("out_of_turn", f"it is {who} decision, not seat {seat}'s")
            if played_by is None:
                self._check_time(table, seat)
            if action is None:
                assert text is not None
                try:
                    action = state.parse_action(text)
                except ActionParseError as exc:
                    raise ProtocolError("malformed", str(exc), 422) from None
                except IllegalActionError as exc:
                    raise ProtocolError("illegal", str(exc), 409) from None
            return await self._apply(table, seat, action, played_by=played_by)

    def _check_time(self, table: LiveTable, seat: int) -> None:
        """Refuse (out_of_time) a player's move once its clock ran out: the stand-in or the
        forfeit the table's clock says is on its way (``_clock_over``)."""
        banks = table.banks()
        if table.clock is None or banks is None:
            return
        if seat in table.forfeits:
            raise ProtocolError(
                "out_of_time", f"seat {seat} forfeited on time: a bot plays it to the end"
            )
        deadline = deadline_of(table.clock, banks, seat)
        if deadline is not None and self.clock.now() >= deadline:
            raise ProtocolError("out_of_time", f"seat {seat}'s time ran out for this decision")

    async def _apply(
        self, table: LiveTable, actor: int, action: int, *, played_by: str | None = None
    ) -> int:
        """Apply, commit, then publish one action; the caller holds the table's lock.
        ``played_by`` (TIMEOUT, ABSENT): a bot chose it for a human seat, which the log,
        the replay and the stored action say."""
        state = table.state
        who = viewers(table.players)
        plain = state.action_to_string(action)
        texts = [state.action_text_for(action, v) for v in who]
        new = state.clone()
        try:
            new.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", str(exc), 409) from None
        seq = table.seq + 1
        terminal = new.is_terminal()
        ranking = ranking_order(new, table.forfeits) if terminal else None
        now = self.clock.now()
        every = self.settings.snapshot_every
        snapshot = new.to_json() if terminal or (every > 0 and seq % every == 0) else None
        write = ActionWrite(
            table_id=table.id,
            seq=seq,
            seat=actor,
            action=plain,
            created=now,
            status=FINISHED if terminal else table.status,
            ranking=ranking,
            finished=now if terminal else None,
            snapshot=snapshot,
            played_by=played_by,
        )
        try:
            await self._store_action(write)
        except IntegrityError:
            await self._catch_up(table)
            raise ProtocolError(
                "stale", f"another action was stored first for seq {seq - 1}; the game moved on"
            ) from None
        except SQLAlchemyError as exc:
            log.error("table %s: cannot store action %d: %s", table.id, seq, exc)
            raise ProtocolError(
                "unavailable", "the action could not be stored; try again", 503
            ) from None
        self._publish(
            table,
            new=new,
            actor=actor,
            plain=plain,
            texts=texts,
            created=now,
            finished=now if terminal else None,
            played_by=played_by,
        )
        return seq

    def _publish(
        self,
        table: LiveTable,
        *,
        new: State,
        actor: int,
        plain: str,
        texts: Sequence[str],
        created: dt.datetime,
        finished: dt.datetime | None,
        played_by: str | None = None,
    ) -> None:
        """Make a committed action live: state, logs, broadcast, next move. ``created``:
        when it was stored (the clocks count from it)."""
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        table.state = new
        table.seq += 1
        table.actions.append((actor, plain))
        table.action_times.append(created)
        if played_by is not None:
            table.stand_ins[table.seq] = played_by
        notice = stand_in_event(played_by, actor, table.seats)
        for i, entry in enumerate(log_entries(new, table.seq, actor, texts, notice)):
            table.logs[i].append(encode(entry))
        if new.is_terminal():
            table.status = FINISHED
            table.ranking = ranking_order(new, table.forfeits)
            table.finished = finished or created
            self._cancel_timers(table)
            self._remember_finished(table.id)
            for hook in self.finished_hooks:
                self._spawn(table, hook(table))
        table.changed(state=True)
        table.broadcast_state()
        self._schedule(table)

    async def _catch_up(self, table: LiveTable) -> None:
        """Another writer stored actions for this table: apply them from the database."""
        try:
            rows = await self._read(
                partial(store.action_rows_after, table_id=table.id, seq=table.seq)
            )
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read the actions stored elsewhere: %s", table.id, exc)
            return
        for row in rows:
            if row.seq != table.seq + 1:
                break
            state = table.state
            try:
                action = state.parse_action(row.action)
            except PyramidsError as exc:
                log.error("table %s: stored action %d does not apply: %s", table.id, row.seq, exc)
                return
            texts = [state.action_text_for(action, v) for v in viewers(table.players)]
            new = state.clone()
            new.apply(action)
            self._publish(
                table,
                new=new,
                actor=row.seat,
                plain=row.action,
                texts=texts,
                created=row.created,
                finished=row.created if new.is_terminal() else None,
                played_by=row.played_by,
            )

    # --- bots, chance, timeouts ------------------------------------------------------------

    def _resume(self, table: LiveTable) -> None:
        """Start what a running table needs: absence clocks and the next bot or chance move."""
        if table.status != RUNNING:
            return
        for s in table.seats:
            if s.is_human and s.connections == 0:
                self._start_absence(table, s.seat)
        self._reschedule(table)

    def _reschedule(self, table: LiveTable) -> None:
        table.scheduled_seq = -1
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        self._schedule(table)

    def _schedule(self, table: LiveTable) -> None:
        """Start the move that does not wait for a human: chance, a bot, a takeover."""
        if self._stopping or table.status != RUNNING or table.state.is_terminal():
            return
        if table.scheduled_seq == table.seq:
            return
        table.scheduled_seq = seq = table.seq
        to_move = table.state.current_player()
        delay = table.settings.bot_delay
        if to_move == CHANCE:
            self._spawn(table, self._chance(table, seq))
            return
        s = table.seats[to_move]
        if not s.is_human:
            spec = self.settings.bot_spec(s.bot or "greedy")
            self._spawn(table, self._bot(table, seq, to_move, spec=spec, delay=delay, mode="bot"))
        elif to_move in table.forfeits:
            spec = self.settings.bot_spec(table.settings.takeover_bot)
            self._spawn(
                table, self._bot(table, seq, to_move, spec=spec, delay=delay, mode="forfeit")
            )
        elif s.taken_over:
            spec = self.settings.bot_spec(table.settings.takeover_bot)
            self._spawn(
                table, self._bot(table, seq, to_move, spec=spec, delay=delay, mode="takeover")
            )
        elif table.clock is not None:
            banks = table.banks()
            deadline = deadline_of(table.clock, banks, to_move) if banks is not None else None
            if deadline is not None:
                wait = (deadline - self.clock.now()).total_seconds()
                table.turn_timer = self.clock.call_later(
                    wait, self._clock_over, table, seq, to_move
                )
        elif table.settings.turn_time > 0:
            loop = asyncio.get_running_loop()
            table.turn_timer = loop.call_later(
                table.settings.turn_time, self._turn_over, table, seq, to_move
            )

    def _clock_over(self, table: LiveTable, seq: int, seat: int) -> None:
        """Seat ``seat``'s time ran out at ``seq``: the stand-in plays that decision, or the
        seat forfeits (the table's ``clock.on_expiry``)."""
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        banks, clock = table.banks(), table.clock
        deadline = deadline_of(clock, banks, seat) if clock and banks else None
        if clock is None or deadline is None:
            return
        left = (deadline - self.clock.now()).total_seconds()
        if left > 0:  # a timer a little early: wait for the rest
            table.turn_timer = self.clock.call_later(left, self._clock_over, table, seq, seat)
            return
        if clock.on_expiry == FORFEIT:
            self._spawn(table, self._forfeit(table, seq, seat))
            return
        spec = self.settings.bot_spec(table.settings.takeover_bot)
        self._spawn(table, self._bot(table, seq, seat, spec=spec, delay=0.0, mode="clock"))

    async def _forfeit(self, table: LiveTable, seq: int, seat: int) -> None:
        """Seat ``seat`` forfeits on time at ``seq`` (stored before it shows)."""
        try:
            await self._until_stored(
                table, seq, "forfeit", partial(self._forfeit_locked, table, seq, seat)
            )
        except Exception:
            log.exception("table %s: the forfeit of seat %d at seq %d failed", table.id, seat, seq)

    async def _forfeit_locked(self, table: LiveTable, seq: int, seat: int) -> None:
        """Store the forfeit; with one seat left standing the game ends here (``ended``
        ``forfeit``, ranking by ``live.placements``), else the bot plays the seat on."""
        async with table.lock:
            state = table.state
            if (
                table.seq != seq
                or table.status != RUNNING
                or state.current_player() != seat
                or seat in table.forfeits
            ):
                return
            forfeits = [*table.forfeits, seat]
            standing = [s for s in range(table.players) if s not in forfeits]
            ranking = ranking_order(state, forfeits) if len(standing) <= 1 else None
            now = self.clock.now()
            try:
                stored = await self._write(
                    partial(
                        store.record_forfeit,
                        table_id=table.id,
                        forfeits=forfeits,
                        now=now,
                        ranking=ranking,
                    )
                )
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a forfeit: %s", table.id, exc)
                raise ProtocolError(
                    "unavailable", "the forfeit could not be stored; try again", 503
                ) from None
            if not stored:
                return  # the table stopped running elsewhere
            table.forfeits = forfeits
            log.info("table %s: seat %d forfeits on time at seq %d", table.id, seat, seq)
            if ranking is not None:
                table.status = FINISHED
                table.ended = FORFEITED
                table.ranking = ranking
                table.finished = now
                for entries in table.logs:
                    entries.append(forfeit_end_entry(table.seq, seat, table.seats))
                self._cancel_timers(table)
                self._remember_finished(table.id)
                for hook in self.finished_hooks:
                    self._spawn(table, hook(table))
            table.changed(state=True)
            table.broadcast_table()
            table.broadcast_state()
            self._reschedule(table)

    def _turn_over(self, table: LiveTable, seq: int, seat: int) -> None:
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        spec = self.settings.bot_spec(table.settings.takeover_bot)
        self._spawn(table, self._bot(table, seq, seat, spec=spec, delay=0.0, mode="timeout"))

    async def _chance(self, table: LiveTable, seq: int) -> None:
        """Draw and apply the chance outcome of seq with ``fairness.chance_rng(seed, seq)``."""
        try:
            await self._until_stored(table, seq, "chance", partial(self._chance_locked, table, seq))
        except Exception:
            log.exception("table %s: the chance draw at seq %d failed", table.id, seq)

    async def _until_stored(
        self,
        table: LiveTable,
        seq: int,
        what: str,
        attempt: Callable[[], Coroutine[Any, Any, Any]],
    ) -> None:
        """Apply a move the server makes (``attempt``); while its write fails because the
        storage is unavailable, try again after RETRY_FIRST seconds, doubling up to RETRY_MAX,
        as long as the table still waits at ``seq``. Nothing else would: ``scheduled_seq``
        already names this seq. A refusal of another kind (stale, finished) drops the move;
        a retry after a write that did commit is refused by the (table, seq) key and
        catches up from the database instead, so nothing is stored twice."""
        wait = RETRY_FIRST
        failures = 0
        while True:
            try:
                await self._critical(attempt())
            except ProtocolError as exc:
                if exc.code != "unavailable" or self._stopping or table.seq != seq:
                    log.debug(
                        "table %s: %s move at seq %d dropped: %s", table.id, what, seq, exc.message
                    )
                    return
                failures += 1
                log.warning(
                    "table %s: the %s move at seq %d was not stored (%d failures); "
                    "trying again in %.1f s",
                    table.id,
                    what,
                    seq,
                    failures,
                    wait,
                )
            else:
                if failures:
                    log.warning(
                        "table %s: the %s move at seq %d was stored after %d failures",
                        table.id,
                        what,
                        seq,
                        failures,
                    )
                return
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)

    async def _chance_locked(self, table: LiveTable, seq: int) -> None:
        async with table.lock:
            state = table.state
            if table.seq != seq or table.status != RUNNING or state.current_player() != CHANCE:
                return
            action = state.sample_chance(chance_rng(table.seed, seq))
            await self._apply(table, CHANCE, action)

    async def _bot(
        self, table: LiveTable, seq: int, seat: int, *, spec: str, delay: float, mode: str
    ) -> None:
        """Let a bot decide for ``seat`` at ``seq`` (seeing only its view), then apply it."""
        state = table.state
        if table.seq != seq or state.current_player() != seat:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        rng = random.Random(f"{table.seed}/bot/{seat}/{seq}")
        try:
            view, legal = state.view(seat), state.legal_actions()
            if spec in INLINE_BOTS:
                action = think(spec, view, legal, rng)  # well under a millisecond
            else:
                human = any(s.is_human for s in table.seats)
                try:
                    action = await self.searches.run(table.id, human, think, spec, view, legal, rng)
                except BrokenProcessPool:
                    log.error(
                        "table %s: the %s bot's worker process died at seq %d; %s plays",
                        table.id,
                        spec,
                        seq,
                        FALLBACK_BOT,
                    )
                    action = think(FALLBACK_BOT, view, legal, rng)
            wait = delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)

            def still_valid() -> bool:
                s = table.seats[seat]
                if mode == "takeover":
                    return s.taken_over
                if mode in ("timeout", "clock"):
                    return not s.taken_over and seat not in table.forfeits
                if mode == "forfeit":
                    return seat in table.forfeits
                return True

            move = partial(
                self._act,
                table,
                seat,
                seq,
                action=action,
                still_valid=still_valid,
                played_by=PLAYED_BY.get(mode),
            )
            await self._until_stored(table, seq, mode, move)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the %s bot failed at seq %d", table.id, spec, seq)

    # --- finished games --------------------------------------------------------------------

    async def replay(self, table: LiveTable) -> list[dict[str, Any]]:
        """Every step of a finished game; ProtocolError(not_finished) before the end."""
        if table.status != FINISHED:
            raise ProtocolError("not_finished", "the replay is shown once the game is over", 409)
        return await asyncio.to_thread(replay_steps, table)
