"""The table authority: the one path by which any action is validated, applied, committed
and published.

:class:`Authority` is given its parts: an :class:`ActionStore` (commits action rows;
``SqlActionStore`` on the database, an in-memory one in the unit tests), a
:class:`~pyramids.server.clocks.Clock` (the time of every action), a :class:`Publisher`
(sends every viewer its own view of what was committed) and a :class:`Scheduler` (starts
what comes next: a bot, a chance draw, a timer, on the instance that owns the table). Each
table applies its actions one at a time under its own ``asyncio.Lock``: check the seat,
status, seq, time and legality; compute what every viewer may see of the action *before*
applying it; apply on a clone; commit; and only then swap in the new state, extend the
per-viewer logs, publish and schedule. Humans, bots, the stand-ins (absent seats, turn
timeouts, clocks) and the server's chance draws all use this one path.

Exactly once: the store refuses a second action for a (table, seq) (:class:`SeqTakenError`),
whichever instance of a cluster wrote the first; the loser reads what was stored
(:meth:`Authority.catch_up`) and answers ``stale``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pyramids.core import CHANCE, State
from pyramids.core.clock import deadline_of
from pyramids.core.errors import ActionParseError, IllegalActionError, PyramidsError
from pyramids.server.clocks import Clock
from pyramids.server.live import EXPIRED, FINISHED, OPEN, LiveTable
from pyramids.server.protocol import ProtocolError, server_refusal
from pyramids.server.standings import ranking_order
from pyramids.server.store import ActionRecord, ActionWrite
from pyramids.server.table_log import log_entries, stand_in_event, viewers
from pyramids.server.wire import encode

log = logging.getLogger("pyramids.server")


class SeqTakenError(Exception):
    """Another action is already stored at this (table, seq)."""


class StoreUnavailableError(Exception):
    """The action could not be committed (the database is unreachable or refused it)."""


class ActionStore(Protocol):
    """Where committed actions live."""

    async def store_action(self, write: ActionWrite) -> None:
        """Commit one action; SeqTakenError if its seq is taken, StoreUnavailableError if it failed."""
        ...

    async def actions_after(self, table_id: str, seq: int) -> list[ActionRecord]:
        """The actions stored after ``seq``, in order (StoreUnavailableError if unreadable)."""
        ...


@dataclass(frozen=True)
class Committed:
    """One action as committed: who, what, when, and whether a bot chose it for a human."""

    seq: int
    actor: int
    action: str
    created: dt.datetime
    played_by: str | None
    here: bool
    """Committed by this instance (False: read back from the store, another wrote it)."""


class Publisher(Protocol):
    """Makes a committed action visible."""

    def publish(self, table: LiveTable, committed: Committed) -> None:
        """Send every connection of ``table`` its own view of the new state."""
        ...


class Scheduler(Protocol):
    """Starts what a table needs next, where the table is owned."""

    def committed(self, table: LiveTable, committed: Committed) -> None:
        """An action was committed and published: start the next server move or timer;
        when the game ended, the finished hooks."""
        ...


class SocketPublisher:
    """The publisher of a server: each socket of the table gets its own seat's view."""

    def publish(self, table: LiveTable, committed: Committed) -> None:
        """Broadcast the new state to every socket of ``table`` on this instance (the
        authority already dropped the old state's cached messages)."""
        table.broadcast_state()


def notice(kind: str, table_id: str, origin: str, data: str = "") -> str:
    """The text of a cluster notification (``pubsub.py`` parses it)."""
    return f"{kind} {table_id} {origin} {data}".rstrip()


ACTION_NOTICE = "a"
"""Notification kind: an action was committed (data: its seq)."""


