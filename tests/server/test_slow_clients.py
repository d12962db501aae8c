"""Limits against a real `pyramids serve` on loopback (issue 12, point 3): half-open and slow
requests are answered 408 and closed within the timeouts while normal requests keep
working; oversized heads get 431, chunked bodies over 64 KiB 413; per-address HTTP
connections, table creation (429 + Retry-After) and WebSocket floods (close 1008 with a
reason) are limited. Bounded: at most a few hundred sockets, a few seconds each.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.live import LiveServer, live_server
from tests.waiting import HANG, wait_until

HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 1.0
KEEP_ALIVE_TIMEOUT = 1.0
HALF_OPEN = 200
HTTP_CAP = 260
ENV = {
    "PYRAMIDS_EXEMPT": "",
    "PYRAMIDS_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
    "PYRAMIDS_BODY_TIMEOUT": str(BODY_TIMEOUT),
    "PYRAMIDS_KEEP_ALIVE_TIMEOUT": str(KEEP_ALIVE_TIMEOUT),
    "PYRAMIDS_MAX_HTTP_CONNECTIONS_PER_ADDRESS": str(HTTP_CAP),
    "PYRAMIDS_RATE_CREATE": "3/minute",
    "PYRAMIDS_WS_FLOOD": "5/minute",
}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """One server with short timeouts for the whole module."""
    with live_server(env=ENV) as srv:
        yield srv


@pytest.fixture
def patient_server() -> Iterator[LiveServer]:
    """The module's limits with read timeouts of ten minutes: connections that send
    nothing stay open and counted however slowly the test opens them."""
    slow = {"PYRAMIDS_HEADER_TIMEOUT": "600", "PYRAMIDS_BODY_TIMEOUT": "600"}
    with live_server(env={**ENV, **slow}) as srv:
        yield srv


def address(server: LiveServer) -> tuple[str, int]:
    """The server's host and port."""
    parts = urlsplit(server.url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def raw(server: LiveServer, data: bytes = b"") -> socket.socket:
    """A TCP connection to the server that has sent ``data``."""
    sock = socket.create_connection(address(server), timeout=10)
    if data:
        sock.sendall(data)
    return sock


def read_all(sock: socket.socket, timeout: float = HANG) -> bytes:
    """Everything the server sends until it closes the connection; AssertionError if it
    has not closed it after ``timeout`` seconds (a hang guard: every connection these
    tests open is one the server must close by itself)."""
    sock.settimeout(timeout)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        raise AssertionError(
            f"the server never closed the connection; it sent {out[:80]!r}"
        ) from None
    return out


def served(server: LiveServer, path: str) -> bool:
    """Whether GET ``path`` is answered 200 now (False for an HTTP error such as 429)."""
    try:
        return get_json(server, path)[0] == 200
    except urllib.error.HTTPError:
        return False


def get_json(server: LiveServer, path: str) -> tuple[int, Any, float]:
    """GET a path: status, JSON body, seconds taken."""
    started = time.monotonic()
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return r.status, json.loads(r.read()), time.monotonic() - started


def test_half_open_requests_are_closed_after_the_header_timeout(server: LiveServer) -> None:
    """200 connections that send nothing or half a head are answered 408 (which only the
    head timer answers) and closed by the server, not before header_timeout."""
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
    opened = time.monotonic()
    socks = [raw(server, head if i % 2 else b"") for i in range(HALF_OPEN)]
    try:
        answers = [read_all(s) for s in socks]
        closed_after = time.monotonic() - opened
    finally:
        for s in socks:
            s.close()
    assert all(a.startswith(b"HTTP/1.1 408 ") for a in answers), {a[:40] for a in answers}
    assert b'"code":"timeout"' in answers[1]
    assert closed_after >= HEADER_TIMEOUT
    assert get_json(server, "/api/games")[0] == 200


def test_half_open_requests_do_not_hold_up_the_others(patient_server: LiveServer) -> None:
    """While 200 connections that send nothing or half a head stay open (their timer ten
    minutes away), normal requests are served: a server they blocked would answer these
    only once they closed, long after the hang guard."""
    server = patient_server
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
    socks = [raw(server, head if i % 2 else b"") for i in range(HALF_OPEN)]
    try:
        for _ in range(5):
            status, body, _ = get_json(server, "/api/games")
            assert status == 200 and body["games"]
    finally:
        for s in socks:
            s.close()


def test_slow_body_is_answered_408(server: LiveServer) -> None:
    """A body that stops coming: 408 timeout after body_timeout, and the connection closes."""
    started = time.monotonic()  # before the head: the server's timer starts after it
    sock = raw(
        server,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"game":',
    )
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]
    assert time.monotonic() - started >= BODY_TIMEOUT


