"""Rematch (docs/PLAYERS.md, "Rematch"): one click on the end screen, the same seats and
options, the first player one seat to the left, a match score across rematches.

Rulebook, "Playing in Rounds": "The starting player should be the person sitting to the
left of the prior game's starting player" (FP-OPT-4; play passes to seat + 1: FP-SETUP-4,
PF-SETUP-3).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert

from pyramids.core.record import GameRecord, replay
from pyramids.games import make_game
from pyramids.server import Settings, create_app
from pyramids.server.auth import ACCOUNTS, COOKIE, CSRF_HEADER, SESSIONS, session_id
from pyramids.server.rematch import claim_rematch
from pyramids.server.store import utcnow
from tests.http_play import HttpSeat, play_out, use_invite
from tests.server.conftest import bot, create, receive_until
from tests.thirdgame import registered

ONE_TURN: dict[str, Any] = {"preset": "basic", "max_turns": 1}


def people(*names: str) -> list[dict[str, Any]]:
    """Human seats with these names."""
    return [{"kind": "human", "name": n} for n in names]


def state(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """The seat's state (binding its invite on first use)."""
    r = client.get(f"/api/tables/{table_id}/state", params={"token": token})
    assert r.status_code == 200, r.text
    return dict(r.json())


def finish(client: TestClient, table_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play every human seat's first legal action over HTTP (bots play at once) until the
    game is over; the final summary."""
    play_out(table_id, [HttpSeat(token, client) for token in tokens])
    return dict(client.get(f"/api/tables/{table_id}").json())


def finished_table(
    client: TestClient, seats: list[dict[str, Any]], **extra: Any
) -> tuple[str, list[str]]:
    """A finished one-turn table of these seats: its id and its human seats' credentials
    (each invite used once: issue 29)."""
    body = create(client, seats, options=ONE_TURN, **extra)
    tid = body["table"]["id"]
    tokens = [use_invite(client, tid, inv["token"]) for inv in body["invites"]]
    finish(client, tid, tokens)
    return tid, tokens


def rematch(client: TestClient, table_id: str, **body: Any) -> Any:
    """POST /api/tables/{id}/rematch."""
    return client.post(f"/api/tables/{table_id}/rematch", json=body)


def expected_places(client: TestClient, table_id: str) -> list[int]:
    """Each seat's place, replayed from the table's record (ties share a place)."""
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json())
    game = make_game(record.game, record.players, record.options)
    states = [game.new_initial_state(record.seed)] + [s for _text, s in replay(game, record)]
    ranks = states[-1].outcome().ranking
    assert ranks is not None
    return [1 + sum(1 for o in ranks if o < r) for r in ranks]


def test_rematch_rotates_the_first_player(client: TestClient) -> None:
    """The player who moved second moves first; both players keep their seats and names,
    get new tokens that work, and the old tokens do not."""
    old, (ann, bob) = finished_table(client, people("Ann", "Bob"))
    assert client.get(f"/api/tables/{old}").json()["options"]["first_player"] == 0
    first = rematch(client, old, token=ann)
    assert first.status_code == 200, first.text
    a = first.json()
    new = a["table"]["id"]
    assert new != old and a["seat"] == 0 and a["url"] == f"/t/{new}?token={a['token']}"
    assert a["table"]["status"] == "open"  # Bob has not taken his seat yet
    b = rematch(client, old, token=bob).json()
    assert b["table"]["id"] == new and b["seat"] == 1 and b["token"] != a["token"]
    summary = client.get(f"/api/tables/{new}").json()
    assert summary["status"] == "running"
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Bob"]
    assert summary["options"] == {
        **client.get(f"/api/tables/{old}").json()["options"],
        "first_player": 1,
    }
    assert summary["match_id"] == old and summary["settings"]["match_players"] == [0, 1]
    bobs = state(client, new, b["token"])
    assert bobs["to_move"] == 1 and bobs["legal"], "Bob, second last time, moves first"
    assert state(client, new, a["token"])["legal"] == []
    stale = client.get(f"/api/tables/{new}/state", params={"token": ann})
    assert stale.status_code == 403 and stale.json()["error"]["code"] == "bad_token"
    old_summary = client.get(f"/api/tables/{old}", params={"token": bob}).json()
    assert old_summary["rematch_id"] == new and old_summary["match_id"] == old
    # and round again: Ann starts the third game
    finish(client, new, [a["token"], b["token"]])
    third = rematch(client, new, token=b["token"]).json()
    assert third["table"]["options"]["first_player"] == 0 and third["seat"] == 1
    assert third["table"]["match_id"] == old


def test_bots_stay_bots_and_the_turn_passes_to_them(client: TestClient) -> None:
    """With three seats the first move passes seat by seat, bots included."""
    seats = [*people("Ann"), {**bot("random"), "name": "Rand"}, {**bot("greedy"), "name": "Greta"}]
    old, (ann,) = finished_table(client, seats)
    firsts = []
    for _ in range(3):
        r = rematch(client, old, token=ann)
        assert r.status_code == 200, r.text
        new, ann = r.json()["table"]["id"], r.json()["token"]
        summary = client.get(f"/api/tables/{new}").json()
        assert [(s["kind"], s["name"], s.get("bot")) for s in summary["seats"]] == [
            ("human", "Ann", None),
            ("bot", "Rand", "random"),
            ("bot", "Greta", "greedy"),
        ]
        assert summary["status"] != "open", "the only human took their seat: it runs"
        firsts.append(summary["options"]["first_player"])
        finish(client, new, [ann])
        old = new
    assert firsts == [1, 2, 0]


def test_a_game_without_a_first_player_option_rotates_the_seats(client: TestClient) -> None:
    """Pebble Pyramid (a test game) has no first_player option: seat 0 moves first, so the
    old seat 1 comes to seat 0 and everyone moves one seat on (new seat i = old i + 1)."""
    with registered() as pebbles:
        body = create(
            client, [{"kind": "human", "name": "Ann"}, {**bot(), "name": "Greta"}], game=pebbles
        )
        old = body["table"]["id"]
        ann = use_invite(client, old, body["invites"][0]["token"])
        finish(client, old, [ann])
        r = rematch(client, old, token=ann)
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["seat"] == 1
        new = answer["table"]["id"]
        summary = client.get(f"/api/tables/{new}").json()
        assert [(s["kind"], s["name"]) for s in summary["seats"]] == [
            ("bot", "Greta"),
            ("human", "Ann"),
        ]
        assert summary["settings"]["match_players"] == [1, 0]
        assert state(client, new, answer["token"])["seats"][1]["name"] == "Ann"
        finish(client, new, [answer["token"]])
        match = client.get(f"/api/matches/{old}", params={"token": ann}).json()
        assert [t["first_player"] for t in match["tables"]] == [0, 1]
        assert [t["seats"] for t in match["tables"]] == [[0, 1], [1, 0]]


def test_two_concurrent_calls_make_one_table(client: TestClient) -> None:
    """Both players click at once: one rematch table, each on their own seat."""
    old, tokens = finished_table(client, people("Ann", "Bob"))
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda tok: rematch(client, old, token=tok), tokens))
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    assert len({r.json()["table"]["id"] for r in answers}) == 1
    assert sorted(r.json()["seat"] for r in answers) == [0, 1]
    match = client.get(f"/api/matches/{old}", params={"token": tokens[0]}).json()
    assert len(match["tables"]) == 2


def test_the_stored_rematch_decides_between_two_servers(settings: Settings) -> None:
    """Two server processes on one database: the conditional update lets one rematch
    table exist; the second server finds the first one's."""
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        old, (ann, bob) = finished_table(one, people("Ann", "Bob"))
        assert two.get(f"/api/tables/{old}").json()["rematch_id"] is None  # loaded in two
        a = rematch(one, old, token=ann).json()
        b = rematch(two, old, token=bob)
        assert b.status_code == 200, b.text
        assert b.json()["table"]["id"] == a["table"]["id"] and b.json()["seat"] == 1
    engine = create_engine(settings.db_url)
    try:
        with engine.begin() as conn:  # a third asker's update finds the rematch set
            assert claim_rematch(conn, old_id=old, new_id="Zzzzzzzzzz") is False
    finally:
        engine.dispose()


def test_match_score_after_two_games(client: TestClient) -> None:
    """Wins follow the players across seats (ties share a win), points count the players
    placed behind; the end screen's numbers."""
    old, (ann, bob) = finished_table(client, people("Ann", "Bob"))
    a = rematch(client, old, token=ann).json()
    b = rematch(client, old, token=bob).json()
    new = a["table"]["id"]
    running = client.get(f"/api/matches/{old}", params={"token": ann}).json()
    assert [t["status"] for t in running["tables"]] == ["finished", "running"]
    assert running["tables"][1]["places"] == [None, None]
    finish(client, new, [a["token"], b["token"]])
    match = client.get(f"/api/matches/{old}", params={"token": b["token"]}).json()
    assert match["match_id"] == old and [t["id"] for t in match["tables"]] == [old, new]
    assert [t["first_player"] for t in match["tables"]] == [0, 1]
    wins = [0.0, 0.0]
    points = [0, 0]
    for t in (old, new):
        places = expected_places(client, t)
        assert next(x for x in match["tables"] if x["id"] == t)["places"] == places
        winners = [p for p in range(2) if places[p] == 1]
        for p in range(2):
            wins[p] += 1 / len(winners) if p in winners else 0
            points[p] += sum(1 for o in places if o > places[p])
    assert match["players"] == [
        {"player": 0, "name": "Ann", "wins": round(wins[0], 4), "points": points[0]},
        {"player": 1, "name": "Bob", "wins": round(wins[1], 4), "points": points[1]},
    ]
    assert sum(p["wins"] for p in match["players"]) == pytest.approx(2)


def test_refusals(client: TestClient) -> None:
    """Not finished (409), a bad token (403), a spectator (403), twice for one seat (409),
    an unknown table or match (404), a body that breaks the schema (422)."""
    body = create(client, people("Ann", "Bob"), options=ONE_TURN)
    running = body["table"]["id"]
    tokens = [use_invite(client, running, i["token"]) for i in body["invites"]]
    r = rematch(client, running, token=tokens[0])
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_finished")
    finish(client, running, tokens)
    r = rematch(client, running, token="nope")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "bad_token")
    r = rematch(client, running, token=body["invites"][0]["token"])
    assert (r.status_code, r.json()["error"]["code"]) == (403, "invite_used")
    r = rematch(client, running)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_seated")
    assert rematch(client, running, token=tokens[0]).status_code == 200
    r = rematch(client, running, token=tokens[0])
    assert (r.status_code, r.json()["error"]["code"]) == (409, "seat_taken")
    assert rematch(client, "nosuchtab1", token="x").json()["error"]["code"] == "unknown_table"
    r = rematch(client, running, token=tokens[1], seat=0)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "malformed")
    for match in ("nosuchtab1", running + "x" * 10):
        r = client.get(f"/api/matches/{match}")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_match")


