"""Call-out mode at the server (issue 13, points 5 and 6; Flaming contract §12).

The option is in the catalogue with its help in English and French; a call-out table
sends no fit hints unless its creator allows them (hints would do the checking); the
checker's decision is an ordinary decision of the server (its legal actions, its
timeout and stand-in, the bots); and a finished call-out game's record replays and its
replay shows where mayhem was overlooked and where it was found.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from pyramids.core import GameRecord, replay
from pyramids.flaming.game import position_from_json
from pyramids.flaming.mayhem import called_keys, standing_mayhem
from pyramids.flaming.state import FlamingState
from pyramids.flaming.tiles import spot_name
from pyramids.games import make_game
from pyramids.server import Settings, create_app
from pyramids.server.clocks import ManualClock
from pyramids.server.table_settings import TableSettings, default_hints
from tests.http_play import use_invite, wait_finished
from tests.server.conftest import (
    HUMAN,
    bot,
    create,
    make_settings,
    receive,
    receive_until,
    start_app,
)
from tests.server.test_takeover import (
    ABSENT_AFTER,
    TURN_TIME,
    absence_runs_out,
    turn_time_runs_out,
)
from tests.waiting import wait_until

FAMILY = {"preset": "basic", "callout": "family"}
COMPETITIVE = {"preset": "standard", "callout": "competitive"}


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """The state message of a seat (or the spectator's)."""
    params = {"token": token} if token else {}
    response = client.get(f"/api/tables/{table_id}/state", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def true_state(client: TestClient, table_id: str) -> FlamingState:
    """The table's full state, as the server holds it (the test's oracle), on the Python
    engine (the server's may be the native one: the same position either way)."""
    table = client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
    found = table.state
    if not isinstance(found, FlamingState):
        found = position_from_json(found.to_json())
    return found


def act(client: TableClient, seat: int, seq: int, action: str) -> int:
    """Play ``action`` for ``seat`` over HTTP; the new seq."""
    response = client.client.post(
        f"/api/tables/{client.table}/actions",
        json={"token": client.tokens[seat], "seq": seq, "action": action},
    )
    assert response.status_code == 200, response.text
    return int(response.json()["seq"])


class TableClient:
    """A table of humans only, each seat played over HTTP with its token."""

    def __init__(self, client: TestClient, body: dict[str, Any]) -> None:
        self.client = client
        self.table = str(body["table"]["id"])
        # bind every invite (the table starts); each seat plays with its credential
        self.tokens = [use_invite(client, self.table, str(i["token"])) for i in body["invites"]]

    def seat_state(self, seat: int) -> dict[str, Any]:
        return state(self.client, self.table, self.tokens[seat])

    def wait_decision(self) -> dict[str, Any]:
        """The spectator's state once a seat (not the chance draw) decides, or the end."""

        def decided() -> dict[str, Any] | None:
            msg = state(self.client, self.table)
            return msg if msg["to_move"] != -1 else None

        return wait_until(decided, "the chance draw")


def is_check_legal(legal: list[str], pyramid: list[str]) -> bool:
    """Whether ``legal`` is a check's: ``ok``, then a call of every occupied position
    once, in the engine's scan order (FP-CALL-3: the same whether or not mayhem stands)."""
    calls = [f"call:{item.split('@')[1]}" for item in pyramid]
    return legal[:1] == ["ok"] and sorted(legal[1:]) == sorted(calls)


def test_the_catalogue_offers_call_out_with_its_help_in_english_and_french(
    client: TestClient,
) -> None:
    """Issue 13: "the lobby offers the option"; it is the descriptor's OptionSpec."""
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    options = {o["name"]: o for o in games["flaming"]["options"]}
    callout = options["callout"]
    assert callout["type"] == "str"
    assert callout["choices"] == ["off", "family", "competitive"]
    assert callout["default"] == "off"
    assert callout["help"] and callout["help_fr"] and callout["help"] != callout["help_fr"]
    assert games["flaming"]["hints"] is True
    assert games["flags"]["hints"] is False


def test_a_call_out_table_keeps_its_variant_and_refuses_an_unknown_one(
    client: TestClient,
) -> None:
    """Rules option ``"callout": "family"`` (§12, Text); an unknown mode is bad_options."""
    body = create(client, [HUMAN, bot()], options=FAMILY)
    assert body["table"]["options"]["callout"] == "family"
    ordinary = create(client, [HUMAN, bot()], options={"preset": "basic"})
    assert "callout" not in ordinary["table"]["options"]
    refused = client.post(
        "/api/tables",
        json={"game": "flaming", "seats": [HUMAN, bot()], "options": {"callout": "party"}},
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "bad_options"


def test_hints_are_off_at_a_call_out_table_unless_it_allows_them(client: TestClient) -> None:
    """Issue 13: "hints are off in call-out games unless the table allows them"; never
    during a check, whatever the table allows."""
    plain = TableClient(client, create(client, [HUMAN, HUMAN], options=FAMILY))
    assert client.get(f"/api/tables/{plain.table}").json()["settings"]["hints"] is False
    placer = plain.seat_state(0)
    assert placer["to_move"] == 0 and any("@" in a for a in placer["legal"])
    assert placer["hints"] is None

    allowed = TableClient(client, create(client, [HUMAN, HUMAN], options=FAMILY, hints=True))
    assert client.get(f"/api/tables/{allowed.table}").json()["settings"]["hints"] is True
    placer = allowed.seat_state(0)
    assert set(placer["hints"]["spots"]) == set(placer["view"]["hand"])
    act(allowed, 0, placer["seq"], placer["legal"][0])
    checker = allowed.seat_state(1)
    assert checker["view"]["pending"] == {"player": 1, "kind": "check"}
    assert checker["to_move"] == 1
    assert is_check_legal(checker["legal"], checker["view"]["pyramid"])
    assert checker["hints"] is None
    assert allowed.seat_state(0)["hints"] is None
    assert state(client, allowed.table)["hints"] is None


def test_an_ordinary_table_may_turn_hints_off_and_hints_is_a_strict_boolean(
    client: TestClient,
) -> None:
    """``hints`` of POST /api/tables: false sends none even in an ordinary game; only
    true and false are values."""
    off = TableClient(
        client, create(client, [HUMAN, HUMAN], options={"preset": "basic"}, hints=False)
    )
    placer = off.seat_state(0)
    assert placer["legal"] and placer["hints"] is None
    on = TableClient(client, create(client, [HUMAN, HUMAN], options={"preset": "basic"}))
    assert on.seat_state(0)["hints"] is not None
    refused = client.post(
        "/api/tables", json={"game": "flaming", "seats": [HUMAN, bot()], "hints": "yes"}
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "malformed"


def test_a_table_stored_before_the_hints_setting_follows_its_rules(tmp_path: Path) -> None:
    """Stored settings without ``hints``: on, except at a call-out table."""
    defaults = Settings(data_dir=tmp_path, db_url="sqlite://")
    stored = {"bot_delay": 0, "absent_after": 0, "turn_time": 0, "takeover_bot": "greedy"}
    assert default_hints({"preset": "basic"}) is True
    assert default_hints({"callout": "off"}) is True
    assert default_hints({"callout": "family"}) is False
    assert default_hints({"callout": "competitive"}) is False
    old = TableSettings.from_json(stored, defaults, hints=default_hints({"callout": "family"}))
    assert old.hints is False
    assert TableSettings.from_json({**stored, "hints": True}, defaults, hints=False).hints is True


Policy = Callable[[FlamingState, list[str], dict[str, int]], str]


def caller(pos_state: FlamingState, legal: list[str], seen: dict[str, int]) -> str:
    """A checker who overlooks every other standing mayhem, calls the rest rightly, and
    raises a false alarm at every other clean pyramid; places the first legal tile."""
    if legal[0] != "ok":
        return legal[0]
    pos = pos_state.position
    curse = pos_state.options.curse_on
    if standing_mayhem(pos, curse):
        seen["mayhem"] += 1
        if seen["mayhem"] % 2:
            return "ok"
        return f"call:{spot_name(min(called_keys(pos, curse)))}"
    seen["clean"] += 1
    return legal[1] if seen["clean"] % 2 and len(legal) > 1 else "ok"


def play_humans(client: TestClient, table: TableClient, policy: Policy = caller) -> int:
    """Play the table to its end, each decision by its seat over HTTP; the actions made."""
    seen = {"mayhem": 0, "clean": 0}
    made = 0
    while True:
        spectator = table.wait_decision()
        if spectator["to_move"] is None:
            return made
        seat = spectator["to_move"]
        mine = table.seat_state(seat)
        truth = true_state(client, table.table)
        act(table, seat, mine["seq"], policy(truth, mine["legal"], seen))
        made += 1
        assert made < 2000, "the game does not end"


def test_a_call_out_game_records_and_replays_its_checks(settings: Settings) -> None:
    """Issue 13, point 6: "records and replays (a replay shows when mayhem was overlooked
    and when it was found)". A whole family game of two humans: overlooked mayhem, right
    calls, false alarms; the record replays to the same end, after a restart too, and the
    replay's full positions say ``overlooked`` from the check that overlooked it to the
    call that found it (``call`` with ``overlooked: true``)."""
    with TestClient(create_app(settings)) as client:
        table = TableClient(client, create(client, [HUMAN, HUMAN], options=FAMILY))
        play_humans(client, table)
        record = client.get(f"/api/tables/{table.table}/record").json()
        steps = client.get(f"/api/tables/{table.table}/replay").json()
    assert record["options"]["callout"] == "family"
    game = make_game("flaming", 2, record["options"])
    replayed = [s.clone() for _, s in replay(game, GameRecord.from_json(record))]
    assert replayed[-1].is_terminal()
    assert [s.to_json() for s in replayed] == [step["state"] for step in steps[1:]]

    kinds = [{e["kind"] for e in step["events"]} for step in steps]
    assert any("false_alarm" in k for k in kinds)
    assert any("check_ok" in k for k in kinds)
    overlooked_from = [
        i
        for i, step in enumerate(steps)
        if step["state"].get("overlooked") and not steps[i - 1]["state"].get("overlooked")
    ]
    found = [
        i
        for i, step in enumerate(steps)
        if any(e["kind"] == "call" and e["data"]["overlooked"] for e in step["events"])
    ]
    assert overlooked_from and found
    first = overlooked_from[0]
    assert is_check_action(steps[first]["action"])  # ok, or a false alarm, over mayhem
    assert {e["kind"] for e in steps[first]["events"]} & {"check_ok", "false_alarm"}
    later = [i for i in found if i > first]
    assert later, "the overlooked mayhem was never found"
    assert all(steps[i]["state"].get("overlooked") for i in range(first, later[0]))
    resolved = steps[later[0]]["events"]
    penalties = [e for e in resolved if "out" in e["data"]]
    assert penalties and all(e["data"]["out"] for e in penalties)  # family: out of the game
    # A restarted server rebuilds the finished game from its record alone.
    with TestClient(create_app(settings)) as client:
        assert client.get(f"/api/tables/{table.table}/replay").json() == steps


def test_bots_answer_checks_at_a_call_out_table(client: TestClient) -> None:
    """Issue 13, point 3: every bot plays checks; a table of bots plays to the end."""
    body = create(client, [bot("greedy"), bot("random")], options=COMPETITIVE, bot_delay=0)
    tid = body["table"]["id"]
    wait_finished(client, tid)
    steps = client.get(f"/api/tables/{tid}/replay").json()
    checks = [s for s in steps if is_check_action(s["action"] or "")]
    assert checks
    for step in checks:
        previous = steps[step["seq"] - 1]["state"]
        assert previous["pending"]["kind"] == "check"
        assert step["seat"] == previous["pending"]["player"]


def decision_after(ws: WebSocketTestSession, seq: int) -> dict[str, Any]:
    """The socket seat's next decision after ``seq`` (a state message with legal actions)."""
    return receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]) and m["seq"] > seq)


def test_a_check_left_to_the_clock_is_answered_by_the_stand_in(tmp_path: Path) -> None:
    """A connected checker whose ``turn_time`` runs out: the stand-in bot answers the check
    for them, announced like any stand-in (the server asks ``current_player()``, which is
    the checker while a check is pending). Ann never decides: each of her turn times runs
    out on the app's manual clock until a check is hers."""
    clock = ManualClock()
    with start_app(make_settings(tmp_path), clock) as client:
        body = create(client, [bot("greedy"), ANN], options=FAMILY, turn_time=TURN_TIME)
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            receive(ws)
            check = decision_after(ws, -1)
            while not is_check(check):
                turn_time_runs_out(client, clock)
                check = decision_after(ws, check["seq"])
            assert check["to_move"] == 1
            assert is_check_legal(check["legal"], check["view"]["pyramid"])
            turn_time_runs_out(client, clock)
            after = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] > check["seq"])
    entry = after["last"]
    assert entry["seat"] == 1 and is_check_action(entry["action"])
    notice = entry["events"][0]
    assert notice["kind"] == "stand_in" and notice["data"]["reason"] == "timeout"
    assert {e["kind"] for e in entry["events"][1:]} & {"check_ok", "false_alarm", "call"}


def test_an_absent_checker_is_played_by_the_takeover_bot(tmp_path: Path) -> None:
    """A checker who left: the takeover bot answers their checks (``absent``) once her
    absence time passed on the app's manual clock."""
    clock = ManualClock()
    with start_app(make_settings(tmp_path), clock) as client:
        body = create(client, [bot("greedy"), ANN], options=FAMILY, absent_after=ABSENT_AFTER)
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        state(client, tid, token)  # binds the seat; nobody stays connected
        absence_runs_out(client, clock, tid, 1)
        table = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        wait_until(lambda: any(seat == 1 for seat, _ in table.actions), "the takeover played")
    seq, text = next((i, a) for i, (seat, a) in enumerate(table.actions, start=1) if seat == 1)
    assert is_check_action(text)
    assert table.stand_ins[seq] == "absent"


ANN: dict[str, Any] = {"kind": "human", "name": "Ann"}


def is_check(msg: dict[str, Any]) -> bool:
    """Whether a state message waits for a check (pending kind ``check``)."""
    return bool(msg["view"].get("pending", {}).get("kind") == "check")


def is_check_action(text: str) -> bool:
    """Whether an action's text answers a check: ``ok`` or ``call:r,c``."""
    return text == "ok" or text.startswith("call:")
