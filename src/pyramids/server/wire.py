"""The wire: JSON encoding, WebSocket text frames and each connection's outbox.

Every message leaving the server is compact JSON made by :func:`encode` (orjson, with
the standard library for what it refuses); parts already encoded (a log's entries) go
into a message as they are through :func:`json_fragment`. An :class:`Outgoing` is one
message serialised and framed once for all the connections that get it;
:class:`Client` is one connection's outbox, written by its sender task or straight to
the socket (``fanout.py``).
"""

from __future__ import annotations

import asyncio
import collections
import json
from collections.abc import Callable, Sequence
from typing import Any

import orjson


def encode(data: Any) -> bytes:
    """Compact JSON as UTF-8 (orjson; the standard library's for what orjson refuses, such
    as an integer over 64 bits): what every message leaving the server is made of. Parts
    already encoded (a log, :func:`json_fragment`) go in as they are."""
    try:
        # a copy of exactly its length: orjson's own bytes keep the whole buffer it wrote
        # into (4 KiB at least, 8 times a long string), and logs keep entries a whole game
        return memoryview(orjson.dumps(data)).tobytes()
    except orjson.JSONEncodeError:
        # (a message with an encoded part holds no such integer: logs hold seats, tiles, cards)
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=_not_json)
        try:
            return text.encode()
        except UnicodeEncodeError:  # a lone surrogate: JSON spells it \udXXX, UTF-8 cannot
            return json.dumps(data, separators=(",", ":"), default=_not_json).encode()


def json_fragment(data: bytes) -> Any:
    """JSON already encoded, to be put in a message as it is (``orjson.Fragment``)."""
    return orjson.Fragment(data)


def _not_json(value: Any) -> Any:
    # json.dumps's default: nothing orjson refused can be written here (not a Fragment either)
    raise TypeError(f"cannot encode {type(value).__name__} with the standard library")


def log_array(entries: Sequence[bytes]) -> Any:
    """A viewer's log (encoded entries) as one JSON array for a message."""
    return json_fragment(b"[" + b",".join(entries) + b"]")


def dumps(data: Any) -> str:
    """Compact JSON text."""
    return encode(data).decode()


def text_frame(data: bytes) -> bytes:
    """``data`` as one unmasked WebSocket text frame (RFC 6455 5.2: what a server sends)."""
    n = len(data)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 1 << 16:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    return head + data


class Outgoing:
    """A message as it leaves the server: its JSON text and, built on first use, its
    WebSocket frame. One object goes to every connection of a viewer, so a state is
    serialised and framed once per view, not once per socket."""

    __slots__ = ("_frame", "_text", "data")

    def __init__(self, text: str | bytes) -> None:
        self.data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        """The message's JSON as UTF-8."""
        self._text = text if isinstance(text, str) else None
        self._frame: bytes | None = None

    @property
    def text(self) -> str:
        """The message's JSON text."""
        if self._text is None:
            self._text = self.data.decode("utf-8", "surrogatepass")
        return self._text

    @property
    def frame(self) -> bytes:
        """The text frame carrying the message (the same bytes for every socket)."""
        if self._frame is None:
            self._frame = text_frame(self.data)
        return self._frame


class Client:
    """One WebSocket connection's outbox: messages queue here and a sender task writes
    them, every message queued since its last write at once (:meth:`take`)."""

    def __init__(self, seat: int | None, limit: int = 2000, linger: float = 0.0) -> None:
        self.seat = seat
        self.linger = linger
        """Seconds a spectator's messages wait for the next ones, to go out together in
        one write (0: at once; players' connections never wait): LiveTable.flush_public."""
        self.write_now: Callable[[bytes], bool] | None = None
        """Writes ready frames to the socket at once if it can (``fanout``), else False."""
        self.busy = False
        """Whether the sender task holds taken messages it has not finished writing."""
        self.outbox: collections.deque[Outgoing] = collections.deque()
        self.limit = limit
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self._waiter: asyncio.Future[None] | None = None
        self._flush_soon = False

    def send(self, message: str | Outgoing) -> None:
        """Send a message: the messages of one turn of the event loop go to the socket in
        one write at its end (``_flush``), else through the sender task; a client too far
        behind is dropped (it resyncs on reconnect)."""
        if self.closed:
            return
        if len(self.outbox) >= self.limit:
            self.close(1013)
            return
        self.outbox.append(message if isinstance(message, Outgoing) else Outgoing(message))
        if self.write_now is not None and not self.busy:
            if not self._flush_soon:
                self._flush_soon = True
                asyncio.get_running_loop().call_soon(self._flush)
            return
        self._wake()

    def _flush(self) -> None:
        """Write what was sent during this turn of the event loop in one write, straight
        to the socket (a state and its ack go out together); when the socket cannot take
        it now, the sender task writes it once it can."""
        self._flush_soon = False
        if not self.outbox or self.busy or self.closed:
            self._wake()
            return
        write = self.write_now
        if write is not None and write(b"".join(out.frame for out in self.outbox)):
            self.outbox.clear()
            return
        self._wake()

    async def take(self) -> list[Outgoing]:
        """Wait for messages and take all that are queued; empty once closed and sent."""
        self.busy = False
        while not self.outbox and not self.closed:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        batch = list(self.outbox)
        self.outbox.clear()
        self.busy = bool(batch)
        return batch

    def can_write_now(self) -> bool:
        """Whether a write straight to the socket keeps the order (nothing queued before)."""
        return self.write_now is not None and not self.outbox and not self.busy and not self.closed

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Ask the sender to close the connection (WebSocket ``code`` and ``reason``) after
        what is queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self._wake()
