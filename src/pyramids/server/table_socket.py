"""The table WebSocket, ``/ws/tables/{table_id}`` (docs/PROTOCOL.md).

A connection is accepted, checked against the allowed origins and its address's limits,
attached to its table (a seat by its token, a seat by the logged-in account, or a
spectator) and then read message by message: ``ping``, ``sync``, ``action`` and the chat's
messages. What the table sends the socket queues on its ``Client`` and goes out through a
sender task. A refused connection gets one ``error`` message and a close code that says
why (``WS_CLOSE_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from pyramids import texts
from pyramids.server import chat
from pyramids.server.auth import account_of
from pyramids.server.config import Settings
from pyramids.server.database import Database, Db
from pyramids.server.dependencies import Limits, Manager, ServerSettings, address_of
from pyramids.server.fanout import FRAMES_EXTENSION
from pyramids.server.hardening import INSTANCE_HEADER, WS_CLOSE_BAD_ORIGIN, is_origin_allowed
from pyramids.server.inbound import MessageRefusedError, parse_inbound
from pyramids.server.limits import WS_CLOSE_POLICY, ClientLimits, ws_error
from pyramids.server.live import LiveTable
from pyramids.server.protocol import ProtocolError, server_refusal
from pyramids.server.tables import TableManager
from pyramids.server.wire import Client, dumps

log = logging.getLogger("pyramids.server")

router = APIRouter()

WS_CLOSE_UNKNOWN_TABLE = 4404
WS_CLOSE_BAD_TOKEN = 4403
WS_CLOSE_SEAT_TAKEN = 4409

REFUSAL_CLOSE_CODES = {
    "bad_token": WS_CLOSE_BAD_TOKEN,
    "invite_used": WS_CLOSE_BAD_TOKEN,
    "not_your_seat": WS_CLOSE_BAD_TOKEN,
    "not_logged_in": WS_CLOSE_BAD_TOKEN,
    "unknown_seat": WS_CLOSE_BAD_TOKEN,
    "seat_taken": WS_CLOSE_SEAT_TAKEN,
}
"""The close code of a connection its table refused, by the refusal's code (any other:
``WS_CLOSE_POLICY`` for an expired table or a limit, else 1011)."""

MAX_ACTION_CHARS = 200
"""The longest action text a socket may send."""


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    *,
    manager: Manager,
    database: Db,
    settings: ServerSettings,
    limits: Limits,
) -> None:
    """A connection to a table: hello, states, and the client's actions."""
    await websocket.accept(headers=[(INSTANCE_HEADER, settings.instance.encode())])
    if not is_origin_allowed(websocket.scope["headers"], settings.allowed_origins):
        origin = websocket.headers.get("origin", "")
        refused = ProtocolError(
            "bad_origin", f"pages from {origin!r} may not open this server's tables", 403
        )
        await refuse(websocket, refused, WS_CLOSE_BAD_ORIGIN)
        return
    key = address_of(websocket)
    try:
        limits.check("connect", key)
        limits.open_socket(key)
    except ProtocolError as exc:
        await refuse(websocket, exc, WS_CLOSE_POLICY)
        return
    try:
        await TableSocket(websocket, manager, database, settings, limits, key).serve(table_id)
    finally:
        limits.close_socket(key)


