"""The timers of a human's decision: the table's ``turn_time`` and the players' clocks.

When a human seat is to move, :meth:`Timers.start` sets the end of its decision: the
deadline of its clock (``clocks.py``: computed from the stored times of the actions, so
any instance that takes the table over computes the same one) or else ``turn_time``
seconds. At that end the stand-in plays the decision, or the seat forfeits on time. Only
the owner of a table runs its timers (``bots.ServerMoveScheduler.schedule`` starts them).
:class:`Timers` receives the runtime as the few operations it uses
(``ports.TimersRuntime``); its timers are the runtime's clock's.

No game stalls (issue 29): every table without a clock has a ``turn_time`` above 0. A
creator who does not say gets the server's default (:func:`turn_time_of`:
``Settings.rated_turn_time``, 5 minutes, at a rated table; ``Settings.turn_time``, 10
minutes, elsewhere); a rated table's is 30 s to 30 minutes (:data:`RATED_TURN_TIME_MIN`,
:data:`RATED_TURN_TIME_MAX`), and a seat of a rated table that lets
:data:`FORFEIT_AFTER_TIMEOUTS` turn times in a row run out forfeits (the forfeit path of
the clocks: ranked last, the game over when one seat is left). A table stored before
(``turn_time`` 0) gets the default when it is loaded (:func:`resumed_turn_time`).
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import partial

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from pyramids.core.clock import deadline_of, timed_out_run
from pyramids.server import store
from pyramids.server.clocks import FORFEIT, FORFEITED
from pyramids.server.config import MAX_TURN_TIME, Settings
from pyramids.server.live import FINISHED, RUNNING, LiveTable
from pyramids.server.ports import BotMode, TimersRuntime
from pyramids.server.protocol import ProtocolError
from pyramids.server.schemas import PaceOut
from pyramids.server.standings import ranking_order
from pyramids.server.table_log import forfeit_end_entry

log = logging.getLogger("pyramids.server")

RATED_TURN_TIME_MIN = 30.0
"""The shortest ``turn_time`` (seconds) a creator may give a rated table: shorter, and the
forfeit after :data:`FORFEIT_AFTER_TIMEOUTS` turn times would be a trap set for whoever
takes the other seat (a real-time clock is the way to play faster)."""
RATED_TURN_TIME_MAX = 1800.0
"""The longest ``turn_time`` (seconds) of a rated table: nobody holds a rated opponent more
than half an hour on one decision (games over days have a turn-based clock, which the
lobby shows as such)."""
FORFEIT_AFTER_TIMEOUTS = 3
"""At a rated table, the turn times in a row a seat may let run out: at the third the seat
forfeits instead of getting one more stand-in. Moves the absence takeover makes neither
count nor break the run; a move of the player's own does. Unrated tables never forfeit
this way: the stand-in plays on, and the others keep their game."""


def turn_time_of(asked: float, *, rated: bool, clocked: bool, defaults: Settings) -> float:
    """The ``turn_time`` of a new table: ``asked``, or the server's default for its kind
    when ``asked`` is 0 (not said). ProtocolError ``bad_turn_time`` (422) for a rated
    table's outside 30 s to 30 minutes; with a clock (``clocked``) ``turn_time`` is not
    used, so only the default is filled in."""
    if asked <= 0:
        return defaults.rated_turn_time if rated else defaults.turn_time
    if rated and not clocked and not RATED_TURN_TIME_MIN <= asked <= RATED_TURN_TIME_MAX:
        raise ProtocolError(
            "bad_turn_time",
            f"a rated table's turn_time is {RATED_TURN_TIME_MIN:g} to {RATED_TURN_TIME_MAX:g} "
            f"seconds, not {asked:g} (leave it out for {defaults.rated_turn_time:g}; for "
            "games over days give the table a turn-based clock)",
            422,
        )
    return min(asked, MAX_TURN_TIME)


def pace_of(defaults: Settings) -> PaceOut:
    """The deadlines per move a new table gets on this server (``GET /api/games``)."""
    return PaceOut(
        turn_time=defaults.turn_time,
        rated_turn_time=defaults.rated_turn_time,
        rated_turn_time_min=RATED_TURN_TIME_MIN,
        rated_turn_time_max=RATED_TURN_TIME_MAX,
        forfeit_after=FORFEIT_AFTER_TIMEOUTS,
    )


def resumed_turn_time(stored: float, *, rated: bool, defaults: Settings) -> float:
    """The ``turn_time`` of a stored table as it is loaded: a table stored before every
    table had one (0) gets the default of its kind; a rated table's is brought within
    the rated bounds (it was stored before they existed)."""
    if stored <= 0:
        return defaults.rated_turn_time if rated else defaults.turn_time
    if rated:
        return min(max(stored, RATED_TURN_TIME_MIN), RATED_TURN_TIME_MAX)
    return stored


def timeouts_in_a_row(table: LiveTable, seat: int) -> int:
    """How many of ``seat``'s latest decisions in a row the stand-in made because its
    ``turn_time`` ran out (the absence takeover's moves are skipped; its own move ends the
    run)."""
    decided = [(who, table.stand_ins.get(seq)) for seq, (who, _) in enumerate(table.actions, 1)]
    return len(timed_out_run(decided, seat))


class Timers:
    """Starts, ends and cancels the decision timers of the tables this instance owns."""

    def __init__(self, runtime: TimersRuntime) -> None:
        self.runtime = runtime

    def start(self, table: LiveTable, seq: int, seat: int) -> None:
        """Human ``seat`` is to move at ``seq``: set its clock's deadline or ``turn_time``."""
        if table.clock is not None:
            banks = table.banks()
            deadline = deadline_of(table.clock, banks, seat) if banks is not None else None
            if deadline is not None:
                clock = self.runtime.clock
                wait = (deadline - clock.now()).total_seconds()
                table.turn_timer = clock.call_later(wait, self.clock_over, table, seq, seat)
        elif table.settings.turn_time > 0:
            table.turn_timer = self.runtime.clock.call_later(
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
        left = (deadline - self.runtime.clock.now()).total_seconds()
        if left > 0:  # a timer a little early: wait for the rest
            table.turn_timer = self.runtime.clock.call_later(
                left, self.clock_over, table, seq, seat
            )
            return
        if clock.on_expiry == FORFEIT:
            self.runtime.spawn(table, self.forfeit(table, seq, seat))
            return
        self._stand_in(table, seq, seat, BotMode.CLOCK)

    def turn_over(self, table: LiveTable, seq: int, seat: int) -> None:
        """``turn_time`` passed at ``seq``: the takeover bot plays this one decision; at a
        rated table the seat forfeits instead when this is its third in a row."""
        table.turn_timer = None
        if table.seq != seq or table.status != RUNNING or table.state.current_player() != seat:
            return
        if table.rated and timeouts_in_a_row(table, seat) + 1 >= FORFEIT_AFTER_TIMEOUTS:
            log.info(
                "table %s: seat %d let %d turn times in a row run out",
                table.id,
                seat,
                FORFEIT_AFTER_TIMEOUTS,
            )
            self.runtime.spawn(table, self.forfeit(table, seq, seat))
            return
        self._stand_in(table, seq, seat, BotMode.TIMEOUT)

    def _stand_in(self, table: LiveTable, seq: int, seat: int, mode: BotMode) -> None:
        """The takeover bot plays ``seat``'s one decision at ``seq``, at once."""
        runtime = self.runtime
        spec = runtime.settings.bot_spec(table.settings.takeover_bot)
        runtime.spawn(table, runtime.moves.bot(table, seq, seat, spec=spec, delay=0.0, mode=mode))

    async def forfeit(self, table: LiveTable, seq: int, seat: int) -> None:
        """Seat ``seat`` forfeits on time at ``seq`` (stored before it shows)."""
        try:
            await self.runtime.moves.until_stored(
                table, seq, "forfeit", partial(self._forfeit_locked, table, seq, seat)
            )
        except Exception:
            log.exception("table %s: the forfeit of seat %d at seq %d failed", table.id, seat, seq)

    async def _forfeit_locked(self, table: LiveTable, seq: int, seat: int) -> None:
        """Store the forfeit; with one seat left standing the game ends here (``ended``
        ``forfeit``, ranking by ``standings.placements``), else the bot plays the seat on."""
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
            runtime = self.runtime
            now = runtime.clock.now()

            def job(conn: Connection) -> bool:
                stored = store.record_forfeit(
                    conn, table_id=table.id, forfeits=forfeits, now=now, ranking=ranking
                )
                if stored:
                    runtime.notify_changed(conn, table)
                return stored

            try:
                stored = await runtime.write(job)
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
                runtime.end_by_forfeit(table, seat, ranking, now)
            table.changed(state=True)
            table.broadcast_table()
            table.broadcast_state()
            runtime.moves.reschedule(table)


def forfeit_end(table: LiveTable, seat: int, ranking: list[int], now: dt.datetime) -> None:
    """Mark ``table`` finished by ``seat``'s forfeit (memory only; stored by the caller)."""
    table.status = FINISHED
    table.ended = FORFEITED
    table.ranking = ranking
    table.finished = now
    for entries in table.logs:
        entries.append(forfeit_end_entry(table.seq, seat, table.seats))
