"""The web application: the HTTP API, the table WebSocket and the static pages.

``create_app(settings)`` builds a FastAPI app whose lifespan starts and stops a
:class:`~pyramids.server.tables.TableManager`. Every route follows docs/PROTOCOL.md;
every error is ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

import orjson
from fastapi import FastAPI, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from pyramids import texts
from pyramids.games import descriptors
from pyramids.server import (
    accounts,
    advice,
    chat,
    mytables,
    players,
    ratings,
    rematch,
    verify,
)
from pyramids.server.auth import account_for_write, account_of, require_account
from pyramids.server.catalog import catalog
from pyramids.server.config import Settings
from pyramids.server.fanout import FRAMES_EXTENSION
from pyramids.server.hardening import (
    INSTANCE_HEADER,
    WS_CLOSE_BAD_ORIGIN,
    InstanceHeader,
    SecurityHeaders,
    is_origin_allowed,
)
from pyramids.server.inbound import MessageRefusedError, parse_inbound
from pyramids.server.learn import pages as learn_pages
from pyramids.server.learn import router as learn_router
from pyramids.server.limits import (
    WS_CLOSE_POLICY,
    RateLimitedError,
    client_key,
    ws_error,
)
from pyramids.server.live import Client, LiveTable, ProtocolError, SeatSpec, TableSettings, dumps
from pyramids.server.pages import STATIC_DIR, static_page
from pyramids.server.schemas import (
    ActionIn,
    ActionOut,
    ClaimIn,
    ClaimOut,
    CreateTableIn,
    CreateTableOut,
    ErrorOut,
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
from pyramids.server.tables import TableManager
from pyramids.server.timers import pace_of

log = logging.getLogger("pyramids.server")

WS_CLOSE_UNKNOWN_TABLE = 4404
WS_CLOSE_BAD_TOKEN = 4403
WS_CLOSE_SEAT_TAKEN = 4409

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of every error."""
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """An error as an HTTP response."""
    return JSONResponse(error_body(code, message), status_code=status)


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI response entries for error statuses."""
    descriptions = {
        400: "the body is not JSON",
        403: "bad_token (or private_table: claims are for public tables only)",
        404: "unknown_table (or unknown_seat)",
        409: "refused by the game or the table's state",
        410: "expired: the table expired before it started",
        413: "too_large: the body is over the limit",
        422: "malformed (breaks the schema) or bad_options",
        429: "rate_limited (with Retry-After, in seconds) or too_many_tables",
        503: "unavailable: the database did not answer",
    }
    return {s: {"model": ErrorOut, "description": descriptions[s]} for s in statuses}


COMMON = (400, 413, 422)
TableId = Annotated[str, Path(description="A table id (10 letters and digits).")]
SeatNumber = Annotated[int, Path(ge=0, le=63, description="A seat number (0 first).")]


def describe_validation(exc: RequestValidationError) -> tuple[int, str]:
    """A readable message for a schema error, and its status (400 for unparseable JSON)."""
    parts: list[str] = []
    status = 422
    for err in exc.errors()[:5]:
        if err.get("type") == "json_invalid":
            status = 400
            ctx = err.get("ctx") or {}
            parts.append(f"the body is not valid JSON ({ctx.get('error', 'parse error')})")
            continue
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        where = ".".join(loc) if loc else "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return status, "; ".join(parts) or "the request does not match the schema"


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 ``too_large``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, counting its body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"the request body is over {self.limit} bytes"
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    await error_response(413, "too_large", message)(scope, receive, send)
                    return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > self.limit:
                    # an HTTPException, which FastAPI's body reading lets through (any
                    # other error there becomes a 400)
                    raise _BodyTooLargeError(413, message)
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLargeError:
            if not started:
                await error_response(413, "too_large", message)(scope, receive, send)


class _BodyTooLargeError(StarletteHTTPException):
    """A body (chunked: no Content-Length to check first) grew over the limit."""


class NoCacheStatic(StaticFiles):
    """The package's static files (Starlette's ``StaticFiles``: never outside the directory),
    revalidated on every load (``no-cache``) so a new version shows at once; JavaScript as
    ``text/javascript`` whatever the system's MIME table says. A missing file is a 404
    ``not_found`` like every other error."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file at ``path``; 404 naming it when there is none."""
        try:
            return await super().get_response(path, scope)
        except StarletteHTTPException as exc:
            if exc.status_code == 404:
                raise StarletteHTTPException(404, f"no such file: {path}") from None
            raise

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        """The file, with the headers above."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        if response.status_code == 200 and str(full_path).endswith((".js", ".mjs")):
            response.headers["Content-Type"] = "text/javascript; charset=utf-8"
        return response


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for ``settings`` (defaults: see ``Settings``)."""
    settings = settings or Settings()
    manager = TableManager(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            await manager.start()
        except Exception as exc:
            log.error("pyramids: cannot start: %s", exc)
            await manager.stop()
            raise
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(
        title="pyramids",
        summary=f"Play {' and '.join(d.title('en') for d in descriptors())} in the browser.",
        description="The HTTP API of `pyramids serve`; see docs/PROTOCOL.md for the WebSocket.",
        version="1",
        lifespan=lifespan,
    )
    app.state.manager = manager
    ratings.install(manager)
    chat.install(manager)  # the other instances' chat (cluster mode)
    rematch.install(manager)
    app.state.advisor = advice.install(manager)
    app.state.settings = settings
    limits = manager.limits
    app.state.client_limits = limits
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, errors included
    app.add_middleware(InstanceHeader, name=settings.instance)

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        response = error_response(exc.status, exc.code, exc.message)
        if exc.seat_token is not None:  # the refused action used its invite: hand it over
            body = error_body(exc.code, exc.message)
            body["error"]["seat_token"] = exc.seat_token
            response = JSONResponse(body, status_code=exc.status)
        if isinstance(exc, RateLimitedError):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = describe_validation(exc)
        return error_response(status, "malformed", message)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
        code = codes.get(exc.status_code, "malformed" if exc.status_code < 500 else "internal")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error: %s", exc)
        return error_response(500, "internal", "the server failed; the error is logged")

    # --- games and tables ------------------------------------------------------------------

    @app.get(
        "/healthz",
        response_model=HealthOut,
        tags=["server"],
        responses={503: {"model": HealthOut, "description": "Not serving"}},
    )
    async def healthz(response: Response) -> HealthOut:
        """200 while this instance serves (a load balancer's health check), 503 once it is
        stopping or its database is unreachable; says which instance answered."""
        ok = await manager.healthy()
        if not ok:
            response.status_code = 503
        return HealthOut(ok=ok, instance=settings.instance, cluster=bool(settings.cluster))

    @app.get("/api/games", response_model=GamesOut, tags=["lobby"])
    async def games() -> GamesOut:
        """The games, their seat range, presets and option fields, the bots, and the
        deadline per move a new table gets (``pace``)."""
        return catalog().model_copy(update={"pace": pace_of(settings)})

    @app.post(
        "/api/tables",
        response_model=CreateTableOut,
        status_code=201,
        tags=["lobby"],
        responses=errors(*COMMON, 429, 503),
    )
    async def create_table(request: Request, body: CreateTableIn) -> dict[str, Any]:
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
        table, invites = await manager.create_table(
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
            "invites": [
                InviteOut(seat=i.seat, name=i.name, token=i.token, url=i.url) for i in invites
            ],
        }

    @app.get("/api/tables", response_model=TablesOut, tags=["lobby"], responses=errors(*COMMON))
    async def list_tables(
        status: Status | None = None, limit: Annotated[int, Query(ge=1, le=200)] = 50
    ) -> dict[str, Any]:
        """Public tables, newest first, optionally of one status (private ones are not listed)."""
        return {"tables": await manager.list_tables(status, limit)}

    @app.get(
        "/api/tables/{table_id}",
        response_model=TableOut,
        tags=["lobby"],
        responses=errors(*COMMON, 404),
    )
    async def get_table(
        request: Request,
        table_id: TableId,
        token: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """One table's summary (an invite-only table's rematch is named only to who holds
        a seat: its ``token``, or the logged-in account bound to it)."""
        return await rematch.table_summary(request, await manager.get(table_id), token)

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/claim",
        response_model=ClaimOut,
        tags=["lobby"],
        responses=errors(*COMMON, 403, 404, 409, 410, 429),
    )
    async def claim(
        request: Request, table_id: TableId, seat: SeatNumber, body: ClaimIn
    ) -> ClaimOut:
        """Take a free human seat of a public table: 403 private_table for an invite-only
        table, 409 seat_taken once the seat is bound (its invite used, or claimed)."""
        limits.check("claim", address_of(request))
        account = await account_for_write(request)
        table = await manager.get(table_id)
        invite = await manager.claim(table, seat, clean_name(body.name), account)
        return ClaimOut(seat=invite.seat, token=invite.token, url=invite.url)

    @app.get(
        "/api/tables/{table_id}/state",
        response_model=StateOut,
        tags=["play"],
        responses=errors(*COMMON, 403, 404, 409, 503),
    )
    async def get_state(
        request: Request,
        table_id: TableId,
        token: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """The ``state`` message the WebSocket sends that seat (no token: the spectator's).
        An invite's first use binds its seat (never to an account: a GET is no player's
        own action) and answers the seat's new credential in ``seat_token``, once."""
        table = await manager.get(table_id)
        use = await manager.seat_of(table, token) if token else None
        message: dict[str, Any] = orjson.loads(
            table.state_out(use.seat if use is not None else None).data
        )
        if use is not None and use.token is not None:
            message["seat_token"] = use.token
        return message  # the very message the seat's socket gets

    @app.post(
        "/api/tables/{table_id}/actions",
        response_model=ActionOut,
        tags=["play"],
        responses=errors(*COMMON, 403, 404, 409, 410, 429, 503),
    )
    async def post_action(request: Request, table_id: TableId, body: ActionIn) -> ActionOut:
        """Play an action without a WebSocket; answers once it is committed."""
        limits.check("action", address_of(request))
        account = await account_for_write(request)
        table = await manager.get(table_id)
        seq, fresh = await manager.act_with_token(table, body.token, body.seq, body.action, account)
        return ActionOut(seq=seq, seat_token=fresh)

    @app.post(
        "/api/tables/{table_id}/link",
        response_model=LinkOut,
        tags=["play"],
        responses=errors(*COMMON, 403, 404, 409, 410, 503),
    )
    async def link_seat(request: Request, table_id: TableId, body: LinkIn) -> LinkOut:
        """Bind the seat ``token`` holds to the logged-in account (401 not_logged_in; 403
        csrf without the session's X-CSRF-Token): only this, the player's own request, binds
        a seat to an account; opening a link never does."""
        account = await require_account(request, write=True)
        table = await manager.get(table_id)
        use = await manager.link_account(table, body.token, account)
        return LinkOut(seat=use.seat, seat_token=use.token)

    @app.get(
        "/api/tables/{table_id}/record",
        response_model=RecordOut,
        tags=["play"],
        responses=errors(*COMMON, 404, 409),
    )
    async def get_record(table_id: TableId) -> dict[str, Any]:
        """The game record, once the game is over (the seed would reveal every hidden tile)."""
        # as stored, with the clock and times that prove a forfeit (server/verify.py)
        return (await verify.finished_record(manager, table_id)).to_json()

    @app.get(
        "/api/tables/{table_id}/replay",
        response_model=list[ReplayStepOut],
        tags=["play"],
        responses=errors(*COMMON, 404, 409),
    )
    async def get_replay(table_id: TableId) -> list[dict[str, Any]]:
        """Every step of a finished game with the full position."""
        table = await manager.get(table_id)
        return await manager.replay(table)

    # --- pages -----------------------------------------------------------------------------

    page = static_page

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        """The lobby."""
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        """A table (the page reads its id and token from the address)."""
        return page("table.html")

    @app.get("/t/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        """The replay viewer of a finished table."""
        return page("replay.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_index_page() -> Response:
        """The list of rules pages."""
        return page("rules.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> Response:
        """A game's rules for players, with diagrams (the page reads the game from the path)."""
        if game not in {entry.name for entry in catalog().games}:
            return error_response(404, "not_found", f"no rules page for game {game!r}")
        return page("rules.html")

    @app.get("/texts/{lang}.json", include_in_schema=False)
    async def event_messages(lang: str) -> Response:
        """The shared message catalogue of one language (``pyramids.texts``) for the browser."""
        if lang not in texts.LANGS:
            return error_response(404, "not_found", f"no messages in language {lang!r}")
        return JSONResponse(texts.catalogue(lang), headers={"Cache-Control": "no-cache"})

    app.include_router(learn_router)  # the tutorial's endpoints (server/learn.py)
    app.include_router(learn_pages)
    for module in (accounts, players, chat, rematch, mytables, verify, advice):
        app.include_router(module.router)  # docs/PLAYERS.md

    if STATIC_DIR.is_dir():
        app.mount("/static", NoCacheStatic(directory=STATIC_DIR), name="static")

    # --- the table WebSocket ---------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """A connection to a table: hello, states, and the client's actions."""
        await websocket.accept(headers=[(INSTANCE_HEADER, settings.instance.encode())])
        if not is_origin_allowed(websocket.scope["headers"], settings.allowed_origins):
            origin = websocket.headers.get("origin", "")
            refused = ProtocolError(
                "bad_origin", f"pages from {origin!r} may not open this server's tables", 403
            )
            await _refuse(websocket, refused, WS_CLOSE_BAD_ORIGIN)
            return
        key = address_of(websocket)
        try:
            limits.check("connect", key)
            limits.open_socket(key)
        except ProtocolError as exc:
            await _refuse(websocket, exc, WS_CLOSE_POLICY)
            return
        try:
            await _connected(websocket, table_id, key)
        finally:
            limits.close_socket(key)

    async def _connected(websocket: WebSocket, table_id: str, key: str) -> None:
        """An accepted table socket within its address's limits: attach it, read messages."""
        token = websocket.query_params.get("token") or None
        seat_text = websocket.query_params.get("seat") or ""
        seat = int(seat_text) if seat_text.isdigit() and len(seat_text) < 3 else None
        try:
            table = await manager.get(table_id)
        except ProtocolError as exc:
            await _refuse(websocket, exc, WS_CLOSE_UNKNOWN_TABLE)
            return
        client = Client(None, settings.send_queue_limit, settings.spectator_linger)
        frames = websocket.scope.get("extensions", {}).get(FRAMES_EXTENSION) or {}
        client.write_now = frames.get("write")
        try:
            if token is None and seat is None:
                limits.check_spectators(sum(1 for c in table.clients if c.seat is None))
            account = await account_of(websocket) if not token and seat is not None else None
            await manager.connect(table, token, client, account, seat)
            await chat.on_connect(manager, table, client)
        except ProtocolError as exc:
            codes = {
                "bad_token": WS_CLOSE_BAD_TOKEN,
                "invite_used": WS_CLOSE_BAD_TOKEN,
                "not_your_seat": WS_CLOSE_BAD_TOKEN,
                "not_logged_in": WS_CLOSE_BAD_TOKEN,
                "unknown_seat": WS_CLOSE_BAD_TOKEN,
                "seat_taken": WS_CLOSE_SEAT_TAKEN,
            }
            code = codes.get(exc.code, WS_CLOSE_POLICY if exc.status in (410, 429) else 1011)
            await _refuse(websocket, exc, code)
            return
        socket_id = f"{key}/{id(client)}"
        sender = asyncio.create_task(_send_loop(websocket, client))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if limits.is_flooding(key, socket_id):
                    flood = "too many messages on this connection"
                    client.send(_error(None, "rate_limited", flood))
                    client.close(WS_CLOSE_POLICY, f"rate_limited: {flood}")
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                try:
                    await _handle(raw, client, table, key)
                except Exception as exc:  # one log line, the socket stays open (issue 29, 9)
                    log.warning(
                        "table %s: a message could not be handled: %s: %.200s",
                        table.id,
                        type(exc).__name__,
                        exc,
                    )
                    client.send(_error(None, "malformed", texts.message("socket.unhandled", "en")))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            manager.disconnect(table, client)
            client.close()
            with contextlib.suppress(Exception):
                await sender

    async def _handle(raw: str | bytes, client: Client, table: LiveTable, key: str) -> None:
        try:
            inbound = parse_inbound(
                raw, max_bytes=settings.max_message_bytes, max_depth=settings.limits.max_json_depth
            )
        except MessageRefusedError as exc:  # server/inbound.py: what is wrong with it
            client.send(dumps(ws_error(exc.msg_id, exc)))
            return
        data, msg_id = inbound.data, inbound.msg_id
        kind = inbound.kind
        if kind == "ping":
            client.send(dumps({"type": "pong", "id": msg_id}))
        elif kind == "sync":
            client.send(dumps(table.hello(client.seat)))
            client.send(table.state_text(client.seat))
        elif kind == "action":
            seq, text = data.get("seq"), data.get("action")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
                client.send(
                    _error(msg_id, "malformed", "an action needs 'seq': the seq you decided on")
                )
                return
            if not isinstance(text, str) or not text or len(text) > 200:
                client.send(
                    _error(msg_id, "malformed", "an action needs 'action': the action's text")
                )
                return
            try:
                limits.check("action", key)
                new_seq = await manager.act(table, client.seat, seq, text)
            except ProtocolError as exc:
                client.send(dumps(ws_error(msg_id, exc)))
                return
            client.send(dumps({"type": "ack", "id": msg_id, "seq": new_seq}))
        elif kind in chat.MESSAGE_TYPES:
            await chat.handle(manager, table, client, data, msg_id=msg_id, key=key)
        else:
            client.send(
                _error(
                    msg_id,
                    "malformed",
                    f"unknown message type {kind!r}: expected 'action', 'sync', 'ping', "
                    "'chat' or 'chat_settings'",
                )
            )

    return app


def address_of(connection: Request | WebSocket) -> str:
    """The key a client's limits are counted under (its address; see ``limits.client_key``)."""
    client = connection.client
    return client_key(client.host if client is not None else None)


def _error(msg_id: Any, code: str, message: str) -> str:
    return dumps({"type": "error", "id": msg_id, "code": code, "message": message})


async def _refuse(websocket: WebSocket, exc: ProtocolError, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(_error(None, exc.code, exc.message))
        await websocket.close(code=close_code, reason=exc.code)


async def _send_loop(websocket: WebSocket, client: Client) -> None:
    """Write the client's queued messages; close the socket when asked to.

    Under ``pyramids serve`` every message queued since the last write goes out in one
    write of the frames made once per view (``fanout.FRAMES_EXTENSION``); elsewhere one
    ``websocket.send`` per message.
    """
    extension = websocket.scope.get("extensions", {}).get(FRAMES_EXTENSION) or {}
    write_frames = extension.get("send")
    try:
        while True:
            batch = await client.take()
            if not batch:
                break
            if write_frames is not None:
                await write_frames(b"".join(out.frame for out in batch))
            else:
                for out in batch:
                    await websocket.send_text(out.text)
    except Exception:
        return
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=client.close_code, reason=client.close_reason or None)
