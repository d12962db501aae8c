"""Passwords and log-in sessions of accounts: the hashing, the session rows and the cookie.

A password is hashed with argon2id (argon2-cffi's ``PasswordHasher`` with its RFC 9106
defaults) in a worker thread, at most :data:`HASH_CONCURRENCY` at once, since each takes
64 MiB (:class:`PasswordHashing`, one per app). Logging in makes a server-side session
(``auth.py`` reads them): a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie
(``Secure`` over TLS) whose SHA-256 keys the ``sessions`` row, with the session's CSRF
token and a fixed expiry :data:`SESSION_DAYS` later. The routes that use all this are in
``accounts.py`` (docs/PLAYERS.md, docs/SECURITY.md).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Request
from fastapi.responses import Response
from sqlalchemy import Connection, delete

from pyramids.server.auth import COOKIE, SESSIONS

SESSION_DAYS = 30
SESSION_MAX_AGE = SESSION_DAYS * 24 * 3600
"""The session cookie's ``Max-Age`` (seconds); the server-side row expires with it."""
HASH_CONCURRENCY = 2
"""Password hashes computed at once (the others wait): argon2id takes 64 MiB each."""
TOKEN_BYTES = 32
"""Random bytes of a session token and of its CSRF token."""

PASSWORDS = PasswordHasher()
"""argon2id with argon2-cffi's RFC 9106 low-memory profile (t=3, m=64 MiB, p=4)."""


def new_token() -> str:
    """A fresh random token (a session's, or its CSRF token)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class PasswordHashing:
    """One app's password hashing: at most :data:`HASH_CONCURRENCY` hashes at once, and
    the same work for an unknown name as for a wrong password."""

    def __init__(self) -> None:
        self._slots = asyncio.Semaphore(HASH_CONCURRENCY)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """The argon2id hash of a (normalised) password."""
        async with self._slots:
            return await asyncio.to_thread(PASSWORDS.hash, password)

    async def ready(self) -> None:
        """Make the dummy hash an unknown name is checked against (once, before any
        log-in is answered: the first unknown name must not take longer than the others)."""
        if self._dummy is None:
            self._dummy = await self.hash(new_token())

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; for no account (None) one verification
        of a dummy hash is spent all the same, so the answer takes as long."""
        if stored is None:
            await self.ready()
            assert self._dummy is not None
            stored = self._dummy
            password = ""
        async with self._slots:
            return await asyncio.to_thread(_verify, stored, password)


def _verify(stored: str, password: str) -> bool:
    try:
        return PASSWORDS.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def hashing_of(request: Request) -> PasswordHashing:
    """The app's password hashing (made on first use)."""
    state = request.app.state
    hashing = getattr(state, "password_hashing", None)
    if hashing is None:
        hashing = state.password_hashing = PasswordHashing()
    return hashing


# --- session rows ---------------------------------------------------------------------------


def insert_session(
    conn: Connection,
    *,
    account_id: int,
    sid: str,
    csrf: str,
    now: dt.datetime,
    replaces: str | None,
) -> None:
    """Store a new session (ending the one it replaces, and every expired one)."""
    conn.execute(delete(SESSIONS).where(SESSIONS.c.expires <= now))
    if replaces is not None:
        conn.execute(delete(SESSIONS).where(SESSIONS.c.id == replaces))
    conn.execute(
        SESSIONS.insert().values(
            id=sid,
            account_id=account_id,
            csrf=csrf,
            created=now,
            expires=now + dt.timedelta(seconds=SESSION_MAX_AGE),
        )
    )


def delete_session(conn: Connection, sid: str) -> None:
    """End one session."""
    conn.execute(delete(SESSIONS).where(SESSIONS.c.id == sid))


# --- the cookie -----------------------------------------------------------------------------


def no_store(response: Response) -> Response:
    """``response`` marked ``Cache-Control: no-store`` (it carries or ends a session)."""
    response.headers["Cache-Control"] = "no-store"
    return response


def set_cookie(request: Request, response: Response, token: str) -> None:
    """Give the browser its session cookie (``Secure`` when the page came over TLS)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(request: Request, response: Response) -> None:
    """Tell the browser to forget its session cookie."""
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
