"""The timers of a human's decision: the table's ``turn_time`` and the players' clocks.

When a human seat is to move, :meth:`Timers.start` sets the end of its decision: the
deadline of its clock (``clocks.py``: computed from the stored times of the actions, so
any instance that takes the table over computes the same one) or else ``turn_time``
seconds. At that end the stand-in plays the decision, or the seat forfeits on time. Only
the owner of a table runs its timers (``bots.ServerMoves.schedule`` starts them).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from functools import partial
from typing import TYPE_CHECKING

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from pyramids.server import store
from pyramids.server.clocks import FORFEIT, FORFEITED, deadline_of
from pyramids.server.live import (
    FINISHED,
    RUNNING,
    LiveTable,
    ProtocolError,
    forfeit_end_entry,
    ranking_order,
)

if TYPE_CHECKING:
    from pyramids.server.tables import TableManager

log = logging.getLogger("pyramids.server")


class Timers:
    """Starts, ends and cancels the decision timers of the tables this instance owns."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    def start(self, table: LiveTable, seq: int, seat: int) -> None:
        """Human ``seat`` is to move at ``seq``: set its clock's deadline or ``turn_time``."""
        if table.clock is not None:
            banks = table.banks()
            deadline = deadline_of(table.clock, banks, seat) if banks is not None else None
            if deadline is not None:
                wait = (deadline - self.m.clock.now()).total_seconds()
                table.turn_timer = self.m.clock.call_later(wait, self.clock_over, table, seq, seat)
        elif table.settings.turn_time > 0:
            loop = asyncio.get_running_loop()
            table.turn_timer = loop.call_later(
                table.settings.turn_time, self.turn_over, table, seq, seat
            )

    def cancel(self, table: LiveTable) -> None:
        """Stop the current decision's timer."""
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None

    def clock_over(self, table: LiveTable, seq: int, seat: int) -> None:
        """Seat ``seat``'s time ran out at ``seq``: the stand-in plays that decision, or the
        seat forfeits (the table's ``clock.on_expiry``)."""
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        banks, clock = table.banks(), table.clock
        deadline = deadline_of(clock, banks, seat) if clock and banks else None
        if clock is None or deadline is None:
            return
        left = (deadline - self.m.clock.now()).total_seconds()
        if left > 0:  # a timer a little early: wait for the rest
            table.turn_timer = self.m.clock.call_later(left, self.clock_over, table, seq, seat)
            return
        if clock.on_expiry == FORFEIT:
            self.m.spawn(table, self.forfeit(table, seq, seat))
            return
        spec = self.m.settings.bot_spec(table.settings.takeover_bot)
        self.m.spawn(table, self.m.moves.bot(table, seq, seat, spec=spec, delay=0.0, mode="clock"))

    def turn_over(self, table: LiveTable, seq: int, seat: int) -> None:
        """``turn_time`` passed at ``seq``: the takeover bot plays this one decision."""
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        spec = self.m.settings.bot_spec(table.settings.takeover_bot)
        self.m.spawn(
            table, self.m.moves.bot(table, seq, seat, spec=spec, delay=0.0, mode="timeout")
        )

    async def forfeit(self, table: LiveTable, seq: int, seat: int) -> None:
        """Seat ``seat`` forfeits on time at ``seq`` (stored before it shows)."""
        try:
            await self.m.moves.until_stored(
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
            now = self.m.clock.now()

            def job(conn: Connection) -> bool:
                stored = store.record_forfeit(
                    conn, table_id=table.id, forfeits=forfeits, now=now, ranking=ranking
                )
                if stored:
                    self.m.notify_changed(conn, table)
                return stored

            try:
                stored = await self.m.write(job)
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
                self.m.end_by_forfeit(table, seat, ranking, now)
            table.changed(state=True)
            table.broadcast_table()
            table.broadcast_state()
            self.m.moves.reschedule(table)


def forfeit_end(table: LiveTable, seat: int, ranking: list[int], now: dt.datetime) -> None:
    """Mark ``table`` finished by ``seat``'s forfeit (memory only; stored by the caller)."""
    table.status = FINISHED
    table.ended = FORFEITED
    table.ranking = ranking
    table.finished = now
    for entries in table.logs:
        entries.append(forfeit_end_entry(table.seq, seat, table.seats))
