"""Table chat: the seats' channel and the spectators' channel (docs/PLAYERS.md).

Every message is plain text, one line of 1 to ``MAX_CHARS`` characters, stored in the
``chat`` table (with the game's seq when it was said) *before* anyone is sent it. Who may
read what:

- the ``seats`` channel (what a seated player writes): the seated connections while the
  game has not ended; everyone once it is finished (the replay shows it);
- the ``spectators`` channel (what a spectator writes, or a player who chooses it): every
  connection, seats too, while the table's ``spectator_chat`` setting is on; a seated
  player switches it off and on (``chat_settings``). A finished table shows both channels.

Sending is limited per address (``LimitSettings.rate_chat``) and per connection
(``LimitSettings.rate_chat_connection``), both counted by ``limits.ClientLimits``.
Muting is the browser's business (``table-chat.js``).

In a cluster (docs/CLUSTER.md) a table's connections may be held by any instance. The
transaction that stores a message, or the switch of the spectators' channel, also sends
a notification (``cluster_store.notify``: delivered once it commits); every other
instance holding the table then reads the change back and tells its own connections,
under the same rules as above. Notification kinds
(``follower.ClusterFollower.remote_handlers``):

- ``c`` (:data:`CHAT_NOTICE`): a message was said; data: its id in the ``chat`` table;
- ``s`` (:data:`SWITCH_NOTICE`): the spectators' channel was switched; data: the seat
  that switched it (the stored setting is read, so a later switch wins however the
  notifications interleave).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import unicodedata
import weakref
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel
from sqlalchemy import Connection, Table, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from pyramids.server import cluster_store, names
from pyramids.server.database import Database, Db
from pyramids.server.db import Base, ChatRow, TableRow
from pyramids.server.limits import ClientLimits, Rate, ws_error
from pyramids.server.live import FINISHED, LiveTable
from pyramids.server.protocol import ProtocolError, iso
from pyramids.server.schemas import ErrorOut
from pyramids.server.store import as_utc, utcnow
from pyramids.server.tables import TableManager
from pyramids.server.wire import Client, dumps

log = logging.getLogger("pyramids.server")

router = APIRouter(tags=["chat"])

MESSAGE_TYPES = frozenset({"chat", "chat_settings"})
"""The WebSocket message types this module answers."""

CHAT: Table = Base.metadata.tables[ChatRow.__tablename__]
TABLES: Table = Base.metadata.tables[TableRow.__tablename__]

SEATS, SPECTATORS = "seats", "spectators"
CHANNELS = (SEATS, SPECTATORS)
MAX_CHARS = 300
"""The longest message, in characters, after stripping."""
HISTORY = 200
"""Messages a connection gets on connecting (the latest it may read), oldest first."""
FINISHED_HISTORY = 5000
"""Most messages ``GET /api/tables/{id}/chat`` gives for a finished table."""
SPECTATOR_NAME = "Spectator"
"""The name a spectator's messages carry (spectators are anonymous)."""
LINE_BREAKS = frozenset("\n\r\t\v\f\x85\u2028\u2029")
"""Characters turned into spaces: a message is one line."""
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction overrides refused: they make a name or a message read as another."""
CHAT_NOTICE = "c"
"""Notification kind: a chat message was stored (data: its id)."""
SWITCH_NOTICE = "s"
"""Notification kind: the spectators' channel was switched (data: the switching seat)."""

_connection_keys: weakref.WeakKeyDictionary[Client, str] = weakref.WeakKeyDictionary()
"""The key each connection's chat is counted under (``rate_chat_connection``)."""
_connection_numbers = itertools.count()
_remote_order: weakref.WeakKeyDictionary[LiveTable, asyncio.Lock] = weakref.WeakKeyDictionary()
"""Per table, the lock that keeps other instances' messages in the order they came."""


