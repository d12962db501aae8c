"""Refusals reach the player as a code, its facts and its words in both languages (issue 32, point 5).

docs/PROTOCOL.md, "Errors": an error keeps its protocol ``code`` and English ``message``,
and a refusal with catalogue words adds ``refusal`` (``{"code", "data"}``: the rules'
refusal, or the server's own ``server.*``) and ``text_en`` / ``text_fr``, the catalogue's
``refusal.<code>`` filled with the facts, as events carry theirs. The same shape on the
table socket (``error`` messages) and over HTTP (``{"error": {...}}``). These tests make
the server refuse (stale, out of turn, illegal, malformed, a bad position, bad options)
and read what it sends. The rules' codes are whatever the engines raise: the tests
compare with the catalogue's words for the code that came, never with a fixed sentence.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pyramids.server
from pyramids import texts
from pyramids.core.errors import IllegalActionError, PositionError, PyramidsError
from pyramids.server.protocol import ProtocolError, server_refusal
from tests.server.conftest import HUMAN, bot, create, receive, receive_until
from tests.server.test_ws import connect_path

SERVER_SOURCES = Path(pyramids.server.__file__).parent
SERVER_REFUSAL_RE = re.compile(r'server_refusal\(\s*"[a-z_]+",\s*"([a-z_]+)"')
"""A call ``server_refusal("stale", "stale", ...)``: its catalogue name (the second)."""
FACT_RE = re.compile(r"\{(\w+)")


def server_refusal_names() -> list[str]:
    """The names of every ``server.*`` refusal the server's code raises."""
    found: set[str] = set()
    for path in SERVER_SOURCES.glob("*.py"):
        found.update(SERVER_REFUSAL_RE.findall(path.read_text("utf-8")))
    return sorted(found)


def words(refusal: dict[str, Any], lang: str, cls: type[PyramidsError] = PyramidsError) -> str:
    """What the catalogue says of the refusal ``{"code", "data"}`` in ``lang``."""
    return texts.refusal(cls(refusal["code"], **refusal["data"]), lang)


def check_words(error: dict[str, Any], cls: type[PyramidsError] = PyramidsError) -> None:
    """The error carries its refusal and the catalogue's words of it in both languages;
    the English ones are its message."""
    refusal = error["refusal"]
    assert isinstance(refusal["code"], str) and refusal["code"]
    assert isinstance(refusal["data"], dict)
    assert error["text_en"] == words(refusal, "en", cls)
    assert error["text_fr"] == words(refusal, "fr", cls)
    assert error["message"] == error["text_en"]


def test_every_server_refusal_has_words_in_english_and_french() -> None:
    """Each ``server.*`` refusal the server raises is in both catalogues, in two languages
    that differ, naming the same facts."""
    found = server_refusal_names()
    assert {"stale", "not_your_turn", "missing_seq", "position_unreadable"} <= set(found)
    en, fr = texts.catalogue("en"), texts.catalogue("fr")
    for name in found:
        key = texts.refusal_key(f"server.{name}")
        assert key in en and key in fr, key
        assert en[key] != fr[key], key
        assert set(FACT_RE.findall(en[key])) == set(FACT_RE.findall(fr[key])), key


def test_a_server_refusal_is_a_code_with_facts_and_words() -> None:
    """``server_refusal``: the protocol code, the English words as its message, the
    refusal and both languages in the answer."""
    exc = server_refusal("stale", "stale", 409, seq=3, at=5)
    assert (exc.code, exc.status) == ("stale", 409)
    assert exc.message == "the action was for seq 3 but the game is at seq 5"
    assert exc.details() == {
        "refusal": {"code": "server.stale", "data": {"seq": 3, "at": 5}},
        "text_en": "the action was for seq 3 but the game is at seq 5",
        "text_fr": "l'action visait le coup n° 3, mais la partie en est au coup n° 5",
    }
    # a refusal without catalogue words: the code and the English message only
    assert ProtocolError("unknown_table", "no table nosuch", 404).details() == {}


def test_a_stale_action_on_the_socket_is_refused_in_both_languages(client: TestClient) -> None:
    """``stale``: the refusal ``server.stale`` with the seq sent and the game's."""
    body = create(client, [HUMAN, bot()])
    tid, t0 = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(connect_path(tid, t0)) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state" and m["legal"])
        ws.send_json({"type": "action", "id": "a", "seq": 7, "action": state["legal"][0]})
        error = receive_until(ws, lambda m: m["type"] == "error")
    assert error["id"] == "a" and error["code"] == "stale"
    assert error["refusal"] == {"code": "server.stale", "data": {"seq": 7, "at": 0}}
    assert error["text_fr"] == "l'action visait le coup n° 7, mais la partie en est au coup n° 0"
    check_words(error)


