"""A finished table's record as stored, and the full check of it that the replay page shows.

``GET /api/tables/{id}/record`` and ``GET /api/tables/{id}/verify`` both read the table from
the database (its row, seats and action rows: what was stored, whatever a server holds in
memory), so the record anyone downloads is the one the page checked. The record carries
what a forfeit on time needs for its proof: the table's clock (or, without one, its turn
time and how many turn times in a row forfeit a rated seat), when it started, when each
action was stored and why a bot chose it, when it ended, and at which seq each forfeited
seat's time ran out.
``verify`` runs :func:`pyramids.core.fairness.verify_record`, the very check of
``pyramids verify RECORD``, and answers every step it made: passed, the first that failed
(with its facts), or not reached.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request

from pyramids.core import GameRecord, PyramidsError
from pyramids.core.clock import RecordClock, format_time
from pyramids.core.fairness import Verdict, verify_record
from pyramids.games import make_game
from pyramids.games.engine import Engine
from pyramids.server import store
from pyramids.server.clocks import FORFEITED
from pyramids.server.config import Settings
from pyramids.server.database import Database, Db
from pyramids.server.live import FINISHED
from pyramids.server.protocol import ProtocolError, is_table_id
from pyramids.server.schemas import ErrorOut, Response
from pyramids.server.store import TableRecord
from pyramids.server.timers import FORFEIT_AFTER_TIMEOUTS, resumed_turn_time

router = APIRouter(tags=["play"])


def forfeit_seqs(stored: TableRecord) -> list[int]:
    """For each forfeited seat (in order), the seq at which its time ran out: the action
    after it is the first the stand-in played for that seat (``played_by`` ``forfeit``);
    without one, the forfeit ended the game after the last action."""
    out: list[int] = []
    for seat in stored.forfeits or []:
        after = out[-1] if out else 0
        seq = next(
            (
                s - 1
                for s, who, _ in stored.actions
                if who == seat and s - 1 >= after and stored.stand_ins.get(s) == FORFEITED
            ),
            len(stored.actions),
        )
        out.append(seq)
    return out


def record_clock(stored: TableRecord) -> RecordClock | None:
    """The table's clock as the record states it (None: none, or one that does not read)."""
    data = stored.settings.get("clock")
    if not data:
        return None
    try:
        return RecordClock.from_json(data)
    except PyramidsError:
        return None


def stored_record(stored: TableRecord, defaults: Settings) -> GameRecord:
    """The game record of a stored table, with the times, the clock or turn time and who
    chose each action that prove its forfeits (``defaults``: the server's, for a table
    stored before every table had a turn time, as ``timers.resumed_turn_time`` loads it)."""
    clock = record_clock(stored)
    turn_time = None
    if clock is None:
        asked = float(stored.settings.get("turn_time") or 0.0)
        turn_time = resumed_turn_time(asked, rated=stored.rated, defaults=defaults)
    return GameRecord(
        game=stored.game,
        options=dict(stored.options),
        players=stored.players,
        seed=stored.seed,
        actions=[text for _, _, text in stored.actions],
        rules_version=stored.rules_version,
        seats=[s.name for s in stored.seats],
        salt=stored.salt,
        commitment=stored.commitment,
        seeded=stored.seeded,
        forfeits=list(stored.forfeits or []),
        ended=stored.ended,
        forfeited_at=forfeit_seqs(stored),
        clock=clock,
        started=stored.started or stored.created,
        times=[stored.action_times.get(seq, stored.updated) for seq, _, _ in stored.actions],
        finished=stored.finished,
        turn_time=turn_time,
        forfeit_after=FORFEIT_AFTER_TIMEOUTS if turn_time is not None and stored.rated else None,
        played_by=[stored.stand_ins.get(seq) for seq, _, _ in stored.actions],
    )


async def finished_record(database: Database, settings: Settings, table_id: str) -> GameRecord:
    """The stored record of a finished table: 404 ``unknown_table``, 409 ``not_finished``
    (``settings``: the server's defaults the table's own settings fall back on)."""
    if not is_table_id(table_id):
        raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
    stored = await database.read(partial(store.load_table, table_id=table_id))
    if stored is None:
        raise ProtocolError("unknown_table", f"there is no table {table_id!r}", 404)
    if stored.status != FINISHED:
        raise ProtocolError("not_finished", "the record is shown once the game is over", 409)
    return stored_record(stored, settings)


# --- GET /api/tables/{id}/verify -------------------------------------------------------------


