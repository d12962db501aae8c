"""Chaos driver for the cluster: tables play through the balancer while instances die.

:func:`run_chaos` creates ``tables`` Flaming Pyramids tables through the balancer, each a
mix of bot seats and human seats played by scripted clients, and lets them play while a
killer ``kill -9``s an instance every few seconds and restarts it a moment later (at most
``kills`` times, one instance down at a time, never the last one up; loopback only: the
cluster is this machine's). Then it checks what the cluster promises (docs/DEPLOY.md):

- **nothing acknowledged is lost**: every action a client had acknowledged (a WebSocket
  ``ack`` or an HTTP 200) is in the stored record at the seq the acknowledgement named;
- **nothing is applied twice**: the record's seqs are 1..n with no gap, it replays
  (:func:`pyramids.server.live.rebuild`: each action its seat's, legal, the snapshots
  equal) and verifies (:func:`pyramids.core.fairness.verify_record`: the chance draws and
  the end), every entry of a human seat is an action that seat's client decided on the
  state just before it, and no seq was acknowledged twice;
- **every client saw every move**: each scripted client (the players through the
  balancer, and one spectator per table held on each instance directly) ends with the
  final ``state`` at the record's length and a log holding every seq of the record, the
  same as the record, with no ``state`` skipped on any one connection;
- **every table finished** within the timeout.

A scripted player answers its seat's decisions with a random legal action after a short
"think"; on any disconnect it reconnects through the balancer with backoff and re-sends
its unacknowledged action with the same seq. A ``stale`` (or ``finished``) answer then
means it may have been applied before the connection broke: such actions are looked up in
the record at the end (``applied_unacked``) rather than counted either way. Some seats
send their actions over HTTP (``POST /api/tables/{id}/actions``) instead of the socket.

Used by ``bench/cluster.py`` (part c) and ``tests/cluster/test_chaos.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

INSTANCE_HEADER = "X-Pyramids-Instance"
BACKOFF_FIRST = 0.05
"""Seconds before the first reconnect attempt (doubling up to BACKOFF_MAX, with jitter)."""
BACKOFF_MAX = 1.0
FINISH_GRACE = 3.0
"""Seconds a player keeps reading after the final state for the ack of its last action
(the state an action causes reaches the sender before its ack)."""
RETRY_CODES = frozenset({"unavailable", "rate_limited", "timeout", "too_many_connections"})
"""Refusals after which the same action is sent again (nothing was applied)."""
MAYBE_APPLIED = frozenset({"stale", "finished"})
"""Refusals of a re-sent action that may mean its first sending was applied."""


class ClusterLike(Protocol):
    """What the driver needs of ``tests/cluster/cluster.py``'s ``Cluster``."""

    @property
    def url(self) -> str:
        """The balancer's ``http://127.0.0.1:PORT``."""

    @property
    def db_url(self) -> str:
        """The shared PostgreSQL database (a SQLAlchemy URL)."""

    @property
    def names(self) -> Sequence[str]:
        """The instances' names (``i1``, ``i2``…)."""

    def instance_url(self, name: str) -> str:
        """One instance's own ``http://127.0.0.1:PORT``, bypassing the balancer."""

    def kill(self, name: str) -> None:
        """SIGKILL one instance (its process group); return once it is gone."""

    def restart(self, name: str) -> None:
        """Start a killed instance again; return once the balancer sends it requests."""


@dataclass
class ChaosConfig:
    """How much chaos, on how many tables (defaults: the CI sample's size)."""

    tables: int = 8
    players: int = 3
    kills: int = 4
    first_kill: float = 2.0
    """Seconds of play before the first kill."""
    kill_every: float = 3.0
    """Mean seconds from a restart to the next kill (uniform, half to one and a half)."""
    down: float = 0.5
    """Seconds a killed instance stays down before it is restarted."""
    think: float = 0.4
    """Mean seconds a scripted player takes to decide (uniform, half to one and a half)."""
    bot_delay: float = 0.4
    preset: str = "family"
    max_turns: int = 40
    """Flaming rules option: the game ends after this many turns (about 55 actions with 3
    seats), so that a table's length is bounded whoever plays it."""
    http_every: int = 4
    """Every this-many-th human seat sends its actions over HTTP (0: none)."""
    spectators: bool = True
    """One spectator socket per table on each instance, connected to it directly."""
    timeout: float = 150.0
    """Seconds every table has to finish, from the start of play."""
    ack_timeout: float = 10.0
    """Seconds without an answer to an action before its connection is dropped."""
    seed: int = 1


