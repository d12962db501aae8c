"""Hints at your turn and the analysis of a finished game, over HTTP (docs/PROTOCOL.md).

A real app on a real SQLite file and real search worker processes, on small iteration
budgets (``hint_iterations``, ``analysis_iterations``) so that a test takes seconds.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyramids.bots.advice import advice_settings, analyse_record, hint, recall
from pyramids.core import GameRecord
from pyramids.core.game import Action, View
from pyramids.games import make_game
from pyramids.server import Settings, create_app
from pyramids.server.config import LimitSettings
from pyramids.server.search import ANALYSIS, HINT
from tests import http_play
from tests.server.conftest import HUMAN, bot, create, make_settings
from tests.server.rate_clock import RateClock
from tests.waiting import wait_until

HINT_ITERATIONS = 150
ANALYSIS_ITERATIONS = 60
GAMES = ("flaming", "flags")


def advice_settings_for(tmp_path: Path, **limits: Any) -> Settings:
    """Test settings with small search budgets (and ``limits`` on top)."""
    base: dict[str, Any] = {
        "min_all_bot_delay": 0.0,
        "exempt": "testclient",
        "hint_iterations": HINT_ITERATIONS,
        "analysis_iterations": ANALYSIS_ITERATIONS,
    }
    base.update(limits)
    return make_settings(tmp_path, limits=LimitSettings(**base))


@pytest.fixture
def app(tmp_path: Path) -> Any:
    with TestClient(create_app(advice_settings_for(tmp_path))) as c:
        yield c


@pytest.fixture
def frozen_rates(monkeypatch: pytest.MonkeyPatch) -> RateClock:
    """The rate limiter's clock stopped (``tests/server/rate_clock.py``): two requests
    seconds apart count as two, whatever the minute's edge."""
    return RateClock(monkeypatch)


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return str(body["error"]["code"])


def seated_table(client: TestClient, game: str, **extra: Any) -> tuple[str, str]:
    """A seeded table of one human seat (seat 0) and a greedy bot: (table id, credential)."""
    body = create(client, [HUMAN, bot()], game=game, **extra)
    table = body["table"]["id"]
    return table, http_play.use_invite(client, table, body["invites"][0]["token"])


