"""The tables' records and their durable operations on the database.

Everything here is synchronous SQLAlchemy Core on a ``Connection``; the runtime calls it
from worker threads, never from the event loop, through the database gateway
(``database.py``: its reads, and its writer thread that commits writes in groups).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
    update,
)

from pyramids.server.db import ActionRow, Base, SeatRow, SnapshotRow, TableRow

TABLES: Table = Base.metadata.tables[TableRow.__tablename__]
SEATS: Table = Base.metadata.tables[SeatRow.__tablename__]
ACTIONS: Table = Base.metadata.tables[ActionRow.__tablename__]
SNAPSHOTS: Table = Base.metadata.tables[SnapshotRow.__tablename__]

CHANNEL = "pyramids"
"""The LISTEN/NOTIFY channel of a cluster's instances (``pubsub.py``)."""

MAX_GROUP = 256
"""Most writes committed in one transaction."""


def utcnow() -> dt.datetime:
    """The current time in UTC (timezone-aware)."""
    return dt.datetime.now(dt.UTC)


def as_utc(value: dt.datetime | None) -> dt.datetime | None:
    """A stored timestamp as an aware UTC datetime (SQLite returns naive ones)."""
    if value is None:
        return None
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


@dataclass
class SeatRecord:
    """A seat as stored."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    claimed: bool
    account_id: int | None = None
    """The account that took the seat while logged in (``accounts.py``); None otherwise."""
    invite_hash: str | None = None
    """The hash of the invite whose first use bound the seat (then dead: ``invite_used``);
    ``token_hash`` is then the seat credential handed to that first user only."""


@dataclass
class TableRecord:
    """A table's row as stored, with its seats (actions and snapshots loaded on demand)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    rules_version: str
    status: str
    settings: dict[str, Any]
    created: dt.datetime
    updated: dt.datetime
    finished: dt.datetime | None
    seq: int
    ranking: list[int] | None
    salt: str | None = None
    """Random text hashed with the seed into the commitment (None for pre-0002 tables)."""
    commitment: str | None = None
    """SHA-256 hex of seed and salt (:func:`pyramids.core.fairness.commitment`)."""
    seeded: bool = False
    """A client chose the seed (allowed only when every other seat is a bot)."""
    public: bool = False
    """Listed in the lobby and claimable from it; otherwise invite-only."""
    created_by: str | None = None
    """The creator's client address, for the per-address caps."""
    started: dt.datetime | None = None
    """When the table began running (None: not yet, or stored before revision 0003)."""
    rated: bool = False
    """Whether the game counts for ratings (``ratings.py``)."""
    match_id: str | None = None
    """The first table of this table's series of rematches (``rematch.py``)."""
    rematch_id: str | None = None
    """The table of this one's rematch, once asked for."""
    forfeits: list[int] | None = None
    """Seats that forfeited on time, in order (``clocks.py``)."""
    ended: str | None = None
    """``forfeit`` when the game ended so rather than by its rules."""
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[tuple[int, int, str]] = field(default_factory=list)
    """(seq, seat, action text) in seq order."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """The seqs whose action a bot chose for a human seat, and why (``timeout``, ``absent``,
    ``clock``, ``forfeit``)."""
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    action_times: dict[int, dt.datetime] = field(default_factory=dict)
    """When each action (by seq) was stored: the players' clocks follow from these
    (``pyramids.core.clock.banks_at``)."""


@dataclass(frozen=True)
class ActionWrite:
    """One applied action and what it changes in the table's row."""

    table_id: str
    seq: int
    seat: int
    action: str
    created: dt.datetime
    status: str
    ranking: list[int] | None
    finished: dt.datetime | None
    snapshot: dict[str, Any] | None
    played_by: str | None = None
    """Why a bot chose a human seat's action (``timeout``, ``absent``); None otherwise."""
    notice: str | None = None
    """Published to the cluster's instances when the action commits (``pubsub.py``)."""


# --- writes ----------------------------------------------------------------------------------


def ping(conn: Connection) -> None:
    """A query that only checks the database answers (health checks)."""
    conn.execute(select(1)).scalar_one()


def insert_table(conn: Connection, table: TableRecord) -> None:
    """Store a new table and its seats."""
    conn.execute(
        insert(TABLES),
        {
            "id": table.id,
            "game": table.game,
            "players": table.players,
            "options": table.options,
            "seed": table.seed,
            "rules_version": table.rules_version,
            "status": table.status,
            "settings": table.settings,
            "created": table.created,
            "updated": table.updated,
            "finished": table.finished,
            "seq": table.seq,
            "ranking": table.ranking,
            "salt": table.salt,
            "commitment": table.commitment,
            "seeded": table.seeded,
            "public": table.public,
            "created_by": table.created_by,
            "started": table.started,
            "rated": table.rated,
            "match_id": table.match_id,
            "rematch_id": table.rematch_id,
            "forfeits": table.forfeits,
            "ended": table.ended,
        },
    )
    conn.execute(
        insert(SEATS),
        [
            {
                "table_id": table.id,
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "token_hash": s.token_hash,
                "claimed": s.claimed,
                "account_id": s.account_id,
                "invite_hash": s.invite_hash,
            }
            for s in table.seats
        ],
    )


