"""Server load benchmark: many concurrent games over WebSockets against one `pyramids serve`.

Starts one server process (durable SQLite in a temporary directory by default, ``--db URL``
for PostgreSQL), creates ``--tables`` Flaming Pyramids tables with all-human seats, and
plays every seat from a separate load-generator process (``--clients`` processes, asyncio,
one WebSocket per seat) as a random bot that answers each decision the moment its state
arrives. For every action it times the interval from sending it to receiving its ``ack``
(which the server sends only once the action is committed). A finished game is replaced by
a new table, so the load stays constant. After ``--warmup`` seconds it measures for
``--seconds`` and prints actions/s, latency percentiles, games finished, the CPU the server
process used, and the machine. ``--json`` prints one JSON object instead.

``--spectators N`` adds N spectator WebSockets spread evenly over the measured tables (and
following each slot to its next table), held by their own process (``--spectator-clients``)
on a minimal WebSocket client that reads and counts every message.

    .venv/bin/python bench/server_load.py                 # 40 tables, 20 s, SQLite
    .venv/bin/python bench/server_load.py --db postgresql://postgres@127.0.0.1:5432/bench
    .venv/bin/python bench/server_load.py --rate 600 --spectators 1000

``--soak SECONDS`` runs the same load for a long time with table churn, chat (each table's
players say something every ``--chat-every`` seconds), spectators following their tables and
``--bot-seats`` bot seats per table, samples the server's resident memory (RSS) every
``--sample-every`` seconds and ends with a table of memory over time and a verdict, "memory
flat after warm-up" or not (see ``memory_verdict``):

    .venv/bin/python bench/server_load.py --soak 3600 --rate 200 --spectators 200

On a machine of two or more CPUs the server runs on the last one and the load generators
on the others (``--pin off``: anywhere), so that the clients' own work, which a real
deployment runs elsewhere, does not queue in front of the server's. A table's actions keep
their schedule: one that fell behind sends at once until it is back on time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import math
import multiprocessing as mp
import os
import platform
import random
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pyramids.cli.serve_process import ServeProcess

TARGET_ACTIONS_PER_S = 500.0
TARGET_P99_MS = 100.0
FANOUT_SPECTATORS = 1000
FANOUT_ACTIONS_PER_S = 600.0
"""The fan-out target (docs/SECURITY.md): with 1,000 spectators on the measured tables,
players' p99 acknowledgement under 100 ms at 600 actions/s."""


# ---------------------------------------------------------------- the server process


class Server(ServeProcess):
    """A `pyramids serve` subprocess on --port 0; its stderr goes to a file."""

    def __init__(self, db_url: str, data_dir: Path, timeout: float = 60.0) -> None:
        # The load comes from loopback: no per-address rate or cap applies to it
        # (docs/SECURITY.md), or the players and spectators would be refused.
        super().__init__(
            ["--db", db_url, "--data-dir", str(data_dir)],
            data_dir / "server.stderr",
            {"PYRAMIDS_EXEMPT": "127.0.0.1,::1"},
        )
        self.start(timeout)

    def pin(self, cores: set[int]) -> None:
        """Keep every thread of the server (and those it starts later) on ``cores``."""
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), cores)

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- the load generator


@dataclass
class ClientConfig:
    """What one load-generator process does."""

    index: int
    url: str
    ws_url: str
    tables: int
    players: int
    preset: str
    seed: int
    interval: float  # seconds between two actions of one table on average (0: no pacing)
    cores: set[int] = field(default_factory=set)  # the CPUs it runs on (empty: any)
    chat_every: float = 0.0  # seconds between two chat messages of one table (0: none)
    bot_seats: int = 0  # seats of each table played by the server's greedy bot


@dataclass
class ClientResult:
    """What one load-generator process measured inside the window."""

    latencies_ms: list[float] = field(default_factory=list)
    acks_total: int = 0
    games_finished: int = 0
    tables_created: int = 0
    chat_sent: int = 0
    errors: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0


class Window:
    """The measurement window, set by the parent once every client is connected."""

    def __init__(self, start: Any, end: Any) -> None:
        self._start = start
        self._end = end

    def contains(self, t: float) -> bool:
        """Whether wall-clock time `t` is inside the window."""
        start = self._start.value
        return bool(start > 0 and start <= t <= self._end.value)

    def is_over(self, t: float) -> bool:
        """Whether the window has been set and has ended."""
        return bool(self._end.value > 0 and t > self._end.value)


