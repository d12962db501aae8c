"""Accounts and sessions (issue 15, part 1): sign up, log in and out, CSRF, rate limits,
rename, new password, deletion, seats bound to accounts, and a restart.

The app runs in-process on a real SQLite file; the cookie jar of the TestClient is the
browser's. Hashes are real argon2id (about a quarter of a second each here).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.server import Settings, create_app
from pyramids.server.accounts import DELETED_NAME, check_name, name_key
from pyramids.server.auth import COOKIE, CSRF_HEADER
from pyramids.server.config import LimitSettings
from pyramids.server.protocol import ProtocolError
from pyramids.server.sessions import SESSION_MAX_AGE
from tests.http_play import HttpSeat, play_out
from tests.server.conftest import HUMAN, bot, create, make_settings, receive_until
from tests.server.rate_clock import RateClock

PASSWORD = "correct horse battery"
FAILED_LIMIT = int(LimitSettings().rate_login_failures.split("/")[0])
"""Failed log-ins a name may take (``rate_login_failures``, by default 5 in 15 minutes)."""


@pytest.fixture(autouse=True)
def rate_clock(monkeypatch: pytest.MonkeyPatch) -> RateClock:
    """Every rate here counts on a stopped clock (``tests/server/rate_clock.py``): a test
    that straddles a window's edge counts its requests as sent."""
    return RateClock(monkeypatch)


def error_code(response: Any) -> str:
    """The protocol error code of a response (and its message is there)."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return str(body["error"]["code"])


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> str:
    """Sign up (logged in at once); the session's CSRF token."""
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> str:
    """Log in; the session's CSRF token."""
    r = client.post("/api/session", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf"])


def csrf(token: str) -> dict[str, str]:
    """The header of a cookie-authenticated write."""
    return {CSRF_HEADER: token}


def who(client: TestClient) -> Any:
    """GET /api/session's account (None: logged out)."""
    return client.get("/api/session").json()["account"]


def query(settings: Settings, sql: str, **params: Any) -> list[Any]:
    """Rows read straight from the database file."""
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params))
    finally:
        engine.dispose()


def execute(settings: Settings, sql: str, **params: Any) -> None:
    """A statement run straight on the database file."""
    engine = create_engine(settings.db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text(sql), params)
    finally:
        engine.dispose()


def play_http_to_end(client: TestClient, tid: str, token: str, headers: dict[str, str]) -> None:
    """Play a seat over HTTP (first legal action, with the session's CSRF header)."""
    play_out(tid, [HttpSeat(token, client, headers)])


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Any]:
    """Start an app with given limits: ``app_with(rate_login="2/minute")``."""
    started: list[TestClient] = []

    def start(**limits: Any) -> TestClient:
        c = TestClient(create_app(make_settings(tmp_path, limits=LimitSettings(**limits))))
        c.__enter__()
        started.append(c)
        return c

    yield start
    for c in started:
        c.__exit__(None, None, None)


# --- sign-up ------------------------------------------------------------------------------


def test_sign_up_logs_in_at_once_with_an_httponly_samesite_cookie(
    client: TestClient, settings: Settings
) -> None:
    """Sign up: 201 {"account", "csrf"}, the session cookie set; only the token's SHA-256
    and an argon2id hash are stored."""
    r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["account"]["name"] == "Ann"
    assert body["account"]["created"].endswith("Z")
    assert len(body["csrf"]) >= 32
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "samesite=lax" in cookie.lower()
    assert f"max-age={SESSION_MAX_AGE}" in cookie.lower()
    assert "secure" not in attributes  # plain http here
    assert r.headers["cache-control"] == "no-store"
    session = client.get("/api/session").json()
    assert session == body
    token = client.cookies[COOKIE]
    [stored] = query(settings, "SELECT id, csrf, expires FROM sessions")
    assert stored.id == hashlib.sha256(token.encode()).hexdigest() != token
    assert stored.csrf == body["csrf"]
    [account] = query(settings, "SELECT name, name_key, password_hash FROM accounts")
    assert (account.name, account.name_key) == ("Ann", "ann")
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    PasswordHasher().verify(account.password_hash, PASSWORD)


def test_the_cookie_is_secure_when_served_over_tls(settings: Settings) -> None:
    """A page that came over https gets a ``Secure`` cookie."""
    with TestClient(create_app(settings), base_url="https://testserver") as tls:
        r = tls.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201, r.text
        assert "secure" in r.headers["set-cookie"].lower().split("; ")


