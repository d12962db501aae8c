"""The runtime: every live table, and the one path by which any action is applied.

:class:`TableManager` owns the tables in play. Each table applies its actions one at a
time under its own ``asyncio.Lock``: check the seat, status, seq and legality; compute
what every viewer may see of the action *before* applying it; apply on a clone; commit
the action row to the database (``store.Writer``); and only then swap in the new
state, extend the per-viewer logs, broadcast each connection its own seat's view, and
acknowledge. Humans, bots, the takeover bot (absent seats, turn timeouts) and the
server's chance draws all use this one path.
"""

from __future__ import annotations

import asyncio
import copyreg
import datetime as dt
import logging
import multiprocessing
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pyramids.core import CHANCE, State
from pyramids.core.errors import ActionParseError, IllegalActionError, PyramidsError
from pyramids.games import make_game
from pyramids.server import store
from pyramids.server.config import Settings
from pyramids.server.db import make_engine, migrate
from pyramids.server.live import (
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
    dumps,
    final_order,
    hash_token,
    is_older_rules,
    is_table_id,
    log_entries,
    new_table_id,
    new_token,
    rebuild,
    replay_steps,
    stored_summary,
    think,
    viewers,
)
from pyramids.server.store import ActionWrite, SeatRecord, TableRecord, Writer, utcnow

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

INLINE_BOTS = frozenset({"random", "greedy"})
"""Bot specs cheap enough to decide on the event loop; search bots use worker processes."""
SEARCH_PROCESSES = 2
"""Worker processes for search bots (ISMCTS) across all tables: a search holds the CPU for
a second, which in this process would hold the interpreter lock against every table."""
FALLBACK_BOT = "greedy"
"""Plays a search bot's move when its worker process died, so the table never stalls."""


