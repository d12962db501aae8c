"""Limits of one client (issue 12, point 3): rates (429 + Retry-After, WebSocket close 1008
with a reason), caps (tables, spectators, connections, max_turns, all-bot delay), expiry of
tables that never start, and message nesting and body size.

The app runs in-process (TestClient, whose address is ``testclient``) with small limits;
tests/server/test_slow_clients.py runs the real server for what needs real sockets.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from pyramids.server import Settings, create_app
from pyramids.server.clocks import ManualClock
from pyramids.server.config import LimitSettings
from pyramids.server.limits import ClientLimits, Rate, RateLimitedError, client_key, is_too_deep
from tests.server.conftest import HUMAN, bot, make_settings, receive
from tests.server.rate_clock import RateClock
from tests.waiting import wait_until

TWO_HUMANS = [HUMAN, HUMAN]
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


@pytest.fixture(autouse=True)
def rate_clock(monkeypatch: pytest.MonkeyPatch) -> RateClock:
    """Every rate here counts on a stopped clock (``tests/server/rate_clock.py``): the
    requests of a test that straddles a window's edge count as sent."""
    return RateClock(monkeypatch)


def limited(tmp_path: Path, **limits: Any) -> Settings:
    """Test settings with these limits (every other limit at its default)."""
    return make_settings(tmp_path, limits=LimitSettings(**limits))


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Any]:
    """Start an app with given limits: ``app_with(rate_create="2/minute")``."""
    started: list[TestClient] = []

    def start(**limits: Any) -> TestClient:
        client = TestClient(create_app(limited(tmp_path, **limits)))
        client.__enter__()
        started.append(client)
        return client

    yield start
    for client in started:
        client.__exit__(None, None, None)


def new_table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> Any:
    """POST /api/tables; the response."""
    return client.post("/api/tables", json={"game": "flaming", "seats": seats, **extra})


def test_client_key_counts_ipv6_by_its_64_network() -> None:
    """One host holds a whole IPv6 /64: all its addresses are one client."""
    assert (
        client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    )
    assert client_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert client_key("10.0.0.1") == "10.0.0.1"
    assert client_key(None) == "unknown"


def test_limit_settings_from_env_and_options() -> None:
    """PYRAMIDS_<NAME> sets a limit; --limit NAME=VALUE beats it; a bad name or value says so."""
    env = {"PYRAMIDS_MAX_SPECTATORS": "7", "PYRAMIDS_RATE_CREATE": "1/second"}
    limits = LimitSettings.from_env(env).with_values({"max_spectators": "9"})
    assert (limits.max_spectators, limits.rate_create) == (9, "1/second")
    with pytest.raises(ValueError, match="unknown limit"):
        LimitSettings().with_values({"no_such": "1"})
    with pytest.raises(ValueError, match="not a int"):
        LimitSettings().with_values({"max_spectators": "many"})


def documented_limits() -> dict[str, str]:
    """The rows of docs/PROTOCOL.md's "Limits" table: name -> default, as written."""
    section = PROTOCOL.read_text(encoding="utf-8").split("### Limits", 1)[1].split("\n#", 1)[0]
    rows = (re.match(r"\| `(\w+)` \| ([^|]*) \|", line) for line in section.splitlines())
    return {m.group(1): m.group(2).strip() for m in rows if m}


def test_every_rate_and_limit_is_a_setting_documented_with_its_default() -> None:
    """Issue 31, "one limiter [...] for actions, chat, sign-up and log-in, with every
    number in the settings and documented": each rate ``ClientLimits`` counts is a field
    ``rate_<name>`` of LimitSettings, and every field is a row of docs/PROTOCOL.md's
    "Limits" table giving its default."""
    settings = LimitSettings()
    names = {f.name for f in fields(LimitSettings)}
    assert {f"rate_{kind}" for kind in Rate} <= names
    rows = documented_limits()
    for name in sorted(names):
        default = getattr(settings, name)
        if isinstance(default, str):
            shown = f"`{default}`" if default else "(none)"
        else:
            shown = f"{default:g}" if isinstance(default, float) else str(default)
        assert rows.get(name) == shown, (name, rows.get(name), shown)