_UPDATE_TABLE = (
    update(TABLES)
    .where(TABLES.c.id == bindparam("w_table_id"))
    .values(
        seq=bindparam("w_seq"),
        status=bindparam("w_status"),
        ranking=bindparam("w_ranking"),
        finished=bindparam("w_finished"),
        updated=bindparam("w_created"),
    )
)


_NOTIFY_ALL = text("SELECT pg_notify(:channel, n) FROM unnest(CAST(:notices AS text[])) AS n")


def notify(conn: Connection, notices: Sequence[str]) -> None:
    """Publish ``notices`` to a cluster's instances, in one statement, once this transaction
    commits (PostgreSQL ``pg_notify``: nothing for a transaction that rolls back, ``pubsub.py``);
    a no-op on another database, which one process has alone."""
    if notices and conn.dialect.name == "postgresql":
        conn.execute(_NOTIFY_ALL, {"channel": CHANNEL, "notices": list(notices)})


def write_actions(conn: Connection, writes: Sequence[ActionWrite]) -> None:
    """Store actions (IntegrityError if a (table, seq) is taken) and their tables' new seq.

    One statement per kind for the whole group (executemany), which is what makes
    group commit cheap.
    """
    if not writes:
        return
    conn.execute(
        insert(ACTIONS),
        [
            {
                "table_id": w.table_id,
                "seq": w.seq,
                "seat": w.seat,
                "action": w.action,
                "created": w.created,
                "played_by": w.played_by,
            }
            for w in writes
        ],
    )
    snapshots = [
        {"table_id": w.table_id, "seq": w.seq, "position": w.snapshot}
        for w in writes
        if w.snapshot is not None
    ]
    if snapshots:
        conn.execute(insert(SNAPSHOTS), snapshots)
    notify(conn, [w.notice for w in writes if w.notice is not None])
    conn.execute(
        _UPDATE_TABLE,
        [
            {
                "w_table_id": w.table_id,
                "w_seq": w.seq,
                "w_status": w.status,
                "w_ranking": w.ranking,
                "w_finished": w.finished,
                "w_created": w.created,
            }
            for w in writes
        ],
    )


def write_action(conn: Connection, w: ActionWrite) -> None:
    """Store one action and its table's new seq (IntegrityError if that seq is taken)."""
    write_actions(conn, [w])


def claim_seat(
    conn: Connection,
    table_id: str,
    seat: int,
    *,
    token_hash: str | None,
    name: str | None,
    invite_hash: str | None = None,
    account_id: int | None = None,
    now: dt.datetime | None = None,
) -> tuple[bool, bool]:
    """Bind an unclaimed seat to one token: (bound, whether that started the table).

    One conditional UPDATE, so of two binders of one seat (an invite's first use and a
    lobby claim, in one process or two sharing the database) exactly one is bound and the
    other gets (False, False). ``token_hash`` (a lobby claim, or the fresh seat credential
    of an invite's first use) replaces the invite's token; ``invite_hash`` (an invite's
    first use) binds only while the seat still carries that invite, and is kept as the seat's
    used invite (refused from then on: the credential switch is this same update). The
    table's row is locked first (PostgreSQL; SQLite writers are serialised
    anyway), so the binding of its last free seat, whichever process makes it, starts it
    (``started`` = ``now``, the runtime's clock; the current time when not given).
    """
    conn.execute(select(TABLES.c.id).where(TABLES.c.id == table_id).with_for_update())
    values: dict[str, Any] = {"claimed": True}
    if token_hash is not None:
        values["token_hash"] = token_hash
    if name is not None:
        values["name"] = name
    if account_id is not None:
        values["account_id"] = account_id
    query = update(SEATS).where(
        SEATS.c.table_id == table_id, SEATS.c.seat == seat, SEATS.c.claimed.is_(False)
    )
    if invite_hash is not None:
        query = query.where(SEATS.c.token_hash == invite_hash)
        if token_hash is not None:
            values["invite_hash"] = invite_hash
    result = conn.execute(query.values(**values))
    if result.rowcount != 1:
        return False, False
    free = conn.execute(
        select(func.count())
        .select_from(SEATS)
        .where(SEATS.c.table_id == table_id, SEATS.c.kind == "human", SEATS.c.claimed.is_(False))
    ).scalar_one()
    if free:
        return True, False
    started = conn.execute(
        update(TABLES)
        .where(TABLES.c.id == table_id, TABLES.c.status == "open")
        .values(status="running", updated=(when := now or utcnow()), started=when)
    )
    return True, started.rowcount == 1


