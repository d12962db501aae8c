"""Hints at a player's turn and the computer analysis of a finished game (docs/PROTOCOL.md).

Both are the search of ``pyramids.bots.advice`` run in the server's search pool
(``search.SearchPool``): a hint after the people's bots and before the all-bot tables, an
analysis with the all-bot tables' round. Each request is answered at once with where it
stands, and asked again until it is done:

- ``POST /api/tables/{id}/hint`` (body: the seat's ``token`` and the ``seq`` it decides
  at): the best few actions of that seat's view, each with its estimated chance to win.
  Only for the seat to decide, at a table that allows it (``TableSettings.bot_hints``),
  never at a call-out check. One search per (table, seat, seq): asking again reads it.
  Limits: ``rate_hint`` per address and ``rate_hint_table`` per table (a new hint only),
  ``max_hints_waiting`` in the queue at once (503 ``busy`` past it).
- ``GET /api/tables/{id}/analysis``: for a finished table, every decision judged; computed
  once in the background on the first request, stored in the ``analyses`` table, then
  served from there. Limits: ``rate_analysis`` per address (a new analysis only),
  ``max_analyses_waiting`` at once.

What the search sees: a hint gets ``state.view(seat)`` and what that seat saw of the game
(``advice.recall``: its own views, for inference); an analysis gets the record, whose
seed is public once the game is over, and judges each decision from the deciding seat's
view (``advice.analyse_record``). In a cluster each instance keeps its own jobs: a hint
asked again through another instance is searched again there (the limits count it once
more); an analysis two instances start at once is stored once (the first write wins).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field, StrictInt
from sqlalchemy import Connection, Table, insert, select
from sqlalchemy.exc import IntegrityError

from pyramids.bots.advice import (
    advice_settings,
    analyse_record,
    hint,
    is_check,
    seat_memory,
)
from pyramids.bots.inference import Memory
from pyramids.core import GameRecord
from pyramids.core.game import Action, View
from pyramids.games.engine import Engine, engine_of
from pyramids.server import verify
from pyramids.server.auth import require_account
from pyramids.server.database import Database
from pyramids.server.db import AnalysisRow, Base
from pyramids.server.dependencies import address_of
from pyramids.server.limits import RateLimitedError
from pyramids.server.live import RUNNING, LiveTable
from pyramids.server.protocol import ProtocolError
from pyramids.server.schemas import ErrorOut
from pyramids.server.search import ANALYSIS, HINT, Ticket
from pyramids.server.store import utcnow
from pyramids.server.tables import TableManager

log = logging.getLogger("pyramids.server")

router = APIRouter(tags=["play"])

ANALYSES: Table = Base.metadata.tables[AnalysisRow.__tablename__]
ANALYSIS_LEVEL = "normal"
"""The level whose search judges a finished game's decisions."""
ANALYSIS_SEED = 0
"""The seed of every stored analysis: ``pyramids analyse-game RECORD`` gives the same."""
HINT_LEVEL = "normal"
"""The level whose search gives the hints."""
KEPT_HINTS = 512
"""Hints remembered at once (of current decisions; older ones are dropped first)."""


# --- the work done in a search worker ------------------------------------------------------


@dataclass(frozen=True)
class HintAsked:
    """What a hint's search gets (sent to a worker process): one seat's view and memory."""

    view: View
    legal: list[Action]
    game: str
    players: int
    iterations: int | None
    seed: str
    memory: Memory | None
    engine: Engine | None = None
    """The engine the table plays on (the search follows it)."""


def hint_job(asked: HintAsked) -> dict[str, Any]:
    """A hint's search, in a worker process: the moves (actions, not yet in words)."""
    settings = advice_settings(
        asked.game, asked.players, level=HINT_LEVEL, iterations=asked.iterations
    )
    found = hint(
        asked.view, asked.legal, settings, asked.seed, memory=asked.memory, engine=asked.engine
    )
    return {
        "moves": [
            {"action": m.action, "visits": m.visits, "share": m.share, "win": m.win}
            for m in found.moves
        ],
        "iterations": found.iterations,
        "seconds": found.seconds,
    }


def analysis_job(
    record: dict[str, Any], iterations: int | None, engine: Engine | None = None
) -> dict[str, Any]:
    """An analysis, in a worker process, on ``engine`` (the server's)."""
    analysis = analyse_record(
        GameRecord.from_json(record),
        level=ANALYSIS_LEVEL,
        iterations=iterations,
        seed=ANALYSIS_SEED,
        engine=engine,
    )
    return analysis.to_json()