async def _create_table(http: Any, cfg: ClientConfig) -> tuple[str, list[str]]:
    body = {
        "game": "flaming",
        "seats": [
            {"kind": "human", "name": f"load{s}"}
            if s < cfg.players - cfg.bot_seats
            else {"kind": "bot", "bot": "greedy"}
            for s in range(cfg.players)
        ],
        "options": {"preset": cfg.preset},
        "bot_delay": 0,
        "absent_after": 0,
        "turn_time": 86400,  # the longest: every table has one (issue 29), none runs out here
    }
    r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    data = r.json()
    tokens = [inv["token"] for inv in sorted(data["invites"], key=lambda v: v["seat"])]
    return data["table"]["id"], tokens


async def _chat(conns: list[Any], rng: random.Random, every: float, result: ClientResult) -> None:
    """Say something at a table every ``every`` seconds on average, from a random seat."""
    n = 0
    while True:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * every)
        n += 1
        text = f"chat {n}: " + rng.choice(CHAT_LINES)
        await rng.choice(conns).send(json.dumps({"type": "chat", "id": f"chat{n}", "text": text}))
        result.chat_sent += 1


CHAT_LINES = ("well played", "ouch, that fire", "good luck all", "bien joué", "nice tower 🔥")
"""What the soak's players say (the server stores each line and sends it to the table)."""

CATCH_UP = 8
"""Actions a table that fell behind its pace may send without waiting, to make up the time."""


class Pace:
    """Spaces one table's actions `interval` seconds apart on average (shared by its seats).

    The schedule is kept, not restarted after each late action: a table whose last answers
    came late sends the next ones at once until it is back on time (at most CATCH_UP of
    them), so the offered load is the asked rate whenever the server keeps up.
    """

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.next = 0.0

    async def wait(self) -> None:
        """Sleep until this table may send its next action."""
        if self.interval <= 0:
            return
        now = time.time()
        if self.next > now:
            await asyncio.sleep(self.next - now)
        self.next = max(now - CATCH_UP * self.interval, self.next) + self.interval


async def _play_seat(
    ws: Any, seat: int, rng: random.Random, *, pace: Pace, window: Window, result: ClientResult
) -> bool:
    """Answer every decision of one seat (at once, or paced); True when the game ended."""
    sent: dict[str, float] = {}
    acted: set[int] = set()
    senders: set[asyncio.Task[None]] = set()

    from websockets.exceptions import ConnectionClosed

    async def send(mid: str, payload: str) -> None:
        # Paced sends wait in their own task, so acks keep being read (and timed) meanwhile.
        await pace.wait()
        sent[mid] = time.time()
        try:
            await ws.send(payload)
        except ConnectionClosed:  # the game or the window ended while this send waited
            sent.pop(mid, None)

    async for raw in ws:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "state":
            if msg["status"] == "finished":
                return True
            if window.is_over(time.time()):
                if not sent:
                    return False
                continue  # no new action; wait for the acks of those sent in the window
            seq = msg["seq"]
            if msg["legal"] and seq not in acted:
                acted.add(seq)
                mid = f"{seat}:{seq}"
                action = msg["legal"][rng.randrange(len(msg["legal"]))]
                payload = json.dumps({"type": "action", "id": mid, "seq": seq, "action": action})
                if pace.interval > 0:
                    task = asyncio.create_task(send(mid, payload))
                    senders.add(task)
                    task.add_done_callback(senders.discard)
                else:
                    await send(mid, payload)
        elif kind == "ack":
            now = time.time()
            t0 = sent.pop(msg["id"], None)  # None for a chat message's ack
            if t0 is not None:
                result.acks_total += 1
                if window.contains(t0):
                    result.latencies_ms.append((now - t0) * 1000.0)
            if not sent and window.is_over(now):
                return False
        elif kind == "error":
            result.errors.append(f"{msg.get('code')}: {msg.get('message')}")
            return False
    return False


async def _table_loop(
    cfg: ClientConfig,
    slot: int,
    *,
    window: Window,
    result: ClientResult,
    ready: asyncio.Event,
    tables_out: Any,
) -> None:
    """One table slot: a game, then a new table, until the window is over."""
    rng = random.Random(cfg.seed * 7919 + cfg.index * 1009 + slot)
    pace = Pace(cfg.interval)
    try:
        await _games(
            cfg,
            slot,
            rng=rng,
            pace=pace,
            window=window,
            result=result,
            ready=ready,
            tables_out=tables_out,
        )
    finally:
        ready.set()  # even on an error, so the parent is not left waiting