@dataclass(frozen=True)
class Message:
    """A stored chat message as clients get it."""

    id: int
    channel: str
    seat: int | None
    name: str
    text: str
    seq: int
    at: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``message`` of a ``chat`` message."""
        return {
            "id": self.id,
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "seq": self.seq,
            "at": self.at,
        }


def clean_text(text: Any) -> str:
    """A chat message's text, one line, stripped, its invisible characters removed
    (``names.clean_display_text``); ProtocolError(malformed) saying what is wrong otherwise
    (not a string, blank, too long, a control character, only invisible characters, more
    than ``names.MAX_MARKS`` combining marks on a character)."""
    if not isinstance(text, str):
        raise ProtocolError("malformed", "a chat message needs 'text': a string", 422)
    if len(text) > MAX_CHARS * 4:
        raise ProtocolError("malformed", f"a chat message is at most {MAX_CHARS} characters", 422)
    out: list[str] = []
    for c in text:
        if c in LINE_BREAKS:
            out.append(" ")
            continue
        category = unicodedata.category(c)
        if category in ("Cc", "Cs") or c in BIDI_CONTROLS:
            raise ProtocolError(
                "malformed",
                f"a chat message may not hold the control character U+{ord(c):04X}",
                422,
            )
        out.append(c)
    try:  # invisible characters removed, invisible-only text and mark stacks refused
        cleaned = names.clean_display_text("".join(out), names.CHAT).strip()
    except names.TextRefusedError as exc:
        refused = ProtocolError("malformed", exc.message, 422, key=exc.key, facts=exc.facts)
        raise refused from None
    if not cleaned:
        raise ProtocolError("malformed", "a chat message cannot be empty or blank", 422)
    if len(cleaned) > MAX_CHARS:
        raise ProtocolError(
            "malformed",
            f"a chat message is at most {MAX_CHARS} characters (this one has {len(cleaned)})",
            422,
        )
    return cleaned


def readable_channels(table: LiveTable, seat: int | None) -> tuple[str, ...]:
    """The channels a connection (``seat`` None: a spectator) may read now."""
    if table.status == FINISHED:
        return CHANNELS
    channels: list[str] = []
    if seat is not None:
        channels.append(SEATS)
    if table.settings.spectator_chat:
        channels.append(SPECTATORS)
    return tuple(channels)


# --- the database --------------------------------------------------------------------------


def insert_message(
    conn: Connection,
    *,
    table_id: str,
    channel: str,
    seat: int | None,
    name: str,
    account_id: int | None,
    text: str,
    seq: int,
) -> Message:
    """Store one message; it as sent."""
    now = utcnow()
    result = conn.execute(
        insert(CHAT).values(
            table_id=table_id,
            channel=channel,
            seat=seat,
            name=name,
            account_id=account_id,
            text=text,
            seq=seq,
            created=now,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return Message(int(key[0]), channel, seat, name, text, seq, iso(now))


def _message(row: Any) -> Message:
    return Message(
        row.id, row.channel, row.seat, row.name, row.text, row.seq, iso(as_utc(row.created))
    )


def load_message(conn: Connection, table_id: str, message_id: int) -> Message | None:
    """One stored message of a table by its id (None: there is none)."""
    row = conn.execute(
        select(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.id == message_id)
    ).first()
    return _message(row) if row is not None else None


def load_messages(
    conn: Connection, table_id: str, channels: tuple[str, ...], limit: int
) -> list[Message]:
    """The latest ``limit`` messages of a table on ``channels``, oldest first."""
    if not channels:
        return []
    rows = conn.execute(
        select(CHAT)
        .where(CHAT.c.table_id == table_id, CHAT.c.channel.in_(channels))
        .order_by(CHAT.c.id.desc())
        .limit(limit)
    ).all()
    return [_message(r) for r in reversed(rows)]


def store_spectator_chat(conn: Connection, table_id: str, settings: dict[str, Any]) -> None:
    """Store a table's settings after its ``spectator_chat`` changed."""
    conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(settings=settings))


def stored_spectator_chat(conn: Connection, table_id: str) -> bool | None:
    """Whether a table's stored settings have the spectators' channel open (None: no table)."""
    settings = conn.execute(select(TABLES.c.settings).where(TABLES.c.id == table_id)).scalar()
    if settings is None:
        return None
    return bool(dict(settings).get("spectator_chat", True))


# --- the WebSocket -------------------------------------------------------------------------


async def on_connect(database: Database, table: LiveTable, client: Client) -> None:
    """After hello and state: send the connection the chat it may read, if there is any
    (the hello's table settings already say whether the spectators' channel is open)."""
    await _send_history(database, table, [client], skip_empty=True)


