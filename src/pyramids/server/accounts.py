"""Accounts: sign up, log in and out, change name or password, delete (docs/PLAYERS.md).

An account is a unique name (compared by :func:`name_key`: NFKC, then case-folded) and an
argon2id hash of its password. Logging in makes a server-side session: a random token in
a cookie whose SHA-256 keys the ``sessions`` row (the hashing, the session rows and the
cookie are ``sessions.py``'s). Every write made with the cookie carries the session's
CSRF token (``X-CSRF-Token``).

Guessing is slowed three ways, all counted by ``limits.ClientLimits``: the per-address
``signup`` and ``login`` rates, at most ``rate_login_failures`` failed attempts per
account name (in memory, whoever tries), and the same work and answer for an unknown
name as for a wrong password. Sign-up and log-in refuse a browser ``Origin`` other than
the server's own (login CSRF). Deleting an account keeps its finished games under
:data:`DELETED_NAME`.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field, StrictStr
from sqlalchemy import Connection, delete, select, update
from sqlalchemy.exc import IntegrityError

from pyramids.server import names
from pyramids.server.auth import (
    ACCOUNTS,
    SESSIONS,
    Account,
    Session,
    check_csrf,
    require_account,
    session_id,
    session_of,
)
from pyramids.server.database import Database, database_of
from pyramids.server.db import Base, ChatRow, ResultRow, SeatRow
from pyramids.server.hardening import is_origin_allowed
from pyramids.server.limits import ClientLimits, Rate, RateLimitedError, client_key
from pyramids.server.live import LiveTable
from pyramids.server.pages import static_page
from pyramids.server.protocol import ProtocolError, iso
from pyramids.server.schemas import ErrorOut
from pyramids.server.schemas import Request as Body
from pyramids.server.schemas import Response as Out
from pyramids.server.sessions import (
    PASSWORDS,
    clear_cookie,
    delete_session,
    hashing_of,
    insert_session,
    new_token,
    no_store,
    set_cookie,
)
from pyramids.server.store import as_utc, utcnow
from pyramids.texts import message

router = APIRouter(tags=["accounts"])


NAME_MIN = 3
NAME_MAX = 24
NAME_PUNCTUATION = "_-."
"""The characters a name may hold besides letters and digits (not first or last)."""
PASSWORD_MIN = 8
PASSWORD_MAX = 256
DELETED_NAME = names.DELETED_NAME
"""The name a deleted account's seats and messages take; no account may be called so, nor
anything that looks like it (``names.is_reserved``)."""
SEATS = Base.metadata.tables[SeatRow.__tablename__]
RESULTS = Base.metadata.tables[ResultRow.__tablename__]
CHAT = Base.metadata.tables[ChatRow.__tablename__]

ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorOut, "description": d}
    for s, d in {
        401: "not_logged_in, or bad_credentials (wrong name or password: one message)",
        403: "csrf (the cookie without its X-CSRF-Token), wrong_password, bad_origin",
        409: "name_taken (also for a reserved name)",
        422: "malformed (the rule broken is said) or weak_password",
        429: "rate_limited (with Retry-After, in seconds)",
    }.items()
}


# --- names and passwords ---------------------------------------------------------------------


def normalize_name(name: str) -> str:
    """A name as stored and shown: NFKC (full-width letters become ordinary ones), stripped."""
    return unicodedata.normalize("NFKC", name).strip()


def name_key(name: str) -> str:
    """What two names are compared by (``accounts.name_key``): NFKC, then case-folded.
    ``GET /api/players/{name}`` looks names up by it too."""
    return normalize_name(name).casefold()


def is_reserved(name: str) -> bool:
    """Whether a name spells the deleted player's in any script, case or spelling (up to
    ``_ - .``: ``names.is_reserved``, by skeleton)."""
    return names.is_reserved(name)


def _is_name_char(c: str) -> bool:
    category = unicodedata.category(c)
    # letters of any script with their combining marks (Devanagari, Thai…), decimal digits
    return category[0] in "LM" or category == "Nd" or c in NAME_PUNCTUATION


def _refuse(key: str, status: int = 422, code: str = "malformed", **facts: Any) -> ProtocolError:
    """A refusal whose message is the catalogue's entry ``key`` (in English)."""
    words = "names." + key
    return ProtocolError(code, message(words, "en", **facts), status, key=words, facts=facts)