async def _games(
    cfg: ClientConfig,
    slot: int,
    *,
    rng: random.Random,
    pace: Pace,
    window: Window,
    result: ClientResult,
    ready: asyncio.Event,
    tables_out: Any,
) -> None:
    """Play game after game on new tables until the window is over."""
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=cfg.url, timeout=60) as http:
        game = 0
        while not window.is_over(time.time()):
            table, tokens = await _create_table(http, cfg)
            result.tables_created += 1
            for out in tables_out:  # the spectators of this slot follow it
                out.put((f"{cfg.index}:{slot}", table))
            async with contextlib.AsyncExitStack() as stack:
                conns = [
                    await stack.enter_async_context(
                        connect(f"{cfg.ws_url}/ws/tables/{table}?token={t}", max_queue=None)
                    )
                    for t in tokens
                ]
                if game == 0:
                    ready.set()
                tasks = [
                    asyncio.create_task(
                        _play_seat(ws, s, rng, pace=pace, window=window, result=result)
                    )
                    for s, ws in enumerate(conns)
                ]
                chat = (
                    asyncio.create_task(_chat(conns, rng, cfg.chat_every, result))
                    if cfg.chat_every > 0
                    else None
                )
                done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                if chat is not None:
                    chat.cancel()
                    await asyncio.gather(chat, return_exceptions=True)
                finished = any(t.result() for t in done)
                if pending:
                    # After the end of the game the other seats see the same final state a
                    # moment later; after the end of the window each seat stops once the
                    # actions it sent inside the window are acknowledged.
                    more, pending = await asyncio.wait(pending, timeout=10)
                    finished = finished or any(
                        t.result() for t in more if not t.cancelled() and t.exception() is None
                    )
                for task in pending:  # the window is over (or an error): stop this table
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                if finished and window.contains(time.time()):
                    result.games_finished += 1
            game += 1


async def _client_async(
    cfg: ClientConfig, window: Window, conn: Any, tables_out: Any
) -> ClientResult:
    result = ClientResult()
    readies = [asyncio.Event() for _ in range(cfg.tables)]
    tasks = [
        asyncio.create_task(
            _table_loop(
                cfg, i, window=window, result=result, ready=readies[i], tables_out=tables_out
            )
        )
        for i in range(cfg.tables)
    ]
    await asyncio.gather(*(e.wait() for e in readies))
    conn.send("ready")
    results = await asyncio.gather(*tasks, return_exceptions=True)
    result.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return result


def client_main(cfg: ClientConfig, start: Any, end: Any, conn: Any, tables_out: Any) -> None:
    """Entry point of a load-generator process: play its tables, send back its result."""
    if cfg.cores:
        os.sched_setaffinity(0, cfg.cores)
    cpu0 = time.process_time()
    result = asyncio.run(_client_async(cfg, Window(start, end), conn, tables_out))
    result.cpu_seconds = time.process_time() - cpu0
    conn.send(asdict(result))
    conn.close()


# ---------------------------------------------------------------- the spectators


@dataclass
class SpectatorConfig:
    """What one spectator process does: ``count`` sockets spread over ``slots``."""

    url: str
    slots: list[str]
    count: int
    offset: int  # this process's first spectator, so that processes share slots evenly
    cores: set[int] = field(default_factory=set)  # the CPUs it runs on (empty: any)


@dataclass
class SpectatorResult:
    """What one spectator process saw inside the window."""

    messages: int = 0
    state_messages: int = 0
    bytes: int = 0
    connects: int = 0
    refused: int = 0
    dropped: int = 0  # closed by the server (e.g. 1013: too far behind)
    errors: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0


WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class SpectatorSocket(asyncio.Protocol):
    """A minimal WebSocket client that only reads: it answers pings and counts messages.

    Cheaper than a full client library by an order of magnitude per message (no task
    per socket, no per-message decoding), so one process can follow 1,000 sockets at the
    rates the players produce without becoming the bottleneck it measures.
    """

    def __init__(
        self, path: str, host: str, window: Window, result: SpectatorResult, on_end: Any
    ) -> None:
        self.path, self.host = path, host
        self.window, self.result, self.on_end = window, result, on_end
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.open = False
        self.closed = False
        self.finished = False
        self.handshake = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")])
            del buf[: end + 4]
            if b" 101 " not in status:
                self.result.refused += 1
                self._end()
                return
            self.open = True
            if not self.handshake.done():
                self.handshake.set_result(None)
        self._frames()

    def _frames(self) -> None:
        buf = self.buffer
        counting = self.window.contains(time.time())
        while len(buf) >= 2:
            opcode, n = buf[0] & 0x0F, buf[1] & 0x7F
            head = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, head = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, head = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < head + n:
                return
            payload = bytes(buf[head : head + n])
            del buf[: head + n]
            if opcode in (1, 0):
                if counting:
                    self.result.messages += 1
                    self.result.bytes += n
                if payload.startswith(b'{"type":"state"'):
                    if counting:
                        self.result.state_messages += 1
                    if b'"status":"finished"' in payload[:80]:
                        self.finished = True
            elif opcode == 9:  # ping: answer with a masked pong
                self._send(0xA, payload)
            elif opcode == 8:
                if not self.finished and not self.closed:
                    self.result.dropped += 1
                self._send(0x8, payload[:2])
                self._end()
                return

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def close(self) -> None:
        """Close the connection (a close frame, then the socket)."""
        if not self.closed:
            self._send(0x8, (1000).to_bytes(2, "big"))
            self._end()

    def _end(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.transport is not None:
            self.transport.close()
        if not self.handshake.done():
            self.handshake.set_result(None)
        self.on_end(self)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            if not self.finished:
                self.result.dropped += 1
            self._end()


async def _spectators_async(
    cfg: SpectatorConfig, window: Window, conn: Any, tables_in: Any
) -> SpectatorResult:
    from urllib.parse import urlsplit

    result = SpectatorResult()
    where = urlsplit(cfg.url)
    host, port = where.hostname or "127.0.0.1", where.port or 80
    loop = asyncio.get_running_loop()
    per_slot: dict[str, int] = dict.fromkeys(cfg.slots, 0)
    for i in range(cfg.count):
        per_slot[cfg.slots[(cfg.offset + i) % len(cfg.slots)]] += 1
    current: dict[str, str] = {}
    sockets: dict[str, set[SpectatorSocket]] = {slot: set() for slot in cfg.slots}
    handshakes = asyncio.Semaphore(64)
    connected = asyncio.Event()
    pending: set[asyncio.Task[None]] = set()

    async def watch(slot: str, table: str) -> None:
        async with handshakes:
            if current.get(slot) != table or window.is_over(time.time()):
                return

            def ended(sock: SpectatorSocket, slot: str = slot) -> None:
                sockets[slot].discard(sock)

            try:
                _, sock = await loop.create_connection(
                    lambda: SpectatorSocket(
                        f"/ws/tables/{table}", f"{host}:{port}", window, result, ended
                    ),
                    host,
                    port,
                )
            except OSError as exc:
                result.errors.append(f"connect: {exc}")
                return
            sockets[slot].add(sock)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(sock.handshake), 30)
            if sock.open:
                result.connects += 1
            if sum(len(v) for v in sockets.values()) >= cfg.count:
                connected.set()

    def follow(slot: str, table: str) -> None:
        if slot not in per_slot:
            return
        current[slot] = table
        for old in list(sockets[slot]):
            old.close()  # it watched the slot's previous table
        for _ in range(per_slot[slot]):
            task = asyncio.create_task(watch(slot, table))
            pending.add(task)
            task.add_done_callback(pending.discard)

    def reader() -> None:
        while True:
            item = tables_in.get()
            if item is None:
                return
            loop.call_soon_threadsafe(follow, *item)

    threading.Thread(target=reader, daemon=True).start()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(connected.wait(), 120)
    conn.send("ready")
    while not window.is_over(time.time()):
        await asyncio.sleep(0.2)
    for socks in sockets.values():
        for sock in list(socks):
            sock.close()
    for task in list(pending):
        task.cancel()
    return result


def spectator_main(cfg: SpectatorConfig, start: Any, end: Any, conn: Any, tables_in: Any) -> None:
    """Entry point of a spectator process: watch the slots' tables, send back the counts."""
    if cfg.cores:
        os.sched_setaffinity(0, cfg.cores)
    cpu0 = time.process_time()
    result = asyncio.run(_spectators_async(cfg, Window(start, end), conn, tables_in))
    result.cpu_seconds = time.process_time() - cpu0
    conn.send(asdict(result))
    conn.close()


# ---------------------------------------------------------------- memory


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (psutil when installed, else /proc)."""
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError(f"no VmRSS in /proc/{pid}/status") from None
    return int(psutil.Process(pid).memory_info().rss)


MEMORY_TOLERANCE_MB = 20.0
MEMORY_TOLERANCE_SHARE = 0.05
"""Memory is flat after warm-up when it grew by at most the larger of these (20 MB, or 5% of
the level after warm-up): see ``memory_verdict``."""


def least_squares_slope(points: list[tuple[float, float]]) -> float:
    """The slope of the least-squares line through ``points`` (0 for fewer than two)."""
    if len(points) < 2:
        return 0.0
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


GC_CYCLE_S = 600.0
"""How often ``pyramids serve`` lets its full collections look at everything again
(``serve_cmd._GenerationalFreeze``): cycles among old objects are freed only then, so the
server's memory rises for up to this long and then stops rising, a saw-tooth. A window after
warm-up shorter than two of them can show the tooth's rise and nothing else."""


