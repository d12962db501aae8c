"""Replay the attacks of issue 12 against local `pyramids serve` processes and print each result.

Every attack of the issue's "Found" list, as a loopback client would make it: the creator
choosing the seed, an invite racing a lobby claim, claiming an invited seat, a table flood,
thousands of spectators, half-open HTTP requests, an all-bot ISMCTS flood, a deeply nested
WebSocket message, a chunked body over 64 KiB, a page of another origin, SIGTERM under
load, a turn that times out. Each prints one line, e.g. ``table flood: 429 rate_limited
after 20 tables (Retry-After 58 s)``.

The script starts its own servers (fresh SQLite files in a temporary directory, ``--port 0``
on 127.0.0.1) and talks to them only over loopback. Per-address limits count the peer
address, so attacks that must not spend each other's budget come from different loopback
addresses (127.0.0.0/8 is all loopback on Linux: a socket may bind 127.0.2.7 and connect to
127.0.0.1). Everything is bounded in count and time (``--spectators``, ``--half-open``,
``--trials``; each attack has a deadline); the whole run takes about a minute.

    .venv/bin/python bench/attacks.py                 # every attack
    .venv/bin/python bench/attacks.py --only flood race
    .venv/bin/python bench/attacks.py --json          # one JSON object at the end
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pyramids.cli.serve_process import ServeProcess

HOST = "127.0.0.1"
BOT = {"kind": "bot", "bot": "greedy"}
ISMCTS = {"kind": "bot", "bot": "ismcts"}


def human(name: str | None = None) -> dict[str, Any]:
    """A human seat."""
    return {"kind": "human", **({"name": name} if name else {})}


# ---------------------------------------------------------------- servers


class Server(ServeProcess):
    """A `pyramids serve` subprocess on a free loopback port, with extra command-line args."""

    def __init__(self, data_dir: Path, name: str, args: list[str] | None = None) -> None:
        self.data_dir = data_dir / name
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.db_url = f"sqlite:///{self.data_dir / 'pyramids.db'}"
        cmd = ["--host", HOST, "--db", self.db_url, "--data-dir", str(self.data_dir)]
        super().__init__([*cmd, *(args or [])], self.data_dir / "server.stderr")


def http(server: Server, source: str = HOST, timeout: float = 30.0) -> httpx.AsyncClient:
    """An HTTP client whose connections come from loopback address ``source``."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=server.url, transport=transport, timeout=timeout)


async def ws_connect(
    server: Server, path: str, source: str = HOST, **kwargs: Any
) -> ClientConnection:
    """A WebSocket from loopback address ``source``."""
    return await connect(
        server.ws_url + path, local_addr=(source, 0), open_timeout=20, max_size=None, **kwargs
    )


async def next_message(ws: ClientConnection, timeout: float = 20.0) -> dict[str, Any]:
    """The next JSON message."""
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))