def load_seat(conn: Connection, table_id: str, seat: int) -> tuple[SeatRecord, str] | None:
    """A seat as stored now, and its table's status; None if unknown."""
    row = conn.execute(
        select(SEATS, TABLES.c.status)
        .join(TABLES, TABLES.c.id == SEATS.c.table_id)
        .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat)
    ).first()
    if row is None:
        return None
    record = SeatRecord(
        row.seat,
        row.kind,
        row.bot,
        row.name,
        row.token_hash,
        bool(row.claimed),
        row.account_id,
        row.invite_hash,
    )
    return record, row.status


def link_seat_account(
    conn: Connection,
    table_id: str,
    seat: int,
    *,
    token_hash: str,
    account_id: int,
    name: str,
) -> bool:
    """Bind a bound seat, held by ``token_hash``, to an account under its name: one
    conditional UPDATE (only while the seat has no account and the table is not over).
    False when it does not apply (the token changed, another account came first)."""
    live = select(TABLES.c.id).where(
        TABLES.c.id == table_id, TABLES.c.status.in_(("open", "running"))
    )
    result = conn.execute(
        update(SEATS)
        .where(
            SEATS.c.table_id == table_id,
            SEATS.c.seat == seat,
            SEATS.c.claimed.is_(True),
            SEATS.c.token_hash == token_hash,
            SEATS.c.account_id.is_(None),
            SEATS.c.table_id.in_(live),
        )
        .values(account_id=account_id, name=name)
    )
    return result.rowcount == 1


def record_forfeit(
    conn: Connection,
    table_id: str,
    forfeits: Sequence[int],
    now: dt.datetime,
    *,
    ranking: list[int] | None = None,
) -> bool:
    """Store the seats that forfeited on time (all of them, in order); with ``ranking``
    the forfeit also ended the game (status ``finished``, ``ended`` ``forfeit``). Only
    while the table runs: False when it did not (finished meanwhile, elsewhere)."""
    values: dict[str, Any] = {"forfeits": list(forfeits), "updated": now}
    if ranking is not None:
        values.update(status="finished", ranking=ranking, finished=now, ended="forfeit")
    result = conn.execute(
        update(TABLES).where(TABLES.c.id == table_id, TABLES.c.status == "running").values(**values)
    )
    return result.rowcount == 1


def delete_table(conn: Connection, table_id: str) -> None:
    """Remove a table and everything stored with it."""
    for t in (SNAPSHOTS, ACTIONS, SEATS):
        conn.execute(delete(t).where(t.c.table_id == table_id))
    conn.execute(delete(TABLES).where(TABLES.c.id == table_id))


# --- reads -----------------------------------------------------------------------------------


def _record(row: Any) -> TableRecord:
    return TableRecord(
        id=row.id,
        game=row.game,
        players=row.players,
        options=dict(row.options),
        seed=int(row.seed),
        rules_version=row.rules_version,
        status=row.status,
        settings=dict(row.settings),
        created=as_utc(row.created) or utcnow(),
        updated=as_utc(row.updated) or utcnow(),
        finished=as_utc(row.finished),
        seq=row.seq,
        ranking=list(row.ranking) if row.ranking is not None else None,
        salt=row.salt,
        commitment=row.commitment,
        seeded=bool(row.seeded),
        public=bool(row.public),
        created_by=row.created_by,
        started=as_utc(row.started),
        rated=bool(row.rated),
        match_id=row.match_id,
        rematch_id=row.rematch_id,
        forfeits=list(row.forfeits) if row.forfeits is not None else None,
        ended=row.ended,
    )


def _seats(conn: Connection, ids: list[str]) -> dict[str, list[SeatRecord]]:
    out: dict[str, list[SeatRecord]] = {i: [] for i in ids}
    if not ids:
        return out
    rows = conn.execute(
        select(SEATS).where(SEATS.c.table_id.in_(ids)).order_by(SEATS.c.table_id, SEATS.c.seat)
    )
    for r in rows:
        out[r.table_id].append(
            SeatRecord(
                r.seat,
                r.kind,
                r.bot,
                r.name,
                r.token_hash,
                bool(r.claimed),
                r.account_id,
                r.invite_hash,
            )
        )
    return out