def memory_verdict(
    samples: list[tuple[float, float]],
    warmup: float,
    tolerance_mb: float = MEMORY_TOLERANCE_MB,
    tolerance_share: float = MEMORY_TOLERANCE_SHARE,
) -> dict[str, Any]:
    """Whether the server's memory stayed flat after ``warmup`` seconds.

    ``samples`` are (seconds since the load began, RSS in MB). The samples after the
    warm-up are cut in two halves by time; memory is flat when (1) the highest RSS of the
    second half is at most the tolerance above the highest of the first (peaks compared,
    so that the saw-tooth of the collector, ``GC_CYCLE_S``, does not count as growth) and
    (2) the least-squares line through every sample after the warm-up rises by at most the
    tolerance over that time (a steady leak). The tolerance is the larger of
    ``tolerance_mb`` and ``tolerance_share`` of the first half's peak.
    """
    after = [(t, mb) for t, mb in samples if t >= warmup]
    if len(after) < 4:
        return {"memory_flat": None, "memory_reason": "fewer than 4 samples after the warm-up"}
    middle = (after[0][0] + after[-1][0]) / 2
    first = [p for p in after if p[0] < middle]
    second = [p for p in after if p[0] >= middle]
    base = max(mb for _, mb in first)
    peak = max(mb for _, mb in second)
    span = after[-1][0] - after[0][0]
    slope = least_squares_slope(after)  # MB per second
    rise = slope * span
    tolerance = max(tolerance_mb, tolerance_share * base)
    flat = peak - base <= tolerance and rise <= tolerance
    reason = (
        f"peak {base:.1f} MB in the first half after warm-up, {peak:.1f} MB in the second "
        f"({peak - base:+.1f} MB); trend {rise:+.1f} MB over the {span:.0f} s after warm-up "
        f"({slope * 3600:+.1f} MB/h); tolerance {tolerance:.1f} MB for each"
    )
    if span < 2 * GC_CYCLE_S:
        reason += (
            f"; only {span:.0f} s after warm-up: shorter than two of the server's "
            f"{GC_CYCLE_S:.0f}-s collector cycles, so it may show one cycle's rise"
        )
    return {
        "memory_flat": flat,
        "memory_warmup_s": warmup,
        "memory_first_half_peak_mb": base,
        "memory_second_half_peak_mb": peak,
        "memory_growth_mb": peak - base,
        "memory_rise_mb": rise,
        "memory_slope_mb_per_hour": slope * 3600,
        "memory_tolerance_mb": tolerance,
        "memory_reason": reason,
    }


def sample_memory(
    pid: int, t0: float, until: float, every: float, out: list[tuple[float, float]]
) -> None:
    """Append (seconds since ``t0``, RSS in MB) of ``pid`` to ``out`` every ``every``
    seconds until wall-clock ``until`` (and once more at the end)."""
    while True:
        now = time.time()
        out.append((now - t0, rss_bytes(pid) / 1e6))
        if now >= until:
            return
        time.sleep(max(0.0, min(every - (time.time() - now), until - time.time())))


