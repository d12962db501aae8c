"""`pyramids serve`: run the game server (HTTP API, WebSockets, pages) in one process.

Binds the socket itself so that ``--port 0`` can print the port the system chose, then
hands it to uvicorn and prints ``pyramids: serving on http://HOST:PORT/`` once the
application has started. SIGTERM and Ctrl-C stop it cleanly (uvicorn's handlers).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pyramids.cli.engine_opt import EngineOption, use_engine

READY_LINE = "pyramids: serving on http://{host}:{port}/"
SERVER_LIBRARIES = frozenset(
    {
        "fastapi",
        "starlette",
        "pydantic",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "platformdirs",
        "limits",
    }
)
"""The top-level modules of the optional extra ``server`` (pyproject.toml)."""
NO_SERVER_EXTRA = (
    "pyramids: the web server is an optional part and is not installed ({name} is missing).\n"
    "Install it with: pip install 'pyramids[server]'  (in a checkout: pip install -e '.[server]',"
    " or ./run serve, which installs everything)"
)


WS_MAX_FRAME_BYTES = 64 * 1024
"""WebSocket messages over this are refused by the protocol (close 1009); up to it, the
application answers ``too_large`` past ``Settings.max_message_bytes``."""


def parse_limits(items: list[str]) -> dict[str, str]:
    """``--limit NAME=VALUE`` options as a mapping; ValueError for one without ``=``."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--limit takes NAME=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    # Positional: family 0 (any), stream sockets, proto 0, passive (a listening address).
    infos = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    """The host as written in a URL (IPv6 addresses in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


GC_YOUNG = 5000
"""Allocations (less deallocations) of tracked objects between two young collections."""
GC_NEVER = 1 << 30
"""A count of middle-generation passes never reached: the collector makes no full pass."""
GC_OLD_EVERY = 1.0
"""Seconds between two full collections; the server makes them on this clock."""


def collect_old_regularly(loop: asyncio.AbstractEventLoop, every: float = GC_OLD_EVERY) -> None:
    """Make the full collections on a clock instead of the collector's counts.

    With what survived earlier passes frozen (:class:`_GenerationalFreeze`), a full pass
    only looks at the objects that survived since the previous one: on a clock it stays
    short (with 1,000 spectators, a second's worth is a few thousand objects), where the
    collector's own rule lets them pile up for seconds and then pauses for 150-370 ms
    (bench/README.md).
    """

    def tick() -> None:
        gc.collect(2)
        loop.call_later(every, tick)

    loop.call_later(every, tick)


class _GenerationalFreeze:
    """A collector policy for a long-running server: after a full collection, freeze what
    survived, so the next full passes only scan objects made since; once every
    ``unfreeze_every`` seconds, unfreeze so that cycles among old objects are freed too.

    Full passes over a growing heap of live games otherwise pause the event loop for
    100 ms and more under load (measured with ``bench/server_load.py``).
    """

    def __init__(self, unfreeze_every: float = 600.0) -> None:
        self.unfreeze_every = unfreeze_every
        self.last_unfreeze = time.monotonic()

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        """gc callback: act at the end of a generation-2 collection."""
        if phase != "stop" or info.get("generation") != 2:
            return
        now = time.monotonic()
        if now - self.last_unfreeze >= self.unfreeze_every:
            self.last_unfreeze = now
            gc.unfreeze()  # the next full collection looks at everything again
        else:
            gc.freeze()


def serve(
    *,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port).", min=0, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE or postgresql://… "
            "(default: $PYRAMIDS_DB, else a file in the data directory)."
        ),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Where the default SQLite database lives.")
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=VALUE",
            help="Set a limit (repeatable), e.g. --limit rate_create=5/minute --limit "
            "max_spectators=50; also env PYRAMIDS_<NAME>. The names and defaults are in "
            "docs/SECURITY.md (LimitSettings in pyramids.server.config).",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ORIGIN",
            help="Let pages of this origin (https://play.example.org; * for any) open table "
            "WebSockets besides the server's own (repeatable). Clients sending no Origin "
            "(scripts, bots) are always let in.",
        ),
    ] = None,
    instance: Annotated[
        str | None,
        typer.Option(
            help="This instance's name when several share one PostgreSQL database "
            "(docs/DEPLOY.md; default: $PYRAMIDS_INSTANCE, else the host name).",
        ),
    ] = None,
    engine: EngineOption = None,
) -> None:
    """Run the server: play in the browser at the printed address."""
    # the server's tables play on the settings' engine; bots search on their table's
    choice = use_engine(engine)
    try:
        import uvicorn

        from pyramids.server.app import create_app
        from pyramids.server.config import resolve_settings
        from pyramids.server.fanout import FramesProtocol
        from pyramids.server.slow_clients import guarded_protocol
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in SERVER_LIBRARIES:
            raise
        typer.echo(NO_SERVER_EXTRA.format(name=exc.name), err=True)
        raise typer.Exit(2) from None

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    # The event loop shares the GIL with the database writer thread: hand it over more
    # often than the default 5 ms so that acknowledgements are not held up behind it.
    sys.setswitchinterval(0.0005)
    try:
        settings = resolve_settings(
            db,
            data_dir,
            allowed_origins=allowed_origin or [],
            limits=parse_limits(limit or []),
            instance=instance,
            engine=choice,
        )
    except ValueError as exc:
        typer.echo(f"pyramids: {exc}", err=True)
        raise typer.Exit(2) from None
    limits = settings.limits
    try:
        sock = bind_socket(host, port)
    except OSError as exc:
        typer.echo(f"pyramids: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    bound_port = sock.getsockname()[1]
    line = READY_LINE.format(host=url_host(host), port=bound_port)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and not self.should_exit:
                # Everything loaded so far (modules, the games rebuilt from storage) lives
                # as long as the process: keep it out of the collector's full passes,
                # whose pauses otherwise make the slowest acknowledgements.
                gc.collect()
                gc.freeze()
                gc.callbacks.append(_GenerationalFreeze())
                # A young generation of 5,000 objects, not 700: a fraction of the passes,
                # and the objects of a message die before one looks at them; full passes
                # on a clock only (bench/README.md).
                gc.set_threshold(GC_YOUNG, gc.get_threshold()[1], GC_NEVER)
                collect_old_regularly(asyncio.get_running_loop())
                print(line, flush=True)

    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        # the guard against slow clients: head and body timeouts, head size, connections
        # per address (uvicorn itself has only the keep-alive timeout)
        http=guarded_protocol(limits, app.state.client_limits),
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        h11_max_incomplete_event_size=limits.max_header_bytes or None,
        proxy_headers=bool(limits.trusted_proxies),
        forwarded_allow_ips=limits.trusted_proxies or None,
        ws_max_size=WS_MAX_FRAME_BYTES,
        # states are framed once per view and written as they are (server/fanout.py)
        ws=FramesProtocol,
        ws_per_message_deflate=False,
        # SIGTERM: connections still open after this are closed (a clean stop in under 2 s,
        # searches abandoned: TableManager.stop)
        timeout_graceful_shutdown=settings.shutdown_grace,
    )
    server = Server(config)
    # uvicorn handles SIGTERM (graceful shutdown) and then raises it again once done;
    # a no-op handler underneath makes that last raise end the process with status 0.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: None)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    if not server.started:
        sys.exit(3)
