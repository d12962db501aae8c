"""`pyramids bench`: the one-core engine benchmark, as tables or as one JSON object.

Every registered game by default (``--game NAME`` for one, ``all``). The measuring is done by
``pyramids.analysis.bench``; see its module doc (and bench/README.md) for exactly what
is timed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from pyramids.analysis import bench as measure
from pyramids.games import descriptor, names

GAME_HELP = f"Game to measure: {', '.join(names())} or all."


def bench(
    *,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds", "-s", help="Approximate time budget per game, in seconds.", min=0.0
        ),
    ] = measure.DEFAULT_SECONDS,
    game: Annotated[str, typer.Option("--game", "-g", help=GAME_HELP)] = "all",
) -> None:
    """Measure self-play speed (random and greedy bots), view and clone cost on one core."""
    err = Console(stderr=True)
    name = game.strip().lower()
    known = measure.bench_games()
    if name not in (*known, "all"):
        err.print(f"[red]error:[/red] unknown game {game!r} (choose {', '.join(known)} or all)")
        raise typer.Exit(2)
    games = known if name == "all" else (name,)
    if not as_json:
        total = seconds * len(games)
        err.print(f"benchmarking {' and '.join(games)} for about {total:g} s on one core...")
    figures = measure.bench(seconds, games)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    out = Console()
    for one in games:
        _print_game(out, figures, descriptor(one).title(), measure.setup_of(one).key_suffix)
    out.print(
        f"Python {figures['python']} {figures['implementation']} on {figures['machine']}, "
        "one process"
    )


def _print_game(out: Console, figures: dict[str, Any], title: str, suffix: str) -> None:
    """One game's tables: keys ``<measure><suffix>`` (the game's bench ``key_suffix``)."""

    def fig(key: str) -> Any:
        return figures[key + suffix]

    summary = Table(title=f"{title} (one process)")
    summary.add_column("measure")
    summary.add_column("random", justify="right")
    summary.add_column("greedy", justify="right")
    summary.add_row(
        "turns/s", f"{fig('turns_per_s_random'):,.0f}", f"{fig('turns_per_s_greedy'):,.0f}"
    )
    summary.add_row(
        "games/s", f"{fig('games_per_s_random'):,.1f}", f"{fig('games_per_s_greedy'):,.1f}"
    )
    summary.add_row("games played", str(fig("games_random")), str(fig("games_greedy")))
    out.print(summary)
    rows = fig("by_config")
    keys = ["preset", "players"] if "preset" in rows[0] else ["players"]
    detail = Table(title=f"by {' and '.join(keys)} (turns/s, games/s, turns/game)")
    for name in (*keys, "random t/s", "greedy t/s", "random g/s", "greedy g/s"):
        detail.add_column(name, justify="left" if name == "preset" else "right")
    detail.add_column("turns/game r|g", justify="right")
    for row in rows:
        detail.add_row(
            *(str(row[k]) for k in keys),
            f"{row['turns_per_s_random']:,.0f}",
            f"{row['turns_per_s_greedy']:,.0f}",
            f"{row['games_per_s_random']:,.1f}",
            f"{row['games_per_s_greedy']:,.1f}",
            f"{row['turns_per_game_random']:.0f} | {row['turns_per_game_greedy']:.0f}",
        )
    out.print(detail)
    out.print(
        f"clone: {fig('clone_us'):.2f} us   view: {fig('view_us'):.2f} us   "
        "(median, mid-game states)"
    )