# ---------------------------------------------------------------- report


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank; 0 for no values."""
    if not sorted_values:
        return 0.0
    rank = min(len(sorted_values), max(1, math.ceil(q * len(sorted_values))))
    return sorted_values[rank - 1]


def filesystem_of(path: Path) -> str:
    """The filesystem type holding `path` (from /proc/mounts), or "?"."""
    best, kind = "", "?"
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return kind
    target = str(path.resolve())
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3 and target.startswith(parts[1]) and len(parts[1]) > len(best):
            best, kind = parts[1], parts[2]
    return kind


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the benchmark and return its figures."""
    base = Path(args.dir) if args.dir else None
    with tempfile.TemporaryDirectory(prefix="pyramids-load-", dir=base) as tmp:
        data_dir = Path(tmp)
        db_url = args.db or f"sqlite:///{data_dir / 'bench.sqlite3'}"
        server = Server(db_url, data_dir)
        memory: list[tuple[float, float]] = []
        server_cores, load_cores = placement(args.pin)
        if server_cores:
            server.pin(server_cores)
        try:
            ctx = mp.get_context("spawn")
            start, end = ctx.Value("d", 0.0), ctx.Value("d", 0.0)
            share = [
                args.tables // args.clients + (i < args.tables % args.clients)
                for i in range(args.clients)
            ]
            pipes, procs = [], []
            spectator_pipes: list[Any] = []
            tables_out: list[Any] = []
            slots = [f"{i}:{slot}" for i, n in enumerate(share) for slot in range(n)]
            watchers = min(args.spectator_clients, args.spectators)
            for k in range(watchers):
                parent, child = ctx.Pipe()
                count = args.spectators // watchers + (k < args.spectators % watchers)
                offset = sum(
                    args.spectators // watchers + (j < args.spectators % watchers) for j in range(k)
                )
                tables_in = ctx.Queue()
                scfg = SpectatorConfig(server.url, slots, count, offset, load_cores)
                proc = ctx.Process(
                    target=spectator_main, args=(scfg, start, end, child, tables_in), daemon=True
                )
                proc.start()
                spectator_pipes.append(parent)
                tables_out.append(tables_in)
                procs.append(proc)
            for i, n in enumerate(share):
                parent, child = ctx.Pipe()
                interval = args.tables / args.rate if args.rate > 0 else 0.0
                cfg = ClientConfig(
                    i,
                    server.url,
                    server.ws_url,
                    n,
                    args.players,
                    args.preset,
                    args.seed,
                    interval,
                    load_cores,
                    args.chat_every,
                    args.bot_seats,
                )
                proc = ctx.Process(
                    target=client_main, args=(cfg, start, end, child, tables_out), daemon=True
                )
                proc.start()
                pipes.append(parent)
                procs.append(proc)
            for pipe in [*pipes, *spectator_pipes]:
                if pipe.recv() != "ready":
                    raise RuntimeError("a load generator failed to start")
            load0 = os.getloadavg()
            t_start = time.time() + args.warmup
            with start.get_lock(), end.get_lock():
                start.value, end.value = t_start, t_start + args.seconds
            time.sleep(max(0.0, t_start - time.time()))
            cpu0, wall0 = server.cpu_seconds(), time.time()
            assert server.pid is not None
            sample_memory(server.pid, t_start, t_start + args.seconds, args.sample_every, memory)
            cpu1, wall1 = server.cpu_seconds(), time.time()
            results = [ClientResult(**pipe.recv()) for pipe in pipes]
            watched = [SpectatorResult(**pipe.recv()) for pipe in spectator_pipes]
            for out in tables_out:
                out.put(None)
            load1 = os.getloadavg()
            for proc in procs:
                proc.join(30)
        finally:
            server.stop()
        fs = filesystem_of(data_dir)
    lat = sorted(x for r in results for x in r.latencies_ms)
    n = len(lat)
    errors = [e for r in results for e in r.errors] + [e for w in watched for e in w.errors]
    db_kind = "postgresql" if db_url.startswith("postgres") else f"sqlite ({fs})"
    memory_warmup = (
        args.memory_warmup
        if args.memory_warmup is not None
        else min(GC_CYCLE_S + 60, args.seconds / 4)
    )
    return {
        **memory_verdict(memory, memory_warmup, args.tolerance_mb),
        "memory_samples": [[round(t, 1), round(mb, 1)] for t, mb in memory],
        "soak": bool(args.soak),
        "chat_sent": sum(r.chat_sent for r in results),
        "bot_seats": args.bot_seats,
        "actions_per_s": n / args.seconds,
        "actions": n,
        "p50_ms": percentile(lat, 0.50),
        "p90_ms": percentile(lat, 0.90),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": lat[-1] if lat else 0.0,
        "mean_ms": sum(lat) / n if n else 0.0,
        "games_finished": sum(r.games_finished for r in results),
        "tables": args.tables,
        "tables_created": sum(r.tables_created for r in results),
        "players": args.players,
        "preset": args.preset,
        "rate": args.rate,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "server_cpu_cores": (cpu1 - cpu0) / (wall1 - wall0),
        "load_processes": args.clients,
        "load_cpu_cores": sum(r.cpu_seconds for r in results) / (args.seconds + args.warmup),
        "spectators": args.spectators,
        "spectator_processes": len(watched),
        "spectator_connects": sum(w.connects for w in watched),
        "spectator_refused": sum(w.refused for w in watched),
        "spectator_dropped": sum(w.dropped for w in watched),
        "spectator_messages_per_s": sum(w.messages for w in watched) / args.seconds,
        "spectator_states_per_s": sum(w.state_messages for w in watched) / args.seconds,
        "spectator_mbytes_per_s": sum(w.bytes for w in watched) / args.seconds / 1e6,
        "spectator_cpu_cores": sum(w.cpu_seconds for w in watched) / (args.seconds + args.warmup),
        "sample_every": args.sample_every,
        "load_average_start": load0[0],
        "load_average_end": load1[0],
        "errors": errors[:20],
        "error_count": len(errors),
        "db": db_kind,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "platform": platform.platform(),
        "server_cores": sorted(server_cores),
        "load_cores": sorted(load_cores),
        "target_throughput_met": n / args.seconds >= TARGET_ACTIONS_PER_S,
        "target_fanout_met": (
            args.spectators >= FANOUT_SPECTATORS
            and n / args.seconds >= FANOUT_ACTIONS_PER_S
            and percentile(lat, 0.99) < TARGET_P99_MS
        ),
        "target_p99_met": percentile(lat, 0.99) < TARGET_P99_MS,
    }


