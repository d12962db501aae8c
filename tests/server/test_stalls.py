"""No game stalls (issue 29, item 4): every table has a deadline per move.

"A rated game can be stalled for ever: with the defaults (no turn time, no clock) a player
who keeps a socket open and never moves is never taken over." Now every table without a
clock has a ``turn_time`` (``timers.py``): 5 minutes at a rated table, 10 elsewhere, when
the creator does not say; at its end a bot plays that decision, announced "time ran out: a
bot played for Alice"; at a rated table the third in a row forfeits. A rated table's turn
time is 30 s to 30 minutes. A table stored before (``turn_time`` 0) gets the default when
a server starts on it.

The app runs on a real SQLite file with a ``ManualClock``: time moves only when a test
advances it, and the timers that fell due fire then.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.testclient import WebSocketTestSession

from pyramids.core import GameRecord
from pyramids.core.fairness import verify_record
from pyramids.games import make_game
from pyramids.server import Settings
from pyramids.server.clocks import ManualClock
from pyramids.server.config import resolve_settings
from pyramids.server.table_log import ABSENT, TIMEOUT
from pyramids.server.timers import (
    FORFEIT_AFTER_TIMEOUTS,
    RATED_TURN_TIME_MAX,
    RATED_TURN_TIME_MIN,
    timeouts_in_a_row,
)
from tests.server.conftest import advance, bot, make_settings, receive_until, start_app
from tests.server.fakes import live_table
from tests.waiting import wait_until

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
ALICE: dict[str, Any] = {"kind": "human", "name": "Alice"}
RATED_DEFAULT = 300.0
UNRATED_DEFAULT = 600.0


@pytest.fixture
def clock() -> ManualClock:
    """The time the app runs on."""
    return ManualClock(T0)


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """A started app whose time is ``clock``."""
    with start_app(settings, clock) as c:
        yield c


def create_with_defaults(client: TestClient, *, rated: bool) -> tuple[str, str]:
    """Alice and a greedy bot, nothing said about time (the lobby's defaults): the table's
    id and Alice's invite."""
    body = {"game": "flaming", "seats": [ALICE, bot("greedy")], "rated": rated, "seed": 7}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["table"]["id"], data["invites"][0]["token"]


def summary(client: TestClient, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def alices_decision(client: TestClient, tid: str, after: int = -1) -> dict[str, Any]:
    """The summary once Alice is to decide at a seq past ``after`` (bots and chance are
    the server's tasks)."""

    def ready() -> dict[str, Any] | None:
        s = summary(client, tid)
        running = s["status"] == "running"
        return s if running and s["to_move"] == 0 and s["seq"] > after else None

    return wait_until(ready, f"table {tid}: Alice's decision after seq {after}")


def played_by(settings: Settings, tid: str) -> dict[int, str]:
    """The seqs a bot chose for a human seat, and why, read from the database."""
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT seq, played_by FROM actions WHERE table_id = :t "
                    "AND played_by IS NOT NULL"
                ),
                {"t": tid},
            )
            return {int(r.seq): str(r.played_by) for r in rows}
    finally:
        engine.dispose()


def let_time_run_out(
    client: TestClient, clock: ManualClock, ws: WebSocketTestSession, tid: str, wait: float
) -> dict[str, Any]:
    """Alice is to decide and does nothing: the turn time runs out; the state after it."""
    seq = alices_decision(client, tid)["seq"]
    deadline = clock.now() + dt.timedelta(seconds=wait)
    assert deadline in clock.pending()
    advance(client, clock, wait - 0.5)
    assert summary(client, tid)["seq"] == seq  # half a second before: still hers
    assert deadline in clock.pending()
    advance(client, clock, 0.5)
    return receive_until(
        ws, lambda m: m["type"] == "state" and (m["seq"] > seq or m["status"] == "finished")
    )


