"""The table authority on in-memory fakes: validate, apply, commit, publish, schedule.

Issue #16: "the table authority (validate, apply, commit, publish) takes a store, a clock,
a publisher and a scheduler; ... unit tests run it with in-memory fakes". The fakes are
in ``tests/server/fakes.py``; the games are the real rules engines (Flaming Pyramids, and
Pyramids and Flags where hidden hands matter). Each test's body runs in one event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
import pytest

from pyramids.core import CHANCE
from pyramids.core.fairness import chance_rng
from pyramids.server.authority import Authority, Committed
from pyramids.server.clocks import CLOCK, FORFEITED, ManualClock
from pyramids.server.live import EXPIRED, FINISHED, OPEN, RUNNING, LiveTable
from pyramids.server.protocol import ProtocolError
from pyramids.server.pubsub import Notice
from pyramids.server.rebuild import rebuild
from pyramids.server.standings import ranking_order
from pyramids.server.store import SeatRecord, TableRecord
from pyramids.server.table_log import ABSENT, TIMEOUT
from tests.server.fakes import (
    TABLE_ID,
    MemoryActionStore,
    Parts,
    facts,
    live_table,
    memory_authority,
    playout,
)

T = TypeVar("T")

EPOCH = ManualClock.EPOCH
CLOCK_60S = {"mode": "realtime", "bank": 60.0}
"""A clock of 60 seconds per seat for the whole game, nothing added per move."""


def run(body: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a test's async body in a fresh event loop."""
    return asyncio.run(body())


async def refusal(coro: Coroutine[Any, Any, int]) -> ProtocolError:
    """The ProtocolError that ``coro`` (an act) raises; fails the test if it commits."""
    with pytest.raises(ProtocolError) as info:
        await coro
    return info.value


def nothing_happened(parts: Parts) -> bool:
    """Nothing was stored, published or scheduled."""
    return (
        not parts.store.rows
        and not parts.publisher.published
        and not parts.scheduler.calls
        and not parts.journal
    )


def last_entry(table: LiveTable, viewer: int) -> dict[str, Any]:
    """The last log entry ``viewer`` sees (decoded)."""
    data: dict[str, Any] = orjson.loads(table.logs[viewer][-1])
    return data


# --- the order of a commit --------------------------------------------------------------------


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_a_legal_action_is_committed_then_published_then_scheduled(game: str) -> None:
    """The authority docstring: "commit; and only then swap in the new state, extend the
    per-viewer logs, publish and schedule"; every viewer gets its own view."""
    parts = memory_authority()
    table = live_table(game)
    text = table.legal_texts()[0]

    async def body() -> int:
        return await parts.authority.act(table, 0, 0, text=text)

    assert run(body) == 1
    assert parts.journal == [("store", 1), ("publish", 1), ("schedule", 1)]
    committed = Committed(1, 0, text, EPOCH, None, True)
    [published] = parts.publisher.published
    assert (published.table_id, published.committed, published.table_seq) == (
        TABLE_ID,
        committed,
        1,
    )
    [scheduled] = parts.scheduler.calls
    assert (scheduled.committed, scheduled.table_seq, scheduled.published) == (committed, 1, 1)
    # each viewer (seat 0, seat 1, the spectator) gets its own view of the new state
    for viewer, message in zip((0, 1, None), published.messages, strict=True):
        assert message["seq"] == 1
        assert message["view"] == table.state.view(viewer).to_json()
        assert message["last"]["seq"] == 1
        assert message["legal"] == (table.legal_texts() if viewer == 1 else [])
    if game == "flags":  # hidden hands: what seat 0 holds is not what seat 1 is shown
        assert published.messages[0]["view"] != published.messages[1]["view"]


def test_the_table_changes_only_after_the_store_accepted_the_action() -> None:
    """The seq, state and logs stay as they were while the write is on its way; once it is
    accepted, the table equals one rebuilt from the stored record."""
    parts = memory_authority()
    table = live_table()
    before = facts(table)
    text = table.legal_texts()[0]
    seen: list[tuple[dict[str, Any], int, int]] = []
    parts.store.before_accept = lambda write: seen.append(
        (facts(table), len(parts.publisher.published), len(parts.scheduler.calls))
    )

    async def body() -> int:
        return await parts.authority.act(table, 0, 0, text=text)

    assert run(body) == 1
    assert seen == [(before, 0, 0)]
    assert facts(table) == facts(live_table(actions=[text]))
    assert [len(log) for log in table.logs] == [1, 1, 1]