def load_table(conn: Connection, table_id: str, *, full: bool = True) -> TableRecord | None:
    """A table with its seats, and (``full``) its actions and snapshots; None if unknown."""
    row = conn.execute(select(TABLES).where(TABLES.c.id == table_id)).first()
    if row is None:
        return None
    table = _record(row)
    table.seats = _seats(conn, [table_id])[table_id]
    if full:
        rows = action_rows_after(conn, table_id, 0)
        table.actions = [(r.seq, r.seat, r.action) for r in rows]
        table.stand_ins = {r.seq: r.played_by for r in rows if r.played_by is not None}
        table.action_times = {r.seq: r.created for r in rows}
        for s in conn.execute(
            select(SNAPSHOTS.c.seq, SNAPSHOTS.c.position)
            .where(SNAPSHOTS.c.table_id == table_id)
            .order_by(SNAPSHOTS.c.seq)
        ):
            table.snapshots[s.seq] = s.position
    return table


def actions_after(conn: Connection, table_id: str, seq: int) -> list[tuple[int, int, str]]:
    """The actions stored after ``seq``, as (seq, seat, text) in order."""
    rows = conn.execute(
        select(ACTIONS.c.seq, ACTIONS.c.seat, ACTIONS.c.action)
        .where(ACTIONS.c.table_id == table_id, ACTIONS.c.seq > seq)
        .order_by(ACTIONS.c.seq)
    )
    return [(r.seq, r.seat, r.action) for r in rows]


@dataclass(frozen=True)
class ActionRecord:
    """An action as stored: its seq, seat, text, when it was stored, and who chose it."""

    seq: int
    seat: int
    action: str
    created: dt.datetime
    played_by: str | None


def action_rows_after(conn: Connection, table_id: str, seq: int) -> list[ActionRecord]:
    """The actions stored after ``seq`` with their times and ``played_by``, in order."""
    rows = conn.execute(
        select(
            ACTIONS.c.seq, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.created, ACTIONS.c.played_by
        )
        .where(ACTIONS.c.table_id == table_id, ACTIONS.c.seq > seq)
        .order_by(ACTIONS.c.seq)
    )
    return [
        ActionRecord(r.seq, r.seat, r.action, as_utc(r.created) or utcnow(), r.played_by)
        for r in rows
    ]


def stand_ins(conn: Connection, table_id: str) -> dict[int, str]:
    """The seqs of a table whose action a bot chose for a human seat, and why."""
    rows = conn.execute(
        select(ACTIONS.c.seq, ACTIONS.c.played_by).where(
            ACTIONS.c.table_id == table_id, ACTIONS.c.played_by.is_not(None)
        )
    )
    return {r.seq: r.played_by for r in rows}


def unfinished_ids(conn: Connection) -> list[str]:
    """The ids of every open or running table, oldest first (not finished, not expired)."""
    rows = conn.execute(
        select(TABLES.c.id)
        .where(TABLES.c.status.in_(("open", "running")))
        .order_by(TABLES.c.created)
    )
    return [r.id for r in rows]


def expire_open_tables(
    conn: Connection, before: dt.datetime, table_id: str | None = None
) -> list[str]:
    """Mark ``expired`` every table still ``open`` (never started) created before ``before``
    (only ``table_id`` if given); nothing is deleted. The ids marked."""
    where = [TABLES.c.status == "open", TABLES.c.created < before]
    if table_id is not None:
        where.append(TABLES.c.id == table_id)
    ids = [r.id for r in conn.execute(select(TABLES.c.id).where(*where))]
    if ids:
        conn.execute(
            update(TABLES)
            .where(TABLES.c.id.in_(ids), TABLES.c.status == "open")
            .values(status="expired", updated=utcnow())
        )
    return ids


def list_tables(
    conn: Connection, status: str | None, limit: int, *, public_only: bool = False
) -> list[TableRecord]:
    """Tables (with seats, without actions), newest first, optionally of one status
    (``public_only``: only the tables listed in the lobby)."""
    query = select(TABLES).order_by(TABLES.c.created.desc(), TABLES.c.id).limit(limit)
    if status is not None:
        query = query.where(TABLES.c.status == status)
    if public_only:
        query = query.where(TABLES.c.public.is_(True))
    tables = [_record(r) for r in conn.execute(query)]
    seats = _seats(conn, [t.id for t in tables])
    for t in tables:
        t.seats = seats[t.id]
    return tables


def account_tables(conn: Connection, account_id: int, limit: int = 100) -> list[TableRecord]:
    """The open and running tables where ``account_id`` holds a seat (with their seats),
    newest first."""
    ids = select(SEATS.c.table_id).where(SEATS.c.account_id == account_id)
    query = (
        select(TABLES)
        .where(TABLES.c.id.in_(ids), TABLES.c.status.in_(("open", "running")))
        .order_by(TABLES.c.created.desc(), TABLES.c.id)
        .limit(limit)
    )
    tables = [_record(r) for r in conn.execute(query)]
    seats = _seats(conn, [t.id for t in tables])
    for t in tables:
        t.seats = seats[t.id]
    return tables