@dataclass(frozen=True)
class Sent:
    """An action a scripted seat decided on the state at ``seq`` (record entry ``seq + 1``)."""

    table: str
    seat: int
    seq: int
    action: str


def _ws(url: str) -> str:
    return "ws" + url.removeprefix("http")


# ---------------------------------------------------------------- clients


class TableClient:
    """A WebSocket client of one table that keeps the log it is shown and reconnects on
    any loss, until it has seen the table's final state."""

    def __init__(self, table: str, label: str, url: Callable[[], str], token: str | None) -> None:
        self.table = table
        self.label = label
        self._url = url
        self.token = token
        self.entries: dict[int, tuple[int, str]] = {}
        """Every log entry seen, from ``hello`` logs and ``state`` messages: seq → (seat, action)."""
        self.final_seq: int | None = None
        self.gaps = 0
        """States that skipped a seq on one connection (a lost broadcast), and holey hellos."""
        self.conflicts = 0
        """Entries shown twice with different contents."""
        self.connects = 0
        self.instances: Counter[str] = Counter()
        self.errors: list[str] = []
        self.finished = False
        self.fatal = False
        self.crash: str | None = None
        self.latest: dict[str, Any] | None = None
        self.ws: Any = None

    def ws_url(self) -> str:
        """Where to connect now (the balancer, or one instance for a spectator)."""
        query = f"?token={self.token}" if self.token else ""
        return f"{_ws(self._url())}/ws/tables/{self.table}{query}"

    async def run(self, rng: random.Random) -> None:
        """Connect, follow the table, reconnect with backoff, until the final state."""
        try:
            await self._follow(rng)
        except Exception as exc:  # a bug of the client (or a message it cannot read)
            self.crash = repr(exc)
        finally:
            self.done()

    async def _follow(self, rng: random.Random) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        delay = BACKOFF_FIRST
        while not self.finished and not self.fatal:
            try:
                async with connect(
                    self.ws_url(),
                    open_timeout=5,
                    close_timeout=1,
                    ping_interval=5,
                    ping_timeout=10,
                    max_queue=None,
                    proxy=None,
                ) as ws:
                    self.connects += 1
                    answer = ws.response
                    name = answer.headers.get(INSTANCE_HEADER, "?") if answer else "?"
                    self.instances[name] += 1
                    if await self._session(ws):
                        delay = BACKOFF_FIRST
                    code = ws.close_code
                    if code in (4403, 4404, 4409):
                        self.fatal = True
                        self.errors.append(f"{self.label}: closed {code} {ws.close_reason}")
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                pass  # the instance died or the balancer has none up: try again
            if self.finished or self.fatal:
                break
            await asyncio.sleep(delay * rng.uniform(0.5, 1.5))
            delay = min(delay * 2, BACKOFF_MAX)

    async def _session(self, ws: Any) -> bool:
        """Read one connection until it closes or the game is over; True once a hello came."""
        from websockets.exceptions import ConnectionClosed

        self.ws = ws
        last: int | None = None  # the last seq this connection showed
        hello = False
        finished_at = 0.0
        try:
            while True:
                if self.finished and (
                    not self.is_waiting() or time.monotonic() - finished_at > FINISH_GRACE
                ):
                    return hello
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    if self.is_overdue():
                        await ws.close()
                        return hello
                    continue
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "hello":
                    hello = True
                    seqs = [e["seq"] for e in msg.get("log") or []]
                    if seqs != list(range(1, len(seqs) + 1)):
                        self.gaps += 1
                        self.errors.append(f"{self.label}: hello log seqs {seqs[:3]}…")
                    for e in msg.get("log") or []:
                        self._merge(e)
                    last = max(seqs, default=0)
                    self.opened(ws)
                elif kind == "state":
                    seq = msg["seq"]
                    if last is not None and seq > last + 1:
                        self.gaps += 1
                        self.errors.append(f"{self.label}: state {seq} came after {last}")
                    if msg.get("last"):
                        self._merge(msg["last"])
                    last = seq if last is None else max(last, seq)
                    self.latest = msg
                    if msg["status"] == "finished":
                        if not self.finished:
                            self.final_seq = seq
                            self.finished = True
                            finished_at = time.monotonic()
                        continue
                    self.on_state()
                elif kind == "ack":
                    self.on_ack(msg)
                elif kind == "error":
                    self.on_error(msg)
        except ConnectionClosed:
            return hello
        finally:
            self.ws = None

    def _merge(self, entry: dict[str, Any]) -> None:
        seen = (entry["seat"], entry["action"])
        old = self.entries.setdefault(entry["seq"], seen)
        if old != seen:
            self.conflicts += 1
            self.errors.append(f"{self.label}: seq {entry['seq']} shown as {old} and {seen}")

    # Hooks for the players (a spectator only watches).
    def opened(self, ws: Any) -> None:
        """A connection said hello."""

    def on_state(self) -> None:
        """A state of the running game arrived (``self.latest``)."""

    def on_ack(self, msg: dict[str, Any]) -> None:
        """An ack arrived."""

    def on_error(self, msg: dict[str, Any]) -> None:
        """An error arrived."""
        self.errors.append(f"{self.label}: {msg.get('code')}: {msg.get('message')}")

    def is_waiting(self) -> bool:
        """Whether an answer is still expected."""
        return False

    def is_overdue(self) -> bool:
        """Whether an answer has been awaited too long (the connection is then dropped)."""
        return False

    def done(self) -> None:
        """The client stops."""