def test_an_action_whose_write_fails_changes_nothing_and_answers_unavailable() -> None:
    """StoreUnavailableError: nothing in memory changes, nothing is published or scheduled,
    the player is told ``unavailable`` (503) and may try again."""
    parts = memory_authority()
    table = live_table()
    before = facts(table)
    text = table.legal_texts()[0]
    parts.store.fail_next(1)

    async def body() -> tuple[ProtocolError, int]:
        error = await refusal(parts.authority.act(table, 0, 0, text=text))
        assert facts(table) == before
        assert nothing_happened(parts)
        return error, await parts.authority.act(table, 0, 0, text=text)

    error, seq = run(body)
    assert (error.code, error.status) == ("unavailable", 503)
    assert seq == 1
    assert len(parts.store.attempts) == 2
    assert parts.journal == [("store", 1), ("publish", 1), ("schedule", 1)]


def test_a_write_stored_although_it_failed_is_read_back_on_the_retry() -> None:
    """A commit whose answer was lost: the retry finds the seq taken, catches up with the
    stored action (``here`` False) and answers ``stale``; the table is then right."""
    parts = memory_authority()
    table = live_table()
    legal = table.legal_texts()
    parts.store.fail_next(1, commit_anyway=True)

    async def body() -> tuple[ProtocolError, ProtocolError]:
        first = await refusal(parts.authority.act(table, 0, 0, text=legal[0]))
        assert table.seq == 0
        return first, await refusal(parts.authority.act(table, 0, 0, text=legal[1]))

    first, second = run(body)
    assert (first.code, second.code) == ("unavailable", "stale")
    assert facts(table) == facts(live_table(actions=[legal[0]]))
    assert parts.publisher.seqs() == [(1, False)]


# --- exactly once across writers ---------------------------------------------------------


def test_a_seq_taken_by_another_writer_is_caught_up_and_answered_stale() -> None:
    """Exactly once: "the store refuses a second action for a (table, seq), whichever
    instance of a cluster wrote the first; the loser reads what was stored and answers
    stale": the table then equals one that saw the other writer's action."""
    parts = memory_authority()
    table = live_table()
    mine, theirs = table.legal_texts()[:2]
    later = EPOCH + dt.timedelta(seconds=5)
    parts.store.insert_other(TABLE_ID, 1, 0, theirs, later)

    async def body() -> ProtocolError:
        return await refusal(parts.authority.act(table, 0, 0, text=mine))

    error = run(body)
    assert error.code == "stale"
    assert [w.action for w in parts.store.stored()] == [theirs]
    assert [w.action for w in parts.store.attempts] == [mine]
    assert parts.publisher.seqs() == [(1, False)]
    assert [c.committed for c in parts.scheduler.calls] == [
        Committed(1, 0, theirs, later, None, False)
    ]
    direct = live_table()
    direct_parts = memory_authority(clock=ManualClock(later))

    async def direct_body() -> int:
        return await direct_parts.authority.act(direct, 0, 0, text=theirs)

    assert run(direct_body) == 1
    assert facts(table) == facts(direct)


def test_two_instances_racing_for_one_decision_commit_exactly_one() -> None:
    """Two instances sharing one store, each holding the table, get an action for the same
    seq at once (different cards): one commits, the other catches up and answers stale,
    and both tables end the same."""
    a = memory_authority(origin="a/1")
    b = memory_authority(a.store, a.clock, origin="b/1")
    table_a, table_b = live_table("flags"), live_table("flags")
    legal = table_a.legal_texts()

    async def body() -> tuple[int | BaseException, int | BaseException]:
        return await asyncio.gather(
            a.authority.act(table_a, 0, 0, text=legal[0]),
            b.authority.act(table_b, 0, 0, text=legal[-1]),
            return_exceptions=True,
        )

    results = run(body)
    assert results[0] == 1
    assert isinstance(results[1], ProtocolError) and results[1].code == "stale"
    assert [w.action for w in a.store.stored()] == [legal[0]]
    assert a.publisher.seqs() == [(1, True)]
    assert b.publisher.seqs() == [(1, False)]
    assert facts(table_a) == facts(table_b)