def test_a_connections_rate_is_exact_and_applies_to_exempt_addresses(
    rate_clock: RateClock,
) -> None:
    """Per connection the window moves with the hits (8 in any 10 seconds, not 8 per
    fixed 10-second window), whatever the address: exempt addresses are exempt from the
    per-address rates only."""
    limits = ClientLimits(LimitSettings(exempt="testclient"))
    for _ in range(8):
        limits.check_connection(Rate.CHAT_CONNECTION, "c1", "chat messages")
        rate_clock.advance(1)
    with pytest.raises(RateLimitedError) as refused:  # at 8 s: the first is 8 s old
        limits.check_connection(Rate.CHAT_CONNECTION, "c1", "chat messages")
    assert refused.value.retry_after == 2
    assert "at most 8 in 10 s; try again in 2 s" in refused.value.message
    limits.check_connection(Rate.CHAT_CONNECTION, "c2", "chat messages")  # its own count
    rate_clock.advance(3.5)  # at 11.5 s the hits of 0 s and 1 s are out: two more, not eight
    for _ in range(2):
        limits.check_connection(Rate.CHAT_CONNECTION, "c1", "chat messages")
    with pytest.raises(RateLimitedError):
        limits.check_connection(Rate.CHAT_CONNECTION, "c1", "chat messages")
    for _ in range(20):
        limits.check(Rate.CHAT, "testclient")  # the exempt address's own rate: none


def test_a_rate_of_failures_counts_only_what_it_is_told_and_forgets_on_request(
    rate_clock: RateClock,
) -> None:
    """Failed log-ins per name: ``wait`` asks without counting, ``count`` counts a failure,
    ``forget`` clears a name; exempt addresses do not matter (the key is a name)."""
    limits = ClientLimits(LimitSettings(rate_login_failures="3/15minutes", exempt="ann"))
    for _ in range(10):
        assert limits.wait(Rate.LOGIN_FAILURES, "ann") == 0  # asking is free
    for _ in range(3):
        limits.count(Rate.LOGIN_FAILURES, "ann")
    assert 0 < limits.wait(Rate.LOGIN_FAILURES, "ann") <= 15 * 60
    assert limits.wait(Rate.LOGIN_FAILURES, "bob") == 0
    limits.forget(Rate.LOGIN_FAILURES, "ann")
    assert limits.wait(Rate.LOGIN_FAILURES, "ann") == 0
    assert ClientLimits(LimitSettings(rate_login_failures="")).wait(Rate.LOGIN_FAILURES, "x") == 0


def test_table_creation_rate_answers_429_with_retry_after(app_with: Any) -> None:
    """rate_create: past it, 429 rate_limited with Retry-After in seconds, the usual body."""
    client = app_with(rate_create="2/minute", min_all_bot_delay=0)
    for _ in range(2):
        assert new_table(client, [HUMAN, bot()]).status_code == 201
    r = new_table(client, [HUMAN, bot()])
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "2 per 1 minute" in r.json()["error"]["message"]


def test_exempt_address_has_no_rate(app_with: Any) -> None:
    """exempt: an address listed there is never rate limited."""
    client = app_with(rate_create="1/minute", exempt="testclient")
    for _ in range(3):
        assert new_table(client, [HUMAN, bot()]).status_code == 201


def test_claim_rate_answers_429(app_with: Any) -> None:
    """rate_claim counts lobby claims per address."""
    client = app_with(rate_claim="2/minute")
    codes = []
    for _ in range(3):
        tid = new_table(client, TWO_HUMANS, public=True).json()["table"]["id"]
        r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Ann"})
        codes.append(r.status_code)
    assert codes == [200, 200, 429]
    assert r.headers["Retry-After"]


def test_http_action_rate_answers_429(app_with: Any) -> None:
    """rate_action counts HTTP actions (refused or not) per address."""
    client = app_with(rate_action="3/minute")
    body = new_table(client, [HUMAN, bot()]).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    codes = [
        client.post(
            f"/api/tables/{tid}/actions", json={"token": token, "seq": 99, "action": "x"}
        ).status_code
        for _ in range(4)
    ]
    assert 429 not in codes[:3] and codes[3] == 429


def test_too_many_unfinished_tables_per_address(app_with: Any) -> None:
    """max_tables_per_address: the creator's address (stored as created_by) may have so
    many unfinished tables; the next is refused with 429 too_many_tables."""
    client = app_with(max_tables_per_address=2)
    assert new_table(client, TWO_HUMANS).status_code == 201
    assert new_table(client, TWO_HUMANS).status_code == 201
    r = new_table(client, TWO_HUMANS)
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_tables")


def test_max_turns_is_capped(app_with: Any) -> None:
    """max_turns (server-wide cap) refuses a larger max_turns option with bad_options."""
    client = app_with(max_turns=500)
    r = new_table(client, [HUMAN, bot()], options={"max_turns": 10**6})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_options")
    assert "at most 500" in r.json()["error"]["message"]
    huge = new_table(client, [HUMAN, bot()], options={"max_turns": 10**30}).json()["error"]
    assert (huge["code"], huge["refusal"]["code"]) == ("bad_options", "position.integer_too_large")
    assert new_table(client, [HUMAN, bot()], options={"max_turns": 500}).status_code == 201


