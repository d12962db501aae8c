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
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pyramids import texts
from pyramids.core.errors import PyramidsError

ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 10
TOKEN_BYTES = 24
"""32 URL-safe characters."""


class ProtocolError(Exception):
    """A request the server turns down: a protocol error code, a message and an HTTP status.

    ``message`` is the English sentence (the ``message`` field every client reads). When
    the refusal has catalogue words (``key`` and ``facts``: ``refusal.<code>`` for a
    rules or server refusal, ``socket.*``, ``names.*``...), the answer also carries them
    in every language (:meth:`words`: ``text_en``, ``text_fr``) so that a French page
    shows a French refusal; ``refusal`` is the refusal itself (``pyramids.core.errors``),
    sent as ``{"code", "data"}`` (:meth:`details`).
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 409,
        *,
        key: str | None = None,
        facts: Mapping[str, Any] | None = None,
        refusal: PyramidsError | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.key = key
        self.facts: dict[str, Any] = dict(facts or {})
        self.refusal = refusal
        self.seat_token: str | None = None
        """The seat's new credential when the refused request used its invite (bound it):
        the refusal still hands it over (``POST …/actions``)."""

    @classmethod
    def of(cls, code: str, refusal: PyramidsError, status: int = 409) -> ProtocolError:
        """The protocol refusal ``code`` whose reason is ``refusal`` (a rules refusal, or
        one of the server's own ``server.*`` codes): its English words are the message."""
        return cls(
            code,
            texts.refusal(refusal, "en"),
            status,
            key=texts.refusal_key(refusal.code),
            facts=refusal.data,
            refusal=refusal,
        )

    def words(self) -> dict[str, str]:
        """``text_en``, ``text_fr``: the refusal in each language (empty without catalogue
        words: the client then has the code and the English message only)."""
        if self.refusal is not None:
            return {f"text_{lang}": texts.refusal(self.refusal, lang) for lang in texts.LANGS}
        if self.key is None:
            return {}
        try:
            return {
                f"text_{lang}": texts.message(self.key, lang, **self.facts) for lang in texts.LANGS
            }
        except texts.MessageError:
            return {}

    def details(self) -> dict[str, Any]:
        """What an error answer carries besides ``code`` and ``message``: the refusal's
        ``{"code", "data"}`` (when there is one) and its words in every language."""
        out: dict[str, Any] = {}
        if self.refusal is not None:
            out["refusal"] = {"code": self.refusal.code, "data": dict(self.refusal.data)}
        out.update(self.words())
        return out


def server_refusal(code: str, name: str, status: int = 409, /, **facts: Any) -> ProtocolError:
    """The server's own refusal ``server.<name>`` (catalogue ``refusal.server.<name>``,
    ``messages/*/refusals-hosts.json``) under the protocol code ``code``."""
    return ProtocolError.of(code, PyramidsError(f"server.{name}", **facts), status)


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat's token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 32 URL-safe characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def invite_used() -> ProtocolError:
    """The refusal of an invite whose first use bound its seat (issue 29: used once)."""
    key = "seats.invite_used"
    return ProtocolError("invite_used", texts.message(key, "en"), 403, key=key)


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
