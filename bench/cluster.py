"""Cluster benchmark: throughput by instance count, takeover after kill -9, chaos.

Each part starts its own cluster on this machine with ``tests/cluster/cluster.py``'s
``Cluster`` (``scripts/cluster.sh``: a throwaway PostgreSQL, N ``pyramids serve``
instances, HAProxy in front; loopback only) and talks to it through the balancer:

(a) **throughput**: for each N of ``--instances`` (1,2,3), ``--tables`` Flaming Pyramids
    tables of ``--players`` human seats, each seat a WebSocket client answering its
    decisions at once with a random legal action (``bench/server_load.py``'s load
    generator, in ``--clients`` processes, a finished game replaced by a new table);
    actions acknowledged per second and the acknowledgement latency over ``--seconds``
    after ``--warmup``, and the CPU each part of the cluster used meanwhile. ``--direct``
    adds a row per N with the clients on the instances directly (one process each, every
    table played on the instance that created it): the balancer's and the cross-instance
    routing's share of the cost.
(b) **takeover**: all-bot tables (``--takeover-bot-delay``) on 3 instances; ``--kills``
    times, the instances in turn, make sure the victim owns at least ``--per-kill``
    running tables (``table_leases.owner`` is ``NAME/INCARNATION``; tables created on the
    victim directly are its own), SIGKILL it, and time from the SIGKILL to the first
    action stored (``actions.created``) on each of its tables; then restart it.
(c) **chaos**: ``bench/chaos.py`` with ``--chaos-tables`` and ``--chaos-kills``: mixed
    tables of bots and scripted players (some over HTTP) plus spectators on every
    instance, instances killed and restarted under them; acknowledged actions lost and
    duplicated (both must be 0), every table finished, every client's log complete.

    .venv/bin/python bench/cluster.py                          # all three, about 7 minutes
    .venv/bin/python bench/cluster.py --only takeover --kills 40
    .venv/bin/python bench/cluster.py --out cluster.json       # the figures as JSON too

Prints a table; ``--json`` prints the JSON instead, ``--out FILE`` writes it. Exit status
1 when the chaos part lost or duplicated an action or left a table unfinished.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import multiprocessing as mp
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))  # tests.cluster.cluster (this directory is sys.path[0])

import chaos  # noqa: E402 - bench/ is sys.path[0] when run as a script
import server_load  # noqa: E402


@contextlib.contextmanager
def cluster_of(base: Path, label: str, instances: int) -> Iterator[Any]:
    """A started cluster of ``instances`` in a fresh directory under ``base``; stopped after."""
    from tests.cluster.cluster import Cluster
    from tests.live import TEST_LIMITS  # loopback clients: no per-address limits

    where = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=base))
    where.chmod(0o755)  # PostgreSQL runs as user postgres and must pass through it
    cluster = Cluster(where, 0, instances=instances, env=TEST_LIMITS)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 if it is gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family_cpu_seconds(pid: int | None) -> float:
    """CPU seconds of ``pid`` and its live children (PostgreSQL: the postmaster and its
    backends; a backend that has exited no longer counts)."""
    if pid is None:
        return 0.0
    total = cpu_seconds(pid)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def busy_seconds() -> float:
    """CPU seconds spent on anything but idle and iowait, over every core (/proc/stat)."""
    parts = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(x) for x in parts]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- (a) throughput


def throughput(
    cluster: Any, instances: int, args: argparse.Namespace, *, direct: bool = False
) -> dict[str, Any]:
    """Saturate (or pace, ``--rate``) the cluster with server_load's clients via the
    balancer; ``direct``: each client process talks to one instance past the balancer, so
    that every table is played where it was created (its owner)."""
    ctx = mp.get_context("spawn")
    start, end = ctx.Value("d", 0.0), ctx.Value("d", 0.0)
    urls = [cluster.instance_url(n) for n in cluster.names] if direct else [cluster.url]
    clients = max(args.clients, len(urls))
    share = [args.tables // clients + (i < args.tables % clients) for i in range(clients)]
    interval = args.tables / args.rate if args.rate > 0 else 0.0
    pipes, procs = [], []
    for i, n in enumerate(share):
        parent, child = ctx.Pipe()
        url = urls[i % len(urls)]
        ws_url = "ws" + url.removeprefix("http")
        cfg = server_load.ClientConfig(
            i, url, ws_url, n, args.players, args.preset, args.seed, interval
        )
        proc = ctx.Process(
            target=server_load.client_main, args=(cfg, start, end, child, []), daemon=True
        )
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
    pids = [cluster.pid(name) for name in cluster.names]

    def cpu() -> tuple[float, float, float, float]:
        return (
            sum(cpu_seconds(p) for p in pids),
            family_cpu_seconds(cluster.pid("postgres")),
            cpu_seconds(cluster.pid("balancer")),
            busy_seconds(),
        )

    before, wall0 = cpu(), time.time()
    time.sleep(max(0.0, t_start + args.seconds - time.time()))
    after, wall1 = cpu(), time.time()
    used = [(b - a) / (wall1 - wall0) for a, b in zip(before, after, strict=True)]
    results = [server_load.ClientResult(**pipe.recv()) for pipe in pipes]
    for proc in procs:
        proc.join(30)
    lat = sorted(x for r in results for x in r.latencies_ms)
    errors = [e for r in results for e in r.errors]
    pct = server_load.percentile
    return {
        "instances": instances,
        "route": "direct" if direct else "balancer",
        "client_processes": clients,
        "actions_per_s": len(lat) / args.seconds,
        "actions": len(lat),
        "p50_ms": pct(lat, 0.50),
        "p90_ms": pct(lat, 0.90),
        "p99_ms": pct(lat, 0.99),
        "max_ms": lat[-1] if lat else 0.0,
        "games_finished": sum(r.games_finished for r in results),
        "tables_created": sum(r.tables_created for r in results),
        "instances_cpu_cores": used[0],
        "postgres_cpu_cores": used[1],
        "balancer_cpu_cores": used[2],
        "machine_busy_cores": used[3],
        "load_cpu_cores": sum(r.cpu_seconds for r in results) / (args.seconds + args.warmup),
        "errors": errors[:20],
        "error_count": len(errors),
    }


# ---------------------------------------------------------------- (b) takeover


def _when(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, dt.UTC)


def owned_running(engine: Any, name: str) -> list[str]:
    """The running tables whose live lease instance ``name`` holds (any incarnation)."""
    from sqlalchemy import text

    query = text(
        "SELECT l.table_id FROM table_leases l JOIN tables t ON t.id = l.table_id "
        "WHERE t.status = 'running' AND l.expires > now() AND l.owner LIKE :owner"
    )
    with engine.connect() as conn:
        return [str(r[0]) for r in conn.execute(query, {"owner": f"{name}/%"})]


def running_count(engine: Any) -> int:
    """Running tables in the database."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return int(
            conn.execute(text("SELECT count(*) FROM tables WHERE status = 'running'")).one()[0]
        )


