"""Who is logged in: the session cookie, its server-side row, and the CSRF check.

A session is a random token in the ``HttpOnly`` cookie ``pyramids_session`` (``SameSite=Lax``,
``Secure`` when the page came over TLS); the ``sessions`` table keeps only its SHA-256, the
account, the session's CSRF token and the expiry. Every write authenticated by the cookie
must carry that CSRF token in the ``X-CSRF-Token`` header (``GET /api/session`` tells it);
a write without the cookie is not cookie-authenticated and needs none. ``accounts.py``
makes and ends sessions; every other module asks here who the request's account is.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass
from functools import partial

from sqlalchemy import Connection, Table, select
from starlette.requests import HTTPConnection

from pyramids.server.database import database_of
from pyramids.server.db import AccountRow, Base, SessionRow
from pyramids.server.protocol import ProtocolError
from pyramids.server.store import as_utc, utcnow

COOKIE = "pyramids_session"
"""The session cookie's name."""
CSRF_HEADER = "X-CSRF-Token"
"""The header that carries a cookie-authenticated write's CSRF token."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

ACCOUNTS: Table = Base.metadata.tables[AccountRow.__tablename__]
SESSIONS: Table = Base.metadata.tables[SessionRow.__tablename__]


@dataclass(frozen=True)
class Account:
    """A logged-in player: the account's id and its current name."""

    id: int
    name: str


@dataclass(frozen=True)
class Session:
    """A live session: its account, its CSRF token and when it expires."""

    id: str
    """The SHA-256 hex of the cookie's token (the ``sessions`` row's key)."""
    account: Account
    csrf: str
    expires: dt.datetime


def session_id(token: str) -> str:
    """The stored key of a session cookie's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def load_session(conn: Connection, token: str, now: dt.datetime) -> Session | None:
    """The unexpired session of a cookie's token, with its account; None otherwise."""
    sid = session_id(token)
    row = conn.execute(
        select(SESSIONS.c.csrf, SESSIONS.c.expires, ACCOUNTS.c.id, ACCOUNTS.c.name)
        .join(ACCOUNTS, ACCOUNTS.c.id == SESSIONS.c.account_id)
        .where(SESSIONS.c.id == sid)
    ).first()
    if row is None:
        return None
    expires = as_utc(row.expires)
    if expires is None or expires <= now:
        return None
    return Session(sid, Account(row.id, row.name), row.csrf, expires)


async def session_of(connection: HTTPConnection) -> Session | None:
    """The session a request or WebSocket handshake carries in its cookie, if valid."""
    token = connection.cookies.get(COOKIE)
    if not token or len(token) > 128:
        return None
    return await database_of(connection).read(partial(load_session, token=token, now=utcnow()))


async def account_of(connection: HTTPConnection) -> Account | None:
    """The logged-in account of a read (or of a WebSocket, whose Origin is checked), or None."""
    session = await session_of(connection)
    return session.account if session is not None else None


def check_csrf(connection: HTTPConnection, session: Session) -> None:
    """Refuse (403 ``csrf``) a cookie-authenticated write without the session's CSRF token."""
    sent = connection.headers.get(CSRF_HEADER, "")
    if not sent or not hmac.compare_digest(sent.encode(), session.csrf.encode()):
        raise ProtocolError(
            "csrf",
            f"a write made with the session cookie needs the session's {CSRF_HEADER} header "
            "(GET /api/session gives it)",
            403,
        )


async def account_for_write(connection: HTTPConnection) -> Account | None:
    """The account of a write request: None without a (valid) session cookie; 403 ``csrf``
    when the cookie is there but the CSRF header is missing or wrong."""
    session = await session_of(connection)
    if session is None:
        return None
    check_csrf(connection, session)
    return session.account


async def require_account(connection: HTTPConnection, *, write: bool) -> Account:
    """The logged-in account, or 401 ``not_logged_in`` (and, for a write, the CSRF check)."""
    account = await (account_for_write(connection) if write else account_of(connection))
    if account is None:
        raise ProtocolError("not_logged_in", "log in first (POST /api/session)", 401)
    return account