def check_name(raw: str) -> str:
    """The normalised name, or ProtocolError (422 malformed, 409 for a reserved one) that
    says which rule it breaks (the rules of ``names.py`` too: no invisible character, one
    script, at most ``names.MAX_MARKS`` marks on a character)."""
    name = normalize_name(raw)
    if any(names.is_ignorable(c) for c in name):
        hidden = [c for c in name if names.is_ignorable(c)]
        raise _refuse("invisible", chars=names.describe_chars(hidden))
    if is_reserved(name):
        raise _refuse("reserved", 409, "name_taken", name=name, reserved=DELETED_NAME)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise _refuse("length", min=NAME_MIN, max=NAME_MAX, count=len(name))
    bad = sorted({c for c in name if not _is_name_char(c)})
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5])
        raise _refuse("characters", punctuation=" ".join(NAME_PUNCTUATION), chars=shown)
    if name[0] in NAME_PUNCTUATION or name[-1] in NAME_PUNCTUATION:
        raise _refuse("ends")
    if unicodedata.category(name[0])[0] == "M":
        raise _refuse("leading_mark", char=names.char_name(name[0]))
    try:
        names.check_account_name(name)
    except names.TextRefusedError as exc:
        refused = ProtocolError("malformed", exc.message, 422, key=exc.key, facts=exc.facts)
        raise refused from None
    return name


def normalize_password(password: str) -> str:
    """A password as hashed: NFKC, so the same characters typed on another system match."""
    return unicodedata.normalize("NFKC", password)


def check_password(password: str, name: str) -> str:
    """The normalised password, or ProtocolError (422 weak_password / malformed)."""
    password = normalize_password(password)
    if len(password) > PASSWORD_MAX:
        raise ProtocolError("malformed", f"a password has at most {PASSWORD_MAX} characters", 422)
    if len(password) < PASSWORD_MIN:
        raise ProtocolError(
            "weak_password",
            f"a password has at least {PASSWORD_MIN} characters (this one has {len(password)})",
            422,
        )
    if password.casefold() == name_key(name):
        raise ProtocolError("weak_password", "the password cannot be the name", 422)
    return password


# --- request bodies -------------------------------------------------------------------------

LongText = Annotated[StrictStr, Field(max_length=1024)]
"""A field checked by the rules above (a bound so that nothing huge is normalised)."""


class Credentials(Body):
    """``POST /api/accounts`` and ``POST /api/session``: a name and a password."""

    name: LongText
    password: LongText


class AccountChange(Body):
    """``PATCH /api/accounts/me``: the current password, and a new name and/or password."""

    current_password: LongText
    name: LongText | None = None
    password: LongText | None = None


class AccountDeletion(Body):
    """``DELETE /api/accounts/me``: the password, once more."""

    password: LongText


class AccountOut(Out):
    """An account as its owner sees it."""

    name: str
    created: str | None


class SessionOut(Out):
    """Who is logged in, and the CSRF token of the session's writes (null: nobody)."""

    account: AccountOut | None
    csrf: str | None


# --- per-app state --------------------------------------------------------------------------


def _limits(request: Request) -> ClientLimits:
    """The app's rates (``limits.ClientLimits``): per address, and failed log-ins per name."""
    limits: ClientLimits = request.app.state.client_limits
    return limits


def _tables(request: Request) -> Mapping[str, LiveTable]:
    """The tables this instance holds in memory (the table manager's)."""
    tables: Mapping[str, LiveTable] = request.app.state.manager.tables
    return tables


def _address(request: Request) -> str:
    client = request.client
    return client_key(client.host if client is not None else None)


def _check_origin(request: Request) -> None:
    """Refuse a browser's sign-up or log-in sent from another site's page (login CSRF)."""
    allowed = request.app.state.settings.allowed_origins
    if not is_origin_allowed(request.scope["headers"], allowed):
        origin = request.headers.get("origin", "")
        raise ProtocolError(
            "bad_origin", f"pages from {origin!r} may not log in to this server", 403
        )


# --- database jobs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """An account as stored: id, name, hash and creation time."""

    id: int
    name: str
    password_hash: str
    created: dt.datetime