def first_actions_after(engine: Any, ids: Sequence[str], after: float) -> dict[str, float]:
    """Per table of ``ids``, the epoch time of its first action stored after ``after``."""
    if not ids:
        return {}
    from sqlalchemy import bindparam, text

    query = text(
        "SELECT table_id, min(created) FROM actions WHERE table_id IN :ids AND created > :t "
        "GROUP BY table_id"
    ).bindparams(bindparam("ids", expanding=True))
    with engine.connect() as conn:
        rows = conn.execute(query, {"ids": list(ids), "t": _when(after)}).all()
    return {str(tid): created.timestamp() for tid, created in rows}


def owners_of(engine: Any, ids: Sequence[str]) -> dict[str, str]:
    """table → lease owner (``NAME/INCARNATION``) for the tables of ``ids`` that have one."""
    if not ids:
        return {}
    from sqlalchemy import bindparam, text

    query = text("SELECT table_id, owner FROM table_leases WHERE table_id IN :ids").bindparams(
        bindparam("ids", expanding=True)
    )
    with engine.connect() as conn:
        return {str(t): str(o) for t, o in conn.execute(query, {"ids": list(ids)})}


def statuses(engine: Any, ids: Sequence[str]) -> dict[str, str]:
    """table → status."""
    if not ids:
        return {}
    from sqlalchemy import bindparam, text

    query = text("SELECT id, status FROM tables WHERE id IN :ids").bindparams(
        bindparam("ids", expanding=True)
    )
    with engine.connect() as conn:
        return {str(t): str(s) for t, s in conn.execute(query, {"ids": list(ids)})}


