"""Issue 29, items 1 to 3: a seat belongs to its player.

1. "Invites that are used once: the first use of an invite binds the seat and hands the
   player a fresh seat credential that only they hold; from then on the invite is dead for
   state, actions, chat and rematch. The creator's own seat works the same way."
2. "No look before the deal is fixed: no seat's hand is visible until every human seat is
   bound (the table is open until then)."
3. "Binding only by the player's own action: a top-level cross-site navigation never binds a
   seat to an account (binding needs a same-origin request with the CSRF token, or a click
   on the page)."
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from pyramids.games import make_game
from tests.http_play import HttpSeat, play_out
from tests.server.conftest import HUMAN, bot, create, receive_until, socket_refusal
from tests.server.test_accounts import sign_up

ONE_TURN: dict[str, Any] = {"preset": "basic", "max_turns": 1}


def refused(r: Any, code: str, status: int = 403) -> None:
    """``r`` is the refusal ``code`` with ``status``."""
    assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text


def open_invite(client: TestClient, table: str, invite: str) -> dict[str, Any]:
    """Open the invite over the table's WebSocket (as the table page does): the hello."""
    with client.websocket_connect(f"/ws/tables/{table}?token={invite}") as ws:
        return receive_until(ws, lambda m: m["type"] == "hello")


def credential_of(hello: dict[str, Any], invite: str) -> str:
    """The seat's new credential a hello handed over (not the invite)."""
    credential = hello.get("seat_token")
    assert isinstance(credential, str) and credential != invite, hello
    return credential


def take_seat(client: TestClient, table: str, invite: str) -> str:
    """Open the invite over the table's WebSocket: the seat's new credential."""
    return credential_of(open_invite(client, table, invite), invite)


# --- 1. invites that are used once ----------------------------------------------------------


def test_a_kept_invite_is_dead_once_the_friend_used_it(client: TestClient) -> None:
    """The creator keeps the friend's invite; the friend opens it: from then on the kept
    invite reads no hand, plays nothing, opens no socket and reads no chat
    (``invite_used``); the friend's new credential does all of it."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    own = body["invites"][0]["token"]
    creators_hello = open_invite(client, tid, own)
    kept = body["invites"][1]["token"]
    friends_hello = open_invite(client, tid, kept)

    refused(client.get(f"/api/tables/{tid}/state", params={"token": kept}), "invite_used")
    act = {"token": kept, "seq": 0, "action": "x"}
    refused(client.post(f"/api/tables/{tid}/actions", json=act), "invite_used")
    refused(client.get(f"/api/tables/{tid}/chat", params={"token": kept}), "invite_used")
    assert socket_refusal(client, f"/ws/tables/{tid}?token={kept}") == ("invite_used", 4403)
    # the creator's own invite is used too: its seat's credential is the creator's hello's
    refused(client.get(f"/api/tables/{tid}/state", params={"token": own}), "invite_used")

    friend, mine = credential_of(friends_hello, kept), credential_of(creators_hello, own)
    state = client.get(f"/api/tables/{tid}/state", params={"token": friend}).json()
    assert state["view"]["viewer"] == 1 and state["seat_token"] is None
    mine_state = client.get(f"/api/tables/{tid}/state", params={"token": mine}).json()
    assert mine_state["view"]["viewer"] == 0


def test_the_first_http_use_answers_the_credential_once(client: TestClient) -> None:
    """Over HTTP the answer that used the invite carries the credential (``seat_token``);
    a second read with the invite is refused, with the credential it is the seat's state."""
    body = create(client, [HUMAN, bot()])
    tid, invite = body["table"]["id"], body["invites"][0]["token"]
    first = client.get(f"/api/tables/{tid}/state", params={"token": invite})
    assert first.status_code == 200, first.text
    credential = first.json()["seat_token"]
    assert credential and credential != invite
    refused(client.get(f"/api/tables/{tid}/state", params={"token": invite}), "invite_used")
    again = client.get(f"/api/tables/{tid}/state", params={"token": credential}).json()
    assert again["view"]["viewer"] == 0 and again["seat_token"] is None


def test_an_action_that_uses_the_invite_answers_the_credential(client: TestClient) -> None:
    """``POST …/actions`` with an unused invite binds the seat and answers its credential,
    in the action's answer or, when the game refuses the action, in the refusal."""
    body = create(client, [HUMAN, bot()], seed=7, options=ONE_TURN)
    tid, invite = body["table"]["id"], body["invites"][0]["token"]
    r = client.post(f"/api/tables/{tid}/actions", json={"token": invite, "seq": 99, "action": "x"})
    assert r.status_code == 409, r.text
    credential = r.json()["error"]["seat_token"]
    assert credential and credential != invite
    refused(client.get(f"/api/tables/{tid}/state", params={"token": invite}), "invite_used")
    assert client.get(f"/api/tables/{tid}/state", params={"token": credential}).status_code == 200

    body = create(client, [HUMAN, bot()], seed=7, options=ONE_TURN)
    tid, invite = body["table"]["id"], body["invites"][0]["token"]
    game = make_game("flaming", 2, body["table"]["options"])
    first = game.new_initial_state(7)
    assert first.current_player() == 0  # this seed's deal: the human seat starts
    action = first.action_to_string(first.legal_actions()[0])
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": invite, "seq": 0, "action": action}
    )
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == 1 and r.json()["seat_token"] not in (None, invite)