def test_names_are_unique_whatever_their_case_and_width(client: TestClient) -> None:
    """Names compare case-folded (and NFKC: a full-width Ａ is an A): 409 name_taken."""
    sign_up(client, "Ann")
    for other in ("ann", "ANN", "Ａnn"):
        r = client.post("/api/accounts", json={"name": other, "password": PASSWORD})
        assert r.status_code == 409, other
        assert error_code(r) == "name_taken"
    assert name_key("Ａnn") == name_key("ANN") == "ann"


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("Al", "3 to 24"),
        ("A" * 25, "3 to 24"),
        ("Ann Lee", "letters, digits"),
        ("Ann<b>", "letters, digits"),
        ("_Ann", "begins and ends"),
        ("Ann.", "begins and ends"),
        ("", "3 to 24"),
    ],
)
def test_a_name_breaking_a_rule_is_refused_saying_which(
    client: TestClient, name: str, rule: str
) -> None:
    """Name: 3–24 letters (any script), digits, _ - . inside: 422 malformed, the rule said."""
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 422
    assert error_code(r) == "malformed"
    assert rule in r.json()["error"]["message"]


def test_names_in_any_script_are_accepted() -> None:
    """Letters of any script with their marks, digits and inner punctuation are names."""
    for name in ("Zoë", "Пётр", "李小龍", "हिन्दी", "a.b-c_9", "Ａnn"):
        assert check_name(name) == check_name(name).strip()
    assert check_name("Ａnn") == "Ann"


@pytest.mark.parametrize("name", ["deleted player", "Deleted_Player", "DELETED.player"])
def test_the_deleted_players_name_is_reserved(client: TestClient, name: str) -> None:
    """Nobody may be called "deleted player", nor anything spelling it up to case and _ - ."""
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 409
    assert error_code(r) == "name_taken"
    assert "reserved" in r.json()["error"]["message"]
    with pytest.raises(ProtocolError):
        check_name(name)


def test_weak_or_overlong_passwords_are_refused(client: TestClient) -> None:
    """Password: 8–256 characters and not the name (422 weak_password / malformed)."""
    cases = [
        ("short", "weak_password", "at least 8"),
        ("Benjamin", "weak_password", "cannot be the name"),
        ("x" * 257, "malformed", "at most 256"),
    ]
    for password, code, words in cases:
        r = client.post("/api/accounts", json={"name": "benjamin", "password": password})
        assert r.status_code == 422, password
        assert error_code(r) == code
        assert words in r.json()["error"]["message"]
    r = client.post("/api/accounts", json={"name": "benjamin", "password": 12345678})
    assert error_code(r) == "malformed"
    assert who(client) is None


def test_sign_up_is_rate_limited_per_address(app_with: Any) -> None:
    """The per-address ``signup`` rate: past it 429 rate_limited with Retry-After."""
    client = app_with(rate_signup="2/hour")
    sign_up(client, "Ann")
    sign_up(client, "Bob")
    r = client.post("/api/accounts", json={"name": "Cy", "password": PASSWORD})
    assert r.status_code == 429
    assert error_code(r) == "rate_limited"
    assert int(r.headers["retry-after"]) > 0


def test_sign_up_and_log_in_refuse_another_sites_page(client: TestClient) -> None:
    """A browser's Origin other than the server's own may not log in (login CSRF)."""
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}, headers=evil)
    assert r.status_code == 403
    assert error_code(r) == "bad_origin"
    own = {"Origin": "http://testserver"}
    r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}, headers=own)
    assert r.status_code == 201
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD}, headers=evil)
    assert error_code(r) == "bad_origin"


# --- log-in and log-out -------------------------------------------------------------------