def test_many_concurrent_actions_for_one_decision_commit_exactly_one() -> None:
    """Each table "applies its actions one at a time under its own asyncio.Lock": of many
    actions sent at once for one decision, one is committed and the rest are stale."""
    parts = memory_authority()
    table = live_table()
    legal = table.legal_texts()
    texts = [legal[i % len(legal)] for i in range(12)]

    async def body() -> list[int | BaseException]:
        return await asyncio.gather(
            *(parts.authority.act(table, 0, 0, text=t) for t in texts), return_exceptions=True
        )

    results = run(body)
    assert results.count(1) == 1
    refused = [r for r in results if r != 1]
    assert len(refused) == 11
    assert all(isinstance(r, ProtocolError) and r.code == "stale" for r in refused)
    winner = texts[results.index(1)]
    assert [w.action for w in parts.store.stored()] == [winner]
    assert len(parts.store.attempts) == 1
    assert parts.journal == [("store", 1), ("publish", 1), ("schedule", 1)]
    assert table.actions == [(0, winner)]


def test_an_action_for_a_seq_ahead_reads_the_other_writers_actions_first() -> None:
    """A player who saw another instance's action sends the next seq: the authority
    catches up with the store before judging the seq, then commits the action."""
    parts = memory_authority()
    table = live_table()
    first = playout("flaming", 2, 7, 1)
    parts.store.insert_other(TABLE_ID, 1, 0, first[0])
    reply = live_table(actions=first).legal_texts()[0]

    async def body() -> int:
        return await parts.authority.act(table, 1, 1, text=reply)

    assert run(body) == 2
    assert parts.publisher.seqs() == [(1, False), (2, True)]
    assert facts(table) == facts(live_table(actions=[*first, reply]))


# --- catch_up ------------------------------------------------------------------------------


def test_catch_up_applies_stored_actions_in_order_and_stops_at_a_gap() -> None:
    """Stored seqs 1, 2 and 4: seqs 1 and 2 are applied (and published, not here) in
    order; seq 3 is missing, so seq 4 waits, even holding an action that would apply."""
    parts = memory_authority()
    table = live_table()
    played = playout("flaming", 2, 7, 3)
    state = live_table().state
    seats = []
    for text in played:
        seats.append(state.current_player())
        state.apply(state.parse_action(text))
    parts.store.insert_other(TABLE_ID, 1, seats[0], played[0])
    parts.store.insert_other(TABLE_ID, 2, seats[1], played[1])
    parts.store.insert_other(TABLE_ID, 4, seats[2], played[2])  # (legal at seq 2)

    async def body() -> int:
        async with table.lock:
            return await parts.authority.catch_up(table)

    assert run(body) == 2
    assert facts(table) == facts(live_table(actions=played[:2]))
    assert parts.publisher.seqs() == [(1, False), (2, False)]
    assert parts.scheduler.seqs() == [1, 2]


def test_catch_up_stops_at_a_stored_action_that_does_not_apply() -> None:
    """A stored text the game cannot read is logged, not applied, and nothing after it."""
    parts = memory_authority()
    table = live_table()
    before = facts(table)
    parts.store.insert_other(TABLE_ID, 1, 0, "zzz")
    parts.store.insert_other(TABLE_ID, 2, 1, playout("flaming", 2, 7, 2)[1])

    async def body() -> int:
        async with table.lock:
            return await parts.authority.catch_up(table)

    assert run(body) == 0
    assert facts(table) == before
    assert not parts.publisher.published


def test_catch_up_with_an_unreadable_store_changes_nothing() -> None:
    """StoreUnavailableError on the read: no action is applied, none published."""
    parts = memory_authority()
    table = live_table()
    before = facts(table)
    parts.store.insert_other(TABLE_ID, 1, 0, table.legal_texts()[0])
    parts.store.fail_reads(1)

    async def body() -> int:
        async with table.lock:
            return await parts.authority.catch_up(table)

    assert run(body) == 0
    assert facts(table) == before
    assert not parts.publisher.published


