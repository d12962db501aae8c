"""`pyramids bench`: the one-core engine benchmark, as a table or as one JSON object.

The measuring is done by ``pyramids.analysis.bench``; see its module doc (and
bench/README.md) for exactly what is timed.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from pyramids.analysis import bench as measure


def bench(
    *,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", "-s", help="Approximate time budget in seconds.", min=0.0)
    ] = measure.DEFAULT_SECONDS,
) -> None:
    """Measure self-play speed (random and greedy bots), view and clone cost on one core."""
    err = Console(stderr=True)
    if not as_json:
        err.print(f"benchmarking for about {seconds:g} s on one core...")
    figures = measure.bench(seconds)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    out = Console()
    summary = Table(title="pyramids bench (one process)")
    summary.add_column("measure")
    summary.add_column("random", justify="right")
    summary.add_column("greedy", justify="right")
    summary.add_row(
        "turns/s", f"{figures['turns_per_s_random']:,.0f}", f"{figures['turns_per_s_greedy']:,.0f}"
    )
    summary.add_row(
        "games/s", f"{figures['games_per_s_random']:,.1f}", f"{figures['games_per_s_greedy']:,.1f}"
    )
    summary.add_row("games played", str(figures["games_random"]), str(figures["games_greedy"]))
    out.print(summary)
    detail = Table(title="by preset and players (turns/s, games/s, turns/game)")
    for name in ("preset", "players", "random t/s", "greedy t/s", "random g/s", "greedy g/s"):
        detail.add_column(name, justify="right" if name != "preset" else "left")
    detail.add_column("turns/game r|g", justify="right")
    for row in figures["by_config"]:
        detail.add_row(
            row["preset"],
            str(row["players"]),
            f"{row['turns_per_s_random']:,.0f}",
            f"{row['turns_per_s_greedy']:,.0f}",
            f"{row['games_per_s_random']:,.1f}",
            f"{row['games_per_s_greedy']:,.1f}",
            f"{row['turns_per_game_random']:.0f} | {row['turns_per_game_greedy']:.0f}",
        )
    out.print(detail)
    out.print(
        f"clone: {figures['clone_us']:.2f} us   view: {figures['view_us']:.2f} us   "
        f"(median, mid-game states)   Python {figures['python']} "
        f"{figures['implementation']} on {figures['machine']}"
    )
