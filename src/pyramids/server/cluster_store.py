"""The database side of a cluster: table leases, per-instance presence, notifications.

Synchronous SQLAlchemy Core on a ``Connection``, called from worker threads like
``store.py``. Leases and presence use the database's clock (``now()``), never an
instance's, so instances whose clocks differ agree on what has expired. Everything here
but :func:`notify` and :func:`set_taken_over` is for PostgreSQL only (a cluster needs
one database every instance reaches; SQLite serves one process, which owns every table).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from sqlalchemy import Connection, Table, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from pyramids.server import store
from pyramids.server.db import Base, LeaseRow, PresenceRow
from pyramids.server.store import SEATS, TABLES

LEASES: Table = Base.metadata.tables[LeaseRow.__tablename__]
PRESENCE: Table = Base.metadata.tables[PresenceRow.__tablename__]
MAX_PAYLOAD = 7999
"""PostgreSQL refuses a notification payload of 8000 bytes or more."""


def _until(ttl: float) -> object:
    """The database's time ``ttl`` seconds from now."""
    return func.now() + dt.timedelta(seconds=ttl)


def acquire(conn: Connection, table_id: str, owner: str, ttl: float) -> bool:
    """Take the lease of ``table_id`` for ``owner`` if nobody holds a live one (or ``owner``
    already does): one conditional upsert, so of two instances trying at once exactly one
    wins. Whether ``owner`` holds it now."""
    stmt = pg_insert(LEASES).values(table_id=table_id, owner=owner, expires=_until(ttl))
    upsert = stmt.on_conflict_do_update(
        index_elements=[LEASES.c.table_id],
        set_={"owner": stmt.excluded.owner, "expires": stmt.excluded.expires},
        where=(LEASES.c.expires < func.now()) | (LEASES.c.owner == stmt.excluded.owner),
    ).returning(LEASES.c.table_id)
    return conn.execute(upsert).first() is not None


def renew(conn: Connection, owner: str, ttl: float) -> set[str]:
    """Extend every lease ``owner`` still holds, and its presence rows; the tables it holds
    (one it lost to another instance after its lease expired is missing)."""
    rows = conn.execute(
        update(LEASES)
        .where(LEASES.c.owner == owner)
        .values(expires=_until(ttl))
        .returning(LEASES.c.table_id)
    )
    held = {r.table_id for r in rows}
    conn.execute(update(PRESENCE).where(PRESENCE.c.owner == owner).values(expires=_until(ttl)))
    return held


def release(conn: Connection, owner: str, table_ids: Iterable[str] | None = None) -> None:
    """Give up ``owner``'s leases (all, or those of ``table_ids``) and, with all, its
    presence rows: another instance may take the tables at once (a clean stop)."""
    query = delete(LEASES).where(LEASES.c.owner == owner)
    if table_ids is not None:
        query = query.where(LEASES.c.table_id.in_(list(table_ids)))
    conn.execute(query)
    if table_ids is None:
        conn.execute(delete(PRESENCE).where(PRESENCE.c.owner == owner))


def hand_over(conn: Connection, table_id: str, owner: str, to: str, ttl: float) -> bool:
    """Give ``owner``'s lease of ``table_id`` to the instance ``to`` (which sees it at its next
    renewal and resumes the table); False if ``owner`` no longer held it."""
    result = conn.execute(
        update(LEASES)
        .where(LEASES.c.table_id == table_id, LEASES.c.owner == owner)
        .values(owner=to, expires=_until(ttl))
    )
    return result.rowcount == 1


