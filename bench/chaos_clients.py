"""The chaos run's scripted clients (``bench/chaos.py``): players that reconnect and re-send,
and spectators that watch one instance each.

A player decides a random legal action after a think, sends it over its socket (or over
HTTP for every ``http_every``-th seat), and on any disconnect reconnects through the
balancer with backoff and re-sends its unacknowledged action with the same seq; a
spectator keeps one socket on one instance. Each remembers everything it was told, which
``chaos.check`` compares with what PostgreSQL holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    kill_every: int | None = None
    """Actions of the leading table between kills (kill k once some table has reached seq
    ``k * kill_every``); None spreads the kills evenly over the shortest game the options
    allow (:func:`chaos.shortest_game`), so that every kill comes while every table plays."""
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


# ---------------------------------------------------------------- pace


class Pace:
    """Kills driven by the games' progress, not by the clock.

    Kill ``k`` (1, 2…) is due once some table has reached seq ``k * every`` (``leader``);
    until kill ``k`` has happened (and its instance was restarted) no scripted player sends
    an action decided on a state at seq ``k * every`` or later, so no table runs more than
    its bots' turns past the next kill's mark. Whatever the machine's speed, every planned
    kill then comes while every table is still playing, as long as no game can end before
    ``kills * every`` plus a round of bot turns (:func:`chaos.shortest_game`). ``release``
    opens every gate (the killer has ended, or the run is over)."""

    def __init__(self, every: int, kills: int) -> None:
        if every < 1:
            raise ValueError(f"kills must be at least one action apart, not {every}")
        self.every = every
        self.kills = kills
        self.done = 0
        """Kills that have happened (each followed by its restart)."""
        self.leader = 0
        """The highest seq any scripted player has seen."""
        self.released = False
        self._changed = asyncio.Event()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def seen(self, seq: int) -> None:
        """A player saw its table at ``seq``."""
        if seq > self.leader:
            self.leader = seq
            self._notify()

    def killed(self) -> None:
        """One more kill happened (and its restart was tried)."""
        self.done += 1
        self._notify()

    def release(self) -> None:
        """Open every gate for good."""
        self.released = True
        self._notify()

    def may_act(self, seq: int) -> bool:
        """Whether a player may send an action decided on the state at ``seq`` now."""
        return self.released or self.done >= self.kills or seq < (self.done + 1) * self.every

    def kill_due(self) -> bool:
        """Whether the next kill's mark has been reached (or the run is over)."""
        return self.released or self.leader >= (self.done + 1) * self.every

    async def until(self, ready: Callable[[], bool]) -> None:
        """Wait until ``ready()`` (re-checked at every change of the pace)."""
        while not ready():
            await self._changed.wait()


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
        pace: Pace | None = None,
    ) -> None:
        super().__init__(table, f"{table}/seat {seat}", lambda: cluster.url, token)
        self.seat = seat
        self.cfg = cfg
        self.pace = pace
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
        if self.pace is not None and m is not None:
            self.pace.seen(int(m["seq"]))
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
        pace = self.pace
        if pace is not None:  # the next kill comes first (Pace)
            await pace.until(lambda: pace.may_act(p.seq))
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
