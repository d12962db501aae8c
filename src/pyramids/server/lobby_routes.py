"""The HTTP routes of games and tables, and the static pages (docs/PROTOCOL.md).

``router``: the health check, the games, creating, listing and claiming tables, a table's
state, playing an action and binding a seat to an account without a WebSocket, and a
finished game's record and replay. ``pages``: the lobby, table, replay and rules pages and
the browser's message catalogues. Both receive the table manager, the settings and the
limits as dependencies (``server/dependencies.py``); every error is
``{"error": {"code", "message"}}`` (``server/http_errors.py``).
"""

from __future__ import annotations

import gzip
import hashlib
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from pyramids import texts
from pyramids.server import rematch, verify
from pyramids.server.auth import account_for_write, require_account
from pyramids.server.catalog import catalog
from pyramids.server.database import Db
from pyramids.server.dependencies import Limits, Manager, ServerSettings, address_of
from pyramids.server.http_errors import COMMON, error_response, error_responses
from pyramids.server.live import SeatSpec
from pyramids.server.pages import static_page
from pyramids.server.schemas import (
    ActionIn,
    ActionOut,
    ClaimIn,
    ClaimOut,
    CreateTableIn,
    CreateTableOut,
    GamesOut,
    HealthOut,
    InviteOut,
    LinkIn,
    LinkOut,
    RecordOut,
    ReplayStepOut,
    StateOut,
    Status,
    TableOut,
    TablesOut,
    clean_name,
)
from pyramids.server.table_settings import TableSettings
from pyramids.server.timers import pace_of

router = APIRouter()
pages = APIRouter(include_in_schema=False)

TableId = Annotated[str, Path(description="A table id (10 letters and digits).")]
SeatNumber = Annotated[int, Path(ge=0, le=63, description="A seat number (0 first).")]


# --- games and tables ----------------------------------------------------------------------


@router.get(
    "/healthz",
    response_model=HealthOut,
    tags=["server"],
    responses={503: {"model": HealthOut, "description": "Not serving"}},
)
async def healthz(response: Response, manager: Manager, settings: ServerSettings) -> HealthOut:
    """200 while this instance serves (a load balancer's health check), 503 once it is
    stopping or its database is unreachable; says which instance answered."""
    ok = await manager.healthy()
    if not ok:
        response.status_code = 503
    return HealthOut(ok=ok, instance=settings.instance, cluster=bool(settings.cluster))


@router.get("/api/games", response_model=GamesOut, tags=["lobby"])
async def games(settings: ServerSettings) -> GamesOut:
    """The games, their seat range, presets and option fields, the bots, and the
    deadline per move a new table gets (``pace``)."""
    return catalog().model_copy(update={"pace": pace_of(settings)})


@router.post(
    "/api/tables",
    response_model=CreateTableOut,
    status_code=201,
    tags=["lobby"],
    responses=error_responses(*COMMON, 429, 503),
)
async def create_table(
    request: Request,
    body: CreateTableIn,
    manager: Manager,
    settings: ServerSettings,
    limits: Limits,
) -> dict[str, Any]:
    """Create a table; one invite per human seat (shown once). 429 rate_limited (with
    Retry-After) or too_many_tables past the creator's address's limits."""
    key = address_of(request)
    limits.check("create", key)
    await account_for_write(request)  # a logged-in creator's write: CSRF-checked
    table_settings = TableSettings(
        bot_delay=settings.bot_delay if body.bot_delay is None else body.bot_delay,
        absent_after=settings.absent_after if body.absent_after is None else body.absent_after,
        turn_time=body.turn_time or 0.0,  # 0: the default of its kind (timers.py)
        takeover_bot=body.takeover_bot or settings.takeover_bot,
        clock=body.clock.to_json() if body.clock is not None else None,
    )
    seats = [SeatSpec(kind=s.kind, name=s.name, bot=s.bot) for s in body.seats]
    table, invites = await manager.seating.create_table(
        body.game,
        seats,
        body.options,
        body.seed,
        table_settings,
        public=body.public,
        created_by=key,
        hints=body.hints,
        rated=body.rated,
        bot_hints=body.bot_hints,
    )
    return {
        "table": table.summary(),
        "invites": [InviteOut(seat=i.seat, name=i.name, token=i.token, url=i.url) for i in invites],
    }


@router.get(
    "/api/tables", response_model=TablesOut, tags=["lobby"], responses=error_responses(*COMMON)
)
async def list_tables(
    manager: Manager,
    status: Status | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Public tables, newest first, optionally of one status (private ones are not listed)."""
    return {"tables": await manager.list_tables(status, limit)}


@router.get(
    "/api/tables/{table_id}",
    response_model=TableOut,
    tags=["lobby"],
    responses=error_responses(*COMMON, 404),
)
async def get_table(
    request: Request,
    table_id: TableId,
    manager: Manager,
    token: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """One table's summary (an invite-only table's rematch is named only to who holds
    a seat: its ``token``, or the logged-in account bound to it)."""
    return await rematch.table_summary(request, await manager.get(table_id), token)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/claim",
    response_model=ClaimOut,
    tags=["lobby"],
    responses=error_responses(*COMMON, 403, 404, 409, 410, 429),
)
async def claim(
    request: Request,
    table_id: TableId,
    seat: SeatNumber,
    body: ClaimIn,
    *,
    manager: Manager,
    limits: Limits,
) -> ClaimOut:
    """Take a free human seat of a public table: 403 private_table for an invite-only
    table, 409 seat_taken once the seat is bound (its invite used, or claimed)."""
    limits.check("claim", address_of(request))
    account = await account_for_write(request)
    table = await manager.get(table_id)
    invite = await manager.seating.claim(table, seat, clean_name(body.name), account)
    return ClaimOut(seat=invite.seat, token=invite.token, url=invite.url)


@router.get(
    "/api/tables/{table_id}/state",
    response_model=StateOut,
    tags=["play"],
    responses=error_responses(*COMMON, 403, 404, 409, 503),
)
async def get_state(
    table_id: TableId,
    manager: Manager,
    token: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """The ``state`` message the WebSocket sends that seat (no token: the spectator's).
    An invite's first use binds its seat (never to an account: a GET is no player's
    own action) and answers the seat's new credential in ``seat_token``, once."""
    table = await manager.get(table_id)
    use = await manager.seating.seat_of(table, token) if token else None
    message: dict[str, Any] = orjson.loads(
        table.state_out(use.seat if use is not None else None).data
    )
    if use is not None and use.token is not None:
        message["seat_token"] = use.token
    return message  # the very message the seat's socket gets


