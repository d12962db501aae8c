"""Rematch: the same seats and options, the first player one seat to the left; match score.

The rulebook's "Playing in Rounds" (Flaming Pyramids FP-OPT-4: "each hand's first player
sits one seat to the left of the previous hand's"; play passes to seat + 1, FP-SETUP-4 and
PF-SETUP-3): a rematch of a finished table is a new table with the same game, rules
options, settings, rated flag and visibility, where the player who moved second moves
first. A game with the ``first_player`` option (both built-in games) keeps everyone in
their seat and sets ``first_player`` to the next seat; a game without it rotates the
seats instead (new seat ``i`` = old seat ``i + 1 mod n``), so seat 0, which moves first,
is the old second player. Bots stay bots; human seats start free, and each player of the
old table takes theirs by asking (``POST /api/tables/{id}/rematch``, proving their old
seat by its token or by the logged-in account bound to it) and gets a new token. The new
table starts once every human seat is taken, as any table does.

Tables of one series share ``match_id`` (the first table's id); ``settings.match_players``
says, for each seat, which player of the first game sits there, so that the match score
(``GET /api/matches/{id}``) follows the players, not the seats.

Every ask is told to the old table's connections (a ``rematch`` message: "Ann wants a
rematch", with the new table's id), and the old table's summary shows its ``rematch_id``.

A rematch of an invite-only table is invite-only too, and stays so: only who holds a seat
(its token, or the logged-in account bound to it) of the old table hears of the rematch
and sees its ``rematch_id``; its spectators and anyone with its id do not (issue 29,
item 7), and ``GET /api/matches/{id}`` lists an invite-only series' tables only to who
holds a seat of one of them (to anyone else: 404 ``unknown_match``, as for no series).
In a cluster (docs/CLUSTER.md) those connections may be on any instance: each ask also
sends a notification of kind ``r`` (:data:`REMATCH_NOTICE`; data: the asker's old seat).
The first ask's rides in the transaction that stores the rematch (``claim_rematch``); a
later one's in the transaction that binds the asker's new seat (``bind_seat(notices=…)``).
Every other instance holding the old
table reads the stored rematch back and tells its connections as this one does.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, Table, delete, func, select, update
from sqlalchemy.exc import SQLAlchemyError

from pyramids.games import descriptor
from pyramids.server import cluster_store
from pyramids.server.auth import Account, account_for_write, account_of
from pyramids.server.database import Database, Db
from pyramids.server.db import Base, ChatRow, TableRow
from pyramids.server.limits import client_key
from pyramids.server.live import FINISHED, LiveTable, Seat, SeatSpec
from pyramids.server.protocol import ProtocolError, hash_token, is_table_id, new_token
from pyramids.server.schemas import ErrorOut, TableOut
from pyramids.server.standings import placements
from pyramids.server.store import delete_table
from pyramids.server.table_settings import TableSettings
from pyramids.server.tables import TableManager
from pyramids.server.wire import dumps

log = logging.getLogger("pyramids.server")

router = APIRouter(tags=["rematch"])

TABLES: Table = Base.metadata.tables[TableRow.__tablename__]
CHAT: Table = Base.metadata.tables[ChatRow.__tablename__]
FIRST_PLAYER = "first_player"
"""The rules option naming the seat that moves first (FP-SETUP-4, PF-SETUP-3)."""
MAX_MATCH_TABLES = 100
"""Most tables of one series the match score reads."""
REMATCH_NOTICE = "r"
"""Notification kind: a player asked for (or joined) a table's rematch (data: their seat
at the finished table)."""

_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


class RematchIn(BaseModel):
    """Asking for (or joining) the rematch of a finished table."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    """The asker's seat token at the finished table; without it, the logged-in account
    bound to a seat there."""


class MatchTableOut(BaseModel):
    """One game of a series."""

    id: str
    status: str
    ranking: list[int] | None
    """The table's seats from first to last once finished."""
    first_player: int
    """The series player (seat of the first game) who moved first."""
    seats: list[int]
    """For each seat, the series player sitting there."""
    places: list[int | None]
    """For each series player, their place (1 the best), null before the end."""


class MatchPlayerOut(BaseModel):
    """A player's score across the series."""

    player: int
    name: str
    wins: float
    """Wins, a first place shared by k players counting 1/k."""
    points: int
    """One per player placed behind, summed over the finished games."""


class MatchOut(BaseModel):
    """A series of rematches and its score."""

    match_id: str
    game: str
    tables: list[MatchTableOut]
    players: list[MatchPlayerOut]


class RematchOut(BaseModel):
    """The rematch table, the asker's seat there, its new token and URL, the match score."""

    table: TableOut
    seat: int
    token: str
    url: str
    match: MatchOut