def test_log_in_by_name_in_any_case_gives_a_new_session(
    client: TestClient, settings: Settings
) -> None:
    """Log in: 200 {"account", "csrf"}; a new token and CSRF token each time, and the
    browser's previous session ends (no session fixation)."""
    first = sign_up(client, "Ann")
    old_token = client.cookies[COOKIE]
    r = client.post("/api/session", json={"name": "aNN", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["name"] == "Ann"
    assert r.json()["csrf"] != first
    assert client.cookies[COOKIE] != old_token
    assert len(query(settings, "SELECT id FROM sessions")) == 1
    client.cookies.set(COOKIE, old_token)
    assert who(client) is None


def test_wrong_password_and_unknown_name_get_the_same_answer(client: TestClient) -> None:
    """401 bad_credentials with one message for both: the answer tells no name apart."""
    sign_up(client, "Ann")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Ann", "password": "not the password"})
    unknown = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert error_code(wrong) == error_code(unknown) == "bad_credentials"
    assert wrong.json() == unknown.json()
    assert "set-cookie" not in wrong.headers
    assert who(client) is None


def test_log_out_ends_the_session_on_the_server(client: TestClient) -> None:
    """DELETE /api/session (CSRF-checked): 204, the row gone, the cookie cleared; the old
    token no longer logs anyone in. Without a session: 204 too."""
    token = sign_up(client, "Ann")
    cookie = client.cookies[COOKIE]
    r = client.delete("/api/session", headers=csrf(token))
    assert r.status_code == 204
    assert f'{COOKIE}=""' in r.headers["set-cookie"]
    assert who(client) is None
    client.cookies.set(COOKIE, cookie)
    assert client.get("/api/session").json() == {"account": None, "csrf": None}
    client.cookies.clear()
    assert client.delete("/api/session").status_code == 204


def test_failed_log_ins_per_name_are_limited_from_any_address(client: TestClient) -> None:
    """At most FAILED_LIMIT failures per name (the test client's address is exempt from
    the per-address rates, not from this): then 429 even with the right password; another
    name is not affected."""
    sign_up(client, "Ann")
    sign_up(client, "Bob")
    client.cookies.clear()
    for _ in range(FAILED_LIMIT):
        r = client.post("/api/session", json={"name": "ann", "password": "guess guess"})
        assert error_code(r) == "bad_credentials"
    r = client.post("/api/session", json={"name": "ANN", "password": PASSWORD})
    assert r.status_code == 429
    assert error_code(r) == "rate_limited"
    assert 0 < int(r.headers["retry-after"]) <= 15 * 60
    log_in(client, "Bob")


def test_unknown_names_are_limited_too(client: TestClient) -> None:
    """Guessing names is limited like guessing passwords (nothing tells them apart)."""
    for _ in range(FAILED_LIMIT):
        r = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert error_code(r) == "bad_credentials"
    r = client.post("/api/session", json={"name": "nobody", "password": PASSWORD})
    assert error_code(r) == "rate_limited"


def test_failed_log_ins_per_name_are_a_setting_and_their_window_passes(
    app_with: Any, rate_clock: RateClock
) -> None:
    """``rate_login_failures`` (issue 31: every rate is a setting, counted by one limiter):
    a wrong current password counts as a failed log-in of the name; past the rate even the
    right password is refused; once the window has room (the limiter's clock moved on)
    the right password logs in, and that clears the name's count."""
    client = app_with(rate_login_failures="2/15minutes")
    token = sign_up(client, "Ann")
    wrong = {"current_password": "wrong wrong", "name": "Anna"}
    assert error_code(client.patch("/api/accounts/me", json=wrong, headers=csrf(token))) == (
        "wrong_password"
    )
    client.cookies.clear()
    guess = {"name": "ann", "password": "guess guess"}
    assert error_code(client.post("/api/session", json=guess)) == "bad_credentials"
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert error_code(r) == "rate_limited"
    assert "at most 2 per 15minutes" in r.json()["error"]["message"]
    assert 0 < int(r.headers["retry-after"]) <= 15 * 60
    rate_clock.advance(15 * 60)
    log_in(client, "Ann")
    for _ in range(2):  # cleared by the log-in: two failures again before a refusal
        assert error_code(client.post("/api/session", json=guess)) == "bad_credentials"
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert error_code(r) == "rate_limited"


def test_log_in_is_rate_limited_per_address(app_with: Any) -> None:
    """The per-address ``login`` rate counts every attempt, right or wrong."""
    client = app_with(rate_login="2/minute")
    sign_up(client, "Ann")
    log_in(client, "Ann")
    log_in(client, "Ann")
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 429
    assert error_code(r) == "rate_limited"
    assert "retry-after" in r.headers


def test_an_expired_session_logs_nobody_in(client: TestClient, settings: Settings) -> None:
    """Expiry is checked on the server, whatever the cookie says; the next log-in sweeps
    expired rows away."""
    sign_up(client, "Ann")
    execute(settings, "UPDATE sessions SET expires = :t", t="2000-01-01 00:00:00")
    assert who(client) is None
    log_in(client, "Ann")
    assert len(query(settings, "SELECT id FROM sessions")) == 1


def test_an_old_hash_is_upgraded_at_log_in(client: TestClient, settings: Settings) -> None:
    """A hash made with weaker parameters still logs in, and is replaced by one with the
    current parameters (``check_needs_rehash``)."""
    sign_up(client, "Ann")
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    execute(settings, "UPDATE accounts SET password_hash = :h", h=weak)
    client.cookies.clear()
    log_in(client, "Ann")
    [row] = query(settings, "SELECT password_hash FROM accounts")
    assert row.password_hash != weak
    assert not PasswordHasher().check_needs_rehash(row.password_hash)
    PasswordHasher().verify(row.password_hash, PASSWORD)


# --- CSRF ---------------------------------------------------------------------------------


def test_cookie_writes_without_the_csrf_token_are_refused(client: TestClient) -> None:
    """With the cookie but without (or with a wrong) X-CSRF-Token: 403 csrf on log-out,
    account changes, deletion and table creation; nothing done."""
    token = sign_up(client, "Ann")
    table = {"game": "flaming", "seats": [HUMAN, bot()], "seed": 7}
    for headers in ({}, csrf("not-the-token")):
        attempts = [
            client.delete("/api/session", headers=headers),
            client.patch(
                "/api/accounts/me",
                json={"current_password": PASSWORD, "name": "Zed"},
                headers=headers,
            ),
            client.request(
                "DELETE", "/api/accounts/me", json={"password": PASSWORD}, headers=headers
            ),
            client.post("/api/tables", json=table, headers=headers),
        ]
        for r in attempts:
            assert r.status_code == 403, r.request.url
            assert error_code(r) == "csrf"
    assert who(client)["name"] == "Ann"
    assert client.get("/api/tables").json()["tables"] == []
    assert client.post("/api/tables", json=table, headers=csrf(token)).status_code == 201
    client.cookies.clear()  # no cookie: not cookie-authenticated, no token needed
    assert client.post("/api/tables", json=table).status_code == 201


# --- seats bound to accounts ----------------------------------------------------------------


def test_a_seat_claimed_while_logged_in_is_bound_to_the_account(
    client: TestClient, settings: Settings
) -> None:
    """A lobby claim with the session takes the account's name and binds the seat."""
    token = sign_up(client, "Ann")
    client.headers.update(csrf(token))
    body = create(client, [HUMAN, HUMAN], public=True)
    tid = body["table"]["id"]
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Other"}, headers=csrf(token))
    assert r.status_code == 200, r.text
    seat = client.get(f"/api/tables/{tid}").json()["seats"][0]
    assert (seat["name"], seat["account"]) == ("Ann", True)
    [row] = query(settings, "SELECT account_id FROM seats WHERE table_id = :t AND seat = 0", t=tid)
    [account] = query(settings, "SELECT id FROM accounts WHERE name = 'Ann'")
    assert row.account_id == account.id
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["account"] is False


def test_an_invite_opened_over_the_websocket_while_logged_in_joins_the_account_on_a_click(
    client: TestClient, settings: Settings
) -> None:
    """The handshake carries the cookie, yet opening the invite binds the seat to its new
    credential only (a page of another site may have sent the browser there, issue 29);
    the player's own "Link this seat to my account" (a CSRF-checked write) binds it."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    token = sign_up(client, "Ann")
    invite = body["invites"][1]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={invite}") as ws:
        credential = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert (seats[1]["name"], seats[1]["claimed"], seats[1]["account"]) == ("Seat 2", True, False)
    r = client.post(f"/api/tables/{tid}/link", json={"token": credential}, headers=csrf(token))
    assert r.status_code == 200, r.text
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert (seats[1]["name"], seats[1]["account"]) == ("Ann", True)
    assert seats[0]["account"] is False
    [row] = query(settings, "SELECT account_id FROM seats WHERE table_id = :t AND seat = 1", t=tid)
    assert row.account_id is not None


# --- rename and new password -----------------------------------------------------------------


def test_rename_takes_every_bound_seat_along_live_and_stored(
    client: TestClient, settings: Settings
) -> None:
    """PATCH name: unique (409), current password asked (403 wrong_password); the seats
    bound to the account take the new name, and connected clients are told."""
    sign_up(client, "Bob")
    client.cookies.clear()
    token = sign_up(client, "Ann")
    client.headers.update(csrf(token))
    body = create(client, [HUMAN, HUMAN], public=True)
    tid = body["table"]["id"]
    client.post(f"/api/tables/{tid}/seats/0/claim", json={}, headers=csrf(token))
    headers = csrf(token)
    r = client.patch(
        "/api/accounts/me", json={"current_password": "wrong wrong", "name": "Zed"}, headers=headers
    )
    assert (r.status_code, error_code(r)) == (403, "wrong_password")
    r = client.patch(
        "/api/accounts/me", json={"current_password": PASSWORD, "name": "BOB"}, headers=headers
    )
    assert (r.status_code, error_code(r)) == (409, "name_taken")
    r = client.patch("/api/accounts/me", json={"current_password": PASSWORD}, headers=headers)
    assert (r.status_code, error_code(r)) == (422, "malformed")
    spectator_seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        receive_until(spectator, lambda m: m["type"] == "state")
        r = client.patch(
            "/api/accounts/me", json={"current_password": PASSWORD, "name": "Zoë"}, headers=headers
        )
        assert r.status_code == 200, r.text
        assert r.json() == {"account": {**r.json()["account"], "name": "Zoë"}, "csrf": token}
        told = receive_until(
            spectator,
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["name"] == "Zoë",
            spectator_seen,
        )
    assert told["table"]["seats"][0]["account"] is True
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Zoë"
    [row] = query(settings, "SELECT name FROM seats WHERE table_id = :t AND seat = 0", t=tid)
    assert row.name == "Zoë"
    assert who(client)["name"] == "Zoë"
    client.cookies.clear()
    log_in(client, "zoë")
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert error_code(r) == "bad_credentials"
    # a change of case only is a rename too
    r = client.patch(
        "/api/accounts/me",
        json={"current_password": PASSWORD, "name": "ZOË"},
        headers=csrf(client.get("/api/session").json()["csrf"]),
    )
    assert r.json()["account"]["name"] == "ZOË"


def test_a_new_password_ends_every_other_session(client: TestClient, settings: Settings) -> None:
    """PATCH password: the old one stops working, the other browsers are logged out, this
    one stays logged in."""
    sign_up(client, "Ann")
    other_browser = client.cookies[COOKIE]
    client.cookies.clear()
    token = log_in(client, "Ann")
    this_browser = client.cookies[COOKIE]
    assert len(query(settings, "SELECT id FROM sessions")) == 2
    new = "a much better passphrase"
    r = client.patch(
        "/api/accounts/me",
        json={"current_password": PASSWORD, "password": "Ann"},
        headers=csrf(token),
    )
    assert error_code(r) == "weak_password"
    r = client.patch(
        "/api/accounts/me",
        json={"current_password": PASSWORD, "password": new},
        headers=csrf(token),
    )
    assert r.status_code == 200, r.text
    assert who(client)["name"] == "Ann"
    client.cookies.set(COOKIE, other_browser)
    assert who(client) is None
    client.cookies.set(COOKIE, this_browser)
    assert who(client)["name"] == "Ann"
    client.cookies.clear()
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert error_code(r) == "bad_credentials"
    log_in(client, "Ann", new)


# --- deletion ----------------------------------------------------------------------------------


def test_deleting_the_account_keeps_its_games_under_deleted_player(
    client: TestClient, settings: Settings
) -> None:
    """DELETE /api/accounts/me (password asked): 204; the finished game's seat shows
    "deleted player" bound to nobody, its chat lines too; the sessions go; the account
    cannot log in; the name is free again; an unfinished table's seat still plays."""
    token = sign_up(client, "Ann")
    client.headers.update(csrf(token))
    [account] = query(settings, "SELECT id FROM accounts")
    finished = create(client, [HUMAN, bot()], seed=7)
    fid = finished["table"]["id"]
    invite = finished["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{fid}?token={invite}") as ws:  # binds the seat
        seat_token = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]
    linked = client.post(f"/api/tables/{fid}/link", json={"token": seat_token})  # to Ann
    assert linked.status_code == 200, linked.text
    play_http_to_end(client, fid, seat_token, csrf(token))
    running = create(client, [HUMAN, HUMAN], public=True)
    rid = running["table"]["id"]
    claim = client.post(f"/api/tables/{rid}/seats/0/claim", json={}, headers=csrf(token))
    ann_token = claim.json()["token"]
    cookie = client.cookies[COOKIE]
    client.cookies.clear()
    assert client.post(f"/api/tables/{rid}/seats/1/claim", json={}).status_code == 200
    client.cookies.set(COOKIE, cookie)
    assert client.get(f"/api/tables/{rid}").json()["status"] == "running"
    state = client.get(f"/api/tables/{rid}/state", params={"token": ann_token}).json()
    assert client.get(f"/api/tables/{fid}").json()["seats"][0]["account"] is True
    execute(
        settings,
        "INSERT INTO chat (table_id, channel, seat, name, account_id, text, seq, created) "
        "VALUES (:t, 'seats', 0, 'Ann', :a, 'gg', 3, '2026-01-01 00:00:00')",
        t=fid,
        a=account.id,
    )
    r = client.request(
        "DELETE", "/api/accounts/me", json={"password": "wrong wrong"}, headers=csrf(token)
    )
    assert (r.status_code, error_code(r)) == (403, "wrong_password")
    r = client.request(
        "DELETE", "/api/accounts/me", json={"password": PASSWORD}, headers=csrf(token)
    )
    assert r.status_code == 204, r.text
    assert who(client) is None
    seat = client.get(f"/api/tables/{fid}").json()["seats"][0]
    assert (seat["name"], seat["account"]) == (DELETED_NAME, False)
    assert client.get(f"/api/tables/{fid}/record").status_code == 200
    assert query(settings, "SELECT * FROM accounts") == []
    assert query(settings, "SELECT * FROM sessions") == []
    assert query(settings, "SELECT * FROM seats WHERE account_id IS NOT NULL") == []
    assert query(settings, "SELECT * FROM results WHERE account_id IS NOT NULL") == []
    [line] = query(settings, "SELECT name, account_id, text FROM chat")
    assert tuple(line) == (DELETED_NAME, None, "gg")
    [stored] = query(settings, "SELECT name FROM seats WHERE table_id = :t AND seat = 0", t=fid)
    assert stored.name == DELETED_NAME
    # the unfinished table's seat keeps playing with its token
    if state["legal"]:
        r = client.post(
            f"/api/tables/{rid}/actions",
            json={"token": ann_token, "seq": state["seq"], "action": state["legal"][0]},
        )
        assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{rid}").json()["seats"][0]["name"] == DELETED_NAME
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert error_code(r) == "bad_credentials"
    sign_up(client, "ann")  # the name is free again


def test_without_a_session_account_changes_need_a_log_in(client: TestClient) -> None:
    """PATCH and DELETE /api/accounts/me without a session: 401 not_logged_in."""
    r = client.patch("/api/accounts/me", json={"current_password": PASSWORD, "name": "Zed"})
    assert (r.status_code, error_code(r)) == (401, "not_logged_in")
    r = client.request("DELETE", "/api/accounts/me", json={"password": PASSWORD})
    assert (r.status_code, error_code(r)) == (401, "not_logged_in")


# --- restart -----------------------------------------------------------------------------------


def test_a_restart_keeps_accounts_and_sessions(settings: Settings) -> None:
    """A new app on the same database file: the cookie still logs in, with its CSRF token,
    and the password still works."""
    with TestClient(create_app(settings)) as first:
        token = sign_up(first, "Ann")
        cookie = first.cookies[COOKIE]
    with TestClient(create_app(settings)) as second:
        second.cookies.set(COOKIE, cookie)
        assert second.get("/api/session").json() == {
            "account": {
                "name": "Ann",
                "created": second.get("/api/session").json()["account"]["created"],
            },
            "csrf": token,
        }
        assert second.delete("/api/session", headers=csrf(token)).status_code == 204
        log_in(second, "ann")


def test_the_account_page_is_served(client: TestClient) -> None:
    """/account is the account page."""
    r = client.get("/account")
    assert r.status_code == 200
    assert 'data-testid="sign-up-form"' in r.text