def test_catch_up_stops_at_a_stored_action_of_the_wrong_seat() -> None:
    """A stored row that names a seat not to move (a corrupt record) is not applied: the
    replay would refuse it too (``rebuild.rebuild``)."""
    parts = memory_authority()
    table = live_table()
    before = facts(table)
    to_move = table.state.current_player()
    parts.store.insert_other(TABLE_ID, 1, 1 - to_move, table.legal_texts()[0])

    async def body() -> int:
        async with table.lock:
            return await parts.authority.catch_up(table)

    assert run(body) == 0
    assert facts(table) == before
    assert not parts.publisher.published


def test_an_action_ahead_of_an_unreadable_store_is_unavailable_not_stale() -> None:
    """A seq ahead of the table makes the authority read the store first; when it cannot,
    the answer is ``unavailable`` (try again), not ``stale``."""
    parts = memory_authority()
    table = live_table()
    parts.store.fail_reads(1)

    async def body() -> ProtocolError:
        return await refusal(parts.authority.act(table, 0, 3, text=table.legal_texts()[0]))

    assert run(body).code == "unavailable"
    assert nothing_happened(parts)


# --- refusals -------------------------------------------------------------------------------


@dataclass
class Refused:
    """A request the authority must turn down, and the code (and HTTP status) it gives."""

    code: str
    status: int
    table: Callable[[], LiveTable]
    seat: int | None = 0
    seq: int = 0
    text: str | None = None
    """None: the table's first legal text."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    says: str = ""
    """Words the message must hold (which check refused it)."""


def _fire_die_at_chance() -> LiveTable:
    """A Flaming table with the fire die whose next decision is the server's chance draw."""
    played = playout("flaming", 2, 7, 4, {"fire_die": True})
    table = live_table(options={"fire_die": True}, actions=played)
    assert table.state.current_player() == CHANCE
    return table


def _status(status: str) -> Callable[[], LiveTable]:
    def make() -> LiveTable:
        table = live_table()
        table.status = status
        return table

    return make


FIRST = playout("flaming", 2, 7, 1)
FIRST_ID = live_table().state.parse_action(FIRST[0])
"""Seat 0's first tile of the seed-7 game: once it is on the pyramid, no seat can play it."""

REFUSED = {
    "stale_seq": Refused(
        "stale", 409, lambda: live_table(actions=playout("flaming", 2, 7, 2)), seq=1
    ),
    "seq_ahead_with_nothing_stored": Refused("stale", 409, live_table, seq=5),
    "out_of_turn": Refused("out_of_turn", 409, live_table, seat=1),
    "spectator": Refused("out_of_turn", 409, live_table, seat=None, says="spectators"),
    "chance_draw_is_the_servers": Refused(
        "out_of_turn", 409, _fire_die_at_chance, seq=4, says="chance draw"
    ),
    "open_table": Refused(
        "out_of_turn", 409, lambda: live_table(status=OPEN), says="every invited player"
    ),
    "expired": Refused("expired", 410, lambda: live_table(status=EXPIRED)),
    "finished_status": Refused("finished", 409, _status(FINISHED)),
    "finished_game": Refused(
        "finished",
        409,
        lambda: live_table(
            "flags",
            options={"max_turns": 6},
            actions=playout("flags", 2, 7, None, {"max_turns": 6}),
        ),
        seq=8,
        text="done",
    ),
    "malformed_flaming": Refused("malformed", 422, live_table, text="zzz"),
    "malformed_flags": Refused("malformed", 422, lambda: live_table("flags"), text="K1>Q9"),
    "illegal_flaming": Refused("illegal", 409, live_table, text="R7@9,9"),
    "illegal_flags": Refused("illegal", 409, lambda: live_table("flags"), text="K2>K1"),
    "illegal_action_id": Refused(
        "illegal",
        409,
        lambda: live_table(actions=FIRST),
        seat=1,
        seq=1,
        kwargs={"action": FIRST_ID},
    ),
    "bot_move_no_longer_valid": Refused(
        "stale", 409, live_table, kwargs={"still_valid": lambda: False}
    ),
}


