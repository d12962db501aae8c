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

    .venv/bin/python bench/server_load.py                 # 40 tables, 20 s, SQLite
    .venv/bin/python bench/server_load.py --db postgresql://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import platform
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

SERVING_RE = re.compile(r"^pyramids: serving on (http://\S+?)/?\s*$")
TARGET_ACTIONS_PER_S = 500.0
TARGET_P99_MS = 100.0


# ---------------------------------------------------------------- the server process


class Server:
    """A `pyramids serve` subprocess on --port 0; its stderr goes to a file."""

    def __init__(self, db_url: str, data_dir: Path, timeout: float = 60.0) -> None:
        self.stderr_path = data_dir / "server.stderr"
        self._stderr = self.stderr_path.open("w")
        cmd = [sys.executable, "-m", "pyramids.cli.main", "serve", "--port", "0"]
        cmd += ["--db", db_url, "--data-dir", str(data_dir)]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
        found: list[str] = []
        ready = threading.Event()

        def pump(stream: IO[str]) -> None:
            for line in stream:
                match = SERVING_RE.match(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        if self.proc.stdout is None:  # pragma: no cover - stdout is a pipe above
            raise RuntimeError("no stdout pipe")
        threading.Thread(target=pump, args=(self.proc.stdout,), daemon=True).start()
        if not ready.wait(timeout) or not found:
            self.stop()
            raise RuntimeError(f"the server did not start:\n{self.stderr_path.read_text()}")
        self.url = found[0].rstrip("/")
        self.ws_url = "ws" + self.url.removeprefix("http")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(15)
        self._stderr.close()


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
    interval: float  # least seconds between two actions of one table (0: no pacing)


@dataclass
class ClientResult:
    """What one load-generator process measured inside the window."""

    latencies_ms: list[float] = field(default_factory=list)
    acks_total: int = 0
    games_finished: int = 0
    tables_created: int = 0
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
        return start > 0 and start <= t <= self._end.value

    def is_over(self, t: float) -> bool:
        """Whether the window has been set and has ended."""
        return self._end.value > 0 and t > self._end.value


async def _create_table(http: Any, cfg: ClientConfig, seed: int) -> tuple[str, list[str]]:
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": f"load{s}"} for s in range(cfg.players)],
        "options": {"preset": cfg.preset},
        "seed": seed,
        "bot_delay": 0,
        "absent_after": 0,
        "turn_time": 0,
    }
    r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    data = r.json()
    tokens = [inv["token"] for inv in sorted(data["invites"], key=lambda v: v["seat"])]
    return data["table"]["id"], tokens


class Pace:
    """Spaces one table's actions at least `interval` seconds apart (shared by its seats)."""

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
        self.next = max(now, self.next) + self.interval


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
                return False
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
            t0 = sent.pop(msg["id"], None)
            if t0 is not None:
                result.acks_total += 1
                if window.contains(t0):
                    result.latencies_ms.append((now - t0) * 1000.0)
        elif kind == "error":
            result.errors.append(f"{msg.get('code')}: {msg.get('message')}")
            return False
    return False


async def _table_loop(
    cfg: ClientConfig, slot: int, window: Window, result: ClientResult, ready: asyncio.Event
) -> None:
    """One table slot: a game, then a new table, until the window is over."""
    rng = random.Random(cfg.seed * 7919 + cfg.index * 1009 + slot)
    pace = Pace(cfg.interval)
    try:
        await _games(cfg, rng=rng, pace=pace, window=window, result=result, ready=ready)
    finally:
        ready.set()  # even on an error, so the parent is not left waiting


async def _games(
    cfg: ClientConfig,
    *,
    rng: random.Random,
    pace: Pace,
    window: Window,
    result: ClientResult,
    ready: asyncio.Event,
) -> None:
    """Play game after game on new tables until the window is over."""
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=cfg.url, timeout=60) as http:
        game = 0
        while not window.is_over(time.time()):
            table, tokens = await _create_table(http, cfg, rng.randrange(2**31))
            result.tables_created += 1
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
                done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                finished = any(t.result() for t in done)
                if finished and pending:
                    # The other seats see the same final state a moment later.
                    _, pending = await asyncio.wait(pending, timeout=10)
                for task in pending:  # the window is over (or an error): stop this table
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                if finished and window.contains(time.time()):
                    result.games_finished += 1
            game += 1