# --- the jobs ------------------------------------------------------------------------------


@dataclass
class _HintJob:
    ticket: Ticket
    texts: dict[Action, str]
    seat: int
    seq: int
    result: dict[str, Any] | None = None
    failed: str | None = None


@dataclass
class Advisor:
    """The hints and analyses one server process is computing (``install``)."""

    manager: TableManager
    database: Database
    hints: dict[tuple[str, int, int], _HintJob] = field(default_factory=dict)
    analyses: dict[str, Ticket] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    """Tables whose record could not be analysed, and why (not tried again)."""
    tasks: set[asyncio.Future[None]] = field(default_factory=set)

    # --- hints -----------------------------------------------------------------------------

    async def hint(self, table: LiveTable, seat: int, seq: int, key: str) -> dict[str, Any]:
        """Where the hint for ``seat`` at ``seq`` stands (see the module doc)."""
        if not table.settings.bot_hints:
            raise ProtocolError("hints_off", "this table does not allow hints", 403)
        if table.status != RUNNING:
            raise ProtocolError("not_running", "hints are given while the game is played", 409)
        self._drop_old(table)
        job = self.hints.get((table.id, seat, seq))
        if job is None:
            job = self._start_hint(table, seat, seq, key)
        if job.failed is not None:
            raise ProtocolError("unavailable", job.failed, 503)
        if job.result is not None:
            return _hint_out(job)
        if job.ticket.started:
            return {"status": "running", "seq": seq}
        return {"status": "queued", "seq": seq, "position": job.ticket.position()}

    def _start_hint(self, table: LiveTable, seat: int, seq: int, key: str) -> _HintJob:
        state = table.state
        if seq != table.seq:
            raise ProtocolError(
                "stale", f"the game is at seq {table.seq}, not {seq}: ask at the current one", 409
            )
        if state.current_player() != seat or seat in table.forfeits:
            raise ProtocolError("not_your_turn", "a hint is given at your own turn only", 409)
        view, legal = state.view(seat), list(state.legal_actions())
        if is_check(view, legal):
            raise ProtocolError(
                "check", "no hint at a call-out check: spotting the mayhem is the game", 409
            )
        pool = self.manager.searches
        limits = self.manager.settings.limits
        if pool.waiting_of(HINT) >= limits.max_hints_waiting:
            raise ProtocolError("busy", "too many hints are being computed; try again soon", 503)
        self.manager.limits.check("hint", key)
        try:
            self.manager.limits.check("hint_table", f"table/{table.id}")
        except RateLimitedError as exc:
            raise RateLimitedError(
                f"this table asked for too many hints; try again in {exc.retry_after} s",
                exc.retry_after,
            ) from None
        settings = advice_settings(table.game_name, table.players, level=HINT_LEVEL)
        memory = seat_memory_of(table, seat) if settings.inference else None
        ticket = pool.submit(
            table.id,
            True,
            hint_job,
            HintAsked(
                view,
                legal,
                table.game_name,
                table.players,
                limits.hint_iterations or None,
                f"{seq}/{seat}",  # the decision's, so a scrambled twin table searches alike
                memory,
                engine_of(state),
            ),
            kind=HINT,
        )
        texts = {a: state.action_to_string(a) for a in legal}
        job = _HintJob(ticket, texts, seat, seq)
        self.hints[(table.id, seat, seq)] = job
        ticket.future.add_done_callback(partial(_hint_done, job, table.id))
        while len(self.hints) > KEPT_HINTS:
            old = next(iter(self.hints))
            self.hints.pop(old).ticket.cancel()
        return job

    def _drop_old(self, table: LiveTable) -> None:
        """Forget the table's hints of earlier decisions (a waiting one is dropped)."""
        for k in [k for k in self.hints if k[0] == table.id and k[2] != table.seq]:
            self.hints.pop(k).ticket.cancel()

    # --- analyses --------------------------------------------------------------------------

    async def analysis(self, table_id: str, key: str) -> tuple[int, dict[str, Any]]:
        """(HTTP status, answer) of ``GET /api/tables/{id}/analysis``."""
        # 404, 409 not_finished
        record = await verify.finished_record(self.database, self.manager.settings, table_id)
        stored = await self.database.read(partial(load_analysis, table_id=table_id))
        if stored is not None:
            return 200, {"status": "done", "analysis": stored}
        if table_id in self.failed:
            raise ProtocolError("no_analysis", self.failed[table_id], 422)
        ticket = self.analyses.get(table_id)
        if ticket is None:
            ticket = self._start_analysis(table_id, record, key)
        if ticket.started:
            return 202, {"status": "running"}
        return 202, {"status": "queued", "position": ticket.position()}

    def _start_analysis(self, table_id: str, record: GameRecord, key: str) -> Ticket:
        limits = self.manager.settings.limits
        if len(self.analyses) >= limits.max_analyses_waiting:
            raise ProtocolError(
                "busy", "too many games are being analysed; try again in a minute", 503
            )
        self.manager.limits.check("analysis", key)
        iterations = limits.analysis_iterations or None
        ticket = self.manager.searches.submit(
            table_id,
            False,
            analysis_job,
            record.to_json(),
            iterations,
            self.manager.settings.engine,
            kind=ANALYSIS,
        )
        self.analyses[table_id] = ticket
        task = asyncio.ensure_future(self._store_when_done(table_id, ticket))
        self.tasks.add(task)  # kept until done (the loop holds only weak references)
        task.add_done_callback(self.tasks.discard)
        return ticket

    async def _store_when_done(self, table_id: str, ticket: Ticket) -> None:
        try:
            data: dict[str, Any] = await ticket.future
            await self.database.write(partial(store_analysis, table_id=table_id, data=data))
            log.info(
                "table %s: analysed in %.1f s of processor time",
                table_id,
                float(data.get("cpu_seconds", 0.0)),
            )
        except asyncio.CancelledError:
            raise
        except ProtocolError as exc:  # the database was unavailable: asked again, computed again
            log.warning("table %s: the analysis was not stored: %s", table_id, exc.message)
        except Exception as exc:
            log.exception("table %s: the analysis failed", table_id)
            self.failed[table_id] = f"this game could not be analysed: {exc}"
        finally:
            self.analyses.pop(table_id, None)


