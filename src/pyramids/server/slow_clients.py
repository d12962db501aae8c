"""The HTTP connection guard against slow and greedy clients (uvicorn's httptools protocol).

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but has no timeout on
reading a request: a client that connects and sends nothing, or a byte every few
seconds, holds its connection for ever. :func:`guarded_protocol` makes an httptools
protocol that answers 408 and closes a connection whose request head is not complete
``header_timeout`` seconds after it connected or began the request, or whose body is not
complete ``body_timeout`` seconds after its head; answers 431 to a head over
``max_header_bytes`` however it arrives (counted as it is read, and measured again, request
line and headers, once the parser has it whole: a head that came in one read is parsed in
that read); and 429 to an address past ``max_http_connections_per_address``
open connections (a WebSocket stops counting here once upgraded: the table socket has
its own cap). The settings are :class:`~pyramids.server.config.LimitSettings`.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pyramids.server.config import LimitSettings
from pyramids.server.limits import ClientLimits, client_key

REASONS = {
    408: b"Request Timeout",
    429: b"Too Many Requests",
    431: b"Request Header Fields Too Large",
}


def raw_error(status: int, code: str, message: str) -> bytes:
    """A complete HTTP/1.1 error response (the usual JSON error body) that closes the connection."""
    body = json.dumps({"error": {"code": code, "message": message}}, separators=(",", ":")).encode()
    head = (
        b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n" % (status, REASONS[status], len(body))
    )
    return head + body


REQUEST_LINE_EXTRA = len(b"  HTTP/1.1\r\n")
"""Bytes of a request line besides its method and target."""


def head_size(method: bytes, target: bytes, headers: list[tuple[bytes, bytes]]) -> int:
    """The bytes of a request head as sent: its request line, each header line and the
    blank line that ends it (whitespace around values is not counted)."""
    lines = sum(len(name) + len(value) + 4 for name, value in headers)  # "N: V\r\n"
    return len(method) + len(target) + REQUEST_LINE_EXTRA + lines + 2


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with read timeouts, a head size cap and a per-address cap."""

    limits: ClassVar[LimitSettings] = LimitSettings()
    client_limits: ClassVar[ClientLimits | None] = None
    open_by_address: ClassVar[Counter[str]] = Counter()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None
        self._key: str | None = None
        self._head_bytes = 0
        self._in_body = False
        self._refused = False

    # --- lifecycle -------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection; refuse it past the address's cap; start the head timer."""
        super().connection_made(transport)
        key = client_key(self.client[0] if self.client else None)
        cap = self.limits.max_http_connections_per_address
        exempt = self.client_limits is not None and (
            self.client_limits.is_exempt(key) or self.client_limits.is_trusted_proxy(key)
        )
        if cap and not exempt and self.open_by_address[key] >= cap:
            self._refuse(
                429,
                "too_many_connections",
                f"your address already has {cap} connections open to this server",
            )
            return
        self._key = key
        self.open_by_address[key] += 1
        self._arm(self.limits.header_timeout, "head")

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the timer and uncount the connection."""
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """The WebSocket protocol takes the connection over: stop guarding it here."""
        if self._refused:
            return  # a handshake whose head was over the cap: answered 431
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade()

    # --- reading a request -----------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        """Feed the parser, counting the bytes of the request head."""
        if self._refused:
            return  # the answer is out and the connection closing: read no more
        if not self._in_body:
            self._head_bytes += len(data)
        super().data_received(data)
        cap = self.limits.max_header_bytes
        if cap and not self._in_body and self._head_bytes > cap and not self.transport.is_closing():
            self._refuse(431, "too_large", f"the request head is over {cap} bytes")

    def on_message_begin(self) -> None:
        """A request begins: its head must be complete within ``header_timeout``."""
        super().on_message_begin()
        self._arm(self.limits.header_timeout, "head")

    def on_headers_complete(self) -> None:
        """The head is here: 431 if it is over the cap (the application never sees it);
        else now the body must be complete within ``body_timeout``."""
        cap = self.limits.max_header_bytes
        if self._refused:
            return
        if cap and head_size(self.parser.get_method(), self.url, self.headers) > cap:
            self._refused = True
            self._refuse(431, "too_large", f"the request head is over {cap} bytes")
            return
        self._head_bytes = 0
        self._in_body = True
        self._arm(self.limits.body_timeout, "body")
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        """A part of the body (none of a refused request's reaches the application)."""
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        """The request is complete: no timer until the next one begins (keep-alive's)."""
        if self._refused:
            return
        self._in_body = False
        self._disarm()
        super().on_message_complete()

    # --- helpers ---------------------------------------------------------------------------

    def _arm(self, seconds: float, part: str) -> None:
        self._disarm()
        if seconds > 0:
            self._timer = self.loop.call_later(seconds, self._timed_out, part, seconds)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _uncount(self) -> None:
        key, self._key = self._key, None
        if key is not None:
            self.open_by_address[key] -= 1
            if self.open_by_address[key] <= 0:
                del self.open_by_address[key]

    def _timed_out(self, part: str, seconds: float) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if part == "body" and cycle is not None:
            cycle.keep_alive = False
        if cycle is None or cycle.response_complete or not cycle.response_started:
            self._refuse(
                408, "timeout", f"the request's {part} did not arrive within {seconds:g} s"
            )
        else:
            self.transport.close()

    def _refuse(self, status: int, code: str, message: str) -> None:
        self._disarm()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # whatever the application still sends is dropped
        self.transport.write(raw_error(status, code, message))
        self.transport.close()


def guarded_protocol(
    limits: LimitSettings, client_limits: ClientLimits | None = None
) -> type[GuardedHttpToolsProtocol]:
    """A protocol class for ``uvicorn.Config(http=...)`` with these limits (its own counts)."""
    return type(
        "GuardedHttpToolsProtocol",
        (GuardedHttpToolsProtocol,),
        {"limits": limits, "client_limits": client_limits, "open_by_address": Counter()},
    )
