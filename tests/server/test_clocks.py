"""Players' clocks: the bank arithmetic, and tables whose time runs out (clocks.py).

The integration tests run the real app on a real SQLite file with a ``ManualClock``:
time moves only when a test advances it, and the timers that fell due fire then. The
runtime's pauses (a bot's ``bot_delay``, the wait before a failed write is tried again)
are that clock's too (issue 31: one clock).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from pyramids.core import CHANCE
from pyramids.core.clock import Move, banks_at, deadline_of, format_time
from pyramids.core.fairness import FailureKind, verify_record
from pyramids.core.record import GameRecord
from pyramids.games import make_game
from pyramids.server import Settings
from pyramids.server.bots import RETRY_FIRST
from pyramids.server.clocks import ClockError, ClockSpec, ManualClock
from pyramids.server.live import LiveTable, SeatSpec
from pyramids.server.protocol import ProtocolError
from pyramids.server.standings import placements
from pyramids.server.table_settings import TableSettings
from tests.http_play import use_invite
from tests.server.conftest import HUMAN, advance, make_settings, manager_of, start_app
from tests.server.fakes import MemoryRuntime, live_table
from tests.waiting import until, wait_until

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
HOUR = 3600.0


def at(seconds: float) -> dt.datetime:
    """``seconds`` after T0."""
    return T0 + dt.timedelta(seconds=seconds)


# --- the arithmetic --------------------------------------------------------------------------


def test_per_move_time_is_free_then_the_bank_runs_then_the_increment_is_added() -> None:
    """ "On its decision the first per_move seconds are free, then the bank runs; after its
    move increment is added": 24 h per move + 3 days, a move after 30 h costs 6 h."""
    spec = ClockSpec("turn_based", bank=3 * 24 * HOUR, increment=600, per_move=24 * HOUR)
    banks = banks_at(spec, [True, True], T0, [Move(0, at(30 * HOUR))])
    assert banks.banks == (3 * 24 * HOUR - 6 * HOUR + 600, 3 * 24 * HOUR)
    assert banks.since == at(30 * HOUR)
    # seat 1 now has its 24 h plus its whole bank
    assert deadline_of(spec, banks, 1) == at(30 * HOUR + 24 * HOUR + 3 * 24 * HOUR)


def test_a_fast_move_keeps_the_bank_and_earns_the_increment() -> None:
    spec = ClockSpec("realtime", bank=600, increment=5)
    banks = banks_at(spec, [True, True], T0, [Move(0, at(3)), Move(1, at(10))])
    assert banks.banks == (600 - 3 + 5, 600 - 7 + 5)


def test_bots_and_chance_draws_spend_nobodys_time() -> None:
    """ "Bots and chance have no clock": the bot's 40 s go on no bank; seat 0's decision
    starts when the chance draw before it was stored."""
    spec = ClockSpec("realtime", bank=100)
    moves = [Move(-1, at(1)), Move(1, at(41)), Move(-1, at(42)), Move(0, at(52))]
    banks = banks_at(spec, [True, False], T0, moves)
    assert banks.banks == (90, None)


def test_a_bank_never_goes_below_zero_and_the_seat_plays_on_with_its_increments() -> None:
    spec = ClockSpec("realtime", bank=60, increment=10)
    banks = banks_at(spec, [True, True], T0, [Move(0, at(500))])
    assert banks.banks[0] == 10  # empty, plus the increment of the move the stand-in made


def test_a_forfeited_seat_has_no_clock_any_more() -> None:
    spec = ClockSpec("realtime", bank=60)
    assert banks_at(spec, [True, True, True], T0, [], forfeits=[1]).banks == (60, None, 60)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"mode": "blitz", "bank": 1}, "clock.mode"),
        ({"mode": "realtime", "bank": 31 * 86400}, "clock.bank"),
        ({"mode": "realtime", "bank": 60, "increment": 86401}, "clock.increment"),
        ({"mode": "turn_based", "per_move": 8 * 86400}, "clock.per_move"),
        ({"mode": "realtime", "bank": -1}, "clock.bank"),
        ({"mode": "realtime", "bank": 0, "per_move": 0}, "needs time"),
        ({"mode": "realtime", "bank": 60, "on_expiry": "resign"}, "on_expiry"),
    ],
)
def test_clock_settings_out_of_range_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ClockError, match=message):
        ClockSpec.from_json(data)