class Authority:
    """Validates, applies, commits and publishes every action of every table."""

    def __init__(
        self,
        store: ActionStore,
        clock: Clock,
        publisher: Publisher,
        scheduler: Scheduler,
        *,
        origin: str | None = None,
        snapshot_every: int = 0,
    ) -> None:
        self.store = store
        self.clock = clock
        self.publisher = publisher
        self.scheduler = scheduler
        self.origin = origin
        """This instance's run, named in the notification each commit sends to the other
        instances of a cluster (None: there are none, no notification)."""
        self.snapshot_every = snapshot_every
        """Store the full position every this many seqs (0: only at the end)."""

    async def act(
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
        """Validate and apply ``seat``'s action at ``seq`` (its ``text``, or an ``action``
        id a bot chose); the new seq once committed. ProtocolError says why not.
        ``still_valid`` (a bot's move): checked under the lock, False drops the move as
        stale. ``played_by``: a stand-in chose it for a human seat (no time check)."""
        async with table.lock:
            if still_valid is not None and not still_valid():
                raise server_refusal("stale", "bot_stale")
            state = table.state
            if table.status == FINISHED or state.is_terminal():
                raise server_refusal("finished", "finished")
            if seat is None:
                raise server_refusal("out_of_turn", "spectator")
            if seq > table.seq:
                # Another instance sharing the database may have stored actions this one
                # has not seen yet: read them before judging the seq.
                await self.catch_up(table, strict=True)
                state = table.state
                if table.status == FINISHED or state.is_terminal():
                    raise server_refusal("finished", "finished")
            if seq != table.seq:
                raise server_refusal("stale", "stale", 409, seq=seq, at=table.seq)
            if table.status == EXPIRED:
                raise server_refusal("expired", "expired", 410)
            if table.status == OPEN:
                raise server_refusal("out_of_turn", "waiting_for_players")
            to_move = state.current_player()
            if seat != to_move:
                if to_move == CHANCE:
                    raise server_refusal("out_of_turn", "chance_to_move", 409, seat=seat)
                raise server_refusal(
                    "out_of_turn", "not_your_turn", 409, seat=seat, to_move=to_move
                )
            if played_by is None:
                self.check_time(table, seat)
            if action is None:
                assert text is not None
                try:
                    action = state.parse_action(text)
                except ActionParseError as exc:
                    raise ProtocolError.of("malformed", exc, 422) from None
                except IllegalActionError as exc:
                    raise ProtocolError.of("illegal", exc, 409) from None
            elif action not in state.legal_actions():
                raise server_refusal("illegal", "not_legal", 409, action=action)
            return await self.apply(table, seat, action, played_by=played_by)

    def check_time(self, table: LiveTable, seat: int) -> None:
        """Refuse (out_of_time) a player's move once its clock ran out: the stand-in or the
        forfeit the table's clock says is on its way (``timers.py``)."""
        banks = table.banks()
        if table.clock is None or banks is None:
            return
        if seat in table.forfeits:
            raise server_refusal("out_of_time", "forfeited", 409, seat=seat)
        deadline = deadline_of(table.clock, banks, seat)
        if deadline is not None and self.clock.now() >= deadline:
            raise server_refusal("out_of_time", "time_ran_out", 409, seat=seat)

    async def apply(
        self, table: LiveTable, actor: int, action: int, *, played_by: str | None = None
    ) -> int:
        """Apply, commit, then publish one action; the caller holds the table's lock.
        ``played_by`` (a stand-in's mode): a bot chose it for a human seat, which the log,
        the replay and the stored action say."""
        state = table.state
        plain = state.action_to_string(action)
        texts = [state.action_text_for(action, v) for v in viewers(table.players)]
        new = state.clone()
        try:
            new.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError.of("illegal", exc, 409) from None
        seq = table.seq + 1
        terminal = new.is_terminal()
        now = self.clock.now()
        every = self.snapshot_every
        write = ActionWrite(
            table_id=table.id,
            seq=seq,
            seat=actor,
            action=plain,
            created=now,
            status=FINISHED if terminal else table.status,
            ranking=ranking_order(new, table.forfeits) if terminal else None,
            finished=now if terminal else None,
            snapshot=new.to_json() if terminal or (every > 0 and seq % every == 0) else None,
            played_by=played_by,
            notice=None
            if self.origin is None
            else notice(ACTION_NOTICE, table.id, self.origin, str(seq)),
        )
        try:
            await self.store.store_action(write)
        except SeqTakenError:
            await self.catch_up(table)
            raise server_refusal("stale", "stored_first", 409, seq=seq - 1) from None
        except StoreUnavailableError as exc:
            log.error("table %s: cannot store action %d: %s", table.id, seq, exc)
            raise server_refusal("unavailable", "not_stored", 503) from None
        self._commit(table, new, texts, Committed(seq, actor, plain, now, played_by, True))
        return seq

    async def catch_up(self, table: LiveTable, *, strict: bool = False) -> int:
        """Apply the actions another writer stored for ``table`` after its seq (the caller
        holds the table's lock); how many. A store that cannot be read: logged, 0, or
        with ``strict`` ProtocolError(unavailable)."""
        try:
            rows = await self.store.actions_after(table.id, table.seq)
        except StoreUnavailableError as exc:
            log.error("table %s: cannot read the actions stored elsewhere: %s", table.id, exc)
            if strict:
                raise server_refusal("unavailable", "not_read", 503) from None
            return 0
        done = 0
        for row in rows:
            if row.seq != table.seq + 1:
                break
            state = table.state
            if row.seat != state.current_player():
                log.error(
                    "table %s: stored action %d is seat %d's, but seat %d is to move",
                    table.id,
                    row.seq,
                    row.seat,
                    state.current_player(),
                )
                break
            try:
                action = state.parse_action(row.action)
            except PyramidsError as exc:
                log.error("table %s: stored action %d does not apply: %s", table.id, row.seq, exc)
                break
            texts = [state.action_text_for(action, v) for v in viewers(table.players)]
            new = state.clone()
            new.apply(action)
            committed = Committed(row.seq, row.seat, row.action, row.created, row.played_by, False)
            self._commit(table, new, texts, committed)
            done += 1
        return done

    def _commit(
        self, table: LiveTable, new: State, texts: Sequence[str], committed: Committed
    ) -> None:
        """Make a committed action live: the table's state, logs and times; then publish
        and schedule."""
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        table.state = new
        table.changed(state=True)  # the views, legal moves and time banks were the old state's
        table.seq = committed.seq
        table.saw()
        table.actions.append((committed.actor, committed.action))
        table.action_times.append(committed.created)
        if committed.played_by is not None:
            table.stand_ins[table.seq] = committed.played_by
        event = stand_in_event(committed.played_by, committed.actor, table.seats)
        for i, entry in enumerate(log_entries(new, table.seq, committed.actor, texts, event)):
            table.logs[i].append(encode(entry))
        if new.is_terminal():
            table.status = FINISHED
            table.ranking = ranking_order(new, table.forfeits)
            table.finished = table.finished or committed.created
        self.publisher.publish(table, committed)
        self.scheduler.committed(table, committed)