def test_out_of_turn_on_the_socket_and_over_http_is_refused_in_both_languages(
    client: TestClient,
) -> None:
    """``out_of_turn``: ``server.not_your_turn`` names the seat that acted and the one to move."""
    body = create(client, [HUMAN, HUMAN])
    tid = body["table"]["id"]
    t0, t1 = (i["token"] for i in body["invites"])
    with (
        client.websocket_connect(connect_path(tid, t0)) as ws0,
        client.websocket_connect(connect_path(tid, t1)) as ws1,
    ):
        state = receive_until(ws0, lambda m: m["type"] == "state" and m["legal"])
        hello = receive(ws1)
        assert hello["type"] == "hello"
        receive_until(ws1, lambda m: m["type"] == "state")
        ws1.send_json({"type": "action", "id": 9, "seq": 0, "action": state["legal"][0]})
        error = receive_until(ws1, lambda m: m["type"] == "error")
        assert error["code"] == "out_of_turn"
        assert error["refusal"] == {
            "code": "server.not_your_turn",
            "data": {"seat": 1, "to_move": 0},
        }
        assert error["text_fr"] == "c'est à la place 0 de décider, pas à la place 1"
        check_words(error)
    r = client.post(
        f"/api/tables/{tid}/actions",
        json={"token": hello["seat_token"], "seq": 0, "action": state["legal"][0]},
    )
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["code"] == "out_of_turn"
    assert error["refusal"]["code"] == "server.not_your_turn"
    check_words(error)


def test_an_illegal_action_carries_the_rules_refusal_in_both_languages(
    client: TestClient,
) -> None:
    """``illegal`` (or ``malformed``): the rules' own code and facts, said by the catalogue."""
    body = create(client, [HUMAN, bot()])
    tid, t0 = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(connect_path(tid, t0)) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state" and m["legal"])
        hand = set(state["view"]["hand"])
        spot = state["legal"][0].partition("@")[2]
        tile = next(t for t in ("R40", "G30", "B120", "Y2", "R100") if t not in hand)
        ws.send_json({"type": "action", "id": "x", "seq": 0, "action": f"{tile}@{spot}"})
        error = receive_until(ws, lambda m: m["type"] == "error")
    assert error["code"] in ("illegal", "malformed"), error
    check_words(error, IllegalActionError)


def test_a_malformed_message_is_refused_in_both_languages(client: TestClient) -> None:
    """The socket's own checks: ``server.missing_seq``; a text that is no JSON gets the
    catalogue's ``socket.not_json`` words (no rules refusal)."""
    body = create(client, [HUMAN, HUMAN])
    tid, t0 = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(connect_path(tid, t0)) as ws:
        receive(ws)
        ws.send_json({"type": "action", "id": 1, "action": "R40@1,1"})
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "malformed"
        assert error["refusal"] == {"code": "server.missing_seq", "data": {}}
        check_words(error)
        ws.send_text("{nope")
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "malformed"
        assert "refusal" not in error
        assert error["text_en"] == error["message"]
        assert error["text_fr"].startswith("le message n'est pas du JSON")


def test_a_bad_position_in_the_tutorial_carries_the_rules_refusal(client: TestClient) -> None:
    """``bad_position`` (422): the position's refusal by the rules, in both languages."""
    r = client.post("/api/learn/flaming/show", json={"position": {"players": "two"}})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "bad_position"
    check_words(error, PositionError)


def test_bad_options_carry_the_rules_refusal(client: TestClient) -> None:
    """``bad_options`` (422): the game's refusal of the options, in both languages."""
    r = client.post(
        "/api/tables",
        json={"game": "flaming", "seats": [HUMAN, HUMAN], "options": {"preset": "huge"}},
    )
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "bad_options"
    check_words(error, PositionError)


@pytest.mark.parametrize("lang", texts.LANGS)
def test_the_browser_is_served_the_refusals_words(client: TestClient, lang: str) -> None:
    """``/texts/<lang>.json`` holds the ``refusal.server.*`` entries the pages may format."""
    served = client.get(f"/texts/{lang}.json").json()
    for name in server_refusal_names():
        assert texts.refusal_key(f"server.{name}") in served


def test_a_refused_name_is_said_in_both_languages(client: TestClient) -> None:
    """A name the account rules refuse (``names.*`` words): ``text_en`` is the message,
    ``text_fr`` the catalogue's French; no rules refusal (``refusal``) with it."""
    r = client.post("/api/accounts", json={"name": "ab", "password": "a long enough password"})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "malformed"
    assert "refusal" not in error
    assert error["text_en"] == error["message"]
    assert error["text_fr"] and error["text_fr"] != error["text_en"]
