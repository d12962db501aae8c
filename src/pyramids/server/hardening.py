"""Browser-facing hardening: security headers on every HTTP response and the WebSocket
Origin check.

Every page and API answer carries a Content-Security-Policy with no inline script or
style (:data:`CSP`), ``X-Frame-Options: DENY``, ``Referrer-Policy: no-referrer`` and
``X-Content-Type-Options: nosniff``. FastAPI's interactive API pages (``/docs``,
``/redoc``) load Swagger UI or ReDoc from a CDN with an inline start-up script, so they
alone get :data:`DOCS_CSP`; they show no user data.

A browser always sends ``Origin`` on a WebSocket handshake, so a page on another site
cannot open a table socket in a visitor's name (cross-site WebSocket hijacking): the
origin must be this server's own (its ``Host``) or one of ``Settings.allowed_origins``.
A client that sends no ``Origin`` is not a browser page (the CLI, bots, scripts) and is
allowed: a seat still needs its token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)
"""The pages' policy: scripts, styles and connections from this server only, nothing inline."""
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""The API documentation pages' policy (Swagger UI and ReDoc as FastAPI serves them)."""
DOCS_PATHS = ("/docs", "/redoc")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
WS_CLOSE_BAD_ORIGIN = 1008
"""Policy violation: the WebSocket handshake came from a page of another origin."""
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class SecurityHeaders:
    """ASGI middleware adding the CSP and the other security headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, adding the headers to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        policy = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                extra = [(b"content-security-policy", policy.encode()), *SECURITY_HEADERS]
                headers.extend(h for h in extra if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


INSTANCE_HEADER = b"x-pyramids-instance"
"""The header naming the instance that answered (several behind one balancer: DEPLOY.md)."""


class InstanceHeader:
    """ASGI middleware naming this instance on every HTTP response (``X-Pyramids-Instance``)."""

    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app = app
        self.header = (INSTANCE_HEADER, name.encode("latin-1", "replace"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, adding the header to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), self.header]
            await send(message)

        await self.app(scope, receive, with_header)


def _netloc(scheme: str, host: str) -> str:
    """``host[:port]`` lower-cased, the scheme's default port left out."""
    host = host.strip().lower()
    default = DEFAULT_PORTS.get(scheme)
    if default is not None and host.endswith(f":{default}"):
        host = host[: -len(f":{default}")]
    return host


def normalize_origin(origin: str) -> str:
    """An origin as compared: ``scheme://host[:port]`` lower-cased, default port dropped."""
    parts = urlsplit(origin.strip())
    if not parts.scheme or not parts.netloc:
        return origin.strip().lower()
    scheme = parts.scheme.lower()
    return f"{scheme}://{_netloc(scheme, parts.netloc)}"


def is_origin_allowed(headers: Iterable[tuple[bytes, bytes]], allowed: Sequence[str]) -> bool:
    """Whether a WebSocket handshake with these headers may open: no ``Origin`` (not a
    browser), the server's own origin (the origin's host and port are the ``Host``
    header's), or an origin in ``allowed`` (``*`` allows any)."""
    origin = host = None
    for name, value in headers:
        if name == b"origin":
            origin = value.decode("latin-1")
        elif name == b"host":
            host = value.decode("latin-1")
    if origin is None:
        return True
    if "*" in allowed or normalize_origin(origin) in {normalize_origin(a) for a in allowed}:
        return True
    parts = urlsplit(origin)
    if host is None or parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return _netloc(parts.scheme, parts.netloc) == _netloc(parts.scheme, host)
