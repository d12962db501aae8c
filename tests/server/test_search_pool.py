"""Fair use of the search bots' workers (server/search.py): tables with a human seat first.

"Bots at tables with humans go before all-bot tables; an all-bot table cannot take more
than its share." Busy all-bot ISMCTS tables keep the pool's all-bot share full while a
human plays an ISMCTS bot; the pool's dispatch history must show the human table's
searches starting before any all-bot search queued ahead of them.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from pyramids.server.live import FINISHED, SeatSpec
from pyramids.server.search import ANALYSIS, HINT, Dispatch, SearchPool
from pyramids.server.table_settings import TableSettings
from pyramids.server.tables import TableManager
from tests.waiting import until

from .conftest import make_settings

FAST = TableSettings(bot_delay=0.0, absent_after=0, turn_time=0, takeover_bot="greedy")
BUSY_TABLES = 4
BOT_REPLIES = 3


def test_bots_at_tables_with_people_go_before_busy_all_bot_tables(tmp_path: Path) -> None:
    """Four all-bot ISMCTS tables with no delay; a human plays an ISMCTS bot meanwhile."""

    async def scenario() -> tuple[list[Dispatch], set[str], int, int]:
        manager = TableManager(make_settings(tmp_path, ismcts_spec="ismcts:60"))
        await manager.start()
        try:
            pool = manager.searches
            busy = [
                (
                    await manager.seating.create_table(
                        "flaming", [SeatSpec("bot", bot="ismcts")] * 3, {}, None, FAST
                    )
                )[0]
                for _ in range(BUSY_TABLES)
            ]
            # The all-bot share (one worker of two) is taken and other all-bot tables wait.
            await until(
                lambda: pool.waiting >= BUSY_TABLES - pool.bot_share, "all-bot searches waiting"
            )
            table, invites = await manager.seating.create_table(
                "flaming", [SeatSpec("human"), SeatSpec("bot", bot="ismcts")], {}, None, FAST
            )
            token = (await manager.seating.seat_of(table, invites[0].token)).token  # its credential
            assert token is not None
            replies = 0
            while replies < BOT_REPLIES and table.status != FINISHED:
                if table.to_move == 0:
                    await manager.act_with_token(table, token, table.seq, table.legal_texts()[0])
                elif table.to_move == 1:
                    await until(lambda: table.to_move != 1, "the bot's reply")
                    replies += 1
                else:  # the chance draw, a task of the server
                    await until(lambda: table.to_move != -1, "the chance draw")
            assert all(t.status != FINISHED for t in busy), "the busy tables ended too soon"
            return list(pool.history), {t.id for t in busy}, replies, pool.bot_share
        finally:
            await manager.stop()

    history, busy_ids, replies, bot_share = asyncio.run(scenario())
    assert replies == BOT_REPLIES

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


def _search_for_ten_minutes(marker: str) -> None:
    """A search that holds its worker for ten minutes, once it has said it started."""
    Path(marker).touch()
    time.sleep(600)  # the worker's payload, not a wait of the test: shutdown must cut it


def test_shutdown_stops_the_running_search_and_drops_the_waiting_ones(tmp_path: Path) -> None:
    """What SIGTERM under load relies on (tests/server/test_hardening.py): the pool's
    shutdown waits for no search. A worker ten minutes into its search is stopped, a
    search still waiting is dropped, and a later search is refused."""

    async def scenario() -> None:
        pool = SearchPool(workers=1, reserved=0)
        marker = tmp_path / "searching"
        running = asyncio.ensure_future(pool.run("a", False, _search_for_ten_minutes, str(marker)))
        waiting = asyncio.ensure_future(pool.run("b", True, _search_for_ten_minutes, "-"))
        await until(marker.exists, "the worker's search under way")
        executor = pool._executor
        assert executor is not None and pool.waiting == 1
        workers = list(executor._processes.values())  # type: ignore[attr-defined]
        pool.shutdown()
        await asyncio.wait([waiting])
        assert waiting.cancelled()
        await until(lambda: not any(p.is_alive() for p in workers), "the worker stopped")
        with pytest.raises(BrokenProcessPool):
            await pool.run("c", True, _search_for_ten_minutes, "-")
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    asyncio.run(scenario())


def _hold_until(started: str, gate: str) -> str:
    """A search that says it started, then holds its worker until ``gate`` exists."""
    Path(started).touch()
    while not Path(gate).exists():
        time.sleep(0.01)  # the worker's payload: it waits for the test to open the gate
    return started


def test_hints_go_after_the_people_s_bots_and_analyses_with_the_all_bot_tables(
    tmp_path: Path,
) -> None:
    """With one worker busy, the waiting searches start in this order: a human table's
    bot, the hints (first come first served), then the all-bot round, in which an
    analysis takes its turn as one more table; each ticket's ``position`` says how many
    go before it."""

    async def scenario() -> None:
        pool = SearchPool(workers=1, reserved=0)
        gate = str(tmp_path / "gate")
        busy = str(tmp_path / "busy")
        first = pool.submit("t0", True, _hold_until, busy, gate)
        await until(Path(busy).exists, "the first search under way")
        names = ["analysis", "allbot", "hint1", "human", "hint2"]
        mark = {name: str(tmp_path / name) for name in names}
        tickets = {
            "analysis": pool.submit(
                "t1", False, _hold_until, mark["analysis"], gate, kind=ANALYSIS
            ),
            "allbot": pool.submit("t2", False, _hold_until, mark["allbot"], gate),
            "hint1": pool.submit("t3", True, _hold_until, mark["hint1"], gate, kind=HINT),
            "human": pool.submit("t4", True, _hold_until, mark["human"], gate),
            "hint2": pool.submit("t5", True, _hold_until, mark["hint2"], gate, kind=HINT),
        }
        assert first.position() == 0 and first.started
        positions = {name: tickets[name].position() for name in names}
        assert positions == {"human": 0, "hint1": 1, "hint2": 2, "analysis": 3, "allbot": 4}
        assert pool.waiting_of(HINT) == 2 and pool.waiting_of(ANALYSIS) == 1
        Path(gate).touch()
        await first.future
        done = [await tickets[name].future for name in names]
        assert done == [mark[name] for name in names]
        order = [d.job for d in pool.history if d.event == "started"][1:]
        numbers = {name: n for n, name in enumerate(names, start=2)}
        assert order == [numbers[n] for n in ("human", "hint1", "hint2", "analysis", "allbot")]
        pool.shutdown()

    asyncio.run(scenario())
