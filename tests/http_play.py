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
    the chance draw) has its own hang guard, so a long game on a busy machine is no fault.
    A seat's token may be its unused invite: its first use answers the seat's credential
    (``seat_token``), which the seat plays with from then on (the invite is dead)."""
    held = {id(seat): seat.token for seat in seats}

    def state(seat: HttpSeat) -> dict[str, Any]:
        got: dict[str, Any] = seat.http.get(
            f"/api/tables/{table}/state",
            params={"token": held[id(seat)]},
            headers=dict(seat.headers),
        ).json()
        assert "error" not in got, got
        if got.get("seat_token"):
            held[id(seat)] = got["seat_token"]
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
            json={"token": held[id(seat)], "seq": st["seq"], "action": st["legal"][0]},
            headers=dict(seat.headers),
        )
        assert r.status_code in accept, r.text


def use_invite(http: Any, table: str, invite: str, headers: Mapping[str, str] | None = None) -> str:
    """The seat's credential: the invite's first use (reading the seat's state) binds the
    seat and answers it (issue 29: an invite is used once)."""
    r = http.get(
        f"/api/tables/{table}/state", params={"token": invite}, headers=dict(headers or {})
    )
    assert r.status_code == 200, r.text
    credential = r.json()["seat_token"]
    assert credential, r.text
    return str(credential)


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