@pytest.mark.parametrize("case", list(REFUSED.values()), ids=list(REFUSED))
def test_a_refused_action_gives_its_error_code_and_changes_nothing(case: Refused) -> None:
    """Stale seq, out of turn, spectator, open, expired, finished, malformed, illegal: each
    its code, and the table, the store, the publisher and the scheduler are untouched."""
    parts = memory_authority()
    table = case.table()
    before = facts(table)
    text = case.text
    if text is None and "action" not in case.kwargs:
        text = table.legal_texts()[0] if table.legal_texts() else "done"

    async def body() -> ProtocolError:
        return await refusal(
            parts.authority.act(table, case.seat, case.seq, text=text, **case.kwargs)
        )

    error = run(body)
    assert (error.code, error.status) == (case.code, case.status)
    assert case.says in error.message
    assert facts(table) == before
    assert nothing_happened(parts)
    assert not parts.store.attempts


# --- the end, and snapshots ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"), [("flaming", {}), ("flags", {"max_turns": 6})], ids=["flaming", "flags"]
)
def test_a_terminal_action_stores_the_snapshot_and_ranking_and_finishes_the_table(
    game: str, options: dict[str, Any]
) -> None:
    """The action that ends the game is stored with the final position, the ranking and
    the end time, and the table is FINISHED (no action after it)."""
    played = playout(game, 2, 7, None, options)
    parts = memory_authority()
    parts.clock.advance(3600)
    table = live_table(game, options=options, actions=played[:-1])
    seat = table.state.current_player()

    async def body() -> ProtocolError:
        assert await parts.authority.act(table, seat, len(played) - 1, text=played[-1]) == len(
            played
        )
        return await refusal(parts.authority.act(table, 0, len(played), text=played[-1]))

    error = run(body)
    assert error.code == "finished"
    [write] = parts.store.attempts
    assert table.state.is_terminal()
    assert (table.status, table.ranking, table.finished) == (
        FINISHED,
        ranking_order(table.state),
        parts.clock.now(),
    )
    assert (write.status, write.ranking, write.finished) == (
        FINISHED,
        table.ranking,
        parts.clock.now(),
    )
    assert write.snapshot == table.state.to_json()
    assert parts.scheduler.seqs() == [len(played)]


def _record_of(table: LiveTable, store: MemoryActionStore) -> TableRecord:
    """The stored record of a table that started empty, with the store's snapshots."""
    seats: list[SeatRecord] = list(table.seats)
    record = TableRecord(
        id=table.id,
        game=table.game_name,
        players=table.players,
        options=table.options,
        seed=table.seed,
        rules_version=table.rules_version,
        status=RUNNING,
        settings={},
        created=EPOCH,
        updated=EPOCH,
        finished=None,
        seq=table.seq,
        ranking=None,
        seats=seats,
        actions=[(w.seq, w.seat, w.action) for w in store.stored()],
        snapshots={
            w.seq: orjson.loads(orjson.dumps(w.snapshot)) for w in store.stored() if w.snapshot
        },
    )
    return record


async def _play(parts: Parts, table: LiveTable, n: int) -> None:
    """Play ``n`` actions through the authority: each seat its first legal one."""
    for _ in range(n):
        seat = table.state.current_player()
        await parts.authority.act(table, seat, table.seq, text=table.legal_texts()[0])


def test_snapshot_every_writes_the_position_at_its_multiples() -> None:
    """``snapshot_every`` 3: the writes of seqs 3 and 6 hold the position after them, the
    others none; the record with those snapshots rebuilds (``rebuild`` checks them)."""
    parts = memory_authority(snapshot_every=3)
    table = live_table()

    async def body() -> None:
        await _play(parts, table, 7)

    run(body)
    writes = parts.store.stored()
    assert [w.seq for w in writes if w.snapshot is not None] == [3, 6]
    played = [w.action for w in writes]
    for seq in (3, 6):
        assert writes[seq - 1].snapshot == live_table(actions=played[:seq]).state.to_json()
    rebuilt = rebuild(_record_of(table, parts.store))
    assert rebuilt.state.to_json() == table.state.to_json()