@router.post(
    "/api/tables/{table_id}/actions",
    response_model=ActionOut,
    tags=["play"],
    responses=error_responses(*COMMON, 403, 404, 409, 410, 429, 503),
)
async def post_action(
    request: Request, table_id: TableId, body: ActionIn, manager: Manager, limits: Limits
) -> ActionOut:
    """Play an action without a WebSocket; answers once it is committed."""
    limits.check("action", address_of(request))
    account = await account_for_write(request)
    table = await manager.get(table_id)
    seq, fresh = await manager.act_with_token(table, body.token, body.seq, body.action, account)
    return ActionOut(seq=seq, seat_token=fresh)


@router.post(
    "/api/tables/{table_id}/link",
    response_model=LinkOut,
    tags=["play"],
    responses=error_responses(*COMMON, 403, 404, 409, 410, 503),
)
async def link_seat(request: Request, table_id: TableId, body: LinkIn, manager: Manager) -> LinkOut:
    """Bind the seat ``token`` holds to the logged-in account (401 not_logged_in; 403
    csrf without the session's X-CSRF-Token): only this, the player's own request, binds
    a seat to an account; opening a link never does."""
    account = await require_account(request, write=True)
    table = await manager.get(table_id)
    use = await manager.seating.link_account(table, body.token, account)
    return LinkOut(seat=use.seat, seat_token=use.token)


@router.get(
    "/api/tables/{table_id}/record",
    response_model=RecordOut,
    tags=["play"],
    responses=error_responses(*COMMON, 404, 409),
)
async def get_record(table_id: TableId, database: Db, settings: ServerSettings) -> dict[str, Any]:
    """The game record, once the game is over (the seed would reveal every hidden tile)."""
    # as stored, with the clock and times that prove a forfeit (server/verify.py)
    return (await verify.finished_record(database, settings, table_id)).to_json()


@router.get(
    "/api/tables/{table_id}/replay",
    response_model=list[ReplayStepOut],
    tags=["play"],
    responses=error_responses(*COMMON, 404, 409),
)
async def get_replay(table_id: TableId, manager: Manager) -> list[dict[str, Any]]:
    """Every step of a finished game with the full position."""
    table = await manager.get(table_id)
    return await manager.replay(table)


# --- pages ---------------------------------------------------------------------------------


@pages.get("/")
async def lobby_page() -> Response:
    """The lobby."""
    return static_page("index.html")


@pages.get("/t/{table_id}")
async def table_page(table_id: str) -> Response:
    """A table (the page reads its id and token from the address)."""
    return static_page("table.html")


@pages.get("/t/{table_id}/replay")
async def replay_page(table_id: str) -> Response:
    """The replay viewer of a finished table."""
    return static_page("replay.html")


@pages.get("/rules")
async def rules_index_page() -> Response:
    """The list of rules pages."""
    return static_page("rules.html")


@pages.get("/rules/{game}")
async def rules_page(game: str) -> Response:
    """A game's rules for players, with diagrams (the page reads the game from the path)."""
    if game not in {entry.name for entry in catalog().games}:
        return error_response(404, "not_found", f"no rules page for game {game!r}")
    return static_page("rules.html")


_CATALOGUE_BODIES: dict[str, tuple[bytes, bytes]] = {}
"""Sent catalogues by their ETag: the JSON and its gzip (a few kept; the words rarely change)."""


def _catalogue_body(lang: str) -> tuple[str, bytes, bytes]:
    """The catalogue of ``lang`` as JSON, its ETag and its gzip (computed once per content)."""
    body = orjson.dumps(texts.catalogue(lang))
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    if etag not in _CATALOGUE_BODIES:
        if len(_CATALOGUE_BODIES) >= 8:
            _CATALOGUE_BODIES.clear()
        _CATALOGUE_BODIES[etag] = (body, gzip.compress(body, mtime=0))
    return etag, *_CATALOGUE_BODIES[etag]


@pages.get("/texts/{lang}.json")
async def event_messages(lang: str, request: Request) -> Response:
    """The message catalogue of one language (``pyramids.texts``: the pages' words, events,
    refusals, numbers), which every page loads before it draws; revalidated on every load
    (``no-cache`` with an ETag: a 304 when unchanged) and gzipped when the browser takes it."""
    if lang not in texts.LANGS:
        return error_response(404, "not_found", f"no messages in language {lang!r}")
    etag, body, packed = _catalogue_body(lang)
    headers = {"Cache-Control": "no-cache", "ETag": etag, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    return Response(body, media_type="application/json", headers=headers)