def bot_table(args: argparse.Namespace) -> dict[str, Any]:
    """``POST /api/tables`` for an all-bot table of long random games."""
    return {
        "game": "flaming",
        "seats": [{"kind": "bot", "bot": "random"} for _ in range(args.players)],
        "options": {"preset": args.preset},
        "bot_delay": args.takeover_bot_delay,
    }


def takeover(cluster: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Kill each instance in turn ``--kills`` times; how long until its tables move again."""
    import httpx
    from sqlalchemy import create_engine

    engine = create_engine(cluster.db_url, pool_pre_ping=True)
    names = list(cluster.names)
    samples: list[dict[str, Any]] = []
    with httpx.Client(timeout=30, trust_env=False) as http:

        def create(base: str) -> str:
            r = http.post(f"{base}/api/tables", json=bot_table(args))
            r.raise_for_status()
            return str(r.json()["table"]["id"])

        try:
            for k in range(args.kills):
                victim = names[k % len(names)]
                for _ in range(max(0, args.takeover_tables - running_count(engine))):
                    create(cluster.url)
                owned = owned_running(engine, victim)
                for _ in range(max(0, args.per_kill - len(owned))):
                    create(cluster.instance_url(victim))  # the creator takes the lease
                owned = owned_running(engine, victim)
                t_kill = time.time()
                cluster.kill(victim)
                t_dead = time.time()  # anything stored after this is another instance's
                resumed: dict[str, float] = {}
                deadline = t_dead + args.takeover_timeout
                while len(resumed) < len(owned) and time.time() < deadline:
                    if owned:
                        resumed.update(first_actions_after(engine, owned, t_dead))
                    time.sleep(0.02)
                left = [t for t in owned if t not in resumed]
                ended = [t for t, s in statuses(engine, left).items() if s != "running"]
                after = [resumed[t] - t_kill for t in owned if t in resumed]
                new_owners = Counter(
                    o.split("/", 1)[0] for o in owners_of(engine, list(resumed)).values()
                )
                started = time.monotonic()
                cluster.restart(victim)
                samples.append(
                    {
                        "instance": victim,
                        "tables": len(owned),
                        "resumed": len(after),
                        "ended_before_kill": len(ended),
                        "not_resumed": [t for t in left if t not in ended],
                        "first_s": min(after) if after else None,
                        "all_s": max(after) if after else None,
                        "new_owners": dict(new_owners),
                        "kill_s": t_dead - t_kill,
                        "restart_s": time.monotonic() - started,
                    }
                )
        finally:
            engine.dispose()
    firsts = sorted(s["first_s"] for s in samples if s["first_s"] is not None)
    alls = sorted(s["all_s"] for s in samples if s["all_s"] is not None)
    pct = server_load.percentile
    return {
        "kills": len(samples),
        "instances": len(names),
        "bot_delay": args.takeover_bot_delay,
        "tables_per_kill_mean": statistics.fmean(s["tables"] for s in samples) if samples else 0,
        "takeover_p50_s": pct(firsts, 0.50),
        "takeover_p99_s": pct(firsts, 0.99),
        "takeover_max_s": firsts[-1] if firsts else 0.0,
        "all_resumed_p50_s": pct(alls, 0.50),
        "all_resumed_max_s": alls[-1] if alls else 0.0,
        "not_resumed": sum(len(s["not_resumed"]) for s in samples),
        "kills_without_tables": sum(1 for s in samples if not s["tables"]),
        "restart_p50_s": pct(sorted(s["restart_s"] for s in samples), 0.50),
        "samples": samples,
    }


# ---------------------------------------------------------------- (c) chaos


def chaos_run(cluster: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The chaos driver with the bench's sizes."""
    cfg = chaos.ChaosConfig(
        tables=args.chaos_tables,
        players=args.players,
        kills=args.chaos_kills,
        think=args.chaos_think,
        bot_delay=args.chaos_think,
        seed=args.seed,
        timeout=args.chaos_timeout,
    )
    return {**chaos.chaos(cluster, cfg).report.to_json(), "config": asdict(cfg)}


# ---------------------------------------------------------------- report


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the parts asked for; their figures."""
    base = Path(args.dir) if args.dir else None
    out: dict[str, Any] = {
        "cores": os.cpu_count(),
        "processor": _cpu_model(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average_start": os.getloadavg()[0],
        "options": {k: v for k, v in vars(args).items() if k not in ("out", "json")},
    }
    with tempfile.TemporaryDirectory(prefix="pyramids-cluster-bench-", dir=base) as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        if "throughput" in args.only:
            out["throughput"] = []
            for n in args.instances:
                with cluster_of(root, f"n{n}", n) as cluster:
                    out["throughput"].append(throughput(cluster, n, args))
                    if args.direct:
                        out["throughput"].append(throughput(cluster, n, args, direct=True))
                _progress(args, f"throughput with {n} instance(s) done")
        if "takeover" in args.only:
            with cluster_of(root, "takeover", 3) as cluster:
                out["takeover"] = takeover(cluster, args)
            _progress(args, "takeover done")
        if "chaos" in args.only:
            with cluster_of(root, "chaos", 3) as cluster:
                out["chaos"] = chaos_run(cluster, args)
            out["lost"] = out["chaos"]["lost"]
            out["duplicated"] = out["chaos"]["duplicated"]
            _progress(args, "chaos done")
    out["load_average_end"] = os.getloadavg()[0]
    return out


def _progress(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def print_report(fig: dict[str, Any]) -> None:
    """Print the figures for people."""
    opt = fig["options"]
    print(
        f"cluster bench on {fig['cores']} cores ({fig['processor']}), CPython {fig['python']}; "
        "PostgreSQL, HAProxy, the instances and the clients all on this machine"
    )
    if "throughput" in fig:
        pace = f"paced at {opt['rate']:.0f} actions/s" if opt["rate"] > 0 else "acting at once"
        print(
            f"\n(a) throughput through the balancer: {opt['tables']} tables × {opt['players']} "
            f"human seats ({opt['tables'] * opt['players']} WebSocket clients in "
            f"{opt['clients']} process(es); route direct: one per instance, past the "
            f"balancer), {pace}, preset {opt['preset']}, "
            f"{opt['seconds']:.0f} s after {opt['warmup']:.0f} s warm-up"
        )
        print(
            "| instances | route | actions/s | p50 ms | p90 ms | p99 ms | max ms | CPU (cores): "
            "instances | PostgreSQL | HAProxy | clients | machine busy | errors |"
        )
        print("| --- " * 13 + "|")
        for r in fig["throughput"]:
            print(
                f"| {r['instances']} | {r['route']} | {r['actions_per_s']:,.0f} | {r['p50_ms']:.1f} | "
                f"{r['p90_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.0f} | "
                f"{r['instances_cpu_cores']:.2f} | {r['postgres_cpu_cores']:.2f} | "
                f"{r['balancer_cpu_cores']:.2f} | {r['load_cpu_cores']:.2f} | "
                f"{r['machine_busy_cores']:.2f} | {r['error_count']} |"
            )
    if "takeover" in fig:
        t = fig["takeover"]
        print(
            f"\n(b) takeover after kill -9: {t['kills']} kills of {t['instances']} instances in "
            f"turn, {t['tables_per_kill_mean']:.1f} running all-bot tables owned by the victim "
            f"on average (bot_delay {t['bot_delay']} s)"
        )
        print(
            f"SIGKILL → first action stored on one of its tables: p50 {t['takeover_p50_s']:.2f} "
            f"s, p99 {t['takeover_p99_s']:.2f} s, max {t['takeover_max_s']:.2f} s; every one of "
            f"its tables moving again: p50 {t['all_resumed_p50_s']:.2f} s, max "
            f"{t['all_resumed_max_s']:.2f} s; tables never resumed: {t['not_resumed']}; restart "
            f"of the killed instance p50 {t['restart_p50_s']:.1f} s"
        )
    if "chaos" in fig:
        c = fig["chaos"]
        print(f"\n(c) chaos: {chaos.ChaosReport(**_report_fields(c)).summary()}")
        print(f"acknowledged actions lost: {c['lost']}, duplicated: {c['duplicated']}")
        for p in c["problems"][:10]:
            print(f"  problem: {p}")
    print(
        f"\nload average (1 min): {fig['load_average_start']:.2f} at the start, "
        f"{fig['load_average_end']:.2f} at the end"
    )


def _report_fields(c: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k in chaos.ChaosReport.__dataclass_fields__}


def _instances(text: str) -> list[int]:
    values = [int(x) for x in text.split(",") if x.strip()]
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("a comma-separated list of instance counts, e.g. 1,2,3")
    return values


PARTS = ("throughput", "takeover", "chaos")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run, print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS), help="parts to run")
    p.add_argument("--instances", type=_instances, default=[1, 2, 3], help="(a) default 1,2,3")
    p.add_argument("--tables", type=int, default=40, help="(a) concurrent tables (default 40)")
    p.add_argument("--players", type=int, default=3, help="seats per table (default 3)")
    p.add_argument("--preset", default="standard", help="rules preset (default standard)")
    p.add_argument("--seconds", type=float, default=30.0, help="(a) measured seconds per N (30)")
    p.add_argument("--warmup", type=float, default=3.0, help="(a) warm-up seconds (default 3)")
    p.add_argument("--rate", type=float, default=0.0, help="(a) offered actions/s (0: at once)")
    p.add_argument("--clients", type=int, default=1, help="(a) load-generator processes (1)")
    p.add_argument(
        "--direct",
        action="store_true",
        help="(a) also measure each N with clients on the instances directly (no balancer; "
        "every table played on its owner; one client process per instance)",
    )
    p.add_argument("--kills", type=int, default=20, help="(b) kills timed (default 20)")
    p.add_argument(
        "--takeover-tables", type=int, default=12, help="(b) running all-bot tables (12)"
    )
    p.add_argument("--per-kill", type=int, default=3, help="(b) tables the victim owns (>= 3)")
    p.add_argument(
        "--takeover-bot-delay", type=float, default=0.1, help="(b) bot_delay (default 0.1 s)"
    )
    p.add_argument(
        "--takeover-timeout", type=float, default=20.0, help="(b) seconds to wait per kill (20)"
    )
    p.add_argument(
        "--chaos-tables", type=int, default=30, help="(c) tables (default 30, as issue 16 asks)"
    )
    p.add_argument("--chaos-kills", type=int, default=8, help="(c) kills (default 8)")
    p.add_argument(
        "--chaos-think", type=float, default=0.4, help="(c) players' think and bot_delay (0.4 s)"
    )
    p.add_argument(
        "--chaos-timeout", type=float, default=180.0, help="(c) seconds to finish (default 180)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    p.add_argument("--dir", default=None, help="where the clusters' directories go")
    p.add_argument("--out", default=None, help="also write the figures to this JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    fig = run(args)
    if args.out:
        Path(args.out).write_text(json.dumps(fig, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        print_report(fig)
    bad = "chaos" in fig and (
        fig["lost"] or fig["duplicated"] or fig["chaos"]["tables_finished"] < fig["chaos"]["tables"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
