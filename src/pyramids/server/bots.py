"""The moves the server makes itself: bots, chance draws and stand-ins for human seats.

:class:`ServerMoves` is the :class:`~pyramids.server.authority.Scheduler` of a server.
After every committed action it starts what does not wait for a human: the chance draw
(``fairness.chance_rng(seed, seq)``), a bot seat's move, the takeover bot of an absent
seat or of one that forfeited, or else the human's timer (``timers.py``). Only on the
instance that owns the table (``ownership.py``): another instance holding the table for
its sockets only follows it. Every move goes through the authority like a human's.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TYPE_CHECKING, Any

from pyramids.bots.inference import Memory
from pyramids.core import CHANCE
from pyramids.core.fairness import chance_rng
from pyramids.server.authority import Committed
from pyramids.server.clocks import CLOCK, FORFEITED
from pyramids.server.live import (
    ABSENT,
    FINISHED,
    RUNNING,
    TIMEOUT,
    LiveTable,
    ProtocolError,
    think,
    think_on,
)

if TYPE_CHECKING:
    from pyramids.server.tables import TableManager

log = logging.getLogger("pyramids.server")

INLINE_BOTS = frozenset({"random", "beginner", "greedy"})
"""Bot specs cheap enough to decide on the event loop; search bots use worker processes
(``search.SearchPool``: tables with a human seat first)."""
PLAYED_BY = {"timeout": TIMEOUT, "takeover": ABSENT, "clock": CLOCK, "forfeit": FORFEITED}
"""The stand-in modes of ``bot`` that play a human seat, and what its log entry says."""
FALLBACK_BOT = "greedy"
"""Plays a search bot's move when its worker process died, so the table never stalls."""
RETRY_FIRST = 0.1
"""Seconds before a server-made move (bot, chance, stand-in, timeout) whose write failed is
tried again; the wait doubles after each failure up to ``RETRY_MAX``."""
RETRY_MAX = 5.0


class ServerMoves:
    """Schedules and plays the server's own moves for the tables this instance owns."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    # --- the Scheduler ---------------------------------------------------------------------

    def committed(self, table: LiveTable, committed: Committed) -> None:
        """After a commit: at the end of the game stop the timers and run the finished
        hooks (where the table is owned, or where its last action was committed: a hook is
        idempotent); otherwise start the next move."""
        if table.status == FINISHED:
            self.m.game_over(table, run_hooks=committed.here or self.m.owns(table))
            return
        self.schedule(table)

    # --- what comes next -------------------------------------------------------------------

    def resume(self, table: LiveTable) -> None:
        """Start what a running table needs: absence clocks and the next server move."""
        if table.status != RUNNING or not self.m.owns(table):
            return
        for s in table.seats:
            if s.is_human and not s.present:
                self.m.presence.start_absence(table, s.seat)
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
        m = self.m
        if m.stopping or table.status != RUNNING or table.state.is_terminal():
            return
        if table.scheduled_seq == table.seq or not m.owns(table):
            return
        table.scheduled_seq = seq = table.seq
        to_move = table.state.current_player()
        delay = table.settings.bot_delay
        if to_move == CHANCE:
            m.spawn(table, self.chance(table, seq))
            return
        s = table.seats[to_move]
        if not s.is_human:
            spec = m.settings.bot_spec(s.bot or "greedy")
            m.spawn(table, self.bot(table, seq, to_move, spec=spec, delay=delay, mode="bot"))
        elif to_move in table.forfeits:
            spec = m.settings.bot_spec(table.settings.takeover_bot)
            m.spawn(table, self.bot(table, seq, to_move, spec=spec, delay=delay, mode="forfeit"))
        elif s.taken_over:
            spec = m.settings.bot_spec(table.settings.takeover_bot)
            m.spawn(table, self.bot(table, seq, to_move, spec=spec, delay=delay, mode="takeover"))
        else:
            m.timers.start(table, seq, to_move)

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
            await self.m.authority.apply(table, CHANCE, action)

    async def until_stored(
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
                await self.m.critical(attempt())
            except ProtocolError as exc:
                if exc.code != "unavailable" or self.m.stopping or table.seq != seq:
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

    async def bot(
        self, table: LiveTable, seq: int, seat: int, *, spec: str, delay: float, mode: str
    ) -> None:
        """Let a bot decide for ``seat`` at ``seq`` (seeing only its view), then apply it.
        ``mode``: ``bot`` (a bot seat) or the stand-in's (``takeover``, ``timeout``,
        ``clock``, ``forfeit``)."""
        state = table.state
        if table.seq != seq or state.current_player() != seat:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        rng = random.Random(f"{table.seed}/bot/{seat}/{seq}")
        try:
            view, legal = state.view(seat), state.legal_actions()
            memory: Memory | None = None
            if spec in INLINE_BOTS:
                action = think(spec, view, legal, rng)  # well under a millisecond
            else:
                # people really there, not bound seats; asked again when its turn comes
                human = partial(self.m.presence.has_person, table)
                try:
                    action, memory = await self.m.searches.run(
                        table.id,
                        human,
                        think_on,
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
                    action = think(FALLBACK_BOT, view, legal, rng)
            wait = delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)

            def still_valid() -> bool:
                if not self.m.owns(table):
                    return False  # the table moved to another instance meanwhile
                s = table.seats[seat]
                if mode == "takeover":
                    return s.taken_over
                if mode in ("timeout", "clock"):
                    return not s.taken_over and seat not in table.forfeits
                if mode == "forfeit":
                    return seat in table.forfeits
                return True

            move = partial(
                self.m.authority.act,
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