def _hint_done(job: _HintJob, table_id: str, future: asyncio.Future[Any]) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("table %s: the hint at seq %d failed: %s", table_id, job.seq, exc)
        job.failed = "the hint could not be computed; try again"
        return
    job.result = future.result()


def _hint_out(job: _HintJob) -> dict[str, Any]:
    result = job.result or {}
    moves = [
        {
            "action": job.texts.get(m["action"], str(m["action"])),
            "visits": m["visits"],
            "share": round(m["share"], 4),
            "win": round(m["win"], 4),
        }
        for m in result.get("moves", [])
    ]
    return {
        "status": "done",
        "seq": job.seq,
        "seat": job.seat,
        "moves": moves,
        "iterations": result.get("iterations", 0),
        "seconds": round(float(result.get("seconds", 0.0)), 3),
    }


def seat_memory_of(table: LiveTable, seat: int) -> Memory:
    """What ``seat``'s bot would remember of the game so far (``advice.seat_memory``): the
    live state's history (every action since the deal: the table's state is always
    replayed from its seed) replayed here once, only the seat's views kept."""
    return seat_memory(table.game.new_initial_state(table.seed), table.state.history(), seat)


# --- storage -------------------------------------------------------------------------------


def load_analysis(conn: Connection, table_id: str) -> dict[str, Any] | None:
    """The stored analysis of a table (None: none yet)."""
    row = conn.execute(select(ANALYSES.c.data).where(ANALYSES.c.table_id == table_id)).first()
    return dict(row.data) if row is not None else None


def store_analysis(conn: Connection, table_id: str, data: dict[str, Any]) -> None:
    """Store a table's analysis; one already stored (another instance's) is kept."""
    try:
        with conn.begin_nested():
            conn.execute(
                insert(ANALYSES).values(
                    table_id=table_id,
                    level=str(data.get("level", ANALYSIS_LEVEL)),
                    iterations=int(data.get("iterations", 0)),
                    seed=int(data.get("seed", ANALYSIS_SEED)),
                    data=data,
                    cpu_seconds=float(data.get("cpu_seconds", 0.0)),
                    created=utcnow(),
                )
            )
    except IntegrityError:
        log.info("table %s: its analysis was already stored", table_id)


def install(manager: TableManager, database: Database) -> Advisor:
    """The process's advisor (kept on the app's state by ``create_app``)."""
    return Advisor(manager, database)


# --- HTTP ----------------------------------------------------------------------------------


