"""The web application: it assembles the server's parts and routers, and defines none.

``create_app(settings)`` builds a FastAPI app whose lifespan starts and stops the database
gateway (:class:`~pyramids.server.database.Database`) and a
:class:`~pyramids.server.tables.TableManager` on it; it keeps the process's parts on
``app.state`` (where the routers' dependencies find them, ``server/dependencies.py``),
adds the middlewares and the error handlers (``server/http_errors.py``), includes every
router (the lobby and table routes and pages, ``server/lobby_routes.py``; the table
WebSocket, ``server/table_socket.py``; the features' own) and mounts the static files.
Every route follows docs/PROTOCOL.md; every error is ``{"error": {"code", "message"}}``
with a 4xx status.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles

from pyramids.games import descriptors
from pyramids.server import (
    accounts,
    advice,
    chat,
    lobby_routes,
    mytables,
    players,
    ratings,
    rematch,
    table_socket,
    verify,
)
from pyramids.server.config import Settings
from pyramids.server.database import Database
from pyramids.server.hardening import InstanceHeader, SecurityHeaders
from pyramids.server.http_errors import HANDLERS, error_response
from pyramids.server.learn import pages as learn_pages
from pyramids.server.learn import router as learn_router
from pyramids.server.pages import STATIC_DIR
from pyramids.server.tables import TableManager

log = logging.getLogger("pyramids.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


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


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the app's database and table manager, and stop them at the end (or when they
    cannot start): the manager stops first, its last writes committed by the database."""
    database: Database = app.state.database
    manager: TableManager = app.state.manager
    try:
        await database.start()
        await manager.start()
    except Exception as exc:
        log.error("pyramids: cannot start: %s", exc)
        await manager.stop()
        await database.stop()
        raise
    try:
        yield
    finally:
        await manager.stop()
        await database.stop()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for ``settings`` (defaults: see ``Settings``)."""
    settings = settings or Settings()
    database = Database(settings)
    manager = TableManager(settings, database=database)
    app = FastAPI(
        title="pyramids",
        summary=f"Play {' and '.join(d.title('en') for d in descriptors())} in the browser.",
        description="The HTTP API of `pyramids serve`; see docs/PROTOCOL.md for the WebSocket.",
        version="1",
        lifespan=lifespan,
    )
    # the parts the routers' dependencies read (server/dependencies.py)
    app.state.database = database
    app.state.manager = manager
    app.state.settings = settings
    app.state.client_limits = manager.limits
    ratings.install(manager, database, settings.engine)
    chat.install(manager, database)  # the other instances' chat (cluster mode)
    rematch.install(manager, database)
    app.state.advisor = advice.install(manager, database)

    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, errors included
    app.add_middleware(InstanceHeader, name=settings.instance)
    for exc_class, handler in HANDLERS:
        app.add_exception_handler(exc_class, handler)

    app.include_router(lobby_routes.router)  # games and tables
    app.include_router(lobby_routes.pages)
    app.include_router(learn_router)  # the tutorial's endpoints (server/learn.py)
    app.include_router(learn_pages)
    for module in (accounts, players, chat, rematch, mytables, verify, advice):
        app.include_router(module.router)  # docs/PLAYERS.md
    if STATIC_DIR.is_dir():
        app.mount("/static", NoCacheStatic(directory=STATIC_DIR), name="static")
    app.include_router(table_socket.router)  # the table WebSocket
    return app