def socket_holders(
    conn: Connection, table_ids: Sequence[str], other_than: str
) -> dict[str, dict[str, int]]:
    """The instances other than ``other_than`` holding live sockets of human seats of
    ``table_ids``: ``{table: {instance: sockets}}``."""
    if not table_ids:
        return {}
    rows = conn.execute(
        select(PRESENCE.c.table_id, PRESENCE.c.owner, func.sum(PRESENCE.c.connections))
        .where(
            PRESENCE.c.table_id.in_(list(table_ids)),
            PRESENCE.c.owner != other_than,
            PRESENCE.c.expires >= func.now(),
        )
        .group_by(PRESENCE.c.table_id, PRESENCE.c.owner)
    )
    out: dict[str, dict[str, int]] = {}
    for table_id, holder, count in rows:
        out.setdefault(table_id, {})[holder] = int(count or 0)
    return out


def orphans(conn: Connection, limit: int) -> list[str]:
    """Unfinished (open or running) tables that no live lease holds, oldest first."""
    live = select(LEASES.c.table_id).where(LEASES.c.expires >= func.now())
    rows = conn.execute(
        select(TABLES.c.id)
        .where(TABLES.c.status.in_(("open", "running")), TABLES.c.id.not_in(live))
        .order_by(TABLES.c.created)
        .limit(limit)
    )
    return [r.id for r in rows]


def owner_of(conn: Connection, table_id: str) -> str | None:
    """The instance holding a live lease on ``table_id``, if any."""
    return conn.execute(
        select(LEASES.c.owner).where(LEASES.c.table_id == table_id, LEASES.c.expires >= func.now())
    ).scalar_one_or_none()


def set_presence(
    conn: Connection, owner: str, table_id: str, seat: int, *, connections: int, ttl: float
) -> None:
    """Store how many sockets of ``seat`` ``owner`` holds (0 deletes the row)."""
    if connections <= 0:
        conn.execute(
            delete(PRESENCE).where(
                PRESENCE.c.owner == owner,
                PRESENCE.c.table_id == table_id,
                PRESENCE.c.seat == seat,
            )
        )
        return
    stmt = pg_insert(PRESENCE).values(
        owner=owner, table_id=table_id, seat=seat, connections=connections, expires=_until(ttl)
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[PRESENCE.c.owner, PRESENCE.c.table_id, PRESENCE.c.seat],
            set_={"connections": stmt.excluded.connections, "expires": stmt.excluded.expires},
        )
    )


def presence(conn: Connection, table_ids: Sequence[str], other_than: str) -> dict[str, list[int]]:
    """The live sockets other instances hold, per table and seat: ``{table: [count per
    seat…]}`` (a seat without any: 0; only tables with some)."""
    if not table_ids:
        return {}
    rows = conn.execute(
        select(PRESENCE.c.table_id, PRESENCE.c.seat, func.sum(PRESENCE.c.connections))
        .where(
            PRESENCE.c.table_id.in_(list(table_ids)),
            PRESENCE.c.owner != other_than,
            PRESENCE.c.expires >= func.now(),
        )
        .group_by(PRESENCE.c.table_id, PRESENCE.c.seat)
    )
    out: dict[str, list[int]] = {}
    for table_id, seat, count in rows:
        counts = out.setdefault(table_id, [])
        counts.extend([0] * (seat + 1 - len(counts)))
        counts[seat] = int(count or 0)
    return out


def set_taken_over(conn: Connection, table_id: str, seat: int, value: bool) -> None:
    """Store whether the takeover bot plays a human seat (the other instances show it)."""
    conn.execute(
        update(SEATS)
        .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat)
        .values(taken_over=value)
    )


def taken_over(conn: Connection, table_id: str) -> set[int]:
    """The seats of ``table_id`` the takeover bot plays, as stored."""
    rows = conn.execute(
        select(SEATS.c.seat).where(SEATS.c.table_id == table_id, SEATS.c.taken_over.is_(True))
    )
    return {r.seat for r in rows}


def notify(conn: Connection, payload: str) -> None:
    """Publish ``payload`` to every instance once this transaction commits (``store.notify``);
    ValueError if it is too long for PostgreSQL."""
    if len(payload.encode()) > MAX_PAYLOAD:
        raise ValueError(f"a notification of {len(payload.encode())} bytes is too long")
    store.notify(conn, [payload])
