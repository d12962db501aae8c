"""The moves the server makes itself: bots, chance draws and stand-ins for human seats.

:class:`ServerMoveScheduler` is the :class:`~pyramids.server.authority.Scheduler` of a
server. After every committed action it starts what does not wait for a human: the chance
draw (``fairness.chance_rng(seed, seq)``), a bot seat's move, the takeover bot of an absent
seat or of one that forfeited, or else the human's timer (``timers.py``). Only on the
instance that owns the table (``ownership.py``): another instance holding the table for
its sockets only follows it. Every move goes through the authority like a human's. Why a
bot decides is a :class:`~pyramids.server.ports.BotMode`.

The scheduler receives the runtime as the few operations it uses
(``ports.SchedulerRuntime``). A bot's pause (``bot_delay``) and the pause before a failed
write is tried again are the runtime's clock's (``Clock.sleep``), so a test with a
``clocks.ManualClock`` decides when they end.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from pyramids.bots.inference import Memory
from pyramids.core import CHANCE
from pyramids.core.fairness import chance_rng
from pyramids.games.engine import engine_of
from pyramids.server.authority import Committed
from pyramids.server.bot_runner import bot_action, bot_action_remembering
from pyramids.server.clocks import CLOCK, FORFEITED
from pyramids.server.live import FINISHED, RUNNING, LiveTable
from pyramids.server.ports import BotMode, SchedulerRuntime
from pyramids.server.protocol import ProtocolError
from pyramids.server.table_log import ABSENT, TIMEOUT

log = logging.getLogger("pyramids.server")

INLINE_BOTS = frozenset({"random", "beginner", "greedy"})
"""Bot specs cheap enough to decide on the event loop; search bots use worker processes
(``search.SearchPool``: tables with a human seat first)."""
PLAYED_BY = {
    BotMode.TIMEOUT: TIMEOUT,
    BotMode.TAKEOVER: ABSENT,
    BotMode.CLOCK: CLOCK,
    BotMode.FORFEIT: FORFEITED,
}
"""The stand-in modes of ``bot`` that play a human seat, and what its log entry says."""
FALLBACK_BOT = "greedy"
"""Plays a search bot's move when its worker process died, so the table never stalls."""
RETRY_FIRST = 0.1
"""Seconds before a server-made move (bot, chance, stand-in, timeout) whose write failed is
tried again; the wait doubles after each failure up to ``RETRY_MAX``."""
RETRY_MAX = 5.0


