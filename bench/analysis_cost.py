"""What the server's computer analysis of a finished game costs (issue 30): processor
seconds per analysis, per decision, for each game and player count.

Each game is played by the ladder's ``normal`` search in seat 0 and ``greedy`` in the
others (a person's game against bots, roughly), then analysed as the server does
(``pyramids.bots.advice.analyse_record``: the ``normal`` level's search, its iteration
budget unless ``--iterations``, seed 0), everything on ``--engine`` (default:
``$PYRAMIDS_ENGINE``, else auto). Prints one line per game and player count and,
with ``--json``, the figures as JSON. The processor time is the analysing process's
(``time.process_time``), so another load on the machine changes it little.

    .venv/bin/python bench/analysis_cost.py                  # 5 games of each
    .venv/bin/python bench/analysis_cost.py --games 2 --only flaming/2
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from pyramids.bots import make_bot
from pyramids.bots.advice import advice_settings, analyse_record
from pyramids.cli.engine_opt import add_engine_argument, parsed_engine
from pyramids.core.record import play_game
from pyramids.games import make_game
from pyramids.games.engine import Engine

SETUPS = ("flaming/2", "flaming/4", "flags/2", "flags/4")


def measure(
    setup: str, games: int, iterations: int | None, seed: int, engine: Engine = Engine.AUTO
) -> dict[str, Any]:
    """Play and analyse ``games`` games of ``setup`` (``game/players``) on ``engine``."""
    game, players = setup.split("/")
    n = int(players)
    cpu: list[float] = []
    decisions: list[int] = []
    actions: list[int] = []
    mistakes: list[int] = []
    for i in range(games):
        bots = [
            make_bot("ismcts:normal", engine=engine),
            *(make_bot("greedy", engine=engine) for _ in range(n - 1)),
        ]
        _, record = play_game(make_game(game, n, engine=engine), bots, seed + i, game_name=game)
        analysis = analyse_record(record, iterations=iterations, engine=engine)
        cpu.append(analysis.cpu_seconds)
        decisions.append(len(analysis.decisions))
        actions.append(len(record.actions))
        mistakes.append(len(analysis.mistakes()))
    per_decision = [1000 * c / max(1, d) for c, d in zip(cpu, decisions, strict=True)]
    return {
        "setup": setup,
        "engine": str(engine),
        "games": games,
        "iterations": advice_settings(game, n, iterations=iterations).iterations,
        "decisions_mean": statistics.mean(decisions),
        "actions_mean": statistics.mean(actions),
        "cpu_s_mean": round(statistics.mean(cpu), 2),
        "cpu_s_max": round(max(cpu), 2),
        "ms_per_decision": round(statistics.mean(per_decision), 1),
        "mistakes_mean": statistics.mean(mistakes),
    }


def main() -> None:
    """Parse the options and measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games of each setup (5)")
    parser.add_argument("--only", nargs="+", choices=SETUPS, help="these setups only")
    parser.add_argument(
        "--iterations", type=int, default=None, help="per decision (default: the level's)"
    )
    parser.add_argument("--seed", type=int, default=100, help="the first game's seed (100)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    add_engine_argument(parser)
    args = parser.parse_args()
    engine = parsed_engine(parser, args.engine)
    rows = []
    for setup in args.only or SETUPS:
        started = time.monotonic()
        row = measure(setup, args.games, args.iterations, args.seed, engine)
        rows.append(row)
        print(
            f"{setup}: {row['games']} games, {row['iterations']} iterations a decision: "
            f"{row['decisions_mean']:.0f} decisions of {row['actions_mean']:.0f} actions, "
            f"CPU {row['cpu_s_mean']:.1f} s an analysis (max {row['cpu_s_max']:.1f} s), "
            f"{row['ms_per_decision']:.0f} ms a decision, {row['mistakes_mean']:.1f} mistakes "
            f"[{time.monotonic() - started:.0f} s]",
            flush=True,
        )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