def test_a_rated_table_with_the_defaults_has_a_bot_play_for_a_connected_player_who_never_moves(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """Alice keeps her socket open and never moves: after the rated default of 5 minutes
    the takeover bot plays her decision, and the log says so in both languages."""
    tid, token = create_with_defaults(client, rated=True)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        table = summary(client, tid)
        assert table["rated"] is True
        assert table["settings"]["turn_time"] == RATED_DEFAULT
        after = let_time_run_out(client, clock, ws, tid, RATED_DEFAULT)
        entry = after["last"]
        assert entry["seat"] == 0
        notice = entry["events"][0]
        assert (notice["game"], notice["kind"]) == ("server", "stand_in")
        assert notice["text_en"] == "time ran out: a bot played for Alice"
        assert notice["text_fr"] == "temps écoulé : un bot a joué pour Alice"
        assert after["seats"][0]["connected"] is True
        assert after["seats"][0]["taken_over"] is False
    assert set(played_by(settings, tid).values()) == {TIMEOUT}


def test_a_rated_seat_that_lets_three_turn_times_in_a_row_run_out_forfeits(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """Twice a bot plays for Alice; the third time she forfeits through the clocks'
    forfeit path: with one seat left standing the game is over, the bot first and Alice
    last (the ranking the ratings count), and the record says it ended by forfeit."""
    tid, token = create_with_defaults(client, rated=True)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        for _ in range(FORFEIT_AFTER_TIMEOUTS - 1):
            after = let_time_run_out(client, clock, ws, tid, RATED_DEFAULT)
            assert after["status"] == "running"
        end = let_time_run_out(client, clock, ws, tid, RATED_DEFAULT)
    assert end["status"] == "finished" and end["ended"] == "forfeit"
    assert end["forfeits"] == [0] and end["ranking"] == [1, 0]
    assert end["last"]["events"][0]["text_en"] == (
        "Alice's time ran out: Alice forfeits and the game is over"
    )
    stood_in = played_by(settings, tid)
    assert list(stood_in.values()) == [TIMEOUT] * (FORFEIT_AFTER_TIMEOUTS - 1)
    record = client.get(f"/api/tables/{tid}/record").json()
    assert (record["forfeits"], record["ended"]) == ([0], "forfeit")
    # issue 29, item 6: the record proves it (turn time, the rule, who chose each action,
    # the times); `pyramids verify` and the replay page's check recompute it
    assert (record["turn_time"], record["forfeit_after"]) == (RATED_DEFAULT, 3)
    rec = GameRecord.from_json(record)
    game = make_game(rec.game, rec.players, rec.options)
    verdict = verify_record(game, rec)
    assert verdict.is_verified, verdict.failure
    assert [(p.seat, p.seq) for p in verdict.forfeits] == [(0, len(rec.actions))]
    checked = client.get(f"/api/tables/{tid}/verify").json()
    assert checked["verified"] and checked["steps"][-1]["step"] == "forfeits"
    # one of the turn times said to be Alice's own move: the forfeit no longer holds
    forged = GameRecord.from_json({**record, "played_by": [None] * len(rec.actions)})
    failure = verify_record(game, forged).failure
    assert failure is not None and failure.details["why"] == "too_few_timeouts", failure


def test_an_unrated_table_with_the_defaults_stands_in_every_time_and_never_forfeits(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    """Unrated: 10 minutes a decision, then the stand-in; however many in a row, nobody
    forfeits (nothing is at stake, and the others keep their game)."""
    tid, token = create_with_defaults(client, rated=False)
    assert summary(client, tid)["settings"]["turn_time"] == UNRATED_DEFAULT
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        for _ in range(FORFEIT_AFTER_TIMEOUTS + 1):
            after = let_time_run_out(client, clock, ws, tid, UNRATED_DEFAULT)
            assert after["status"] == "running" and after["forfeits"] == []
    assert list(played_by(settings, tid).values()) == [TIMEOUT] * (FORFEIT_AFTER_TIMEOUTS + 1)


def test_only_turn_times_in_a_row_count_towards_the_forfeit() -> None:
    """A move of the player's own ends the run; the absence takeover's moves neither count
    nor end it; other seats' moves do not matter."""
    table = live_table(seats=("human", "greedy"))
    table.actions = [(0, "a"), (1, "b"), (0, "c"), (-1, "d"), (0, "e"), (1, "f"), (0, "g")]
    table.stand_ins = {3: TIMEOUT, 5: ABSENT, 7: TIMEOUT}
    assert timeouts_in_a_row(table, 0) == 2
    table.stand_ins = {3: TIMEOUT, 7: TIMEOUT}  # seq 5 was Alice's own move
    assert timeouts_in_a_row(table, 0) == 1
    assert timeouts_in_a_row(table, 1) == 0


@pytest.mark.parametrize("asked", [RATED_TURN_TIME_MAX + 1, 86400, RATED_TURN_TIME_MIN - 1, 1])
def test_a_rated_turn_time_outside_its_bounds_is_refused_with_what_is_wrong(
    client: TestClient, asked: float
) -> None:
    body = {"game": "flaming", "seats": [ALICE, bot()], "rated": True, "turn_time": asked}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_turn_time"
    assert error["message"].startswith(
        f"a rated table's turn_time is 30 to 1800 seconds, not {asked:g}"
    )


@pytest.mark.parametrize(
    ("rated", "asked", "kept"),
    [(True, RATED_TURN_TIME_MAX, 1800), (True, 0, 300), (False, 86400, 86400), (False, 0, 600)],
)
def test_a_turn_time_within_bounds_is_kept_and_zero_means_the_default(
    client: TestClient, rated: bool, asked: float, kept: float
) -> None:
    body = {"game": "flaming", "seats": [ALICE, bot()], "rated": rated, "turn_time": asked}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["table"]["settings"]["turn_time"] == kept


def test_the_lobby_catalogue_gives_the_deadlines_per_move(client: TestClient) -> None:
    assert client.get("/api/games").json()["pace"] == {
        "turn_time": UNRATED_DEFAULT,
        "rated_turn_time": RATED_DEFAULT,
        "rated_turn_time_min": RATED_TURN_TIME_MIN,
        "rated_turn_time_max": RATED_TURN_TIME_MAX,
        "forfeit_after": FORFEIT_AFTER_TIMEOUTS,
    }


def store_old_settings(settings: Settings, tid: str, old: dict[str, Any]) -> None:
    """Rewrite the table's stored settings as a server before issue 29 stored them."""
    engine = create_engine(settings.db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE tables SET settings = :s WHERE id = :t"),
                {"s": json.dumps(old), "t": tid},
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("rated", "stored", "default"),
    [
        (True, {"turn_time": 0}, RATED_DEFAULT),
        (False, {"turn_time": 0}, UNRATED_DEFAULT),
        (True, {"turn_time": 86400}, RATED_TURN_TIME_MAX),
        (False, {}, UNRATED_DEFAULT),
        (True, {}, RATED_DEFAULT),
    ],
)
def test_a_table_stored_without_a_turn_time_resumes_with_the_default_after_a_restart(
    tmp_path: Path, settings: Settings, rated: bool, stored: dict[str, Any], default: float
) -> None:
    """A table created before every table had a deadline (``turn_time`` 0, or no such
    field; a rated one with a day) is resumed by a new server with the default of its
    kind, within the rated bounds: Alice's decision runs out then and a bot plays it."""
    with start_app(settings, ManualClock(T0)) as client:
        tid, token = create_with_defaults(client, rated=rated)
        assert client.get(f"/api/tables/{tid}/state", params={"token": token}).status_code == 200
        seq = alices_decision(client, tid)["seq"]
    old = {"bot_delay": 0, "absent_after": 0, "takeover_bot": "greedy", **stored}
    store_old_settings(settings, tid, old)
    later = ManualClock(T0 + dt.timedelta(hours=1))
    with start_app(make_settings(tmp_path), later) as client:
        table = alices_decision(client, tid)
        assert table["seq"] == seq and table["settings"]["turn_time"] == default
        # her decision's end (the clock has other timers too: the open tables' sweep)
        assert later.now() + dt.timedelta(seconds=default) in later.pending()
        advance(client, later, default - 0.5)
        assert summary(client, tid)["seq"] == seq
        advance(client, later, 0.5)
        wait_until(lambda: summary(client, tid)["seq"] > seq, f"table {tid}: the stand-in")
    assert played_by(settings, tid) == {seq + 1: TIMEOUT}


def test_the_servers_defaults_come_from_the_environment_and_are_never_unlimited(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``PYRAMIDS_RATED_TURN_TIME`` / ``PYRAMIDS_TURN_TIME`` set the defaults of ``pyramids
    serve``; 0, a negative, NaN or more than a day would bring the stall back: refused."""
    monkeypatch.setenv("PYRAMIDS_RATED_TURN_TIME", "120")
    monkeypatch.setenv("PYRAMIDS_TURN_TIME", "900")
    got = resolve_settings(db="sqlite://", data_dir=tmp_path)
    assert (got.rated_turn_time, got.turn_time) == (120, 900)
    for bad in ("0", "-5", "nan", "86401"):
        monkeypatch.setenv("PYRAMIDS_RATED_TURN_TIME", bad)
        with pytest.raises(ValueError, match="PYRAMIDS_RATED_TURN_TIME"):
            resolve_settings(db="sqlite://", data_dir=tmp_path)