def has_first_player_option(game: str) -> bool:
    """Whether the game's rules option ``first_player`` picks who moves first."""
    return any(o.name == FIRST_PLAYER and o.kind == "int" for o in descriptor(game).options)


def first_seat(game: str, options: dict[str, Any]) -> int:
    """The seat that moves first at a table of ``game`` with these rules options."""
    if has_first_player_option(game):
        return int(options.get(FIRST_PLAYER, 0) or 0)
    return 0


def series_players(table: LiveTable) -> list[int]:
    """For each seat, the player of the series' first game who sits there."""
    return list(table.settings.match_players or range(table.players))


def plan(table: LiveTable) -> tuple[list[int], dict[str, Any]]:
    """The rematch of ``table``: for each new seat the old seat whose player sits there,
    and the new rules options (see the module's docstring)."""
    n = table.players
    options = dict(table.options)
    if has_first_player_option(table.game_name):
        options[FIRST_PLAYER] = (first_seat(table.game_name, options) + 1) % n
        return list(range(n)), options
    return [(i + 1) % n for i in range(n)], options


# --- the database --------------------------------------------------------------------------


def claim_rematch(conn: Connection, old_id: str, new_id: str, notice: str = "") -> bool:
    """Make ``new_id`` the rematch of ``old_id`` unless it has one already (one conditional
    UPDATE: of two askers, in one process or two, exactly one wins); the old table joins
    its own series (``match_id`` its id) if it was in none. The winner's ``notice`` is
    sent to the other instances once this commits."""
    result = conn.execute(
        update(TABLES)
        .where(TABLES.c.id == old_id, TABLES.c.rematch_id.is_(None))
        .values(rematch_id=new_id, match_id=func.coalesce(TABLES.c.match_id, TABLES.c.id))
    )
    won = result.rowcount == 1
    if won and notice:
        cluster_store.notify(conn, notice)
    return won


def stored_rematch(conn: Connection, table_id: str) -> tuple[str | None, str | None]:
    """A table's stored (rematch_id, match_id)."""
    row = conn.execute(
        select(TABLES.c.rematch_id, TABLES.c.match_id).where(TABLES.c.id == table_id)
    ).first()
    return (row.rematch_id, row.match_id) if row is not None else (None, None)


def drop_table(conn: Connection, table_id: str) -> None:
    """Remove a rematch table that lost the race (nobody ever saw it)."""
    conn.execute(delete(CHAT).where(CHAT.c.table_id == table_id))
    delete_table(conn, table_id)


def match_table_ids(conn: Connection, match_id: str) -> list[str]:
    """The tables of a series, first first."""
    rows = conn.execute(
        select(TABLES.c.id)
        .where(TABLES.c.match_id == match_id)
        .order_by(TABLES.c.created, TABLES.c.id)
        .limit(MAX_MATCH_TABLES)
    )
    return [r.id for r in rows]


# --- asking --------------------------------------------------------------------------------


def asker_seat(table: LiveTable, token: str | None, account: Account | None) -> int:
    """The old seat of whoever asks: by its token, else by the logged-in account bound to
    it. 403 bad_token (a token that is no seat's), invite_used (an invite whose first use
    bound the seat: only the seat's credential asks) or not_seated (a spectator)."""
    if token is not None:
        return table.seat_for_token(token)
    if account is not None:
        for s in table.seats:
            if s.is_human and s.account_id == account.id:
                return s.seat
    raise ProtocolError(
        "not_seated",
        f"only the players of table {table.id} can ask for its rematch: send your seat's "
        "token, or log in with the account you played with",
        403,
    )


def account_to_bind(old: Seat, account: Account | None) -> Account | None:
    """The account the new seat is bound to: the logged-in asker's, when the old seat was
    theirs or nobody's (as a lobby claim while logged in); none otherwise."""
    if account is None:
        return None
    if old.account_id is None or old.account_id == account.id:
        return account
    return None


async def rematch_table(
    manager: TableManager, database: Database, old: LiveTable, created_by: str, seat: int
) -> tuple[LiveTable, bool]:
    """The rematch table of a finished ``old`` table, created by the first asker (at old
    ``seat``); whether this call created it (and so told the other instances of the ask)."""
    lock = _locks.get(old.id)
    if lock is None:
        lock = _locks[old.id] = asyncio.Lock()
    created = False
    async with lock:
        if old.rematch_id is None:
            stored, match_id = await database.read(partial(stored_rematch, table_id=old.id))
            if stored is not None:  # made by another server process
                _mark(old, stored, match_id)
            else:
                created = await _create(manager, database, old, created_by, seat)
        assert old.rematch_id is not None
        return await manager.get(old.rematch_id), created