def placement(pin: str) -> tuple[set[int], set[int]]:
    """The CPUs of the server and of the load generators: with ``--pin auto`` on a machine
    of two or more CPUs, the server gets the last one and the generators the others, so
    that the clients' work does not delay the server's (as on a real deployment, where
    they run elsewhere); ``--pin off``: anywhere."""
    cpus = sorted(os.sched_getaffinity(0))
    if pin == "off" or len(cpus) < 2:
        return set(), set()
    return {cpus[-1]}, set(cpus[:-1])


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def print_report(fig: dict[str, Any]) -> None:
    """Print the figures for people."""
    pace = f"paced at {fig['rate']:.0f} actions/s" if fig["rate"] > 0 else "acting at once"
    humans = fig["players"] - fig["bot_seats"]
    print(
        f"server load: {fig['tables']} tables of Flaming Pyramids ({humans} human seats, "
        f"preset {fig['preset']}), random clients {pace}, {fig['seconds']:.0f} s after "
        f"{fig['warmup']:.0f} s warm-up"
    )
    print(
        f"machine: {fig['cores']} cores ({fig['processor']}, {fig['machine']}), "
        f"{fig['implementation']} {fig['python']}, db {fig['db']}"
    )
    where = (
        f"; server on CPU {fig['server_cores']}, clients on CPU {fig['load_cores']}"
        if fig["server_cores"]
        else ""
    )
    print(
        f"processes: 1 server, {fig['load_processes']} load generator(s){where}; CPU used: "
        f"server {fig['server_cpu_cores']:.2f} cores, load generator "
        f"{fig['load_cpu_cores']:.2f} cores"
    )
    print(f"actions/s: {fig['actions_per_s']:.0f}  ({fig['actions']} acknowledged in the window)")
    print(
        f"ack latency ms: p50 {fig['p50_ms']:.1f}  p90 {fig['p90_ms']:.1f}  "
        f"p99 {fig['p99_ms']:.1f}  max {fig['max_ms']:.1f}  mean {fig['mean_ms']:.1f}"
    )
    print(f"games finished in the window: {fig['games_finished']}")
    throughput = "yes" if fig["target_throughput_met"] else "no"
    if fig["rate"] > 0:
        throughput += f" (paced: at most {fig['rate']:.0f} by construction)"
    p99 = "yes" if fig["target_p99_met"] else "no"
    print(
        f"target: >= {TARGET_ACTIONS_PER_S:.0f} actions/s: {throughput}; "
        f"p99 < {TARGET_P99_MS:.0f} ms: {p99}"
    )
    if fig["spectators"]:
        print(
            f"spectators: {fig['spectators']} over the tables in {fig['spectator_processes']} "
            f"process(es) ({fig['spectator_cpu_cores']:.2f} cores); {fig['spectator_connects']} "
            f"connections made, {fig['spectator_refused']} refused, {fig['spectator_dropped']} "
            f"dropped; received {fig['spectator_messages_per_s']:.0f} messages/s "
            f"({fig['spectator_states_per_s']:.0f} states/s, "
            f"{fig['spectator_mbytes_per_s']:.1f} MB/s)"
        )
        met = "yes" if fig["target_fanout_met"] else "no"
        print(
            f"fan-out target: >= {FANOUT_SPECTATORS} spectators, >= {FANOUT_ACTIONS_PER_S:.0f} "
            f"actions/s and p99 < {TARGET_P99_MS:.0f} ms: {met}"
        )
    print(
        f"load average (1 min): {fig['load_average_start']:.2f} at the start, "
        f"{fig['load_average_end']:.2f} at the end"
    )
    if fig["chat_sent"] or fig["bot_seats"]:
        print(
            f"tables created: {fig['tables_created']}, {fig['bot_seats']} greedy bot seat(s) "
            f"each; chat messages sent: {fig['chat_sent']}"
        )
    if fig["soak"] or len(fig["memory_samples"]) > 2:
        print_memory(fig)
    if fig["error_count"]:
        print(f"errors: {fig['error_count']}, e.g. {fig['errors'][:3]}")