@dataclass
class TableSocket:
    """One accepted table socket within its address's limits (counted as ``key``)."""

    websocket: WebSocket
    manager: TableManager
    database: Database
    settings: Settings
    limits: ClientLimits
    key: str

    async def serve(self, table_id: str) -> None:
        """Attach the socket to its table, then read its messages until it closes."""
        websocket = self.websocket
        token = websocket.query_params.get("token") or None
        seat_text = websocket.query_params.get("seat") or ""
        seat = int(seat_text) if seat_text.isdigit() and len(seat_text) < 3 else None
        try:
            table = await self.manager.get(table_id)
        except ProtocolError as exc:
            await refuse(websocket, exc, WS_CLOSE_UNKNOWN_TABLE)
            return
        client = Client(None, self.settings.send_queue_limit, self.settings.spectator_linger)
        frames = websocket.scope.get("extensions", {}).get(FRAMES_EXTENSION) or {}
        client.write_now = frames.get("write")
        try:
            if token is None and seat is None:
                self.limits.check_spectators(sum(1 for c in table.clients if c.seat is None))
            account = await account_of(websocket) if not token and seat is not None else None
            await self.manager.connect(table, token, client, account, seat)
            await chat.on_connect(self.database, table, client)
        except ProtocolError as exc:
            fallback = WS_CLOSE_POLICY if exc.status in (410, 429) else 1011
            await refuse(websocket, exc, REFUSAL_CLOSE_CODES.get(exc.code, fallback))
            return
        socket_id = f"{self.key}/{id(client)}"
        sender = asyncio.create_task(send_loop(websocket, client))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if self.limits.is_flooding(self.key, socket_id):
                    flood = server_refusal("rate_limited", "flooding", 429)
                    client.send(dumps(ws_error(None, flood)))
                    client.close(WS_CLOSE_POLICY, f"rate_limited: {flood.message}")
                    break
                payload = message.get("text")
                if payload is None:
                    payload = message.get("bytes") or b""
                try:
                    await self.handle(payload, client, table)
                except Exception as exc:  # one log line, the socket stays open (issue 29, 9)
                    log.warning(
                        "table %s: a message could not be handled: %s: %.200s",
                        table.id,
                        type(exc).__name__,
                        exc,
                    )
                    key = "socket.unhandled"
                    unhandled = ProtocolError("malformed", texts.message(key, "en"), 422, key=key)
                    client.send(dumps(ws_error(None, unhandled)))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.manager.disconnect(table, client)
            client.close()
            with contextlib.suppress(Exception):
                await sender

    async def handle(self, payload: str | bytes, client: Client, table: LiveTable) -> None:
        """One message the client sent: answer it, act on it, or say what is wrong."""
        settings = self.settings
        try:
            inbound = parse_inbound(
                payload,
                max_bytes=settings.max_message_bytes,
                max_depth=settings.limits.max_json_depth,
            )
        except MessageRefusedError as exc:  # server/inbound.py: what is wrong with it
            client.send(dumps(ws_error(exc.msg_id, exc)))
            return
        data, msg_id = inbound.data, inbound.msg_id
        kind = inbound.kind
        if kind == "ping":
            client.send(dumps({"type": "pong", "id": msg_id}))
        elif kind == "sync":
            client.send(dumps(table.hello(client.seat)))
            client.send(table.state_text(client.seat))
        elif kind == "action":
            await self.act(data, msg_id, client, table)
        elif kind in chat.MESSAGE_TYPES:
            await chat.handle(
                self.manager, self.database, table, client, data, msg_id=msg_id, key=self.key
            )
        else:
            refused = server_refusal("malformed", "unknown_type", 422, type=kind)
            client.send(dumps(ws_error(msg_id, refused)))

    async def act(
        self, data: dict[str, Any], msg_id: Any, client: Client, table: LiveTable
    ) -> None:
        """An ``action`` message: play it for the client's seat and ``ack`` its new seq."""
        seq, text = data.get("seq"), data.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            refused = server_refusal("malformed", "missing_seq", 422)
            client.send(dumps(ws_error(msg_id, refused)))
            return
        if not isinstance(text, str) or not text or len(text) > MAX_ACTION_CHARS:
            refused = server_refusal("malformed", "missing_action", 422)
            client.send(dumps(ws_error(msg_id, refused)))
            return
        try:
            self.limits.check("action", self.key)
            new_seq = await self.manager.act(table, client.seat, seq, text)
        except ProtocolError as exc:
            client.send(dumps(ws_error(msg_id, exc)))
            return
        client.send(dumps({"type": "ack", "id": msg_id, "seq": new_seq}))


async def refuse(websocket: WebSocket, exc: ProtocolError, close_code: int) -> None:
    """Tell an accepted socket why it is refused, and close it with ``close_code``."""
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps(ws_error(None, exc)))
        await websocket.close(code=close_code, reason=exc.code)


async def send_loop(websocket: WebSocket, client: Client) -> None:
    """Write the client's queued messages; close the socket when asked to.

    Under ``pyramids serve`` every message queued since the last write goes out in one
    write of the frames made once per view (``fanout.FRAMES_EXTENSION``); elsewhere one
    ``websocket.send`` per message.
    """
    extension = websocket.scope.get("extensions", {}).get(FRAMES_EXTENSION) or {}
    write_frames = extension.get("send")
    try:
        while True:
            batch = await client.take()
            if not batch:
                break
            if write_frames is not None:
                await write_frames(b"".join(out.frame for out in batch))
            else:
                for out in batch:
                    await websocket.send_text(out.text)
    except Exception:
        return
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=client.close_code, reason=client.close_reason or None)