moves_strategy = st.lists(
    st.tuples(st.integers(-1, 2), st.floats(0, 5000, allow_nan=False)), max_size=30
)


def timeline(steps: list[tuple[int, float]]) -> list[Move]:
    """Moves at increasing times from (seat, seconds since the move before)."""
    out: list[Move] = []
    t = 0.0
    for seat, gap in steps:
        t += gap
        out.append(Move(seat, at(t)))
    return out


@settings(max_examples=200, deadline=None)
@given(
    steps=moves_strategy,
    bank=st.floats(0, 10000),
    increment=st.floats(0, 100),
    per_move=st.floats(0, 1000),
)
def test_banks_stay_between_zero_and_bank_plus_the_increments_earned(
    steps: list[tuple[int, float]], bank: float, increment: float, per_move: float
) -> None:
    if bank <= 0 and per_move <= 0:
        per_move = 1.0
    spec = ClockSpec("realtime", bank=bank, increment=increment, per_move=per_move)
    moves = timeline(steps)
    banks = banks_at(spec, [True, True, False], T0, moves)
    for seat in (0, 1):
        made = sum(1 for m in moves if m.seat == seat)
        value = banks.banks[seat]
        assert value is not None
        assert 0 <= value <= bank + made * increment + 1e-6
    assert banks.banks[2] is None


@settings(max_examples=200, deadline=None)
@given(steps=moves_strategy, late=st.floats(0, 3000), index=st.integers(0, 29))
def test_moving_later_never_leaves_more_time(
    steps: list[tuple[int, float]], late: float, index: int
) -> None:
    """Delaying one move (and every later one with it) leaves that seat no more time."""
    spec = ClockSpec("realtime", bank=900, increment=2, per_move=30)
    if not steps:
        return
    i = index % len(steps)
    slower = [*steps[:i], (steps[i][0], steps[i][1] + late), *steps[i + 1 :]]
    fast = banks_at(spec, [True, True, True], T0, timeline(steps))
    slow = banks_at(spec, [True, True, True], T0, timeline(slower))
    seat = steps[i][0]
    if seat >= 0:
        assert (slow.banks[seat] or 0) <= (fast.banks[seat] or 0) + 1e-6


# --- tables with a clock ---------------------------------------------------------------------


@pytest.fixture
def clock() -> ManualClock:
    """The time the app runs on."""
    return ManualClock(T0)


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """A started app whose time is ``clock``."""
    with start_app(settings, clock) as c:
        yield c


def create_clocked(
    client: TestClient,
    seats: list[SeatSpec],
    clock: dict[str, Any],
    *,
    absent_after: float = 0.0,
    **extra: Any,
) -> tuple[LiveTable, list[str]]:
    """A table with ``clock`` made by the manager (the credentials of its human seats),
    every human seat bound by its invite's first use, so that it runs."""
    manager = manager_of(client)
    settings = TableSettings(
        bot_delay=0.0,
        absent_after=absent_after,
        turn_time=0.0,
        takeover_bot="greedy",
        clock=clock,
    )
    portal = client.portal
    assert portal is not None
    table, invites = portal.call(
        lambda: manager.seating.create_table("flaming", seats, {}, None, settings, **extra)
    )
    return table, [use_invite(client, table.id, i.token) for i in invites]


def wait_for(client: TestClient, table_id: str, test: Callable[[dict[str, Any]], bool]) -> dict:
    """The table's summary once ``test`` holds (the server's own moves are tasks)."""

    def summary() -> dict[str, Any] | None:
        got: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        return got if test(got) else None

    return wait_until(summary, f"table {table_id}: {test}")


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    r = client.get(f"/api/tables/{table_id}/state", params=params)
    assert r.status_code == 200, r.text
    return dict(r.json())


def play(client: TestClient, table_id: str, token: str) -> int:
    """A legal action of the seat (it must be its decision) that hands the decision to
    another seat when one does: the tables' secret seeds deal differently every run, and
    a placement that sets off mayhem would keep the decision with the same seat (a fall to
    choose); the new seq."""
    s = state(client, table_id, token)
    assert s["legal"], s
    live = manager_of(client).tables[table_id].state
    seat = live.current_player()

    def passes(text: str) -> bool:
        after = live.clone()
        after.apply(after.parse_action(text))
        return not after.is_terminal() and after.current_player() not in (seat, CHANCE)

    action = next((text for text in s["legal"] if passes(text)), s["legal"][0])
    r = client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": token, "seq": s["seq"], "action": action},
    )
    assert r.status_code == 200, r.text
    return int(r.json()["seq"])


