"""The WebSocket protocol of ``pyramids serve``: uvicorn's, plus a way to write frames made once.

ASGI lets an application send one message at a time, each framed by the server for that
one socket. A state goes to every connection of its viewer (each seat, and one public
view for all spectators); :class:`wire.Outgoing` frames it once, and the extension
:data:`FRAMES_EXTENSION` (``scope["extensions"]["pyramids.frames"]["send"]``) writes those
bytes to a socket as they are: every message queued for the connection since its last
write goes out in one write. Servers without the extension (the test client, another
ASGI server) get the same messages through ``websocket.send``.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

FRAMES_EXTENSION = "pyramids.frames"
"""The ASGI scope extension that writes ready-made WebSocket frames."""


class FramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the :data:`FRAMES_EXTENSION` extension."""

    def handle_connect(self, event: Any) -> None:
        """Accept the handshake as uvicorn does, then offer the extension to the app.

        The extension reaches the protocol through a weak reference: the protocol holds
        the scope, and a bound method in the scope would close a reference cycle, which
        keeps each closed connection (some 55 objects) for the collector to find: once
        frozen by a full pass while the connection was open, until the next unfreeze
        (``cli.serve_cmd._GenerationalFreeze``), whose pass it made several seconds long.
        """
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None and not self.close_sent:
            scope["extensions"][FRAMES_EXTENSION] = _extension(weakref.ref(self))

    async def send_frames(self, data: bytes) -> None:
        """Write complete unmasked frames (after the handshake, before any close); waits
        while the socket's write buffer is full, like ``websocket.send``."""
        await self.writable.wait()
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.transport.is_closing()
        ):
            raise ClientDisconnected
        self.transport.write(data)

    def write_frames(self, data: bytes) -> bool:
        """Write complete frames now if the socket is open and its buffer not full; else
        False (the caller queues them for ``send_frames``)."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(data)
        return True


def _extension(ref: weakref.ref[FramesProtocol]) -> dict[str, Callable[[bytes], Any]]:
    """The extension's ``send`` and ``write`` for the protocol behind ``ref``."""

    def send(data: bytes) -> Awaitable[None]:
        protocol = ref()
        if protocol is None:
            raise ClientDisconnected
        return protocol.send_frames(data)

    def write(data: bytes) -> bool:
        protocol = ref()
        return protocol is not None and protocol.write_frames(data)

    return {"send": send, "write": write}
