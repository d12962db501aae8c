"""The database: SQLAlchemy 2 models of a stored table, engines, and schema migrations.

A table is stored as its game record: the ``tables`` row (game, options, seed, status),
one ``seats`` row per seat (a human seat keeps only the SHA-256 of its token), one
``actions`` row per applied action keyed by (table, seq) so that no two writers can
store two actions for one decision, and ``snapshots`` of the full position. SQLite runs
in WAL mode with ``synchronous=FULL``; ``postgresql://`` URLs use psycopg 3. The schema
is created and upgraded by Alembic (``migrations/``), run from :func:`migrate`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import ConnectionPoolEntry

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


class Base(DeclarativeBase):
    """The declarative base of the server's models."""


class TableRow(Base):
    """One game table: its rules, seed, lifecycle and where the game stands."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    ranking: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    salt: Mapped[str | None] = mapped_column(Text, nullable=True)
    commitment: Mapped[str | None] = mapped_column(Text, nullable=True)
    seeded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_by: Mapped[str | None] = mapped_column(Text, nullable=True)
    started: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the table began running (its last free seat bound, or at creation): the clocks
    count the first decision from here."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the game counts for ratings (``ratings.py``)."""
    match_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """The first table of a series of rematches (NULL: not a rematch series yet)."""
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The table of the rematch of this one, once asked for (set once, conditionally)."""
    forfeits: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    """Seats that forfeited on time, in order (``clocks.py``); NULL: none."""
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """How a finished game ended when not by its rules: ``forfeit``; NULL otherwise."""

    __table_args__ = (Index("ix_tables_status_created", "status", "created"),)


class SeatRow(Base):
    """One seat of a table: who sits there and the hash of a human seat's token."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account the seat was taken by while logged in (no foreign key: SQLite cannot add
    one to an existing table; deleting an account clears it and renames the seat)."""
    taken_over: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the takeover bot plays this human seat while its player is away (set by the
    table's owner, read by the other instances of a cluster)."""
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of the invite whose first use bound the seat (the seat's own credential
    is then ``token_hash``): that invite is refused as ``invite_used`` from then on."""


class ActionRow(Base):
    """The action that took a table from seq - 1 to seq (seat -1: a chance outcome)."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    played_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Why a bot chose this human seat's action (``timeout``, ``absent``); NULL otherwise."""


class SnapshotRow(Base):
    """The full position (``state.to_json()``) of a table at a seq, to check replays."""

    __tablename__ = "snapshots"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[dict[str, Any]] = mapped_column(JSON)


class AccountRow(Base):
    """A player's account: a unique name (compared case-folded) and an argon2id hash."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """``name.casefold()``: two accounts never differ only by case."""
    name_skeleton: Mapped[str | None] = mapped_column(
        String(64), nullable=True, unique=True, index=True
    )
    """SHA-256 of the name's UTS #39 skeleton (``names.skeleton_key``): two accounts never
    look alike. Null only for an account whose name collided when revision 0005 added it."""
    password_hash: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of its cookie's token, and its CSRF token."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's current OpenSkill rating in one game, player-count band and pool."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    band: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``2``, ``3-4`` or ``5-6`` players."""
    pool: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``rated`` (between accounts) or ``bots`` (against bots at fixed ratings)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """A rating after one game (the player's page draws these)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(16))
    band: Mapped[str] = mapped_column(String(8))
    pool: Mapped[str] = mapped_column(String(8))
    table_id: Mapped[str] = mapped_column(String(16))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One seat's result of a finished game: place, pool, and the game's own statistics."""

    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    """1 for the winner; tied seats share a place."""
    pool: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The rating pool the game counted in (``rated``, ``bots``), NULL: unrated."""
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message of a table, on the seats' or the spectators' channel."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    channel: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    seq: Mapped[int] = mapped_column(Integer)
    """The game's seq when it was said (the replay shows it there)."""
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRow(Base):
    """The computer analysis of a finished table (``advice.py``), computed once and kept."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    level: Mapped[str] = mapped_column(String(16))
    iterations: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Analysis.to_json()`` of ``pyramids.bots.advice``."""
    cpu_seconds: Mapped[float] = mapped_column(Float)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


def normalize_url(url: str) -> str:
    """Map ``postgresql://`` and ``postgres://`` to the psycopg 3 driver; others unchanged."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names an SQLite database."""
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str, *, writer: bool) -> Engine:
    """An engine for ``url``; SQLite files get WAL, synchronous=FULL and foreign keys.

    A writer engine starts SQLite transactions with ``BEGIN IMMEDIATE`` so that two
    processes writing one file wait for each other instead of failing mid-transaction.
    """
    url = normalize_url(url)
    if not is_sqlite(url):
        return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    begin = "BEGIN IMMEDIATE" if writer else "BEGIN"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql(begin)

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Two servers starting at once on one database migrate one after the other.
            connection.execute(text("SELECT pg_advisory_xact_lock(7142001)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class LeaseRow(Base):
    """Which instance of a cluster owns an unfinished table, until when (``ownership.py``).

    Only the owner runs the table's bots, timers and chance draws. It renews its leases
    every ``lease_renew`` seconds; a lease not renewed for ``lease_ttl`` seconds has
    expired and any instance may take the table over. Times are the database's."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(96), index=True)
    """The owning instance's incarnation, ``NAME/RANDOM`` (new at every start)."""
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """How many sockets of one seat one instance holds (cluster mode): the owner of the table
    counts every instance's before it starts a seat's absence clock."""

    __tablename__ = "presence"

    owner: Mapped[str] = mapped_column(String(96), primary_key=True)
    table_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    connections: Mapped[int] = mapped_column(Integer)
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    """Renewed with the instance's leases: the rows of an instance that died go stale."""
