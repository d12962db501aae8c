"""What the protocol hands out and turns down: table ids, seat tokens, refusals, times.

:class:`ProtocolError` is every refusal a request can get (a code of ``docs/PROTOCOL.md``,
a message and an HTTP status); the HTTP routes and the socket turn it into the error
answer. Table ids and seat tokens are made and checked here (a token is stored only as
its SHA-256, :func:`hash_token`), and :func:`iso` writes the protocol's timestamps.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import string
from functools import lru_cache

from pyramids import texts

ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 10
TOKEN_BYTES = 24
"""32 URL-safe characters."""


class ProtocolError(Exception):
    """A request the server turns down: a protocol error code, a message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.seat_token: str | None = None
        """The seat's new credential when the refused request used its invite (bound it):
        the refusal still hands it over (``POST …/actions``)."""


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat's token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 32 URL-safe characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def invite_used() -> ProtocolError:
    """The refusal of an invite whose first use bound its seat (issue 29: used once)."""
    return ProtocolError("invite_used", texts.message("seats.invite_used", "en"), 403)


def new_table_id() -> str:
    """A fresh table id: 10 letters and digits."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def is_table_id(text: str) -> bool:
    """Whether ``text`` could be a table id (checked before touching the database)."""
    return 0 < len(text) <= 16 and all(c in ID_ALPHABET for c in text)


def iso(value: dt.datetime | None) -> str | None:
    """A timestamp as ``2026-11-29T20:41:03Z``."""
    if value is None:
        return None
    return _iso(value)


@lru_cache(maxsize=4096)
def _iso(value: dt.datetime) -> str:
    # a table's summary is rebuilt after every change; its times rarely change
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