def test_a_kept_invite_cannot_take_the_friends_seat_at_the_rematch(client: TestClient) -> None:
    """After a finished game the kept invite asks for the rematch in vain (``invite_used``);
    the friend's credential takes the friend's seat there."""
    body = create(client, [HUMAN, HUMAN], options=ONE_TURN)
    tid = body["table"]["id"]
    kept = body["invites"][1]["token"]
    credentials = [take_seat(client, tid, inv["token"]) for inv in body["invites"]]
    play_out(tid, [HttpSeat(c, client) for c in credentials])
    refused(client.post(f"/api/tables/{tid}/rematch", json={"token": kept}), "invite_used")
    r = client.post(f"/api/tables/{tid}/rematch", json={"token": credentials[1]})
    assert r.status_code == 200, r.text


def test_a_lobby_claim_still_hands_out_its_own_token(client: TestClient) -> None:
    """A lobby claim's token is the seat's credential from the start (no invite to use):
    it reads the seat's state and keeps working; the invite it replaced is no seat's."""
    body = create(client, [HUMAN, HUMAN], public=True)
    tid = body["table"]["id"]
    claimed = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Lobby"}).json()
    for _ in range(2):
        r = client.get(f"/api/tables/{tid}/state", params={"token": claimed["token"]})
        assert r.status_code == 200 and r.json()["seat_token"] is None
    stale = body["invites"][1]["token"]
    refused(client.get(f"/api/tables/{tid}/state", params={"token": stale}), "bad_token")


# --- 2. no look before the deal is fixed ----------------------------------------------------


def test_no_seat_sees_a_hand_while_a_human_seat_is_open(client: TestClient) -> None:
    """The creator's own seat, bound while the friend's is still open, gets the spectators'
    view (no hand) over HTTP and the WebSocket; once the friend is seated, its own."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={body['invites'][0]['token']}") as ws:
        hello = receive_until(ws, lambda m: m["type"] == "hello")
        assert hello["seat"] == 0
        state = receive_until(ws, lambda m: m["type"] == "state")
        assert state["status"] == "open" and state["view"]["viewer"] is None
        mine = hello["seat_token"]
        over_http = client.get(f"/api/tables/{tid}/state", params={"token": mine}).json()
        assert over_http["view"] == client.get(f"/api/tables/{tid}/state").json()["view"]
        assert over_http["view"]["viewer"] is None
        take_seat(client, tid, body["invites"][1]["token"])
        running = receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "running")
        assert running["view"]["viewer"] == 0
    assert (
        client.get(f"/api/tables/{tid}/state", params={"token": mine}).json()["view"]["viewer"] == 0
    )


# --- 3. binding only by the player's own action ---------------------------------------------


def test_a_get_with_a_session_cookie_binds_no_account(client: TestClient) -> None:
    """A logged-in browser sent (by a page of another site) to the state or the table
    page's socket with an invite binds the seat, but never to its account; the seat joins
    the account only by the player's own request with the CSRF token."""
    body = create(client, [HUMAN, HUMAN, HUMAN])
    tid = body["table"]["id"]
    csrf = sign_up(client, "Ann")
    got = client.get(f"/api/tables/{tid}/state", params={"token": body["invites"][1]["token"]})
    assert got.status_code == 200, got.text
    hello = open_invite(client, tid, body["invites"][2]["token"])
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [(s["claimed"], s["account"]) for s in seats[1:]] == [(True, False), (True, False)]
    assert client.get("/api/me/tables").json()["tables"] == []
    socket_credential = credential_of(hello, body["invites"][2]["token"])

    credential = got.json()["seat_token"]
    link = {"token": credential}
    refused(client.post(f"/api/tables/{tid}/link", json=link), "csrf")
    r = client.post(f"/api/tables/{tid}/link", json=link, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json() == {"seat": 1, "seat_token": None}, r.text
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert (seats[1]["name"], seats[1]["account"], seats[2]["account"]) == ("Ann", True, False)
    mine = client.get("/api/me/tables").json()["tables"]
    assert [(t["table"]["id"], t["seat"]) for t in mine] == [(tid, 1)]
    # another account may not take a seat bound to Ann
    client.delete("/api/session", headers={"X-CSRF-Token": csrf})
    bob = sign_up(client, "Bob")
    other = {"token": credential}
    r = client.post(f"/api/tables/{tid}/link", json=other, headers={"X-CSRF-Token": bob})
    refused(r, "seat_has_account", 409)
    r = client.post(
        f"/api/tables/{tid}/link", json={"token": socket_credential}, headers={"X-CSRF-Token": bob}
    )
    assert r.status_code == 200, r.text


def test_linking_needs_a_session(client: TestClient) -> None:
    """Without a session there is no account to bind to: 401 ``not_logged_in``."""
    body = create(client, [HUMAN, bot()])
    tid = body["table"]["id"]
    r = client.post(f"/api/tables/{tid}/link", json={"token": body["invites"][0]["token"]})
    refused(r, "not_logged_in", 401)