class StepOut(Response):
    """One check of the record, in the order made."""

    step: Literal["commitment", "deal", "replay", "end", "forfeits"]
    status: Literal["passed", "failed", "not_checked"]


class FailureOut(Response):
    """The first thing that does not follow from the seed, the rules or the clock."""

    kind: str
    """``no_commitment``, ``wrong_commitment``, ``wrong_chance``, ``illegal_action``,
    ``unfinished``, ``unproven_forfeit`` or ``wrong_forfeit``."""
    step: str
    seq: int | None
    """The failing action's seq, when one."""
    message: str
    """What ``pyramids verify`` says (English)."""
    details: dict[str, Any]
    """The facts (``found``, ``expected``, ``seat``, ``deadline``, …) for a page's own words."""


class ForfeitOut(Response):
    """The proof of one forfeit on time."""

    seat: int
    seq: int
    """The actions played before the seat's decision that ran out."""
    deadline: str
    """When its time ran out (ISO UTC), recomputed from the clock and the times."""
    at: str
    """When its decision was still open (the stand-in's action, or the end)."""


class VerifyOut(Response):
    """What ``pyramids verify`` finds in the table's stored record, step by step."""

    verified: bool
    commitment: str | None
    seed: str
    """In decimal (seeds reach 2^62, past what a JavaScript number holds exactly)."""
    salt: str | None
    seeded: bool
    actions: int
    """The actions replayed (up to the failure, if one)."""
    chance_draws: int
    """The chance outcomes found to be the server's draws from the seed."""
    ended_by_forfeit: bool
    clock: dict[str, Any] | None
    turn_time: float | None
    """Without a clock: the seconds each decision had."""
    forfeit_after: int | None
    """A rated table without a clock: the turn times in a row that forfeit a seat."""
    forfeits: list[ForfeitOut]
    steps: list[StepOut]
    failure: FailureOut | None


def verdict_json(record: GameRecord, verdict: Verdict) -> dict[str, Any]:
    """The answer of ``GET /api/tables/{id}/verify`` (:class:`VerifyOut`)."""
    failure = verdict.failure
    status = {True: "passed", False: "failed", None: "not_checked"}
    return {
        "verified": verdict.is_verified,
        "commitment": record.commitment,
        "seed": str(record.seed),
        "salt": record.salt,
        "seeded": record.seeded,
        "actions": verdict.actions,
        "chance_draws": verdict.chance_draws,
        "ended_by_forfeit": verdict.ended_by_forfeit,
        "clock": record.clock.to_json() if record.clock is not None else None,
        "turn_time": record.turn_time,
        "forfeit_after": record.forfeit_after,
        "forfeits": [
            {
                "seat": p.seat,
                "seq": p.seq,
                "deadline": format_time(p.deadline),
                "at": format_time(p.at),
            }
            for p in verdict.forfeits
        ],
        "steps": [{"step": s.value, "status": status[ok]} for s, ok in verdict.steps(record)],
        "failure": None
        if failure is None
        else {
            "kind": failure.kind.value,
            "step": failure.kind.step.value,
            "seq": failure.seq,
            "message": failure.message,
            "details": dict(failure.details),
        },
    }


def check(record: GameRecord, engine: Engine | None = None) -> dict[str, Any]:
    """Run ``pyramids verify``'s check on ``record``, replayed on ``engine`` (the server's;
    None: auto) (CPU work: call it in a thread)."""
    try:
        game = make_game(record.game, record.players, record.options, engine=engine)
    except PyramidsError as exc:
        message = f"the record's game does not load: {exc}"
        raise ProtocolError("unavailable", message, 503, refusal=exc) from None
    return verdict_json(record, verify_record(game, record))


@router.get(
    "/api/tables/{table_id}/verify",
    response_model=VerifyOut,
    responses={
        404: {"model": ErrorOut, "description": "unknown_table"},
        409: {"model": ErrorOut, "description": "not_finished"},
        422: {"model": ErrorOut, "description": "malformed"},
        503: {"model": ErrorOut, "description": "unavailable"},
    },
)
async def verify(
    request: Request,
    database: Db,
    table_id: Annotated[str, Path(description="A finished table's id.")],
) -> dict[str, Any]:
    """Check the table's stored record as ``pyramids verify`` does (commitment, deal, every
    chance draw and action, the end, every forfeit on time) and say what each step found."""
    settings: Settings = request.app.state.settings
    record = await finished_record(database, settings, table_id)
    return await asyncio.to_thread(check, record, settings.engine)