def _mapping_proxy(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


# Views carry their rules options as read-only mappings; let them cross to the workers.
copyreg.pickle(MappingProxyType, lambda m: (_mapping_proxy, (dict(m),)))


def _search_pool() -> ProcessPoolExecutor:
    """The worker processes of the search bots (started on first use)."""
    return ProcessPoolExecutor(SEARCH_PROCESSES, mp_context=multiprocessing.get_context("spawn"))


class TableManager:
    """Every live table, the database behind them, and the tasks that play for absent seats."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._started = False
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
        self._bot_pool = _search_pool()

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
        loaded = await asyncio.to_thread(self._load_unfinished)
        for record, rebuilt in loaded:
            table = self._make_live(record, rebuilt)
            self.tables[table.id] = table
            if table.status == FINISHED:
                self._remember_finished(table.id)
        for table in list(self.tables.values()):
            self._resume(table)
        log.info("resumed %d tables", len(loaded))

    async def stop(self) -> None:
        """Stop bots and timers, finish the writes in flight, close the database."""
        if not self._started:
            return
        self._started = False
        self._stopping = True
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
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
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
        settings = TableSettings.from_json(record.settings, self.settings)
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
        """Table summaries, newest first (live ones as they are in memory)."""
        records = await self._read(partial(store.list_tables, status=status, limit=limit))
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
    ) -> tuple[LiveTable, list[Invite]]:
        """Create and store a table; one invite per human seat. ProtocolError(bad_options) if refused."""
        try:
            game = make_game(game_name, len(seats), options)
        except PyramidsError as exc:
            raise ProtocolError("bad_options", str(exc), 422) from None
        if seed is None:
            seed = secrets.randbits(62)
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
        now = utcnow()
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
            seats=seat_records,
        )
        for _attempt in range(5):
            record.id = new_table_id()
            if record.id in self.tables:
                continue
            try:
                await self._write(partial(store.insert_table, table=record))
                break
            except IntegrityError:
                continue
            except SQLAlchemyError as exc:
                log.error("cannot store a new table: %s", exc)
                raise ProtocolError(
                    "unavailable", "the table could not be stored; try again", 503
                ) from None
        else:
            raise ProtocolError("unavailable", "could not find a free table id; try again", 503)
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

    async def claim(self, table: LiveTable, seat: int, name: str | None) -> Invite:
        """Take a free human seat from the lobby: a new token replaces the unused invite."""
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "unknown_seat", f"table {table.id} has seats 0 to {table.players - 1}", 404
            )
        s = table.seats[seat]
        if not s.is_human:
            raise ProtocolError("seat_taken", f"seat {seat} is played by the {s.bot} bot", 409)
        token = new_token()
        ok = await self._critical(self._mark_claimed(table, seat, hash_token(token), name))
        if not ok:
            raise ProtocolError("seat_taken", f"seat {seat}'s invite has already been used", 409)
        return Invite(seat, s.name, token, f"/t/{table.id}?token={token}")

    async def _mark_claimed(
        self, table: LiveTable, seat: int, token_hash: str | None, name: str | None
    ) -> bool:
        """Record that a seat's invite was used; start the table once every invite was."""
        async with table.lock:
            s = table.seats[seat]
            if s.claimed:
                return False
            others = all(o.claimed for o in table.seats if o.is_human and o.seat != seat)
            status = RUNNING if table.status == OPEN and others else None
            try:
                ok = await self._write(
                    partial(
                        store.claim_seat,
                        table_id=table.id,
                        seat=seat,
                        token_hash=token_hash,
                        name=name,
                        status=status,
                    )
                )
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a claim: %s", table.id, exc)
                raise ProtocolError(
                    "unavailable", "the claim could not be stored; try again", 503
                ) from None
            if not ok:
                s.claimed = True  # another process claimed it
                table.changed()
                return False
            s.claimed = True
            if token_hash is not None:
                s.token_hash = token_hash
            if name is not None:
                s.name = name
            if status is not None:
                table.status = status
            table.changed()
            table.broadcast_table()
            if status is not None:
                table.broadcast_state()
                self._resume(table)
            return True

    # --- connections -----------------------------------------------------------------------

    async def connect(self, table: LiveTable, token: str | None, client: Client) -> None:
        """Attach a connection (its seat from the token), then send it hello and state."""
        seat = table.seat_for_token(token) if token else None
        client.seat = seat
        if seat is not None and not table.seats[seat].claimed:
            await self._critical(self._mark_claimed(table, seat, None, None))
        if seat is not None:
            s = table.seats[seat]
            s.connections += 1
            self._present(table, seat)
            table.changed()
            table.broadcast_table()
        table.clients.add(client)
        client.send(dumps(table.hello(seat)))
        client.send(table.state_text(seat))

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

    async def act_with_token(self, table: LiveTable, token: str, seq: int, text: str) -> int:
        """An action sent over HTTP: the token names the seat (and uses its invite)."""
        seat = table.seat_for_token(token)
        if not table.seats[seat].claimed:
            await self._critical(self._mark_claimed(table, seat, None, None))
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
            if table.status == OPEN:
                raise ProtocolError(
                    "out_of_turn",
                    "the table is waiting for every invited player to join before anyone moves",
                )
            to_move = state.current_player()
            if seat != to_move:
                who = "the server's chance draw" if to_move == CHANCE else f"seat {to_move}'s"
                raise ProtocolError("out_of_turn", f"it is {who} decision, not seat {seat}'s")
            if action is None:
                assert text is not None
                try:
                    action = state.parse_action(text)
                except ActionParseError as exc:
                    raise ProtocolError("malformed", str(exc), 422) from None
                except IllegalActionError as exc:
                    raise ProtocolError("illegal", str(exc), 409) from None
            return await self._apply(table, seat, action)

    async def _apply(self, table: LiveTable, actor: int, action: int) -> int:
        """Apply, commit, then publish one action; the caller holds the table's lock."""
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
        ranking = final_order(new) if terminal else None
        now = utcnow()
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
            finished=now if terminal else None,
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
        finished: dt.datetime | None,
    ) -> None:
        """Make a committed action live: state, logs, broadcast, next move."""
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        table.state = new
        table.seq += 1
        table.actions.append((actor, plain))
        for i, entry in enumerate(log_entries(new, table.seq, actor, texts)):
            table.logs[i].append(entry)
        if new.is_terminal():
            table.status = FINISHED
            table.ranking = final_order(new)
            table.finished = finished or utcnow()
            self._cancel_timers(table)
            self._remember_finished(table.id)
        table.changed(state=True)
        table.broadcast_state()
        self._schedule(table)

    async def _catch_up(self, table: LiveTable) -> None:
        """Another writer stored actions for this table: apply them from the database."""
        try:
            rows = await self._read(partial(store.actions_after, table_id=table.id, seq=table.seq))
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read the actions stored elsewhere: %s", table.id, exc)
            return
        for seq, seat, text in rows:
            if seq != table.seq + 1:
                break
            state = table.state
            try:
                action = state.parse_action(text)
            except PyramidsError as exc:
                log.error("table %s: stored action %d does not apply: %s", table.id, seq, exc)
                return
            texts = [state.action_text_for(action, v) for v in viewers(table.players)]
            new = state.clone()
            new.apply(action)
            self._publish(table, new=new, actor=seat, plain=text, texts=texts, finished=None)

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
        elif s.taken_over:
            spec = self.settings.bot_spec(table.settings.takeover_bot)
            self._spawn(
                table, self._bot(table, seq, to_move, spec=spec, delay=delay, mode="takeover")
            )
        elif table.settings.turn_time > 0:
            loop = asyncio.get_running_loop()
            table.turn_timer = loop.call_later(
                table.settings.turn_time, self._turn_over, table, seq, to_move
            )

    def _turn_over(self, table: LiveTable, seq: int, seat: int) -> None:
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        spec = self.settings.bot_spec(table.settings.takeover_bot)
        self._spawn(table, self._bot(table, seq, seat, spec=spec, delay=0.0, mode="timeout"))

    async def _chance(self, table: LiveTable, seq: int) -> None:
        """Draw and apply the chance outcome of seq with ``Random(f"{seed}/chance/{seq}")``."""
        try:
            await self._critical(self._chance_locked(table, seq))
        except ProtocolError as exc:
            log.debug("table %s: chance at seq %d dropped: %s", table.id, seq, exc.message)
        except Exception:
            log.exception("table %s: the chance draw at seq %d failed", table.id, seq)

    async def _chance_locked(self, table: LiveTable, seq: int) -> None:
        async with table.lock:
            state = table.state
            if table.seq != seq or table.status != RUNNING or state.current_player() != CHANCE:
                return
            action = state.sample_chance(random.Random(f"{table.seed}/chance/{seq}"))
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
                try:
                    action = await loop.run_in_executor(
                        self._bot_pool, think, spec, view, legal, rng
                    )
                except BrokenProcessPool:
                    log.error(
                        "table %s: the %s bot's worker process died at seq %d; %s plays",
                        table.id,
                        spec,
                        seq,
                        FALLBACK_BOT,
                    )
                    self._bot_pool.shutdown(wait=False, cancel_futures=True)
                    self._bot_pool = _search_pool()
                    action = think(FALLBACK_BOT, view, legal, rng)
            wait = delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)

            def still_valid() -> bool:
                s = table.seats[seat]
                if mode == "takeover":
                    return s.taken_over
                if mode == "timeout":
                    return not s.taken_over
                return True

            await self._critical(
                self._act(table, seat, seq, action=action, still_valid=still_valid)
            )
        except ProtocolError as exc:
            log.debug("table %s: bot move at seq %d dropped: %s", table.id, seq, exc.message)
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
