"""Ray benchmark: ``simulate`` games/s on local processes against a Ray head, and Ray's overhead.

The same games (``--game``, ``--players``, ``--bots``, seeds 0 .. ``--games``-1) are played
four ways, and their summaries must be equal apart from the timing fields:

- **local, jobs 1**: ``simulate --jobs 1`` (one process, a game at a time);
- **local, jobs 2**: ``simulate --jobs 2`` (a spawned process pool of 2);
- **Ray, 1 CPU** and **Ray, 2 CPUs**: ``simulate --cluster ray://127.0.0.1:PORT`` on a Ray
  head started here (``ray start --head --num-cpus N``, no dashboard, its own temp dir,
  killed afterwards), one task per CPU.

Each time is the whole call, connection and worker start included. Per Ray row, the
overhead per game is (Ray time - local time with as many processes) / games. Then, on the
2-CPU head, the fixed costs: ``ray.init`` over Ray Client, ``--tiny`` trivial tasks
submitted at once (time per task) and one after the other (round trip per task).

    .venv/bin/python bench/ray_throughput.py                 # 10000 flaming games, ~3 minutes
    .venv/bin/python bench/ray_throughput.py --games 300 --game flags --json

Prints a table; ``--json`` prints the figures as JSON instead. Exit status 1 if a Ray run's
results differ from the local ones.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ray_head import HeadError, ray_head  # noqa: E402

from pyramids.analysis import simulate as sim  # noqa: E402
from pyramids.cli.engine_opt import add_engine_argument, parsed_engine  # noqa: E402

TIMING = ("seconds", "games_per_s", "jobs", "cluster")


def timed(config: sim.SimConfig) -> tuple[float, dict[str, Any]]:
    """Wall seconds of ``simulate(config)`` and its summary less the timing fields."""
    start = time.perf_counter()
    summary = sim.simulate(config)
    seconds = time.perf_counter() - start
    return seconds, {k: v for k, v in summary.items() if k not in TIMING}


def _nothing(i: int) -> int:
    return i


def fixed_costs(address: str, tasks: int) -> dict[str, float]:
    """Connection time, and per trivial task: at once (throughput) and one by one (round trip)."""
    import ray  # an optional extra: only this part needs it here

    start = time.perf_counter()
    ray.init(address, logging_level=logging.ERROR, log_to_driver=False)
    connect = time.perf_counter() - start
    try:
        task = ray.remote(num_cpus=1)(_nothing)
        ray.get([task.remote(i) for i in range(4)])  # workers started
        start = time.perf_counter()
        ray.get([task.remote(i) for i in range(tasks)])
        batch = (time.perf_counter() - start) / tasks
        start = time.perf_counter()
        for i in range(tasks // 4):
            ray.get(task.remote(i))
        serial = (time.perf_counter() - start) / (tasks // 4)
    finally:
        ray.shutdown()
    return {
        "connect_s": round(connect, 3),
        "ms_per_task_batch": round(1000 * batch, 3),
        "ms_per_task_round_trip": round(1000 * serial, 3),
    }


def main() -> int:
    """Run the four ways and the fixed costs; print the table or the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--game", default="flaming")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--tiny", type=int, default=400, help="trivial tasks for the fixed cost")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_engine_argument(parser)
    args = parser.parse_args()
    engine = parsed_engine(parser, args.engine)
    load = [round(x, 2) for x in os.getloadavg()]
    config = sim.SimConfig(
        game=args.game,
        players=args.players,
        bots=tuple(args.bots.split(",")),
        games=args.games,
        seed=0,
        engine=engine,
    )
    sim.check_config(config)
    rows: list[dict[str, Any]] = []
    local: dict[int, float] = {}
    reference: dict[str, Any] | None = None
    same = True

    def record(label: str, jobs: int, seconds: float, summary: dict[str, Any]) -> None:
        nonlocal reference, same
        if reference is None:
            reference = summary
        same = same and summary == reference
        rows.append(
            {
                "run": label,
                "processes": jobs,
                "seconds": round(seconds, 3),
                "games_per_s": round(args.games / seconds, 1),
                "same_results": summary == reference,
            }
        )

    for jobs in (1, 2):
        seconds, summary = timed(replace(config, jobs=jobs))
        local[jobs] = seconds
        record(f"local, jobs {jobs}", jobs, seconds, summary)
    costs: dict[str, float] = {}
    for cpus in (1, 2):
        try:
            with ray_head(cpus) as address:
                seconds, summary = timed(replace(config, jobs=0, cluster=address))
                record(f"Ray, {cpus} CPU{'s' if cpus > 1 else ''}", cpus, seconds, summary)
                rows[-1]["overhead_ms_per_game"] = round(
                    1000 * (seconds - local[cpus]) / args.games, 3
                )
                if cpus == 2:
                    costs = fixed_costs(address, args.tiny)
        except HeadError as exc:
            raise SystemExit(str(exc)) from None
    figures = {
        "game": args.game,
        "players": args.players,
        "bots": args.bots,
        "games": args.games,
        "rows": rows,
        "fixed_costs": costs,
        "same_results": same,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_before": load,
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{args.games} {args.game} games, {args.players} players, bots {args.bots}")
        print(f"{'run':<14} {'seconds':>8} {'games/s':>8} {'overhead ms/game':>17} {'same':>5}")
        for row in rows:
            over = row.get("overhead_ms_per_game")
            print(
                f"{row['run']:<14} {row['seconds']:>8.2f} {row['games_per_s']:>8.1f} "
                f"{'' if over is None else f'{over:.2f}':>17} {'yes' if row['same_results'] else 'NO':>5}"
            )
        print(
            f"Ray fixed costs (2-CPU head): connect {costs['connect_s']:.2f} s, "
            f"{costs['ms_per_task_batch']:.2f} ms per trivial task at once, "
            f"{costs['ms_per_task_round_trip']:.2f} ms per round trip"
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