class ServerMoveScheduler:
    """Schedules and plays the server's own moves for the tables this instance owns."""

    def __init__(self, runtime: SchedulerRuntime) -> None:
        self.runtime = runtime

    # --- the Scheduler ---------------------------------------------------------------------

    def committed(self, table: LiveTable, committed: Committed) -> None:
        """After a commit: at the end of the game stop the timers and run the finished
        hooks (where the table is owned, or where its last action was committed: a hook is
        idempotent); otherwise start the next move."""
        if table.status == FINISHED:
            self.runtime.game_over(table, run_hooks=committed.here or self.runtime.owns(table))
            return
        self.schedule(table)

    # --- what comes next -------------------------------------------------------------------

    def resume(self, table: LiveTable) -> None:
        """Start what a running table needs: absence clocks and the next server move."""
        if table.status != RUNNING or not self.runtime.owns(table):
            return
        for s in table.seats:
            if s.is_human and not s.present:
                self.runtime.presence.start_absence(table, s.seat)
        self.reschedule(table)

    def reschedule(self, table: LiveTable) -> None:
        """Forget what was scheduled for the current seq and schedule it again."""
        table.scheduled_seq = -1
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        self.schedule(table)

    def schedule(self, table: LiveTable) -> None:
        """Start the move that does not wait for a human: chance, a bot, a stand-in; or the
        human's timer. Once per seq; nothing unless this instance owns the table."""
        runtime = self.runtime
        if runtime.stopping or table.status != RUNNING or table.state.is_terminal():
            return
        if table.scheduled_seq == table.seq or not runtime.owns(table):
            return
        table.scheduled_seq = seq = table.seq
        to_move = table.state.current_player()
        if to_move == CHANCE:
            runtime.spawn(table, self.chance(table, seq))
            return
        s = table.seats[to_move]
        if not s.is_human:
            self._play(table, seq, to_move, s.bot or "greedy", BotMode.BOT)
        elif to_move in table.forfeits:
            self._play(table, seq, to_move, table.settings.takeover_bot, BotMode.FORFEIT)
        elif s.taken_over:
            self._play(table, seq, to_move, table.settings.takeover_bot, BotMode.TAKEOVER)
        else:
            runtime.timers.start(table, seq, to_move)

    def _play(self, table: LiveTable, seq: int, seat: int, bot: str, mode: BotMode) -> None:
        """Start ``bot``'s move for ``seat`` at ``seq``, after the table's ``bot_delay``."""
        spec = self.runtime.settings.bot_spec(bot)
        delay = table.settings.bot_delay
        self.runtime.spawn(table, self.bot(table, seq, seat, spec=spec, delay=delay, mode=mode))

    # --- playing ---------------------------------------------------------------------------

    async def chance(self, table: LiveTable, seq: int) -> None:
        """Draw and apply the chance outcome of seq with ``fairness.chance_rng(seed, seq)``."""
        try:
            await self.until_stored(table, seq, "chance", partial(self._chance_locked, table, seq))
        except Exception:
            log.exception("table %s: the chance draw at seq %d failed", table.id, seq)

    async def _chance_locked(self, table: LiveTable, seq: int) -> None:
        async with table.lock:
            state = table.state
            if table.seq != seq or table.status != RUNNING or state.current_player() != CHANCE:
                return
            action = state.sample_chance(chance_rng(table.seed, seq))
            await self.runtime.authority.apply(table, CHANCE, action)

    async def until_stored(
        self,
        table: LiveTable,
        seq: int,
        what: str,
        attempt: Callable[[], Coroutine[Any, Any, Any]],
    ) -> None:
        """Apply a move the server makes (``attempt``); while its write fails because the
        storage is unavailable, try again after RETRY_FIRST seconds, doubling up to RETRY_MAX,
        as long as the table still waits at ``seq`` (pauses of the runtime's clock). Nothing
        else would: ``scheduled_seq``
        already names this seq. A refusal of another kind (stale, finished) drops the move;
        a retry after a write that did commit is refused by the (table, seq) key and
        catches up from the database instead, so nothing is stored twice."""
        wait = RETRY_FIRST
        failures = 0
        while True:
            try:
                await self.runtime.critical(attempt())
            except ProtocolError as exc:
                if exc.code != "unavailable" or self.runtime.stopping or table.seq != seq:
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
            await self.runtime.clock.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)

    async def bot(
        self, table: LiveTable, seq: int, seat: int, *, spec: str, delay: float, mode: BotMode
    ) -> None:
        """Let a bot decide for ``seat`` at ``seq`` (seeing only its view), then apply it
        once ``delay`` seconds of the runtime's clock passed since it started thinking.
        ``mode``: a bot seat's own move or a stand-in's (:class:`BotMode`)."""
        state = table.state
        if table.seq != seq or state.current_player() != seat:
            return
        runtime = self.runtime
        started = runtime.clock.monotonic()
        rng = random.Random(f"{table.seed}/bot/{seat}/{seq}")
        try:
            view, legal = state.view(seat), state.legal_actions()
            engine = engine_of(state)  # the bot searches on its table's engine
            memory: Memory | None = None
            if spec in INLINE_BOTS:
                action = bot_action(spec, view, legal, rng, engine)  # well under a millisecond
            else:
                # people really there, not bound seats; asked again when its turn comes
                human = partial(runtime.presence.has_person, table)
                try:
                    action, memory = await runtime.searches.run(
                        table.id,
                        human,
                        partial(bot_action_remembering, engine=engine),
                        spec,
                        view,
                        legal,
                        rng,
                        (table.bot_memory.get(seat), table.seen_by(seat)),
                    )
                except BrokenProcessPool:
                    log.error(
                        "table %s: the %s bot's worker process died at seq %d; %s plays",
                        table.id,
                        spec,
                        seq,
                        FALLBACK_BOT,
                    )
                    action = bot_action(FALLBACK_BOT, view, legal, rng, engine)
            wait = delay - (runtime.clock.monotonic() - started)
            if wait > 0:
                await runtime.clock.sleep(wait)

            def still_valid() -> bool:
                if not runtime.owns(table):
                    return False  # the table moved to another instance meanwhile
                s = table.seats[seat]
                if mode == BotMode.TAKEOVER:
                    return s.taken_over
                if mode in (BotMode.TIMEOUT, BotMode.CLOCK):
                    return not s.taken_over and seat not in table.forfeits
                if mode == BotMode.FORFEIT:
                    return seat in table.forfeits
                return True

            move = partial(
                runtime.authority.act,
                table,
                seat,
                seq,
                action=action,
                still_valid=still_valid,
                played_by=PLAYED_BY.get(mode),
            )
            await self.until_stored(table, seq, mode, move)
            if len(table.actions) > seq and table.actions[seq][0] == seat:
                table.decided(seat, seq, memory)  # recalled at its next decision
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the %s bot failed at seq %d", table.id, spec, seq)