async def _send_history(
    database: Database, table: LiveTable, clients: list[Client], *, skip_empty: bool = False
) -> None:
    """Send each of ``clients`` a ``chat_history`` of what it may read (``skip_empty``: not
    to a client that may read nothing yet)."""
    if not clients:
        return
    messages = await database.read(
        partial(load_messages, table_id=table.id, channels=CHANNELS, limit=HISTORY * 2)
    )
    for client in clients:
        channels = readable_channels(table, client.seat)
        mine = [m.to_json() for m in messages if m.channel in channels][-HISTORY:]
        if skip_empty and not mine:
            continue
        client.send(
            dumps(
                {
                    "type": "chat_history",
                    "messages": mine,
                    "spectators": table.settings.spectator_chat,
                }
            )
        )


async def handle(
    manager: TableManager,
    database: Database,
    table: LiveTable,
    client: Client,
    data: dict[str, Any],
    *,
    msg_id: Any,
    key: str,
) -> None:
    """One chat WebSocket message of ``client`` (a type in MESSAGE_TYPES)."""
    try:
        if data.get("type") == "chat":
            message = await say(manager, database, table, client, data, key=key)
            client.send(dumps({"type": "ack", "id": msg_id, "message_id": message.id}))
        else:
            await switch_spectators(manager, database, table, client, data)
            client.send(dumps({"type": "ack", "id": msg_id}))
    except ProtocolError as exc:
        client.send(dumps(ws_error(msg_id, exc)))


def _check_connection_rate(limits: ClientLimits, client: Client) -> None:
    """Refuse (rate_limited) a connection's message past ``rate_chat_connection``, on top of
    the per-address ``rate_chat`` (messages refused as malformed do not count: they cost
    nothing to refuse)."""
    key = _connection_keys.get(client)
    if key is None:  # a number of its own: a connection's id() may be reused after it
        key = _connection_keys[client] = f"connection/{next(_connection_numbers)}"
    limits.check_connection(Rate.CHAT_CONNECTION, key, "chat messages")


async def say(
    manager: TableManager,
    database: Database,
    table: LiveTable,
    client: Client,
    data: dict[str, Any],
    *,
    key: str,
) -> Message:
    """Store one chat message, then send it to every connection that may read it."""
    seat = client.seat
    channel = data.get("channel")
    if channel is None:
        channel = SEATS if seat is not None else SPECTATORS
    if channel not in CHANNELS:
        raise ProtocolError("malformed", "'channel' is 'seats' or 'spectators'", 422)
    if channel == SEATS and seat is None:
        raise ProtocolError(
            "forbidden", "spectators write on the spectators' channel, not the seats'", 403
        )
    text = clean_text(data.get("text"))
    if channel == SPECTATORS and not table.settings.spectator_chat:
        raise ProtocolError(
            "chat_off", "the players switched the spectators' chat off at this table", 409
        )
    _check_connection_rate(manager.limits, client)
    manager.limits.check(Rate.CHAT, key)
    s = table.seats[seat] if seat is not None else None
    insert_row = partial(
        insert_message,
        table_id=table.id,
        channel=channel,
        seat=seat,
        name=s.name if s is not None else SPECTATOR_NAME,
        account_id=s.account_id if s is not None else None,
        text=text,
        seq=table.seq,
    )

    def job(conn: Connection) -> Message:
        message = insert_row(conn)
        cluster_store.notify(conn, manager.notice(CHAT_NOTICE, table.id, str(message.id)))
        return message

    message = await database.write(job)
    deliver(table, message)
    return message


def deliver(table: LiveTable, message: Message) -> None:
    """Send a stored message to each of this instance's connections that may read it."""
    out = dumps({"type": "chat", "message": message.to_json()})
    for other in list(table.clients):
        if message.channel in readable_channels(table, other.seat):
            other.send(out)


async def switch_spectators(
    manager: TableManager,
    database: Database,
    table: LiveTable,
    client: Client,
    data: dict[str, Any],
) -> None:
    """A seated player switches the spectators' channel off or on: stored, then told."""
    if client.seat is None:
        raise ProtocolError(
            "forbidden", "only the players at the table may switch the spectators' chat", 403
        )
    wanted = data.get("spectators")
    if not isinstance(wanted, bool):
        raise ProtocolError("malformed", "chat_settings needs 'spectators': true or false", 422)
    if wanted == table.settings.spectator_chat:
        return
    _check_connection_rate(manager.limits, client)
    settings = table.settings.to_json()
    settings["spectator_chat"] = wanted
    by = client.seat

    def job(conn: Connection) -> None:
        store_spectator_chat(conn, table.id, settings)
        cluster_store.notify(conn, manager.notice(SWITCH_NOTICE, table.id, str(by)))

    await database.write(job)
    await _switched(database, table, wanted, by)