async def _create(
    manager: TableManager, database: Database, old: LiveTable, created_by: str, seat: int
) -> bool:
    """Create the rematch table and store it as ``old``'s; False when another process's
    rematch was stored first (then that one is ``old``'s, and this one is dropped)."""
    order, options = plan(old)
    was = series_players(old)
    settings = TableSettings.from_json(
        old.settings.to_json(), manager.settings, hints=old.settings.hints
    )
    settings.match_players = [was[o] for o in order]
    seats = []
    for o in order:
        s = old.seats[o]
        if s.is_human:
            seats.append(SeatSpec(kind="human", name=s.name))
        else:
            seats.append(SeatSpec(kind="bot", name=s.name, bot=s.bot))
    match_id = old.match_id or old.id
    manager.limits.check("create", created_by)
    # the invites' tokens are never shown: each player takes their seat by asking
    new, _invites = await manager.seating.create_table(
        old.game_name,
        seats,
        options,
        None,
        settings,
        public=old.public,
        created_by=created_by,
        hints=old.settings.hints,
        rated=old.rated,
        match_id=match_id,
        bot_hints=old.settings.bot_hints,
    )
    notice = manager.notice(REMATCH_NOTICE, old.id, str(seat))
    if await database.write(partial(claim_rematch, old_id=old.id, new_id=new.id, notice=notice)):
        _mark(old, new.id, match_id)
        return True
    manager.tables.pop(new.id, None)  # another process's rematch came first
    await database.write(partial(drop_table, table_id=new.id))
    stored, stored_match = await database.read(partial(stored_rematch, table_id=old.id))
    if stored is None:
        raise ProtocolError("unavailable", "the rematch could not be stored; try again", 503)
    _mark(old, stored, stored_match)
    return False


def _mark(old: LiveTable, rematch_id: str, match_id: str | None) -> None:
    """The finished table in memory learns its rematch (and series); its viewers too."""
    old.rematch_id = rematch_id
    old.match_id = match_id or old.match_id or old.id
    old.changed()
    old.broadcast_table()


@router.post(
    "/api/tables/{table_id}/rematch",
    response_model=RematchOut,
    responses={
        403: {"model": ErrorOut, "description": "bad_token, not_seated, or csrf"},
        404: {"model": ErrorOut, "description": "unknown_table"},
        409: {
            "model": ErrorOut,
            "description": "not_finished, or seat_taken (your new seat is taken already)",
        },
        422: {"model": ErrorOut, "description": "malformed"},
        429: {"model": ErrorOut, "description": "rate_limited or too_many_tables"},
    },
)
async def ask_rematch(
    request: Request,
    database: Db,
    table_id: Annotated[str, Path(description="A finished table's id.")],
    body: RematchIn,
) -> dict[str, Any]:
    """Ask for the rematch of a finished table (the first call creates it), or join it:
    the asker's seat there gets a new token."""
    manager: TableManager = request.app.state.manager
    key = client_key(request.client.host if request.client is not None else None)
    manager.limits.check("claim", key)
    account = await account_for_write(request)
    old = await manager.get(table_id)
    if old.status != FINISHED:
        raise ProtocolError("not_finished", "a rematch can be asked for once the game is over", 409)
    seat = asker_seat(old, body.token, account)
    new, told = await rematch_table(manager, database, old, key, seat)
    player = series_players(old)[seat]
    new_seat = series_players(new).index(player)
    token = new_token()
    # the first ask told the other instances in its own transaction; a later one (the other
    # player joining) tells them in the binding's
    notices = () if told else (manager.notice(REMATCH_NOTICE, old.id, str(seat)),)
    bound = await manager.seating.bind_seat(
        new,
        new_seat,
        hash_token(token),
        None,
        account_to_bind(old.seats[seat], account),
        notices=notices,
    )
    if not bound:
        raise ProtocolError(
            "seat_taken",
            f"your seat at the rematch (table {new.id}, seat {new_seat}) is taken already: "
            "open it with the link you got then",
            409,
        )
    _tell_ask(old, new.id, seat)
    return {
        "table": new.summary(),
        "seat": new_seat,
        "token": token,
        "url": f"/t/{new.id}?token={token}",
        "match": await match_score(manager, database, new.match_id or old.id, insider=True),
    }


def _tell_ask(old: LiveTable, rematch_id: str, seat: int) -> None:
    """Tell this instance's connections of ``old`` that its ``seat`` asked for the rematch
    (of an invite-only table, its players' connections only: not its spectators)."""
    notice = dumps(
        {"type": "rematch", "table_id": rematch_id, "seat": seat, "name": old.seats[seat].name}
    )
    for client in list(old.clients):
        if old.public or client.seat is not None:
            client.send(notice)