MEMORY_ROWS = 40
"""The most rows the memory table prints (evenly spaced; the JSON has every sample)."""


def print_memory(fig: dict[str, Any]) -> None:
    """Print the server's memory over time and the verdict."""
    samples = fig["memory_samples"]
    step = max(1, math.ceil(len(samples) / MEMORY_ROWS))
    shown = samples[::step]
    if shown[-1] is not samples[-1]:
        shown.append(samples[-1])
    print(f"server memory (RSS), sampled every {fig['sample_every']:g} s:")
    print("  time (s)   RSS (MB)")
    warm = fig.get("memory_warmup_s")
    for t, mb in shown:
        mark = "  (warm-up)" if warm is not None and t < warm else ""
        print(f"  {t:8.0f}   {mb:8.1f}{mark}")
    flat = fig["memory_flat"]
    verdict = {
        True: "memory flat after warm-up",
        False: "memory NOT flat after warm-up",
        None: "memory: no verdict",
    }[flat]
    print(f"verdict: {verdict} ({fig['memory_reason']})")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run, print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=40, help="concurrent tables (default 40)")
    p.add_argument("--players", type=int, default=3, help="seats per table (default 3)")
    p.add_argument("--preset", default="standard", help="rules preset (default standard)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured seconds (default 20)")
    p.add_argument("--warmup", type=float, default=3.0, help="warm-up seconds (default 3)")
    p.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="offered load in actions/s over all tables (default 0: each client acts at once)",
    )
    p.add_argument("--clients", type=int, default=1, help="load-generator processes (default 1)")
    p.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectator WebSockets spread over the measured tables (default 0)",
    )
    p.add_argument(
        "--spectator-clients",
        type=int,
        default=1,
        help="processes holding the spectators (default 1)",
    )
    p.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    p.add_argument("--dir", default=None, help="where the temp dir goes (default: the system's)")
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    p.add_argument(
        "--pin",
        choices=("auto", "off"),
        default="auto",
        help="auto (default): the server on the last CPU, the clients on the others; off: anywhere",
    )
    p.add_argument(
        "--soak",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a soak of SECONDS measured seconds: chat every --chat-every s per table "
        "(default 5), one bot seat per table unless --bot-seats, memory sampled and judged",
    )
    p.add_argument(
        "--chat-every",
        type=float,
        default=None,
        help="seconds between two chat messages of one table (default: 5 in a soak, else none)",
    )
    p.add_argument(
        "--bot-seats",
        type=int,
        default=None,
        help="seats per table played by the server's greedy bot (default: 1 in a soak, else 0)",
    )
    p.add_argument(
        "--sample-every",
        type=float,
        default=None,
        help="seconds between two samples of the server's memory (default: 10 in a soak, else 1)",
    )
    p.add_argument(
        "--memory-warmup",
        type=float,
        default=None,
        help="seconds of the window whose memory the verdict ignores (default: a quarter of "
        "the window, at most 660: the server's first full collector cycle and a minute)",
    )
    p.add_argument(
        "--tolerance-mb",
        type=float,
        default=MEMORY_TOLERANCE_MB,
        help=f"growth that still counts as flat, in MB (default {MEMORY_TOLERANCE_MB:g}, or "
        f"{MEMORY_TOLERANCE_SHARE * 100:.0f}%% of the level after warm-up if larger)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", default=None, help="also write the JSON object to this file")
    args = p.parse_args(argv)
    if args.soak:
        args.seconds = args.soak
    soak = bool(args.soak)
    if args.chat_every is None:
        args.chat_every = 5.0 if soak else 0.0
    if args.bot_seats is None:
        args.bot_seats = 1 if soak else 0
    if args.sample_every is None:
        args.sample_every = 10.0 if soak else 1.0
    if not 0 <= args.bot_seats < args.players:
        p.error("--bot-seats must leave at least one human seat")
    fig = run(args)
    if args.out:
        Path(args.out).write_text(json.dumps(fig, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        print_report(fig)
    return 0 if fig["error_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
