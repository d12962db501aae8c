"""The one shape of every HTTP error, and the handlers that give it.

Every error the API answers is ``{"error": {"code", "message"}}`` with a 4xx status (5xx
only when the server failed), plus, for a refusal with catalogue words, ``refusal``
(``{"code", "data"}``: the rules' or the server's own refusal) and ``text_en``/``text_fr``: a refused request (``ProtocolError``, with ``Retry-After``
when it was rate-limited), a body that breaks the schema, an unknown path or method, and
a crash. ``create_app`` registers the handlers; the routers name their error statuses in
the OpenAPI schema with :func:`error_responses`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pyramids.server.limits import RateLimitedError
from pyramids.server.protocol import ProtocolError
from pyramids.server.schemas import ErrorOut

log = logging.getLogger("pyramids.server")

ERROR_DESCRIPTIONS: dict[int, str] = {
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
"""What each error status of the table routes means (their OpenAPI descriptions)."""

COMMON = (400, 413, 422)
"""The statuses any route with parameters or a body can answer."""

HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
"""The error code of a routing or framework error, by status (others: ``malformed``)."""


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of every error."""
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """An error as an HTTP response."""
    return JSONResponse(error_body(code, message), status_code=status)


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI response entries for error statuses."""
    return {s: {"model": ErrorOut, "description": ERROR_DESCRIPTIONS[s]} for s in statuses}


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


async def on_refused(_request: Request, exc: ProtocolError) -> JSONResponse:
    """A ``ProtocolError``: its status, code and message, with its refusal's code, facts
    and words in every language when it has them (``refusal``, ``text_en``, ``text_fr``);
    its ``seat_token`` when the refused action used its invite; ``Retry-After`` when
    rate-limited."""
    body = error_body(exc.code, exc.message)
    body["error"].update(exc.details())
    if exc.seat_token is not None:  # the refused action used its invite: hand it over
        body["error"]["seat_token"] = exc.seat_token
    response = JSONResponse(body, status_code=exc.status)
    if isinstance(exc, RateLimitedError):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def on_invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request that breaks the schema: 422 ``malformed`` (400 when the body is no JSON)."""
    status, message = describe_validation(exc)
    return error_response(status, "malformed", message)


async def on_http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """A routing or framework error (unknown path, wrong method, body too large)."""
    code = HTTP_CODES.get(exc.status_code, "malformed" if exc.status_code < 500 else "internal")
    return error_response(exc.status_code, code, str(exc.detail))


async def on_crash(_request: Request, exc: Exception) -> JSONResponse:
    """Any other exception: logged, and a 500 ``internal`` that tells nothing more."""
    log.exception("internal error: %s", exc)
    return error_response(500, "internal", "the server failed; the error is logged")


HANDLERS: tuple[tuple[type[Exception], Callable[..., Awaitable[JSONResponse]]], ...] = (
    (ProtocolError, on_refused),
    (RequestValidationError, on_invalid),
    (StarletteHTTPException, on_http),
    (Exception, on_crash),
)
"""Each exception class and its handler, as ``create_app`` registers them."""
