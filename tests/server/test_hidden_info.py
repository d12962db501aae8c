"""Hidden information: no message tells a seat (or a spectator) what it may not know.

Issue 4: "for every message sent to a seat or spectator over a whole game, no tile of
another seat's hand and no unknown pile order appears." Contract §10 / PF-VIEW: each
seat receives only its own view; spectators the public view.

Whole games are played with every seat a human over its own WebSocket plus a spectator,
and EVERY message each connection receives is kept. Afterwards the game's record
(available once it is over) is replayed to get the true state at every seq, and:

1. each ``state`` message's ``view`` equals ``state.view(seat).to_json()`` computed here,
   independently of the server;
2. no message to viewer v about seq k (the state, its ``last`` entry, each ``hello``
   log entry at its own seq, tables, acks) names any tile or card that is secret from
   v at seq k: in another seat's hand and not known to v, or in the unknown part of a
   pile (Flaming) / the deck (Flags). The secret sets come from the true state; the
   check is a plain search of the serialised message, so a leak anywhere fails it.

``test_the_leak_check_can_fail`` proves the check catches a leaked position.

A call-out game (issue 13) is checked the same way, and more: no message says whether
mayhem stands before a call finds it, and a check's legal actions depend on the pyramid
alone (``test_the_call_out_checks_can_fail`` proves those checks can fail).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from pyramids.core import GameRecord, State, fairness, replay
from pyramids.flags.state import FlagsState
from pyramids.flaming.game import position_from_json
from pyramids.flaming.mayhem import standing_mayhem
from pyramids.flaming.state import FlamingState
from pyramids.flaming.tiles import NAMES
from pyramids.games import make_game
from tests.server.conftest import HUMAN, create, receive

Viewer = int | None


def flaming_secrets(state: FlamingState, viewer: Viewer) -> set[str]:
    """Tiles whose place ``viewer`` does not know: others' unknown hand tiles, hidden piles."""
    view = state.view(viewer).to_json()
    secret: set[str] = set()
    for seat in range(state.num_players):
        if seat != viewer:
            known = set(view["hand_known"][seat])
            secret |= {NAMES[t] for t in state.hand(seat)} - known
        pile_known = set(view["pile_known"][seat])
        secret |= {NAMES[t] for t in state.pile(seat)} - pile_known
    return secret


def flags_secrets(state: FlagsState, viewer: Viewer) -> set[str]:
    """Cards whose place ``viewer`` does not know: others' unknown hand cards, the deck."""
    full = state.to_json()
    view = state.view(viewer).to_json()
    secret: set[str] = set()
    for seat in range(state.num_players):
        if seat != viewer:
            secret |= set(full["hands"][seat]) - set(view["hands"][seat])
    secret |= set(full["deck"]) - set(view["deck"])
    secret.discard("?")
    return secret


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names tile/card ``name`` as a whole token (R4 is not R40)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text) is not None


def leaks(payload: Any, secret: set[str]) -> list[str]:
    """The secret names that appear in ``payload`` once serialised."""
    text = json.dumps(payload, ensure_ascii=False)
    return sorted(name for name in secret if mentions(text, name))