def play_turn(client: TestClient, table_id: str, token: str, seat: int) -> int:
    """Play ``seat``'s decisions until another seat is to move; how many it made."""
    made = 0
    while wait_for(client, table_id, lambda s: s["to_move"] != CHANCE)["to_move"] == seat:
        play(client, table_id, token)
        made += 1
    return made


def to_move_is(seat: int) -> Callable[[dict[str, Any]], bool]:
    return lambda summary: summary["status"] == "running" and summary["to_move"] == seat


def played_by(settings: Settings, table_id: str) -> dict[int, str]:
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT seq, played_by FROM actions WHERE table_id = :t "
                    "AND played_by IS NOT NULL"
                ),
                {"t": table_id},
            )
            return {r.seq: r.played_by for r in rows}
    finally:
        engine.dispose()


REALTIME = {"mode": "realtime", "bank": 60, "increment": 10, "on_expiry": "stand_in"}
HUMANS = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")]


def clock_of(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in summary["clocks"] if c["seat"] == seat)


def test_the_state_and_the_summary_carry_each_seats_clock_with_the_deadline(
    client: TestClient, clock: ManualClock
) -> None:
    table, tokens = create_clocked(client, HUMANS, REALTIME)
    summary = wait_for(client, table.id, to_move_is(0))
    assert summary["settings"]["clock"]["bank"] == 60
    assert summary["started"] == "2026-03-01T12:00:00Z"
    ann = clock_of(summary, 0)
    assert ann == {
        "seat": 0,
        "bank": 60,
        "per_move": 0,
        "running": True,
        "deadline": "2026-03-01T12:01:00.000Z",
    }
    assert clock_of(summary, 1)["running"] is False
    assert state(client, table.id, tokens[1])["clocks"] == summary["clocks"]
    advance(client, clock, 20)
    play(client, table.id, tokens[0])
    after = wait_for(client, table.id, to_move_is(1))
    assert clock_of(after, 0) == {**ann, "bank": 50, "running": False, "deadline": None}
    assert clock_of(after, 1)["deadline"] == "2026-03-01T12:01:20.000Z"