def test_no_snapshot_before_the_end_when_snapshot_every_is_zero() -> None:
    """``snapshot_every`` 0: only the last action of a game stores the position."""
    parts = memory_authority()
    table = live_table()

    async def body() -> None:
        await _play(parts, table, 6)

    run(body)
    assert all(w.snapshot is None for w in parts.store.attempts)


def test_every_action_write_carries_a_notice_naming_the_table_origin_and_seq() -> None:
    """The origin is "named in the notification of each commit": ``a <table> <origin>
    <seq>``, as the cluster's listeners parse it."""
    parts = memory_authority(origin="node-2/ab12cd34")
    table = live_table()

    async def body() -> None:
        await _play(parts, table, 3)

    run(body)
    assert [Notice.parse(w.notice or "") for w in parts.store.attempts] == [
        Notice("a", TABLE_ID, "node-2/ab12cd34", str(seq)) for seq in (1, 2, 3)
    ]


def test_a_server_alone_on_its_database_sends_no_notice() -> None:
    """Without other instances (``origin`` None: SQLite, one process) no action write
    carries a notice: nothing would listen."""
    parts = memory_authority(origin=None)
    table = live_table()

    async def body() -> None:
        await _play(parts, table, 2)

    run(body)
    assert [w.notice for w in parts.store.attempts] == [None, None]


# --- time -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("after", "accepted"), [(59.0, True), (60.0, False), (600.0, False)])
def test_a_move_once_the_clock_ran_out_is_refused_out_of_time(after: float, accepted: bool) -> None:
    """The authority must "refuse (out_of_time) a player's move once its clock ran out":
    a 60 s bank, the first decision since the start."""
    parts = memory_authority()
    table = live_table(clock=CLOCK_60S)
    before = facts(table)
    text = table.legal_texts()[0]
    parts.clock.advance(after)

    async def body() -> int | ProtocolError:
        try:
            return await parts.authority.act(table, 0, 0, text=text)
        except ProtocolError as exc:
            return exc

    result = run(body)
    if accepted:
        assert result == 1
        return
    assert isinstance(result, ProtocolError) and result.code == "out_of_time"
    assert facts(table) == before
    assert nothing_happened(parts)


def test_each_decision_starts_its_seats_clock_when_the_action_before_was_stored() -> None:
    """clocks.py: "a decision starts ... when the action before it was stored": seat 0
    moves after 50 s (10 s left), seat 1 after 30 s more (its 60 s counted from seat 0's
    move, not from the start), then seat 0's 10 s run out."""
    parts = memory_authority()
    table = live_table(clock=CLOCK_60S)

    async def body() -> ProtocolError:
        parts.clock.advance(50)
        await parts.authority.act(table, 0, 0, text=table.legal_texts()[0])
        parts.clock.advance(30)
        await parts.authority.act(table, 1, 1, text=table.legal_texts()[0])
        parts.clock.advance(10)
        return await refusal(parts.authority.act(table, 0, 2, text=table.legal_texts()[0]))

    assert run(body).code == "out_of_time"
    assert table.seq == 2


def test_a_table_without_a_clock_takes_a_move_at_any_time() -> None:
    """No clock setting, no time check: a move a day late is accepted."""
    parts = memory_authority()
    table = live_table()
    parts.clock.advance(86400)

    async def body() -> int:
        return await parts.authority.act(table, 0, 0, text=table.legal_texts()[0])

    assert run(body) == 1


def test_a_seat_that_forfeited_on_time_is_refused_out_of_time() -> None:
    """A seat in ``forfeits`` may not move again, whatever its bank: "a bot plays it to the
    end"."""
    parts = memory_authority()
    table = live_table(clock=CLOCK_60S, forfeits=[0])

    async def body() -> ProtocolError:
        return await refusal(parts.authority.act(table, 0, 0, text=table.legal_texts()[0]))

    assert run(body).code == "out_of_time"
    assert nothing_happened(parts)