def normalised(data: Any) -> Any:
    """JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(data))


SecretsFn = Callable[[Any, Viewer], set[str]]


def check_messages(
    messages: dict[Viewer, list[dict[str, Any]]], states: list[State], secrets: SecretsFn
) -> int:
    """Run checks 1 and 2 on every message; return how many secret names were checked."""
    checked = 0
    cache: dict[tuple[Viewer, int], set[str]] = {}

    def secret_at(viewer: Viewer, seq: int) -> set[str]:
        key = (viewer, seq)
        if key not in cache:
            cache[key] = secrets(states[seq], viewer)
        return cache[key]

    for viewer, received in messages.items():
        assert received, viewer
        current = 0
        for msg in received:
            kind = msg["type"]
            if kind == "state":
                current = msg["seq"]
                # while the table is open no seat sees its hand (issue 29: no deal shopping)
                shown = None if msg.get("status") in ("open", "expired") else viewer
                expected = normalised(states[current].view(shown).to_json())
                assert msg["view"] == expected, (viewer, current)
                if viewer is None or msg["to_move"] != viewer:
                    assert msg["legal"] == []
                secret = secret_at(viewer, current)
                assert not leaks(msg, secret), (viewer, current, leaks(msg, secret))
                checked += len(secret)
            elif kind == "hello":
                assert msg["seat"] == viewer
                for entry in msg["log"]:
                    secret = secret_at(viewer, entry["seq"])
                    assert not leaks(entry, secret), (viewer, entry, leaks(entry, secret))
                    checked += len(secret)
                current = msg["log"][-1]["seq"] if msg["log"] else 0
                assert not leaks(msg["table"], secret_at(viewer, current))
            else:
                assert kind in ("table", "ack"), msg
                assert not leaks(msg, secret_at(viewer, current)), msg
    return checked


def settled(msg: dict[str, Any], after: int) -> bool:
    """A state past ``after`` where a seat (not the server's chance draw) decides, or the end."""
    return msg["type"] == "state" and msg["seq"] > after and msg["to_move"] != -1


def play_all_humans(
    client: TestClient, game: str, players: int, seed: int, options: dict[str, Any]
) -> tuple[dict[Viewer, list[dict[str, Any]]], list[State]]:
    """Play a game whose every seat is a connected human (random legal moves), plus a
    spectator; return every message each connection received and the true states."""
    body = create(client, [HUMAN] * players, game=game, options=options)
    assert not body["table"]["seeded"]
    tid = body["table"]["id"]
    tokens = [i["token"] for i in body["invites"]]
    rng = random.Random(seed)
    messages: dict[Viewer, list[dict[str, Any]]] = {v: [] for v in [*range(players), None]}
    sockets: dict[Viewer, WebSocketTestSession] = {}
    latest: dict[Viewer, dict[str, Any]] = {}

    def pump(viewer: Viewer, stop: Callable[[dict[str, Any]], bool]) -> None:
        while True:
            msg = receive(sockets[viewer])
            messages[viewer].append(msg)
            if msg["type"] == "state":
                latest[viewer] = msg
            if stop(msg):
                return

    contexts = []
    try:
        for seat, token in enumerate(tokens):
            ctx = client.websocket_connect(f"/ws/tables/{tid}?token={token}")
            contexts.append(ctx)
            sockets[seat] = ctx.__enter__()
        ctx = client.websocket_connect(f"/ws/tables/{tid}")
        contexts.append(ctx)
        sockets[None] = ctx.__enter__()
        for viewer in sockets:
            pump(viewer, lambda m: settled(m, -1) and m["status"] == "running")
        while True:
            state = latest[None]
            if state["to_move"] is None:
                break
            mover = state["to_move"]
            mine = latest[mover]
            assert mine["seq"] == state["seq"]
            action = rng.choice(mine["legal"])
            sockets[mover].send_json(
                {"type": "action", "id": state["seq"], "seq": state["seq"], "action": action}
            )
            acked = False

            def done(m: dict[str, Any], after: int = state["seq"], mover: int = mover) -> bool:
                nonlocal acked
                if m["type"] == "ack":
                    acked = True
                assert m["type"] != "error", m
                return acked and settled(latest[mover], after)

            pump(mover, done)
            for viewer in sockets:
                if viewer != mover:
                    pump(viewer, lambda m, after=state["seq"]: settled(m, after))
    finally:
        for ctx in reversed(contexts):
            ctx.__exit__(None, None, None)
    record = client.get(f"/api/tables/{tid}/record").json()
    game_obj = make_game(game, players, record["options"])
    states: list[State] = [game_obj.new_initial_state(record["seed"])]
    states += [s.clone() for _, s in replay(game_obj, GameRecord.from_json(record))]
    assert states[-1].is_terminal()
    check_seed_secret(messages, record, body["table"]["commitment"])
    return messages, states


def check_seed_secret(
    messages: dict[Viewer, list[dict[str, Any]]], record: dict[str, Any], commitment: str
) -> None:
    """Every summary and state carries the commitment; no message names the seed or salt.

    The record (shown only after the end) reveals seed and salt, and they hash to the
    commitment published at the start.
    """
    assert commitment == record["commitment"]
    assert fairness.is_commitment_of(commitment, record["seed"], record["salt"])
    seed, salt = str(record["seed"]), record["salt"]
    for viewer, received in messages.items():
        for msg in received:
            text = json.dumps(msg)
            assert not mentions(text, seed), (viewer, msg["type"])
            assert salt not in text, (viewer, msg["type"])
            if msg["type"] == "state":
                assert msg["commitment"] == commitment
            elif msg["type"] in ("hello", "table"):
                assert msg["table"]["commitment"] == commitment


@pytest.mark.parametrize("seed", [3, 11])
def test_flaming_no_message_reveals_a_hidden_tile(client: TestClient, seed: int) -> None:
    """Contract §10: a seat sees its hand, sizes and what is public; never others' tiles."""
    messages, states = play_all_humans(client, "flaming", 3, seed, {"preset": "standard"})
    checked = check_messages(messages, states, flaming_secrets)  # type: ignore[arg-type]
    assert checked > 1000  # the check really looked at many secret tiles


def overlooked_mentions(payload: Any, inside_call: bool = False) -> list[Any]:
    """Every place in ``payload`` that says whether mayhem stands overlooked: a key
    ``overlooked`` anywhere but in the facts of a ``call`` event (which tells it once the
    mayhem is found, FP-CALL-6)."""
    found: list[Any] = []
    if isinstance(payload, dict):
        is_call = payload.get("kind") == "call" and payload.get("game") == "flaming"
        for key, value in payload.items():
            if key == "overlooked" and not inside_call:
                found.append(payload)
            found += overlooked_mentions(value, is_call and key == "data")
    elif isinstance(payload, list):
        for item in payload:
            found += overlooked_mentions(item)
    return found


def check_callout_messages(
    messages: dict[Viewer, list[dict[str, Any]]], states: list[State]
) -> dict[str, int]:
    """Call-out mode (§12, issue 13 point 2): a check reveals nothing hidden. No message
    says whether mayhem stands (no ``overlooked`` but in a call's facts, no hints at a
    call-out table); a check's legal actions are ``ok`` and every occupied position, as the
    pyramid alone says, mayhem or not; a false alarm's event says only who called where.
    Returns how many checks stood over mayhem and over a clean pyramid."""
    counts = {"mayhem": 0, "clean": 0, "false_alarm": 0}
    for viewer, received in messages.items():
        for msg in received:
            assert not overlooked_mentions(msg), (viewer, msg["type"])
            if msg["type"] != "state":
                continue
            assert msg["hints"] is None, (viewer, msg["seq"])
            pending = msg["view"].get("pending") or {}
            if pending.get("kind") == "check" and viewer == pending["player"]:
                truth = states[msg["seq"]]
                if not isinstance(truth, FlamingState):  # the native engine's: same position
                    truth = position_from_json(truth.to_json())
                assert msg["to_move"] == truth.checker == viewer
                calls = [f"call:{item.split('@')[1]}" for item in msg["view"]["pyramid"]]
                assert msg["legal"][0] == "ok"
                assert sorted(msg["legal"][1:]) == sorted(calls)  # the engine's scan order
                mayhem = standing_mayhem(truth.position, truth.options.curse_on)
                counts["mayhem" if mayhem else "clean"] += 1
            last = msg.get("last") or {}
            for event in last.get("events", []):
                if event["kind"] == "false_alarm":
                    counts["false_alarm"] += 1
                    assert set(event["data"]) == {"seat", "at"}, event
    return counts


def test_flaming_call_out_no_message_reveals_a_hidden_tile_or_standing_mayhem(
    client: TestClient,
) -> None:
    """Issue 13: "the hidden-information test of the server covers a call-out game": a
    competitive game of three humans (random legal moves, so checks over mayhem and over
    clean pyramids, right calls and false alarms), every message of every seat and of a
    spectator checked as above, plus the call-out checks of ``check_callout_messages``."""
    options = {"preset": "standard", "callout": "competitive"}
    messages, states = play_all_humans(client, "flaming", 3, 5, options)
    checked = check_messages(messages, states, flaming_secrets)  # type: ignore[arg-type]
    assert checked > 1000
    counts = check_callout_messages(messages, states)
    assert counts["mayhem"] and counts["clean"] and counts["false_alarm"], counts


def test_the_call_out_checks_can_fail() -> None:
    """The call-out checker flags a position's ``overlooked`` and a chatty false alarm, and
    lets a call's own ``overlooked`` through."""
    leak = {"type": "state", "view": {"overlooked": True}}
    assert overlooked_mentions(leak)
    call = {"game": "flaming", "kind": "call", "data": {"seat": 1, "overlooked": True}}
    assert not overlooked_mentions({"type": "state", "last": {"events": [call]}})
    other = {"game": "flaming", "kind": "collapse", "data": {"overlooked": True}}
    assert overlooked_mentions({"last": {"events": [other]}})
    chatty = {"game": "flaming", "kind": "false_alarm", "data": {"seat": 1, "at": "0,0", "ok": 1}}
    msg = {"type": "state", "seq": 0, "hints": None, "view": {}, "last": {"events": [chatty]}}
    with pytest.raises(AssertionError):
        check_callout_messages({0: [msg]}, [])


def test_flags_no_message_reveals_a_hidden_card(client: TestClient) -> None:
    """PF-VIEW: other seats' unknown cards and the deck appear only as ``?``."""
    messages, states = play_all_humans(client, "flags", 3, 5, {})
    checked = check_messages(messages, states, flags_secrets)  # type: ignore[arg-type]
    assert checked > 1000
    for viewer, received in messages.items():
        for msg in received:
            if msg["type"] == "state" and msg["status"] != "open":  # open: nobody's hand
                view = msg["view"]
                for seat, hand in enumerate(view["hands"]):
                    if seat == viewer:
                        assert "?" not in hand


def test_the_leak_check_can_fail() -> None:
    """The checker flags a full position, another seat's view, and a leaked draw."""
    game = make_game("flaming", 3, {}, engine="python")
    state = game.new_initial_state(3)
    assert isinstance(state, FlamingState)
    full = {"type": "state", "seq": 0, "view": state.to_json(), "to_move": 0, "legal": []}
    with pytest.raises(AssertionError):
        check_messages({0: [full]}, [state], flaming_secrets)  # type: ignore[arg-type]
    secret = flaming_secrets(state, 0)
    assert leaks(state.view(1).to_json(), secret)
    assert leaks({"text_en": f"seat 1 draws {NAMES[state.hand(1)[0]]}"}, secret)
    assert not leaks(state.view(0).to_json(), secret)
    flags = make_game("flags", 3, {}, engine="python").new_initial_state(3)
    assert isinstance(flags, FlagsState)
    assert leaks(flags.view(1).to_json(), flags_secrets(flags, 0))
    assert not leaks(flags.view(0).to_json(), flags_secrets(flags, 0))