def test_old_table_viewers_are_told_of_the_rematch(client: TestClient) -> None:
    """The other player's page hears "Ann wants a rematch" with the new table's id."""
    old, (ann, bob) = finished_table(client, people("Ann", "Bob"))
    with client.websocket_connect(f"/ws/tables/{old}?token={bob}") as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        new = rematch(client, old, token=ann).json()["table"]["id"]
        told = receive_until(ws, lambda m: m["type"] == "rematch")
        assert told == {"type": "rematch", "table_id": new, "seat": 0, "name": "Ann"}


@pytest.fixture
def logged_in(settings: Settings) -> Iterator[tuple[str, str]]:
    """An account "Cleo" with a live session (made straight in the database, as
    accounts.py would): the session cookie's token and its CSRF token."""
    token, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(16)
    with TestClient(create_app(settings)):
        pass  # migrate the fresh database
    engine = create_engine(settings.db_url)
    try:
        with engine.begin() as conn:
            now = utcnow()
            account = conn.execute(
                insert(ACCOUNTS).values(
                    name="Cleo", name_key="cleo", password_hash="x", created=now
                )
            ).inserted_primary_key
            assert account is not None
            conn.execute(
                insert(SESSIONS).values(
                    id=session_id(token),
                    account_id=account[0],
                    csrf=csrf,
                    created=now,
                    expires=now.replace(year=now.year + 1),
                )
            )
    finally:
        engine.dispose()
    yield token, csrf


