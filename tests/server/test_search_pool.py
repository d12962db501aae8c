"""Fair use of the search bots' workers (server/search.py): tables with a human seat first.

"Bots at tables with humans go before all-bot tables; an all-bot table cannot take more
than its share." Busy all-bot ISMCTS tables keep the pool's all-bot share full while a
human plays an ISMCTS bot; the pool's dispatch history must show the human table's
searches starting before any all-bot search queued ahead of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from pyramids.server.live import FINISHED, SeatSpec, TableSettings
from pyramids.server.search import Dispatch
from pyramids.server.tables import TableManager

from .conftest import make_settings

FAST = TableSettings(bot_delay=0.0, absent_after=0, turn_time=0, takeover_bot="greedy")
BUSY_TABLES = 4
BOT_REPLIES = 3
GENEROUS = 60.0
"""Seconds: a hang, not a timing assertion (the machine may be shared)."""


async def _until(check: Callable[[], bool], timeout: float = GENEROUS) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def test_bots_at_tables_with_people_go_before_busy_all_bot_tables(tmp_path: Path) -> None:
    """Four all-bot ISMCTS tables with no delay; a human plays an ISMCTS bot meanwhile."""

    async def scenario() -> tuple[list[Dispatch], set[str], list[float], int]:
        manager = TableManager(make_settings(tmp_path, ismcts_spec="ismcts:60"))
        await manager.start()
        try:
            pool = manager.searches
            busy = [
                (
                    await manager.create_table(
                        "flaming", [SeatSpec("bot", bot="ismcts")] * 3, {}, None, FAST
                    )
                )[0]
                for _ in range(BUSY_TABLES)
            ]
            # The all-bot share (one worker of two) is taken and other all-bot tables wait.
            await _until(lambda: pool.waiting >= BUSY_TABLES - pool.bot_share)
            table, invites = await manager.create_table(
                "flaming", [SeatSpec("human"), SeatSpec("bot", bot="ismcts")], {}, None, FAST
            )
            token = invites[0].token
            loop = asyncio.get_running_loop()
            waits: list[float] = []
            while len(waits) < BOT_REPLIES and table.status != FINISHED:
                if table.to_move == 0:
                    await manager.act_with_token(table, token, table.seq, table.legal_texts()[0])
                elif table.to_move == 1:
                    t0 = loop.time()
                    await _until(lambda: table.to_move != 1)
                    waits.append(loop.time() - t0)
                else:
                    await asyncio.sleep(0.01)
            assert all(t.status != FINISHED for t in busy), "the busy tables ended too soon"
            return list(pool.history), {t.id for t in busy}, waits, pool.bot_share
        finally:
            await manager.stop()

    history, busy_ids, waits, bot_share = asyncio.run(scenario())
    assert len(waits) == BOT_REPLIES
    assert all(w < GENEROUS for w in waits)

    queued = {d.job: i for i, d in enumerate(history) if d.event == "queued"}
    started = {d.job: i for i, d in enumerate(history) if d.event == "started"}
    human_jobs = [d.job for d in history if d.event == "queued" and d.human]
    assert len(human_jobs) >= BOT_REPLIES
    for job in human_jobs:
        assert job in started, "a human table's search never started"
        between = history[queued[job] + 1 : started[job]]
        assert not [d for d in between if d.event == "started" and not d.human], (
            "an all-bot search started while a human table's search waited"
        )
    # Some all-bot search was still waiting when each human search started: the human
    # table did not just find the pool idle.
    waiting_bots = 0
    running_bots: dict[str, int] = {}
    jumped = 0
    for d in history:
        if d.human:
            if d.event == "started" and waiting_bots > 0:
                jumped += 1
            continue
        assert d.table_id in busy_ids
        if d.event == "queued":
            waiting_bots += 1
        elif d.event == "started":
            waiting_bots -= 1
            running_bots[d.table_id] = running_bots.get(d.table_id, 0) + 1
            assert running_bots[d.table_id] == 1, "two searches at once for one all-bot table"
            assert sum(running_bots.values()) <= bot_share, "all-bot tables over their share"
        elif d.event == "done":
            running_bots[d.table_id] = running_bots.get(d.table_id, 1) - 1
    assert jumped >= 1