def find_account(conn: Connection, key: str) -> Stored | None:
    """The account whose name compares as ``key``."""
    row = conn.execute(
        select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.password_hash, ACCOUNTS.c.created).where(
            ACCOUNTS.c.name_key == key
        )
    ).first()
    if row is None:
        return None
    return Stored(row.id, row.name, row.password_hash, as_utc(row.created) or row.created)


def get_account(conn: Connection, account_id: int) -> Stored | None:
    """The account of an id."""
    row = conn.execute(
        select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.password_hash, ACCOUNTS.c.created).where(
            ACCOUNTS.c.id == account_id
        )
    ).first()
    if row is None:
        return None
    return Stored(row.id, row.name, row.password_hash, as_utc(row.created) or row.created)


def find_look_alike(conn: Connection, name: str, exclude: int | None = None) -> str | None:
    """The name of the account (other than ``exclude``) whose name looks like ``name``
    (the same skeleton: ``names.skeleton_key``); None if there is none."""
    query = select(ACCOUNTS.c.name).where(ACCOUNTS.c.name_skeleton == names.skeleton_key(name))
    if exclude is not None:
        query = query.where(ACCOUNTS.c.id != exclude)
    row = conn.execute(query).first()
    return None if row is None else str(row.name)


def _is_taken(conn: Connection, name: str, exclude: int | None = None) -> bool:
    """Whether another account has this name (case-folded) or one that looks like it."""
    query = select(ACCOUNTS.c.id).where(ACCOUNTS.c.name_key == name_key(name))
    if exclude is not None:
        query = query.where(ACCOUNTS.c.id != exclude)
    return conn.execute(query).first() is not None or (
        find_look_alike(conn, name, exclude) is not None
    )


def insert_account(conn: Connection, name: str, password_hash: str, now: dt.datetime) -> int | None:
    """A new account's id; None when the name, or one that looks like it, is taken (within
    this writer, atomically; the unique indexes hold it across writers)."""
    if _is_taken(conn, name):
        return None
    result = conn.execute(
        ACCOUNTS.insert().values(
            name=name,
            name_key=name_key(name),
            name_skeleton=names.skeleton_key(name),
            password_hash=password_hash,
            created=now,
        )
    )
    key_row = result.inserted_primary_key
    assert key_row is not None
    return int(key_row[0])


def set_hash(conn: Connection, account_id: int, password_hash: str) -> None:
    """Replace an account's password hash (a rehash with newer parameters)."""
    conn.execute(
        update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(password_hash=password_hash)
    )


def change_account(
    conn: Connection,
    *,
    account_id: int,
    name: str | None,
    password_hash: str | None,
    keep_session: str,
) -> bool:
    """Rename (seats and chat lines take the new name) and/or set a new password (every
    session but ``keep_session`` ends); False when the new name is another account's."""
    if name is not None:
        if _is_taken(conn, name, exclude=account_id):
            return False
        conn.execute(
            update(ACCOUNTS)
            .where(ACCOUNTS.c.id == account_id)
            .values(name=name, name_key=name_key(name), name_skeleton=names.skeleton_key(name))
        )
        conn.execute(update(SEATS).where(SEATS.c.account_id == account_id).values(name=name))
        conn.execute(update(CHAT).where(CHAT.c.account_id == account_id).values(name=name))
    if password_hash is not None:
        conn.execute(
            update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(password_hash=password_hash)
        )
        conn.execute(
            delete(SESSIONS).where(
                SESSIONS.c.account_id == account_id, SESSIONS.c.id != keep_session
            )
        )
    return True


def delete_account(conn: Connection, account_id: int) -> None:
    """Delete an account in one transaction: its seats, results and chat lines stay, under
    ``deleted player`` and bound to no account; its sessions and ratings go (FK cascade,
    and explicitly, so that a database without enforced foreign keys loses them too)."""
    conn.execute(
        update(SEATS)
        .where(SEATS.c.account_id == account_id)
        .values(account_id=None, name=DELETED_NAME)
    )
    conn.execute(update(RESULTS).where(RESULTS.c.account_id == account_id).values(account_id=None))
    conn.execute(
        update(CHAT)
        .where(CHAT.c.account_id == account_id)
        .values(account_id=None, name=DELETED_NAME)
    )
    for name in ("rating_history", "ratings"):
        table = Base.metadata.tables[name]
        conn.execute(delete(table).where(table.c.account_id == account_id))
    conn.execute(delete(SESSIONS).where(SESSIONS.c.account_id == account_id))
    conn.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account_id))


