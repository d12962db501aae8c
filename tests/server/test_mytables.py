"""``GET /api/me/tables``: a logged-in player's open and running tables, "your turn" first."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator
from functools import partial

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, insert

from pyramids.server import Settings
from pyramids.server.auth import ACCOUNTS, COOKIE, SESSIONS, Account, session_id
from pyramids.server.clocks import ManualClock
from pyramids.server.live import LiveTable, SeatSpec
from pyramids.server.table_settings import TableSettings
from tests.server.test_clocks import T0, manager_of, start_app, wait_for


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    with start_app(settings, clock) as c:
        yield c


def add_account(conn: Connection, name: str) -> tuple[int, str]:
    """An account with a live session: its id and the session cookie's token (what
    ``accounts.py`` makes on log-in; made here without the password hashing)."""
    now = dt.datetime.now(dt.UTC)
    account_id = conn.execute(
        insert(ACCOUNTS).values(
            name=name, name_key=name.casefold(), password_hash="$argon2id$unused", created=now
        )
    ).inserted_primary_key[0]
    token = secrets.token_urlsafe(32)
    conn.execute(
        insert(SESSIONS).values(
            id=session_id(token),
            account_id=account_id,
            csrf=secrets.token_urlsafe(16),
            created=now,
            expires=now + dt.timedelta(days=1),
        )
    )
    return int(account_id), token


def login(client: TestClient, name: str) -> Account:
    """Log ``name`` in on ``client`` (its cookie set); the account."""
    portal = client.portal
    assert portal is not None
    account_id, token = portal.call(manager_of(client).write, partial(add_account, name=name))
    client.cookies.set(COOKIE, token)
    return Account(account_id, name)


def table_with(
    client: TestClient,
    seats: dict[int, Account | None],
    bank: float | None,
    players: int = 2,
    on_expiry: str = "stand_in",
) -> LiveTable:
    """A table of ``players`` human seats, seat i bound to ``seats[i]`` (an account, or
    None: a player without one; absent: left free, so the table stays open)."""
    manager = manager_of(client)
    clock = None if bank is None else {"mode": "realtime", "bank": bank, "on_expiry": on_expiry}
    settings = TableSettings(0.0, 0.0, 0.0, "greedy", clock=clock)
    specs = [SeatSpec("human", f"P{i}") for i in range(players)]
    portal = client.portal
    assert portal is not None
    table, invites = portal.call(
        lambda: manager.seating.create_table("flaming", specs, {}, None, settings)
    )
    for invite in invites:
        if invite.seat in seats:
            account = seats[invite.seat]
            portal.call(manager.seating.seat_of, table, invite.token, account)
    return table


def test_your_games_lists_your_turn_first_then_by_deadline_then_newest(
    client: TestClient, clock: ManualClock
) -> None:
    bob = login(client, "Bob")  # (the last login's cookie stays on the client)
    ann = login(client, "Ann")
    slow = table_with(client, {0: ann, 1: bob}, bank=600)  # Ann to move, 10 min left
    waiting = table_with(client, {0: bob, 1: ann}, bank=60)  # Bob to move
    clock.advance(1)
    urgent = table_with(client, {0: ann, 1: None}, bank=60)  # Ann to move, 1 min left
    clock.advance(1)
    plain = table_with(client, {0: ann, 1: bob}, bank=None)  # Ann to move, no clock
    clock.advance(1)
    open_ = table_with(client, {1: ann}, bank=60, players=3)  # waits for two players
    clock.advance(1)
    table_with(client, {0: bob, 1: None}, bank=60)  # not Ann's: not listed
    for t in (slow, waiting, urgent, plain):
        wait_for(client, t.id, lambda s: s["status"] == "running" and s["to_move"] == 0)

    r = client.get("/api/me/tables")
    assert r.status_code == 200, r.text
    listed = r.json()["tables"]
    assert [e["table"]["id"] for e in listed] == [
        urgent.id,
        slow.id,
        plain.id,
        open_.id,
        waiting.id,
    ]
    assert [e["your_turn"] for e in listed] == [True, True, True, False, False]
    assert listed[0]["deadline"] == "2026-03-01T12:01:01.000Z"
    assert listed[1]["deadline"] == "2026-03-01T12:10:00.000Z"
    assert listed[2]["deadline"] is None
    assert listed[3]["seat"] == 1 and listed[3]["table"]["status"] == "open"
    assert listed[4]["seat"] == 1 and listed[4]["deadline"] is None


def test_a_finished_table_leaves_your_games(client: TestClient, clock: ManualClock) -> None:
    ann = login(client, "Ann")
    table = table_with(client, {0: ann, 1: None}, bank=30, on_expiry="forfeit")
    wait_for(client, table.id, lambda s: s["status"] == "running")
    assert len(client.get("/api/me/tables").json()["tables"]) == 1
    portal = client.portal
    assert portal is not None
    portal.call(clock.advance, 31)
    wait_for(client, table.id, lambda s: s["status"] == "finished")
    assert client.get("/api/me/tables").json() == {"tables": []}


def test_your_games_needs_a_login(client: TestClient) -> None:
    r = client.get("/api/me/tables")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "not_logged_in"
