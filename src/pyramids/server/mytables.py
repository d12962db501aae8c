"""A logged-in player's running and open tables, those waiting for them first.

``GET /api/me/tables`` lists the tables where a seat is bound to the request's account
(``seats.account_id``): the tables whose decision is the player's first, then by the
deadline of the running clock (soonest first; tables without one after), then newest.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from fastapi import APIRouter, Request

from pyramids.server import store
from pyramids.server.auth import require_account
from pyramids.server.database import Db
from pyramids.server.live import RUNNING, LiveTable
from pyramids.server.protocol import ProtocolError
from pyramids.server.schemas import ErrorOut, Response, TableOut
from pyramids.server.tables import TableManager

router = APIRouter(tags=["lobby"])

MAX_TABLES = 100
"""Most tables listed (the newest)."""


class MyTableOut(Response):
    """One of the player's tables: its summary, the player's seat(s) and whether the
    current decision is theirs."""

    table: TableOut
    seat: int
    """The player's seat (the one to move when it is theirs)."""
    seats: list[int]
    """Every seat of the table bound to the player."""
    your_turn: bool
    deadline: str | None
    """When the player's running clock runs out (ISO), null when it is not their turn or
    the table has no clock."""


class MyTablesOut(Response):
    """The player's open and running tables, "your turn" first."""

    tables: list[MyTableOut]


def entry(table: LiveTable, account_id: int) -> dict[str, Any] | None:
    """The list entry of ``table`` for the account (None if it holds no seat there)."""
    mine = [s.seat for s in table.seats if s.account_id == account_id]
    if not mine:
        return None
    to_move = table.to_move
    your_turn = (
        table.status == RUNNING
        and to_move is not None
        and to_move in mine
        and to_move not in table.forfeits
    )
    deadline: str | None = None
    if your_turn:
        for clock in table.clocks_json() or []:
            if clock["seat"] == to_move and clock["running"]:
                deadline = clock["deadline"]
    return {
        "table": table.summary(),
        "seat": to_move if your_turn and to_move is not None else mine[0],
        "seats": mine,
        "your_turn": your_turn,
        "deadline": deadline,
    }


def order_key(item: dict[str, Any]) -> tuple[bool, str, float]:
    """Your turn first, then the soonest deadline, then the newest table."""
    created = dt.datetime.fromisoformat(item["table"]["created"].replace("Z", "+00:00"))
    return (not item["your_turn"], item["deadline"] or "~", -created.timestamp())


@router.get(
    "/api/me/tables",
    response_model=MyTablesOut,
    responses={401: {"model": ErrorOut, "description": "not_logged_in: log in first"}},
)
async def my_tables(request: Request, database: Db) -> dict[str, Any]:
    """The logged-in player's open and running tables (401 ``not_logged_in`` otherwise)."""
    account = await require_account(request, write=False)
    manager: TableManager = request.app.state.manager
    records = await database.read(
        partial(store.account_tables, account_id=account.id, limit=MAX_TABLES)
    )
    items: list[dict[str, Any]] = []
    for record in records:
        try:
            table = await manager.get(record.id)
        except ProtocolError:
            continue  # not resumable here (an older rules version): not the player's to play
        item = entry(table, account.id)
        if item is not None and table.status in ("open", "running"):
            items.append(item)
    items.sort(key=order_key)
    return {"tables": items}
