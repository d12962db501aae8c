"""Issue 15, item 1: "Seats taken while logged in are bound to the account." A bound seat is
the player's on every device: logged in, the table's WebSocket takes it with ``?seat=N``
and no token (the lobby's "Your games" links there); anyone else is refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pyramids.server import Settings, create_app
from tests.server.conftest import HUMAN, create, receive_until, socket_refusal
from tests.server.test_accounts import PASSWORD, sign_up


def bound_table(client: TestClient) -> tuple[str, str]:
    """A running table of two people: seat 1 Ann took with her invite while logged in and
    then bound to her account by her own request (issue 29: opening a link never binds an
    account; "Link this seat to my account" on the table page does); seat 0's player has
    no account. The table's id and seat 0's credential."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    csrf = sign_up(client, "Ann")
    with client.websocket_connect(f"/ws/tables/{tid}?token={body['invites'][1]['token']}") as ws:
        credential = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]
    r = client.post(
        f"/api/tables/{tid}/link", json={"token": credential}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 200, r.text
    first = client.get(f"/api/tables/{tid}/state", params={"token": body["invites"][0]["token"]})
    assert first.status_code == 200, first.text
    return tid, first.json()["seat_token"]


def test_a_logged_in_player_takes_their_bound_seat_on_another_device(settings: Settings) -> None:
    """Another browser (a new cookie jar) logs in as Ann and opens ``?seat=1``: it is Ann's
    seat there too, and she can act on it."""
    with TestClient(create_app(settings)) as first:
        tid, _ = bound_table(first)
    with TestClient(create_app(settings)) as other:
        r = other.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 200
        with other.websocket_connect(f"/ws/tables/{tid}?seat=1") as ws:
            hello = receive_until(ws, lambda m: m["type"] == "hello")
            assert hello["seat"] == 1
            state = receive_until(ws, lambda m: m["type"] == "state")
            assert state["view"]["viewer"] == 1  # seat 1's own view: its hand
        seats = other.get(f"/api/tables/{tid}").json()["seats"]
        assert (seats[1]["name"], seats[1]["account"]) == ("Ann", True)
        mine = other.get("/api/me/tables").json()
        assert [(t["table"]["id"], t["seat"]) for t in mine["tables"]] == [(tid, 1)]


def test_a_seat_is_refused_to_another_account_and_to_a_logged_out_browser(
    client: TestClient,
) -> None:
    """Bob may not take Ann's seat; without a session the seat is asked for in vain; a seat
    that does not exist is named so. The spectator's view stays open to all."""
    tid, _ = bound_table(client)
    client.delete(
        "/api/session", headers={"X-CSRF-Token": client.get("/api/session").json()["csrf"]}
    )
    assert socket_refusal(client, f"/ws/tables/{tid}?seat=1") == ("not_logged_in", 4403)
    sign_up(client, "Bob")
    assert socket_refusal(client, f"/ws/tables/{tid}?seat=1") == ("not_your_seat", 4403)
    assert socket_refusal(client, f"/ws/tables/{tid}?seat=0") == ("not_your_seat", 4403)
    assert socket_refusal(client, f"/ws/tables/{tid}?seat=7") == ("unknown_seat", 4403)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert receive_until(ws, lambda m: m["type"] == "hello")["seat"] is None