def test_a_logged_in_player_asks_without_a_token(
    settings: Settings, logged_in: tuple[str, str]
) -> None:
    """The account bound to a seat proves it (CSRF-checked); the new seat is bound to it."""
    cookie, csrf = logged_in
    with TestClient(create_app(settings)) as client:
        body = create(client, [{"kind": "human"}, bot()], options=ONE_TURN)
        old, invite = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(
            f"/ws/tables/{old}?token={invite}", headers={"cookie": f"{COOKIE}={cookie}"}
        ) as ws:
            token = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]
        # opening the invite binds no account (issue 29): the player's own click does
        assert client.get(f"/api/tables/{old}").json()["seats"][0]["account"] is False
        linked = client.post(
            f"/api/tables/{old}/link",
            json={"token": token},
            headers={"cookie": f"{COOKIE}={cookie}", CSRF_HEADER: csrf},
        )
        assert linked.status_code == 200, linked.text
        assert client.get(f"/api/tables/{old}").json()["seats"][0]["account"] is True
        finish(client, old, [token])
        client.cookies.set(COOKIE, cookie)
        r = rematch(client, old)
        assert (r.status_code, r.json()["error"]["code"]) == (403, "csrf")
        r = client.post(f"/api/tables/{old}/rematch", json={}, headers={CSRF_HEADER: csrf})
        assert r.status_code == 200, r.text
        seat = r.json()["table"]["seats"][0]
        assert (seat["name"], seat["account"], seat["claimed"]) == ("Cleo", True, True)
        client.cookies.clear()
        r = rematch(client, old)  # the same account, logged out: a spectator now
        assert (r.status_code, r.json()["error"]["code"]) == (403, "not_seated")