async def _switched(database: Database, table: LiveTable, wanted: bool, by: int | None) -> None:
    """The spectators' channel is now ``wanted`` (switched by seat ``by``): tell this
    instance's connections, and send each the chat it may read now."""
    table.settings.spectator_chat = wanted
    table.changed()
    notice = dumps({"type": "chat_settings", "spectators": wanted, "by": by})
    for other in list(table.clients):
        other.send(notice)
    table.broadcast_table()
    await _send_history(database, table, list(table.clients))


# --- the other instances -------------------------------------------------------------------


async def on_remote_message(database: Database, table: LiveTable, data: str) -> None:
    """Another instance stored message ``data`` (its id) at ``table``: read it and send it
    to this instance's connections that may read it, in the order the notifications came."""
    if not data.isdigit():
        return
    lock = _remote_order.get(table)
    if lock is None:
        lock = _remote_order[table] = asyncio.Lock()
    async with lock:  # taken in arrival order: the tasks start in the order they were made
        try:
            message = await database.read(
                partial(load_message, table_id=table.id, message_id=int(data))
            )
        except (SQLAlchemyError, ProtocolError) as exc:
            log.warning("table %s: chat message %s not read: %s", table.id, data, exc)
            return
        if message is not None:
            deliver(table, message)


async def on_remote_switch(database: Database, table: LiveTable, data: str) -> None:
    """Another instance's player switched ``table``'s spectators' channel: take the stored
    setting (the latest switch) and, if it differs from this instance's, tell as a switch
    made here would."""
    try:
        stored = await database.read(partial(stored_spectator_chat, table_id=table.id))
    except (SQLAlchemyError, ProtocolError) as exc:
        log.warning("table %s: the spectators' chat switch not read: %s", table.id, exc)
        return
    if stored is None or stored == table.settings.spectator_chat:
        return
    by = int(data) if data.isdigit() else None
    await _switched(database, table, stored, by)


def install(manager: TableManager, database: Database) -> None:
    """Follow the other instances' chat at the tables this one holds (cluster mode)."""
    manager.remote_handlers[CHAT_NOTICE] = partial(on_remote_message, database)
    manager.remote_handlers[SWITCH_NOTICE] = partial(on_remote_switch, database)


# --- HTTP ----------------------------------------------------------------------------------


class ChatMessageOut(BaseModel):
    """One chat message."""

    id: int
    channel: Literal["seats", "spectators"]
    seat: int | None
    """The seat that said it; null: a spectator."""
    name: str
    text: str
    """Plain text, never markup."""
    seq: int
    """The game's seq when it was said."""
    at: str | None
    """When it was said (ISO 8601, UTC)."""


class ChatOut(BaseModel):
    """What a table's chat shows its reader."""

    messages: list[ChatMessageOut]
    spectators: bool
    """Whether the spectators' channel is open."""


@router.get(
    "/api/tables/{table_id}/chat",
    response_model=ChatOut,
    responses={
        403: {"model": ErrorOut, "description": "bad_token"},
        404: {"model": ErrorOut, "description": "unknown_table"},
        422: {"model": ErrorOut, "description": "malformed"},
    },
)
async def get_chat(
    request: Request,
    database: Db,
    table_id: Annotated[str, Path(description="A table id (10 letters and digits).")],
    token: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """A table's chat: of a finished table both channels (all of it, for the replay);
    otherwise the spectators' channel while it is on, and with a seat's token the seats'
    channel too (the latest 200). 403 bad_token for a token that is no seat's."""
    manager: TableManager = request.app.state.manager
    table = await manager.get(table_id)
    seat = table.seat_for_token(token) if token else None
    channels = readable_channels(table, seat)
    limit = FINISHED_HISTORY if table.status == FINISHED else HISTORY
    messages = await database.read(
        partial(load_messages, table_id=table.id, channels=channels, limit=limit)
    )
    return {
        "messages": [m.to_json() for m in messages],
        "spectators": table.settings.spectator_chat,
    }