async def _client_async(cfg: ClientConfig, window: Window, conn: Any) -> ClientResult:
    result = ClientResult()
    readies = [asyncio.Event() for _ in range(cfg.tables)]
    tasks = [
        asyncio.create_task(_table_loop(cfg, i, window, result, readies[i]))
        for i in range(cfg.tables)
    ]
    await asyncio.gather(*(e.wait() for e in readies))
    conn.send("ready")
    results = await asyncio.gather(*tasks, return_exceptions=True)
    result.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return result


def client_main(cfg: ClientConfig, start: Any, end: Any, conn: Any) -> None:
    """Entry point of a load-generator process: play its tables, send back its result."""
    cpu0 = time.process_time()
    result = asyncio.run(_client_async(cfg, Window(start, end), conn))
    result.cpu_seconds = time.process_time() - cpu0
    conn.send(asdict(result))
    conn.close()


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
        try:
            ctx = mp.get_context("spawn")
            start, end = ctx.Value("d", 0.0), ctx.Value("d", 0.0)
            share = [
                args.tables // args.clients + (i < args.tables % args.clients)
                for i in range(args.clients)
            ]
            pipes, procs = [], []
            for i, n in enumerate(share):
                parent, child = ctx.Pipe()
                interval = args.tables / args.rate if args.rate > 0 else 0.0
                cfg = ClientConfig(
                    i, server.url, server.ws_url, n, args.players, args.preset, args.seed, interval
                )
                proc = ctx.Process(target=client_main, args=(cfg, start, end, child), daemon=True)
                proc.start()
                pipes.append(parent)
                procs.append(proc)
            for pipe in pipes:
                if pipe.recv() != "ready":
                    raise RuntimeError("a load generator failed to start")
            t_start = time.time() + args.warmup
            with start.get_lock(), end.get_lock():
                start.value, end.value = t_start, t_start + args.seconds
            time.sleep(max(0.0, t_start - time.time()))
            cpu0, wall0 = server.cpu_seconds(), time.time()
            time.sleep(max(0.0, t_start + args.seconds - time.time()))
            cpu1, wall1 = server.cpu_seconds(), time.time()
            results = [ClientResult(**pipe.recv()) for pipe in pipes]
            for proc in procs:
                proc.join(30)
        finally:
            server.stop()
        fs = filesystem_of(data_dir)
    lat = sorted(x for r in results for x in r.latencies_ms)
    n = len(lat)
    errors = [e for r in results for e in r.errors]
    db_kind = "postgresql" if db_url.startswith("postgres") else f"sqlite ({fs})"
    return {
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
        "errors": errors[:20],
        "error_count": len(errors),
        "db": db_kind,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "platform": platform.platform(),
        "target_throughput_met": n / args.seconds >= TARGET_ACTIONS_PER_S,
        "target_p99_met": percentile(lat, 0.99) < TARGET_P99_MS,
    }


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def print_report(fig: dict[str, Any]) -> None:
    """Print the figures for people."""
    pace = f"paced at {fig['rate']:.0f} actions/s" if fig["rate"] > 0 else "acting at once"
    print(
        f"server load: {fig['tables']} tables of Flaming Pyramids ({fig['players']} human seats, "
        f"preset {fig['preset']}), random clients {pace}, {fig['seconds']:.0f} s after "
        f"{fig['warmup']:.0f} s warm-up"
    )
    print(
        f"machine: {fig['cores']} cores ({fig['processor']}, {fig['machine']}), "
        f"{fig['implementation']} {fig['python']}, db {fig['db']}"
    )
    print(
        f"processes: 1 server, {fig['load_processes']} load generator(s); CPU used: server "
        f"{fig['server_cpu_cores']:.2f} cores, load generator {fig['load_cpu_cores']:.2f} cores"
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
    if fig["error_count"]:
        print(f"errors: {fig['error_count']}, e.g. {fig['errors'][:3]}")


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
    p.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    p.add_argument("--dir", default=None, help="where the temp dir goes (default: the system's)")
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    fig = run(args)
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        print_report(fig)
    return 0 if fig["error_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