@pytest.mark.parametrize(
    ("played_by", "kind"),
    [(CLOCK, "clock"), (FORFEITED, "clock"), (TIMEOUT, "stand_in"), (ABSENT, "stand_in")],
)
def test_a_stand_ins_action_skips_the_time_check_and_its_log_names_the_stand_in(
    played_by: str, kind: str
) -> None:
    """``played_by``: a bot chose it for a human seat (no time check); every viewer's log
    entry starts with the notice naming the seat's player and why."""
    parts = memory_authority()
    table = live_table(clock=CLOCK_60S)
    parts.clock.advance(120)  # seat 0's time ran out a minute ago
    text = table.legal_texts()[0]

    async def body() -> int:
        return await parts.authority.act(table, 0, 0, text=text, played_by=played_by)

    assert run(body) == 1
    for viewer in range(3):
        notice = last_entry(table, viewer)["events"][0]
        assert (notice["game"], notice["kind"]) == ("server", kind)
        assert notice["data"] == {"seat": 0, "name": "Alice", "reason": played_by}
        assert "Alice" in notice["text_en"]
    assert table.stand_ins == {1: played_by}
    assert parts.store.attempts[0].played_by == played_by
    assert parts.publisher.published[0].committed.played_by == played_by
    # a restart reads the same table back from the record, which says who played
    restarted = live_table(
        clock=CLOCK_60S, actions=[text], times=[parts.clock.now()], stand_ins={1: played_by}
    )
    assert facts(table) == facts(restarted)


# --- the rest of the path ---------------------------------------------------------------------


def test_the_servers_chance_draw_goes_through_the_same_path() -> None:
    """The chance draw (seat CHANCE) is committed, published and scheduled like a move."""
    parts = memory_authority()
    table = _fire_die_at_chance()
    action = table.state.sample_chance(chance_rng(table.seed, table.seq))

    async def body() -> int:
        return await parts.authority.act(table, CHANCE, 4, action=action)

    assert run(body) == 5
    assert table.actions[-1][0] == CHANCE
    assert parts.journal == [("store", 5), ("publish", 5), ("schedule", 5)]
    played = playout("flaming", 2, 7, 5, {"fire_die": True})
    assert facts(table) == facts(live_table(options={"fire_die": True}, actions=played))


def test_a_commit_cancels_the_decisions_timer_and_a_refusal_keeps_it() -> None:
    """The pending end of the current decision (its turn time or clock) is cancelled once
    an action is committed, and only then."""
    parts = memory_authority()
    table = live_table()
    timer = parts.clock.call_later(30, lambda: None)
    table.turn_timer = timer

    async def body() -> None:
        await refusal(parts.authority.act(table, 1, 0, text=table.legal_texts()[0]))
        assert table.turn_timer is timer and parts.clock.pending()
        parts.store.fail_next(1)
        await refusal(parts.authority.act(table, 0, 0, text=table.legal_texts()[0]))
        assert table.turn_timer is timer and parts.clock.pending()
        await parts.authority.act(table, 0, 0, text=table.legal_texts()[0])

    run(body)
    assert table.turn_timer is None
    assert not parts.clock.pending()


# --- known faults (docs: /work/spec/notes/authority.md) -----------------------------------


class SilentPublisher:
    """A publisher with nobody to tell (no connection on this instance): it does nothing."""

    def publish(self, table: LiveTable, committed: Committed) -> None:
        """Nothing to send."""


def test_a_commit_renews_the_clocks_whatever_the_publisher_does() -> None:
    """The clocks (and the legal texts) after a commit are the new decision's even when the
    publisher sends nothing: seat 1 moves 30 s into its own 60 s."""
    parts = memory_authority()
    authority = Authority(parts.store, parts.clock, SilentPublisher(), parts.scheduler)
    table = live_table(clock=CLOCK_60S)

    async def body() -> int:
        parts.clock.advance(50)
        await authority.act(table, 0, 0, text=table.legal_texts()[0])
        assert table.legal_texts() == [
            table.state.action_to_string(a) for a in table.state.legal_actions()
        ]
        parts.clock.advance(30)
        return await authority.act(table, 1, 1, text=table.legal_texts()[0])

    assert run(body) == 2


def test_an_action_id_that_is_no_action_is_refused_illegal() -> None:
    """A bot's bug (an id no action of the game has) is refused ``illegal``, like a text."""
    parts = memory_authority()
    table = live_table()

    async def body() -> ProtocolError:
        return await refusal(parts.authority.act(table, 0, 0, action=12345))

    assert run(body).code == "illegal"
    assert nothing_happened(parts)