def test_idle_keep_alive_connection_is_closed(server: LiveServer) -> None:
    """After a complete request, an idle keep-alive connection is closed by the server, not
    before keep_alive_timeout."""
    started = time.monotonic()  # before the request: the idle timer starts after the answer
    sock = raw(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert time.monotonic() - started >= KEEP_ALIVE_TIMEOUT


def test_head_over_the_limit_is_431(server: LiveServer) -> None:
    """A request head over max_header_bytes (16 KiB): 431 too_large, connection closed."""
    sock = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n")
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
    assert b"too_large" in answer


@pytest.mark.parametrize("size", [20_000, 120_000])
def test_head_over_the_limit_in_one_write_is_431(server: LiveServer, size: int) -> None:
    """Issue 29, item 8: a whole head over 16 KiB arriving in one read (parsed in that read)
    is refused 431 too_large like one that trickles in; the application never answers it."""
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
    answer = read_all(raw(server, head))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
    assert b"too_large" in answer
    assert answer.count(b"HTTP/1.1 ") == 1, answer[:200]


def test_websocket_handshake_over_the_head_limit_is_431(server: LiveServer) -> None:
    """Issue 29, item 8: a WebSocket handshake whose head is over 16 KiB is not upgraded."""
    head = (
        b"GET /ws/tables/x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    )
    answer = read_all(raw(server, head))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]


def test_head_just_under_the_limit_is_served(server: LiveServer) -> None:
    """A head of 16,000 bytes in one write is under the cap: answered 200."""
    start = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "
    pad = 16_000 - len(start) - 4
    answer = read_all(raw(server, start + b"a" * pad + b"\r\n\r\n"))
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:80]


def test_chunked_body_over_64_kib_is_413(server: LiveServer) -> None:
    """A chunked POST (no Content-Length) of 70 KiB: 413 too_large, not 400."""
    chunk = b"a" * 1024
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(70)) + b"0\r\n\r\n"
    sock = raw(
        server,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + body,
    )
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
    assert b'"code":"too_large"' in answer


def test_http_connections_per_address_are_capped(patient_server: LiveServer) -> None:
    """max_http_connections_per_address: the connection past the cap is answered 429, and
    once the others close the address is served again. The server takes connections in
    the order they came (one listening socket), so the extra one is counted after the
    cap's worth, all of them still open: no wait is needed before it."""
    server = patient_server
    socks = [raw(server) for _ in range(HTTP_CAP)]
    try:
        extra = raw(server)
        answer = read_all(extra)
        extra.close()
    finally:
        for s in socks:
            s.close()
    assert answer.startswith(b"HTTP/1.1 429 "), answer[:80]
    assert b"too_many_connections" in answer
    wait_until(lambda: served(server, "/api/games"), "the address served again once they closed")


def test_table_creation_rate_429_with_retry_after(server: LiveServer) -> None:
    """rate_create 3/minute: the fourth creation gets 429 rate_limited with Retry-After."""
    body = json.dumps({"game": "flaming", "seats": [{"kind": "human"}, {"kind": "human"}]})
    statuses = []
    for _ in range(4):
        request = urllib.request.Request(
            server.url + "/api/tables",
            data=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                statuses.append(r.status)
                table_id = json.loads(r.read())["table"]["id"]
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
            retry_after = exc.headers["Retry-After"]
            error = json.loads(exc.read())["error"]
    assert statuses == [201, 201, 201, 429]
    assert int(retry_after) >= 1
    assert error["code"] == "rate_limited"
    ws_url = f"{server.ws_url}/ws/tables/{table_id}"
    with connect(ws_url, origin=server.url) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(10))["type"] == "hello"
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(20):
                ws.send(json.dumps({"type": "ping"}))
            for _ in range(50):
                ws.recv(10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason.startswith("rate_limited")