def test_a_turn_based_game_passes_a_bank_expiry_and_the_stand_in_plays(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """24 h per move plus a 2-day reserve: Ann is silent for 3 days; at the end of the
    reserve the takeover bot plays her decision, logged as the clock's, and she plays on
    with an empty bank plus the increment."""
    turn_based = {
        "mode": "turn_based",
        "per_move": 24 * HOUR,
        "bank": 48 * HOUR,
        "increment": HOUR,
        "on_expiry": "stand_in",
    }
    table, tokens = create_clocked(client, HUMANS, turn_based)
    summary = wait_for(client, table.id, to_move_is(0))
    seq = summary["seq"]
    advance(client, clock, 72 * HOUR - 1)
    assert client.get(f"/api/tables/{table.id}").json()["seq"] == seq  # not yet
    advance(client, clock, 1)
    after = wait_for(client, table.id, lambda s: s["seq"] > seq)
    assert played_by(settings, table.id) == {seq + 1: "clock"}
    last = state(client, table.id, tokens[1])["last"]
    notice = last["events"][0]
    assert (notice["game"], notice["kind"]) == ("server", "clock")
    assert notice["text_en"] == "Ann's time ran out: a bot played for them"
    assert "écoulé" in notice["text_fr"]
    assert clock_of(after, 0)["bank"] == HOUR
    # and Ann plays on: her next decision has 24 h + the hour she earned
    wait_for(client, table.id, lambda s: s["to_move"] in (0, 1))
    while client.get(f"/api/tables/{table.id}").json()["to_move"] != 0:
        play(client, table.id, tokens[1])
    play(client, table.id, tokens[0])
    assert len(played_by(settings, table.id)) == 1


def test_a_move_after_the_time_ran_out_is_refused(client: TestClient, clock: ManualClock) -> None:
    table, tokens = create_clocked(
        client, HUMANS, {"mode": "realtime", "bank": 60, "on_expiry": "forfeit"}
    )
    wait_for(client, table.id, to_move_is(0))
    s = state(client, table.id, tokens[0])
    clock._now = at(61)  # the time passes but the timer has not fired yet
    r = client.post(
        f"/api/tables/{table.id}/actions",
        json={"token": tokens[0], "seq": s["seq"], "action": s["legal"][0]},
    )
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "out_of_time"


def test_a_forfeit_on_time_ends_a_two_seat_game_with_the_other_seat_first(
    client: TestClient, clock: ManualClock
) -> None:
    table, tokens = create_clocked(
        client, HUMANS, {"mode": "realtime", "bank": 300, "on_expiry": "forfeit"}
    )
    wait_for(client, table.id, to_move_is(0))
    advance(client, clock, 20)
    play(client, table.id, tokens[0])
    wait_for(client, table.id, to_move_is(1))
    advance(client, clock, 301)
    summary = wait_for(client, table.id, lambda s: s["status"] == "finished")
    assert summary["ended"] == "forfeit"
    assert summary["forfeits"] == [1]
    assert summary["ranking"] == [0, 1]
    assert summary["finished"] == "2026-03-01T12:05:21Z"
    assert placements(table.state, table.forfeits) == [1, 2]
    end = state(client, table.id)
    assert end["status"] == "finished" and end["ended"] == "forfeit"
    assert end["last"]["events"][0]["text_en"] == (
        "Bob's time ran out: Bob forfeits and the game is over"
    )
    # the record and the replay of the actions played stay available
    record = client.get(f"/api/tables/{table.id}/record")
    assert record.status_code == 200
    assert len(record.json()["actions"]) == summary["seq"]
    assert client.get(f"/api/tables/{table.id}/replay").status_code == 200
    # every action follows from the committed seed, and the record says how it ended
    assert (record.json()["forfeits"], record.json()["ended"]) == ([1], "forfeit")
    game_record = GameRecord.from_json(record.json())
    game = make_game(game_record.game, game_record.players, game_record.options)
    verdict = verify_record(game, game_record)
    assert verdict.is_verified and verdict.ended_by_forfeit, verdict.failure
    # issue 29, item 6: the record proves the forfeit. Bob's decision began when Ann's
    # last action was stored; 300 s later his time ran out, and the game ended at 12:05:21
    assert record.json()["forfeited_at"] == [summary["seq"]]
    assert record.json()["clock"]["on_expiry"] == "forfeit"
    assert len(record.json()["times"]) == summary["seq"]
    assert [(p.seat, p.seq) for p in verdict.forfeits] == [(1, summary["seq"])]
    proof = verdict.forfeits[0]
    assert proof.deadline == game_record.times[-1] + dt.timedelta(seconds=300)
    assert proof.at == at(321) == game_record.finished
    # the replay page's check (the same, on the stored record) lists the forfeit's proof
    checked = client.get(f"/api/tables/{table.id}/verify").json()
    assert checked["verified"] and checked["steps"][-1] == {"step": "forfeits", "status": "passed"}
    assert checked["forfeits"] == [
        {
            "seat": 1,
            "seq": summary["seq"],
            "deadline": format_time(proof.deadline),
            "at": "2026-03-01T12:05:21.000000Z",
        }
    ]
    # the same record said to end before Bob's time ran out does not verify
    early = GameRecord.from_json({**record.json(), "finished": format_time(at(300))})
    failure = verify_record(game, early).failure
    assert failure is not None and failure.kind is FailureKind.WRONG_FORFEIT
    assert failure.details["why"] == "in_time"
    # a record claiming a forfeit end that left two seats standing does not verify
    game_record.forfeits = []
    refused = verify_record(game, game_record)
    assert refused.failure is not None and "only when one seat is left" in refused.failure.message
    # no more moves
    r = client.post(
        f"/api/tables/{table.id}/actions",
        json={"token": tokens[0], "seq": summary["seq"], "action": "x"},
    )
    assert r.json()["error"]["code"] == "finished"


def test_a_forfeit_in_a_three_seat_game_lets_the_stand_in_play_it_to_the_end_ranked_last(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("bot", bot="greedy")]
    table, tokens = create_clocked(
        client, seats, {"mode": "realtime", "bank": 120, "on_expiry": "forfeit"}
    )
    wait_for(client, table.id, to_move_is(0))
    advance(client, clock, 121)
    summary = wait_for(client, table.id, lambda s: s["forfeits"] == [0] and s["to_move"] != 0)
    assert summary["status"] == "running"
    assert [c["seat"] for c in summary["clocks"]] == [1]  # Ann's clock is gone
    while True:
        summary = wait_for(client, table.id, lambda s: s["to_move"] in (1, None))
        if summary["to_move"] is None:
            break
        play(client, table.id, tokens[1])
    assert summary["status"] == "finished" and summary["ended"] is None
    assert summary["ranking"][-1] == 0
    assert placements(table.state, table.forfeits)[0] == 3
    stood_in = played_by(settings, table.id)
    assert stood_in and set(stood_in.values()) == {"forfeit"}
    assert all(table.actions[seq - 1][0] == 0 for seq in stood_in)
    # the record proves Ann's forfeit: she was to move at the start, 120 s of bank, and
    # the stand-in's first action for her was stored after that
    record = client.get(f"/api/tables/{table.id}/record").json()
    assert record["forfeited_at"] == [min(stood_in) - 1]
    game_record = GameRecord.from_json(record)
    game = make_game(game_record.game, game_record.players, game_record.options)
    verdict = verify_record(game, game_record)
    assert verdict.is_verified, verdict.failure
    assert [(p.seat, p.deadline) for p in verdict.forfeits] == [(0, at(120))]


def test_a_restart_keeps_the_banks_and_the_expiry(
    tmp_path: Path, settings: Settings, clock: ManualClock
) -> None:
    """The banks are computed from the stored times: a new app on the same database finds
    them equal, and Ann's time still runs out when it should (time while the server was
    down counts)."""
    with start_app(settings, clock) as client:
        table, tokens = create_clocked(client, HUMANS, REALTIME)
        wait_for(client, table.id, to_move_is(0))
        advance(client, clock, 25)
        ann = play_turn(client, table.id, tokens[0], 0)
        advance(client, clock, 12.5)
        bob = play_turn(client, table.id, tokens[1], 1)
        before = client.get(f"/api/tables/{table.id}").json()
        table_id = table.id
    # 60 s each, 25 s and 12.5 s spent, 10 s back after every decision (a placement that
    # sets off mayhem leaves its player a second decision, at no cost of time here)
    assert clock_of(before, 0)["bank"] == 60 - 25 + 10 * ann
    assert clock_of(before, 1)["bank"] == 60 - 12.5 + 10 * bob
    later = ManualClock(at(40))  # the server was down 2.5 s
    with start_app(make_settings(tmp_path), later) as client:
        after = client.get(f"/api/tables/{table_id}").json()
        assert after["clocks"] == before["clocks"]
        deadline = at(37.5 + clock_of(before, 0)["bank"])
        assert clock_of(after, 0)["deadline"] == deadline.isoformat(
            timespec="milliseconds"
        ).replace("+00:00", "Z")
        seq = after["seq"]
        advance(client, later, (deadline - later.now()).total_seconds() - 0.1)
        assert client.get(f"/api/tables/{table_id}").json()["seq"] == seq
        advance(client, later, 0.2)
        done = wait_for(client, table_id, lambda s: s["seq"] > seq)
        assert clock_of(done, 0)["bank"] == 10


@pytest.mark.parametrize(("mode", "armed"), [("turn_based", False), ("realtime", True)])
def test_a_turn_based_table_has_no_absence_takeover(
    client: TestClient, mode: str, armed: bool
) -> None:
    """Nobody is connected to either table, whose seats have an absence time: the real-time
    table arms each seat's absence clock (the takeover bot would play them when it runs
    out), the turn-based table arms none, so no takeover can ever come there."""
    spec = {"mode": mode, "per_move": 86400} if mode == "turn_based" else REALTIME
    table, _ = create_clocked(client, HUMANS, spec, absent_after=3600.0)
    summary = wait_for(client, table.id, to_move_is(0))
    assert manager_of(client).presence.absence_clocks(table) == ([0, 1] if armed else [])
    assert not any(s["taken_over"] for s in summary["seats"])


# --- one clock: the runtime's pauses -------------------------------------------------------


def test_a_manual_clock_wakes_a_sleeper_once_advanced_past_its_time() -> None:
    """The runtime's pauses (a bot's ``bot_delay``, a retry's wait) are the clock's: on a
    ``ManualClock`` a pause of 5 s ends when the clock passes 5 s, not at 4.9 s and never by
    real time; a pause of 0 ends at once; a pause cancelled leaves no timer behind."""

    async def scenario() -> list[tuple[str, Any]]:
        clock = ManualClock(T0)
        seen: list[tuple[str, Any]] = []
        await clock.sleep(0)
        sleeper = asyncio.create_task(clock.sleep(5))
        await until(clock.pending, "the pause is set")
        seen.append(("pending", clock.pending()))
        clock.advance(4.9)
        seen.append(("done at 4.9 s", sleeper.done()))
        clock.advance(0.1)
        await sleeper
        seen.append(("left", clock.pending()))
        cancelled = asyncio.create_task(clock.sleep(5))
        await until(clock.pending, "the second pause is set")
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        seen.append(("left after a cancel", clock.pending()))
        return seen

    assert asyncio.run(scenario()) == [
        ("pending", [at(5)]),
        ("done at 4.9 s", False),
        ("left", []),
        ("left after a cancel", []),
    ]


def test_a_bot_seat_moves_once_the_clock_passed_the_tables_bot_delay(
    client: TestClient, clock: ManualClock
) -> None:
    """``bot_delay``: a bot waits that long before its move, on the runtime's clock: at a
    table of two bots with 5 s, the first move is stored once the clock passed 5 s."""
    manager = manager_of(client)
    portal = client.portal
    assert portal is not None
    paced = TableSettings(bot_delay=5.0, absent_after=0.0, turn_time=0.0, takeover_bot="greedy")
    seats = [SeatSpec("bot", bot="greedy"), SeatSpec("bot", bot="random")]
    table, _ = portal.call(lambda: manager.seating.create_table("flaming", seats, {}, None, paced))
    wait_until(lambda: at(5) in portal.call(clock.pending), "the first bot's pause of 5 s")
    advance(client, clock, 4.9)
    assert table.seq == 0
    advance(client, clock, 0.1)
    wait_for(client, table.id, lambda s: s["seq"] >= 1)


def test_a_server_move_whose_write_failed_is_tried_again_after_pauses_of_the_clock(
    tmp_path: Path,
) -> None:
    """``until_stored``: "while its write fails because the storage is unavailable, try
    again after RETRY_FIRST seconds, doubling up to RETRY_MAX": the pauses are the
    runtime's clock's (the scheduler on fakes: ``fakes.MemoryRuntime``)."""

    async def scenario() -> list[dt.datetime]:
        clock = ManualClock(T0)
        moves = MemoryRuntime(make_settings(tmp_path), clock).moves
        table = live_table()
        tried: list[dt.datetime] = []

        async def attempt() -> None:
            tried.append(clock.now())
            if len(tried) < 3:
                raise ProtocolError("unavailable", "the database is unreachable", 503)

        stored = asyncio.create_task(moves.until_stored(table, table.seq, "chance", attempt))
        await until(clock.pending, "the first pause")
        assert clock.pending() == [at(RETRY_FIRST)]
        clock.advance(RETRY_FIRST)
        await until(lambda: len(tried) == 2 and clock.pending(), "the second pause")
        assert clock.pending() == [at(3 * RETRY_FIRST)]
        clock.advance(2 * RETRY_FIRST)
        await stored
        return tried

    assert asyncio.run(scenario()) == [T0, at(RETRY_FIRST), at(3 * RETRY_FIRST)]


# --- the HTTP API ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ({"mode": "blitz", "bank": 60}, "clock.mode"),
        ({"mode": "realtime", "bank": 30 * 86400 + 1}, "clock.bank"),
        ({"mode": "realtime", "bank": 60, "increment": -1}, "clock.increment"),
        ({"mode": "turn_based", "per_move": 7 * 86400 + 1}, "clock.per_move"),
        ({"mode": "realtime"}, "bank or per_move above 0"),
        ({"mode": "realtime", "bank": 60, "on_expiry": "lose"}, "clock.on_expiry"),
        ({"mode": "realtime", "bank": 60, "extra": 1}, "clock.extra"),
        ({"bank": 60}, "clock.mode"),
    ],
)
def test_a_bad_clock_is_refused_with_what_is_wrong(
    client: TestClient, bad: dict[str, Any], where: str
) -> None:
    body = {"game": "flaming", "seats": [HUMAN, HUMAN], "clock": bad}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "malformed"
    assert where in error["message"]


def test_a_table_created_with_a_clock_over_http_keeps_it(client: TestClient) -> None:
    wanted = {"mode": "turn_based", "per_move": 86400, "bank": 3 * 86400, "on_expiry": "forfeit"}
    body = {"game": "flaming", "seats": [HUMAN, HUMAN], "clock": wanted}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["table"]["settings"]["clock"] == {**wanted, "increment": 0.0}