def test_all_bot_tables_get_the_minimum_bot_delay(app_with: Any) -> None:
    """min_all_bot_delay: an all-bot table asking for bot_delay 0 plays at the minimum;
    a table with a human keeps its own delay."""
    client = app_with(min_all_bot_delay=0.25)
    bots = new_table(client, [bot(), bot()], bot_delay=0).json()["table"]
    assert bots["settings"]["bot_delay"] == 0.25
    mixed = new_table(client, [HUMAN, bot()], bot_delay=0).json()["table"]
    assert mixed["settings"]["bot_delay"] == 0


def expect_close(ws: Any) -> WebSocketDisconnect:
    """Receive until the server closes the socket; the close."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            receive(ws, timeout=10)
    return closed.value


def test_ws_over_limit_action_gets_an_error_and_a_flood_closes_1008(app_with: Any) -> None:
    """rate_action on the socket: an error rate_limited (with retry_after), the socket stays;
    ws_flood: past it the socket closes with 1008 and the reason rate_limited."""
    client = app_with(rate_action="2/minute", ws_flood="8/minute")
    body = new_table(client, [HUMAN, bot()]).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert receive(ws)["type"] == "hello"
        assert receive(ws)["type"] == "state"
        answers = []
        for i in range(3):
            ws.send_json({"type": "action", "id": i, "seq": 999, "action": "x"})
            answers.append(receive(ws))
        assert [a["code"] for a in answers] == ["stale", "stale", "rate_limited"]
        assert answers[2]["retry_after"] >= 1
        ws.send_json({"type": "ping", "id": "p"})
        assert receive(ws)["type"] == "pong"  # still open
        for _ in range(10):
            ws.send_json({"type": "ping"})
        closed = expect_close(ws)
        assert closed.code == 1008
        assert closed.reason.startswith("rate_limited")


def test_ws_connection_rate_closes_1008(app_with: Any) -> None:
    """rate_connect: the socket past it gets an error, then close 1008 rate_limited."""
    client = app_with(rate_connect="2/minute")
    tid = new_table(client, [HUMAN, bot()]).json()["table"]["id"]
    for _ in range(2):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert receive(ws)["type"] == "hello"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert receive(ws)["code"] == "rate_limited"
        closed = expect_close(ws)
        assert (closed.code, closed.reason) == (1008, "rate_limited")


def test_ws_connections_per_address_and_spectators_per_table(app_with: Any) -> None:
    """max_connections_per_address and max_spectators: the socket past a cap is refused
    (close 1008, reason the code); closing one frees its place."""
    client = app_with(max_connections_per_address=3, max_spectators=2)
    tid = new_table(client, [HUMAN, bot()]).json()["table"]["id"]
    other = new_table(client, [HUMAN, bot()]).json()["table"]["id"]
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as a,
        client.websocket_connect(f"/ws/tables/{tid}") as b,
    ):
        assert receive(a)["type"] == receive(b)["type"] == "hello"
        with client.websocket_connect(f"/ws/tables/{tid}") as c:
            assert receive(c)["code"] == "too_many_spectators"
            closed = expect_close(c)
            assert (closed.code, closed.reason) == (1008, "too_many_spectators")
        with client.websocket_connect(f"/ws/tables/{other}") as d:
            assert receive(d)["type"] == "hello"
            with client.websocket_connect(f"/ws/tables/{other}") as e:
                assert receive(e)["code"] == "too_many_connections"
                assert expect_close(e).code == 1008
    with client.websocket_connect(f"/ws/tables/{other}") as f:
        assert receive(f)["type"] == "hello"


def test_ws_message_nested_2000_deep_is_malformed(client: TestClient) -> None:
    """A message nested 2,000 deep gets malformed (not a silent close); the socket stays."""
    body = new_table(client, [HUMAN, bot()], seed=7).json()
    tid = body["table"]["id"]
    deep = "[" * 2000 + "]" * 2000
    assert is_too_deep(deep, 32) and not is_too_deep(
        '{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 32
    )
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive(ws), receive(ws)
        ws.send_text(deep)
        error = receive(ws)
        assert (error["type"], error["code"]) == ("error", "malformed")
        ws.send_text('{"type": "action", "x": ' + "[" * 2000 + "]" * 2000 + "}")
        assert receive(ws)["code"] == "malformed"
        ws.send_json({"type": "ping", "id": 1})
        assert receive(ws)["type"] == "pong"


def test_chunked_body_over_64_kib_is_413(client: TestClient) -> None:
    """A body without Content-Length (chunked) that grows over 64 KiB: 413 too_large."""

    def chunks() -> Iterator[bytes]:
        yield b'{"game": "flaming", "seats": [], "x": "'
        for _ in range(80):
            yield b"a" * 1024
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]["code"]) == (413, "too_large")


# --- expiry ----------------------------------------------------------------------------------


def stored_status(settings: Settings, table_id: str) -> str:
    """The table's status in the database file."""
    engine = create_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT status FROM tables WHERE id = :i"), {"i": table_id})
            return str(row.scalar_one())
    finally:
        engine.dispose()