async def on_remote_ask(database: Database, old: LiveTable, data: str) -> None:
    """Another instance's player at seat ``data`` of ``old`` asked for its rematch: read the
    stored rematch, show it in ``old``'s summary and tell this instance's connections."""
    if not data.isdigit() or not 0 <= int(data) < old.players:
        return
    try:
        rematch_id, match_id = await database.read(partial(stored_rematch, table_id=old.id))
    except (SQLAlchemyError, ProtocolError) as exc:
        log.warning("table %s: its rematch not read: %s", old.id, exc)
        return
    if rematch_id is None:
        return
    if (old.rematch_id, old.match_id) != (rematch_id, match_id):
        _mark(old, rematch_id, match_id)
    _tell_ask(old, rematch_id, int(data))


def install(manager: TableManager, database: Database) -> None:
    """Follow the other instances' rematch asks at the tables this one holds (cluster mode)."""
    manager.remote_handlers[REMATCH_NOTICE] = partial(on_remote_ask, database)


# --- who sees a private rematch ------------------------------------------------------------


def holds_a_seat(table: LiveTable, token: str | None, account: Account | None) -> bool:
    """Whether whoever asks holds a seat of ``table``: its seat token, or the logged-in
    account bound to one of its human seats."""
    if token:
        try:
            table.seat_for_token(token)
        except ProtocolError:
            pass
        else:
            return True
    return account is not None and any(
        s.is_human and s.account_id == account.id for s in table.seats
    )


async def table_summary(request: Request, table: LiveTable, token: str | None) -> dict[str, Any]:
    """The summary ``GET /api/tables/{id}`` answers: the rematch of an invite-only table is
    named only to who holds a seat there (``token``, or the session's account)."""
    if table.public or table.rematch_id is None:
        return table.summary()
    if holds_a_seat(table, token, await account_of(request)):
        return table.summary()
    return table.outsider_summary()


# --- the match score -----------------------------------------------------------------------


async def match_score(
    manager: TableManager,
    database: Database,
    match_id: str,
    token: str | None = None,
    account: Account | None = None,
    *,
    insider: bool = False,
) -> dict[str, Any]:
    """A series' tables (first first) and each player's wins and points.

    A finished game gives each of its winners (place 1) ``1 / k`` of a win when ``k`` share
    first place, and each player one point per player placed behind them. The invite-only
    tables count only for an ``insider``, or who holds a seat (``token``, ``account``) of
    one of the series' tables; with none left to show: 404 ``unknown_match``."""
    if not is_table_id(match_id):
        raise ProtocolError("unknown_match", f"there is no match {match_id!r}", 404)
    ids = await database.read(partial(match_table_ids, match_id=match_id))
    tables = [await manager.get(i) for i in ids]
    shown_all = insider or all(t.public for t in tables)
    if not shown_all and not any(holds_a_seat(t, token, account) for t in tables):
        tables = [t for t in tables if t.public]
    if not tables:
        raise ProtocolError("unknown_match", f"there is no match {match_id!r}", 404)
    n = tables[0].players
    wins = [0.0] * n
    points = [0] * n
    out: list[dict[str, Any]] = []
    for t in tables:
        who = series_players(t)
        places = placements(t.state, t.forfeits) if t.status == FINISHED else None
        by_player: list[int | None] = [None] * n
        if places is not None:
            winners = [s for s in range(t.players) if places[s] == 1]
            for s in range(t.players):
                p = who[s]
                by_player[p] = places[s]
                points[p] += sum(1 for o in places if o > places[s])
                if s in winners:
                    wins[p] += 1 / len(winners)
        out.append(
            {
                "id": t.id,
                "status": t.status,
                "ranking": t.ranking,
                "first_player": who[first_seat(t.game_name, t.options)],
                "seats": who,
                "places": by_player,
            }
        )
    latest = tables[-1]
    latest_who = series_players(latest)
    players = [
        {
            "player": p,
            "name": latest.seats[latest_who.index(p)].name,
            "wins": round(wins[p], 4),
            "points": points[p],
        }
        for p in range(n)
    ]
    return {"match_id": match_id, "game": latest.game_name, "tables": out, "players": players}


@router.get(
    "/api/matches/{match_id}",
    response_model=MatchOut,
    responses={
        404: {"model": ErrorOut, "description": "unknown_match"},
        422: {"model": ErrorOut, "description": "malformed"},
    },
)
async def get_match(
    request: Request,
    database: Db,
    match_id: Annotated[str, Path(description="The first table's id of a series.")],
    token: Annotated[
        str | None,
        Query(max_length=64, description="A seat token of one of the series' tables."),
    ] = None,
) -> dict[str, Any]:
    """A series of rematches: its tables (first first: id, status, ranking, the series
    player who moved first, who sat where, each player's place) and the score per player
    (wins, shared on ties; points: players placed behind). An invite-only series is shown
    only to who holds a seat of one of its tables (``token``, or the logged-in account
    bound to it): 404 ``unknown_match`` to anyone else."""
    manager: TableManager = request.app.state.manager
    return await match_score(manager, database, match_id, token, await account_of(request))