async def until(
    ws: ClientConnection, stop: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """Messages until one satisfies ``stop``."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await next_message(ws, max(0.1, deadline - time.monotonic()))
        if stop(msg):
            return msg


async def create(client: httpx.AsyncClient, seats: list[dict[str, Any]], **extra: Any) -> Any:
    """POST /api/tables."""
    return await client.post("/api/tables", json={"game": "flaming", "seats": seats, **extra})


def code_of(r: httpx.Response) -> str:
    """The error code of an error response ("" if none)."""
    try:
        return str(r.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return ""


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of ``values``, nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


# ---------------------------------------------------------------- the attacks


async def attack_seed(server: Server, _: argparse.Namespace) -> str:
    """1. The creator chooses the seed of a table with two humans."""
    async with http(server, "127.0.1.1") as c:
        r = await create(c, [human(), human()], seed=42)
        solo = await create(c, [human(), BOT], seed=42)
        seeded = solo.json()["table"].get("seeded") if solo.status_code == 201 else None
        plain = await create(c, [human(), human()])
        commitment = plain.json()["table"].get("commitment") if plain.status_code == 201 else None
    verdict = "refused" if r.status_code >= 400 else "ACCEPTED"
    return (
        f"seed chosen by creator (2 humans): {verdict} ({r.status_code} {code_of(r)}); "
        f"1 human + bots: {solo.status_code}, seeded={seeded}; "
        f"server's seed committed: {'yes' if commitment else 'NO'}"
    )


async def attack_race(server: Server, args: argparse.Namespace) -> str:
    """2. An invite's connection and a lobby claim race for one seat."""
    doubles = neither = invite_won = claim_won = 0
    for trial in range(args.trials):
        creator = f"127.0.2.{trial % 250 + 1}"
        async with http(server, creator) as c:
            r = await create(c, [human(), human()], public=True)
            if r.status_code != 201:
                return (
                    f"race invite vs claim: could not create tables ({r.status_code} {code_of(r)})"
                )
            body = r.json()
        tid, token = body["table"]["id"], body["invites"][0]["token"]

        async def by_invite(tid: str = tid, token: str = token, trial: int = trial) -> bool:
            await asyncio.sleep(random.uniform(0, 0.02))
            try:
                ws = await ws_connect(
                    server, f"/ws/tables/{tid}?token={token}", f"127.0.3.{trial % 250 + 1}"
                )
            except Exception:
                return False
            try:
                hello = await next_message(ws)
                return hello.get("type") == "hello" and hello.get("seat") == 0
            except (ConnectionClosed, TimeoutError):
                return False
            finally:
                await ws.close()

        claimer = http(server, f"127.0.4.{trial % 250 + 1}")
        await claimer.get("/api/games")  # a kept-alive connection: the claim is one request

        async def by_claim(tid: str = tid, claimer: httpx.AsyncClient = claimer) -> bool:
            await asyncio.sleep(random.uniform(0, 0.02))
            r = await claimer.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Mallory"})
            return r.status_code == 200

        try:
            a, b = await asyncio.gather(by_invite(), by_claim())
        finally:
            await claimer.aclose()
        doubles += a and b
        neither += not (a or b)
        invite_won += a and not b
        claim_won += b and not a
    return (
        f"race invite vs claim: {doubles} of {args.trials} double seats "
        f"(invite first {invite_won}, claim first {claim_won}, neither {neither})"
    )


async def attack_private(server: Server, _: argparse.Namespace) -> str:
    """3. A visitor finds an invited table in the lobby and claims its seat."""
    async with http(server, "127.0.5.1") as c:
        body = (await create(c, [human(), human()])).json()
    tid = body["table"]["id"]
    async with http(server, "127.0.5.2") as c:
        listed = any(t["id"] == tid for t in (await c.get("/api/tables")).json()["tables"])
        r = await c.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Mallory"})
    return (
        f"invited table: listed in the lobby: {'YES' if listed else 'no'}; "
        f"claim by a visitor: {r.status_code} {code_of(r)}"
    )


async def attack_flood(server: Server, args: argparse.Namespace) -> str:
    """4. One address creates tables as fast as it can (the issue: 7,500 at 100/s)."""
    made = 0
    deadline = time.monotonic() + 15
    async with http(server, "127.0.6.1") as c:
        while made < args.flood and time.monotonic() < deadline:
            r = await create(c, [human(), human()])
            if r.status_code != 201:
                retry = r.headers.get("retry-after", "-")
                return (
                    f"table flood: {r.status_code} {code_of(r)} after {made} tables "
                    f"(Retry-After {retry} s)"
                )
            made += 1
    return f"table flood: NOT LIMITED ({made} tables created)"


async def attack_expiry(_server: Server, args: argparse.Namespace) -> str:
    """4. Open tables never expire (and all are replayed at start): a server with a 2 s ttl."""
    server = Server(args.tmp, "expiry", ["--limit", "open_table_ttl=2"])
    server.start()
    try:
        async with http(server) as c:
            body = (await create(c, [human(), human()])).json()
            tid, token = body["table"]["id"], body["invites"][0]["token"]
            await asyncio.sleep(3.5)
            status = (await c.get(f"/api/tables/{tid}")).json().get("status")
        try:
            ws = await ws_connect(server, f"/ws/tables/{tid}?token={token}")
            try:
                msg = await next_message(ws)
                joined = f"{msg.get('type')} {msg.get('code', '')}".strip()
            except ConnectionClosed as exc:
                joined = f"closed {exc.rcvd.code if exc.rcvd else '?'}"
            finally:
                await ws.close()
        except Exception as exc:  # refused at the handshake
            joined = f"refused ({exc})"
    finally:
        server.stop()
    return (
        f"open table never started (ttl 2 s): status after 3.5 s {status!r}; its invite: {joined}"
    )


async def _players_table(server: Server, source: str) -> tuple[str, list[str]]:
    """A two-human table (basic preset): its id and the two tokens."""
    async with http(server, source) as c:
        body = (await create(c, [human(), human()], options={"preset": "basic"})).json()
    return body["table"]["id"], [i["token"] for i in body["invites"]]


async def _play(
    server: Server, tid: str, tokens: list[str], actions: int, source: str
) -> list[float]:
    """Both seats played through their WebSockets; each action's ack latency in ms.

    An invite's first use hands its seat's credential over in the hello (issue 29): it
    replaces the invite in ``tokens``, so that a later call opens the same seats."""
    socks = [await ws_connect(server, f"/ws/tables/{tid}?token={t}", source) for t in tokens]
    latencies: list[float] = []
    try:
        pending: dict[int, dict[str, Any]] = {}
        for i, ws in enumerate(socks):
            hello = await until(ws, lambda m: m["type"] == "hello")
            tokens[i] = hello.get("seat_token") or tokens[i]
            pending[i] = await until(ws, lambda m: m["type"] == "state")
        deadline = time.monotonic() + 60
        while len(latencies) < actions and time.monotonic() < deadline:
            latest = await _latest_states(socks, pending)
            mover = next((i for i, m in latest.items() if m.get("legal")), None)
            if mover is None:
                if all(m.get("to_move") is None for m in latest.values()):
                    break
                continue
            ws, state = socks[mover], latest[mover]
            action = {"type": "action", "id": len(latencies), "seq": state["seq"]}
            sent = time.perf_counter()
            await ws.send(json.dumps({**action, "action": state["legal"][0]}))
            while True:
                msg = await next_message(ws)
                if msg["type"] == "state":
                    pending[mover] = msg
                if msg["type"] in ("ack", "error"):
                    break
            if msg["type"] == "ack":
                latencies.append((time.perf_counter() - sent) * 1000)
            else:
                await asyncio.sleep(0.05)
    finally:
        for ws in socks:
            await ws.close()
    return latencies


async def _latest_states(
    socks: list[ClientConnection], latest: dict[int, dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Drain what each socket has queued; the newest state of each."""
    await asyncio.sleep(0)
    for i, ws in enumerate(socks):
        while True:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
            except TimeoutError:
                break
            if msg["type"] == "state":
                latest[i] = msg
    return latest


async def _spectate(
    server: Server, tid: str, count: int, sources: list[str], per_source: int
) -> tuple[list[ClientConnection], Counter[str]]:
    """Open up to ``count`` spectator sockets (``per_source`` per loopback address)."""
    outcomes: Counter[str] = Counter()
    opened: list[ClientConnection] = []
    sem = asyncio.Semaphore(100)

    async def one(i: int) -> None:
        async with sem:
            source = sources[min(len(sources) - 1, i // per_source)]
            try:
                ws = await ws_connect(server, f"/ws/tables/{tid}", source)
            except Exception as exc:
                outcomes[f"handshake failed ({type(exc).__name__})"] += 1
                return
            try:
                msg = await next_message(ws)
            except ConnectionClosed as exc:
                outcomes[f"closed {exc.rcvd.code if exc.rcvd else '?'}"] += 1
                return
            if msg.get("type") == "hello":
                outcomes["accepted"] += 1
                opened.append(ws)
            else:
                outcomes[str(msg.get("code"))] += 1
                await ws.close()

    await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(count))), 120)
    return opened, outcomes


def spectator_process(ws_url: str, tid: str, count: int, accepted: Any, done: Any) -> None:
    """In a child process: open ``count`` spectator sockets on ``tid`` (60 per loopback
    address), report how many were accepted, read everything until ``done`` is set."""

    async def main() -> None:
        server = Server.__new__(Server)
        server.ws_url = ws_url
        sources = [f"127.0.9.{i}" for i in range(1, 251)]
        opened, outcomes = await _spectate(server, tid, count, sources, 60)
        accepted.value = outcomes["accepted"]
        stop = asyncio.Event()
        drain = asyncio.create_task(_drain(opened, stop))
        while not done.is_set():
            await asyncio.sleep(0.2)
        stop.set()
        drain.cancel()
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()

    asyncio.run(main())


async def _drain(socks: list[ClientConnection], stop: asyncio.Event) -> None:
    async def read(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            while not stop.is_set():
                await ws.recv()

    await asyncio.gather(*(read(ws) for ws in socks))


async def attack_spectators(server: Server, args: argparse.Namespace) -> str:
    """4. 3,000 spectators on one table: with the default limits (one address), and with the
    limits lifted for loopback so that all of them connect (the fan-out itself)."""
    lines = []
    async with http(server, "127.0.7.1") as c:
        tid = (await create(c, [human(), human()])).json()["table"]["id"]
    opened, outcomes = await _spectate(server, tid, args.spectators, ["127.0.7.2"], args.spectators)
    for ws in opened:
        await ws.close()
    lines.append(
        f"{args.spectators:,} spectators from one address (default limits): "
        + ", ".join(f"{n} {what}" for what, n in outcomes.most_common())
    )
    lifted = Server(
        args.tmp, "fanout", ["--limit", "exempt=127.0.0.0/8", "--limit", "max_spectators=0"]
    )
    lifted.start()
    try:
        tid, tokens = await _players_table(lifted, "127.0.8.1")
        base = await _play(lifted, tid, tokens, args.actions, "127.0.8.1")
        tid, tokens = await _players_table(lifted, "127.0.8.2")
        # the spectators live in another process, so that reading their 3,000 copies of
        # each state does not delay the players' client (what is measured is the server)
        ctx = mp.get_context("spawn")
        accepted_box = ctx.Value("i", -1)
        done = ctx.Event()
        watcher = ctx.Process(
            target=spectator_process,
            args=(lifted.ws_url, tid, args.spectators, accepted_box, done),
            daemon=True,
        )
        watcher.start()
        deadline = time.monotonic() + 120
        while accepted_box.value < 0 and time.monotonic() < deadline and watcher.is_alive():
            await asyncio.sleep(0.2)
        accepted = max(0, accepted_box.value)
        loaded = await _play(lifted, tid, tokens, args.actions, "127.0.8.2")
        done.set()
        await asyncio.to_thread(watcher.join, 20)
        if watcher.is_alive():
            watcher.kill()
    finally:
        lifted.stop()
    lines.append(
        f"{accepted:,} spectators on the players' table (limits lifted): ack p50/p99 "
        f"{pct(loaded, 50):.1f}/{pct(loaded, 99):.1f} ms over {len(loaded)} actions "
        f"(no spectators: {pct(base, 50):.1f}/{pct(base, 99):.1f} ms)"
    )
    return "\n".join(lines)


async def attack_half_open(server: Server, args: argparse.Namespace) -> str:
    """4. Many HTTP requests that never finish their headers (the issue: all held after 32 s)."""
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    for i in range(args.half_open):
        try:
            reader, writer = await asyncio.open_connection(
                HOST, server.port, local_addr=(f"127.0.10.{i // 100 + 1}", 0)
            )
        except OSError:
            refused += 1
            continue
        writer.write(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append((reader, writer))
    started = time.monotonic()
    closed_at: list[float] = []
    answers: Counter[str] = Counter()

    async def wait_closed(reader: asyncio.StreamReader) -> None:
        try:
            data = await asyncio.wait_for(reader.read(), args.half_open_wait)
            closed_at.append(time.monotonic() - started)
            head = data.split(b"\r\n", 1)[0].decode("latin-1", "replace")
            answers[head.split(" ", 2)[1] if head.count(" ") >= 1 else "closed"] += 1
        except (TimeoutError, ConnectionError):
            answers["still open" if not reader.at_eof() else "reset"] += 1

    normal_ok = normal = 0
    latencies: list[float] = []

    async def normal_requests() -> None:
        nonlocal normal_ok, normal
        async with http(server, "127.0.11.1", timeout=10) as c:
            while time.monotonic() - started < min(12.0, args.half_open_wait):
                t0 = time.perf_counter()
                try:
                    r = await c.get("/api/games")
                    normal_ok += r.status_code == 200
                except httpx.HTTPError:
                    pass
                normal += 1
                latencies.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.25)

    await asyncio.gather(normal_requests(), *(wait_closed(r) for r, _ in held))
    for _, writer in held:
        writer.close()
    last = max(closed_at) if closed_at else float("nan")
    summary = ", ".join(f"{n} {what}" for what, n in answers.most_common())
    return (
        f"{args.half_open:,} half-open requests ({args.half_open // 100 + 1} addresses): "
        f"{refused} refused at connect; {summary}; all closed after {last:.1f} s; "
        f"normal requests meanwhile: {normal_ok}/{normal} OK, p99 {pct(latencies, 99):.0f} ms"
    )


async def _bot_replies(server: Server, source: str, moves: int) -> list[float]:
    """Seconds an ISMCTS bot at a table with a person takes to answer each of her moves."""
    waits: list[float] = []
    async with http(server, source) as c:
        body = (await create(c, [human(), ISMCTS], bot_delay=0, options={"preset": "basic"})).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    ws = await ws_connect(server, f"/ws/tables/{tid}?token={token}", source)
    try:
        state = await until(ws, lambda m: m["type"] == "state" and bool(m["legal"]), 60)
        deadline = time.monotonic() + 40
        while len(waits) < moves and time.monotonic() < deadline:
            action = {"type": "action", "seq": state["seq"], "action": state["legal"][0]}
            await ws.send(json.dumps(action))
            sent = time.monotonic()
            state = await until(
                ws,
                lambda m: m["type"] == "state" and (bool(m["legal"]) or m["to_move"] is None),
                60,
            )
            if state["to_move"] is None:
                break
            if state["last"] and state["last"]["seat"] != 0:
                waits.append(time.monotonic() - sent)
    finally:
        await ws.close()
    return waits


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def attack_bot_flood(server: Server, args: argparse.Namespace) -> str:
    """4. Ten all-bot tables of six ISMCTS bots, bot_delay 0, max_turns 10^30: what they
    do to a table with a person's ISMCTS bot, and to two people's acknowledgements."""
    tid, tokens = await _players_table(server, "127.0.12.4")
    acks_alone = await _play(server, tid, tokens, args.actions, "127.0.12.4")
    alone = await _bot_replies(server, "127.0.12.2", 3)
    async with http(server, "127.0.12.1") as c:
        huge = await create(c, [ISMCTS] * 6, bot_delay=0, options={"max_turns": 10**30})
        made, delays = 0, set()
        for _table in range(10):
            r = await create(c, [ISMCTS] * 6, bot_delay=0)
            if r.status_code != 201:
                break
            made += 1
            delays.add(r.json()["table"]["settings"]["bot_delay"])
    await asyncio.sleep(2)
    flooded = await _bot_replies(server, "127.0.12.3", 5)
    tid, tokens = await _players_table(server, "127.0.12.5")
    acks_flooded = await _play(server, tid, tokens, args.actions, "127.0.12.5")
    return (
        f"all-bot flood: max_turns 10^30 {huge.status_code} {code_of(huge)}; "
        f"{made} six-ISMCTS tables with bot_delay 0 accepted, bot_delay stored {sorted(delays)}; "
        f"a human table's ISMCTS reply: median {_median(flooded):.2f} s, max "
        f"{max(flooded, default=float('nan')):.2f} s during the flood ({len(flooded)} moves), "
        f"median {_median(alone):.2f} s before it; two people's ack p50/p95 "
        f"{pct(acks_flooded, 50):.1f}/{pct(acks_flooded, 95):.1f} ms during it over "
        f"{len(acks_flooded)} actions ({pct(acks_alone, 50):.1f}/{pct(acks_alone, 95):.1f} ms "
        "before)"
    )


async def attack_nesting(server: Server, _: argparse.Namespace) -> str:
    """6. A WebSocket message nested 2,000 deep (the issue: closed silently, RecursionError)."""
    async with http(server, "127.0.13.1") as c:
        tid = (await create(c, [human(), human()])).json()["table"]["id"]
    ws = await ws_connect(server, f"/ws/tables/{tid}", "127.0.13.1")
    try:
        await until(ws, lambda m: m["type"] == "hello")
        await ws.send("[" * 2000 + "]" * 2000)
        answer = await until(ws, lambda m: m["type"] in ("error", "pong"))
        await ws.send(json.dumps({"type": "ping", "id": 1}))
        pong = await until(ws, lambda m: m["type"] == "pong")
        alive = "socket still open" if pong else "closed"
        return f"deep nesting (2,000): {answer.get('code')} ({answer.get('message')}); {alive}"
    except ConnectionClosed as exc:
        return f"deep nesting (2,000): SOCKET CLOSED ({exc.rcvd.code if exc.rcvd else '?'})"
    finally:
        await ws.close()


async def attack_chunked(server: Server, _: argparse.Namespace) -> str:
    """6. A chunked request body over 64 KiB (the issue: 400 instead of the documented 413)."""
    reader, writer = await asyncio.open_connection(HOST, server.port, local_addr=("127.0.14.1", 0))
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    received = bytearray()

    async def read_all() -> None:
        # read while the body is still being sent: the server answers 413 and closes once
        # it has 64 KiB, and the unread rest of the body makes its kernel reset the
        # connection; what has arrived by then is kept (a read after the writes could lose it)
        try:
            while chunk := await reader.read(65536):
                received.extend(chunk)
        except ConnectionError:
            pass

    reading = asyncio.create_task(read_all())
    writer.write(head.encode())
    chunk = b'{"game":"flaming","seats":[' + b" " * 4000
    sent = 0
    try:
        while sent < 65 * 1024 + 1 and not reading.done():
            writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            await writer.drain()
            sent += len(chunk)
            chunk = b" " * 4096
        writer.write(b"0\r\n\r\n")
        await writer.drain()
    except ConnectionError:
        pass
    await asyncio.wait_for(reading, 20)
    data = bytes(received)
    writer.close()
    status = data.split(b"\r\n", 1)[0].decode("latin-1")
    body = data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in data else b""
    match = re.search(rb'"code":"(\w+)"', body)
    code = match.group(1).decode() if match else ""
    return (
        f"chunked body of {sent:,} bytes (over 64 KiB): "
        f"{status.split(' ', 1)[1] if ' ' in status else status} {code}"
    )


async def attack_origin(server: Server, _: argparse.Namespace) -> str:
    """6. A page of another site opens a table socket in a visitor's name."""
    async with http(server, "127.0.15.1") as c:
        tid = (await create(c, [human(), human()])).json()["table"]["id"]
    ws = await ws_connect(
        server,
        f"/ws/tables/{tid}",
        "127.0.15.1",
        origin="http://evil.example",
    )
    try:
        msg = await next_message(ws)
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            await next_message(ws, 5)
        code = ws.close_code
        verdict = "refused" if msg.get("type") == "error" else "ACCEPTED"
        return f"bad Origin (http://evil.example): {verdict}: {msg.get('code')}, close {code}"
    except ConnectionClosed as exc:
        return f"bad Origin: refused, close {exc.rcvd.code if exc.rcvd else '?'}"
    finally:
        await ws.close()


async def attack_headers(server: Server, _: argparse.Namespace) -> str:
    """6. No CSP, X-Frame-Options or Referrer-Policy."""
    async with http(server, "127.0.16.1") as c:
        r = await c.get("/")
    names = [
        "content-security-policy",
        "x-frame-options",
        "referrer-policy",
        "x-content-type-options",
    ]
    missing = [n for n in names if n not in r.headers]
    csp = r.headers.get("content-security-policy", "")
    inline = "unsafe-inline" in csp
    return (
        f"security headers on /: {'all present' if not missing else 'MISSING ' + ', '.join(missing)}"
        f"; CSP allows inline script: {'YES' if inline else 'no'}; "
        f"X-Frame-Options {r.headers.get('x-frame-options')}, Referrer-Policy "
        f"{r.headers.get('referrer-policy')}"
    )


async def attack_timeout_notice(server: Server, _: argparse.Namespace) -> str:
    """6. When a turn times out a move is made in the player's name with no notice."""
    async with http(server, "127.0.17.1") as c:
        body = (
            await create(c, [human("Alice"), BOT], turn_time=0.2, options={"preset": "basic"})
        ).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    ws = await ws_connect(server, f"/ws/tables/{tid}?token={token}", "127.0.17.1")
    try:
        msg = await until(
            ws,
            lambda m: m["type"] == "state" and bool(m.get("last")) and m["last"]["seat"] == 0,
            30,
        )
    finally:
        await ws.close()
    notices = [e for e in msg["last"]["events"] if e.get("kind") == "stand_in"]
    if not notices:
        return "turn timed out: NO NOTICE in the log entry"
    return f'turn timed out: the log says "{notices[0]["text_en"]}" / "{notices[0]["text_fr"]}"'


async def attack_stall(server: Server, args: argparse.Namespace) -> str:
    """Issue 29, 4. A rated game stalled for ever: with the defaults a player who keeps a
    socket open and never moves is never taken over. The main server shows the defaults
    (a rated table's turn time, the ceiling); a second one, whose defaults are 1 s
    (``PYRAMIDS_RATED_TURN_TIME``), lets Alice stall a rated table to its end."""
    async with http(server, "127.0.18.1") as c:
        r = await create(c, [human("Alice"), BOT], rated=True)
        default = r.json()["table"]["settings"]["turn_time"] if r.status_code == 201 else None
        long = await create(c, [human("Alice"), BOT], rated=True, turn_time=86400)
    quick = Server(args.tmp, "stall")
    quick.env = {"PYRAMIDS_RATED_TURN_TIME": "1", "PYRAMIDS_TURN_TIME": "1"}
    quick.start()
    try:
        async with http(quick) as c:
            body = (await create(c, [human("Alice"), BOT], rated=True)).json()
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        ws = await ws_connect(quick, f"/ws/tables/{tid}?token={token}")
        notices: list[str] = []
        end: dict[str, Any] = {}
        try:
            while not end:
                msg = await until(ws, lambda m: m["type"] == "state", 60)
                last = msg.get("last") or {}
                if last.get("seat") == 0 and last.get("events"):
                    notices.append(str(last["events"][0].get("text_en", "")))
                if msg["status"] == "finished":
                    end = msg
        finally:
            await ws.close()
    finally:
        quick.stop()
    said = "; ".join(dict.fromkeys(n for n in notices if n))
    verdict = "held" if end.get("ended") == "forfeit" and default else "STALLED"
    return (
        f"stall (rated table, defaults, socket open, no move): {verdict}: turn time "
        f"{default} s by default; a day asked: {long.status_code} {code_of(long)}; with 1 s "
        f'defaults the log says "{said}", ranking {end.get("ranking")} ({end.get("ended")})'
    )


async def attack_shutdown(_server: Server, args: argparse.Namespace) -> str:
    """6. SIGTERM under heavy bot load (the issue: over 4 s)."""
    server = Server(args.tmp, "shutdown", ["--limit", "exempt=127.0.0.0/8"])
    server.start()
    watchers: list[ClientConnection] = []
    try:
        ids = []
        async with http(server) as c:
            for _ in range(10):
                r = await create(c, [ISMCTS] * 6, bot_delay=0)
                if r.status_code == 201:
                    ids.append(r.json()["table"]["id"])
        for i in range(50):
            watchers.append(await ws_connect(server, f"/ws/tables/{ids[i % len(ids)]}"))
        await asyncio.sleep(3)
        took = await asyncio.to_thread(server.stop)
        status = server.proc.returncode if server.proc else None
    finally:
        for ws in watchers:
            with contextlib.suppress(Exception):
                await ws.close()
        server.kill()
    return (
        f"SIGTERM with {len(ids)} six-ISMCTS tables and {len(watchers)} sockets: "
        f"exited in {took:.2f} s (status {status})"
    )


async def attack_failed_write(_server: Server, _: argparse.Namespace) -> str:
    """5. One failed write froze a table: needs a store that fails, so it is a test."""
    return (
        "failed bot/chance write: not replayable from outside (needs a failing store); "
        "see tests/server/test_self_healing.py (a store that fails N times, then recovers)"
    )


# ---------------------------------------------------------------- issue 29: seats


async def _refusal(ws: ClientConnection) -> str:
    """The error code a refused socket got, and its close code."""
    msg: dict[str, Any] = {}
    try:
        msg = await next_message(ws)
        if msg.get("type") != "error":
            return f"ACCEPTED ({msg.get('type')})"
        await next_message(ws)
    except ConnectionClosed as exc:
        return f"{msg.get('code')}, close {exc.rcvd.code if exc.rcvd else '?'}"
    finally:
        await ws.close()
    return f"{msg.get('code')}, not closed"


async def attack_kept_invite(server: Server, args: argparse.Namespace) -> str:
    """29.1. The creator keeps the friend's invite and uses it after the friend took the seat:
    reads their hand, plays for them, chats as them, takes their seat at the rematch."""
    creator, friend = "127.0.30.1", "127.0.30.2"
    async with http(server, creator) as c:
        r = await create(c, [human("Creator"), human("Friend")], options={"preset": "basic"})
        body = r.json()
        tid = body["table"]["id"]
        own, kept = body["invites"][0]["token"], body["invites"][1]["token"]
        ws = await ws_connect(server, f"/ws/tables/{tid}?token={kept}", friend)
        try:
            hello = await until(ws, lambda m: m["type"] == "hello")
            credential = hello.get("seat_token")
            await c.get(f"/api/tables/{tid}/state", params={"token": own})
            state = await c.get(f"/api/tables/{tid}/state", params={"token": kept})
            act = await c.post(
                f"/api/tables/{tid}/actions", json={"token": kept, "seq": 0, "action": "left"}
            )
            said = await c.get(f"/api/tables/{tid}/chat", params={"token": kept})
            socket = await _refusal(await ws_connect(server, f"/ws/tables/{tid}?token={kept}"))
        finally:
            await ws.close()
        one_turn = {"preset": "basic", "max_turns": 1}
        done = (await create(c, [human(), human()], options=one_turn)).json()
        did, invites = done["table"]["id"], [i["token"] for i in done["invites"]]
    # uses both invites, to the end (on a copy: _play puts the credentials in its list)
    await _play(server, did, list(invites), 10_000, friend)
    async with http(server, creator) as c:
        rematch = await c.post(f"/api/tables/{did}/rematch", json={"token": invites[1]})
    answers = {
        "state": state,
        "action": act,
        "chat": said,
        "rematch": rematch,
    }
    refused = all(a.status_code == 403 for a in answers.values()) and "ACCEPTED" not in socket
    told = ", ".join(f"{k} {a.status_code} {code_of(a)}" for k, a in answers.items())
    return (
        f"creator's kept invite after the friend took the seat: "
        f"{'refused' if refused else 'ACCEPTED'} ({told}, socket {socket}); "
        f"the friend got a credential of their own: {'yes' if credential else 'NO'}: "
        f"{verdict(refused and bool(credential))}"
    )


async def attack_deal_shopping(server: Server, args: argparse.Namespace) -> str:
    """29.2. The creator looks at deals before sending an invite: its own seat's hand, and the
    friend's through the friend's invite, while the table is open."""
    async with http(server, "127.0.31.1") as c:
        body = (await create(c, [human(), human(), human()])).json()
        tid = body["table"]["id"]
        own = await c.get(f"/api/tables/{tid}/state", params={"token": body["invites"][0]["token"]})
        peek = await c.get(
            f"/api/tables/{tid}/state", params={"token": body["invites"][1]["token"]}
        )
    async with http(server, "127.0.31.2") as friend:
        late = await friend.get(
            f"/api/tables/{tid}/state", params={"token": body["invites"][1]["token"]}
        )
    hands = [r.json().get("view", {}).get("hand") for r in (own, peek)]
    shown = [h is not None for h in hands]
    return (
        f"deal shopping on an open table: own hand {'SHOWN' if shown[0] else 'hidden'}, "
        f"friend's hand through its invite {'SHOWN' if shown[1] else 'hidden'}; "
        f"the friend's link after the peek: {late.status_code} {code_of(late)}: "
        f"{verdict(not any(shown))}"
    )


async def attack_cross_site_binding(server: Server, args: argparse.Namespace) -> str:
    """29.3. A page of another site sends a logged-in visitor to an invite of the attacker's
    table (top-level navigation: the SameSite=Lax cookie goes along), binding the seat to
    the visitor's account."""
    source = "127.0.32.1"
    async with http(server, "127.0.32.2") as attacker:
        body = (await create(attacker, [human(), human(), human()], rated=True)).json()
    tid = body["table"]["id"]
    tokens = [i["token"] for i in body["invites"]]
    name = f"victim{random.randrange(10**6)}"
    async with http(server, source) as victim:
        r = await victim.post("/api/accounts", json={"name": name, "password": "a long secret"})
        if r.status_code != 201:
            return f"cross-site seat binding: could not sign up ({r.status_code} {code_of(r)})"
        cookie = "; ".join(f"{k}={v}" for k, v in victim.cookies.items())
        navigation = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
        await victim.get(
            f"/api/tables/{tid}/state", params={"token": tokens[1]}, headers=navigation
        )
        await victim.get(f"/t/{tid}", params={"token": tokens[2]}, headers=navigation)
    # the table page then opens its socket with the invite, from the server's own origin
    ws = await ws_connect(
        server,
        f"/ws/tables/{tid}?token={tokens[2]}",
        source,
        additional_headers={"Cookie": cookie, "Origin": server.url},
    )
    await ws.close()
    async with http(server, source) as c:
        seats = (await c.get(f"/api/tables/{tid}")).json()["seats"]
    bound = [s["account"] for s in seats[1:]]
    bound_to = "BOUND to the visitor's account" if any(bound) else "not bound to any account"
    return (
        f"cross-site navigation to an invite while logged in (state, table page): "
        f"{bound_to} (seats claimed: {[s['claimed'] for s in seats[1:]]}): "
        f"{verdict(not any(bound))}"
    )


# ---------------------------------------------------------------- issue 29, items 8-10, 12


MEMORY_ALLOWANCE_MB = 80.0
"""What the memory attack's games may add to the server: the finished-table cache's bound
(``finished_cache_bytes``, 64 MiB) and the allocator's slack."""


def verdict(held: bool) -> str:
    """The verdict of an attack of issue 29: the defence held, or it broke."""
    return "held" if held else "BROKEN"


async def _head_status(server: Server, head: bytes, source: str) -> str:
    """The status line the server answers a request head sent in one write."""
    reader, writer = await asyncio.open_connection(HOST, server.port, local_addr=(source, 0))
    try:
        writer.write(head)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 20)
        return line.decode("latin-1").strip() or "closed without an answer"
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def attack_head_one_write(server: Server, _: argparse.Namespace) -> str:
    """29.8. Request heads of 20 KB and 120 KB sent in one write (the issue: 200, the 16 KiB
    limit held only for heads that arrived in several reads)."""
    answers = []
    for size in (20_000, 120_000, 250_000):
        head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
        status = await _head_status(server, head, "127.0.29.8")
        answers.append(f"{size // 1000} KB: {status.removeprefix('HTTP/1.1 ')}")
    held = all(": 431 " in a for a in answers)
    return f"request head in one write: {'; '.join(answers)}: {verdict(held)}"


def _stderr_lines(server: Server) -> int:
    with contextlib.suppress(OSError):
        return len(server.stderr_path.read_text(encoding="utf-8", errors="replace").splitlines())
    return 0


async def attack_ws_malformed(server: Server, _: argparse.Namespace) -> str:
    """29.9. Table-socket messages that crashed the handler: a list or an object as the
    type, an id with a lone surrogate (the issue: socket closed, 100 log lines each)."""
    async with http(server, "127.0.29.9") as c:
        tid = (await create(c, [human(), human()])).json()["table"]["id"]
    ws = await ws_connect(server, f"/ws/tables/{tid}", "127.0.29.9")
    lines0 = _stderr_lines(server)
    answers = []
    try:
        await until(ws, lambda m: m["type"] == "hello")
        for raw in ('{"type": []}', '{"type": {}}', '{"type": "ping", "id": "\\udc80"}'):
            await ws.send(raw)
            answer = await until(ws, lambda m: m["type"] in ("error", "pong"))
            answers.append(f"{raw} -> {answer.get('code', answer['type'])}")
        await ws.send(json.dumps({"type": "ping", "id": "alive"}))
        await until(ws, lambda m: m["type"] == "pong" and m.get("id") == "alive")
        alive = "socket still open"
    except ConnectionClosed as exc:
        alive = f"SOCKET CLOSED ({exc.rcvd.code if exc.rcvd else '?'})"
    finally:
        await ws.close()
    logged = _stderr_lines(server) - lines0
    held = (
        len(answers) == 3
        and all(a.endswith("malformed") for a in answers)
        and alive == "socket still open"
        and logged <= len(answers)
    )
    return (
        f"malformed socket messages: {'; '.join(answers)}; {alive}; {logged} log lines: "
        f"{verdict(held)}"
    )


async def _abandon(server: Server, source: str) -> str:
    """A table of a human seat and two ISMCTS bots whose human seat is bound (its socket
    opened) and abandoned at once; a takeover bot plays it after 1 s."""
    async with http(server, source) as c:
        body = (
            await create(c, [human(), ISMCTS, ISMCTS], bot_delay=0, absent_after=1, turn_time=0)
        ).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    ws = await ws_connect(server, f"/ws/tables/{tid}?token={token}", source)
    await until(ws, lambda m: m["type"] == "state")
    await ws.close()
    return str(tid)


async def attack_search_starve(server: Server, args: argparse.Namespace) -> str:
    """29.10. Tables whose one human seat is bound and abandoned (a bot takes it over), with
    ISMCTS bots: did they starve a real person's ISMCTS bot (the issue: 60 such tables
    from 6 addresses, the reply's p50 from 42 ms to 767 ms)?"""
    alone = await _bot_replies(server, "127.0.29.1", 3)
    sources = [f"127.0.29.{20 + i}" for i in range(max(1, args.abandoned // 10))]
    made = 0
    for i in range(args.abandoned):
        with contextlib.suppress(Exception):
            await _abandon(server, sources[i % len(sources)])
            made += 1
    await asyncio.sleep(3)  # past their absence time: every abandoned seat is taken over
    during = await _bot_replies(server, "127.0.29.2", 5)
    held = bool(during) and _median(during) <= 2 * _median(alone) + 0.2
    return (
        f"abandoned seats: {made} tables of a bound, abandoned seat and two ISMCTS bots from "
        f"{len(sources)} addresses; a person's ISMCTS reply median {_median(during):.2f} s "
        f"(max {max(during, default=float('nan')):.2f} s, {len(during)} moves) during them, "
        f"median {_median(alone):.2f} s before: {verdict(held)}"
    )


def _rss_mb(server: Server) -> float:
    """The server process's resident memory in MB (/proc)."""
    pid = server.pid
    if pid is None:
        return float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _play_out(server: Server, source: str) -> str:
    """A two-human table played to its end over both seats' sockets."""
    tid, tokens = await _players_table(server, source)
    async with http(server, source) as c:
        # 80 actions per pair of sockets: under ws_flood's 100 messages per socket
        while (await c.get(f"/api/tables/{tid}")).json()["status"] != "finished":
            await _play(server, tid, tokens, 80, source)
    return tid


async def attack_memory(server: Server, args: argparse.Namespace) -> str:
    """29.12. Finished games held in memory (the issue: 176 MB grew to 874 MB over a long
    run of attacks and never came back): RSS before and after ``--games`` games played to
    the end and each read again; the soak is ``bench/server_load.py --soak``."""
    before = _rss_mb(server)
    sources = [f"127.0.29.{100 + i}" for i in range(args.games)]
    ids = await asyncio.gather(*(_play_out(server, s) for s in sources))
    played = _rss_mb(server)
    async with http(server, "127.0.29.99") as c:
        for tid in ids:
            await c.get(f"/api/tables/{tid}/record")
    reread = _rss_mb(server)
    held = reread - before <= MEMORY_ALLOWANCE_MB
    return (
        f"memory: {len(ids)} games played to the end: server RSS {before:.0f} MB -> "
        f"{played:.0f} MB; each record read again: {reread:.0f} MB (allowed: "
        f"+{MEMORY_ALLOWANCE_MB:.0f} MB, the finished-table cache's 64 MiB and some): "
        f"{verdict(held)}"
    )


LOOK_ALIKES = {
    "Cyrillic \u0410nna": "\u0410nna",
    "Cyrillic \u041caria": "\u041caria",
    "Armenian \u0578 for n": "An\u0578a",
    "combining grapheme joiner": "An\u034fna",
    "trailing Hangul filler": "Anna\u3164",
    "d\u0435leted_player (Cyrillic \u0435)": "d\u0435leted_player",
    "all-Cyrillic \u0430\u0441\u0435 after ace": "\u0430\u0441\u0435",
    "PayPaI (capital I) after paypal": "PayPaI",
}
"""Issue 29, item 5: names that look like another (the last two after "ace" and "paypal")."""


async def attack_look_alike_names(server: Server, _: argparse.Namespace) -> str:
    """29.5. Sign up names that look like others' (each from its own address: the sign-up
    limit is per address)."""
    body = {"password": "correct horse battery"}
    results: list[str] = []
    refused = 0
    async with http(server, "127.0.29.1") as c:
        for taken in ("ace", "paypal"):
            await c.post("/api/accounts", json={"name": taken, **body})
    for i, (label, name) in enumerate(LOOK_ALIKES.items()):
        async with http(server, f"127.0.29.{i + 2}") as c:
            r = await c.post("/api/accounts", json={"name": name, **body})
        refused += r.status_code >= 400
        verdict = f"{r.status_code} {code_of(r)}" if r.status_code >= 400 else "ACCEPTED"
        results.append(f"{label}: {verdict}")
    return f"look-alike names: {refused} of {len(LOOK_ALIKES)} refused ({'; '.join(results)})"


INVISIBLE_CHAT = {
    "ZWSP": "\u200b",
    "ZWJ": "\u200d",
    "BOM": "\ufeff",
    "LRM/RLM": "\u200e\u200f",
    "tag characters": "".join(chr(0xE0000 + ord(c)) for c in "hidden"),
    "Hangul filler": "\u3164",
    "a letter with 299 marks": "a" + "\u0301" * 299,
}
"""Issue 29, item 11: chat lines that show nothing (or a tower of marks)."""


async def attack_invisible_text(server: Server, _: argparse.Namespace) -> str:
    """29.11. A seat named "\\u3164", invisible-only chat lines, a letter with 299 marks,
    and ASCII smuggled in tag characters after a visible word."""
    async with http(server, "127.0.30.1") as c:
        seat = await create(c, [human("\u3164"), BOT])
        body = (await create(c, [human(), human()], options={"preset": "basic"})).json()
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    ws = await ws_connect(server, f"/ws/tables/{tid}?token={token}", "127.0.30.1")
    answers: list[str] = []
    try:
        token = (await until(ws, lambda m: m["type"] == "hello"))["seat_token"]  # issue 29
        await until(ws, lambda m: m["type"] == "state")
        for label, text in [
            *INVISIBLE_CHAT.items(),
            ("smuggled", "gg" + INVISIBLE_CHAT["tag characters"]),
        ]:
            await ws.send(json.dumps({"type": "chat", "id": label, "text": text}))
            reply = await until(ws, lambda m, i=label: m.get("id") == i)
            accepted = "ack" if label == "smuggled" else "ACCEPTED"  # it shows "gg": fine
            answers.append(f"{label}: {reply.get('code') or accepted}")
    finally:
        await ws.close()
    async with http(server, "127.0.30.1") as c:
        lines = (await c.get(f"/api/tables/{tid}/chat", params={"token": token})).json()
    stored = [m["text"] for m in lines.get("messages", [])]
    seat_verdict = f"{seat.status_code} {code_of(seat)}" if seat.status_code >= 400 else "ACCEPTED"
    return (
        f"invisible text: seat named \\u3164: {seat_verdict}; chat {'; '.join(answers)}; "
        f"stored {stored!r} (tags {'REMAIN' if any(ord(ch) >= 0xE0000 for t in stored for ch in t) else 'removed'})"
    )


# ---------------------------------------------------------------- issue 29: records, rematches


async def _finished_die_table(server: Server) -> tuple[str, dict[str, Any]]:
    """A finished all-bot Flaming table that rolled the fire die: its id and record."""
    from pyramids.core import GameRecord
    from pyramids.core.fairness import verify_record
    from pyramids.games import make_game

    bots = [BOT, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    async with http(server) as c:
        for _ in range(8):  # about 1 game in 27 rolls no die with another face possible
            r = await create(c, bots, options={"fire_die": True}, bot_delay=0)
            tid = r.json()["table"]["id"]
            while (await c.get(f"/api/tables/{tid}")).json()["status"] != "finished":
                await asyncio.sleep(0.1)
            record = (await c.get(f"/api/tables/{tid}/record")).json()
            rec = GameRecord.from_json(record)
            if verify_record(make_game(rec.game, 3, rec.options), rec).chance_draws:
                return tid, record
    raise RuntimeError("8 games without a fire-die roll")


def _pyramids_verify(path: Path) -> tuple[int, str]:
    """Run `pyramids verify PATH`: its exit status and its last line."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "pyramids.cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    return done.returncode, lines[0] if lines else ""


async def attack_forged_forfeit(_server: Server, args: argparse.Namespace) -> str:
    """Issue 29, 6. A record cut to 10 actions, "forfeits":[0,2], "ended":"forfeit" (no
    times): `pyramids verify` said verified, and the winner changed."""
    server = Server(args.tmp, "records", ["--limit", "min_all_bot_delay=0"])
    server.start()
    try:
        _tid, record = await _finished_die_table(server)
    finally:
        server.stop()
    keep = ("times", "started", "finished", "clock", "forfeited_at", "played_by", "turn_time")
    forged = {k: v for k, v in record.items() if k not in keep}
    forged.update(actions=record["actions"][:10], forfeits=[0, 2], ended="forfeit")
    path = args.tmp / "forged-forfeit.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    status, line = await asyncio.to_thread(_pyramids_verify, path)
    verdict = "refused" if status != 0 else "VERIFIED"
    return (
        f"forged forfeit (10 actions, forfeits [0, 2], no times): {verdict}: exit {status}: {line}"
    )


async def attack_changed_die(_server: Server, args: argparse.Namespace) -> str:
    """Issue 29, 6. A die roll changed in the database: the replay page said "Verified" (it
    checked only the commitment); it now shows GET /api/tables/{id}/verify."""
    import sqlalchemy as sa

    from pyramids.core import CHANCE, GameRecord
    from pyramids.games import make_game

    server = Server(args.tmp, "die", ["--limit", "min_all_bot_delay=0"])
    server.start()
    try:
        tid, record = await _finished_die_table(server)
        rec = GameRecord.from_json(record)
        state = make_game(rec.game, 3, rec.options).new_initial_state(rec.seed)
        seq, other = 0, ""
        for index, text in enumerate(rec.actions):
            if state.current_player() == CHANCE and len(state.chance_outcomes()) > 1:
                faces = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
                seq, other = index + 1, next(f for f in faces if f != text)
            state.apply(state.parse_action(text))
        engine = sa.create_engine(server.db_url)
        try:
            with engine.begin() as conn:
                conn.execute(
                    sa.text("UPDATE actions SET action = :a WHERE table_id = :t AND seq = :s"),
                    {"a": other, "t": tid, "s": seq},
                )
        finally:
            engine.dispose()
        async with http(server) as c:
            answer = await c.get(f"/api/tables/{tid}/verify")
    finally:
        server.stop()
    if answer.status_code != 200:
        return (
            f"die roll at seq {seq} changed in the database: no full check to show "
            f"(GET /api/tables/{{id}}/verify: {answer.status_code} {code_of(answer)}): the "
            "page checks only the commitment and says VERIFIED"
        )
    checked = answer.json()
    failure = checked.get("failure") or {}
    steps = ", ".join(f"{s['step']} {s['status']}" for s in checked.get("steps", []))
    verdict = "VERIFIED" if checked.get("verified") else "not verified"
    return (
        f"die roll at seq {seq} changed in the database: the replay page's check says "
        f"{verdict} ({steps}); first failure: {failure.get('message', '-')}"
    )


async def attack_private_rematch(server: Server, _: argparse.Namespace) -> str:
    """Issue 29, 7. A private table's rematch found through its rematch_id and
    /api/matches/{id}, and watched."""
    one_turn = {"preset": "basic", "max_turns": 1}
    async with http(server, "127.0.31.1") as c:
        body = (await create(c, [human("Ann"), BOT], options=one_turn, bot_delay=0)).json()
        tid, token = body["table"]["id"], body["invites"][0]["token"]
        while True:
            st = (await c.get(f"/api/tables/{tid}/state", params={"token": token})).json()
            token = st.get("seat_token") or token  # the invite's first use hands the credential
            if st["to_move"] is None:
                break
            if st["legal"]:
                move = {"token": token, "seq": st["seq"], "action": st["legal"][0]}
                await c.post(f"/api/tables/{tid}/actions", json=move)
            else:
                await asyncio.sleep(0.05)
        new = (await c.post(f"/api/tables/{tid}/rematch", json={"token": token})).json()
    async with http(server, "127.0.31.2") as c:  # an outsider who knows the old table's id
        shown = (await c.get(f"/api/tables/{tid}")).json().get("rematch_id")
        match = await c.get(f"/api/matches/{tid}")
        listed = [t["id"] for t in match.json().get("tables", [])] if match.is_success else []
    found = bool(shown) or new["table"]["id"] in listed
    return (
        f"private rematch by an outsider: {'FOUND' if found else 'not found'} (rematch_id "
        f"{shown!r}; /api/matches: {match.status_code} {code_of(match) or listed}): "
        f"{verdict(not found)}"
    )


async def _seated(server: Server, source: str, game: str = "flaming") -> tuple[str, str]:
    """A table of one human seat and a greedy bot (bot_delay 0), seeded by ``source`` (so
    that tables from different addresses are different games): id, credential."""
    seed = int(source.replace(".", "")) % 1000
    async with http(server, source) as c:
        r = await c.post(
            "/api/tables",
            json={"game": game, "seats": [human(), BOT], "seed": seed, "bot_delay": 0},
        )
        body = r.json()
        tid, invite = body["table"]["id"], body["invites"][0]["token"]
        state = (await c.get(f"/api/tables/{tid}/state", params={"token": invite})).json()
    return tid, state["seat_token"]


async def _my_turn(c: httpx.AsyncClient, tid: str, token: str) -> dict[str, Any]:
    """The seat's state once it has a decision (or the game is over)."""
    for _ in range(400):
        state: dict[str, Any] = (
            await c.get(f"/api/tables/{tid}/state", params={"token": token})
        ).json()
        if state.get("legal") or state.get("to_move") is None:
            return state
        await asyncio.sleep(0.05)
    raise TimeoutError(f"table {tid}: no decision for seat 0")


async def _move(c: httpx.AsyncClient, tid: str, token: str, state: dict[str, Any]) -> None:
    await c.post(
        f"/api/tables/{tid}/actions",
        json={"token": token, "seq": state["seq"], "action": state["legal"][0]},
    )


async def _hint_until_refused(
    server: Server, tid: str, token: str, sources: list[str], most: int
) -> tuple[int, httpx.Response | None]:
    """New hints at successive decisions of one table, the n-th from ``sources[n %
    len]``, until one is refused: (hints given, the refusal)."""
    given = 0
    async with http(server, sources[0]) as mover:
        while given < most:
            state = await _my_turn(mover, tid, token)
            if state.get("to_move") is None:
                break
            async with http(server, sources[given % len(sources)]) as asker:
                r = await asker.post(
                    f"/api/tables/{tid}/hint", json={"token": token, "seq": state["seq"]}
                )
            if r.status_code not in (200, 202):
                return given, r
            given += 1
            await _move(mover, tid, token, state)
    return given, None


async def attack_hint_flood(server: Server, args: argparse.Namespace) -> str:
    """30. Hints flooded: one address at decision after decision (``rate_hint``), one
    table from many addresses (``rate_hint_table``), one decision asked 50 times (one
    search), many tables at once (``max_hints_waiting``), spectators and strangers; and
    what the flood does to a table with a person's ISMCTS bot."""
    alone = await _bot_replies(server, "127.0.30.1", 3)
    tid, token = await _seated(server, "127.0.30.2")
    per_address, refused = await _hint_until_refused(server, tid, token, ["127.0.30.3"], 20)
    address_line = (
        f"{refused.status_code} {code_of(refused)} after {per_address} new hints"
        if refused is not None
        else f"NOT LIMITED ({per_address} hints)"
    )
    tid, token = await _seated(server, "127.0.30.4")
    sources = [f"127.0.31.{i}" for i in range(1, 41)]
    per_table, refused_table = await _hint_until_refused(server, tid, token, sources, 40)
    table_line = (
        f"{refused_table.status_code} {code_of(refused_table)} after {per_table} new hints "
        "from as many addresses"
        if refused_table is not None
        else f"NOT LIMITED ({per_table} hints)"
    )
    tid, token = await _seated(server, "127.0.30.5")
    async with http(server, "127.0.30.6") as c:
        state = await _my_turn(c, tid, token)
        body = {"token": token, "seq": state["seq"]}
        repeats = [await c.post(f"/api/tables/{tid}/hint", json=body) for _ in range(50)]
        spectator = await c.post(f"/api/tables/{tid}/hint", json={"seq": state["seq"]})
        stranger = await c.post(
            f"/api/tables/{tid}/hint", json={"token": "x" * 43, "seq": state["seq"]}
        )
    repeat_codes = Counter(r.status_code for r in repeats)
    tables = [await _seated(server, f"127.0.32.{i}", "flags") for i in range(1, 25)]
    states = []
    for i, (t, k) in enumerate(tables):
        async with http(server, f"127.0.32.{i + 1}") as c:
            states.append(await _my_turn(c, t, k))

    async def ask(i: int) -> httpx.Response:
        t, k = tables[i]
        async with http(server, f"127.0.33.{i + 1}") as c:
            return await c.post(f"/api/tables/{t}/hint", json={"token": k, "seq": states[i]["seq"]})

    burst, flooded = await asyncio.gather(
        asyncio.gather(*(ask(i) for i in range(len(tables)))),
        _bot_replies(server, "127.0.30.7", 3),
    )
    burst_codes = Counter(f"{r.status_code} {code_of(r)}".strip() for r in burst)
    held = (
        refused is not None
        and code_of(refused) == "rate_limited"
        and refused_table is not None
        and code_of(refused_table) == "rate_limited"
        and set(repeat_codes) <= {200, 202}
        and code_of(spectator) == "spectator"
        and code_of(stranger) == "bad_token"
        and "503 busy" in burst_codes
    )
    return (
        f"hint flood: one address {address_line}; one table {table_line}; one decision asked "
        f"50 times: {dict(sorted(repeat_codes.items()))} (one search); spectator "
        f"{spectator.status_code} {code_of(spectator)}, stranger {stranger.status_code} "
        f"{code_of(stranger)}; {len(tables)} tables at once: {dict(sorted(burst_codes.items()))}; "
        f"a human table's ISMCTS reply: median {_median(flooded):.2f} s during the burst, "
        f"{_median(alone):.2f} s before; {verdict(held)}"
    )


async def _finished(server: Server, source: str) -> str:
    """A table of one human seat (its first legal action each time) and a greedy bot,
    played to its end over HTTP."""
    tid, token = await _seated(server, source)
    async with http(server, source) as c:
        while True:
            state = await _my_turn(c, tid, token)
            if state.get("to_move") is None:
                return tid
            await _move(c, tid, token, state)


async def _analysis(c: httpx.AsyncClient, tid: str) -> httpx.Response:
    return await c.get(f"/api/tables/{tid}/analysis")


async def attack_analysis_flood(server: Server, args: argparse.Namespace) -> str:
    """30. Analyses flooded: one address asks for the analysis of every finished table it
    can (``max_analyses_waiting`` at once, ``rate_analysis`` an hour); one table's asked
    30 times while computed (computed once, stored, then served)."""
    tables = [await _finished(server, f"127.0.34.{i}") for i in range(1, 9)]
    async with http(server, "127.0.35.1") as c:
        first = [await _analysis(c, t) for t in tables[:5]]
        busy = [r for r in first if code_of(r) == "busy"]
        again = [await _analysis(c, tables[0]) for _ in range(30)]
        started = time.monotonic()
        while time.monotonic() - started < args.deadline / 2:
            answers = [await _analysis(c, t) for t in tables[:4]]
            if all(r.status_code == 200 for r in answers):
                break
            await asyncio.sleep(0.5)
        waited = time.monotonic() - started
        stored = [r.json()["analysis"] for r in answers if r.status_code == 200]
        reread = [await _analysis(c, tables[0]) for _ in range(5)]
        later = [await _analysis(c, t) for t in tables[4:]]
    later_codes = [f"{r.status_code} {code_of(r)}".strip() for r in later]
    same = all(r.status_code == 200 and r.json()["analysis"] == stored[0] for r in reread)
    cpu = [a["cpu_seconds"] for a in stored]
    held = (
        len(busy) >= 1
        and all(r.status_code in (200, 202) for r in again)
        and same
        and any("rate_limited" in c for c in later_codes)
    )
    return (
        f"analysis flood: 5 finished tables at once from one address: "
        f"{[f'{r.status_code} {code_of(r)}'.strip() for r in first]}; one table asked 30 "
        f"times while computed: {dict(Counter(r.status_code for r in again))}; 4 analyses "
        f"stored in {waited:.1f} s (CPU {min(cpu, default=0):.1f}-{max(cpu, default=0):.1f} s "
        f"each), read again {'unchanged' if same else 'CHANGED'}; then {later_codes}; "
        f"{verdict(held)}"
    )


ATTACKS: dict[str, Callable[[Server, argparse.Namespace], Awaitable[str]]] = {
    "seed": attack_seed,
    "race": attack_race,
    "private": attack_private,
    "flood": attack_flood,
    "expiry": attack_expiry,
    "spectators": attack_spectators,
    "half-open": attack_half_open,
    "bots": attack_bot_flood,
    "failed-write": attack_failed_write,
    "nesting": attack_nesting,
    "chunked": attack_chunked,
    "origin": attack_origin,
    "headers": attack_headers,
    "timeout": attack_timeout_notice,
    "stall": attack_stall,
    "shutdown": attack_shutdown,
    "invite-kept": attack_kept_invite,
    "deal-shopping": attack_deal_shopping,
    "cross-site-binding": attack_cross_site_binding,
    "head-one-write": attack_head_one_write,
    "ws-malformed": attack_ws_malformed,
    "abandoned-seats": attack_search_starve,
    "memory": attack_memory,
    "look-alike-names": attack_look_alike_names,
    "invisible-text": attack_invisible_text,
    "forged-forfeit": attack_forged_forfeit,
    "changed-die": attack_changed_die,
    "private-rematch": attack_private_rematch,
    "hint-flood": attack_hint_flood,
    "analysis-flood": attack_analysis_flood,
}


async def run(args: argparse.Namespace) -> dict[str, str]:
    """Start the main server, run the chosen attacks one after the other, stop it."""
    server = Server(args.tmp, "main")
    server.start()
    results: dict[str, str] = {}
    try:
        for name in args.only or list(ATTACKS):
            started = time.monotonic()
            try:
                line = await asyncio.wait_for(ATTACKS[name](server, args), args.deadline)
            except TimeoutError:
                took = time.monotonic() - started
                why = "gave up" if took >= args.deadline - 0.5 else "a server answer timed out"
                line = f"{name}: {why} after {took:.0f} s"
            except Exception as exc:
                line = f"{name}: the attack failed: {type(exc).__name__}: {exc}"
            results[name] = line
            if not args.json:
                print(f"{line}  [{time.monotonic() - started:.1f} s]", flush=True)
    finally:
        server.stop()
    return results


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(ATTACKS), help="run these attacks only")
    parser.add_argument("--trials", type=int, default=40, help="invite-vs-claim races (40)")
    parser.add_argument("--flood", type=int, default=300, help="most tables the flood tries (300)")
    parser.add_argument("--spectators", type=int, default=3000, help="spectator sockets (3000)")
    parser.add_argument("--actions", type=int, default=40, help="acks measured per run (40)")
    parser.add_argument("--half-open", type=int, default=1000, help="half-open requests (1000)")
    parser.add_argument(
        "--half-open-wait", type=float, default=40.0, help="seconds to wait for them (40)"
    )
    parser.add_argument(
        "--abandoned", type=int, default=30, help="tables of an abandoned seat (30)"
    )
    parser.add_argument("--games", type=int, default=20, help="games the memory attack plays (20)")
    parser.add_argument("--deadline", type=float, default=150.0, help="seconds per attack (150)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pyramids-attacks-") as tmp:
        args.tmp = Path(tmp)
        results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