class HintIn(BaseModel):
    """Ask for a hint at your turn."""

    token: Annotated[str, Field(max_length=64)] | None = None
    """Your seat's token (as for ``POST /api/tables/{id}/actions``)."""
    seat: Annotated[StrictInt, Field(ge=0)] | None = None
    """Without a token: your seat, bound to your logged-in account (the session cookie and
    its ``X-CSRF-Token``). Neither: 403 ``spectator``."""
    seq: Annotated[StrictInt, Field(ge=0)]
    """The seq of the state you decide at (409 ``stale`` when the game has moved on)."""


class HintMoveOut(BaseModel):
    """One of the best actions."""

    action: str
    """In the game's notation."""
    visits: int
    share: float
    """Share of the search's visits (0 to 1)."""
    win: float
    """The estimated chance to win after it (0 to 1)."""


class HintOut(BaseModel):
    """Where a hint stands, or the hint."""

    status: Literal["queued", "running", "done"]
    seq: int
    position: int | None = None
    """While queued: how many searches go before it (0: it starts next)."""
    seat: int | None = None
    moves: list[HintMoveOut] | None = None
    """When done: the best actions, best first (at most 3)."""
    iterations: int | None = None
    seconds: float | None = None


class AnalysisOut(BaseModel):
    """Where an analysis stands, or the analysis."""

    status: Literal["queued", "running", "done"]
    position: int | None = None
    """While queued: how many searches go before it."""
    analysis: dict[str, Any] | None = None
    """When done: ``game``, ``players``, ``seats``, ``level``, ``iterations``, ``seed``,
    ``mistake`` (the drop that marks one), ``actions`` and ``decisions`` (each: ``index``,
    ``seat``, ``action``, ``best``, ``before``, ``after``, ``drop``, ``mistake``, ``legal``,
    ``played_by``), and ``cpu_seconds`` (docs/PROTOCOL.md)."""


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


def advisor_of(request: Request) -> Advisor:
    """The app's advisor."""
    advisor: Advisor = request.app.state.advisor
    return advisor


async def _seat(request: Request, table: LiveTable, body: HintIn) -> int:
    """The seat asking: its token's, or the logged-in account's seat ``body.seat``."""
    if body.token is not None:
        return table.seat_for_token(body.token)
    if body.seat is None:
        raise ProtocolError(
            "spectator", "hints are for the player whose turn it is: send your seat's token", 403
        )
    account = await require_account(request, write=True)
    if body.seat >= table.players or table.seats[body.seat].account_id != account.id:
        raise ProtocolError("not_your_seat", f"seat {body.seat} is not your account's", 403)
    return body.seat


@router.post(
    "/api/tables/{table_id}/hint",
    response_model=HintOut,
    response_model_exclude_none=True,
    responses={202: {"model": HintOut}, **_errors(403, 404, 409, 422, 429, 503)},
)
async def post_hint(
    request: Request,
    response: Response,
    table_id: Annotated[str, Path(description="A table id (10 letters and digits).")],
    body: HintIn,
) -> dict[str, Any]:
    """The search's best actions for your seat at your turn, with their chances to win:
    202 while it is queued (``position``) or running, 200 with ``moves`` once done; ask
    again with the same body (it is searched once). A seat bound to your account may ask
    by ``seat`` instead of ``token`` (logged in, with ``X-CSRF-Token``). 403 ``spectator``,
    ``bad_token``, ``not_your_seat``, ``hints_off``; 409 ``not_running``, ``stale``, ``not_your_turn``, ``check``; 429
    ``rate_limited``; 503 ``busy``."""
    advisor = advisor_of(request)
    table = await advisor.manager.get(table_id)
    seat = await _seat(request, table, body)
    out = await advisor.hint(table, seat, body.seq, address_of(request))
    if out["status"] != "done":
        response.status_code = 202
    return out


@router.get(
    "/api/tables/{table_id}/analysis",
    response_model=AnalysisOut,
    response_model_exclude_none=True,
    responses={202: {"model": AnalysisOut}, **_errors(404, 409, 422, 429, 503)},
)
async def get_analysis(
    request: Request,
    response: Response,
    table_id: Annotated[str, Path(description="A table id (10 letters and digits).")],
) -> dict[str, Any]:
    """The computer analysis of a finished game: 200 once stored; 202 while it is queued
    (``position``) or computed (ask again). 409 ``not_finished``; 422 ``no_analysis`` when
    its record cannot be analysed; 429 ``rate_limited``; 503 ``busy``."""
    status, out = await advisor_of(request).analysis(table_id, address_of(request))
    response.status_code = status
    return out
