"""The sweep of open tables (``server/expiry.py``) runs on the runtime's clock.

``open_table_ttl``: "an open table nobody started within it is marked expired". The server
sweeps every quarter of the ttl (at least once a minute): with a ttl of 600 s, every 60 s
of the runtime's clock. A test drives that clock (``ManualClock``), so no real time passes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from pyramids.server.clocks import ManualClock
from pyramids.server.config import LimitSettings
from pyramids.server.live import EXPIRED, OPEN, SeatSpec
from pyramids.server.table_settings import TableSettings
from pyramids.server.tables import TableManager
from tests.server.conftest import make_settings
from tests.waiting import until

TTL = 600.0
SWEEP = 60.0
"""Seconds of the clock between two sweeps with a ttl of 600 s (its quarter, capped at 60)."""
PLAIN = TableSettings(bot_delay=0.0, absent_after=0.0, turn_time=0.0, takeover_bot="greedy")


def test_the_sweep_expires_an_open_table_on_the_runtimes_clock(tmp_path: Path) -> None:
    """A table nobody joined is still open after the sweep that follows 599 s, and expired
    by the first sweep after its 600 s (at 660 s), with nobody asking for the sweep."""
    limits = LimitSettings(open_table_ttl=TTL, min_all_bot_delay=0.0, exempt="testclient")

    async def scenario() -> list[tuple[str, object]]:
        clock = ManualClock()
        manager = TableManager(make_settings(tmp_path, limits=limits), clock)
        await manager.start()
        try:
            assert manager.expiry.every == SWEEP
            seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")]
            table, _ = await manager.seating.create_table("flaming", seats, {}, None, PLAIN)
            asleep = clock.now() + dt.timedelta(seconds=SWEEP)
            await until(lambda: asleep in clock.pending(), "the sweeper's first pause")
            clock.advance(TTL - 1)
            # the sweep woken at 599 s has run once the sweeper sleeps again (till 659 s)
            again = clock.now() + dt.timedelta(seconds=SWEEP)
            await until(lambda: again in clock.pending(), "the sweep at 599 s")
            seen: list[tuple[str, object]] = [("599 s", table.status)]
            clock.advance(SWEEP + 1)
            await until(lambda: table.status == EXPIRED, "the sweep at 660 s")
            seen.append(("660 s", table.status))
            return seen
        finally:
            await manager.stop()

    assert asyncio.run(scenario()) == [("599 s", OPEN), ("660 s", EXPIRED)]