def test_a_private_rematch_is_not_found_by_outsiders(client: TestClient) -> None:
    """Issue 29, item 7: "private rematch tables can be found through a finished table's
    rematch_id and /api/matches/{id}, and watched". The rematch of an invite-only table is
    named only to who holds a seat of it: a spectator of the old table, or anyone with its
    id, gets no rematch_id, no `rematch` message, and no series (404 as for none); its
    players get all of them."""
    old, (ann, bob) = finished_table(client, people("Ann", "Bob"))
    with (
        client.websocket_connect(f"/ws/tables/{old}") as spectator,
        client.websocket_connect(f"/ws/tables/{old}?token={bob}") as bobs,
    ):
        receive_until(spectator, lambda m: m["type"] == "state")
        receive_until(bobs, lambda m: m["type"] == "state")
        new = rematch(client, old, token=ann).json()["table"]["id"]
        told = receive_until(bobs, lambda m: m["type"] == "rematch")
        assert told["table_id"] == new
        seen: list[Any] = []
        spectator.send_json({"type": "ping", "id": 1})  # answered after all sent before it
        receive_until(spectator, lambda m: m["type"] == "pong", seen)
        assert [m for m in seen if m["type"] == "rematch"] == []
        tables = [m["table"] for m in seen if m["type"] == "table"]
        assert tables and all(t["rematch_id"] is None for t in tables)
    with client.websocket_connect(f"/ws/tables/{old}") as later:
        assert receive_until(later, lambda m: m["type"] == "hello")["table"]["rematch_id"] is None
    assert client.get(f"/api/tables/{old}").json()["rematch_id"] is None
    assert client.get(f"/api/tables/{old}", params={"token": "nope"}).json()["rematch_id"] is None
    for outsider in ({}, {"token": "nope"}):
        r = client.get(f"/api/matches/{old}", params=outsider)
        assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_match")
    # the players: the old table's token names it, and shows the series
    assert client.get(f"/api/tables/{old}", params={"token": bob}).json()["rematch_id"] == new
    match = client.get(f"/api/matches/{old}", params={"token": bob})
    assert [t["id"] for t in match.json()["tables"]] == [old, new]


def test_a_public_rematch_stays_listed_for_everyone(client: TestClient) -> None:
    """A public table's rematch is public: its id and the series are anyone's to see."""
    old, (ann,) = finished_table(client, [*people("Ann"), bot()], public=True)
    new = rematch(client, old, token=ann).json()["table"]["id"]
    assert client.get(f"/api/tables/{old}").json()["rematch_id"] == new
    assert [t["id"] for t in client.get(f"/api/matches/{old}").json()["tables"]] == [old, new]


def test_the_account_bound_to_a_seat_sees_the_private_rematch(
    settings: Settings, logged_in: tuple[str, str]
) -> None:
    """A logged-in player proves their seat with the session alone (no token needed)."""
    cookie, csrf = logged_in
    with TestClient(create_app(settings)) as client:
        body = create(client, [{"kind": "human"}, bot()], options=ONE_TURN)
        old, invite = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(
            f"/ws/tables/{old}?token={invite}", headers={"cookie": f"{COOKIE}={cookie}"}
        ) as ws:
            token = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]
        linked = client.post(  # the player's own click binds the seat to the account
            f"/api/tables/{old}/link",
            json={"token": token},
            headers={"cookie": f"{COOKIE}={cookie}", CSRF_HEADER: csrf},
        )
        assert linked.status_code == 200, linked.text
        finish(client, old, [token])
        new = rematch(client, old, token=token).json()["table"]["id"]
        assert client.get(f"/api/tables/{old}").json()["rematch_id"] is None
        client.cookies.set(COOKIE, cookie)
        assert client.get(f"/api/tables/{old}").json()["rematch_id"] == new
        assert len(client.get(f"/api/matches/{old}").json()["tables"]) == 2