class SeatPlayer(TableClient):
    """A scripted human seat: a random legal action after a think, re-sent unchanged after
    a reconnect until answered; over the socket, or (``http``) by ``POST …/actions``."""

    def __init__(
        self,
        table: str,
        seat: int,
        token: str,
        *,
        cluster: ClusterLike,
        cfg: ChaosConfig,
        rng: random.Random,
        http: Any = None,
    ) -> None:
        super().__init__(table, f"{table}/seat {seat}", lambda: cluster.url, token)
        self.seat = seat
        self.cfg = cfg
        self.rng = rng
        self.http = http
        self.decisions: dict[int, Sent] = {}
        """Every action decided, by the seq it was decided on."""
        self.acked: dict[int, Sent] = {}
        """Acknowledged actions by the seq their acknowledgement named."""
        self.unresolved: list[Sent] = []
        """Actions answered stale/finished (or never answered): looked up in the record."""
        self.ack_ms: list[float] = []
        self.resent = 0
        self.anomalies: list[str] = []
        self.wrong_acks = 0
        """Acknowledgements of another seq than the action's next, or of one seq twice."""
        self.pending: Sent | None = None
        self._stale_wait = False
        """The pending action was answered stale while this client had seen no later
        state (the instance answering may lag the database): send it again if the next
        state is still the one it was decided on, drop it if the game moved on."""
        self._sent_first = 0.0
        self._sent_last = 0.0
        self._task: asyncio.Task[None] | None = None

    def _id(self, p: Sent) -> str:
        return f"{p.seat}:{p.seq}"

    def opened(self, ws: Any) -> None:
        if self.pending is not None and (self._task is None or self._task.done()):
            self._send(self.pending, 0.0)

    def on_state(self) -> None:
        p, m = self.pending, self.latest
        if p is not None and self._stale_wait and m is not None:
            if m["seq"] == p.seq:
                self._stale_wait = False
                self._send(p, 0.0)
            elif m["seq"] > p.seq:
                self._resolve_later(p)
            return
        self._decide()

    def _resolve_later(self, p: Sent) -> None:
        """The game moved past ``p``'s state: whether it was applied is read in the record."""
        self.unresolved.append(p)
        self.pending = None
        self._stale_wait = False
        self._decide()

    def _decide(self) -> None:
        m = self.latest
        if m is None or self.pending is not None or m["status"] != "running":
            return
        seq, legal = m["seq"], m.get("legal") or []
        if not legal or seq in self.decisions:
            return
        p = Sent(self.table, self.seat, seq, self.rng.choice(legal))
        self.decisions[seq] = p
        self.pending = p
        self._sent_first = self._sent_last = 0.0
        self._stale_wait = False
        self._send(p, self.cfg.think * self.rng.uniform(0.5, 1.5))

    def _send(self, p: Sent, delay: float) -> None:
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        self._task = asyncio.create_task(self._send_later(p, delay))

    async def _send_later(self, p: Sent, delay: float) -> None:
        from websockets.exceptions import ConnectionClosed

        await asyncio.sleep(delay)
        if self.pending is not p:
            return
        now = time.monotonic()
        if self._sent_first:
            self.resent += 1
        else:
            self._sent_first = now
        self._sent_last = now
        if self.http is not None:
            await self._post(p)
            return
        ws = self.ws
        if ws is None:
            return  # sent again once a connection says hello
        payload = {"type": "action", "id": self._id(p), "seq": p.seq, "action": p.action}
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(payload))

    async def _post(self, p: Sent) -> None:
        import httpx

        body = {"token": self.token, "seq": p.seq, "action": p.action}
        try:
            r = await self.http.post(f"/api/tables/{self.table}/actions", json=body, timeout=10)
        except httpx.HTTPError:
            self._send(p, BACKOFF_MAX * self.rng.uniform(0.2, 0.6))  # nothing answered
            return
        if r.status_code == 200:
            self._acked(p, int(r.json()["seq"]))
            return
        try:
            err = r.json()["error"]
            code, message = str(err["code"]), str(err["message"])
        except (ValueError, KeyError, TypeError):
            code, message = f"http {r.status_code}", r.text[:200]
        if r.status_code >= 500 and code not in MAYBE_APPLIED:
            code = "unavailable"  # the balancer's 502/503: the instance died under it
        self._refused(p, code, message)

    def _acked(self, p: Sent, seq: int) -> None:
        if self.pending is not p:
            self.anomalies.append(f"{self.label}: a late acknowledgement of seq {seq}")
            return
        if seq != p.seq + 1:
            self.wrong_acks += 1
            self.anomalies.append(f"{self.label}: action on {p.seq} acknowledged as seq {seq}")
        if seq in self.acked:
            self.wrong_acks += 1
            self.anomalies.append(f"{self.label}: seq {seq} acknowledged twice")
        self.acked[seq] = p
        self.ack_ms.append((time.monotonic() - self._sent_first) * 1000.0)
        self.pending = None
        self._decide()

    def _refused(self, p: Sent, code: str, message: str) -> None:
        if self.pending is not p:
            return
        if code in RETRY_CODES:
            self._send(p, BACKOFF_MAX * self.rng.uniform(0.2, 0.6))
            return
        if code == "stale" and (self.latest is None or self.latest["seq"] <= p.seq):
            self._stale_wait = True
            return
        if code not in MAYBE_APPLIED:
            self.anomalies.append(f"{self.label}: action on {p.seq} refused: {code}: {message}")
        self._resolve_later(p)

    def on_ack(self, msg: dict[str, Any]) -> None:
        p = self.pending
        if p is not None and msg.get("id") == self._id(p):
            self._acked(p, int(msg["seq"]))

    def on_error(self, msg: dict[str, Any]) -> None:
        p = self.pending
        if p is not None and msg.get("id") == self._id(p):
            self._refused(p, str(msg.get("code")), str(msg.get("message")))
        else:
            super().on_error(msg)

    def is_waiting(self) -> bool:
        return self.pending is not None

    def is_overdue(self) -> bool:
        return (
            self.pending is not None
            and self.http is None
            and self._sent_last > 0
            and time.monotonic() - self._sent_last > self.cfg.ack_timeout
        )

    def done(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self.pending is not None:
            self.unresolved.append(self.pending)
            self.pending = None


# ---------------------------------------------------------------- the killer


@dataclass
class Kill:
    """One kill -9 of the run."""

    instance: str
    at: float
    """Seconds from the start of play."""
    owned: int
    """Unfinished tables it held a lease on just before (-1: no ``table_leases`` table)."""
    restart_s: float
    restarted: bool


def owned_tables(engine: Any) -> dict[str, int] | None:
    """Running tables per instance name, from the live leases (``table_leases``:
    ``owner`` is ``NAME/INCARNATION``); None when there is no such table."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    query = text(
        "SELECT l.owner, count(*) FROM table_leases l JOIN tables t ON t.id = l.table_id "
        "WHERE t.status = 'running' AND l.expires > now() GROUP BY l.owner"
    )
    try:
        with engine.connect() as conn:
            rows = conn.execute(query).all()
    except DBAPIError:
        return None
    counts: Counter[str] = Counter()
    for owner, n in rows:
        counts[str(owner).split("/", 1)[0]] += int(n)
    return dict(counts)


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def killer(
    cluster: ClusterLike,
    cfg: ChaosConfig,
    *,
    engine: Any,
    rng: random.Random,
    stop: asyncio.Event,
    t0: float,
) -> list[Kill]:
    """Kill -9 an instance (one owning tables, when the leases say) every few seconds and
    restart it after ``down`` seconds; at most ``kills``, one down at a time, none when
    only one instance runs."""
    kills: list[Kill] = []
    names = list(cluster.names)
    down: set[str] = set()
    await _pause(stop, cfg.first_kill)
    while len(kills) < cfg.kills and not stop.is_set() and len(names) - len(down) >= 2:
        owned = await asyncio.to_thread(owned_tables, engine)
        up = [n for n in names if n not in down]
        candidates = [n for n in up if owned and owned.get(n)] or up
        victim = rng.choice(candidates)
        at = time.monotonic() - t0
        await asyncio.to_thread(cluster.kill, victim)
        down.add(victim)
        await asyncio.sleep(cfg.down)
        started = time.monotonic()
        restarted = False
        for _ in range(2):
            try:
                await asyncio.to_thread(cluster.restart, victim)
                restarted = True
                break
            except Exception:  # reported in the kill's line (restarted false); tried twice
                await asyncio.sleep(1.0)
        if restarted:
            down.discard(victim)
        kills.append(
            Kill(
                victim,
                at,
                -1 if owned is None else owned.get(victim, 0),
                time.monotonic() - started,
                restarted,
            )
        )
        await _pause(stop, cfg.kill_every * rng.uniform(0.5, 1.5))
    return kills


# ---------------------------------------------------------------- the run


@dataclass
class TableRun:
    """A table of the run: its id and which seats are people."""

    id: str
    kinds: list[str]
    tokens: dict[int, str]


def table_body(index: int, cfg: ChaosConfig) -> dict[str, Any]:
    """``POST /api/tables`` for table ``index``: 1 to ``players`` human seats (by turns),
    placed differently each time, the others greedy or random bots."""
    humans = 1 + index % cfg.players
    kinds = ["human"] * humans + ["bot"] * (cfg.players - humans)
    shift = index % cfg.players
    kinds = kinds[shift:] + kinds[:shift]
    seats = [
        {"kind": "human", "name": f"p{s}"}
        if k == "human"
        else {"kind": "bot", "bot": ("greedy", "random")[s % 2]}
        for s, k in enumerate(kinds)
    ]
    return {
        "game": "flaming",
        "seats": seats,
        "options": {"preset": cfg.preset, "max_turns": cfg.max_turns},
        "bot_delay": cfg.bot_delay,
        "absent_after": 0,
        "turn_time": 0,
    }


async def create_tables(http: Any, cfg: ChaosConfig) -> list[TableRun]:
    """Create the run's tables through the balancer."""
    runs = []
    for i in range(cfg.tables):
        body = table_body(i, cfg)
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        data = r.json()
        tokens = {inv["seat"]: inv["token"] for inv in data["invites"]}
        runs.append(TableRun(data["table"]["id"], [s["kind"] for s in body["seats"]], tokens))
    return runs


@dataclass
class ChaosReport:
    """What the run did and found; :meth:`is_clean` when nothing was lost or doubled and
    every table finished with every client complete."""

    tables: int
    tables_finished: int
    actions: int
    """Actions stored over every table (chance outcomes and bots' moves included)."""
    kills: list[dict[str, Any]]
    players: int
    http_players: int
    spectators: int
    decided: int
    acked: int
    applied_unacked: int
    """Answered stale/finished after a re-send (or never answered) and found in the record."""
    not_applied: int
    lost: int
    duplicated: int
    duplicates: dict[str, int]
    clients_complete: int
    clients: int
    gaps: int
    conflicts: int
    reconnects: int
    resent: int
    ack_p50_ms: float
    ack_p99_ms: float
    ack_max_ms: float
    seconds: float
    problems: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def is_clean(self) -> bool:
        """Whether the cluster kept every promise in this run."""
        return (
            self.lost == 0
            and self.duplicated == 0
            and self.tables_finished == self.tables
            and self.clients_complete == self.clients
            and self.gaps == 0
            and self.conflicts == 0
            and not self.problems
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return asdict(self)

    def summary(self) -> str:
        """One paragraph for people."""
        ks = ", ".join(f"{k['instance']}@{k['at']:.0f}s({k['owned']} tables)" for k in self.kills)
        return (
            f"{self.tables} tables ({self.players} scripted players, {self.http_players} of them "
            f"over HTTP, {self.spectators} spectators on the instances), {len(self.kills)} "
            f"kills [{ks}], {self.seconds:.0f} s: {self.tables_finished}/{self.tables} "
            f"finished, {self.actions} actions stored; {self.acked} acknowledged, "
            f"{self.applied_unacked} applied without an ack, {self.not_applied} not applied; "
            f"lost {self.lost}, duplicated {self.duplicated}; clients complete "
            f"{self.clients_complete}/{self.clients} (gaps {self.gaps}, conflicts "
            f"{self.conflicts}); {self.reconnects} reconnects, {self.resent} re-sent; ack "
            f"p50/p99/max {self.ack_p50_ms:.0f}/{self.ack_p99_ms:.0f}/{self.ack_max_ms:.0f} ms"
        )


def _instance_url(cluster: ClusterLike, name: str) -> Callable[[], str]:
    """Where instance ``name`` listens now (asked at each connection)."""
    return lambda: cluster.instance_url(name)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank; 0 for no values."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered), max(1, math.ceil(q * len(ordered)))) - 1]


@dataclass
class ChaosRun:
    """A finished run: what each client was told, and the report of :func:`check`."""

    runs: list[TableRun]
    players: list[SeatPlayer]
    spectators: list[TableClient]
    records: dict[str, dict[str, Any] | None]
    """Each table's ``GET /api/tables/{id}/record`` (None: not 200)."""
    kills: list[Kill]
    seconds: float
    report: ChaosReport

    def check(self, db_url: str) -> ChaosReport:
        """Check again against the database (a test checks that the checks can fail)."""
        return check_at(
            db_url,
            self.runs,
            players=self.players,
            spectators=self.spectators,
            records=self.records,
            kills=self.kills,
            seconds=self.seconds,
        )


async def run_chaos(cluster: ClusterLike, cfg: ChaosConfig) -> ChaosRun:
    """Play ``cfg.tables`` tables through the cluster's balancer while instances are
    killed; check the records and every client's view (module docstring)."""
    import httpx
    from sqlalchemy import create_engine

    rng = random.Random(cfg.seed)
    engine = create_engine(cluster.db_url, pool_pre_ping=True)
    async with httpx.AsyncClient(base_url=cluster.url, timeout=30, trust_env=False) as http:
        runs = await create_tables(http, cfg)
        players: list[SeatPlayer] = []
        spectators: list[TableClient] = []
        humans = 0
        for run in runs:
            for seat, token in sorted(run.tokens.items()):
                via_http = bool(cfg.http_every) and humans % cfg.http_every == cfg.http_every - 1
                humans += 1
                prng = random.Random(rng.random())
                players.append(
                    SeatPlayer(
                        run.id,
                        seat,
                        token,
                        cluster=cluster,
                        cfg=cfg,
                        rng=prng,
                        http=http if via_http else None,
                    )
                )
            if cfg.spectators:
                for name in cluster.names:
                    spectators.append(
                        TableClient(
                            run.id,
                            f"{run.id}/spectator@{name}",
                            _instance_url(cluster, name),
                            None,
                        )
                    )
        t0 = time.monotonic()
        clients: list[TableClient] = [*players, *spectators]
        tasks = [asyncio.create_task(c.run(random.Random(rng.random()))) for c in clients]
        stop = asyncio.Event()
        kill_task = asyncio.create_task(
            killer(cluster, cfg, engine=engine, rng=rng, stop=stop, t0=t0)
        )
        _, late = await asyncio.wait(tasks, timeout=cfg.timeout)
        stop.set()
        for task in late:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        seconds = time.monotonic() - t0
        kills = await kill_task
        records: dict[str, dict[str, Any] | None] = {}
        for run in runs:
            r = await http.get(f"/api/tables/{run.id}/record")
            records[run.id] = r.json() if r.status_code == 200 else None
    engine.dispose()
    report = await asyncio.to_thread(
        lambda: check_at(
            cluster.db_url,
            runs,
            players=players,
            spectators=spectators,
            records=records,
            kills=kills,
            seconds=seconds,
        )
    )
    return ChaosRun(runs, players, spectators, records, kills, seconds, report)


def chaos(cluster: ClusterLike, cfg: ChaosConfig) -> ChaosRun:
    """:func:`run_chaos` from synchronous code."""
    return asyncio.run(run_chaos(cluster, cfg))


# ---------------------------------------------------------------- the checks


def check_at(db_url: str, runs: Sequence[TableRun], **seen: Any) -> ChaosReport:
    """:func:`check` on a new engine for ``db_url``."""
    from sqlalchemy import create_engine

    engine = create_engine(db_url)
    try:
        return check(engine, runs, **seen)
    finally:
        engine.dispose()


def check(
    engine: Any,
    runs: Sequence[TableRun],
    *,
    players: Sequence[SeatPlayer],
    spectators: Sequence[TableClient],
    records: dict[str, dict[str, Any] | None],
    kills: Sequence[Kill],
    seconds: float,
) -> ChaosReport:
    """Compare what the clients were told with what PostgreSQL holds (module docstring)."""
    from pyramids.core.fairness import verify_record
    from pyramids.core.record import GameRecord
    from pyramids.games import make_game
    from pyramids.server.live import StartupError, rebuild
    from pyramids.server.store import load_table

    problems: list[str] = []
    dup: Counter[str] = Counter()
    lost = applied_unacked = not_applied = finished = actions = complete = 0
    by_table: dict[str, list[SeatPlayer]] = {}
    for p in players:
        by_table.setdefault(p.table, []).append(p)
    watchers: dict[str, list[TableClient]] = {}
    for c in [*players, *spectators]:
        watchers.setdefault(c.table, []).append(c)
    with engine.connect() as conn:
        stored = {run.id: load_table(conn, run.id) for run in runs}
    for run in runs:
        rec = stored[run.id]
        if rec is None:
            problems.append(f"{run.id}: not in the database")
            continue
        n = len(rec.actions)
        actions += n
        if rec.status == "finished":
            finished += 1
        else:
            problems.append(f"{run.id}: {rec.status} at seq {rec.seq} when the run ended")
        seqs = [seq for seq, _, _ in rec.actions]
        if seqs != list(range(1, n + 1)):
            dup["seq_gap_or_twice"] += 1
            problems.append(f"{run.id}: stored seqs are not 1..{n}")
        try:
            rebuild(rec)
        except StartupError as exc:
            dup["replay_failed"] += 1
            problems.append(f"{run.id}: the record does not replay: {exc}")
        data = records.get(run.id)
        if rec.status == "finished":
            if data is None:
                problems.append(f"{run.id}: GET …/record did not answer 200")
            else:
                record = GameRecord.from_json(data)
                if record.actions != [a for _, _, a in rec.actions]:
                    problems.append(f"{run.id}: GET …/record differs from the database")
                verdict = verify_record(make_game(rec.game, rec.players, rec.options), record)
                if not verdict.is_verified and verdict.failure is not None:
                    dup["not_verified"] += 1
                    problems.append(f"{run.id}: not verified: {verdict.failure.message}")
        by_seq = {seq: (seat, action) for seq, seat, action in rec.actions}
        acked_seqs: Counter[int] = Counter()
        for p in by_table.get(run.id, []):
            for seq, s in p.acked.items():
                acked_seqs[seq] += 1
                if by_seq.get(seq) != (s.seat, s.action):
                    lost += 1
                    problems.append(
                        f"{p.label}: acknowledged {s.action!r} at seq {seq}, stored "
                        f"{by_seq.get(seq)}"
                    )
            for s in p.unresolved:
                if by_seq.get(s.seq + 1) == (s.seat, s.action):
                    applied_unacked += 1
                else:
                    not_applied += 1
            for seq, (seat, action) in by_seq.items():
                if seat != p.seat:
                    continue
                if seq in rec.stand_ins:  # absent_after and turn_time are off: none expected
                    problems.append(f"{p.label}: a bot stood in at seq {seq}")
                    continue
                decided = p.decisions.get(seq - 1)
                if decided is None or decided.action != action:
                    dup["unexplained"] += 1
                    problems.append(
                        f"{p.label}: stored {action!r} at seq {seq}, which the player did "
                        "not decide on the state before"
                    )
        dup["acked_twice"] += sum(1 for c in acked_seqs.values() if c > 1)
        for c in watchers.get(run.id, []):
            ok = c.final_seq == n and set(c.entries) == set(by_seq)
            wrong = [
                seq
                for seq, (seat, action) in c.entries.items()
                if seq in by_seq
                and (seat != by_seq[seq][0] or (action != by_seq[seq][1] and "?" not in action))
            ]
            if wrong:
                problems.append(f"{c.label}: entries {wrong[:5]} differ from the record")
            if ok and not wrong:
                complete += 1
            else:
                missing = sorted(set(by_seq) - set(c.entries))
                problems.append(
                    f"{c.label}: final seq {c.final_seq} of {n}, missing {missing[:5]}"
                    f"{'…' if len(missing) > 5 else ''}"
                )
    clients = [*players, *spectators]
    problems += [f"{c.label}: the client failed: {c.crash}" for c in clients if c.crash]
    ack_ms = [x for p in players for x in p.ack_ms]
    anomalies = [a for p in players for a in p.anomalies]
    dup["wrong_acks"] += sum(p.wrong_acks for p in players)
    problems += anomalies
    return ChaosReport(
        tables=len(runs),
        tables_finished=finished,
        actions=actions,
        kills=[asdict(k) for k in kills],
        players=len(players),
        http_players=sum(1 for p in players if p.http is not None),
        spectators=len(spectators),
        decided=sum(len(p.decisions) for p in players),
        acked=sum(len(p.acked) for p in players),
        applied_unacked=applied_unacked,
        not_applied=not_applied,
        lost=lost,
        duplicated=sum(dup.values()),
        duplicates={k: v for k, v in dup.items() if v},
        clients_complete=complete,
        clients=len(clients),
        gaps=sum(c.gaps for c in clients),
        conflicts=sum(c.conflicts for c in clients),
        reconnects=sum(max(0, c.connects - 1) for c in clients),
        resent=sum(p.resent for p in players),
        ack_p50_ms=percentile(ack_ms, 0.50),
        ack_p99_ms=percentile(ack_ms, 0.99),
        ack_max_ms=max(ack_ms, default=0.0),
        seconds=seconds,
        problems=problems[:50],
        errors=[e for c in clients for e in c.errors][:50],
    )