# --- answers ----------------------------------------------------------------------------------


def account_json(account: Stored) -> dict[str, Any]:
    """An account as the API shows it to its owner."""
    return {"name": account.name, "created": iso(account.created)}


async def start_session(
    request: Request, account: Stored, status: int, replaces: Session | None
) -> Response:
    """Log ``account`` in: a new session row and cookie; the answer ``{"account", "csrf"}``."""
    token = new_token()
    csrf = new_token()
    await database_of(request).write(
        partial(
            insert_session,
            account_id=account.id,
            sid=session_id(token),
            csrf=csrf,
            now=utcnow(),
            replaces=replaces.id if replaces is not None else None,
        )
    )
    response = JSONResponse({"account": account_json(account), "csrf": csrf}, status_code=status)
    set_cookie(request, response, token)
    return no_store(response)


def _rename_live(request: Request, account_id: int, name: str | None) -> None:
    """The tables in memory take an account's new name (None: the account was deleted, its
    seats become ``deleted player`` bound to no account)."""
    for table in list(_tables(request).values()):
        touched = False
        for seat in table.seats:
            if seat.account_id == account_id:
                seat.name = name if name is not None else DELETED_NAME
                if name is None:
                    seat.account_id = None
                touched = True
        if touched:
            table.changed()
            table.broadcast_table()


async def _check_password(request: Request, account: Account, password: str) -> Stored:
    """The stored account if ``password`` is its password; 403 ``wrong_password`` otherwise
    (counted as a failed log-in of the name: a stolen session cannot guess it either)."""
    limits = _limits(request)
    key = name_key(account.name)
    _refuse_after_failures(limits, key)
    stored = await database_of(request).read(partial(get_account, account_id=account.id))
    if stored is None:
        raise ProtocolError("not_logged_in", "this account no longer exists", 401)
    if not await hashing_of(request).verify(stored.password_hash, normalize_password(password)):
        limits.count(Rate.LOGIN_FAILURES, key)
        raise ProtocolError("wrong_password", "the current password is wrong", 403)
    return stored


def _refuse_after_failures(limits: ClientLimits, key: str) -> None:
    """429 ``rate_limited`` while the name ``key`` has spent its ``rate_login_failures``."""
    wait = limits.wait(Rate.LOGIN_FAILURES, key)
    if wait:
        allowed = limits.settings.rate_login_failures.replace("/", " per ")
        raise RateLimitedError(
            f"too many failed log-ins for this name (at most {allowed}); try again in {wait} s",
            wait,
        )


async def _refuse_look_alike(database: Database, name: str, exclude: int | None = None) -> None:
    """409 ``name_taken`` saying whose name ``name`` looks like, if another account's does."""
    other = await database.read(partial(find_look_alike, name=name, exclude=exclude))
    if other is not None:
        raise _refuse("looks_taken", 409, "name_taken", name=name, other=other)


# --- routes -----------------------------------------------------------------------------------


@router.post("/api/accounts", status_code=201, response_model=SessionOut, responses=ERRORS)
async def sign_up(request: Request, body: Credentials) -> Response:
    """Make an account and log in at once: ``{"account": {"name", "created"}, "csrf"}``."""
    _check_origin(request)
    database = database_of(request)
    _limits(request).check(Rate.SIGNUP, _address(request))
    name = check_name(body.name)
    password = check_password(body.password, name)
    if await database.read(partial(find_account, key=name_key(name))) is not None:
        raise _refuse("taken", 409, "name_taken", name=name)
    await _refuse_look_alike(database, name)
    password_hash = await hashing_of(request).hash(password)
    now = utcnow()
    try:
        account_id = await database.write(
            partial(insert_account, name=name, password_hash=password_hash, now=now)
        )
    except IntegrityError:  # another process took it in between
        account_id = None
    if account_id is None:
        raise _refuse("taken", 409, "name_taken", name=name)
    stored = Stored(account_id, name, password_hash, now)
    return await start_session(request, stored, 201, await session_of(request))