def my_turn(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """The seat's state once it has a decision."""

    def ready() -> dict[str, Any] | None:
        st: dict[str, Any] = client.get(
            f"/api/tables/{table}/state", params={"token": token}
        ).json()
        return st if st["legal"] else None

    return wait_until(ready, f"table {table}: seat 0's decision")


def ask_hint(client: TestClient, table: str, token: str, seq: int) -> dict[str, Any]:
    """POST the hint until it is done (each 202 says where it stands)."""

    def done() -> dict[str, Any] | None:
        r = client.post(f"/api/tables/{table}/hint", json={"token": token, "seq": seq})
        body: dict[str, Any] = r.json()
        if r.status_code == 202:
            assert body["status"] in ("queued", "running"), body
            assert body["status"] == "running" or body["position"] >= 0, body
            return None
        assert r.status_code == 200, r.text
        return body

    return wait_until(done, f"table {table}: the hint at seq {seq}")


def replayed(record: GameRecord, upto: int) -> Any:
    state = make_game(record.game, record.players, record.options).new_initial_state(record.seed)
    for text in record.actions[:upto]:
        state.apply(state.parse_action(text))
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_is_the_search_of_the_seat_s_own_view(app: TestClient, game: str) -> None:
    """At your turn, the best three actions of your view with their chances to win, best
    first: the very answer of the search run on that seat's view and memory alone."""
    table, token = seated_table(app, game)
    st = my_turn(app, table, token)
    got = ask_hint(app, table, token, st["seq"])
    assert got["status"] == "done" and got["seat"] == 0 and got["seq"] == st["seq"]
    assert 1 <= len(got["moves"]) <= 3
    assert all(m["action"] in st["legal"] and 0.0 <= m["win"] <= 1.0 for m in got["moves"])
    visits = [m["visits"] for m in got["moves"]]
    assert visits == sorted(visits, reverse=True)
    # the same search, here, from what seat 0 saw: its views only
    summary = app.get(f"/api/tables/{table}").json()
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    record = GameRecord(game, summary["options"], 2, live.seed, [t for _, t in live.actions])
    state = replayed(record, len(record.actions))
    seen: list[tuple[View, Action | None]] = []
    walk = replayed(record, 0)
    for who, text in live.actions:
        action = walk.parse_action(text)
        if who == 0:
            seen.append((walk.view(0), action))
        walk.apply(action)
        seen.append((walk.view(0), None))
    settings = advice_settings(game, 2, iterations=HINT_ITERATIONS)
    memory = recall(seen) if settings.inference else None
    mine = hint(state.view(0), state.legal_actions(), settings, f"{st['seq']}/0", memory=memory)
    assert [m["action"] for m in got["moves"]] == [
        state.action_to_string(m.action) for m in mine.moves
    ]
    assert [m["win"] for m in got["moves"]] == [round(m.win, 4) for m in mine.moves]


def test_asking_again_reads_the_same_hint_without_searching_again(app: TestClient) -> None:
    """One search per seat and decision: the repeated POSTs are answered from it."""
    table, token = seated_table(app, "flaming")
    st = my_turn(app, table, token)
    first = ask_hint(app, table, token, st["seq"])
    again = ask_hint(app, table, token, st["seq"])
    assert again == first
    pool = app.app.state.manager.searches  # type: ignore[attr-defined]
    queued = [d for d in pool.history if d.kind == HINT and d.event == "queued"]
    assert len(queued) == 1


def test_hints_are_refused_to_spectators_strangers_and_where_the_table_says_no(
    app: TestClient,
) -> None:
    """403 spectator without a token, bad_token for another table's token, hints_off at a
    table created without them; 409 stale for a decision already past."""
    table, token = seated_table(app, "flaming")
    st = my_turn(app, table, token)
    url = f"/api/tables/{table}/hint"
    assert error_code(app.post(url, json={"seq": st["seq"]})) == "spectator"
    other, other_token = seated_table(app, "flaming")
    assert error_code(app.post(url, json={"token": other_token, "seq": st["seq"]})) == "bad_token"
    assert error_code(app.post(url, json={"token": token, "seq": st["seq"] + 5})) == "stale"
    off, off_token = seated_table(app, "flaming", bot_hints=False)
    off_state = my_turn(app, off, off_token)
    r = app.post(f"/api/tables/{off}/hint", json={"token": off_token, "seq": off_state["seq"]})
    assert r.status_code == 403 and error_code(r) == "hints_off"
    assert other  # the other table exists: its token is a real seat's, elsewhere


def test_a_hint_waits_for_your_turn(app: TestClient) -> None:
    """409 not_your_turn for a seat asking at another seat's decision."""
    body = create(app, [HUMAN, HUMAN], game="flaming")
    table = body["table"]["id"]
    tokens = [http_play.use_invite(app, table, i["token"]) for i in body["invites"]]
    summary = wait_until(
        lambda: (s := app.get(f"/api/tables/{table}").json())["to_move"] in (0, 1) and s,
        "a seat to move",
    )
    waiting = 1 - summary["to_move"]
    r = app.post(
        f"/api/tables/{table}/hint", json={"token": tokens[waiting], "seq": summary["seq"]}
    )
    assert r.status_code == 409 and error_code(r) == "not_your_turn"


def test_no_hint_at_a_call_out_check(app: TestClient) -> None:
    """FP-CALL: at a check (its legal actions start with ``ok``) spotting is the game: 409
    check, even at a table that allows hints."""
    options = {"preset": "basic", "callout": "family"}
    table, token = seated_table(app, "flaming", options=options, bot_hints=True)
    for _ in range(200):
        st = my_turn(app, table, token)
        if st["legal"][0] == "ok":
            r = app.post(f"/api/tables/{table}/hint", json={"token": token, "seq": st["seq"]})
            assert r.status_code == 409 and error_code(r) == "check"
            return
        r = app.post(
            f"/api/tables/{table}/actions",
            json={"token": token, "seq": st["seq"], "action": st["legal"][0]},
        )
        assert r.status_code in (200, 409), r.text
    pytest.fail("seat 0 never had a check to make in 200 decisions")


def test_bot_hints_are_on_by_default_except_at_rated_and_call_out_tables(app: TestClient) -> None:
    """``bot_hints``: absent means on at a casual table, off at a rated or call-out one;
    the creator's word wins either way."""

    def setting(**extra: Any) -> bool:
        body = create(app, [HUMAN, bot()], game="flaming", **extra)
        return bool(body["table"]["settings"]["bot_hints"])

    assert setting() is True
    assert setting(rated=True) is False
    assert setting(options={"preset": "basic", "callout": "family"}) is False
    assert setting(rated=True, bot_hints=True) is True
    assert setting(bot_hints=False) is False


@pytest.mark.usefixtures("frozen_rates")
def test_hints_are_limited_per_table_and_per_address(tmp_path: Path) -> None:
    """``rate_hint_table`` counts a table's new hints whoever asks; ``rate_hint`` an
    address's: past either, 429 rate_limited with Retry-After."""
    settings = advice_settings_for(tmp_path, rate_hint_table="1/minute")
    with TestClient(create_app(settings)) as client:
        table, token = seated_table(client, "flaming")
        st = my_turn(client, table, token)
        ask_hint(client, table, token, st["seq"])
        client.post(
            f"/api/tables/{table}/actions",
            json={"token": token, "seq": st["seq"], "action": st["legal"][0]},
        )
        later = wait_until(
            lambda: (s := my_turn(client, table, token))["seq"] > st["seq"] and s, "a next turn"
        )
        r = client.post(f"/api/tables/{table}/hint", json={"token": token, "seq": later["seq"]})
        assert r.status_code == 429 and error_code(r) == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
    settings = advice_settings_for(tmp_path / "b", exempt="", rate_hint="1/minute")
    with TestClient(create_app(settings)) as client:
        first, first_token = seated_table(client, "flaming")
        ask_hint(client, first, first_token, my_turn(client, first, first_token)["seq"])
        second, second_token = seated_table(client, "flags")
        seq = my_turn(client, second, second_token)["seq"]
        r = client.post(f"/api/tables/{second}/hint", json={"token": second_token, "seq": seq})
        assert r.status_code == 429 and error_code(r) == "rate_limited"


def finished_table(client: TestClient, game: str) -> str:
    """A seeded table played to its end (seat 0 plays its first legal action)."""
    body = create(client, [HUMAN, bot()], game=game)
    table = body["table"]["id"]
    seat = http_play.HttpSeat(body["invites"][0]["token"], client)
    http_play.play_out(table, [seat])
    return str(table)


def analysed(client: TestClient, table: str) -> dict[str, Any]:
    """GET the analysis until it is done."""

    def done() -> dict[str, Any] | None:
        r = client.get(f"/api/tables/{table}/analysis")
        if r.status_code == 202:
            body = r.json()
            assert body["status"] == "running" or body["position"] >= 0, body
            return None
        assert r.status_code == 200, r.text
        return dict(r.json()["analysis"])

    return wait_until(done, f"table {table}: its analysis")


@pytest.mark.parametrize("game", GAMES)
def test_the_analysis_equals_the_command_line_s_for_the_same_record_and_budget(
    tmp_path: Path, game: str
) -> None:
    """Computed once in the background, stored, served from the database afterwards (a
    new process answers 200 at once, without a search), and equal to
    ``analyse_record(record, iterations, seed=0)`` (``pyramids analyse-game``)."""
    settings = advice_settings_for(tmp_path)
    with TestClient(create_app(settings)) as client:
        table = finished_table(client, game)
        got = analysed(client, table)
        record = GameRecord.from_json(client.get(f"/api/tables/{table}/record").json())
    mine = analyse_record(record, iterations=ANALYSIS_ITERATIONS, seed=0).to_json()
    assert {**got, "cpu_seconds": 0} == {**mine, "cpu_seconds": 0}
    assert got["decisions"] and all(d["seat"] in (0, 1) for d in got["decisions"])
    with TestClient(create_app(settings)) as client:
        r = client.get(f"/api/tables/{table}/analysis")
        assert r.status_code == 200
        assert r.json()["analysis"] == got
        pool = client.app.state.manager.searches  # type: ignore[attr-defined]
        assert not [d for d in pool.history if d.kind == ANALYSIS]


def test_only_a_finished_game_is_analysed(app: TestClient) -> None:
    """409 not_finished while it is played; 404 for no table."""
    table, token = seated_table(app, "flaming")
    my_turn(app, table, token)
    assert error_code(app.get(f"/api/tables/{table}/analysis")) == "not_finished"
    assert app.get("/api/tables/abcdefghij/analysis").status_code == 404


@pytest.mark.usefixtures("frozen_rates")
def test_analyses_are_limited_per_address(tmp_path: Path) -> None:
    """``rate_analysis``: a new analysis counts, a stored one is read freely."""
    settings = advice_settings_for(
        tmp_path, exempt="", rate_analysis="1/hour", rate_action="1000/second"
    )
    with TestClient(create_app(settings)) as client:
        first = finished_table(client, "flaming")
        second = finished_table(client, "flaming")
        analysed(client, first)
        assert client.get(f"/api/tables/{first}/analysis").status_code == 200
        r = client.get(f"/api/tables/{second}/analysis")
        assert r.status_code == 429 and error_code(r) == "rate_limited"


@pytest.mark.parametrize("game", GAMES)
def test_scrambling_the_other_seat_s_hidden_parts_changes_no_hint(
    app: TestClient, game: str
) -> None:
    """Two tables dealt alike; in the second, what seat 0 cannot see is dealt again
    (``determinize`` from seat 0's view: the other hand, the draw piles): the hints at
    seat 0's turn are the same."""
    table, token = seated_table(app, game)
    twin, twin_token = seated_table(app, game)
    st, twin_st = my_turn(app, table, token), my_turn(app, twin, twin_token)
    assert (st["seq"], st["legal"]) == (twin_st["seq"], twin_st["legal"])
    manager = app.app.state.manager  # type: ignore[attr-defined]
    live = manager.tables[twin]
    view = live.state.view(0)
    scrambled = live.state.game.determinize(view, random.Random(99))
    assert scrambled.view(0) == view
    assert scrambled.view(1) != live.state.view(1)  # something hidden from seat 0 changed
    live.state = scrambled
    live.changed(state=True)
    scrambled_hint = ask_hint(app, twin, twin_token, st["seq"])
    assert scrambled_hint["moves"] == ask_hint(app, table, token, st["seq"])["moves"]


def test_a_seat_bound_to_your_account_asks_by_its_number(app: TestClient) -> None:
    """Logged in, a player whose account holds the seat asks with ``seat`` instead of a
    token (the table page opened through the account has none); another account is 403
    not_your_seat, nobody logged in 401 not_logged_in."""
    table, token = seated_table(app, "flaming")
    st = my_turn(app, table, token)
    url = f"/api/tables/{table}/hint"
    r = app.post(url, json={"seat": 0, "seq": st["seq"]})
    assert r.status_code == 401 and error_code(r) == "not_logged_in"
    csrf = app.post("/api/accounts", json={"name": "Ann", "password": "a long password 1"})
    assert csrf.status_code == 201, csrf.text
    headers = {"X-CSRF-Token": csrf.json()["csrf"]}
    r = app.post(url, json={"seat": 0, "seq": st["seq"]}, headers=headers)
    assert r.status_code == 403 and error_code(r) == "not_your_seat"
    linked = app.post(f"/api/tables/{table}/link", json={"token": token}, headers=headers)
    assert linked.status_code == 200, linked.text

    def done() -> dict[str, Any] | None:
        r = app.post(url, json={"seat": 0, "seq": st["seq"]}, headers=headers)
        assert r.status_code in (200, 202), r.text
        return dict(r.json()) if r.status_code == 200 else None

    got = wait_until(done, "the account's hint")
    assert got["seat"] == 0 and got["moves"]
