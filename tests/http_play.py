"""People playing a table over HTTP: each human seat's first legal action until the end.

The server tests, the browser tests and the cluster tests all need a game played to its
end by scripted seats (bots and the chance draw play on the server meanwhile). A seat is
its token, the client it speaks through (a FastAPI ``TestClient`` or an ``httpx.Client``
with a ``base_url``: the same interface) and the headers it sends (a session's CSRF
header). Waiting for the server's own moves is a poll (``tests.waiting``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.waiting import wait_until


@dataclass(frozen=True)
class HttpSeat:
    """A human seat played over HTTP."""

    token: str
    http: Any
    """A ``TestClient`` or an ``httpx.Client`` with a ``base_url``."""
    headers: Mapping[str, str] = field(default_factory=dict)


def play_out(
    table: str, seats: Sequence[HttpSeat], *, accept: tuple[int, ...] = (200, 409)
) -> dict[str, Any]:
    """Play every seat's first legal action until the game is over; the final state
    (``to_move`` None) as the first seat that saw it. Each answer must be one of ``accept`` (409: a
    bot moved first and the action was stale). Every wait for the server (a bot thinking,
    the chance draw) has its own hang guard, so a long game on a busy machine is no fault."""

    def state(seat: HttpSeat) -> dict[str, Any]:
        got: dict[str, Any] = seat.http.get(
            f"/api/tables/{table}/state", params={"token": seat.token}, headers=dict(seat.headers)
        ).json()
        return got

    seq = [0]  # the latest seq seen: the wait's progress (a game of bots moving is no hang)

    def look() -> list[tuple[HttpSeat, dict[str, Any]]]:
        """Every seat's state once one of them has a decision or the game is over."""
        states = [(seat, state(seat)) for seat in seats]
        seq[0] = max(st["seq"] for _, st in states)
        ready = any(st["to_move"] is None or st["legal"] for _, st in states)
        return states if ready else []

    while True:
        states = wait_until(
            look, f"table {table}: a human seat's decision or the end", progress=lambda: seq[0]
        )
        over = [st for _, st in states if st["to_move"] is None]
        if over:
            return over[0]
        seat, st = next((seat, st) for seat, st in states if st["legal"])
        r = seat.http.post(
            f"/api/tables/{table}/actions",
            json={"token": seat.token, "seq": st["seq"], "action": st["legal"][0]},
            headers=dict(seat.headers),
        )
        assert r.status_code in accept, r.text


def wait_finished(http: Any, table: str) -> dict[str, Any]:
    """The summary of ``table`` once its game is over (bots and the chance draw play on the
    server). ``http``: a client (``get(path)``) or a server's base URL. The hang guard
    starts again at every move, so only a table that stopped moving fails."""
    if isinstance(http, str):
        import httpx

        with httpx.Client(base_url=http, timeout=30) as client:
            return wait_finished(client, table)
    last: list[dict[str, Any]] = [{}]  # the latest summary: its seq is the wait's progress

    def over() -> dict[str, Any] | None:
        last[0] = http.get(f"/api/tables/{table}").json()
        return last[0] if last[0]["status"] == "finished" else None

    return wait_until(over, f"table {table}: the game's end", progress=lambda: last[0].get("seq"))