@router.post("/api/session", response_model=SessionOut, responses=ERRORS)
async def log_in(request: Request, body: Credentials) -> Response:
    """Log in: ``{"account", "csrf"}`` and the session cookie; 401 ``bad_credentials`` for
    a wrong name or password alike."""
    _check_origin(request)
    database = database_of(request)
    limits = _limits(request)
    limits.check(Rate.LOGIN, _address(request))
    hashing = hashing_of(request)
    key = name_key(body.name)
    _refuse_after_failures(limits, key)
    await hashing.ready()
    stored = await database.read(partial(find_account, key=key))
    password = normalize_password(body.password)
    ok = await hashing.verify(stored.password_hash if stored else None, password)
    if stored is None or not ok:
        limits.count(Rate.LOGIN_FAILURES, key)
        raise ProtocolError("bad_credentials", "wrong name or password", 401)
    limits.forget(Rate.LOGIN_FAILURES, key)
    if PASSWORDS.check_needs_rehash(stored.password_hash):
        new_hash = await hashing.hash(password)
        await database.write(partial(set_hash, account_id=stored.id, password_hash=new_hash))
    return await start_session(request, stored, 200, await session_of(request))


@router.get("/api/session", response_model=SessionOut)
async def get_session(request: Request) -> Response:
    """Who is logged in: ``{"account": {"name", "created"} | null, "csrf": str | null}``."""
    session = await session_of(request)
    stored = None
    if session is not None:
        stored = await database_of(request).read(
            partial(get_account, account_id=session.account.id)
        )
    if session is None or stored is None:
        return no_store(JSONResponse({"account": None, "csrf": None}))
    return no_store(JSONResponse({"account": account_json(stored), "csrf": session.csrf}))


@router.delete("/api/session", status_code=204, responses=ERRORS)
async def log_out(request: Request) -> Response:
    """Log out: the session ends and the cookie is cleared (204 without a session too)."""
    session = await session_of(request)
    if session is not None:
        check_csrf(request, session)
        await database_of(request).write(partial(delete_session, sid=session.id))
    response = Response(status_code=204)
    clear_cookie(request, response)
    return no_store(response)


@router.patch("/api/accounts/me", response_model=SessionOut, responses=ERRORS)
async def change_me(request: Request, body: AccountChange) -> Response:
    """Change the name and/or the password (the current password is asked for); a new
    password ends every other session. ``{"account", "csrf"}``."""
    session = await session_of(request)
    if session is None:
        raise ProtocolError("not_logged_in", "log in first (POST /api/session)", 401)
    check_csrf(request, session)
    if body.name is None and body.password is None:
        raise ProtocolError("malformed", "say what to change: name, password or both", 422)
    name = check_name(body.name) if body.name is not None else None
    stored = await _check_password(request, session.account, body.current_password)
    password_hash = None
    if body.password is not None:
        password = check_password(body.password, name or stored.name)
        password_hash = await hashing_of(request).hash(password)
    elif name is not None and normalize_password(body.current_password).casefold() == name_key(
        name
    ):
        raise ProtocolError("weak_password", "the new name cannot be the password", 422)
    if name == stored.name:
        name = None
    if name is not None:
        await _refuse_look_alike(database_of(request), name, stored.id)
    done = await database_of(request).write(
        partial(
            change_account,
            account_id=stored.id,
            name=name,
            password_hash=password_hash,
            keep_session=session.id,
        )
    )
    if not done:
        raise _refuse("taken", 409, "name_taken", name=name)
    if name is not None:
        _rename_live(request, stored.id, name)
        stored = Stored(stored.id, name, password_hash or stored.password_hash, stored.created)
    return no_store(JSONResponse({"account": account_json(stored), "csrf": session.csrf}))


@router.delete("/api/accounts/me", status_code=204, responses=ERRORS)
async def delete_me(request: Request, body: AccountDeletion) -> Response:
    """Delete the account (the password is asked for): its finished games stay, under
    ``deleted player``; its ratings and sessions go. 204, the cookie cleared."""
    account = await require_account(request, write=True)
    stored = await _check_password(request, account, body.password)
    await database_of(request).write(partial(delete_account, account_id=stored.id))
    _rename_live(request, stored.id, None)
    response = Response(status_code=204)
    clear_cookie(request, response)
    return no_store(response)


@router.get("/account", include_in_schema=False)
async def account_page() -> Response:
    """The account page: sign up, log in and out, change name or password, delete."""
    return static_page("account.html")