def clocked(settings: Settings, clock: ManualClock) -> TestClient:
    """The app on ``settings`` with ``clock`` as its time (not entered yet)."""
    app = create_app(settings)
    app.state.manager.clock = clock
    return TestClient(app)


def test_open_table_expires_and_is_not_replayed_at_start(tmp_path: Path) -> None:
    """open_table_ttl: a table still open after it is marked expired (kept, not deleted),
    not a moment before; a table whose invite was used runs and never expires; the
    expired table's seats can no longer be taken; a restart does not load it; it can still
    be read. Time is the manager's injected clock; the sweep is the one the server runs
    every ttl / 4 (its loop on the real clock is the next test's)."""
    settings = limited(tmp_path, open_table_ttl=600)
    clock = ManualClock()
    with clocked(settings, clock) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert client.portal is not None
        body = new_table(client, TWO_HUMANS).json()
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        started = new_table(client, [HUMAN, bot()]).json()
        stid, stoken = started["table"]["id"], started["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{stid}?token={stoken}") as ws:
            assert receive(ws)["type"] == "hello"  # its invite used: running, never expires
        client.portal.call(clock.advance, 599)
        assert client.portal.call(manager.expire_due) == []
        assert client.get(f"/api/tables/{tid}").json()["status"] == "open"
        client.portal.call(clock.advance, 2)
        assert client.portal.call(manager.expire_due) == [tid]
        assert stored_status(settings, tid) == "expired"
        assert client.get(f"/api/tables/{stid}").json()["status"] != "expired"
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            error = receive(ws)
            assert error["code"] == "expired"
            assert expect_close(ws).code == 1008
    with TestClient(create_app(settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert tid not in manager.tables  # not replayed at start
        assert stid in manager.tables
        assert client.get(f"/api/tables/{tid}").json()["status"] == "expired"
        listed = client.get("/api/tables?status=expired").json()["tables"]
        assert all(t["status"] == "expired" for t in listed)


def test_the_server_expires_open_tables_on_its_own(tmp_path: Path) -> None:
    """The sweep runs by itself: with open_table_ttl 0.2 s a table nobody joins is marked
    expired (waited for: the server's loop on the real clock)."""
    settings = limited(tmp_path, open_table_ttl=0.2)
    with TestClient(create_app(settings)) as client:
        tid = new_table(client, TWO_HUMANS).json()["table"]["id"]
        wait_until(
            lambda: client.get(f"/api/tables/{tid}").json()["status"] == "expired",
            f"table {tid}: expired by the server's sweep",
        )
        assert stored_status(settings, tid) == "expired"


def test_open_tables_past_their_time_expire_at_start(tmp_path: Path) -> None:
    """A table that waited longer than open_table_ttl while the server was down is marked
    expired at the start, before anything is replayed (the restart's clock is 61 s after
    the table was made, its ttl 60 s)."""
    clock = ManualClock()
    with clocked(limited(tmp_path, open_table_ttl=3600), clock) as client:
        tid = new_table(client, TWO_HUMANS).json()["table"]["id"]
    settings = limited(tmp_path, open_table_ttl=60)
    later = ManualClock(clock.now() + dt.timedelta(seconds=61))
    with clocked(settings, later) as client:
        assert tid not in client.app.state.manager.tables  # type: ignore[attr-defined]
        assert stored_status(settings, tid) == "expired"


def test_a_trusted_proxy_is_not_capped_as_one_client() -> None:
    """Issue 16 (a balancer in front): the peers of ``trusted_proxies`` carry many clients,
    so the per-address cap of HTTP connections does not count them as one (slow_clients);
    any other peer is capped as before."""
    limits = ClientLimits(LimitSettings(trusted_proxies="127.0.0.1,10.0.0.0/8"))
    assert limits.is_trusted_proxy("127.0.0.1")
    assert limits.is_trusted_proxy("10.20.30.40")
    assert not limits.is_trusted_proxy("192.0.2.7")
    assert not ClientLimits(LimitSettings()).is_trusted_proxy("127.0.0.1")
    assert ClientLimits(LimitSettings(trusted_proxies="*")).is_trusted_proxy("192.0.2.7")
