"""Every malformed table-socket message is answered and ends nothing (issue 29, item 9).

``{"type": []}``, ``{"type": {}}`` and an ``id`` holding a lone surrogate used to crash the
connection's handler: the socket closed with no reply and the log got a long traceback each
time. Now every message gets a reply (an ``error`` saying what is wrong for the malformed
ones), the socket stays open, and nothing is logged with a traceback. Hypothesis sends
JSON-ish messages with values of every kind in every field, lone surrogates included.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from pyramids.server import Settings, create_app
from pyramids.server.inbound import MESSAGE_TYPES
from tests.server.conftest import HUMAN, create, receive, receive_until

REPLIES = frozenset({"error", "ack", "pong", "hello", "state", "chat"})
"""The messages that answer a client's message (the others tell of what happened)."""

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
TEXT = st.text(st.one_of(st.characters(), SURROGATES), max_size=12)
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**63, max_value=2**80),
    st.floats(),
    TEXT,
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)
FIELDS = ("id", "seq", "action", "text", "channel", "spectators")
MESSAGES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(MESSAGE_TYPES), VALUES)},
        optional=dict.fromkeys(FIELDS, VALUES),
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(MESSAGE_TYPES), "id": st.one_of(TEXT, VALUES)},
    ),
    VALUES,
)


def answered(ws: WebSocketTestSession, raw: str, n: int) -> list[dict[str, Any]]:
    """Send ``raw``, then a ping; everything received until that ping's pong (the
    connection is still open and in order)."""
    ws.send_text(raw)
    ws.send_json({"type": "ping", "id": f"after-{n}"})
    seen: list[dict[str, Any]] = []
    receive_until(ws, lambda m: m.get("type") == "pong" and m.get("id") == f"after-{n}", seen)
    return seen[:-1]


def test_the_crashing_messages_get_a_malformed_error(settings: Settings) -> None:
    """The three messages of the report, and the other malformed ones: each answered
    ``malformed`` saying what is wrong (the catalogue's words, ``socket.*``)."""
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, HUMAN])
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            receive_until(ws, lambda m: m["type"] == "state")
            cases = {
                '{"type": []}': "“type” is a string",
                '{"type": {}}': "“type” is a string",
                '{"type": "ping", "id": "\\udc80"}': "lone surrogate",
                '{"type": "chat", "text": "hi \\ud800"}': "lone surrogate",
                '{"type": "ping", "id": [1]}': "“id” is a string",
                "{not json": "the message is not JSON",
                "[1, 2]": "a message is a JSON object",
                "[" * 40 + "]" * 40: "messages nest at most 32 deep",
            }
            for n, (raw, says) in enumerate(cases.items()):
                errors = [m for m in answered(ws, raw, n) if m["type"] == "error"]
                assert len(errors) == 1, (raw, errors)
                assert errors[0]["code"] == "malformed", errors
                assert says in errors[0]["message"], errors


def test_any_message_is_answered_without_a_traceback(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """Fuzz: whatever JSON a seat sends, it gets a reply, its socket stays open, and the
    server logs at most one line per message and never a traceback."""
    sent = 0
    with TestClient(create_app(settings)) as client:
        body = create(client, [HUMAN, HUMAN])
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        with (
            caplog.at_level(logging.INFO),
            client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws,
        ):
            receive(ws)  # hello

            @hypothesis_settings(
                max_examples=400, deadline=None, suppress_health_check=list(HealthCheck)
            )
            @given(MESSAGES)
            def each(message: Any) -> None:
                nonlocal sent
                sent += 1
                raw = json.dumps(message)  # lone surrogates as \\udXXX escapes, as JSON allows
                replies = [m for m in answered(ws, raw, sent) if m.get("type") in REPLIES]
                assert replies, raw
                for m in replies:
                    if m["type"] == "error":
                        assert m["code"] and m["message"], m

            each()
    records = [r for r in caplog.records if r.name.startswith(("pyramids", "uvicorn"))]
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records][:3]
    assert len(records) <= sent
