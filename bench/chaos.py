"""Chaos driver for the cluster: tables play through the balancer while instances die.

:func:`run_chaos` creates ``tables`` Flaming Pyramids tables through the balancer, each a
mix of bot seats and human seats played by scripted clients, and lets them play while a
killer ``kill -9``s an instance each time the leading table has played ``kill_every`` more
actions and restarts it a moment later (``kills`` times, one instance down at a time, never
the last one up; loopback only: the cluster is this machine's). The kills follow the games'
progress, not the clock (``chaos_clients.Pace``): players hold their next action until the
kill due before it has happened, so every planned kill comes while every table still
plays, on a fast machine or a busy one. Then it checks what the cluster promises (docs/DEPLOY.md):

- **nothing acknowledged is lost**: every action a client had acknowledged (a WebSocket
  ``ack`` or an HTTP 200) is in the stored record at the seq the acknowledgement named;
- **nothing is applied twice**: the record's seqs are 1..n with no gap, it replays
  (:func:`pyramids.server.rebuild.rebuild`: each action its seat's, legal, the snapshots
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

Used by ``bench/cluster.py`` (part c) and ``tests/cluster/test_chaos.py``; the scripted
clients are in ``bench/chaos_clients.py``.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from chaos_clients import (  # bench/ is on sys.path (run as a script, or as the tests load it)
    ChaosConfig,
    ClusterLike,
    Pace,
    SeatPlayer,
    TableClient,
)

__all__ = [
    "ChaosConfig",
    "ChaosReport",
    "ChaosRun",
    "chaos",
    "check",
    "check_at",
    "kill_pace",
    "run_chaos",
    "shortest_game",
]

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
    mark: int = 0
    """The leading table's seq when it was killed."""


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


def shortest_game(cfg: ChaosConfig) -> int:
    """The fewest actions a table of ``cfg`` can end after: each turn is at least one
    action, a game not won ends at ``max_turns`` turns, and a seat sheds at most one tile a
    turn (its placement; mayhem only gives tiles back), so the first win comes no earlier
    than turn ``(tiles - 1) * players + 1``, with ``tiles`` the fewest any seat is dealt."""
    from pyramids.games import make_game

    game = make_game(
        "flaming", cfg.players, {"preset": cfg.preset, "max_turns": cfg.max_turns}, engine="python"
    )
    state: Any = game.new_initial_state(cfg.seed)
    tiles = min(len(state.hand(s)) + len(state.pile(s)) for s in range(cfg.players))
    return min(cfg.max_turns, (tiles - 1) * cfg.players + 1)


def kill_pace(cfg: ChaosConfig) -> Pace:
    """The run's :class:`Pace`: ``cfg.kill_every``, or the kills spread over the shortest
    game with one interval to spare; ValueError when a table could end before the last
    kill's mark."""
    shortest = shortest_game(cfg)
    every = max(1, cfg.kill_every or shortest // (cfg.kills + 1))
    if cfg.kills and every * cfg.kills >= shortest:
        raise ValueError(
            f"{cfg.kills} kills {every} actions apart: a table can end after {shortest} "
            "actions, before the last kill (fewer kills, or a larger max_turns)"
        )
    return Pace(every, cfg.kills)


async def killer(
    cluster: ClusterLike,
    cfg: ChaosConfig,
    *,
    engine: Any,
    rng: random.Random,
    pace: Pace,
    t0: float,
) -> list[Kill]:
    """Kill -9 an instance (one owning tables, when the leases say) each time the leading
    table reaches the next mark of ``pace``, and restart it after ``cfg.down`` seconds; at
    most ``kills``, one down at a time, none when only one instance runs. The gates of
    ``pace`` open for good when the killer ends, whatever ended it."""
    kills: list[Kill] = []
    names = list(cluster.names)
    down: set[str] = set()
    try:
        while len(kills) < cfg.kills and len(names) - len(down) >= 2:
            await pace.until(pace.kill_due)
            if pace.released:
                break
            owned = await asyncio.to_thread(owned_tables, engine)
            up = [n for n in names if n not in down]
            candidates = [n for n in up if owned and owned.get(n)] or up
            victim = rng.choice(candidates)
            at, mark = time.monotonic() - t0, pace.leader
            await asyncio.to_thread(cluster.kill, victim)
            down.add(victim)
            await asyncio.sleep(cfg.down)  # the instance stays dead this long: the scenario
            started = time.monotonic()
            restarted = False
            for _ in range(2):
                try:
                    await asyncio.to_thread(cluster.restart, victim)
                    restarted = True
                    break
                except Exception:  # reported in the kill's line (restarted false); tried twice
                    await asyncio.sleep(1.0)  # a moment before the second try
            if restarted:
                down.discard(victim)
            kills.append(
                Kill(
                    victim,
                    at,
                    -1 if owned is None else owned.get(victim, 0),
                    time.monotonic() - started,
                    restarted,
                    mark,
                )
            )
            pace.killed()
    finally:
        pace.release()
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
        "turn_time": 86400,  # the longest: every table has one (issue 29), none runs out here
    }


async def create_tables(http: Any, cfg: ChaosConfig) -> list[TableRun]:
    """Create the run's tables through the balancer."""
    runs = []
    for i in range(cfg.tables):
        body = table_body(i, cfg)
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        data = r.json()
        tokens: dict[int, str] = {}
        for inv in data["invites"]:  # an invite is used once: play with the seat's credential
            used = await http.get(
                f"/api/tables/{data['table']['id']}/state", params={"token": inv["token"]}
            )
            used.raise_for_status()
            tokens[inv["seat"]] = used.json()["seat_token"]
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
        ks = ", ".join(
            f"{k['instance']}@{k['at']:.0f}s,seq {k['mark']}({k['owned']} tables)"
            for k in self.kills
        )
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
    pace = kill_pace(cfg)
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
                        pace=pace,
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
        kill_task = asyncio.create_task(
            killer(cluster, cfg, engine=engine, rng=rng, pace=pace, t0=t0)
        )
        _, late = await asyncio.wait(tasks, timeout=cfg.timeout)
        pace.release()
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
    from pyramids.server.rebuild import StartupError, rebuild
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
                if seq in rec.stand_ins:  # no absence takeover, a day per move: none expected
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
